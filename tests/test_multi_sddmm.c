//------------------------------------------------------------------------------
// tests/test_multi_sddmm.c: SDDMM split across the slots of GRBGPU_DEVICES
//------------------------------------------------------------------------------

// Part of tests/test_multi and tests/test_multi_cuda (main is in
// tests/test_multi.c; shared helpers in tests/multi_util.h).  C<M> = A * B'
// (and A * B with B transposed on the host) with A, B full: the dispatcher's
// SDDMM, whose mask M's rows are cut into blocks balanced by M's entries, each
// slot computing its block's outputs (a contiguous range of M's entries) from
// its rows of A and all of B.  Against the CPU library:
//   - 2, 3 and 4 slots; semirings over every kind of type; M with empty rows,
//     one heavy row, fewer rows than slots; masks structural and valued (with
//     explicit zeros), with an accumulator, with replace, C empty or not;
//     every offloaded call must have been split (the `split` statistic);
//   - the same M twice, then M changed (the slots' cached blocks follow);
//   - a slot made to fail (host build: an injected allocation fault on the
//     slots; CUDA build: the second slot after its product, then the device
//     pool as it was): the CPU library answers, nothing is split.

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
#include "backend/cache/cache.h"
int gg_multi_fail_slot (int s) ;        // module-internal (backend/cuda/multi.h)
#endif

// mask kinds and what goes with them
enum { SD_STRUCT = 0, SD_VALUED, SD_STRUCT_ACCUM, SD_VALUED_REPLACE, SD_STRUCT_REPLACE,
    SD_NKINDS } ;
static const char *kind_name [SD_NKINDS] = { "struct", "valued", "struct_accum",
    "valued_replace", "struct_replace" } ;

// The descriptor of a kind (transposing B or not).
static GrB_Descriptor sd_desc (int kind, bool trB)
{
    switch (kind)
    {
        case SD_STRUCT :
        case SD_STRUCT_ACCUM :   return trB ? GrB_DESC_ST1 : GrB_DESC_S ;
        case SD_VALUED :         return trB ? GrB_DESC_T1 : NULL ;
        case SD_VALUED_REPLACE : return trB ? GrB_DESC_RT1 : GrB_DESC_R ;
        default :                return trB ? GrB_DESC_RST1 : GrB_DESC_RS ;
    }
}

// C<M> (accum)= A * op (B) on both sides, compared; expect_split: the offload
// side, when it offloaded, must have split the call.  Returns whether the
// offload side split it.
static bool sddmm_case (const char *name, GrB_Matrix C0, GrB_Matrix M, GrB_Matrix A,
    GrB_Matrix B, GrB_Semiring sr, GrB_BinaryOp accum, GrB_Descriptor d, double rtol,
    bool expect_split, int expect)
{
    cu_call c ;
    cu_call_init (&c, name, CU_MXM) ;
    c.C0 = C0 ; c.M = M ; c.A = A ; c.B = B ; c.s = sr ; c.d = d ; c.accum = accum ;
    c.rtol = rtol ; c.expect = expect ;
    const uint64_t before = split_count () ;
    int problems = cu_run (&c) ;
    if (problems) fprintf (stderr, "FAIL %s\n", name) ;
    assert_int_equal (problems, 0) ;
    const bool split = split_count () > before ;
    GrB_Index nv = 0 ;
    CU_OK (GrB_Matrix_nvals (&nv, M)) ;
    if (expect_split && !cu_selfcheck && nv > 0 && !split)
    {
        fprintf (stderr, "FAIL %s: not split\n", name) ;
        assert_true (split) ;
    }
    checks++ ;
    return split ;
}

// The SDDMMs of one slot list over shapes, semirings, mask kinds.
static void sddmms (const char *devices)
{
    assert_int_equal (grbgpu_set ("DEVICES", devices), 0) ;
    cu_rng rng = cu_rng_for (cu_seed, devices) ;
    const int64_t ms [] = { 1, 3, 40, 700 } ;
    const multi_semiring *srs = multi_semirings ;
    const int nsr = multi_nsemirings ;
    char name [160] ;
    int cases = 0, split = 0 ;
    for (int a = 0 ; a < (int) (sizeof (ms) / sizeof (ms [0])) ; a++)
    {
        const int64_t m = ms [a], n = (m < 40) ? 30 : m / 2 + 7 ;
        for (int q = 0 ; q < nsr ; q++)
        {
            const int t = srs [q].t ;
            const int64_t k = (q % 3 == 0) ? 1 : 16 ;
            const int kind = (a * nsr + q) % SD_NKINDS ;
            const bool trB = (q % 4 != 3) ;
            GrB_Semiring sr = cu_semiring (srs [q].add, srs [q].mul, t) ;
            // the mask: empty rows, explicit zeros (a valued mask differs
            // from its structure), and on some one heavy row
            cu_gen gm = { .vals = CU_V_INT, .empty_rows = (q % 2) ? 3 : 0,
                .zeros = 0.3 } ;
            GrB_Matrix M = cu_matrix (&rng, CU_FP32, m, n, (m > 100) ? 0.03 : 0.3, &gm) ;
            if (q == 2 && m > 2)
            {
                for (int64_t j = 0 ; j < n ; j++) CU_OK (GrB_Matrix_setElement_FP32 (M, 1, m / 2, j)) ;
                CU_OK (GrB_Matrix_wait (M, GrB_MATERIALIZE)) ;
            }
            cu_gen gd = { .vals = CU_V_INT } ;
            GrB_Matrix A = cu_matrix (&rng, t, m, k, 1.0, &gd) ;
            GrB_Matrix B = trB ? cu_matrix (&rng, t, n, k, 1.0, &gd)
                : cu_matrix (&rng, t, k, n, 1.0, &gd) ;
            // C: empty, or (accumulator, replace) holding entries of its own
            GrB_Matrix C = NULL ;
            if (kind >= SD_STRUCT_ACCUM)
            {
                cu_gen gc = { .vals = CU_V_INT } ;
                C = cu_matrix (&rng, t, m, n, 0.2, &gc) ;
            }
            else CU_OK (GrB_Matrix_new (&C, cu_type (t), m, n)) ;
            GrB_BinaryOp accum = (kind == SD_STRUCT_ACCUM) ? cu_accop (CU_ACC_PLUS, t) : NULL ;
            snprintf (name, sizeof (name), "%s/sddmm/m%lld/n%lld/k%lld/%s/%s.%s.%s%s", devices,
                (long long) m, (long long) n, (long long) k, kind_name [kind],
                cu_add_name (srs [q].add), cu_mul_name (srs [q].mul), cu_type_name (t),
                trB ? "" : "/AB") ;
            const int ex = CU_EXPECT_OFFLOAD ;
            cases++ ;
            split += sddmm_case (name, C, M, A, B, sr, accum, sd_desc (kind, trB),
                srs [q].rtol, true, ex) ;
            GrB_free (&C) ; GrB_free (&A) ; GrB_free (&B) ; GrB_free (&M) ;
        }
    }
    printf ("sddmm %s: %d cases, %d split\n", devices, cases, split) ;
    // (each case whose M has entries was checked split; M of one empty row
    // has none)
    if (!cu_selfcheck) assert_true (split >= cases - 3) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

void test_sddmm_slots (void **state)
{
    (void) state ;
    sddmms ("0,0") ;
    sddmms ("0,0,0") ;
    sddmms ("0,0,0,0") ;
}

// The same M twice (the slots' blocks from the cache), then M changed: the
// answer must follow the change.
void test_sddmm_repeat (void **state)
{
    (void) state ;
    assert_int_equal (grbgpu_set ("DEVICES", "0,0,0"), 0) ;
    cu_rng rng = cu_rng_for (cu_seed, "sddmm-repeat") ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64) ;
    GrB_Matrix M = cu_matrix (&rng, CU_FP64, 2000, 1500, 0.004, &g) ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP64, 2000, 24, 1.0, &g) ;
    GrB_Matrix B = cu_matrix (&rng, CU_FP64, 1500, 24, 1.0, &g) ;
    const char *names [4] = { "sddmm/repeat/1", "sddmm/repeat/2", "sddmm/changed",
        "sddmm/changed2" } ;
    for (int r = 0 ; r < 4 ; r++)
    {
        if (r == 2)
        {
            // a heavy last row (the cuts move) and an entry fewer
            for (int64_t j = 0 ; j < 1500 ; j += 2) CU_OK (GrB_Matrix_setElement_FP64 (M, 1, 1999, j)) ;
            CU_OK (GrB_Matrix_removeElement (M, 0, 0)) ;
            CU_OK (GrB_Matrix_wait (M, GrB_MATERIALIZE)) ;
        }
        GrB_Matrix C ;
        CU_OK (GrB_Matrix_new (&C, GrB_FP64, 2000, 1500)) ;
        sddmm_case (names [r], C, M, A, B, sr, NULL, GrB_DESC_ST1, 0, true, CU_EXPECT_OFFLOAD) ;
        GrB_free (&C) ;
    }
    GrB_free (&M) ; GrB_free (&A) ; GrB_free (&B) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

// A slot fails on every call: each answered by the CPU library, none split.
void test_sddmm_slot_fails (void **state)
{
    (void) state ;
    assert_int_equal (grbgpu_set ("DEVICES", "0,0"), 0) ;
    cu_rng rng = cu_rng_for (cu_seed, "sddmm-fails") ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP32) ;
    GrB_Matrix M = cu_matrix (&rng, CU_FP32, 1800, 1200, 0.01, &g) ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP32, 1800, 32, 1.0, &g) ;
    GrB_Matrix B = cu_matrix (&rng, CU_FP32, 1200, 32, 1.0, &g) ;
    GrB_Matrix C ;
    CU_OK (GrB_Matrix_new (&C, GrB_FP32, 1800, 1200)) ;
    // a first split call (CUDA: starts the slots' contexts)
    sddmm_case ("sddmm/fails/warm", C, M, A, B, sr, NULL, GrB_DESC_ST1, 1e-5, true,
        CU_EXPECT_OFFLOAD) ;
#ifdef GG_TEST_MULTI_CUDA
    grbgpu_cache_clear () ;
    const size_t base = pool_used () ;
#endif
    grbgpu_stats s0, s1 ;
    grbgpu_stats_get (&s0) ;
    char name [64] ;
    for (int r = 0 ; r < 4 ; r++)
    {
#ifdef GG_TEST_MULTI_CUDA
        gg_multi_fail_slot (1) ;
#else
        assert_int_equal (grbgpu_set ("FAULT", "alloc:1"), 0) ;
#endif
        snprintf (name, sizeof (name), "sddmm/fails/%d", r) ;
        const bool split = compare_masked (name, M, sr, GrB_FP32, A, B,
            (r % 2) ? GrB_DESC_T1 : GrB_DESC_ST1, 1e-5) ;
#ifdef GG_TEST_MULTI_CUDA
        gg_multi_fail_slot (-1) ;
#else
        assert_int_equal (grbgpu_set ("FAULT", ""), 0) ;
#endif
        if (!cu_selfcheck) assert_false (split) ;
    }
    grbgpu_stats_get (&s1) ;
    if (!cu_selfcheck)
    {
        assert_int_equal (s1.split, s0.split) ;
        assert_true (s1.fallbacks + s1.declined >= s0.fallbacks + s0.declined + 4) ;
    }
#ifdef GG_TEST_MULTI_CUDA
    grbgpu_cache_clear () ;
    const size_t after = pool_used () ;
    printf ("sddmm: second slot fails: pool used %zu bytes before, %zu after\n", base, after) ;
    assert_int_equal (after, base) ;
#endif
    // and the next call splits again
    sddmm_case ("sddmm/fails/after", C, M, A, B, sr, NULL, GrB_DESC_ST1, 1e-5, true,
        CU_EXPECT_OFFLOAD) ;
    GrB_free (&C) ; GrB_free (&M) ; GrB_free (&A) ; GrB_free (&B) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}
