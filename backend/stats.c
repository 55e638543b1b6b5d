//------------------------------------------------------------------------------
// backend/stats.c: counters, decline reasons, the last decision per thread
//------------------------------------------------------------------------------

// Counters are relaxed atomics (any thread may count).  Decline reasons are
// string literals from classify.c / dispatch.c, counted in a small table keyed
// by the literal's address (a reason is compared by text when first seen, so
// the same text from two places is one reason).

#include "config.h"
#include "backend/grbgpu_internal.h"

#include <pthread.h>
#include <string.h>

static _Atomic uint64_t counters [GG_STAT_NCOUNTERS] ;
static _Atomic uint64_t seconds_ns [3] ;     // convert, h2d, d2h (nanoseconds)

void grbgpu_count (gg_stat which, uint64_t n)
{
    atomic_fetch_add_explicit (&counters [which], n, memory_order_relaxed) ;
}

void grbgpu_count_seconds (int which, double seconds)
{
    if (which < 0 || which > 2 || !(seconds > 0)) return ;
    atomic_fetch_add_explicit (&seconds_ns [which], (uint64_t) (seconds * 1e9),
        memory_order_relaxed) ;
}

//------------------------------------------------------------------------------
// decline reasons
//------------------------------------------------------------------------------

#define MAX_REASONS 64
static pthread_mutex_t reasons_lock = PTHREAD_MUTEX_INITIALIZER ;
static const char *reason_text [MAX_REASONS] ;
static uint64_t reason_count [MAX_REASONS] ;
static int nreasons = 0 ;

void grbgpu_count_decline (const char *reason)
{
    pthread_mutex_lock (&reasons_lock) ;
    int k ;
    for (k = 0 ; k < nreasons ; k++)
    {
        if (reason_text [k] == reason || !strcmp (reason_text [k], reason)) break ;
    }
    if (k == nreasons && nreasons < MAX_REASONS)
    {
        reason_text [nreasons] = reason ;
        reason_count [nreasons] = 0 ;
        nreasons++ ;
    }
    if (k < nreasons) reason_count [k]++ ;
    pthread_mutex_unlock (&reasons_lock) ;
}

GG_EXPORT int grbgpu_stats_declines (const char **reasons, uint64_t *counts, int max)
{
    pthread_mutex_lock (&reasons_lock) ;
    int n = nreasons ;
    for (int k = 0 ; k < n && k < max ; k++)
    {
        if (reasons != NULL) reasons [k] = reason_text [k] ;
        if (counts != NULL) counts [k] = reason_count [k] ;
    }
    pthread_mutex_unlock (&reasons_lock) ;
    return n ;
}

//------------------------------------------------------------------------------
// last decision of this thread
//------------------------------------------------------------------------------

static _Thread_local char last_decision [160] = "none" ;

void grbgpu_set_last_decision (const char *what, const char *reason)
{
    if (reason == NULL) snprintf (last_decision, sizeof (last_decision), "%s", what) ;
    else snprintf (last_decision, sizeof (last_decision), "%s: %s", what, reason) ;
}

GG_EXPORT const char *grbgpu_last_decision (void)
{
    return last_decision ;
}

//------------------------------------------------------------------------------
// public read-out
//------------------------------------------------------------------------------

GG_EXPORT void grbgpu_stats_get (grbgpu_stats *s)
{
    if (s == NULL) return ;
    uint64_t c [GG_STAT_NCOUNTERS] ;
    for (int k = 0 ; k < GG_STAT_NCOUNTERS ; k++)
    {
        c [k] = atomic_load_explicit (&counters [k], memory_order_relaxed) ;
    }
    s->intercepted = c [GG_STAT_INTERCEPTED] ;
    s->offloaded_host = c [GG_STAT_OFFLOADED_HOST] ;
    s->offloaded_cuda = c [GG_STAT_OFFLOADED_CUDA] ;
    s->declined = c [GG_STAT_DECLINED] ;
    s->fallbacks = c [GG_STAT_FALLBACKS] ;
    s->cache_hits = c [GG_STAT_CACHE_HITS] ;
    s->cache_misses = c [GG_STAT_CACHE_MISSES] ;
    s->cache_evictions = c [GG_STAT_CACHE_EVICTIONS] ;
    s->cache_invalidations = c [GG_STAT_CACHE_INVALIDATIONS] ;
    s->bytes_h2d = c [GG_STAT_BYTES_H2D] ;
    s->bytes_d2h = c [GG_STAT_BYTES_D2H] ;
    s->outputs_reused = c [GG_STAT_OUTPUTS_REUSED] ;
    s->convert_seconds = 1e-9 * (double) atomic_load (&seconds_ns [0]) ;
    s->h2d_seconds = 1e-9 * (double) atomic_load (&seconds_ns [1]) ;
    s->d2h_seconds = 1e-9 * (double) atomic_load (&seconds_ns [2]) ;
}

GG_EXPORT void grbgpu_stats_reset (void)
{
    for (int k = 0 ; k < GG_STAT_NCOUNTERS ; k++) atomic_store (&counters [k], 0) ;
    for (int k = 0 ; k < 3 ; k++) atomic_store (&seconds_ns [k], 0) ;
    pthread_mutex_lock (&reasons_lock) ;
    nreasons = 0 ;
    pthread_mutex_unlock (&reasons_lock) ;
}

GG_EXPORT void grbgpu_stats_line (char *buf, size_t len)
{
    if (buf == NULL || len == 0) return ;
    grbgpu_stats s ;
    grbgpu_stats_get (&s) ;
    int n = snprintf (buf, len,
        "grbgpu: stats: intercepted=%llu offloaded_cuda=%llu offloaded_host=%llu"
        " declined=%llu fallbacks=%llu cache_hits=%llu cache_misses=%llu"
        " evictions=%llu reused_outputs=%llu convert_s=%.3f h2d_bytes=%llu d2h_bytes=%llu",
        (unsigned long long) s.intercepted, (unsigned long long) s.offloaded_cuda,
        (unsigned long long) s.offloaded_host, (unsigned long long) s.declined,
        (unsigned long long) s.fallbacks, (unsigned long long) s.cache_hits,
        (unsigned long long) s.cache_misses, (unsigned long long) s.cache_evictions,
        (unsigned long long) s.outputs_reused, s.convert_seconds, (unsigned long long) s.bytes_h2d,
        (unsigned long long) s.bytes_d2h) ;
    if (s.h2d_seconds > 0 && n > 0 && (size_t) n < len)
    {
        n += snprintf (buf + n, len - n, " h2d_GBps=%.1f",
            1e-9 * (double) s.bytes_h2d / s.h2d_seconds) ;
    }
    if (s.d2h_seconds > 0 && n > 0 && (size_t) n < len)
    {
        n += snprintf (buf + n, len - n, " d2h_GBps=%.1f",
            1e-9 * (double) s.bytes_d2h / s.d2h_seconds) ;
    }
    const char *r [8] ;
    uint64_t c [8] ;
    int nr = grbgpu_stats_declines (r, c, 8) ;
    for (int k = 0 ; k < nr && k < 8 && n > 0 && (size_t) n < len ; k++)
    {
        n += snprintf (buf + n, len - n, "%s[%s]=%llu", k == 0 ? " declined_by:" : " ",
            r [k], (unsigned long long) c [k]) ;
    }
}
