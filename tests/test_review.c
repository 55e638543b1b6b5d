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

#include "tests/review_test.h"


// false only where the CPU library's own answer to a signed-zero tie depends
// on its internal path (see the banner)
bool zero_sign_counts = true ;

void dev (const char *d)
{
    assert_int_equal (grbgpu_set ("DEVICE", d), 0) ;
    assert_int_equal (grbgpu_set ("MIN_WORK", "0"), 0) ;
}

//------------------------------------------------------------------------------
// exact comparison of two matrices (vectors are passed as matrices)
//------------------------------------------------------------------------------

int compare (const char *name, GrB_Matrix R, GrB_Matrix G)
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


// prepare: optional, applied to each side's copy of C0 before the call
int both (const char *name, GrB_Matrix C0, call_fn f, void *ctx,
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

GrB_Matrix dense_fp64 (GrB_Index m, GrB_Index n, double (*v) (GrB_Index, GrB_Index))
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
GrB_Matrix sparse_fp64 (GrB_Index m, GrB_Index k, double (*v) (GrB_Index, GrB_Index))
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

double v_special (GrB_Index i, GrB_Index j) { return specials [(i * 5 + j * 3) % NSPEC] ; }
double v_small (GrB_Index i, GrB_Index j) { return (double) ((int) ((i * 3 + j * 5) % 9) - 4) ; }
double v_nan_some (GrB_Index i, GrB_Index j)
{
    int r = (int) ((i * 5 + j * 7) % 6) ;
    return r == 0 ? NAN : r == 1 ? -0.0 : r == 2 ? 0.0 : (double) r - 3.5 ;
}

//------------------------------------------------------------------------------
// generic calls
//------------------------------------------------------------------------------
GrB_Info do_call (GrB_Matrix C, void *p)
{
    ctx_t *c = (ctx_t *) p ;
    switch (c->kind)
    {
        case 1: return GrB_mxv ((GrB_Vector) C, (GrB_Vector) c->M, c->accum, c->s, c->A, (GrB_Vector) c->B, c->d) ;
        case 2: return GrB_vxm ((GrB_Vector) C, (GrB_Vector) c->M, c->accum, c->s, (GrB_Vector) c->A, c->B, c->d) ;
        default: return GrB_mxm (C, c->M, c->accum, c->s, c->A, c->B, c->d) ;
    }
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
