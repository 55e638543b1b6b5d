//------------------------------------------------------------------------------
// tests/cuda_backend_test.h: what tests/test_cuda_backend's files share
//------------------------------------------------------------------------------

// tests/test_cuda_backend is one program: the operands, the reference and the
// fixtures (tests/cuda_backend_util.c), the SpMM / SpMV tests
// (tests/cuda_backend_spmm.c), the kernel-family rows
// (tests/cuda_backend_families.c), SDDMM, GEMM and the device cache
// (tests/cuda_backend_dense.c), and faults, threads, fork and main
// (tests/test_cuda_backend.c).

#ifndef GG_TESTS_CUDA_BACKEND_TEST_H
#define GG_TESTS_CUDA_BACKEND_TEST_H

#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "backend/grbgpu_internal.h"
#include "backend/cache/cache.h"
#include "backend/cuda/device.h"
#include "formats/convert.h"
#include "kernels/gg_cuda.h"

typedef struct
{
    int64_t m, k, nnz ;
    int32_t *p, *i ;
    double *v ;             // values as doubles (reference)
    void *x ;               // values in the test type
}
test_csr ;

// tests/cuda_backend_util.c: random operands, the reference, fixtures
extern uint64_t rng_state ;
uint64_t rng (void) ;
double rnd_value (void) ;
void put (void *a, size_t k, gg_type t, double v) ;
double get (const void *a, size_t k, gg_type t) ;
test_csr make_csr (int64_t m, int64_t k, double density, gg_type t) ;
void free_csr (test_csr *S) ;
void *make_dense (int64_t rows, int64_t cols, gg_type t, double **dv) ;
double mul_ref (gg_mul mul, double s, double x) ;
double add_ref (gg_add add, double a, double b) ;
bool close_enough (double got, double want, double mag, gg_type t) ;
gg_csr view_csr (const test_csr *S, bool iso, void *cache) ;
int check_spmm (const gg_semiring *sr, const test_csr *S, bool iso,
    const double *X, int64_t n, const void *Y) ;
extern const gg_backend *be ;
uint64_t h2d_bytes (void) ;
size_t pool_used (void) ;
extern GrB_Matrix *handles ;   // the handles of make_entry (freed by main)
extern int nhandles ;
gg_cache_entry *make_entry (void) ;
void set_kernel (const char *name) ;

// the family that ran this thread's last SpMM (backend/cuda/family.h)
const char *gg_spmm_last_family (void) ;

// the tests, in the order main runs them
void test_tc_family (void **state) ;
void test_nm_family (void **state) ;
void test_lenr_family (void **state) ;
void test_spmm_plus_times (void **state) ;
void test_spmm_algorithms (void **state) ;
void test_spmm_tuned (void **state) ;
void test_spmm_own_kernels (void **state) ;
void test_spmm_edge_cases (void **state) ;
void test_spmv_push (void **state) ;
void test_spmv_hot (void **state) ;
void test_spmv_band (void **state) ;
void test_sddmm (void **state) ;
void test_gemm (void **state) ;
void test_dense_tuned (void **state) ;
void test_cache_reuse (void **state) ;
void test_cache_eviction (void **state) ;

#endif
