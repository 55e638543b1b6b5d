//------------------------------------------------------------------------------
// tests/test_multi_slots.c: the split path's workers, failures, other devices
//------------------------------------------------------------------------------

// Part of tests/test_multi and tests/test_multi_cuda (main is in
// tests/test_multi.c; shared helpers in tests/multi_util.h).
//   - Workers: one per slot, started once (the split_workers statistic stays
//     put over many calls with 2, 3 and 4 slots in one process).
//   - Failures: random injected faults (GRBGPU_FAULT); a failure on one call
//     in the middle of a stream (CUDA build: the second slot only, after it
//     took its forms and temporaries; host build: every allocation), the
//     calls before and after still split by the same workers, every answer
//     the CPU library's.  CUDA build: a failure on the second slot leaves the
//     device's stream-ordered pool as it was.
//   - CUDA build, slots on other devices on one GPU: the test hook
//     (gg_cuda_fake_devices) makes ids 1 and 2 stand for device 0, so "0,1"
//     and "all" put slots on a device other than the main one: forms recorded
//     on it (the cache's account of device 1), freed there, X copied from the
//     main device (large X) or uploaded (small X), a failure on that slot.

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grbgpu.h"
#include "backend/grbgpu_internal.h"
#include "tests/conformance_util.h"
#include "tests/multi_util.h"

#ifdef GG_TEST_MULTI_CUDA
#include <cuda_runtime_api.h>
#include "backend/cache/cache.h"
#include "backend/cuda/device.h"
// module-internal (backend/cuda/multi.h, backend/cuda/cuda_internal.h)
int gg_multi_fail_slot (int s) ;
uint64_t gg_multi_peer_copies (void) ;
int gg_cuda_fake_devices (int n) ;
#endif

static void get_stats (grbgpu_stats *s) { grbgpu_stats_get (s) ; }

//------------------------------------------------------------------------------
// failures, checked whatever path answered
//------------------------------------------------------------------------------

bool compare_masked (const char *name, GrB_Matrix M, GrB_Semiring sr, GrB_Type t,
    GrB_Matrix A, GrB_Matrix B, GrB_Descriptor d, double rtol)
{
    GrB_Index m, n ;
    CU_OK (GrB_Matrix_nrows (&m, A)) ;
    if (M != NULL) CU_OK (GrB_Matrix_ncols (&n, M)) ;
    else CU_OK (GrB_Matrix_ncols (&n, B)) ;
    GrB_Matrix ref, got ;
    CU_OK (GrB_Matrix_new (&ref, t, m, n)) ;
    CU_OK (GrB_Matrix_new (&got, t, m, n)) ;
    cu_device_cpu () ;
    CU_OK (GrB_mxm (ref, M, NULL, sr, A, B, d)) ;
    const uint64_t before = split_count () ;
    cu_device_host () ;
    GrB_Info info = GrB_mxm (got, M, NULL, sr, A, B, d) ;
    cu_device_cpu () ;
    const bool split = split_count () > before ;
    assert_int_equal (info, GrB_SUCCESS) ;
    int problems = cu_compare_matrix (name, ref, got, rtol, NULL, NULL) ;
    if (problems) fprintf (stderr, "FAIL %s\n", name) ;
    assert_int_equal (problems, 0) ;
    checks++ ;
    GrB_free (&ref) ; GrB_free (&got) ;
    return split ;
}

// C = A * B on both sides, whatever the offload side did, compared.
static void compare_mxm (const char *name, GrB_Semiring sr, GrB_Type t,
    GrB_Matrix A, GrB_Matrix B)
{
    (void) compare_masked (name, NULL, sr, t, A, B, NULL, 0) ;
}

// Products under injected failures: each answer (the offload's, or the CPU
// library's after a fallback) compared with the CPU library's.
static void faulty_products (const char *spec, int calls)
{
    cu_rng rng = cu_rng_for (cu_seed, spec) ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP32) ;
    char name [96] ;
    for (int k = 0 ; k < calls ; k++)
    {
        GrB_Index n = (k % 2) ? 1 : 32 ;
        GrB_Matrix A = cu_matrix (&rng, CU_FP32, 2000, 1500, 0.004, &g) ;
        GrB_Matrix B = cu_matrix (&rng, CU_FP32, 1500, n, 1.0, &g) ;
        snprintf (name, sizeof (name), "fault/%s/%d", spec, k) ;
        compare_mxm (name, sr, GrB_FP32, A, B) ;
        GrB_free (&A) ; GrB_free (&B) ;
    }
}


//------------------------------------------------------------------------------
// workers
//------------------------------------------------------------------------------

// An mxm of A (m x k) by a fresh k x n B, split, checked.
static void one_mxm (cu_rng *rng, const char *name, GrB_Matrix A, int64_t k,
    int64_t n, bool expect_split, int expect)
{
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64) ;
    GrB_Matrix B = cu_matrix (rng, CU_FP64, k, n, 1.0, &g) ;
    run_case (name, CU_MXM, NULL, A, B, sr, NULL, 0, expect_split, expect) ;
    GrB_free (&B) ;
}

void test_workers_reused (void **state)
{
    (void) state ;
    cu_rng rng = cu_rng_for (cu_seed, "workers") ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP64, 1500, 1200, 0.01, &g) ;
    // four slots first: workers 0 .. 3 exist from here on
    assert_int_equal (grbgpu_set ("DEVICES", "0,0,0,0"), 0) ;
    one_mxm (&rng, "workers/first", A, 1200, 8, true, CU_EXPECT_OFFLOAD) ;
    grbgpu_stats s0, s1 ;
    get_stats (&s0) ;
    const char *lists [3] = { "0,0", "0,0,0", "0,0,0,0" } ;
    char name [64] ;
    for (int k = 0 ; k < 45 ; k++)
    {
        assert_int_equal (grbgpu_set ("DEVICES", lists [k % 3]), 0) ;
        snprintf (name, sizeof (name), "workers/%s/%d", lists [k % 3], k) ;
        one_mxm (&rng, name, A, 1200, (k % 2) ? 1 : 8, true, CU_EXPECT_OFFLOAD) ;
    }
    get_stats (&s1) ;
    printf ("workers: %llu started before 45 split calls, %llu after\n",
        (unsigned long long) s0.split_workers, (unsigned long long) s1.split_workers) ;
    if (!cu_selfcheck)
    {
        assert_true (s0.split_workers >= 4) ;
        assert_int_equal (s1.split_workers, s0.split_workers) ;   // none new
        assert_int_equal (s1.split - s0.split, 45) ;
    }
    checks++ ;
    GrB_free (&A) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

// A stream of split calls with one failure in the middle: that call is
// answered by the CPU library, the others split, by the same workers.
static void fault_stream (const char *devices, int fail_at, int calls)
{
    cu_rng rng = cu_rng_for (cu_seed, devices) ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP64, 2000, 1500, 0.005, &g) ;
    assert_int_equal (grbgpu_set ("DEVICES", devices), 0) ;
    one_mxm (&rng, "stream/warm", A, 1500, 4, true, CU_EXPECT_OFFLOAD) ;
    grbgpu_stats s0, s1 ;
    get_stats (&s0) ;
    char name [64] ;
    for (int k = 0 ; k < calls ; k++)
    {
        const bool fail = (k == fail_at) ;
        grbgpu_stats a, b ;
        get_stats (&a) ;
        if (fail)
        {
#ifdef GG_TEST_MULTI_CUDA
            gg_multi_fail_slot (1) ;
#else
            assert_int_equal (grbgpu_set ("FAULT", "alloc:1"), 0) ;
#endif
        }
        snprintf (name, sizeof (name), "stream/%s/%d%s", devices, k, fail ? "/fails" : "") ;
        if (fail)
        {
            GrB_Matrix B = cu_matrix (&rng, CU_FP64, 1500, 16, 1.0, &g) ;
            compare_mxm (name, cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64),
                GrB_FP64, A, B) ;
            GrB_free (&B) ;
        }
        else one_mxm (&rng, name, A, 1500, (k % 3) ? 1 : 16, true, CU_EXPECT_OFFLOAD) ;
        if (fail)
        {
#ifdef GG_TEST_MULTI_CUDA
            gg_multi_fail_slot (-1) ;
#else
            assert_int_equal (grbgpu_set ("FAULT", ""), 0) ;
#endif
            get_stats (&b) ;
            if (!cu_selfcheck)
            {
                assert_int_equal (b.split, a.split) ;           // not split
                assert_true (b.fallbacks + b.declined > a.fallbacks + a.declined) ;
            }
        }
    }
    get_stats (&s1) ;
    if (!cu_selfcheck)
    {
        assert_int_equal (s1.split - s0.split, calls - 1) ;
        assert_int_equal (s1.split_workers, s0.split_workers) ;
    }
    checks++ ;
    GrB_free (&A) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

void test_fault_mid_stream (void **state)
{
    (void) state ;
    fault_stream ("0,0", 5, 12) ;
    fault_stream ("0,0,0", 0, 4) ;
    fault_stream ("0,0", 9, 10) ;
}

void test_faults (void **state)
{
    (void) state ;
    assert_int_equal (grbgpu_set ("DEVICES", "0,0"), 0) ;
    assert_int_equal (grbgpu_set ("FAULT", "alloc:0.3,copy:0.2,launch:0.2"), 0) ;
    faulty_products ("random", 24) ;
    assert_int_equal (grbgpu_set ("FAULT", ""), 0) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

#ifdef GG_TEST_MULTI_CUDA
size_t pool_used (void)
{
    grbgpu_cuda_sync () ;
    cudaDeviceSynchronize () ;
    cudaMemPool_t pool ;
    uint64_t used = 0 ;
    int dev = 0 ;
    const char *id = getenv ("GRBGPU_DEVICE_ID") ;
    if (id != NULL) dev = atoi (id) ;
    if (cudaDeviceGetDefaultMemPool (&pool, dev) != cudaSuccess) return 0 ;
    cudaMemPoolGetAttribute (pool, cudaMemPoolAttrUsedMemCurrent, &used) ;
    return (size_t) used ;
}

// The second slot fails after its product: the call is answered by the CPU
// library, and once the cache is emptied the device holds what it held before.
void test_second_slot_fails (void **state)
{
    (void) state ;
    assert_int_equal (grbgpu_set ("DEVICES", "0,0"), 0) ;
    // a first split call starts CUDA and makes the slots' contexts
    faulty_products ("warm", 1) ;
    grbgpu_cache_clear () ;
    size_t base = pool_used () ;
    grbgpu_stats s0, s1 ;
    grbgpu_stats_get (&s0) ;
    gg_multi_fail_slot (1) ;
    faulty_products ("slot1", 6) ;
    gg_multi_fail_slot (-1) ;
    grbgpu_stats_get (&s1) ;
    if (!cu_selfcheck)
    {
        assert_true (s1.fallbacks >= s0.fallbacks + 6) ;   // every one fell back
        assert_int_equal (s1.split, s0.split) ;            // none was split
    }
    grbgpu_cache_clear () ;
    size_t after = pool_used () ;
    printf ("second slot fails: pool used %zu bytes before, %zu after\n", base, after) ;
    assert_int_equal (after, base) ;
    checks++ ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

//------------------------------------------------------------------------------
// slots on another device, on one GPU (the test hook)
//------------------------------------------------------------------------------

// Warm the slots of `devices` (contexts, chooser), then empty the cache: the
// pool's bytes in use now are the base a test returns to.
static size_t warm_base (const char *devices)
{
    cu_rng rng = cu_rng_for (cu_seed, "warm") ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP64, 800, 700, 0.01, &g) ;
    assert_int_equal (grbgpu_set ("DEVICES", devices), 0) ;
    one_mxm (&rng, "warm", A, 700, 4, true, CU_EXPECT_OFFLOAD) ;
    GrB_free (&A) ;
    grbgpu_cache_clear () ;
    return pool_used () ;
}

void test_fake_devices (void **state)
{
    (void) state ;
    gg_cuda_fake_devices (3) ;
    size_t base = warm_base ("0,1") ;
    // the products of test_two_slots with slot 1 on "device 1"
    products ("0,1", 2) ;
    // X of 1.5 MB (copied from the main device) and of 48 KB (uploaded)
    assert_int_equal (grbgpu_set ("DEVICES", "0,1"), 0) ;
    cu_rng rng = cu_rng_for (cu_seed, "fake") ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP32) ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP32, 3000, 3000, 0.003, &g) ;
    const int64_t ns [2] = { 128, 4 } ;
    for (int b = 0 ; b < 2 ; b++)
    {
        GrB_Matrix B = cu_matrix (&rng, CU_FP32, 3000, ns [b], 1.0, &g) ;
        uint64_t p0 = gg_multi_peer_copies () ;
        run_case (b ? "fake/upload" : "fake/peer", CU_MXM, NULL, A, B, sr, NULL,
            1e-5, true, CU_EXPECT_OFFLOAD) ;
        uint64_t copies = gg_multi_peer_copies () - p0 ;
        printf ("fake devices 0,1: n=%lld: %llu copies of X from device 0\n",
            (long long) ns [b], (unsigned long long) copies) ;
        if (!cu_selfcheck) assert_int_equal (copies, b ? 0 : 1) ;
        // again, X unchanged: slot 1 finds X kept on its device (no copy)
        p0 = gg_multi_peer_copies () ;
        run_case (b ? "fake/upload kept" : "fake/peer kept", CU_MXM, NULL, A, B, sr, NULL,
            1e-5, true, CU_EXPECT_OFFLOAD) ;
        copies = gg_multi_peer_copies () - p0 ;
        printf ("fake devices 0,1: n=%lld again: %llu copies of X\n",
            (long long) ns [b], (unsigned long long) copies) ;
        if (!cu_selfcheck) assert_int_equal (copies, 0) ;
        GrB_free (&B) ;
        checks++ ;
    }
    // slot 1's block form is on device 1, in the cache's account of it
    size_t on1 = grbgpu_cache_device_usage (1) ;
    printf ("fake devices 0,1: cache holds %zu bytes on device 1, %zu on device 0\n",
        on1, grbgpu_cache_device_usage (0)) ;
    if (!cu_selfcheck) assert_true (on1 > 0) ;
    // "all": the three devices pretended, a slot on each
    assert_int_equal (grbgpu_set ("DEVICES", "all"), 0) ;
    for (int b = 0 ; b < 2 ; b++)
    {
        GrB_Matrix B = cu_matrix (&rng, CU_FP32, 3000, ns [b], 1.0, &g) ;
        run_case ("fake/all", CU_MXM, NULL, A, B, sr, NULL, 1e-5, true, CU_EXPECT_OFFLOAD) ;
        GrB_free (&B) ;
    }
    if (!cu_selfcheck) assert_true (grbgpu_cache_device_usage (2) > 0) ;
    GrB_free (&A) ;
    // every form freed on its device: the pool as it was, no bytes accounted
    grbgpu_cache_clear () ;
    size_t after = pool_used () ;
    printf ("fake devices: pool used %zu bytes before, %zu after\n", base, after) ;
    assert_int_equal (after, base) ;
    for (int d = 0 ; d < 3 ; d++) assert_int_equal (grbgpu_cache_device_usage (d), 0) ;
    checks++ ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
    gg_cuda_fake_devices (0) ;
}

// The slot on the other device fails after its product (with X copied to it,
// its block form made there): the CPU library answers, nothing stays taken.
void test_fake_slot_fails (void **state)
{
    (void) state ;
    gg_cuda_fake_devices (2) ;
    size_t base = warm_base ("0,1") ;
    grbgpu_stats s0, s1 ;
    get_stats (&s0) ;
    gg_multi_fail_slot (1) ;
    cu_rng rng = cu_rng_for (cu_seed, "fake-fails") ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP64, 2500, 2500, 0.004, &g) ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64) ;
    for (int k = 0 ; k < 4 ; k++)
    {
        // (k even: X of 2.5 MB, copied; odd: 20 KB, uploaded)
        GrB_Matrix B = cu_matrix (&rng, CU_FP64, 2500, (k % 2) ? 1 : 128, 1.0, &g) ;
        compare_mxm ("fake/fails", sr, GrB_FP64, A, B) ;
        GrB_free (&B) ;
    }
    gg_multi_fail_slot (-1) ;
    get_stats (&s1) ;
    if (!cu_selfcheck)
    {
        assert_true (s1.fallbacks >= s0.fallbacks + 4) ;
        assert_int_equal (s1.split, s0.split) ;
    }
    GrB_free (&A) ;
    grbgpu_cache_clear () ;
    size_t after = pool_used () ;
    printf ("fake device slot fails: pool used %zu bytes before, %zu after\n", base, after) ;
    assert_int_equal (after, base) ;
    checks++ ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
    gg_cuda_fake_devices (0) ;
}
#endif
