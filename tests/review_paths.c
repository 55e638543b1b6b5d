//------------------------------------------------------------------------------
// tests/review_paths.c: test_review's cases 6-11
//------------------------------------------------------------------------------

#include "tests/review_test.h"

//------------------------------------------------------------------------------
// 6. hypersparse operands near the "few vectors" threshold, transposed
//------------------------------------------------------------------------------

void test_hyper (void **state)
{
    (void) state ;
    int bad = 0 ;
    // 64 x 40, entries in 8 rows only (nvec*8 == nrows): offloaded
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_INT64, 64, 40)) ;
    for (int r = 0 ; r < 8 ; r++)
        for (int j = 0 ; j < 40 ; j += 3)
            OK (GrB_Matrix_setElement_INT64 (A, r * 100 + j, r * 8 + 1, j)) ;
    OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    GrB_Matrix B, Bt ;
    OK (GrB_Matrix_new (&B, GrB_INT64, 40, 5)) ;
    OK (GrB_Matrix_new (&Bt, GrB_INT64, 5, 64)) ;
    for (int i = 0 ; i < 40 ; i++) for (int j = 0 ; j < 5 ; j++)
        OK (GrB_Matrix_setElement_INT64 (B, i * 5 - j, i, j)) ;
    for (int i = 0 ; i < 5 ; i++) for (int j = 0 ; j < 64 ; j++)
        OK (GrB_Matrix_setElement_INT64 (Bt, i + j, i, j)) ;
    GrB_Matrix C0, C1 ;
    OK (GrB_Matrix_new (&C0, GrB_INT64, 64, 5)) ;
    OK (GrB_Matrix_new (&C1, GrB_INT64, 40, 5)) ;
    ctx_t c = { NULL, A, B, NULL, GxB_PLUS_TIMES_INT64, NULL, 0 } ;
    bad += both ("hyper/spmm_8_of_64_rows", C0, do_call, &c, NULL, true) ;
    // A' (40 x 64) * Bt' : A' has its entries in 8 columns
    ctx_t c2 = { NULL, A, Bt, NULL, GxB_MAX_FIRST_INT64, GrB_DESC_T0T1, 0 } ;
    bad += both ("hyper/spmm_A'_Bt'", C1, do_call, &c2, NULL, false) ;
    // by column hypersparse
    OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
    OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE)) ;
    bad += both ("hyper/spmm_bycol", C0, do_call, &c, NULL, false) ;
    bad += both ("hyper/spmm_bycol_A'_Bt'", C1, do_call, &c2, NULL, false) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&Bt) ;
    GrB_Matrix_free (&C0) ; GrB_Matrix_free (&C1) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 7. user-built semirings: standard pieces, and monoids that are not
//------------------------------------------------------------------------------

void test_user_monoids (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (20, 12, v_nan_some) ;
    GrB_Matrix B = dense_fp64 (12, 4, v_nan_some) ;
    GrB_Monoid m1, m2, m3, m4 ;
    OK (GrB_Monoid_new_FP64 (&m1, GrB_MIN_FP64, INFINITY)) ;            // no terminal
    OK (GxB_Monoid_terminal_new_FP64 (&m2, GrB_MAX_FP64, -INFINITY, INFINITY)) ;
    OK (GrB_Monoid_new_FP64 (&m3, GrB_MAX_FP64, -1e308)) ;              // non-standard
    OK (GrB_Monoid_new_INT32 (&m4, GrB_TIMES_INT32, 1)) ;
    GrB_Semiring s1, s2, s3, s4 ;
    OK (GrB_Semiring_new (&s1, m1, GrB_PLUS_FP64)) ;
    OK (GrB_Semiring_new (&s2, m2, GrB_TIMES_FP64)) ;
    OK (GrB_Semiring_new (&s3, m3, GrB_FIRST_FP64)) ;
    OK (GrB_Semiring_new (&s4, m4, GrB_MINUS_INT32)) ;  // MINUS not supported
    GrB_Matrix C0 ;
    OK (GrB_Matrix_new (&C0, GrB_FP64, 20, 4)) ;
    ctx_t c = { NULL, A, B, NULL, s1, NULL, 0 } ;
    bad += both ("user/MIN_PLUS_FP64_user_monoid", C0, do_call, &c, NULL, true) ;
    c.s = s2 ;
    bad += both ("user/MAX_TIMES_FP64_terminal_inf", C0, do_call, &c, NULL, true) ;
    c.s = s3 ;
    bad += both ("user/MAX_FIRST_nonstandard_identity", C0, do_call, &c, NULL, false) ;
    c.s = s4 ;
    bad += both ("user/TIMES_MINUS_INT32", C0, do_call, &c, NULL, false) ;
    GrB_Semiring_free (&s1) ; GrB_Semiring_free (&s2) ; GrB_Semiring_free (&s3) ;
    GrB_Semiring_free (&s4) ;
    GrB_Monoid_free (&m1) ; GrB_Monoid_free (&m2) ; GrB_Monoid_free (&m3) ; GrB_Monoid_free (&m4) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C0) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 8. MIN / MAX accumulate on a tie of signed zeros: c = -0, t = +0 and back,
//    through the in-place path (C full, same orientation) and through the
//    GrB_apply write-back (C with one column is held by column: T by row)
//------------------------------------------------------------------------------

// C (n x ncols, every entry z [a]) = accum (C, I * B) with B (n x ncols)
// every entry z [1-a], for MIN and MAX and both signs of the tie.
// values_only: the sign of a zero is not compared (see the banner).
static int signed_zero_cases (const char *tag, GrB_Index n, GrB_Index ncols,
    bool values_only)
{
    int bad = 0 ;
    const double z [2] = { -0.0, 0.0 } ;
    GrB_BinaryOp ops [2] = { GrB_MIN_FP64, GrB_MAX_FP64 } ;
    for (int o = 0 ; o < 2 ; o++)
    {
        for (int a = 0 ; a < 2 ; a++)
        {
            GrB_Matrix A, B, C0 ;
            OK (GrB_Matrix_new (&A, GrB_FP64, n, n)) ;
            OK (GrB_Matrix_new (&B, GrB_FP64, n, ncols)) ;
            OK (GrB_Matrix_new (&C0, GrB_FP64, n, ncols)) ;
            for (GrB_Index i = 0 ; i < n ; i++)
            {
                OK (GrB_Matrix_setElement_FP64 (A, 1.0, i, i)) ;
                for (GrB_Index j = 0 ; j < ncols ; j++)
                {
                    OK (GrB_Matrix_setElement_FP64 (B, z [1-a], i, j)) ;
                    OK (GrB_Matrix_setElement_FP64 (C0, z [a], i, j)) ;
                }
            }
            OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
            OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
            OK (GrB_Matrix_wait (C0, GrB_MATERIALIZE)) ;
            ctx_t c = { NULL, A, B, ops [o], GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 0 } ;
            char name [100] ;
            snprintf (name, sizeof name, "%s/%s/c=%s_t=%s/C_%dx%d", tag,
                o ? "MAX" : "MIN", a ? "+0" : "-0", a ? "-0" : "+0", (int) n,
                (int) ncols) ;
            zero_sign_counts = !values_only ;
            bad += both (name, C0, do_call, &c, NULL, true) ;
            zero_sign_counts = true ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C0) ;
        }
    }
    return bad ;
}

void test_signed_zero_accum (void **state)
{
    (void) state ;
    int bad = 0 ;
    // A = I (2x2 sparse); C with one column is held by column (T by row)
    for (GrB_Index ncols = 1 ; ncols <= 2 ; ncols++)
        bad += signed_zero_cases ("signed_zero", 2, ncols, false) ;
    assert_int_equal (bad, 0) ;
}

// the same tie with every operand 1x1 (both inputs dense: GEMM; C held by
// column, so the write-back is GrB_Matrix_apply, whose answer to the tie
// differs from GrB_mxm's here in the sign of the zero: values compared)
void test_signed_zero_accum_1x1 (void **state)
{
    (void) state ;
    assert_int_equal (signed_zero_cases ("signed_zero_1x1", 1, 1, true), 0) ;
}

//------------------------------------------------------------------------------
// 10. plain writes into a C held bitmap or full: C's arrays are reused for T
//------------------------------------------------------------------------------

// Two plain calls in a row on the same C: the second finds C as the first
// left it (bitmap or full, by row) and writes T into C's own arrays.  The
// second A has other empty rows, so a stale bitmap would show.  Also: C is
// an input (must not be unpacked), C iso, C by column, C's sparsity control
// kept, and the vector (mxv) case.
typedef struct { ctx_t c ; GrB_Matrix A2 ; bool alias ; } twice_t ;

static GrB_Info do_twice (GrB_Matrix C, void *p)
{
    twice_t *t = (twice_t *) p ;
    GrB_Info info = do_call (C, &t->c) ;
    if (info != GrB_SUCCESS) return info ;
    ctx_t c2 = t->c ;
    c2.A = t->A2 ;
    if (t->alias) c2.B = C ;            // C = A2 * C: C is an input
    return do_call (C, &c2) ;
}

// sparse m x k FP64 with the rows i % skip == phase empty; values from a seed
static GrB_Matrix sparse_rows_fp64 (GrB_Index m, GrB_Index k, int skip, int phase, uint64_t seed)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, m, k)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        if ((int) (i % (GrB_Index) skip) == phase) continue ;
        for (GrB_Index j = 0 ; j < k ; j++)
        {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL ;
            if ((seed >> 60) < 6)
                OK (GrB_Matrix_setElement_FP64 (A, (double) ((int64_t) (seed >> 40) % 1000) / 8.0, i, j)) ;
        }
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static int ctl_for_prep = 0 ;
static GxB_Format_Value fmt_for_prep = GxB_BY_ROW ;
static void prep_ctl (GrB_Matrix C)
{
    OK (GxB_Matrix_Option_set (C, GxB_FORMAT, fmt_for_prep)) ;
    if (ctl_for_prep) OK (GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, ctl_for_prep)) ;
}

void test_result_reuse (void **state)
{
    (void) state ;
    int bad = 0 ;
    uint64_t seed = (uint64_t) time (NULL) ;
    printf ("result_reuse: seed %llu\n", (unsigned long long) seed) ;
    const GrB_Index m = 40, k = 40, n = 7 ;
    GrB_Matrix A1 = sparse_rows_fp64 (m, k, 3, 0, seed) ;
    GrB_Matrix A2 = sparse_rows_fp64 (m, k, 4, 1, seed + 1) ;
    GrB_Matrix A3 = sparse_rows_fp64 (m, k, 1000, 999, seed + 2) ;   // no empty row
    GrB_Matrix B = dense_fp64 (k, n, v_small) ;
    GrB_Matrix Cfull = dense_fp64 (m, n, v_small) ;
    GrB_Matrix Cbitmap = sparse_fp64 (m, n, v_small) ;
    GrB_Matrix Ciso ;
    OK (GrB_Matrix_new (&Ciso, GrB_FP64, m, n)) ;
    OK (GrB_Matrix_assign_FP64 (Ciso, NULL, NULL, 2.5, GrB_ALL, m, GrB_ALL, n, NULL)) ;
    OK (GrB_Matrix_wait (Ciso, GrB_MATERIALIZE)) ;
    struct { GrB_Matrix C ; const char *name ; } cs [ ] =
        { { Cfull, "full" }, { Cbitmap, "bitmap" }, { Ciso, "iso" } } ;
    const int ctl [ ] = { 0, GxB_BITMAP, GxB_BITMAP + GxB_FULL, GxB_SPARSE } ;
    for (int ci = 0 ; ci < 3 ; ci++)
    {
        for (int q = 0 ; q < 4 ; q++)
        {
            for (int f = 0 ; f < 2 ; f++)
            {
                for (int a = 0 ; a < 3 ; a++)
                {
                    GrB_Matrix first = (a == 2) ? A3 : A1 ;
                    GrB_Matrix second = (a == 0) ? A2 : (a == 1) ? A3 : A1 ;
                    twice_t t = { { NULL, first, B, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 0 }, second, false } ;
                    ctl_for_prep = ctl [q] ;
                    fmt_for_prep = f ? GxB_BY_COL : GxB_BY_ROW ;
                    char name [120] ;
                    snprintf (name, sizeof name, "reuse/C_%s/ctl%d/%s/A%d", cs [ci].name, ctl [q],
                        f ? "bycol" : "byrow", a) ;
                    bad += both (name, cs [ci].C, do_twice, &t, prep_ctl, true) ;
                }
            }
        }
    }
    // C = A * B, then C = A2 * C: C is an input of the second call
    {
        GrB_Matrix Csq = dense_fp64 (m, m, v_small) ;
        GrB_Matrix Bsq = dense_fp64 (k, m, v_small) ;
        twice_t t = { { NULL, A3, Bsq, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 0 }, A2, true } ;
        ctl_for_prep = 0 ; fmt_for_prep = GxB_BY_ROW ;
        bad += both ("reuse/aliased", Csq, do_twice, &t, prep_ctl, true) ;
        GrB_Matrix_free (&Csq) ; GrB_Matrix_free (&Bsq) ;
    }
    // sparsity control survives the reuse: C held bitmap by its control
    {
        GrB_Matrix C1, C2 ;
        // (GrB_Matrix_dup does not copy the bitmap switch: set both)
        OK (GrB_Matrix_dup (&C1, Cbitmap)) ;
        OK (GrB_Matrix_dup (&C2, Cbitmap)) ;
        OK (GxB_Matrix_Option_set (C1, GxB_SPARSITY_CONTROL, GxB_BITMAP + GxB_FULL)) ;
        OK (GxB_Matrix_Option_set (C1, GxB_BITMAP_SWITCH, 0.25)) ;
        OK (GxB_Matrix_Option_set (C2, GxB_SPARSITY_CONTROL, GxB_BITMAP + GxB_FULL)) ;
        OK (GxB_Matrix_Option_set (C2, GxB_BITMAP_SWITCH, 0.25)) ;
        dev ("host") ;
        grbgpu_stats s0, s1 ;
        // (with residency on, a product whose rows are full or absent stays
        // on the device instead of being written into C's arrays)
        assert_int_equal (grbgpu_set ("RESIDENT", "0"), 0) ;
        OK (GrB_mxm (C1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A1, B, NULL)) ;
        grbgpu_stats_get (&s0) ;
        OK (GrB_mxm (C1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A2, B, NULL)) ;
        grbgpu_stats_get (&s1) ;
        assert_int_equal (grbgpu_set ("RESIDENT", "1"), 0) ;
        // the first call left C1 bitmap (A1 has empty rows): the second reused it
        if (s1.outputs_reused != s0.outputs_reused + 1)
        {
            printf ("reuse/options: C's arrays were not reused\n") ;
            bad++ ;
        }
        dev ("cpu") ;
        OK (GrB_mxm (C2, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A2, B, NULL)) ;
        int c1, c2 ;
        double b1, b2 ;
        OK (GxB_Matrix_Option_get (C1, GxB_SPARSITY_CONTROL, &c1)) ;
        OK (GxB_Matrix_Option_get (C2, GxB_SPARSITY_CONTROL, &c2)) ;
        OK (GxB_Matrix_Option_get (C1, GxB_BITMAP_SWITCH, &b1)) ;
        OK (GxB_Matrix_Option_get (C2, GxB_BITMAP_SWITCH, &b2)) ;
        if (c1 != c2 || b1 != b2)
        {
            printf ("reuse/options: control %d vs %d, bitmap switch %g vs %g\n", c1, c2, b1, b2) ;
            bad++ ;
        }
        bad += compare ("reuse/options", C2, C1) ;
        GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
    }
    // mxv into a bitmap then full w, twice
    {
        GrB_Vector u, w ;
        OK (GrB_Vector_new (&u, GrB_FP64, k)) ;
        for (GrB_Index i = 0 ; i < k ; i++) OK (GrB_Vector_setElement_FP64 (u, (double) i - 7.5, i)) ;
        OK (GrB_Vector_new (&w, GrB_FP64, m)) ;
        for (GrB_Index i = 0 ; i < m ; i += 2) OK (GrB_Vector_setElement_FP64 (w, 1.0, i)) ;
        for (int a = 0 ; a < 3 ; a++)
        {
            GrB_Matrix first = (a == 2) ? A3 : A1 ;
            GrB_Matrix second = (a == 0) ? A2 : (a == 1) ? A3 : A1 ;
            twice_t t = { { NULL, first, (GrB_Matrix) u, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 1 }, second, false } ;
            char name [80] ;
            snprintf (name, sizeof name, "reuse/mxv/A%d", a) ;
            bad += both (name, (GrB_Matrix) w, do_twice, &t, NULL, true) ;
        }
        GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
    }
    GrB_Matrix_free (&A1) ; GrB_Matrix_free (&A2) ; GrB_Matrix_free (&A3) ;
    GrB_Matrix_free (&B) ; GrB_Matrix_free (&Cfull) ; GrB_Matrix_free (&Cbitmap) ;
    GrB_Matrix_free (&Ciso) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 11. a dense operand read in place whose storage changed without a new version
//------------------------------------------------------------------------------

// grbgpu reads a dense operand held row-major in the semiring's type in
// place, and keeps that (zero-copy) form in its cache under the operand's
// version.  GrB_wait does not change the version, so a storage change that
// keeps the value must be caught on the next hit.  The test makes one by
// calling the CPU library's own GxB_Matrix_Option_set (not grbgpu's wrapper,
// which would bump the version): B turns from by-row to by-column storage
// under the same version, and the next product must still be right.
#include <dlfcn.h>

void test_in_place_form_revalidated (void **state)
{
    (void) state ;
    void *lib = dlopen ("libgraphblas.so.7", RTLD_NOW | RTLD_NOLOAD) ;
    if (lib == NULL) lib = dlopen ("libgraphblas.so", RTLD_NOW | RTLD_NOLOAD) ;
    if (lib == NULL) { printf ("in_place: libgraphblas not found by dlopen: skipped\n") ; skip () ; }
    typedef GrB_Info (*option_set_fn) (GrB_Matrix, GxB_Option_Field, ...) ;
    option_set_fn real_set = (option_set_fn) dlsym (lib, "GxB_Matrix_Option_set") ;
    assert_non_null (real_set) ;
    int bad = 0 ;
    GrB_Matrix A = sparse_rows_fp64 (30, 12, 1000, 999, (uint64_t) time (NULL)) ;
    GrB_Matrix B = dense_fp64 (12, 9, v_small) ;
    OK (GxB_Matrix_Option_set (B, GxB_FORMAT, GxB_BY_ROW)) ;
    GrB_Matrix Cg, Cr ;
    OK (GrB_Matrix_new (&Cg, GrB_FP64, 30, 9)) ;
    OK (GrB_Matrix_new (&Cr, GrB_FP64, 30, 9)) ;
    dev ("host") ;
    OK (GrB_mxm (Cg, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    assert_string_equal (grbgpu_last_decision ( ), "host") ;
    // B's storage changes, its value and version do not
    OK (real_set (B, GxB_FORMAT, GxB_BY_COL)) ;
    OK (GrB_mxm (Cg, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    assert_string_equal (grbgpu_last_decision ( ), "host") ;
    dev ("cpu") ;
    OK (GrB_mxm (Cr, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    bad += compare ("in_place/B_by_col_same_version", Cr, Cg) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&Cg) ; GrB_Matrix_free (&Cr) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 11. large transposed operands: the conversion's parallel transpose
//------------------------------------------------------------------------------

// A (300000 x 150000, ~2.4M entries, by row): a hub column (0) in every third
// row, the last 1000 columns empty; A' B (mxm with the first input
// transposed) and u' A (vxm) both convert A' with the threaded transpose
// (more than 1M entries), held sparse and hypersparse, with the values in
// the semiring's type and cast to INT64.  Values are multiples of 1/8, so
// every sum is exact in any order.
void test_parallel_transpose (void **state)
{
    (void) state ;
    const GrB_Index m = 300000, k = 150000, per = 8 ;
    GrB_Index *I = malloc (m * per * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (m * per * sizeof (GrB_Index)) ;
    double *X = malloc (m * per * sizeof (double)) ;
    assert_non_null (I) ; assert_non_null (J) ; assert_non_null (X) ;
    GrB_Index n = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        if (i % 7 == 5) continue ;          // empty rows (hypersparse below)
        for (GrB_Index t = 0 ; t < per ; t++)
        {
            I [n] = i ;
            J [n] = (t == 0 && i % 3 == 0) ? 0
                : (i * 2654435761u + t * 40503u) % (k - 1000) ;
            X [n] = (double) ((int) ((i * 13 + t * 7) % 17) - 8) / 8.0 ;
            n++ ;
        }
    }
    GrB_Matrix A, B, U, C0, W0 ;
    OK (GrB_Matrix_new (&A, GrB_FP64, m, k)) ;
    OK (GrB_Matrix_build_FP64 (A, I, J, X, n, GrB_PLUS_FP64)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    free (I) ; free (J) ; free (X) ;
    B = dense_fp64 (m, 2, v_small) ;
    // u as an m x 1 matrix's column: a full vector
    GrB_Vector u ;
    OK (GrB_Vector_new (&u, GrB_FP64, m)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        OK (GrB_Vector_setElement_FP64 (u, (double) ((int) (i % 11) - 5), i)) ;
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    U = (GrB_Matrix) u ;
    OK (GrB_Matrix_new (&C0, GrB_FP64, k, 2)) ;
    GrB_Vector w ;
    OK (GrB_Vector_new (&w, GrB_FP64, k)) ;
    W0 = (GrB_Matrix) w ;
    int bad = 0 ;
    for (int hyper = 0 ; hyper < 2 ; hyper++)
    {
        if (hyper) OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE)) ;
        ctx_t c1 = { NULL, A, B, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, GrB_DESC_T0, 0 } ;
        bad += both (hyper ? "transpose/hyper/A'B" : "transpose/sparse/A'B", C0,
            do_call, &c1, NULL, true) ;
        ctx_t c2 = { NULL, U, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 2 } ;
        bad += both (hyper ? "transpose/hyper/u'A" : "transpose/sparse/u'A", W0,
            do_call, &c2, NULL, true) ;
        // values cast while they move (FP64 -> INT64: truncated, exact sums)
        ctx_t c3 = { NULL, A, B, NULL, GrB_PLUS_TIMES_SEMIRING_INT64, GrB_DESC_T0, 0 } ;
        bad += both (hyper ? "transpose/hyper/A'B_int64" : "transpose/sparse/A'B_int64",
            C0, do_call, &c3, NULL, true) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C0) ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
    assert_int_equal (bad, 0) ;
}
