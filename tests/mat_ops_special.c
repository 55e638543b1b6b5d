//------------------------------------------------------------------------------
// tests/mat_ops_special.c: special values, declines, a chain, faults
//------------------------------------------------------------------------------

// Part of tests/test_mat_ops (its banner says what is checked).

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <GraphBLAS.h>
#include "grbgpu.h"

#include "tests/resident_util.h"
#include "tests/mat_ops_util.h"
#include "tests/mat_ops_test.h"

//------------------------------------------------------------------------------
// every pair of special values
//------------------------------------------------------------------------------

enum { NS = 9 } ;

// (the subnormal is one of the type: FP32's would be 0 as FP64 -> FP32 of 1e-310)
static double special (GrB_Type t, int i)
{
    const double v [NS] = { -0.0, 0.0, NAN, INFINITY, -INFINITY, 1, -1, 0.5, 0 } ;
    return (i < NS - 1) ? v [i] : (t == GrB_FP32) ? 1e-40 : 1e-310 ;
}

// an iso full object of shape s holding x, on the host
static GrB_Matrix iso (const mshape *s, double x)
{
    GrB_Matrix A = mnew (s) ;
    device_cpu ( ) ;
    if (s->is_vector) OK (GrB_Vector_assign_FP64 ((GrB_Vector) A, NULL, NULL, x, GrB_ALL, s->nrows, NULL)) ;
    else OK (GrB_Matrix_assign_FP64 (A, NULL, NULL, x, GrB_ALL, s->nrows, GrB_ALL, s->ncols, NULL)) ;
    device_on ( ) ;
    bool is_iso = false ;
    OK (GxB_Matrix_iso (&is_iso, A)) ;
    assert_true (is_iso) ;
    return A ;
}

// A (i,j) = special (i), B (i,j) = special (j): every pair once (a vector:
// the same NS*NS pairs); iso operands (-0, +0, NaN) in either place; every
// special value as the bound scalar
static void special_pairs (const mshape *s)
{
    double X [NS * NS], Y [NS * NS] ;
    for (int i = 0 ; i < NS ; i++)
    {
        for (int j = 0 ; j < NS ; j++)
        {
            X [i * NS + j] = special (s->t, i) ;
            Y [i * NS + j] = special (s->t, j) ;
        }
    }
    GrB_Matrix A, At, B, Bt, C = mnew (s), Ct = mnew (s) ;
    mmake (s, X, &A, &At) ;
    mmake (s, Y, &B, &Bt) ;
    for (int k = 0 ; k < NBINOPS ; k++)
    {
        GrB_BinaryOp op = test_binop (s->t, k) ;
        for (int kind = MOP_EMULT ; kind <= MOP_EADD ; kind++)
        {
            for (int m = -1 ; m < (quick ( ) ? 0 : 3) ; m++)
            {
                // m < 0: both operands every special; else one of them iso
                GrB_Matrix I = (m < 0) ? NULL : iso (s, special (s->t, m)) ;
                GrB_Matrix It = (m < 0) ? NULL : iso (s, special (s->t, m)) ;
                for (int where = 0 ; where < (m < 0 ? 1 : 3) ; where++)
                {
                    // where: 0 A, B; 1 iso, B; 2 A, iso (m >= 0: 3 iso, iso below)
                    GrB_Matrix x = (where == 1) ? I : A, y = (where == 2) ? I : B ;
                    GrB_Matrix xt = (where == 1) ? It : At, yt = (where == 2) ? It : Bt ;
                    mrenew (s, &C, &Ct) ;
                    ON_DEVICE (mop_run (s, kind, op, C, x, y, 0, NULL),
                        mop_run (s, kind, op, Ct, xt, yt, 0, NULL)) ;
                    msame (C, Ct, s, "special pairs") ;
                }
                if (m >= 0)
                {
                    GrB_Matrix J = iso (s, special (s->t, (m + 1) % 3)) ;
                    GrB_Matrix Jt = iso (s, special (s->t, (m + 1) % 3)) ;
                    mrenew (s, &C, &Ct) ;
                    ON_DEVICE (mop_run (s, kind, op, C, I, J, 0, NULL),
                        mop_run (s, kind, op, Ct, It, Jt, 0, NULL)) ;
                    msame (C, Ct, s, "special pairs, both iso") ;
                    mfree (&I) ; mfree (&It) ; mfree (&J) ; mfree (&Jt) ;
                }
            }
        }
        for (int kind = MOP_FIRST ; kind <= MOP_SECOND ; kind++)
        {
            for (int i = 0 ; i < NS ; i++)
            {
                double x = special (s->t, i) ;
                mrenew (s, &C, &Ct) ;
                ON_DEVICE (mop_run (s, kind, op, C, A, NULL, x, NULL),
                    mop_run (s, kind, op, Ct, At, NULL, x, NULL)) ;
                msame (C, Ct, s, "special bound scalar") ;
                if (quick ( )) continue ;
                GrB_Matrix I = iso (s, special (s->t, i % 3)), It = iso (s, special (s->t, i % 3)) ;
                mrenew (s, &C, &Ct) ;
                ON_DEVICE (mop_run (s, kind, op, C, I, NULL, x, NULL),
                    mop_run (s, kind, op, Ct, It, NULL, x, NULL)) ;
                msame (C, Ct, s, "special bound scalar, iso operand") ;
                mfree (&I) ; mfree (&It) ;
            }
        }
    }
    mfree (&A) ; mfree (&At) ; mfree (&B) ; mfree (&Bt) ; mfree (&C) ; mfree (&Ct) ;
}

void test_special_pairs (void **state)
{
    (void) state ;
    for (int k = 0 ; k < 6 ; k++)
    {
        // (under compute-sanitizer FP64 by row and FP32 vectors only)
        if (quick ( ) && k != 1 && k != 4) continue ;
        mshape s = { (k % 2) ? GrB_FP64 : GrB_FP32, k >= 4, k / 2 == 1, NS, NS } ;
        if (s.is_vector) { s.nrows = NS * NS ; s.ncols = 1 ; }
        special_pairs (&s) ;
    }
}

//------------------------------------------------------------------------------
// declines: the CPU library's answer, with the reason named
//------------------------------------------------------------------------------

// The call on the device side (A made resident first, so that a decline
// materialises it) must be declined for `reason`; its output C is then the
// CPU library's Ct (of shape sh).
#define DECLINED(reason, C, Ct, sh, call, twin_call) do                        \
{                                                                             \
    mop_resident (&s, A) ;                                                    \
    uint64_t d0 = stats ( ).declined ;                                        \
    OK (call) ;                                                               \
    assert_int_equal (stats ( ).declined, d0 + 1) ;                           \
    if (strstr (grbgpu_last_decision ( ), reason) == NULL)                    \
    {                                                                         \
        fail_msg ("%s: %s, expected %s", #call, grbgpu_last_decision ( ), reason) ; \
    }                                                                         \
    device_cpu ( ) ;                                                          \
    OK (twin_call) ;                                                          \
    device_on ( ) ;                                                           \
    msame (C, Ct, sh, reason) ;                                               \
} while (0)

void test_declines (void **state)
{
    (void) state ;
    mshape s = { GrB_FP64, false, false, 37, 5 } ;
    mshape col = s, f32 = s, vec = { GrB_FP64, true, false, 185, 1 } ;
    col.by_col = true ;
    f32.t = GrB_FP32 ;
    GrB_Matrix A, At, B, Bt, M, Mt, K, Kt, F, Ft, C = mnew (&s), Ct = mnew (&s) ;
    GrB_Matrix C32 = mnew (&f32), C32t = mnew (&f32), u, ut, w = mnew (&vec), wt = mnew (&vec) ;
    mrandom (&s, &A, &At) ;
    mrandom (&s, &B, &Bt) ;
    mrandom (&s, &M, &Mt) ;
    mrandom (&col, &K, &Kt) ;
    mrandom (&f32, &F, &Ft) ;
    mrandom (&vec, &u, &ut) ;
    const GrB_BinaryOp max = GrB_MAX_FP64 ;
    DECLINED ("mask", C, Ct, &s, GrB_Matrix_eWiseMult_BinaryOp (C, M, NULL, max, A, B, NULL),
        GrB_Matrix_eWiseMult_BinaryOp (Ct, Mt, NULL, max, At, Bt, NULL)) ;
    DECLINED ("accumulator", C, Ct, &s, GrB_Matrix_eWiseAdd_BinaryOp (C, NULL, GrB_PLUS_FP64, max, A, B, NULL),
        GrB_Matrix_eWiseAdd_BinaryOp (Ct, NULL, GrB_PLUS_FP64, max, At, Bt, NULL)) ;
    DECLINED ("descriptor", C, Ct, &s, GrB_Matrix_apply_BinaryOp2nd_FP64 (C, NULL, NULL, max, A, 0, GrB_DESC_R),
        GrB_Matrix_apply_BinaryOp2nd_FP64 (Ct, NULL, NULL, max, At, 0, GrB_DESC_R)) ;
    DECLINED ("orientation", C, Ct, &s, GrB_Matrix_eWiseMult_BinaryOp (C, NULL, NULL, max, A, K, NULL),
        GrB_Matrix_eWiseMult_BinaryOp (Ct, NULL, NULL, max, At, Kt, NULL)) ;
    // C by row, its operand by column: the CPU library keeps C by row
    DECLINED ("orientation", C, Ct, &s, GrB_Matrix_apply (C, NULL, NULL, GrB_AINV_FP64, K, NULL),
        GrB_Matrix_apply (Ct, NULL, NULL, GrB_AINV_FP64, Kt, NULL)) ;
    DECLINED ("output of another type", C32, C32t, &f32, GrB_Matrix_eWiseAdd_BinaryOp (C32, NULL, NULL, max, A, B, NULL),
        GrB_Matrix_eWiseAdd_BinaryOp (C32t, NULL, NULL, max, At, Bt, NULL)) ;
    DECLINED ("operand of another type", C, Ct, &s, GrB_Matrix_eWiseAdd_BinaryOp (C, NULL, NULL, max, A, F, NULL),
        GrB_Matrix_eWiseAdd_BinaryOp (Ct, NULL, NULL, max, At, Ft, NULL)) ;
    DECLINED ("scalar of another type", C, Ct, &s, GrB_Matrix_apply_BinaryOp2nd_FP32 (C, NULL, NULL, max, A, 0.5f, NULL),
        GrB_Matrix_apply_BinaryOp2nd_FP32 (Ct, NULL, NULL, max, At, 0.5f, NULL)) ;
    DECLINED ("not built in", C, Ct, &s, GrB_Matrix_eWiseMult_BinaryOp (C, NULL, NULL, GxB_ATAN2_FP64, A, B, NULL),
        GrB_Matrix_eWiseMult_BinaryOp (Ct, NULL, NULL, GxB_ATAN2_FP64, At, Bt, NULL)) ;
    DECLINED ("not built in", C, Ct, &s, GrB_Matrix_apply (C, NULL, NULL, GrB_MINV_FP64, A, NULL),
        GrB_Matrix_apply (Ct, NULL, NULL, GrB_MINV_FP64, At, NULL)) ;
    // B without one entry (on the device side and the twin alike)
    OK (GrB_Matrix_removeElement (B, 3, 2)) ;
    OK (GrB_Matrix_removeElement (Bt, 3, 2)) ;
    DECLINED ("not full", C, Ct, &s, GrB_Matrix_eWiseAdd_BinaryOp (C, NULL, NULL, GrB_MIN_FP64, A, B, NULL),
        GrB_Matrix_eWiseAdd_BinaryOp (Ct, NULL, NULL, GrB_MIN_FP64, At, Bt, NULL)) ;
    // C may not be full: the CPU library makes it bitmap
    OK (GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, GxB_SPARSE + GxB_BITMAP)) ;
    OK (GxB_Matrix_Option_set (Ct, GxB_SPARSITY_CONTROL, GxB_SPARSE + GxB_BITMAP)) ;
    DECLINED ("sparsity control", C, Ct, &s, GrB_Matrix_apply_BinaryOp1st_FP64 (C, NULL, NULL, GxB_ISGT_FP64, 0, A, NULL),
        GrB_Matrix_apply_BinaryOp1st_FP64 (Ct, NULL, NULL, GxB_ISGT_FP64, 0, At, NULL)) ;
    // dup of an object on the host: no gain, the CPU library copies it
    GrB_Matrix D = NULL, Dt = NULL ;
    DECLINED ("not resident", D, Dt, &s, GrB_Matrix_dup (&D, M), GrB_Matrix_dup (&Dt, Mt)) ;
    // a vector: the same path, the same reasons
    DECLINED ("accumulator", w, wt, &vec, GrB_Vector_apply_BinaryOp2nd_FP64 ((GrB_Vector) w, NULL, GrB_MIN_FP64,
        GxB_ISLE_FP64, (GrB_Vector) u, 0.25, NULL), GrB_Vector_apply_BinaryOp2nd_FP64 ((GrB_Vector) wt,
        NULL, GrB_MIN_FP64, GxB_ISLE_FP64, (GrB_Vector) ut, 0.25, NULL)) ;
    GrB_Matrix all [] = { A, At, B, Bt, M, Mt, K, Kt, F, Ft, C, Ct, C32, C32t, u, ut, w, wt, D, Dt } ;
    for (size_t k = 0 ; k < sizeof (all) / sizeof (all [0]) ; k++) mfree (&all [k]) ;
}

//------------------------------------------------------------------------------
// a chain: mxm -> apply -> eWiseMult -> mxm (examples/gcn.c's ReLU)
//------------------------------------------------------------------------------

enum { CN = 3000, CK = 16 } ;

typedef struct { GrB_Matrix X, Q, P, H, R, G, Y ; } chain_objs ;

// Small integers everywhere: every sum exact, in any order.  A and Q
// positive, X none zero: no term of a product is -0 (where every term of a
// sum is -0 the CPU library's product may answer +0, which is the products'
// business, not this test's)
static float nonzero (int m)
{
    int v = (int) (mrnd ( ) % (uint64_t) (2 * m)) - m ;
    return (float) (v >= 0 ? v + 1 : v) ;
}

static void chain_make (GrB_Matrix *A, chain_objs *d, chain_objs *c)
{
    OK (GrB_Matrix_new (A, GrB_FP32, CN, CN)) ;
    for (int e = 0 ; e < 8 * CN ; e++)
    {
        // (the diagonal: no row without entries, or A*X would not be full)
        GrB_Index i = (e < CN) ? (GrB_Index) e : mrnd ( ) % CN ;
        GrB_Index j = (e < CN) ? (GrB_Index) e : mrnd ( ) % CN ;
        OK (GrB_Matrix_setElement_FP32 (*A, (float) (1 + mrnd ( ) % 2), i, j)) ;
    }
    OK (GrB_Matrix_wait (*A, GrB_MATERIALIZE)) ;
    mshape s = { GrB_FP32, false, false, CN, CK } ;
    double *v = malloc (CN * CK * sizeof (double)) ;
    assert_non_null (v) ;
    for (int k = 0 ; k < CN * CK ; k++) v [k] = nonzero (4) ;
    mmake (&s, v, &d->X, &c->X) ;
    for (int k = 0 ; k < CN * CK ; k++) v [k] = 1 + (double) (mrnd ( ) % 4) ;
    mmake (&s, v, &d->Q, &c->Q) ;
    free (v) ;
    chain_objs *o [2] = { d, c } ;
    for (int k = 0 ; k < 2 ; k++)
    {
        o [k]->P = mnew (&s) ; o [k]->H = mnew (&s) ; o [k]->R = mnew (&s) ;
        o [k]->G = mnew (&s) ; o [k]->Y = mnew (&s) ;
    }
}

static void chain_free (chain_objs *o)
{
    GrB_Matrix *m [7] = { &o->X, &o->Q, &o->P, &o->H, &o->R, &o->G, &o->Y } ;
    for (int k = 0 ; k < 7 ; k++) mfree (m [k]) ;
}

// one pass: P = A*X, H = max (P, 0), R = (P > 0), G = Q .* R, Y = A*G
static void chain_run (GrB_Matrix A, chain_objs *o)
{
    const GrB_Semiring pt = GrB_PLUS_TIMES_SEMIRING_FP32 ;
    OK (GrB_mxm (o->P, NULL, NULL, pt, A, o->X, NULL)) ;
    OK (GrB_Matrix_apply_BinaryOp2nd_FP32 (o->H, NULL, NULL, GrB_MAX_FP32, o->P, 0, NULL)) ;
    OK (GrB_Matrix_apply_BinaryOp2nd_FP32 (o->R, NULL, NULL, GxB_ISGT_FP32, o->P, 0, NULL)) ;
    OK (GrB_Matrix_eWiseMult_BinaryOp (o->G, NULL, NULL, GrB_TIMES_FP32, o->Q, o->R, NULL)) ;
    OK (GrB_mxm (o->Y, NULL, NULL, pt, A, o->G, NULL)) ;
}

static void chain_check (chain_objs *d, chain_objs *c)
{
    mshape s = { GrB_FP32, false, false, CN, CK } ;
    msame (d->P, c->P, &s, "chain P") ;
    msame (d->H, c->H, &s, "chain H") ;
    msame (d->R, c->R, &s, "chain R") ;
    msame (d->G, c->G, &s, "chain G") ;
    msame (d->Y, c->Y, &s, "chain Y") ;
}

void test_chain (void **state)
{
    (void) state ;
    GrB_Matrix A ;
    chain_objs d, c ;
    chain_make (&A, &d, &c) ;
    for (int pass = 0 ; pass < 3 ; pass++)
    {
        device_on ( ) ;
        grbgpu_stats s0 = stats ( ) ;
        chain_run (A, &d) ;
        grbgpu_stats s1 = stats ( ) ;
        // the five calls on the device, five results kept (Q sent up once),
        // nothing brought down
        printf ("  chain pass %d: %llu calls on the device, %llu kept, %llu materialised\n", pass,
            (unsigned long long) ((s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda)),
            (unsigned long long) (s1.resident_kept - s0.resident_kept),
            (unsigned long long) (s1.materialised - s0.materialised)) ;
        assert_int_equal ((s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda), 5) ;
        assert_int_equal (s1.declined, s0.declined) ;
        assert_int_equal (s1.materialised, s0.materialised) ;
        assert_int_equal (s1.resident_kept - s0.resident_kept, (pass == 0) ? 6 : 5) ;
        device_cpu ( ) ;
        chain_run (A, &c) ;
        device_on ( ) ;
    }
    chain_check (&d, &c) ;
    chain_free (&d) ;
    chain_free (&c) ;
    OK (GrB_Matrix_free (&A)) ;
}

//------------------------------------------------------------------------------
// faults
//------------------------------------------------------------------------------

void test_faults (void **state)
{
    (void) state ;
    GrB_Matrix A ;
    chain_objs d, c ;
    chain_make (&A, &d, &c) ;
    grbgpu_stats s0 = stats ( ) ;
    for (int pass = 0 ; pass < 8 ; pass++)
    {
        // every failed step is answered by the CPU library (materialising
        // what it reads); the answers are read with faults off (each pass
        // draws its own faults: a configure restarts the seed's stream)
        char seed [32] ;
        snprintf (seed, sizeof (seed), "%d", 20261125 + pass) ;
        setenv ("GRBGPU_FAULT_SEED", seed, 1) ;
        set ("FAULT", "alloc:0.25,launch:0.25,copy:0.03") ;
        device_on ( ) ;
        chain_run (A, &d) ;
        set ("FAULT", "") ;
        device_cpu ( ) ;
        chain_run (A, &c) ;
        device_on ( ) ;
        chain_check (&d, &c) ;
    }
    grbgpu_stats s1 = stats ( ) ;
    printf ("  chain with faults: %llu fallbacks, %llu calls on the device\n",
        (unsigned long long) (s1.fallbacks - s0.fallbacks),
        (unsigned long long) ((s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda))) ;
    assert_true (s1.fallbacks > s0.fallbacks) ;
    assert_true (s1.offloaded_host + s1.offloaded_cuda > s0.offloaded_host + s0.offloaded_cuda) ;
    chain_free (&d) ;
    chain_free (&c) ;
    OK (GrB_Matrix_free (&A)) ;
    // failed launches of the element-wise operations themselves, on a
    // resident operand (until a failure brings it down) and a host one;
    // faults on while the CPU library answers and the answers are read
    // (no copy faults: reading them cannot fail)
    mshape s = { GrB_FP64, false, true, 1000, 64 } ;
    GrB_Matrix X, Xt, B, Bt, Z = mnew (&s), Zt = mnew (&s) ;
    mrandom (&s, &X, &Xt) ;
    mrandom (&s, &B, &Bt) ;
    mop_resident (&s, X) ;
    setenv ("GRBGPU_FAULT_SEED", "20261124", 1) ;
    s0 = stats ( ) ;
    set ("FAULT", "alloc:0.3,launch:0.5") ;
    for (int k = 0 ; k < 24 ; k++)
    {
        GrB_BinaryOp op = test_binop (s.t, k % NBINOPS) ;
        mrenew (&s, &Z, &Zt) ;
        device_on ( ) ;
        OK (mop_run (&s, k % MOP_NKINDS, op, Z, X, B, -0.0, NULL)) ;
        device_cpu ( ) ;
        OK (mop_run (&s, k % MOP_NKINDS, op, Zt, Xt, Bt, -0.0, NULL)) ;
        device_on ( ) ;
        msame (Z, Zt, &s, "with faults") ;
    }
    set ("FAULT", "") ;
    s1 = stats ( ) ;
    printf ("  operations with faults: %llu fallbacks, %llu declined, %llu on the device\n",
        (unsigned long long) (s1.fallbacks - s0.fallbacks),
        (unsigned long long) (s1.declined - s0.declined),
        (unsigned long long) ((s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda))) ;
    assert_true (s1.fallbacks > s0.fallbacks) ;
    assert_true (s1.declined > s0.declined + 24) ;      // (24: the CPU library's calls)
    mfree (&X) ; mfree (&Xt) ; mfree (&B) ; mfree (&Bt) ;
    // nothing left held: with every object freed, a result of exactly
    // GRBGPU_DEVICE_MEMORY bytes fits (a buffer a failure forgot to give
    // back would make it decline "no device memory")
    GrB_Matrix I = mnew (&s), It = mnew (&s) ;
    device_cpu ( ) ;
    OK (GrB_Matrix_assign_FP64 (I, NULL, NULL, -0.0, GrB_ALL, 1000, GrB_ALL, 64, NULL)) ;
    OK (GrB_Matrix_assign_FP64 (It, NULL, NULL, -0.0, GrB_ALL, 1000, GrB_ALL, 64, NULL)) ;
    char mem [32] ;
    snprintf (mem, sizeof (mem), "%d", 1000 * 64 * (int) sizeof (double)) ;
    set ("DEVICE_MEMORY", mem) ;
    mrenew (&s, &Z, &Zt) ;
    ON_DEVICE (GrB_Matrix_apply (Z, NULL, NULL, GrB_AINV_FP64, I, NULL),
        GrB_Matrix_apply (Zt, NULL, NULL, GrB_AINV_FP64, It, NULL)) ;
    set ("DEVICE_MEMORY", "0") ;
    msame (Z, Zt, &s, "after faults") ;
    mfree (&I) ; mfree (&It) ; mfree (&Z) ; mfree (&Zt) ;
}
