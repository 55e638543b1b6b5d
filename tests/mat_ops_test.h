//------------------------------------------------------------------------------
// tests/mat_ops_test.h: what tests/test_mat_ops.c and mat_ops_special.c share
//------------------------------------------------------------------------------

#ifndef GG_MAT_OPS_TEST_H
#define GG_MAT_OPS_TEST_H

// (the operators: test_binop, test_unop, tests/resident_util.h; MIN and
// MAX are test_binop's 6 and 7)
enum { MOP_MIN = 6, MOP_MAX = 7 } ;
// how a binary operator is applied: C = A .* B, C = A + B, C = op (x, A),
// C = op (A, x)
enum { MOP_EMULT = 0, MOP_EADD, MOP_FIRST, MOP_SECOND, MOP_NKINDS } ;

// the call of that kind on s's kind of object (desc: the call's descriptor)
GrB_Info mop_run (const mshape *s, int kind, GrB_BinaryOp op, GrB_Matrix C, GrB_Matrix A,
    GrB_Matrix B, double x, GrB_Descriptor desc) ;
// A made resident (an apply of IDENTITY on the device, in place)
void mop_resident (const mshape *s, GrB_Matrix A) ;

// tests/mat_ops_special.c
void test_special_pairs (void **state) ;
void test_declines (void **state) ;
void test_chain (void **state) ;
void test_faults (void **state) ;

// One call on the device (it must be taken there: counted, not declined,
// nothing materialised), the same on the twins with the CPU library.
#define ON_DEVICE(call, twin_call) do                                          \
{                                                                             \
    device_on ( ) ;                                                           \
    grbgpu_stats s0_ = stats ( ) ;                                            \
    OK (call) ;                                                               \
    grbgpu_stats s1_ = stats ( ) ;                                            \
    if (s1_.offloaded_host + s1_.offloaded_cuda                               \
        != s0_.offloaded_host + s0_.offloaded_cuda + 1                        \
        || s1_.declined != s0_.declined || s1_.materialised != s0_.materialised) \
    {                                                                         \
        fail_msg ("%s: not on the device (%s)", #call, grbgpu_last_decision ( )) ; \
    }                                                                         \
    device_cpu ( ) ;                                                          \
    OK (twin_call) ;                                                          \
    device_on ( ) ;                                                           \
} while (0)

#endif
