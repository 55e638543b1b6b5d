//------------------------------------------------------------------------------
// tests/test_cache.c: the cache of converted operands (backend/cache/cache.c)
//------------------------------------------------------------------------------

// Handles here are plain addresses registered with grbgpu_objver_bump, as the
// wrappers would; payloads are malloc'ed blocks that record their key, and
// every free is counted, so that a payload freed too early, twice or never
// shows up.

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/cache/cache.h"

extern atomic_uint_fast64_t gg_test_counts [GG_STAT_NCOUNTERS] ;

static int payload_frees = 0 ;
static int dev_frees = 0 ;

typedef struct
{
    gg_cache_key key ;
    double data [4] ;
}
payload ;

static void payload_free (void *p)
{
    payload_frees++ ;
    free (p) ;
}

static void dev_free (void *p)
{
    dev_frees++ ;
    free (p) ;
}

static payload *make_payload (const gg_cache_key *key)
{
    payload *p = malloc (sizeof (payload)) ;
    p->key = *key ;
    for (int k = 0 ; k < 4 ; k++) p->data [k] = (double) key->version + k ;
    return p ;
}

static uint64_t count (gg_stat s)
{
    return atomic_load (&gg_test_counts [s]) ;
}

// handles: distinct addresses
static char handles [16][64] ;

static gg_cache_key key_of (int h, uint64_t form)
{
    gg_cache_key k = { handles [h], grbgpu_objver_get (handles [h]), form } ;
    return k ;
}

static gg_cache_entry *insert (int h, uint64_t form, size_t bytes)
{
    gg_cache_key k = key_of (h, form) ;
    return grbgpu_cache_insert (&k, make_payload (&k), bytes, payload_free) ;
}

static bool present (int h, uint64_t form)
{
    // (acquire counts a hit or miss; the tests that check counters take
    // their deltas around their own calls)
    gg_cache_key k = key_of (h, form) ;
    gg_cache_entry *e = grbgpu_cache_acquire (&k) ;
    if (e == NULL) return false ;
    payload *p = e->host ;
    assert_ptr_equal (p->key.handle, k.handle) ;
    assert_int_equal (p->key.version, k.version) ;
    assert_int_equal (p->key.form, k.form) ;
    grbgpu_cache_release (e) ;
    return true ;
}

static int setup_each (void **state)
{
    (void) state ;
    grbgpu_cache_clear ( ) ;
    grbgpu_settings.cache_bytes = 1 << 20 ;
    grbgpu_cache_set_device_budget (-1, 0) ;
    for (int h = 0 ; h < 16 ; h++) grbgpu_objver_bump (handles [h]) ;
    payload_frees = 0 ;
    dev_frees = 0 ;
    return 0 ;
}

static int teardown_each (void **state)
{
    (void) state ;
    grbgpu_cache_clear ( ) ;
    size_t hb, db ;
    grbgpu_cache_usage (&hb, &db) ;
    return (hb == 0 && db == 0) ? 0 : -1 ;
}

//------------------------------------------------------------------------------

static void test_insert_acquire_release (void **state)
{
    (void) state ;
    uint64_t hits = count (GG_STAT_CACHE_HITS), misses = count (GG_STAT_CACHE_MISSES) ;
    gg_cache_key k = key_of (0, 7) ;
    assert_null (grbgpu_cache_acquire (&k)) ;
    assert_int_equal (count (GG_STAT_CACHE_MISSES), misses + 1) ;
    gg_cache_entry *e = insert (0, 7, 100) ;
    assert_non_null (e) ;
    payload *p = e->host ;
    assert_true (p->data [1] == (double) k.version + 1) ;
    grbgpu_cache_release (e) ;
    size_t hb ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 100) ;

    gg_cache_entry *e2 = grbgpu_cache_acquire (&k) ;
    assert_ptr_equal (e2, e) ;
    assert_int_equal (count (GG_STAT_CACHE_HITS), hits + 1) ;
    // two holders at once
    gg_cache_entry *e3 = grbgpu_cache_acquire (&k) ;
    assert_ptr_equal (e3, e) ;
    grbgpu_cache_release (e2) ;
    grbgpu_cache_release (e3) ;
    assert_int_equal (payload_frees, 0) ;

    // another form, another version of the same handle: misses
    gg_cache_key k2 = key_of (0, 8) ;
    assert_null (grbgpu_cache_acquire (&k2)) ;
    gg_cache_key k3 = k ;
    k3.version++ ;
    assert_null (grbgpu_cache_acquire (&k3)) ;
    // version 0 is never served
    gg_cache_key k0 = { handles [0], 0, 7 } ;
    assert_null (grbgpu_cache_acquire (&k0)) ;
    assert_int_equal (count (GG_STAT_CACHE_HITS), hits + 2) ;
    assert_int_equal (count (GG_STAT_CACHE_MISSES), misses + 4) ;
}

// A second insert of the same key (another thread built it meanwhile) frees
// its own payload and returns the first.
static void test_insert_duplicate (void **state)
{
    (void) state ;
    gg_cache_entry *a = insert (1, 1, 50) ;
    gg_cache_entry *b = insert (1, 1, 50) ;
    assert_ptr_equal (a, b) ;
    assert_int_equal (payload_frees, 1) ;
    size_t hb ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 50) ;
    grbgpu_cache_release (a) ;
    grbgpu_cache_release (b) ;
    assert_true (present (1, 1)) ;
}

// Version 0, and payloads bigger than the whole budget, are handed back
// unlinked, and freed at release.
static void test_unlinked (void **state)
{
    (void) state ;
    static char unknown [8] ;
    gg_cache_key k0 = { unknown, 0, 1 } ;
    gg_cache_entry *e = grbgpu_cache_insert (&k0, make_payload (&k0), 10, payload_free) ;
    assert_non_null (e) ;
    assert_null (grbgpu_cache_acquire (&k0)) ;
    grbgpu_cache_release (e) ;
    assert_int_equal (payload_frees, 1) ;

    grbgpu_settings.cache_bytes = 1000 ;
    e = insert (2, 1, 1001) ;
    assert_non_null (e) ;
    assert_false (present (2, 1)) ;
    size_t hb ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 1001) ;         // held: still counted
    grbgpu_cache_release (e) ;
    assert_int_equal (payload_frees, 2) ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 0) ;

    // a budget of 0 caches nothing
    grbgpu_settings.cache_bytes = 0 ;
    e = insert (2, 2, 1) ;
    grbgpu_cache_release (e) ;
    assert_false (present (2, 2)) ;
    assert_int_equal (payload_frees, 3) ;
}

// Least recently used entries go first when the budget is exceeded.
static void test_lru_eviction (void **state)
{
    (void) state ;
    grbgpu_settings.cache_bytes = 300 ;
    uint64_t ev = count (GG_STAT_CACHE_EVICTIONS) ;
    for (int h = 3 ; h <= 5 ; h++) grbgpu_cache_release (insert (h, 0, 100)) ;
    // use 3 (now most recent), so 4 is the least recently used
    assert_true (present (3, 0)) ;
    grbgpu_cache_release (insert (6, 0, 100)) ;
    assert_int_equal (count (GG_STAT_CACHE_EVICTIONS), ev + 1) ;
    assert_int_equal (payload_frees, 1) ;
    assert_true (present (3, 0)) ;
    assert_false (present (4, 0)) ;
    assert_true (present (5, 0)) ;
    assert_true (present (6, 0)) ;
    // order now (most recent first): 6 5 3; a 250-byte entry evicts all
    // three but no more
    grbgpu_cache_release (insert (7, 0, 250)) ;
    assert_int_equal (payload_frees, 4) ;
    assert_int_equal (count (GG_STAT_CACHE_EVICTIONS), ev + 4) ;
    assert_true (present (7, 0)) ;
    size_t hb ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 250) ;
    // a smaller budget takes effect at the next insert
    grbgpu_settings.cache_bytes = 100 ;
    grbgpu_cache_release (insert (8, 0, 60)) ;
    assert_false (present (7, 0)) ;
    assert_true (present (8, 0)) ;
}

// An entry in use is not evicted (nor freed) until released; the budget is
// enforced again at its release.
static void test_in_use_survives (void **state)
{
    (void) state ;
    grbgpu_settings.cache_bytes = 200 ;
    gg_cache_entry *held = insert (3, 0, 100) ;
    grbgpu_cache_release (insert (4, 0, 100)) ;
    grbgpu_cache_release (insert (5, 0, 100)) ;    // over: 4 goes, not 3
    assert_int_equal (payload_frees, 1) ;
    assert_false (present (4, 0)) ;
    grbgpu_cache_release (insert (6, 0, 100)) ;    // over: 5 goes, not 3
    assert_false (present (5, 0)) ;
    payload *p = held->host ;
    assert_ptr_equal (p->key.handle, handles [3]) ;
    assert_true (present (3, 0)) ;                  // still in the table

    // 7 (held too) does not fit next to 3: 6 goes, and the cache stays
    // over budget while both are held ...
    gg_cache_entry *held7 = insert (7, 0, 150) ;
    assert_false (present (6, 0)) ;
    size_t hb ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 250) ;
    // ... until 3 is released (3 is then least recently used)
    grbgpu_cache_release (held) ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 150) ;
    assert_false (present (3, 0)) ;
    grbgpu_cache_release (held7) ;
    assert_true (present (7, 0)) ;
    assert_int_equal (payload_frees, 4) ;
}

// A bump or a free drops the handle's entries; held ones live on until
// released.
static void test_invalidation (void **state)
{
    (void) state ;
    uint64_t inv = count (GG_STAT_CACHE_INVALIDATIONS) ;
    grbgpu_cache_release (insert (9, 1, 10)) ;
    grbgpu_cache_release (insert (9, 2, 10)) ;
    grbgpu_cache_release (insert (10, 1, 10)) ;
    gg_cache_key old = key_of (9, 1) ;
    grbgpu_objver_bump (handles [9]) ;
    assert_int_equal (count (GG_STAT_CACHE_INVALIDATIONS), inv + 2) ;
    assert_int_equal (payload_frees, 2) ;
    assert_null (grbgpu_cache_acquire (&old)) ;
    assert_true (present (10, 1)) ;
    size_t hb ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 10) ;

    // free
    gg_cache_entry *held = insert (10, 2, 10) ;
    grbgpu_objver_drop (handles [10]) ;
    assert_int_equal (count (GG_STAT_CACHE_INVALIDATIONS), inv + 4) ;
    assert_int_equal (payload_frees, 3) ;           // (10, 1) freed
    payload *p = held->host ;                       // (10, 2) still usable
    assert_ptr_equal (p->key.handle, handles [10]) ;
    assert_true (p->data [0] == (double) p->key.version) ;
    grbgpu_cache_release (held) ;
    assert_int_equal (payload_frees, 4) ;

    // a new object at the same address: nothing of the old one is served
    grbgpu_objver_bump (handles [10]) ;
    assert_false (present (10, 1)) ;
    assert_false (present (10, 2)) ;

    // explicit invalidate, and a bump of a handle with nothing cached
    grbgpu_cache_release (insert (11, 1, 10)) ;
    grbgpu_cache_invalidate (handles [11]) ;
    assert_false (present (11, 1)) ;
    grbgpu_objver_bump (handles [12]) ;
    assert_int_equal (payload_frees, 5) ;
}

// An insert for a version that is no longer current (the object changed
// while the form was being built) is never linked.
static void test_stale_insert (void **state)
{
    (void) state ;
    gg_cache_key k = key_of (12, 3) ;
    grbgpu_objver_bump (handles [12]) ;
    gg_cache_entry *e = grbgpu_cache_insert (&k, make_payload (&k), 10, payload_free) ;
    assert_non_null (e) ;
    assert_null (grbgpu_cache_acquire (&k)) ;
    assert_false (present (12, 3)) ;
    grbgpu_cache_release (e) ;
    assert_int_equal (payload_frees, 1) ;
    // and for a handle that was freed
    k = key_of (13, 3) ;
    grbgpu_objver_drop (handles [13]) ;
    e = grbgpu_cache_insert (&k, make_payload (&k), 10, payload_free) ;
    grbgpu_cache_release (e) ;
    assert_int_equal (payload_frees, 2) ;
    size_t hb ;
    grbgpu_cache_usage (&hb, NULL) ;
    assert_int_equal (hb, 0) ;
}

// attach a device copy of `bytes` on device dev to e, as a device backend
// would
static void attach_dev_on (gg_cache_entry *e, int dev, size_t bytes)
{
    pthread_mutex_lock (&e->lock) ;
    e->dev = malloc (bytes) ;
    e->dev_free = dev_free ;
    grbgpu_cache_account_device (e, dev, bytes) ;
    pthread_mutex_unlock (&e->lock) ;
}
static void attach_dev (gg_cache_entry *e, size_t bytes) { attach_dev_on (e, 0, bytes) ; }

// Each device has its bytes and its budget: copies on one device never make
// room on another (the split path's slots keep forms on their own devices).
static void test_device_accounts (void **state)
{
    (void) state ;
    grbgpu_cache_set_device_budget (-1, 0) ;
    grbgpu_cache_set_device_budget (0, 1000) ;
    grbgpu_cache_set_device_budget (1, 600) ;
    gg_cache_entry *e [5] ;
    const int dev [5] = { 0, 0, 1, 1, 7 } ;
    for (int k = 0 ; k < 5 ; k++)
    {
        e [k] = insert (k, 6, 10) ;
        attach_dev_on (e [k], dev [k], 400) ;
        grbgpu_cache_release (e [k]) ;
    }
    // device 1 went over (800 > 600): its least recently used copy (2) went,
    // not device 0's older ones; device 7 has no budget
    assert_int_equal (dev_frees, 1) ;
    assert_non_null (e [0]->dev) ;
    assert_non_null (e [1]->dev) ;
    assert_null (e [2]->dev) ;
    assert_non_null (e [3]->dev) ;
    assert_int_equal (grbgpu_cache_device_usage (0), 800) ;
    assert_int_equal (grbgpu_cache_device_usage (1), 400) ;
    assert_int_equal (grbgpu_cache_device_usage (7), 400) ;
    assert_int_equal (grbgpu_cache_device_usage (-1), 1600) ;
    // eviction for room on device 0 takes device 0's copies only
    assert_int_equal (grbgpu_cache_evict_device (0, 5000), 800) ;
    assert_int_equal (grbgpu_cache_device_usage (0), 0) ;
    assert_int_equal (grbgpu_cache_device_usage (1), 400) ;
    assert_non_null (e [3]->dev) ;
    // a copy re-accounted on another device moves its bytes there
    gg_cache_key k3 = key_of (3, 6) ;
    gg_cache_entry *x = grbgpu_cache_acquire (&k3) ;
    pthread_mutex_lock (&x->lock) ;
    grbgpu_cache_account_device (x, 0, 300) ;
    pthread_mutex_unlock (&x->lock) ;
    assert_int_equal (grbgpu_cache_device_usage (0), 300) ;
    assert_int_equal (grbgpu_cache_device_usage (1), 0) ;
    grbgpu_cache_release (x) ;
    // a device id past the last shares the last account
    gg_cache_entry *y = insert (5, 6, 10) ;
    attach_dev_on (y, GG_MAX_DEVICES + 5, 100) ;
    grbgpu_cache_release (y) ;
    assert_int_equal (grbgpu_cache_device_usage (GG_MAX_DEVICES - 1), 100) ;
    // freeing the entries gives every device's bytes back
    grbgpu_cache_clear () ;
    for (int d = 0 ; d < 8 ; d++) assert_int_equal (grbgpu_cache_device_usage (d), 0) ;
    assert_int_equal (grbgpu_cache_device_usage (-1), 0) ;
    assert_int_equal (dev_frees, 6) ;
    grbgpu_cache_set_device_budget (-1, 0) ;
}

// More than 64 older copies (one eviction's batch) before the one whose
// room is needed: every copy that must go goes, and the budget holds.
static void test_device_many_small (void **state)
{
    (void) state ;
    grbgpu_cache_set_device_budget (-1, 0) ;
    grbgpu_cache_set_device_budget (0, 3000) ;
    const int nsmall = 150 ;
    for (int k = 0 ; k < nsmall ; k++)
    {
        gg_cache_entry *s = insert (1, 1000 + (uint64_t) k, 10) ;
        attach_dev (s, 10) ;
        grbgpu_cache_release (s) ;
    }
    gg_cache_entry *e1 = insert (2, 6, 10) ;
    attach_dev (e1, 1400) ;
    grbgpu_cache_release (e1) ;
    assert_true (grbgpu_cache_device_usage (0) <= 3000) ;
    assert_non_null (e1->dev) ;
    // the second large copy needs e1's room too: 150 small ones, then e1
    gg_cache_entry *e2 = insert (3, 6, 10) ;
    attach_dev (e2, 1700) ;
    assert_true (grbgpu_cache_device_usage (0) <= 3000) ;
    assert_null (e1->dev) ;
    assert_non_null (e2->dev) ;
    grbgpu_cache_release (e2) ;
    grbgpu_cache_clear () ;
    assert_int_equal (grbgpu_cache_device_usage (-1), 0) ;
    grbgpu_cache_set_device_budget (-1, 0) ;
}

static void test_device_accounting (void **state)
{
    (void) state ;
    grbgpu_cache_set_device_budget (-1, 1000) ;
    gg_cache_entry *e [4] ;
    for (int k = 0 ; k < 4 ; k++)
    {
        e [k] = insert (k, 5, 10) ;
        attach_dev (e [k], 400) ;
        grbgpu_cache_release (e [k]) ;
        size_t db ;
        grbgpu_cache_usage (NULL, &db) ;
        assert_true (db <= 1000) ;
    }
    // 400, 800, then 1200 > 1000: the least recently used copy (0) went,
    // then 1 went for 3
    assert_int_equal (dev_frees, 2) ;
    assert_null (e [0]->dev) ;
    assert_null (e [1]->dev) ;
    assert_non_null (e [2]->dev) ;
    assert_non_null (e [3]->dev) ;
    size_t hb, db ;
    grbgpu_cache_usage (&hb, &db) ;
    assert_int_equal (db, 800) ;
    assert_int_equal (hb, 40) ;         // host forms stay
    assert_true (present (0, 5)) ;

    // a held entry whose lock is taken (in use by a kernel) is not robbed
    gg_cache_key k2 = key_of (2, 5) ;
    gg_cache_entry *busy = grbgpu_cache_acquire (&k2) ;
    pthread_mutex_lock (&busy->lock) ;
    size_t freed = grbgpu_cache_evict_device (-1, 1000) ;
    assert_int_equal (freed, 400) ;     // only 3's copy
    assert_non_null (busy->dev) ;
    pthread_mutex_unlock (&busy->lock) ;
    grbgpu_cache_release (busy) ;
    freed = grbgpu_cache_evict_device (-1, 1) ;
    assert_int_equal (freed, 400) ;
    grbgpu_cache_usage (NULL, &db) ;
    assert_int_equal (db, 0) ;
    assert_int_equal (dev_frees, 4) ;
    assert_int_equal (grbgpu_cache_evict_device (-1, 100), 0) ;

    // freeing an entry frees its device copy and its bytes
    gg_cache_entry *x = insert (4, 5, 10) ;
    attach_dev (x, 300) ;
    grbgpu_cache_release (x) ;
    grbgpu_objver_bump (handles [4]) ;
    assert_int_equal (dev_frees, 5) ;
    grbgpu_cache_usage (NULL, &db) ;
    assert_int_equal (db, 0) ;
}

static void test_clear (void **state)
{
    (void) state ;
    for (int h = 0 ; h < 8 ; h++) grbgpu_cache_release (insert (h, 9, 100)) ;
    gg_cache_entry *held = insert (8, 9, 100) ;
    attach_dev (held, 64) ;
    grbgpu_cache_clear ( ) ;
    assert_int_equal (payload_frees, 8) ;
    for (int h = 0 ; h < 8 ; h++) assert_false (present (h, 9)) ;
    size_t hb, db ;
    grbgpu_cache_usage (&hb, &db) ;
    assert_int_equal (hb, 100) ;
    assert_int_equal (db, 64) ;
    grbgpu_cache_release (held) ;
    assert_int_equal (payload_frees, 9) ;
    assert_int_equal (dev_frees, 1) ;
    grbgpu_cache_usage (&hb, &db) ;
    assert_int_equal (hb + db, 0) ;
    // usable again after a clear
    grbgpu_cache_release (insert (0, 9, 100)) ;
    assert_true (present (0, 9)) ;
}

// Many entries: the table grows; every payload is freed exactly once.
static void test_many_entries (void **state)
{
    (void) state ;
    enum { NE = 5000 } ;
    static char many [NE] ;
    grbgpu_settings.cache_bytes = 100 * (NE / 2) ;
    for (int k = 0 ; k < NE ; k++)
    {
        grbgpu_objver_bump (&many [k]) ;
        gg_cache_key key = { &many [k], grbgpu_objver_get (&many [k]), 0 } ;
        grbgpu_cache_release (grbgpu_cache_insert (&key, make_payload (&key), 100, payload_free)) ;
    }
    assert_int_equal (payload_frees, NE / 2) ;
    int found = 0 ;
    for (int k = 0 ; k < NE ; k++)
    {
        gg_cache_key key = { &many [k], grbgpu_objver_get (&many [k]), 0 } ;
        gg_cache_entry *e = grbgpu_cache_acquire (&key) ;
        if (e != NULL)
        {
            // the newest half survived
            assert_true (k >= NE / 2) ;
            found++ ;
            grbgpu_cache_release (e) ;
        }
    }
    assert_int_equal (found, NE / 2) ;
    for (int k = 0 ; k < NE ; k++) grbgpu_objver_drop (&many [k]) ;
    assert_int_equal (payload_frees, NE) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
#define T(f) cmocka_unit_test_setup_teardown (f, setup_each, teardown_each)
        T (test_insert_acquire_release),
        T (test_insert_duplicate),
        T (test_unlinked),
        T (test_lru_eviction),
        T (test_in_use_survives),
        T (test_invalidation),
        T (test_stale_insert),
        T (test_device_accounting),
        T (test_clear),
        T (test_many_entries),
        T (test_device_accounts),
        T (test_device_many_small),
#undef T
    } ;
    return cmocka_run_group_tests (tests, NULL, NULL) ;
}
