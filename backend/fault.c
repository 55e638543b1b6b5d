//------------------------------------------------------------------------------
// backend/fault.c: fault injection (GRBGPU_FAULT=alloc:0.1,convert:0.05,...)
//------------------------------------------------------------------------------

// Every way an offload can fail must end in a correct answer from the CPU
// library.  Tests prove that by making the offload fail on purpose:
// grbgpu_fault (point) returns true with the configured probability at each
// fault point (alloc, convert, launch, copy), and the code at that point then
// behaves as if the real operation had failed.
//
// Spec: comma-separated `point:probability` pairs, probability in [0, 1];
// points alloc, convert, launch (or kernel), copy, reorder (a reordered
// form's build: the product is made without it), and all.  "", "off",
// "none" and "0" turn injection off.  A bad spec is rejected whole.
//
// The configuration comes from grbgpu_fault_configure only: settings.c calls
// it with GRBGPU_FAULT when the settings are first read (every intercepted
// call reads them before it can reach a fault point) and with the spec given
// to grbgpu_set ("FAULT", ...).  This file reads no setting itself (it only
// logs: backend/log.c), so the arrow points one way, settings -> fault.
// Until a configure, nothing fires.
//
// Draws use a per-thread splitmix64 stream; with GRBGPU_FAULT_SEED set, the
// stream of each thread is reproducible (threads are numbered in the order of
// their first draw after a configure).
//
// Cost when nothing is configured: one relaxed atomic load.

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "backend/grbgpu_internal.h"

enum { FAULT_OFF = 0, FAULT_ON = 1 } ;

static atomic_int fault_state = FAULT_OFF ;

// fire when a uniform 64-bit draw is below threshold; UINT64_MAX: always
static atomic_uint_fast64_t fault_threshold [GG_NFAULTS] ;

static pthread_mutex_t fault_mutex = PTHREAD_MUTEX_INITIALIZER ;

// the PRNG streams: reseeded in each thread when the generation changes
static atomic_uint_fast64_t fault_seed ;
static atomic_uint_fast64_t fault_generation = 1 ;
static atomic_uint_fast64_t fault_thread_count ;
static __thread uint64_t tl_state __attribute__ ((tls_model ("initial-exec"))) ;
static __thread uint64_t tl_generation __attribute__ ((tls_model ("initial-exec"))) ;
static __thread uint64_t tl_ordinal __attribute__ ((tls_model ("initial-exec"))) ;

static const char *point_names [GG_NFAULTS] =
{
    [GG_FAULT_ALLOC] = "alloc", [GG_FAULT_CONVERT] = "convert",
    [GG_FAULT_LAUNCH] = "launch", [GG_FAULT_COPY] = "copy",
    [GG_FAULT_REORDER] = "reorder"
} ;

//------------------------------------------------------------------------------
// parse
//------------------------------------------------------------------------------

// probability p in [0, 1] -> threshold for a uniform 64-bit draw
static uint64_t threshold_of (double p)
{
    if (p <= 0) return 0 ;
    if (p >= 1) return UINT64_MAX ;
    return (uint64_t) ldexp (p, 64) ;
}

// Parse spec into thresholds (all GG_NFAULTS).  0 ok, -1 bad spec.
static int parse_spec (const char *spec, uint64_t *thresholds)
{
    for (int k = 0 ; k < GG_NFAULTS ; k++) thresholds [k] = 0 ;
    if (spec == NULL) return 0 ;
    char buf [256] ;
    size_t len = strlen (spec) ;
    if (len >= sizeof (buf)) return -1 ;
    memcpy (buf, spec, len + 1) ;

    // whole-spec words that mean "off"
    char *s = buf ;
    while (*s == ' ' || *s == '\t') s++ ;
    char *end = s + strlen (s) ;
    while (end > s && (end [-1] == ' ' || end [-1] == '\t')) *--end = '\0' ;
    if (*s == '\0' || strcasecmp (s, "off") == 0 || strcasecmp (s, "none") == 0
        || strcmp (s, "0") == 0)
    {
        return 0 ;
    }

    // (strsep, not strtok: an empty item is an error, not skipped)
    char *rest = s ;
    for (char *tok = strsep (&rest, ",") ; tok != NULL ;
        tok = strsep (&rest, ","))
    {
        char *colon = strchr (tok, ':') ;
        if (colon == NULL) return -1 ;
        *colon = '\0' ;
        // trim the name
        while (*tok == ' ' || *tok == '\t') tok++ ;
        char *e = colon ;
        while (e > tok && (e [-1] == ' ' || e [-1] == '\t')) *--e = '\0' ;
        // the probability: the whole rest must be a number in [0, 1]
        char *num_end ;
        errno = 0 ;
        double p = strtod (colon + 1, &num_end) ;
        while (*num_end == ' ' || *num_end == '\t') num_end++ ;
        if (errno != 0 || num_end == colon + 1 || *num_end != '\0'
            || !(p >= 0 && p <= 1))
        {
            return -1 ;
        }
        uint64_t t = threshold_of (p) ;
        if (strcasecmp (tok, "all") == 0)
        {
            for (int k = 0 ; k < GG_NFAULTS ; k++) thresholds [k] = t ;
            continue ;
        }
        int point = -1 ;
        for (int k = 0 ; k < GG_NFAULTS ; k++)
        {
            if (strcasecmp (tok, point_names [k]) == 0) point = k ;
        }
        if (strcasecmp (tok, "kernel") == 0) point = GG_FAULT_LAUNCH ;
        if (point < 0) return -1 ;
        thresholds [point] = t ;
    }
    return 0 ;
}

// Install thresholds (fault_mutex held).
static void install (const uint64_t *thresholds)
{
    bool any = false ;
    for (int k = 0 ; k < GG_NFAULTS ; k++)
    {
        atomic_store_explicit (&fault_threshold [k], thresholds [k],
            memory_order_relaxed) ;
        any = any || (thresholds [k] != 0) ;
    }
    // a fresh seed and generation: each thread restarts its stream
    const char *seed_env = getenv ("GRBGPU_FAULT_SEED") ;
    uint64_t seed ;
    if (seed_env != NULL && *seed_env != '\0')
    {
        seed = strtoull (seed_env, NULL, 0) ;
    }
    else
    {
        struct timespec ts ;
        clock_gettime (CLOCK_MONOTONIC, &ts) ;
        seed = (uint64_t) ts.tv_nsec ^ ((uint64_t) ts.tv_sec << 30)
            ^ (uint64_t) (uintptr_t) &ts ;
    }
    atomic_store (&fault_seed, seed) ;
    atomic_store (&fault_thread_count, 0) ;
    atomic_fetch_add (&fault_generation, 1) ;
    atomic_store_explicit (&fault_state, any ? FAULT_ON : FAULT_OFF,
        memory_order_release) ;
}

//------------------------------------------------------------------------------
// grbgpu_fault_configure
//------------------------------------------------------------------------------

int grbgpu_fault_configure (const char *spec)
{
    uint64_t thresholds [GG_NFAULTS] ;
    if (parse_spec (spec, thresholds) != 0) return -1 ;
    pthread_mutex_lock (&fault_mutex) ;
    install (thresholds) ;
    pthread_mutex_unlock (&fault_mutex) ;
    return 0 ;
}

//------------------------------------------------------------------------------
// grbgpu_fault
//------------------------------------------------------------------------------

// splitmix64: a full-period 64-bit stream, good enough for coin flips
static uint64_t draw (void)
{
    uint64_t gen = atomic_load_explicit (&fault_generation,
        memory_order_acquire) ;
    if (tl_generation != gen)
    {
        tl_ordinal = atomic_fetch_add (&fault_thread_count, 1) + 1 ;
        tl_state = atomic_load (&fault_seed)
            ^ (tl_ordinal * 0xd1b54a32d192ed03ULL) ;
        tl_generation = gen ;
    }
    uint64_t z = (tl_state += 0x9e3779b97f4a7c15ULL) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL ;
    return z ^ (z >> 31) ;
}

bool grbgpu_fault (gg_fault_point point)
{
    int state = atomic_load_explicit (&fault_state, memory_order_relaxed) ;
    if (__builtin_expect (state == FAULT_OFF, 1)) return false ;
    if ((unsigned) point >= GG_NFAULTS) return false ;
    uint64_t t = atomic_load_explicit (&fault_threshold [point],
        memory_order_relaxed) ;
    if (t == 0) return false ;
    if (t == UINT64_MAX) return true ;
    bool fire = draw ( ) < t ;
    if (fire)
    {
        grbgpu_log (2, "injected fault at %s", point_names [point]) ;
    }
    return fire ;
}
