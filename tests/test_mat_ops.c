//------------------------------------------------------------------------------
// tests/test_mat_ops.c: dense element-wise operations on resident matrices
//------------------------------------------------------------------------------

// Through the public API only (linked with libgrbgpu), with GRBGPU_RESIDENT=1
// on the host emulation backend (GRBGPU_TEST_DEVICE=cuda: the GPU).  The one
// dense path of backend/dispatch/vec_dispatch.c, on full FP32 / FP64
// matrices held by row and by column (37x5, 1x1, 1000x64) and on vectors:
//   - eWiseMult, eWiseAdd, apply bound first / second with FIRST, SECOND,
//     PLUS, MINUS, TIMES, DIV, MIN, MAX, ISEQ, ISNE, ISGT, ISLT, ISGE, ISLE,
//     apply of IDENTITY, AINV, ABS, dup, in place (C = C op B, C = A op C),
//     with operands on the host (sent up) and resident, on fresh random
//     values holding NaN, +-Inf, -0 and +0: each call runs on the device
//     (counted, not declined, nothing materialised) and its result, read
//     back, is the CPU library's on twins (GRBGPU_DEVICE=cpu): values bit
//     for bit (a NaN for a NaN), type, size, orientation, sparsity status;
//   - every pair of special values (NaN, +-Inf, -0, +0, +-1, a subnormal) in
//     both operands and as the bound scalar, also with iso operands, for the
//     new operators MIN, MAX and the comparisons (tests/mat_ops_special.c);
//   - declines (mask, accumulator, descriptor, operands held in another
//     orientation, mixed types, a scalar of another type, an operand not
//     full, an output that may not be full, an operator not built in) give
//     the CPU library's answer, each with its named reason;
//   - a chain mxm -> apply (MAX, ISGT) -> eWiseMult -> mxm (examples/gcn.c's
//     ReLU and its derivative) materialises nothing between the products
//     and ends with the CPU library's answer;
//   - injected faults (alloc, launch, copy) in that chain and in the
//     operations: every answer right, and nothing left held on the device
//     (a result of exactly GRBGPU_DEVICE_MEMORY fits afterwards).

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
// the operations, vector or matrix
//------------------------------------------------------------------------------

GrB_Info mop_run (const mshape *s, int kind, GrB_BinaryOp op, GrB_Matrix C, GrB_Matrix A,
    GrB_Matrix B, double x, GrB_Descriptor desc)
{
    const bool f32 = (s->t == GrB_FP32) ;
    if (s->is_vector)
    {
        GrB_Vector c = (GrB_Vector) C, a = (GrB_Vector) A, b = (GrB_Vector) B ;
        switch (kind)
        {
            case MOP_EMULT: return GrB_Vector_eWiseMult_BinaryOp (c, NULL, NULL, op, a, b, desc) ;
            case MOP_EADD:  return GrB_Vector_eWiseAdd_BinaryOp (c, NULL, NULL, op, a, b, desc) ;
            case MOP_FIRST: return f32 ? GrB_Vector_apply_BinaryOp1st_FP32 (c, NULL, NULL, op, (float) x, a, desc)
                                       : GrB_Vector_apply_BinaryOp1st_FP64 (c, NULL, NULL, op, x, a, desc) ;
            default:        return f32 ? GrB_Vector_apply_BinaryOp2nd_FP32 (c, NULL, NULL, op, a, (float) x, desc)
                                       : GrB_Vector_apply_BinaryOp2nd_FP64 (c, NULL, NULL, op, a, x, desc) ;
        }
    }
    switch (kind)
    {
        case MOP_EMULT: return GrB_Matrix_eWiseMult_BinaryOp (C, NULL, NULL, op, A, B, desc) ;
        case MOP_EADD:  return GrB_Matrix_eWiseAdd_BinaryOp (C, NULL, NULL, op, A, B, desc) ;
        case MOP_FIRST: return f32 ? GrB_Matrix_apply_BinaryOp1st_FP32 (C, NULL, NULL, op, (float) x, A, desc)
                                   : GrB_Matrix_apply_BinaryOp1st_FP64 (C, NULL, NULL, op, x, A, desc) ;
        default:        return f32 ? GrB_Matrix_apply_BinaryOp2nd_FP32 (C, NULL, NULL, op, A, (float) x, desc)
                                   : GrB_Matrix_apply_BinaryOp2nd_FP64 (C, NULL, NULL, op, A, x, desc) ;
    }
}

static GrB_Info apply_unary (const mshape *s, GrB_UnaryOp op, GrB_Matrix C, GrB_Matrix A)
{
    return s->is_vector ? GrB_Vector_apply ((GrB_Vector) C, NULL, NULL, op, (GrB_Vector) A, NULL)
                        : GrB_Matrix_apply (C, NULL, NULL, op, A, NULL) ;
}

static GrB_Info dup (const mshape *s, GrB_Matrix *C, GrB_Matrix A)
{
    if (!s->is_vector) return GrB_Matrix_dup (C, A) ;
    GrB_Vector v = NULL ;
    GrB_Info info = GrB_Vector_dup (&v, (GrB_Vector) A) ;
    *C = (GrB_Matrix) v ;
    return info ;
}

// A made resident (an apply of IDENTITY on the device, in place; A on the
// host is sent up and kept first, then replaced by the result)
void mop_resident (const mshape *s, GrB_Matrix A)
{
    device_on ( ) ;
    grbgpu_stats s0 = stats ( ) ;
    OK (apply_unary (s, test_unop (s->t, 0), A, A)) ;
    grbgpu_stats s1 = stats ( ) ;
    assert_int_equal (s1.offloaded_host + s1.offloaded_cuda, s0.offloaded_host + s0.offloaded_cuda + 1) ;
    assert_true (s1.resident_kept > s0.resident_kept) ;
}

//------------------------------------------------------------------------------
// every operation against the CPU library
//------------------------------------------------------------------------------

static const double bound [6] = { -0.0, 0.0, NAN, INFINITY, -INFINITY, 1.5 } ;

static void run_ops (const mshape *s, bool resident)
{
    GrB_Matrix A, At, B, Bt, C, Ct ;
    mrandom (s, &A, &At) ;
    mrandom (s, &B, &Bt) ;
    if (resident) { mop_resident (s, A) ; mop_resident (s, B) ; }
    C = mnew (s) ;
    Ct = mnew (s) ;
    for (int k = 0 ; k < NBINOPS ; k++)
    {
        GrB_BinaryOp op = test_binop (s->t, k) ;
        for (int kind = 0 ; kind < MOP_NKINDS ; kind++)
        {
            double x = bound [(k + kind) % 6] ;
            mrenew (s, &C, &Ct) ;
            ON_DEVICE (mop_run (s, kind, op, C, A, B, x, NULL), mop_run (s, kind, op, Ct, At, Bt, x, NULL)) ;
            char what [64] ;
            snprintf (what, sizeof (what), "op %d kind %d", k, kind) ;
            msame (C, Ct, s, what) ;
        }
    }
    for (int k = 0 ; k < 3 ; k++)
    {
        mrenew (s, &C, &Ct) ;
        ON_DEVICE (apply_unary (s, test_unop (s->t, k), C, A), apply_unary (s, test_unop (s->t, k), Ct, At)) ;
        msame (C, Ct, s, "apply") ;
    }
    // dup of a resident object: the CPU library's copy, options and all
    GrB_Matrix D = NULL, Dt = NULL ;
    GrB_Matrix *both [2] = { &A, &At } ;
    device_on ( ) ;
    for (int k = 0 ; k < 2 ; k++)
    {
        // (materialises A)
        OK (GxB_Matrix_Option_set (*both [k], GxB_BITMAP_SWITCH, 0.125)) ;
        OK (GxB_Matrix_Option_set (*both [k], GxB_HYPER_SWITCH, 0.25)) ;
        OK (GxB_Matrix_Option_set (*both [k], GxB_SPARSITY_CONTROL, GxB_FULL + GxB_BITMAP)) ;
    }
    mop_resident (s, A) ;
    ON_DEVICE (dup (s, &D, A), dup (s, &Dt, At)) ;
    const GxB_Option_Field fields [3] = { GxB_BITMAP_SWITCH, GxB_HYPER_SWITCH, GxB_SPARSITY_CONTROL } ;
    for (int f = 0 ; f < 3 ; f++)
    {
        double d0 = 0, d1 = 0 ;
        int c0 = 0, c1 = 0 ;
        if (f < 2) { OK (GxB_Matrix_Option_get (D, fields [f], &d0)) ; OK (GxB_Matrix_Option_get (Dt, fields [f], &d1)) ; }
        else { OK (GxB_Matrix_Option_get (D, fields [f], &c0)) ; OK (GxB_Matrix_Option_get (Dt, fields [f], &c1)) ; }
        if (d0 != d1 || c0 != c1) fail_msg ("dup's option %d: %g %d, the CPU library's %g %d", f, d0, c0, d1, c1) ;
    }
    mfree (&A) ;                            // freed while resident: D is its own
    mfree (&At) ;
    msame (D, Dt, s, "dup") ;
    // in place: D = D op B, B = D op B (MIN / MAX: the CPU library's order
    // depends on which operand is the output)
    for (int k = MOP_MIN ; k <= MOP_MAX ; k++)
    {
        GrB_BinaryOp op = test_binop (s->t, k) ;
        if (resident) mop_resident (s, D) ;
        ON_DEVICE (mop_run (s, MOP_EADD, op, D, D, B, 0, NULL), mop_run (s, MOP_EADD, op, Dt, Dt, Bt, 0, NULL)) ;
        ON_DEVICE (mop_run (s, MOP_EMULT, op, B, D, B, 0, NULL), mop_run (s, MOP_EMULT, op, Bt, Dt, Bt, 0, NULL)) ;
        msame (D, Dt, s, "in place, first operand") ;
        msame (B, Bt, s, "in place, second operand") ;
    }
    mfree (&B) ; mfree (&Bt) ; mfree (&C) ; mfree (&Ct) ; mfree (&D) ; mfree (&Dt) ;
}

static void run_shapes (GrB_Type t, bool resident)
{
    const GrB_Index dims [3][2] = { { 37, 5 }, { 1, 1 }, { 1000, 64 } } ;
    for (int d = 0 ; d < (quick ( ) ? 1 : 3) ; d++)
    {
        for (int layout = 0 ; layout < 3 ; layout++)
        {
            // by row, by column, a vector of as many entries
            mshape s = { t, layout == 2, layout == 1, dims [d][0], dims [d][1] } ;
            if (s.is_vector) { s.nrows *= s.ncols ; s.ncols = 1 ; }
            run_ops (&s, resident) ;
        }
    }
}

static void test_ops_fp32 (void **state)     { (void) state ; run_shapes (GrB_FP32, false) ; }
static void test_ops_fp32_res (void **state) { (void) state ; run_shapes (GrB_FP32, true) ; }
static void test_ops_fp64 (void **state)     { (void) state ; run_shapes (GrB_FP64, false) ; }
static void test_ops_fp64_res (void **state) { (void) state ; run_shapes (GrB_FP64, true) ; }

int main (void)
{
    int skip = resident_test_start ("test_mat_ops") ;
    if (skip != 0) return skip ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_ops_fp32),
        cmocka_unit_test (test_ops_fp32_res),
        cmocka_unit_test (test_ops_fp64),
        cmocka_unit_test (test_ops_fp64_res),
        cmocka_unit_test (test_special_pairs),
        cmocka_unit_test (test_declines),
        cmocka_unit_test (test_chain),
        cmocka_unit_test (test_faults),
    } ;
    int rc = cmocka_run_group_tests (tests, NULL, NULL) ;
    GrB_finalize ( ) ;
    return rc ;
}
