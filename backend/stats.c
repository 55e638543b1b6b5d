//------------------------------------------------------------------------------
// backend/stats.c: counters, decline reasons, the last decision per thread
//------------------------------------------------------------------------------

// Counters and decline reasons (string literals from classify.c / dispatch.c,
// counted in a small table keyed by the literal's address; a reason is
// compared by text when first seen, so the same text from two places is one
// reason), and the last decision of each thread.
//
// A declined call must cost little (bench/decline_overhead), so nothing on its
// path takes a lock, makes a locked (read-modify-write) access to memory, or
// formats text: each thread counts in a block of its own, and the last
// decision is kept as its two strings and written out only when it changes.

#include "config.h"
#include "backend/grbgpu_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static _Atomic uint64_t seconds_ns [3] ;     // convert, h2d, d2h (nanoseconds)

void grbgpu_count_seconds (int which, double seconds)
{
    if (which < 0 || which > 2 || !(seconds > 0)) return ;
    atomic_fetch_add_explicit (&seconds_ns [which], (uint64_t) (seconds * 1e9),
        memory_order_relaxed) ;
}

//------------------------------------------------------------------------------
// per-thread counts
//------------------------------------------------------------------------------

// Each product counts two or three things (intercepted; declined, and why).
// With one shared counter per thing, every count would be a locked add (three
// of them were ~15 ns of a declined call), and threads making products at
// once would pass the counters' cache line back and forth.  Instead each
// thread counts in a block of its own, with a plain load and store (relaxed
// atomics: a reader never sees a torn value), and a reader sums the blocks of
// all threads, under blocks_lock.  A thread's block is folded into `retired`
// when the thread exits.  grbgpu_stats_reset cannot zero counts that other
// threads are adding to: it records the sums of the moment (`base`), which
// readers subtract.

#define MAX_REASONS 64

typedef struct gg_counts
{
    _Atomic uint64_t stat [GG_STAT_NCOUNTERS] ;
    _Atomic uint64_t reason [MAX_REASONS] ;     // by slot (below)
    struct gg_counts *next ;
}
gg_counts ;

static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER ;
static gg_counts *blocks = NULL ;       // the blocks of live threads
static gg_counts retired ;              // the counts of exited threads
static gg_counts shared ;               // the counts of threads without a
                                        // block (out of memory): atomic adds
static gg_counts base ;                 // the sums at the last reset
static pthread_key_t block_key ;
static bool block_key_ok = false ;
static pthread_once_t block_key_once = PTHREAD_ONCE_INIT ;
// (initial-exec: one load, where the general model costs a call per count)
static __thread gg_counts *my_block __attribute__ ((tls_model ("initial-exec"))) ;

// A thread exits: its counts go to `retired`.
static void block_exit (void *p)
{
    gg_counts *b = (gg_counts *) p ;
    pthread_mutex_lock (&blocks_lock) ;
    for (gg_counts **q = &blocks ; *q != NULL ; q = &(*q)->next)
    {
        if (*q == b) { *q = b->next ; break ; }
    }
    for (int k = 0 ; k < GG_STAT_NCOUNTERS ; k++)
    {
        atomic_fetch_add_explicit (&retired.stat [k],
            atomic_load_explicit (&b->stat [k], memory_order_relaxed), memory_order_relaxed) ;
    }
    for (int k = 0 ; k < MAX_REASONS ; k++)
    {
        atomic_fetch_add_explicit (&retired.reason [k],
            atomic_load_explicit (&b->reason [k], memory_order_relaxed), memory_order_relaxed) ;
    }
    pthread_mutex_unlock (&blocks_lock) ;
    my_block = NULL ;       // (a count made later in the thread's exit makes a new one)
    free (b) ;
}

static void block_key_make (void)
{
    block_key_ok = (pthread_key_create (&block_key, block_exit) == 0) ;
}

// This thread's block, made on its first count; NULL when out of memory.
static gg_counts *block_new (void)
{
    pthread_once (&block_key_once, block_key_make) ;
    if (!block_key_ok) return NULL ;
    gg_counts *b = calloc (1, sizeof (gg_counts)) ;
    if (b == NULL) return NULL ;
    if (pthread_setspecific (block_key, b) != 0) { free (b) ; return NULL ; }
    pthread_mutex_lock (&blocks_lock) ;
    b->next = blocks ;
    blocks = b ;
    pthread_mutex_unlock (&blocks_lock) ;
    my_block = b ;
    return b ;
}

static inline gg_counts *counts_of_thread (void)
{
    gg_counts *b = my_block ;
    if (__builtin_expect (b == NULL, 0)) b = block_new () ;
    return (b != NULL) ? b : &shared ;
}

// c += n: by its owner (one thread), or in `shared` by any thread
static inline void add (gg_counts *b, _Atomic uint64_t *c, uint64_t n)
{
    if (__builtin_expect (b == &shared, 0))
    {
        atomic_fetch_add_explicit (c, n, memory_order_relaxed) ;
    }
    else
    {
        atomic_store_explicit (c, atomic_load_explicit (c, memory_order_relaxed) + n,
            memory_order_relaxed) ;
    }
}

void grbgpu_count (gg_stat which, uint64_t n)
{
    gg_counts *b = counts_of_thread () ;
    add (b, &b->stat [which], n) ;
}

// The counts since the last reset, summed over all threads (under blocks_lock).
static void sum_counts (uint64_t stat [GG_STAT_NCOUNTERS], uint64_t reason [MAX_REASONS])
{
    for (int k = 0 ; k < GG_STAT_NCOUNTERS ; k++)
    {
        uint64_t c = atomic_load_explicit (&retired.stat [k], memory_order_relaxed)
            + atomic_load_explicit (&shared.stat [k], memory_order_relaxed) ;
        for (gg_counts *b = blocks ; b != NULL ; b = b->next)
        {
            c += atomic_load_explicit (&b->stat [k], memory_order_relaxed) ;
        }
        stat [k] = c - atomic_load_explicit (&base.stat [k], memory_order_relaxed) ;
    }
    for (int k = 0 ; k < MAX_REASONS ; k++)
    {
        uint64_t c = atomic_load_explicit (&retired.reason [k], memory_order_relaxed)
            + atomic_load_explicit (&shared.reason [k], memory_order_relaxed) ;
        for (gg_counts *b = blocks ; b != NULL ; b = b->next)
        {
            c += atomic_load_explicit (&b->reason [k], memory_order_relaxed) ;
        }
        reason [k] = c - atomic_load_explicit (&base.reason [k], memory_order_relaxed) ;
    }
}

//------------------------------------------------------------------------------
// decline reasons
//------------------------------------------------------------------------------

// A reason's slot (its text, and its count in each block) is never given to
// another text, not even by grbgpu_stats_reset, so a thread that found a
// slot without a lock can always count into it: slots and aliases are
// appended under the lock and published by their counts (release), read
// without it (acquire).  There are a few dozen reasons in the code, far fewer
// than the slots.
#define MAX_ALIASES 128
static pthread_mutex_t reasons_lock = PTHREAD_MUTEX_INITIALIZER ;
static const char *reason_text [MAX_REASONS] ;      // the first address seen
// the order in which reasons were first counted since the last reset
// (1, 2, ...; 0: not yet), which is the order grbgpu_stats_declines reports
// (read on every count, written once per reason and reset)
static _Atomic uint64_t reason_rank [MAX_REASONS] ;
static _Atomic uint64_t next_rank = 0 ;
static _Atomic int nreasons = 0 ;
// every address a reason's text was counted from, and its slot
static const char *alias_addr [MAX_ALIASES] ;
static int alias_slot [MAX_ALIASES] ;
static _Atomic int naliases = 0 ;

// The slot of reason (by its address), or -1.
static int find_alias (const char *reason)
{
    int n = atomic_load_explicit (&naliases, memory_order_acquire) ;
    for (int k = 0 ; k < n ; k++) if (alias_addr [k] == reason) return alias_slot [k] ;
    return -1 ;
}

// The slot of reason's text, added if new (and if there is room); -1 when
// the table is full.  A new address is remembered as an alias of its text.
static int find_or_add_reason (const char *reason)
{
    pthread_mutex_lock (&reasons_lock) ;
    int slot = find_alias (reason) ;
    if (slot < 0)
    {
        int n = atomic_load_explicit (&nreasons, memory_order_relaxed) ;
        for (int k = 0 ; k < n ; k++)
        {
            if (!strcmp (reason_text [k], reason)) { slot = k ; break ; }
        }
        if (slot < 0 && n < MAX_REASONS)
        {
            slot = n ;
            reason_text [slot] = reason ;
            atomic_store_explicit (&nreasons, n + 1, memory_order_release) ;
        }
        int na = atomic_load_explicit (&naliases, memory_order_relaxed) ;
        if (slot >= 0 && na < MAX_ALIASES)
        {
            // (when the aliases are full, this address takes the lock and
            // compares texts every time: slower, still counted right)
            alias_addr [na] = reason ;
            alias_slot [na] = slot ;
            atomic_store_explicit (&naliases, na + 1, memory_order_release) ;
        }
    }
    pthread_mutex_unlock (&reasons_lock) ;
    return slot ;
}

void grbgpu_count_decline (const char *reason)
{
    int slot = find_alias (reason) ;
    if (slot < 0) slot = find_or_add_reason (reason) ;
    if (slot < 0) return ;      // more distinct reasons than slots: not counted
    gg_counts *b = counts_of_thread () ;
    add (b, &b->reason [slot], 1) ;
    if (atomic_load_explicit (&reason_rank [slot], memory_order_relaxed) == 0)
    {
        // first time since the last reset: it is listed after those before it
        // (one thread ranks it)
        uint64_t rank = atomic_fetch_add_explicit (&next_rank, 1, memory_order_relaxed) + 1 ;
        uint64_t unranked = 0 ;
        atomic_compare_exchange_strong_explicit (&reason_rank [slot], &unranked, rank,
            memory_order_relaxed, memory_order_relaxed) ;
    }
}

GG_EXPORT int grbgpu_stats_declines (const char **reasons, uint64_t *counts, int max)
{
    // the reasons counted since the last reset, in the order first counted
    // (a reason being counted for the first time right now, its rank not yet
    // written, goes last)
    int order [MAX_REASONS] ;
    uint64_t rank [MAX_REASONS], count [MAX_REASONS] ;
    uint64_t stat [GG_STAT_NCOUNTERS], since_reset [MAX_REASONS] ;
    pthread_mutex_lock (&blocks_lock) ;
    sum_counts (stat, since_reset) ;
    pthread_mutex_unlock (&blocks_lock) ;
    int n = 0 ;
    int nr = atomic_load_explicit (&nreasons, memory_order_acquire) ;
    for (int k = 0 ; k < nr ; k++)
    {
        uint64_t c = since_reset [k] ;
        if (c == 0) continue ;
        uint64_t r = atomic_load_explicit (&reason_rank [k], memory_order_relaxed) ;
        // insertion sort by rank (a handful of entries)
        int j = n++ ;
        uint64_t rk = (r == 0) ? UINT64_MAX : r ;
        while (j > 0 && rank [j-1] > rk)
        {
            order [j] = order [j-1] ; rank [j] = rank [j-1] ; count [j] = count [j-1] ;
            j-- ;
        }
        order [j] = k ; rank [j] = rk ; count [j] = c ;
    }
    for (int k = 0 ; k < n && k < max ; k++)
    {
        if (reasons != NULL) reasons [k] = reason_text [order [k]] ;
        if (counts != NULL) counts [k] = count [k] ;
    }
    return n ;
}

//------------------------------------------------------------------------------
// last decision of this thread
//------------------------------------------------------------------------------

// what and reason are string literals (or a backend's constant name), so the
// pair of addresses names the text: the same decision as last time, the
// common case of a loop of declined calls, leaves the buffer as it is.
static _Thread_local char last_decision [160] = "none" ;
static _Thread_local const char *last_what = NULL, *last_reason = NULL ;

// Append text at buf [n] (buf holds len bytes), truncating as snprintf
// would; returns the new length.
static size_t append (char *buf, size_t n, size_t len, const char *text)
{
    size_t k = strlen (text) ;
    if (n + k >= len) k = (n + 1 < len) ? len - 1 - n : 0 ;
    memcpy (buf + n, text, k) ;
    buf [n + k] = '\0' ;
    return n + k ;
}

void grbgpu_set_last_decision (const char *what, const char *reason)
{
    if (what == last_what && reason == last_reason) return ;
    size_t n = append (last_decision, 0, sizeof (last_decision), what) ;
    if (reason != NULL)
    {
        n = append (last_decision, n, sizeof (last_decision), ": ") ;
        append (last_decision, n, sizeof (last_decision), reason) ;
    }
    last_what = what ;
    last_reason = reason ;
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
    uint64_t c [GG_STAT_NCOUNTERS], reason [MAX_REASONS] ;
    pthread_mutex_lock (&blocks_lock) ;
    sum_counts (c, reason) ;
    pthread_mutex_unlock (&blocks_lock) ;
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
    s->split = c [GG_STAT_SPLIT] ;
    s->resident_kept = c [GG_STAT_RESIDENT_KEPT] ;
    s->materialised = c [GG_STAT_MATERIALISED] ;
    s->resident_evicted = c [GG_STAT_RESIDENT_EVICTED] ;
    s->split_workers = c [GG_STAT_SPLIT_WORKERS] ;
    s->convert_seconds = 1e-9 * (double) atomic_load (&seconds_ns [0]) ;
    s->h2d_seconds = 1e-9 * (double) atomic_load (&seconds_ns [1]) ;
    s->d2h_seconds = 1e-9 * (double) atomic_load (&seconds_ns [2]) ;
}

GG_EXPORT void grbgpu_stats_reset (void)
{
    for (int k = 0 ; k < 3 ; k++) atomic_store (&seconds_ns [k], 0) ;
    // counts start again from the sums of the moment; the reasons' slots
    // stay (a concurrent count may hold one), their ranks start again
    pthread_mutex_lock (&reasons_lock) ;
    pthread_mutex_lock (&blocks_lock) ;
    uint64_t stat [GG_STAT_NCOUNTERS], reason [MAX_REASONS] ;
    sum_counts (stat, reason) ;
    for (int k = 0 ; k < GG_STAT_NCOUNTERS ; k++)
    {
        atomic_fetch_add_explicit (&base.stat [k], stat [k], memory_order_relaxed) ;
    }
    for (int k = 0 ; k < MAX_REASONS ; k++)
    {
        atomic_fetch_add_explicit (&base.reason [k], reason [k], memory_order_relaxed) ;
        atomic_store_explicit (&reason_rank [k], 0, memory_order_relaxed) ;
    }
    atomic_store_explicit (&next_rank, 0, memory_order_relaxed) ;
    pthread_mutex_unlock (&blocks_lock) ;
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
    if (s.split > 0 && n > 0 && (size_t) n < len)
    {
        n += snprintf (buf + n, len - n, " split=%llu split_workers=%llu", (unsigned long long) s.split,
            (unsigned long long) s.split_workers) ;
    }
    if (s.resident_kept > 0 && n > 0 && (size_t) n < len)
    {
        n += snprintf (buf + n, len - n, " resident_kept=%llu materialised=%llu resident_evicted=%llu",
            (unsigned long long) s.resident_kept, (unsigned long long) s.materialised,
            (unsigned long long) s.resident_evicted) ;
    }
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
