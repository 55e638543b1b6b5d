//------------------------------------------------------------------------------
// tests/review_test.h: what tests/test_review's files share
//------------------------------------------------------------------------------

// tests/test_review is one program: the comparison, the two-sided runner,
// builders and main (tests/test_review.c), cases 1-5 (tests/review_values.c)
// and cases 6-11 (tests/review_paths.c).

#ifndef GG_TESTS_REVIEW_TEST_H
#define GG_TESTS_REVIEW_TEST_H

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

typedef GrB_Info (*call_fn) (GrB_Matrix C, void *ctx) ;

typedef struct
{
    GrB_Matrix M, A, B ;
    GrB_BinaryOp accum ;
    GrB_Semiring s ;
    GrB_Descriptor d ;
    int kind ;      // 0 mxm, 1 mxv, 2 vxm (vectors passed as matrices)
}
ctx_t ;

// tests/test_review.c
extern bool zero_sign_counts ;
void dev (const char *d) ;
int compare (const char *name, GrB_Matrix R, GrB_Matrix G) ;
int both (const char *name, GrB_Matrix C0, call_fn f, void *ctx,
    void (*prepare) (GrB_Matrix C), bool expect_offload) ;
GrB_Matrix dense_fp64 (GrB_Index m, GrB_Index n, double (*v) (GrB_Index, GrB_Index)) ;
GrB_Matrix sparse_fp64 (GrB_Index m, GrB_Index k, double (*v) (GrB_Index, GrB_Index)) ;
double v_special (GrB_Index i, GrB_Index j) ;
double v_small (GrB_Index i, GrB_Index j) ;
double v_nan_some (GrB_Index i, GrB_Index j) ;
GrB_Info do_call (GrB_Matrix C, void *p) ;

// cases 1-5 (tests/review_values.c) and 6-11 (tests/review_paths.c), in the
// order main runs them
void test_cast_specials (void **state) ;
void test_nan_semirings (void **state) ;
void test_inplace_accum (void **state) ;
void test_inplace_accum_fp32_vec (void **state) ;
void test_global_bycol (void **state) ;
void test_vector_outputs (void **state) ;
void test_hyper (void **state) ;
void test_user_monoids (void **state) ;
void test_signed_zero_accum (void **state) ;
void test_signed_zero_accum_1x1 (void **state) ;
void test_result_reuse (void **state) ;
void test_in_place_form_revalidated (void **state) ;
void test_parallel_transpose (void **state) ;

#endif
