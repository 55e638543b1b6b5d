//------------------------------------------------------------------------------
// tests/cuda_kernels_test.h: what tests/test_cuda_kernels's files share
//------------------------------------------------------------------------------

// tests/test_cuda_kernels is one program: the reference semantics and the
// test matrices (tests/cuda_kernels_ref.cu), the SpMM / SpMV cases and the
// hot form (tests/cuda_kernels_spmm.cu), SDDMM, GEMM and main
// (tests/test_cuda_kernels.cu).

#ifndef GG_TESTS_CUDA_KERNELS_TEST_H
#define GG_TESTS_CUDA_KERNELS_TEST_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <ctime>
#include <algorithm>
#include <vector>
#include <string>
#include <cuda_runtime.h>
#include "kernels/gg_cuda.h"

#include "tests/cuda_check.h"

// tests/test_cuda_kernels.cu
extern uint64_t rng_state ;
uint64_t rng (void) ;
extern const char *type_name [GG_NTYPES] ;
extern const char *add_name [GG_NADD] ;
extern const char *mul_name [GG_NMUL] ;

// A value of any type, in a 64-bit slot: integers as their bits (wrapped to
// the type's width), FP as double.
typedef struct { uint64_t u ; double d ; } val ;

// the special-value runs: FP values with +-INF, NaN and -0 among them
// (fill_random), compared exactly (every result is then the same in any
// order: the other values are small integers, or +-1 under TIMES monoids)
enum { FILL_PLAIN = 0, FILL_SPECIAL, FILL_CONST } ;

typedef struct
{
    int64_t m, k, nnz ;
    std::vector<int32_t> p, i ;
    const char *name ;
}
csr ;

// tests/cuda_kernels_ref.cu
bool is_fp (gg_type t) ;
val ref_mul (gg_type t, gg_mul mul, val s, val x) ;
val ref_add (gg_type t, gg_add add, val a, val b) ;
val get (gg_type t, const void *arr, int64_t k) ;
extern int fill_mode ;
extern double fill_const ;
bool same (gg_type t, gg_add add, val got, val want) ;
void fill_random (gg_type t, void *arr, int64_t n, bool times_monoid) ;
std::vector<csr> test_matrices (void) ;

static const uint8_t SENTINEL = 0xA5 ;

// A hot form of a test matrix (gg_cuda_spmv_hot_build with kmax columns)
typedef struct
{
    int64_t kmax, K ;
    int32_t *d_hot, *d_ih ;
}
hot_form ;

// tests/cuda_kernels_spmm.cu
extern int failures, checks ;
void test_spmm_case (const csr &A, gg_semiring sr, int64_t n, bool iso,
    const int32_t *d_p, const int32_t *d_i, const void *d_plan,
    const std::vector<hot_form> &hots) ;
hot_form test_hot_build (const csr &A, const int32_t *d_i, int64_t kmax) ;
void test_rows_form (const csr &A, const int32_t *d_p, const int32_t *d_i) ;

#endif
