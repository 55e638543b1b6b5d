//------------------------------------------------------------------------------
// tests/test_review.c: review cases (edge cases of the host-side core)
//------------------------------------------------------------------------------

// Each case runs one call twice on duplicates of the same output: once with
// GRBGPU_DEVICE=cpu (the reference) and once forced onto the host backend
// (DEVICE=host, MIN_WORK=0), checks the call was offloaded ("host"), and
// compares GrB_Info, structure and values exactly (NaN equals NaN, and the
// sign of a zero counts).
//
// One exception: a MIN or MAX accumulator given -0 and +0 may return either,
// and SuiteSparse:GraphBLAS 7.4 itself answers such a tie differently on
// different internal paths (GrB_mxm keeps T's zero when C is 2x2 and held by
// row, C's zero when C is 1x1).  grbgpu's in-place accumulation follows the
// first (checked bit for bit below); its GrB_apply write-back gives what
// GrB_apply gives, which differs from GrB_mxm's 1x1 answer in the sign of the
// zero only, so that one test compares values (-0 == +0).

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <GraphBLAS.h>
#include "grbgpu.h"

#define OK(call) assert_int_equal ((call), GrB_SUCCESS)

// false only where the CPU library's own answer to a signed-zero tie depends
// on its internal path (see the banner)
static bool zero_sign_counts = true ;

static void dev (const char *d)
{
    assert_int_equal (grbgpu_set ("DEVICE", d), 0) ;
    assert_int_equal (grbgpu_set ("MIN_WORK", "0"), 0) ;
}

//------------------------------------------------------------------------------
// exact comparison of two matrices (vectors are passed as matrices)
//------------------------------------------------------------------------------

static int compare (const char *name, GrB_Matrix R, GrB_Matrix G)
{
    GrB_Index rm, rn, gm, gn, rnv, gnv ;
    OK (GrB_Matrix_nrows (&rm, R)) ; OK (GrB_Matrix_ncols (&rn, R)) ;
    OK (GrB_Matrix_nrows (&gm, G)) ; OK (GrB_Matrix_ncols (&gn, G)) ;
    OK (GrB_Matrix_nvals (&rnv, R)) ; OK (GrB_Matrix_nvals (&gnv, G)) ;
    if (rm != gm || rn != gn || rnv != gnv)
    {
        printf ("%s: dims/nvals differ: ref %llux%llu nvals %llu, got %llux%llu nvals %llu\n",
            name, (unsigned long long) rm, (unsigned long long) rn, (unsigned long long) rnv,
            (unsigned long long) gm, (unsigned long long) gn, (unsigned long long) gnv) ;
        return 1 ;
    }
    GrB_Type t ;
    OK (GxB_Matrix_type (&t, R)) ;
    bool fp = (t == GrB_FP32 || t == GrB_FP64) ;
    bool uns = (t == GrB_BOOL || t == GrB_UINT8 || t == GrB_UINT16 || t == GrB_UINT32 || t == GrB_UINT64) ;
    int bad = 0 ;
    for (GrB_Index i = 0 ; i < rm ; i++)
    {
        for (GrB_Index j = 0 ; j < rn ; j++)
        {
            GrB_Info a, b ;
            if (fp)
            {
                double x = 0, y = 0 ;
                a = GrB_Matrix_extractElement_FP64 (&x, R, i, j) ;
                b = GrB_Matrix_extractElement_FP64 (&y, G, i, j) ;
                bool same = (a == b) && (a != GrB_SUCCESS
                    || (isnan (x) && isnan (y))
                    || (x == y && (signbit (x) == signbit (y) || !zero_sign_counts))) ;
                if (!same && bad++ < 5)
                    printf ("%s: (%llu,%llu): ref info %d value %.17g, got info %d value %.17g\n",
                        name, (unsigned long long) i, (unsigned long long) j, a, x, b, y) ;
            }
            else if (uns)
            {
                uint64_t x = 0, y = 0 ;
                a = GrB_Matrix_extractElement_UINT64 (&x, R, i, j) ;
                b = GrB_Matrix_extractElement_UINT64 (&y, G, i, j) ;
                if ((a != b || (a == GrB_SUCCESS && x != y)) && bad++ < 5)
                    printf ("%s: (%llu,%llu): ref info %d value %llu, got info %d value %llu\n",
                        name, (unsigned long long) i, (unsigned long long) j, a,
                        (unsigned long long) x, b, (unsigned long long) y) ;
            }
            else
            {
                int64_t x = 0, y = 0 ;
                a = GrB_Matrix_extractElement_INT64 (&x, R, i, j) ;
                b = GrB_Matrix_extractElement_INT64 (&y, G, i, j) ;
                if ((a != b || (a == GrB_SUCCESS && x != y)) && bad++ < 5)
                    printf ("%s: (%llu,%llu): ref info %d value %lld, got info %d value %lld\n",
                        name, (unsigned long long) i, (unsigned long long) j, a,
                        (long long) x, b, (long long) y) ;
            }
        }
    }
    return bad ;
}

//------------------------------------------------------------------------------
// the two-sided runner
//------------------------------------------------------------------------------

typedef GrB_Info (*call_fn) (GrB_Matrix C, void *ctx) ;

// prepare: optional, applied to each side's copy of C0 before the call
static int both (const char *name, GrB_Matrix C0, call_fn f, void *ctx,
    void (*prepare) (GrB_Matrix C), bool expect_offload)
{
    GrB_Matrix Cr, Cg ;
    OK (GrB_Matrix_dup (&Cr, C0)) ;
    OK (GrB_Matrix_dup (&Cg, C0)) ;
    if (prepare) { prepare (Cr) ; prepare (Cg) ; }
    dev ("cpu") ;
    GrB_Info ir = f (Cr, ctx) ;
    dev ("host") ;
    GrB_Info ig = f (Cg, ctx) ;
    const char *dec = grbgpu_last_decision ( ) ;
    dev ("cpu") ;
    int bad = 0 ;
    if (expect_offload && strcmp (dec, "host") != 0)
    {
        printf ("%s: not offloaded: %s\n", name, dec) ;
        bad++ ;
    }
    if (ir != ig)
    {
        printf ("%s: GrB_Info ref %d got %d\n", name, ir, ig) ;
        bad++ ;
    }
    bad += compare (name, Cr, Cg) ;
    if (bad) printf ("%s: FAILED (%d problems; decision %s)\n", name, bad, dec) ;
    else printf ("%s: ok (%s)\n", name, dec) ;
    GrB_Matrix_free (&Cr) ;
    GrB_Matrix_free (&Cg) ;
    return bad ;
}

//------------------------------------------------------------------------------
// builders
//------------------------------------------------------------------------------

static GrB_Matrix dense_fp64 (GrB_Index m, GrB_Index n, double (*v) (GrB_Index, GrB_Index))
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, m, n)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            OK (GrB_Matrix_setElement_FP64 (A, v (i, j), i, j)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

// sparse m x k: entry (i,j) present when (i*7 + j*3) % 4 == 0, value v(i,j)
static GrB_Matrix sparse_fp64 (GrB_Index m, GrB_Index k, double (*v) (GrB_Index, GrB_Index))
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, m, k)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < k ; j++)
            if ((i * 7 + j * 3) % 4 == 0) OK (GrB_Matrix_setElement_FP64 (A, v (i, j), i, j)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static const double specials [ ] =
{
    NAN, INFINITY, -INFINITY, 0.0, -0.0, 2147483647.0, 2147483648.0, -2147483649.0,
    4294967296.0, 9.3e18, -9.3e18, 1.9e19, 3.5, -3.5, 1e300, -1e-300, 0.5, -0.5, 7, -7
} ;
#define NSPEC (sizeof (specials) / sizeof (specials [0]))

static double v_special (GrB_Index i, GrB_Index j) { return specials [(i * 5 + j * 3) % NSPEC] ; }
static double v_small (GrB_Index i, GrB_Index j) { return (double) ((int) ((i * 3 + j * 5) % 9) - 4) ; }
static double v_nan_some (GrB_Index i, GrB_Index j)
{
    int r = (int) ((i * 5 + j * 7) % 6) ;
    return r == 0 ? NAN : r == 1 ? -0.0 : r == 2 ? 0.0 : (double) r - 3.5 ;
}

//------------------------------------------------------------------------------
// generic calls
//------------------------------------------------------------------------------

typedef struct
{
    GrB_Matrix M, A, B ;
    GrB_BinaryOp accum ;
    GrB_Semiring s ;
    GrB_Descriptor d ;
    int kind ;      // 0 mxm, 1 mxv, 2 vxm (vectors passed as matrices)
}
ctx_t ;

static GrB_Info do_call (GrB_Matrix C, void *p)
{
    ctx_t *c = (ctx_t *) p ;
    switch (c->kind)
    {
        case 1: return GrB_mxv ((GrB_Vector) C, (GrB_Vector) c->M, c->accum, c->s, c->A, (GrB_Vector) c->B, c->d) ;
        case 2: return GrB_vxm ((GrB_Vector) C, (GrB_Vector) c->M, c->accum, c->s, (GrB_Vector) c->A, c->B, c->d) ;
        default: return GrB_mxm (C, c->M, c->accum, c->s, c->A, c->B, c->d) ;
    }
}

//------------------------------------------------------------------------------
// 1. typecasting special FP values into every integer semiring type
//------------------------------------------------------------------------------

static void test_cast_specials (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (20, 12, v_special) ;
    GrB_Matrix B = dense_fp64 (12, 5, v_special) ;
    GrB_Matrix A32 ;
    OK (GrB_Matrix_new (&A32, GrB_FP32, 20, 12)) ;
    OK (GrB_Matrix_assign (A32, NULL, NULL, A, GrB_ALL, 20, GrB_ALL, 12, NULL)) ;
    struct { GrB_Semiring s ; GrB_Type t ; const char *name ; } sr [ ] =
    {
        { GxB_MAX_FIRST_INT32, GrB_INT32, "MAX_FIRST_INT32" },
        { GxB_MIN_FIRST_INT64, GrB_INT64, "MIN_FIRST_INT64" },
        { GxB_MAX_FIRST_UINT32, GrB_UINT32, "MAX_FIRST_UINT32" },
        { GxB_MIN_FIRST_UINT64, GrB_UINT64, "MIN_FIRST_UINT64" },
        { GxB_MAX_SECOND_UINT64, GrB_UINT64, "MAX_SECOND_UINT64" },
        { GxB_MIN_SECOND_INT64, GrB_INT64, "MIN_SECOND_INT64" },
        { GxB_LOR_FIRST_BOOL, GrB_BOOL, "LOR_FIRST_BOOL" },
        { GxB_LAND_SECOND_BOOL, GrB_BOOL, "LAND_SECOND_BOOL" },
        { GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, "LOR_LAND_BOOL" },
        { GxB_PLUS_FIRST_FP32, GrB_FP32, "PLUS_FIRST_FP32" },
    } ;
    for (size_t k = 0 ; k < sizeof (sr) / sizeof (sr [0]) ; k++)
    {
        for (int a32 = 0 ; a32 < 2 ; a32++)
        {
            GrB_Matrix C0 ;
            OK (GrB_Matrix_new (&C0, sr [k].t, 20, 5)) ;
            ctx_t c = { NULL, a32 ? A32 : A, B, NULL, sr [k].s, NULL, 0 } ;
            char name [100] ;
            snprintf (name, sizeof name, "cast_specials/%s/A_%s", sr [k].name, a32 ? "FP32" : "FP64") ;
            bad += both (name, C0, do_call, &c, NULL, true) ;
            GrB_Matrix_free (&C0) ;
        }
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&A32) ; GrB_Matrix_free (&B) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 2. NaN and signed zeros through the FP MIN / MAX monoids and multiplies
//------------------------------------------------------------------------------

static void test_nan_semirings (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (24, 16, v_nan_some) ;
    GrB_Matrix B = dense_fp64 (16, 6, v_nan_some) ;
    struct { GrB_Semiring s ; const char *name ; } sr [ ] =
    {
        { GrB_MIN_PLUS_SEMIRING_FP64, "MIN_PLUS_FP64" },
        { GrB_MAX_PLUS_SEMIRING_FP64, "MAX_PLUS_FP64" },
        { GrB_MIN_TIMES_SEMIRING_FP64, "MIN_TIMES_FP64" },
        { GrB_MAX_TIMES_SEMIRING_FP64, "MAX_TIMES_FP64" },
        { GxB_MIN_FIRST_FP64, "MIN_FIRST_FP64" },
        { GxB_MAX_SECOND_FP64, "MAX_SECOND_FP64" },
        { GrB_MAX_MIN_SEMIRING_FP64, "MAX_MIN_FP64" },
        { GrB_MIN_MAX_SEMIRING_FP64, "MIN_MAX_FP64" },
        { GxB_PLUS_MIN_FP64, "PLUS_MIN_FP64" },
        { GxB_MIN_LAND_FP64, "MIN_LAND_FP64" },
        { GxB_TIMES_LOR_FP64, "TIMES_LOR_FP64" },
        { GxB_MIN_FIRST_FP32, "MIN_FIRST_FP32" },
    } ;
    for (size_t k = 0 ; k < sizeof (sr) / sizeof (sr [0]) ; k++)
    {
        GrB_Matrix C0 ;
        OK (GrB_Matrix_new (&C0, GrB_FP64, 24, 6)) ;
        ctx_t c = { NULL, A, B, NULL, sr [k].s, NULL, 0 } ;
        char name [100] ;
        snprintf (name, sizeof name, "nan/spmm/%s", sr [k].name) ;
        bad += both (name, C0, do_call, &c, NULL, true) ;
        GrB_Matrix_free (&C0) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 3. in-place accumulation into a full C: NaN, signed zero, iso C, C held
//    sparse, FIRST / SECOND
//------------------------------------------------------------------------------

static int spars_for_prep = 0 ;
static void prep_sparsity (GrB_Matrix C)
{
    if (spars_for_prep) OK (GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, spars_for_prep)) ;
}

static void test_inplace_accum (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (24, 16, v_small) ;
    GrB_Matrix An = sparse_fp64 (24, 16, v_nan_some) ;
    GrB_Matrix B = dense_fp64 (16, 6, v_nan_some) ;
    GrB_Matrix Cn = dense_fp64 (24, 6, v_nan_some) ;
    GrB_Matrix Ciso ;
    OK (GrB_Matrix_new (&Ciso, GrB_FP64, 24, 6)) ;
    OK (GrB_Matrix_assign_FP64 (Ciso, NULL, NULL, NAN, GrB_ALL, 24, GrB_ALL, 6, NULL)) ;
    OK (GrB_Matrix_wait (Ciso, GrB_MATERIALIZE)) ;
    struct { GrB_BinaryOp op ; const char *name ; } acc [ ] =
    {
        { GrB_MIN_FP64, "MIN" }, { GrB_MAX_FP64, "MAX" }, { GrB_PLUS_FP64, "PLUS" },
        { GrB_MINUS_FP64, "MINUS" }, { GrB_TIMES_FP64, "TIMES" },
        { GrB_FIRST_FP64, "FIRST" }, { GrB_SECOND_FP64, "SECOND" },
    } ;
    const int sp [ ] = { 0, GxB_SPARSE, GxB_BITMAP, GxB_HYPERSPARSE } ;
    for (size_t k = 0 ; k < sizeof (acc) / sizeof (acc [0]) ; k++)
    {
        for (int s = 0 ; s < 4 ; s++)
        {
            for (int which = 0 ; which < 3 ; which++)
            {
                ctx_t c = { NULL, which == 1 ? An : A, B, acc [k].op,
                    GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 0 } ;
                if (which == 2) c.s = GrB_MIN_PLUS_SEMIRING_FP64 ;
                char name [120] ;
                spars_for_prep = sp [s] ;
                snprintf (name, sizeof name, "inplace/%s/C_%s/%s", acc [k].name,
                    sp [s] == 0 ? "auto" : sp [s] == GxB_SPARSE ? "sparse" :
                    sp [s] == GxB_BITMAP ? "bitmap" : "hyper",
                    which == 0 ? "T_finite" : which == 1 ? "T_nan" : "MIN_PLUS") ;
                bad += both (name, Cn, do_call, &c, prep_sparsity, true) ;
                snprintf (name, sizeof name, "inplace/%s/C_iso_nan_%s/%s", acc [k].name,
                    sp [s] == 0 ? "auto" : sp [s] == GxB_SPARSE ? "sparse" :
                    sp [s] == GxB_BITMAP ? "bitmap" : "hyper",
                    which == 0 ? "T_finite" : which == 1 ? "T_nan" : "MIN_PLUS") ;
                bad += both (name, Ciso, do_call, &c, prep_sparsity, true) ;
            }
        }
    }
    spars_for_prep = 0 ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&An) ; GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&Cn) ; GrB_Matrix_free (&Ciso) ;
    assert_int_equal (bad, 0) ;
}

// FP32 in place, MIN / MAX with NaN (fminf / fmaxf)
static void test_inplace_accum_fp32_vec (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (30, 16, v_nan_some) ;   // some rows empty? no: check
    GrB_Vector u, w0 ;
    OK (GrB_Vector_new (&u, GrB_FP32, 16)) ;
    for (int i = 0 ; i < 16 ; i++) OK (GrB_Vector_setElement_FP64 (u, v_nan_some (i, 1), i)) ;
    OK (GrB_Vector_new (&w0, GrB_FP32, 30)) ;
    for (int i = 0 ; i < 30 ; i++) OK (GrB_Vector_setElement_FP64 (w0, v_nan_some (i, 2), i)) ;
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    OK (GrB_Vector_wait (w0, GrB_MATERIALIZE)) ;
    GrB_BinaryOp ops [ ] = { GrB_MIN_FP32, GrB_MAX_FP32, GrB_MINUS_FP32 } ;
    for (int k = 0 ; k < 3 ; k++)
    {
        ctx_t c = { NULL, A, (GrB_Matrix) u, ops [k], GrB_PLUS_TIMES_SEMIRING_FP32, NULL, 1 } ;
        char name [80] ;
        snprintf (name, sizeof name, "inplace/mxv_fp32/%s", k == 0 ? "MIN" : k == 1 ? "MAX" : "MINUS") ;
        bad += both (name, (GrB_Matrix) w0, do_call, &c, NULL, true) ;
        ctx_t c2 = { NULL, (GrB_Matrix) u, A, ops [k], GrB_PLUS_TIMES_SEMIRING_FP32, GrB_DESC_T1, 2 } ;
        GrB_Vector w1 ;
        OK (GrB_Vector_new (&w1, GrB_FP32, 30)) ;
        OK (GrB_Vector_assign_FP32 (w1, NULL, NULL, NAN, GrB_ALL, 30, NULL)) ;
        snprintf (name, sizeof name, "inplace/vxm_fp32_isoNaN/%s", k == 0 ? "MIN" : k == 1 ? "MAX" : "MINUS") ;
        bad += both (name, (GrB_Matrix) w1, do_call, &c2, NULL, true) ;
        GrB_Vector_free (&w1) ;
    }
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w0) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 4. the global format set to by column (T is created by column then)
//------------------------------------------------------------------------------

static void test_global_bycol (void **state)
{
    (void) state ;
    int bad = 0 ;
    OK (GxB_Global_Option_set (GxB_FORMAT, GxB_BY_COL)) ;
    GrB_Matrix A = sparse_fp64 (20, 12, v_small) ;
    GrB_Matrix B = dense_fp64 (12, 7, v_small) ;
    GrB_Matrix D = dense_fp64 (20, 12, v_small) ;
    GrB_Matrix M = sparse_fp64 (20, 7, v_small) ;
    GrB_Matrix C0, C1 ;
    OK (GrB_Matrix_new (&C0, GrB_FP64, 20, 7)) ;
    OK (GrB_Matrix_new (&C1, GrB_INT32, 20, 7)) ;
    ctx_t c = { NULL, A, B, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 0 } ;
    bad += both ("bycol_global/spmm_plain", C0, do_call, &c, NULL, true) ;
    bad += both ("bycol_global/spmm_C_int32", C1, do_call, &c, NULL, true) ;
    c.M = M ;
    bad += both ("bycol_global/spmm_masked", C0, do_call, &c, NULL, true) ;
    // SDDMM: C<M> = D * B'' ... D (20x12) * B (12x7)
    c.A = D ;
    bad += both ("bycol_global/sddmm", C0, do_call, &c, NULL, true) ;
    c.M = NULL ;
    bad += both ("bycol_global/gemm", C0, do_call, &c, NULL, true) ;
    c.accum = GrB_PLUS_FP64 ;
    GrB_Matrix Cf = dense_fp64 (20, 7, v_small) ;
    bad += both ("bycol_global/gemm_accum_full_C", Cf, do_call, &c, NULL, true) ;
    OK (GxB_Global_Option_set (GxB_FORMAT, GxB_BY_ROW)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&D) ;
    GrB_Matrix_free (&M) ; GrB_Matrix_free (&C0) ; GrB_Matrix_free (&C1) ;
    GrB_Matrix_free (&Cf) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 5. vector outputs: masks with accumulate, full w, A with empty rows
//------------------------------------------------------------------------------


static void test_vector_outputs (void **state)
{
    (void) state ;
    int bad = 0 ;
    // A with rows 0,3,6.. all empty (no entries), int values
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_INT32, 30, 10)) ;
    for (int i = 0 ; i < 30 ; i++)
        for (int j = 0 ; j < 10 ; j++)
            if (i % 3 != 0 && (i + j) % 2 == 0) OK (GrB_Matrix_setElement_INT32 (A, i - j, i, j)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    GrB_Vector u, w, m ;
    OK (GrB_Vector_new (&u, GrB_INT32, 10)) ;
    for (int i = 0 ; i < 10 ; i++) OK (GrB_Vector_setElement_INT32 (u, 3 - i, i)) ;
    OK (GrB_Vector_new (&w, GrB_INT32, 30)) ;
    for (int i = 0 ; i < 30 ; i++) OK (GrB_Vector_setElement_INT32 (w, 100 + i, i)) ;
    OK (GrB_Vector_new (&m, GrB_BOOL, 30)) ;
    for (int i = 0 ; i < 30 ; i += 2) OK (GrB_Vector_setElement_BOOL (m, i % 4 == 0, i)) ;
    GrB_BinaryOp ops [ ] = { GrB_MINUS_INT32, GrB_TIMES_INT32, GrB_SECOND_INT32, GrB_MIN_INT32 } ;
    for (int k = 0 ; k < 4 ; k++)
    {
        ctx_t c = { NULL, A, (GrB_Matrix) u, ops [k], GrB_PLUS_TIMES_SEMIRING_INT32, NULL, 1 } ;
        char name [80] ;
        snprintf (name, sizeof name, "vec/mxv_full_w_empty_rows/acc%d", k) ;
        bad += both (name, (GrB_Matrix) w, do_call, &c, NULL, true) ;
        c.M = (GrB_Matrix) m ;
        snprintf (name, sizeof name, "vec/mxv_full_w_masked/acc%d", k) ;
        bad += both (name, (GrB_Matrix) w, do_call, &c, NULL, true) ;
        c.d = GrB_DESC_RSC ;
        snprintf (name, sizeof name, "vec/mxv_full_w_masked_RSC/acc%d", k) ;
        bad += both (name, (GrB_Matrix) w, do_call, &c, NULL, true) ;
    }
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w) ; GrB_Vector_free (&m) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 6. hypersparse operands near the "few vectors" threshold, transposed
//------------------------------------------------------------------------------

static void test_hyper (void **state)
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

static void test_user_monoids (void **state)
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

static void test_signed_zero_accum (void **state)
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
static void test_signed_zero_accum_1x1 (void **state)
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

static void test_result_reuse (void **state)
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
        OK (GrB_mxm (C1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A1, B, NULL)) ;
        grbgpu_stats_get (&s0) ;
        OK (GrB_mxm (C1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A2, B, NULL)) ;
        grbgpu_stats_get (&s1) ;
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

static void test_in_place_form_revalidated (void **state)
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
static void test_parallel_transpose (void **state)
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

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    const struct CMUnitTest tests [ ] =
    {
        cmocka_unit_test (test_cast_specials),
        cmocka_unit_test (test_nan_semirings),
        cmocka_unit_test (test_inplace_accum),
        cmocka_unit_test (test_inplace_accum_fp32_vec),
        cmocka_unit_test (test_global_bycol),
        cmocka_unit_test (test_vector_outputs),
        cmocka_unit_test (test_hyper),
        cmocka_unit_test (test_user_monoids),
        cmocka_unit_test (test_signed_zero_accum),
        cmocka_unit_test (test_signed_zero_accum_1x1),
        cmocka_unit_test (test_result_reuse),
        cmocka_unit_test (test_in_place_form_revalidated),
        cmocka_unit_test (test_parallel_transpose),
    } ;
    int r = cmocka_run_group_tests (tests, NULL, NULL) ;
    GrB_finalize ( ) ;
    return r ;
}
