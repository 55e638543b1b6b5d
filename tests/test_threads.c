//------------------------------------------------------------------------------
// tests/test_threads.c: versions and the cache under concurrent use
//------------------------------------------------------------------------------

// Several threads at once:
//  - mutate private matrices through the wrappers, and create and free
//    vectors: every version any thread saw is distinct, and the version
//    table ends where it began;
//  - mutate one shared matrix (serialized by the test, as GraphBLAS
//    requires): every mutation moves its version;
//  - bump, free and re-create shared handles while building, inserting,
//    acquiring and releasing cache entries for them under a small host and
//    device budget: a served entry always matches its key; once every
//    shared handle is bumped, nothing is left in the cache (so no insert
//    slipped past an invalidation), and every payload and device copy was
//    freed exactly once.
//
// Checks inside threads count failures (CMocka's asserts must stay on the
// main thread); the main thread asserts the count is 0.

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/cache/cache.h"
#include "backend/interpose/objver.h"           // grbgpu_objver_live

#define NTHREADS 8

static atomic_int failures ;

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond))                                                        \
        {                                                                   \
            if (atomic_fetch_add (&failures, 1) < 10)                       \
                fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__,      \
                    __LINE__, #cond) ;                                      \
        }                                                                   \
    } while (0)

static uint64_t xorshift (uint64_t *s)
{
    *s ^= *s << 13 ;
    *s ^= *s >> 7 ;
    *s ^= *s << 17 ;
    return *s ;
}

static int cmp_u64 (const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b ;
    return (x > y) - (x < y) ;
}

static int setup (void **state)
{
    (void) state ;
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return -1 ;
    GxB_set (GxB_NTHREADS, 1) ;     // the test makes its own threads
    return 0 ;
}

static int teardown (void **state)
{
    (void) state ;
    GrB_finalize ( ) ;
    return 0 ;
}

//------------------------------------------------------------------------------
// versions: private and shared GraphBLAS objects
//------------------------------------------------------------------------------

enum { NMUT = 3000 } ;

typedef struct
{
    int id ;
    uint64_t seen [NMUT] ;          // versions of the private matrix
}
ver_work ;

static GrB_Matrix shared_A ;
static pthread_mutex_t shared_A_lock = PTHREAD_MUTEX_INITIALIZER ;

static void *version_worker (void *arg)
{
    ver_work *w = arg ;
    uint64_t rng = 0x9e3779b97f4a7c15ULL * (w->id + 1) ;
    GrB_Matrix A ;
    CHECK (GrB_Matrix_new (&A, GrB_FP64, 100, 100) == GrB_SUCCESS) ;
    uint64_t prev = grbgpu_objver_get (A) ;
    for (int k = 0 ; k < NMUT ; k++)
    {
        GrB_Index i = xorshift (&rng) % 100, j = xorshift (&rng) % 100 ;
        switch (k % 4)
        {
            case 0: CHECK (GrB_Matrix_setElement_FP64 (A, k, i, j) == GrB_SUCCESS) ; break ;
            case 1: CHECK (GrB_Matrix_removeElement (A, i, j) == GrB_SUCCESS) ; break ;
            case 2: CHECK (GrB_Matrix_apply (A, NULL, NULL, GrB_AINV_FP64, A, NULL) == GrB_SUCCESS) ; break ;
            default:
                // a change, then GrB_wait (which keeps the version)
                CHECK (GrB_Matrix_apply_BinaryOp2nd_FP64 (A, NULL, NULL, GrB_TIMES_FP64, A, 0.5, NULL) == GrB_SUCCESS) ;
                CHECK (GrB_Matrix_wait (A, GrB_MATERIALIZE) == GrB_SUCCESS) ;
                break ;
        }
        uint64_t v = grbgpu_objver_get (A) ;
        CHECK (v != 0 && v != prev) ;
        w->seen [k] = prev = v ;

        // a short-lived vector
        if (k % 8 == 0)
        {
            GrB_Vector t ;
            CHECK (GrB_Vector_new (&t, GrB_INT32, 10) == GrB_SUCCESS) ;
            CHECK (grbgpu_objver_get (t) != 0) ;
            CHECK (GrB_Vector_free (&t) == GrB_SUCCESS) ;
        }

        // the shared matrix, one thread at a time
        if (k % 16 == 0)
        {
            pthread_mutex_lock (&shared_A_lock) ;
            uint64_t v0 = grbgpu_objver_get (shared_A) ;
            CHECK (GrB_Matrix_setElement_FP64 (shared_A, w->id, w->id, k % 50) == GrB_SUCCESS) ;
            uint64_t v1 = grbgpu_objver_get (shared_A) ;
            CHECK (v0 != 0 && v1 != 0 && v1 != v0) ;
            pthread_mutex_unlock (&shared_A_lock) ;
        }
    }
    CHECK (GrB_Matrix_free (&A) == GrB_SUCCESS) ;
    return NULL ;
}

static void test_versions_concurrent (void **state)
{
    (void) state ;
    atomic_store (&failures, 0) ;
    size_t live0 = grbgpu_objver_live ( ) ;
    assert_int_equal (GrB_Matrix_new (&shared_A, GrB_FP64, NTHREADS, 50), GrB_SUCCESS) ;
    ver_work *w = calloc (NTHREADS, sizeof (ver_work)) ;
    pthread_t tid [NTHREADS] ;
    for (int t = 0 ; t < NTHREADS ; t++)
    {
        w [t].id = t ;
        pthread_create (&tid [t], NULL, version_worker, &w [t]) ;
    }
    for (int t = 0 ; t < NTHREADS ; t++) pthread_join (tid [t], NULL) ;
    assert_int_equal (atomic_load (&failures), 0) ;

    // every version any thread saw was handed out once
    uint64_t *all = malloc (NTHREADS * NMUT * sizeof (uint64_t)) ;
    for (int t = 0 ; t < NTHREADS ; t++) memcpy (all + t * NMUT, w [t].seen, NMUT * sizeof (uint64_t)) ;
    qsort (all, NTHREADS * NMUT, sizeof (uint64_t), cmp_u64) ;
    for (int k = 1 ; k < NTHREADS * NMUT ; k++) assert_true (all [k] != all [k-1]) ;

    // the shared matrix has every thread's last write
    GrB_Index nvals ;
    assert_int_equal (GrB_Matrix_nvals (&nvals, shared_A), GrB_SUCCESS) ;
    assert_true (nvals >= NTHREADS) ;
    assert_int_equal (GrB_Matrix_free (&shared_A), GrB_SUCCESS) ;
    assert_int_equal (grbgpu_objver_live ( ), live0) ;
    free (all) ;
    free (w) ;
}

//------------------------------------------------------------------------------
// the cache under concurrent bumps, frees, inserts and device evictions
//------------------------------------------------------------------------------

enum { NSHARED = 6, NFORMS = 3, NOPS = 30000 } ;

static char shared_handles [NSHARED][64] ;
static atomic_long payload_allocs, payload_frees, dev_allocs, dev_frees ;

typedef struct
{
    gg_cache_key key ;
    uint64_t check ;        // a function of the key, to spot torn payloads
}
stamped ;

static uint64_t stamp_of (const gg_cache_key *k)
{
    return (uint64_t) (uintptr_t) k->handle * 31 + k->version * 7 + k->form ;
}

static void stamped_free (void *p)
{
    stamped *s = p ;
    CHECK (s->check == stamp_of (&s->key)) ;
    s->check = 0 ;
    atomic_fetch_add (&payload_frees, 1) ;
    free (p) ;
}

static void dev_copy_free (void *p)
{
    atomic_fetch_add (&dev_frees, 1) ;
    free (p) ;
}

static void *cache_worker (void *arg)
{
    uint64_t rng = 0x853c49e6748fea9bULL * ((uintptr_t) arg + 1) ;
    for (int k = 0 ; k < NOPS ; k++)
    {
        uint64_t r = xorshift (&rng) ;
        int h = (int) (r % NSHARED) ;
        const void *handle = shared_handles [h] ;
        int op = (int) ((r >> 8) % 100) ;
        if (op < 8)
        {
            grbgpu_objver_bump (handle) ;           // the object changed
        }
        else if (op < 10)
        {
            grbgpu_objver_drop (handle) ;           // freed ...
            grbgpu_objver_bump (handle) ;           // ... and a new one there
        }
        else if (op < 12)
        {
            grbgpu_cache_invalidate (handle) ;
        }
        else
        {
            // the dispatcher's pattern: look up, else build and insert
            gg_cache_key key = { handle, grbgpu_objver_get (handle),
                (uint64_t) ((r >> 16) % NFORMS) } ;
            gg_cache_entry *e = grbgpu_cache_acquire (&key) ;
            if (e == NULL)
            {
                stamped *s = malloc (sizeof (stamped)) ;
                s->key = key ;
                s->check = stamp_of (&key) ;
                atomic_fetch_add (&payload_allocs, 1) ;
                e = grbgpu_cache_insert (&key, s, 100, stamped_free) ;
            }
            CHECK (e != NULL) ;
            if (e == NULL) continue ;
            stamped *s = e->host ;
            CHECK (e->key.handle == key.handle && e->key.version == key.version
                && e->key.form == key.form) ;
            CHECK (s->key.handle == key.handle && s->key.version == key.version
                && s->key.form == key.form && s->check == stamp_of (&key)) ;
            // sometimes give it a device copy, as a device backend would
            if (op < 30)
            {
                pthread_mutex_lock (&e->lock) ;
                if (e->dev == NULL)
                {
                    e->dev = malloc (64) ;
                    e->dev_free = dev_copy_free ;
                    atomic_fetch_add (&dev_allocs, 1) ;
                    grbgpu_cache_account_device (e, 0, 1000) ;
                }
                pthread_mutex_unlock (&e->lock) ;
            }
            else if (op < 32)
            {
                grbgpu_cache_evict_device (-1, 2000) ;
            }
            grbgpu_cache_release (e) ;
        }
    }
    return NULL ;
}

static void test_cache_concurrent (void **state)
{
    (void) state ;
    atomic_store (&failures, 0) ;
    grbgpu_cache_clear ( ) ;
    grbgpu_settings.cache_bytes = 100 * 8 ;         // 8 of 18 possible keys
    grbgpu_cache_set_device_budget (-1, 5000) ;         // 5 device copies
    for (int h = 0 ; h < NSHARED ; h++) grbgpu_objver_bump (shared_handles [h]) ;
    pthread_t tid [NTHREADS] ;
    for (int t = 0 ; t < NTHREADS ; t++)
    {
        pthread_create (&tid [t], NULL, cache_worker, (void *) (uintptr_t) t) ;
    }
    for (int t = 0 ; t < NTHREADS ; t++) pthread_join (tid [t], NULL) ;
    assert_int_equal (atomic_load (&failures), 0) ;

    // nothing held now: within both budgets
    size_t hb, db ;
    grbgpu_cache_usage (&hb, &db) ;
    assert_true (hb <= 800) ;
    assert_true (db <= 5000) ;

    // every linked entry was marked with its handle: bumping every handle
    // must empty the cache
    for (int h = 0 ; h < NSHARED ; h++) grbgpu_objver_bump (shared_handles [h]) ;
    grbgpu_cache_usage (&hb, &db) ;
    assert_int_equal (hb, 0) ;
    assert_int_equal (db, 0) ;
    assert_int_equal (atomic_load (&payload_allocs), atomic_load (&payload_frees)) ;
    assert_int_equal (atomic_load (&dev_allocs), atomic_load (&dev_frees)) ;
    assert_true (atomic_load (&payload_allocs) > 1000) ;     // it did work
    for (int h = 0 ; h < NSHARED ; h++) grbgpu_objver_drop (shared_handles [h]) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_versions_concurrent),
        cmocka_unit_test (test_cache_concurrent),
    } ;
    return cmocka_run_group_tests (tests, setup, teardown) ;
}
