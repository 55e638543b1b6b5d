//------------------------------------------------------------------------------
// tests/multi_util.h: what tests/test_multi.c, test_multi_slots.c and test_multi_sddmm.c share
//------------------------------------------------------------------------------

#ifndef GRBGPU_TESTS_MULTI_UTIL_H
#define GRBGPU_TESTS_MULTI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <GraphBLAS.h>

extern int checks ;                     // checks made (the summary line)

// The semirings the split tests run (conformance_util.h's codes), each with
// the relative tolerance of its type's sums (0: exact).
typedef struct { int add, mul, t ; double rtol ; } multi_semiring ;
extern const multi_semiring multi_semirings [] ;
extern const int multi_nsemirings ;

// Products split so far (the `split` statistic).
uint64_t split_count (void) ;

// One call on both sides (the CPU library's answer and the offload's,
// compared); with expect_split, the offload side must have been split.
void run_case (const char *name, int op, void *C0, void *A, void *B,
    GrB_Semiring sr, GrB_Descriptor d, double rtol, bool expect_split, int expect) ;

// C<M> = A * op (B) (M may be NULL; C of type t, as many columns as M or B)
// on both sides, whatever the offload side did (offloaded, or answered by
// the CPU library after a failure), compared.  Returns whether the offload
// side split it.
bool compare_masked (const char *name, GrB_Matrix M, GrB_Semiring sr, GrB_Type t,
    GrB_Matrix A, GrB_Matrix B, GrB_Descriptor d, double rtol) ;

// mxm / mxv / vxm over several semirings, types and shapes with
// GRBGPU_DEVICES=devices (back to "" at the end).
void products (const char *devices, int tag) ;

// tests/test_multi_slots.c
void test_faults (void **state) ;
void test_workers_reused (void **state) ;
void test_fault_mid_stream (void **state) ;
// tests/test_multi_sddmm.c
void test_sddmm_slots (void **state) ;
void test_sddmm_repeat (void **state) ;
void test_sddmm_slot_fails (void **state) ;

#ifdef GG_TEST_MULTI_CUDA
// Bytes in use in the main device's stream-ordered pool (after a sync).
size_t pool_used (void) ;
void test_second_slot_fails (void **state) ;
void test_fake_devices (void **state) ;
void test_fake_slot_fails (void **state) ;
#endif

#endif
