//------------------------------------------------------------------------------
// tests/test_multi.c: the split path of GRBGPU_DEVICES (row blocks by entries)
//------------------------------------------------------------------------------

// 1. formats/partition.c on random and skewed CSRs (32- and 64-bit): blocks
//    cover the rows in order, none holds more than nnz / nslots plus one
//    row, the rebased pointers and the block views read S's own entries.
// 2. Products with GRBGPU_DEVICES=0,0 (and three slots, 0,0,0) against the
//    CPU library: mxm / mxv / vxm over several semirings, types, shapes
//    (fewer rows than slots, empty rows, one heavy row), storage kinds; the
//    statistics must show each offloaded product split (`split` counter);
//    a product repeated on an unchanged A, then on a changed A (the slots'
//    cached blocks must follow the change).
// 3. The slots' workers, failures, and (CUDA build) slots on other devices:
//    tests/test_multi_slots.c.  SDDMM split across slots:
//    tests/test_multi_sddmm.c.  Built as tests/test_multi_cuda (the CUDA
//    module's objects linked in, GRBGPU_TEST_DEVICE=cuda forced).
// Without a GPU the CUDA build exits 77; the host build runs in `make check`
// (the host emulation backend models the slots).  GRBGPU_TEST_SEED repeats a
// run; GRBGPU_TEST_FILTER (a CMocka pattern) runs some groups only.

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "grbgpu.h"
#include "backend/grbgpu_internal.h"     // GG_MAX_SLOTS
#include "formats/partition.h"
#include "tests/conformance_util.h"

#include "tests/multi_util.h"
#ifdef GG_TEST_MULTI_CUDA
#include <cuda_runtime_api.h>
#endif

int checks = 0 ;

//------------------------------------------------------------------------------
// 1. the partitioner
//------------------------------------------------------------------------------

// A random CSR with nrows rows; every `heavy`-th row (0: none) holds `hlen`
// entries, the others 0..maxlen; empty_every-th row empty.
static void make_csr (cu_rng *r, int64_t nrows, int maxlen, int64_t heavy, int hlen,
    bool wide, int64_t **p, int32_t **i)
{
    int64_t *pp = malloc ((size_t) (nrows + 1) * sizeof (int64_t)) ;
    pp [0] = 0 ;
    for (int64_t k = 0 ; k < nrows ; k++)
    {
        int64_t len = (heavy > 0 && k % heavy == heavy - 1) ? hlen : cu_int (r, 0, maxlen) ;
        pp [k+1] = pp [k] + len ;
    }
    int32_t *ii = malloc ((size_t) (pp [nrows] > 0 ? pp [nrows] : 1) * sizeof (int32_t)) ;
    for (int64_t e = 0 ; e < pp [nrows] ; e++) ii [e] = (int32_t) (e * 7 % 1000) ;
    (void) wide ;
    *p = pp ; *i = ii ;
}

// The cut of gg_partition_rows_w (S, nslots, w, .): w = 0 is gg_partition_rows's
static void check_partition (const int64_t *p64, const int32_t *i32, int64_t nrows,
    bool use32, int nslots, int64_t w)
{
    int64_t nnz = p64 [nrows] ;
    int32_t *p32 = NULL ;
    int64_t *i64 = NULL ;
    gg_csr S = { .nrows = nrows, .ncols = 1000, .nnz = nnz, .max_row = -1 } ;
    int64_t maxrow = 0 ;
    for (int64_t k = 0 ; k < nrows ; k++) if (p64 [k+1] - p64 [k] > maxrow) maxrow = p64 [k+1] - p64 [k] ;
    float *x = malloc ((size_t) (nnz > 0 ? nnz : 1) * sizeof (float)) ;
    for (int64_t e = 0 ; e < nnz ; e++) x [e] = (float) e ;
    if (use32)
    {
        p32 = malloc ((size_t) (nrows + 1) * sizeof (int32_t)) ;
        for (int64_t k = 0 ; k <= nrows ; k++) p32 [k] = (int32_t) p64 [k] ;
        S.p32 = p32 ; S.i32 = i32 ;
    }
    else
    {
        i64 = malloc ((size_t) (nnz > 0 ? nnz : 1) * sizeof (int64_t)) ;
        for (int64_t e = 0 ; e < nnz ; e++) i64 [e] = i32 [e] ;
        S.p64 = p64 ; S.i64 = i64 ;
    }
    S.x = x ;
    int64_t r [GG_MAX_SLOTS + 1] ;
    if (w == 0) gg_partition_rows (&S, nslots, r) ;
    else gg_partition_rows_w (&S, nslots, w, r) ;
    const int64_t total = nnz + w * nrows ;
    #define COST(b) (p64 [b] + w * (b))
    assert_int_equal (r [0], 0) ;
    assert_int_equal (r [nslots], nrows) ;
    int64_t covered = 0 ;
    for (int s = 0 ; s < nslots ; s++)
    {
        assert_true (r [s] <= r [s+1]) ;
        int64_t bnnz = p64 [r [s+1]] - p64 [r [s]] ;
        covered += bnnz ;
        // balanced: at most an even share plus one row (the row that crosses)
        if (total > 0) assert_true (COST (r [s+1]) - COST (r [s]) <= (total + nslots - 1) / nslots + maxrow + w) ;
        else assert_true (r [s+1] - r [s] <= (nrows + nslots - 1) / nslots) ;
        // the block view reads S's own entries, its pointers from 0
        int64_t nb = r [s+1] - r [s] ;
        void *pb = malloc ((size_t) (nb + 1) * 8) ;
        gg_csr B ;
        gg_partition_rebase (&S, r [s], r [s+1], pb) ;
        gg_partition_view (&S, r [s], r [s+1], pb, sizeof (float), &B) ;
        assert_int_equal (B.nrows, nb) ;
        assert_int_equal (B.nnz, bnnz) ;
        for (int64_t k = 0 ; k <= nb ; k++)
        {
            int64_t got = use32 ? B.p32 [k] : B.p64 [k] ;
            assert_int_equal (got, p64 [r [s] + k] - p64 [r [s]]) ;
        }
        for (int64_t e = 0 ; e < bnnz ; e++)
        {
            int64_t col = use32 ? B.i32 [e] : B.i64 [e] ;
            assert_int_equal (col, i32 [p64 [r [s]] + e]) ;
            assert_true (((const float *) B.x) [e] == (float) (p64 [r [s]] + e)) ;
        }
        free (pb) ;
        checks++ ;
    }
    assert_int_equal (covered, nnz) ;
    // each cut is the boundary nearest to its share (unless held back by
    // the cut before it)
    for (int s = 1 ; s < nslots && total > 0 ; s++)
    {
        int64_t target = (total * s + nslots - 1) / nslots ;
        int64_t d = llabs (COST (r [s]) - target) ;
        if (r [s] > r [s-1]) assert_true (d <= llabs (COST (r [s] - 1) - target)) ;
        if (r [s] < nrows) assert_true (d <= llabs (COST (r [s] + 1) - target)) ;
    }
    #undef COST
    free (p32) ; free (i64) ; free (x) ;
}

static void test_partition (void **state)
{
    (void) state ;
    cu_rng rng = cu_rng_for (cu_seed, "partition") ;
    const int64_t sizes [] = { 0, 1, 2, 3, 5, 17, 100, 1000, 20000 } ;
    for (int z = 0 ; z < (int) (sizeof (sizes) / sizeof (sizes [0])) ; z++)
    {
        for (int shape = 0 ; shape < 4 ; shape++)
        {
            int64_t *p ; int32_t *i ;
            // 0: uniform; 1: empty (no entries); 2: one heavy row in 50;
            // 3: the last row holds nearly everything
            int maxlen = (shape == 1) ? 0 : 12 ;
            int64_t heavy = (shape == 2) ? 50 : (shape == 3) ? sizes [z] : 0 ;
            make_csr (&rng, sizes [z], maxlen, heavy, 5000, false, &p, &i) ;
            for (int nslots = 1 ; nslots <= GG_MAX_SLOTS ; nslots++)
            {
                check_partition (p, i, sizes [z], true, nslots, 0) ;
                check_partition (p, i, sizes [z], false, nslots, 0) ;
                // rows weighed too (GRBGPU_SPLIT_ROW_WEIGHT)
                check_partition (p, i, sizes [z], true, nslots, 5) ;
                check_partition (p, i, sizes [z], false, nslots, 70) ;
            }
            free (p) ; free (i) ;
        }
    }
    // a hand case: rows of 4, 0, 4, 4 entries in two slots: cut after row 1
    {
        int64_t p [5] = { 0, 4, 4, 8, 12 } ;
        int32_t i [12] = { 0 } ;
        int32_t p32 [5] = { 0, 4, 4, 8, 12 } ;
        gg_csr S = { .nrows = 4, .ncols = 10, .nnz = 12, .p32 = p32, .i32 = i } ;
        int64_t r [3] ;
        gg_partition_rows (&S, 2, r) ;
        assert_int_equal (r [1], 2) ;       // 4 and 8 entries before rows 2, 3: the first
        (void) p ;
        checks++ ;
    }
    // rows of 6, 1, 1, 1, 1, 1, 1 entries in two slots: by entries the heavy
    // row alone (6 of 12); with each row weighing 3 entries more, the cut
    // nearest to half of 33 is after row 3 (cost 6+3 + 2*(1+3) = 17)
    {
        int32_t p32 [8] = { 0, 6, 7, 8, 9, 10, 11, 12 } ;
        int32_t i [12] = { 0 } ;
        gg_csr S = { .nrows = 7, .ncols = 10, .nnz = 12, .p32 = p32, .i32 = i } ;
        int64_t r [3] ;
        gg_partition_rows (&S, 2, r) ;
        assert_int_equal (r [1], 1) ;
        gg_partition_rows_w (&S, 2, 3, r) ;
        assert_int_equal (r [1], 3) ;
        gg_partition_rows_w (&S, 2, -5, r) ;     // below 0: entries only
        assert_int_equal (r [1], 1) ;
        checks++ ;
    }
}

// GRBGPU_SPLIT_ROW_WEIGHT: what parses, and products split with rows weighed
static void test_row_weight (void **state)
{
    (void) state ;
    char buf [32] ;
    assert_int_equal (grbgpu_set ("SPLIT_ROW_WEIGHT", "-1"), -1) ;
    assert_int_equal (grbgpu_set ("SPLIT_ROW_WEIGHT", "x"), -1) ;
    assert_int_equal (grbgpu_set ("SPLIT_ROW_WEIGHT", "2000000"), -1) ;
    assert_int_equal (grbgpu_set ("SPLIT_ROW_WEIGHT", "70"), 0) ;
    assert_int_equal (grbgpu_get ("SPLIT_ROW_WEIGHT", buf, sizeof (buf)), 0) ;
    assert_string_equal (buf, "70") ;
    products ("0,0,0", 3) ;
    assert_int_equal (grbgpu_set ("SPLIT_ROW_WEIGHT", "0"), 0) ;
    checks++ ;
}

// GRBGPU_DEVICES: what parses, what is refused (and leaves the setting as it was)
static void test_setting (void **state)
{
    (void) state ;
    char buf [80] ;
    const char *good [] = { "0,0", "all", "3", "0,1,2,3,4,5,6,7", "" } ;
    // (ids up to GG_MAX_DEVICES - 1; the test hook's count up to GG_MAX_DEVICES)
    assert_int_equal (grbgpu_set ("DEVICES", "63,0"), 0) ;
    assert_int_equal (grbgpu_set ("DEVICES", "64"), -1) ;
    assert_int_equal (grbgpu_set ("TEST_FAKE_DEVICES", "65"), -1) ;
    assert_int_equal (grbgpu_set ("TEST_FAKE_DEVICES", "2"), 0) ;
    assert_int_equal (grbgpu_get ("TEST_FAKE_DEVICES", buf, sizeof (buf)), 0) ;
    assert_string_equal (buf, "2") ;
    assert_int_equal (grbgpu_set ("TEST_FAKE_DEVICES", "0"), 0) ;
    for (int k = 0 ; k < 5 ; k++)
    {
        assert_int_equal (grbgpu_set ("DEVICES", good [k]), 0) ;
        assert_int_equal (grbgpu_get ("DEVICES", buf, sizeof (buf)), 0) ;
        assert_string_equal (buf, good [k]) ;
        checks++ ;
    }
    assert_int_equal (grbgpu_set ("GRBGPU_DEVICES", "0,0"), 0) ;
    const char *bad [] = { "0,", ",0", "0,,1", "x", "0;1", "-1", "0,1,2,3,4,5,6,7,8", "all,0", " 0" } ;
    for (int k = 0 ; k < 9 ; k++)
    {
        assert_int_equal (grbgpu_set ("DEVICES", bad [k]), -1) ;
        assert_int_equal (grbgpu_get ("DEVICES", buf, sizeof (buf)), 0) ;
        assert_string_equal (buf, "0,0") ;         // unchanged
        checks++ ;
    }
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

//------------------------------------------------------------------------------
// 2. products across slots, against the CPU library
//------------------------------------------------------------------------------

// the semirings of every split test (multi_util.h)
const multi_semiring multi_semirings [] =
{
    { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP32, 1e-5 },
    { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64, 1e-12 },
    { CU_ADD_MIN, CU_MUL_PLUS, CU_INT32, 0 },
    { CU_ADD_PLUS, CU_MUL_PAIR, CU_INT64, 0 },
    { CU_ADD_MAX, CU_MUL_FIRST, CU_FP64, 0 },
    { CU_ADD_PLUS, CU_MUL_SECOND, CU_FP32, 1e-5 },
    { CU_ADD_LOR, CU_MUL_LAND, CU_BOOL, 0 },
} ;
const int multi_nsemirings = (int) (sizeof (multi_semirings) / sizeof (multi_semirings [0])) ;

uint64_t split_count (void)
{
    grbgpu_stats s ;
    grbgpu_stats_get (&s) ;
    return s.split ;
}

// One call on both sides; with expect_split, the offload side must have been
// split (one more on the `split` counter).
void run_case (const char *name, int op, void *C0, void *A, void *B,
    GrB_Semiring sr, GrB_Descriptor d, double rtol, bool expect_split, int expect)
{
    cu_call c ;
    cu_call_init (&c, name, op) ;
    // an empty output of the product's type and shape when none is given
    void *out = C0 ;
    GrB_Type t = NULL ;
    GrB_Index nr = 0, nc = 0 ;
    if (out == NULL)
    {
        GrB_BinaryOp mul ;
        CU_OK (GxB_Semiring_multiply (&mul, sr)) ;
        CU_OK (GxB_BinaryOp_ztype (&t, mul)) ;
        if (op == CU_MXM)
        {
            CU_OK (GrB_Matrix_nrows (&nr, (GrB_Matrix) A)) ;
            CU_OK (GrB_Matrix_ncols (&nc, (GrB_Matrix) B)) ;
            GrB_Matrix C ;
            CU_OK (GrB_Matrix_new (&C, t, nr, nc)) ;
            out = C ;
        }
        else
        {
            if (op == CU_MXV) CU_OK (GrB_Matrix_nrows (&nr, (GrB_Matrix) A)) ;
            else CU_OK (GrB_Matrix_ncols (&nr, (GrB_Matrix) B)) ;
            GrB_Vector w ;
            CU_OK (GrB_Vector_new (&w, t, nr)) ;
            out = w ;
        }
    }
    c.C0 = out ; c.A = A ; c.B = B ; c.s = sr ; c.d = d ; c.rtol = rtol ;
    c.expect = expect ;
    uint64_t before = split_count () ;
    int problems = cu_run (&c) ;
    if (problems) fprintf (stderr, "FAIL %s\n", name) ;
    assert_int_equal (problems, 0) ;
    GrB_Index nv = 1 ;
    if (op != CU_VXM) CU_OK (GrB_Matrix_nvals (&nv, (GrB_Matrix) A)) ;
    if (expect_split && !cu_selfcheck && nv > 0)     // (no entries: nothing to split)
    {
        if (split_count () <= before) fprintf (stderr, "FAIL %s: not split\n", name) ;
        assert_true (split_count () > before) ;
    }
    if (C0 == NULL)
    {
        if (op == CU_MXM) GrB_Matrix_free ((GrB_Matrix *) &out) ;
        else GrB_Vector_free ((GrB_Vector *) &out) ;
    }
    checks++ ;
}

void products (const char *devices, int tag)
{
    assert_int_equal (grbgpu_set ("DEVICES", devices), 0) ;
    cu_rng rng = cu_rng_for (cu_seed, devices) ;
    const int64_t ms [] = { 1, 2, 7, 300, 4000 } ;
    const int64_t ns [] = { 1, 4, 33 } ;
    const multi_semiring *srs = multi_semirings ;
    const int nsr = multi_nsemirings ;
    char name [160] ;
    for (int a = 0 ; a < (int) (sizeof (ms) / sizeof (ms [0])) ; a++)
    {
        int64_t m = ms [a], k = (m < 50) ? 40 : m ;
        for (int q = 0 ; q < nsr ; q++)
        {
            int t = srs [q].t ;
            GrB_Semiring sr = cu_semiring (srs [q].add, srs [q].mul, t) ;
            // small integers: every order of summation gives the same sum
            cu_gen g = { .vals = CU_V_INT, .empty_rows = (q % 2) ? 5 : 0 } ;
            GrB_Matrix A = cu_matrix (&rng, t, m, k, (m > 1000) ? 0.004 : 0.08, &g) ;
            if (q == 3 && m > 2)
            {
                // one heavy row: a whole row of entries
                for (int64_t j = 0 ; j < k ; j++) CU_OK (GrB_Matrix_setElement_INT64 (A, 1, m / 2, j)) ;
                CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
            }
            cu_storage (A, (q % 3 == 2) ? GxB_HYPERSPARSE : GxB_SPARSE, GxB_BY_ROW) ;
            // (a hypersparse operand with few vectors may be declined)
            const int ex = (q % 3 == 2) ? CU_EXPECT_ANY : CU_EXPECT_OFFLOAD ;
            cu_gen gd = { .vals = g.vals } ;
            for (int b = 0 ; b < (int) (sizeof (ns) / sizeof (ns [0])) ; b++)
            {
                int64_t n = ns [b] ;
                GrB_Matrix B = cu_matrix (&rng, t, k, n, 1.0, &gd) ;
                snprintf (name, sizeof (name), "%s/mxm/m%lld/n%lld/%s.%s.%s", devices,
                    (long long) m, (long long) n, cu_add_name (srs [q].add),
                    cu_mul_name (srs [q].mul), cu_type_name (t)) ;
                run_case (name, CU_MXM, NULL, A, B, sr, NULL, srs [q].rtol, true, ex) ;
                GrB_free (&B) ;
            }
            GrB_Vector u = cu_vector (&rng, t, k, 1.0, &gd) ;
            snprintf (name, sizeof (name), "%s/mxv/m%lld/%s.%s.%s", devices, (long long) m,
                cu_add_name (srs [q].add), cu_mul_name (srs [q].mul), cu_type_name (t)) ;
            run_case (name, CU_MXV, NULL, A, u, sr, NULL, srs [q].rtol, true, ex) ;
            GrB_free (&u) ;
            // vxm: u' * A, A transposed onto the sparse side
            GrB_Vector v = cu_vector (&rng, t, m, 1.0, &gd) ;
            snprintf (name, sizeof (name), "%s/vxm/m%lld/%s.%s.%s", devices, (long long) m,
                cu_add_name (srs [q].add), cu_mul_name (srs [q].mul), cu_type_name (t)) ;
            run_case (name, CU_VXM, NULL, v, A, sr, NULL, srs [q].rtol, false, ex) ;
            GrB_free (&v) ;
            GrB_free (&A) ;
        }
    }
    (void) tag ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}

static void test_two_slots (void **state) { (void) state ; products ("0,0", 2) ; }
static void test_three_slots (void **state) { (void) state ; products ("0,0,0", 3) ; }

// With residency on, an SpMM whose result could stay on the device is split
// when GRBGPU_DEVICES lists several slots, its result brought to the host
// (not kept: the CUDA split path writes into the host's result only); with
// one slot it stays on the device, as before.  (The host emulation also
// splits a kept product, so the `resident_kept` counter is what tells.)
static uint64_t kept_count (void)
{
    grbgpu_stats s ;
    grbgpu_stats_get (&s) ;
    return s.resident_kept ;
}

static void test_split_over_residency (void **state)
{
    (void) state ;
    cu_rng rng = cu_rng_for (cu_seed, "residency") ;
    cu_gen g = { .vals = CU_V_INT } ;
    // every row of A has an entry (so the result could stay whole)
    GrB_Matrix A = cu_matrix (&rng, CU_FP32, 500, 400, 0.05, &g) ;
    for (GrB_Index r = 0 ; r < 500 ; r++) CU_OK (GrB_Matrix_setElement_FP32 (A, 1.0f, r, r % 400)) ;
    GrB_Matrix B = cu_matrix (&rng, CU_FP32, 400, 16, 1.0, &g) ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP32) ;
    assert_int_equal (grbgpu_set ("RESIDENT", "1"), 0) ;
    assert_int_equal (grbgpu_set ("DEVICES", "0,0"), 0) ;
    uint64_t k0 = kept_count () ;
    run_case ("residency on, two slots", CU_MXM, NULL, A, B, sr, NULL, 1e-5, true, CU_EXPECT_OFFLOAD) ;
    if (!cu_selfcheck) assert_int_equal (kept_count (), k0) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
    uint64_t before = split_count () ;
    k0 = kept_count () ;
    run_case ("residency on, one slot", CU_MXM, NULL, A, B, sr, NULL, 1e-5, false, CU_EXPECT_OFFLOAD) ;
    assert_int_equal (split_count (), before) ;
    if (!cu_selfcheck) assert_true (kept_count () > k0) ;
    assert_int_equal (grbgpu_set ("RESIDENT", "0"), 0) ;
    GrB_free (&A) ; GrB_free (&B) ;
}

// The same A twice (the slots' blocks come from the cache), then A changed:
// the answer must follow the change.
static void test_repeat_and_change (void **state)
{
    (void) state ;
    assert_int_equal (grbgpu_set ("DEVICES", "0,0"), 0) ;
    cu_rng rng = cu_rng_for (cu_seed, "repeat") ;
    cu_gen g = { .vals = CU_V_INT } ;
    GrB_Semiring sr = cu_semiring (CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64) ;
    GrB_Matrix A = cu_matrix (&rng, CU_FP64, 3000, 3000, 0.003, &g) ;
    GrB_Matrix B = cu_matrix (&rng, CU_FP64, 3000, 16, 1.0, &g) ;
    run_case ("repeat/1", CU_MXM, NULL, A, B, sr, NULL, 0, true, CU_EXPECT_OFFLOAD) ;
    run_case ("repeat/2", CU_MXM, NULL, A, B, sr, NULL, 0, true, CU_EXPECT_OFFLOAD) ;
    // move entries: a new last row heavy (the balanced cut moves too)
    for (int64_t j = 0 ; j < 3000 ; j += 2) CU_OK (GrB_Matrix_setElement_FP64 (A, 3.0, 2999, j)) ;
    CU_OK (GrB_Matrix_removeElement (A, 0, 0)) ;
    CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    run_case ("repeat/changed", CU_MXM, NULL, A, B, sr, NULL, 0, true, CU_EXPECT_OFFLOAD) ;
    run_case ("repeat/changed2", CU_MXM, NULL, A, B, sr, NULL, 0, true, CU_EXPECT_OFFLOAD) ;
    GrB_free (&A) ; GrB_free (&B) ;
    assert_int_equal (grbgpu_set ("DEVICES", ""), 0) ;
}


int main (void)
{
    const char *seed_env = getenv ("GRBGPU_TEST_SEED") ;
    if (seed_env && *seed_env) cu_seed = strtoull (seed_env, NULL, 0) ;
    else
    {
        struct timeval tv ;
        gettimeofday (&tv, NULL) ;
        cu_seed = ((uint64_t) tv.tv_sec * 1000003u) ^ (uint64_t) tv.tv_usec ^ ((uint64_t) getpid () << 20) ;
    }
    const char *sc = getenv ("GRBGPU_TEST_SELFCHECK") ;
    cu_selfcheck = sc && *sc && strcmp (sc, "0") != 0 ;
#ifdef GG_TEST_MULTI_CUDA
    int ndev = 0 ;
    if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev == 0)
    {
        printf ("test_multi_cuda: no GPU, skipped\n") ;
        return 77 ;
    }
    setenv ("GRBGPU_TEST_DEVICE", "cuda", 1) ;
#endif
    // the split path serves products written back on the host: a result kept
    // on the device (residency, on by default) runs unsplit on the main
    // device (docs/SCALING.md)
    setenv ("GRBGPU_RESIDENT", "0", 1) ;
    printf ("test_multi: seed %llu (GRBGPU_TEST_SEED=%llu repeats this run), offload side %s\n",
        (unsigned long long) cu_seed, (unsigned long long) cu_seed, cu_offload_device ()) ;
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;
    cu_device_cpu () ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_partition),
        cmocka_unit_test (test_setting),
        cmocka_unit_test (test_two_slots),
        cmocka_unit_test (test_three_slots),
        cmocka_unit_test (test_repeat_and_change),
        cmocka_unit_test (test_split_over_residency),
        cmocka_unit_test (test_row_weight),
        cmocka_unit_test (test_faults),
        cmocka_unit_test (test_workers_reused),
        cmocka_unit_test (test_fault_mid_stream),
        cmocka_unit_test (test_sddmm_slots),
        cmocka_unit_test (test_sddmm_repeat),
        cmocka_unit_test (test_sddmm_slot_fails),
#ifdef GG_TEST_MULTI_CUDA
        cmocka_unit_test (test_second_slot_fails),
        cmocka_unit_test (test_fake_devices),
        cmocka_unit_test (test_fake_slot_fails),
#endif
    } ;
    const char *filter = getenv ("GRBGPU_TEST_FILTER") ;
    if (filter != NULL && *filter) cmocka_set_test_filter (filter) ;
    int failed = cmocka_run_group_tests (tests, NULL, NULL) ;
    printf ("test_multi: %d checks, %d failed groups\n", checks, failed) ;
    cu_finalize () ;
    GrB_finalize () ;
    return failed ? 1 : 0 ;
}
