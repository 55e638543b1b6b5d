//------------------------------------------------------------------------------
// tests/host_backend_test.h: what tests/test_host_backend's files share
//------------------------------------------------------------------------------

// tests/test_host_backend is one program: stubs, random values, GraphBLAS
// builders, random CSR operands and the entry check
// (tests/host_backend_util.c), and the tests and main
// (tests/test_host_backend.c).

#ifndef GG_TESTS_HOST_BACKEND_TEST_H
#define GG_TESTS_HOST_BACKEND_TEST_H

#include "backend/grbgpu_internal.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#define OK(call) assert_int_equal ((call), GrB_SUCCESS)

typedef struct
{
    int64_t nrows, ncols, nnz ;
    int32_t *p32, *i32 ;
    int64_t *p64, *i64 ;
    GrB_Index *I, *J ;      // the same entries as tuples, for GraphBLAS
}
test_csr ;

// Candidates of an ANY sum: the terms mul (s_r, x_r), r = 0..nterms-1, where
// s_r = s + r * s_stride and x_r = x + r * x_stride (in values).
typedef struct
{
    const char *s ; int64_t s_stride ;
    const char *x ; int64_t x_stride ;
    int64_t nterms ;
}
test_terms ;

// tests/host_backend_util.c
extern bool fault_now ;
extern uint64_t rng_state ;
int64_t rng_below (int64_t n) ;
bool reads_s (gg_mul m) ;
bool reads_x (gg_mul m) ;
GrB_Type grb_type (gg_type t) ;
bool in_set (gg_type t, gg_add a) ;
void *random_values (gg_type t, int64_t count) ;
void grb_build (GrB_Matrix *A, gg_type t, int64_t nrows, int64_t ncols,
    const GrB_Index *I, const GrB_Index *J, const void *x, GrB_Index nvals) ;
GrB_Matrix grb_dense (gg_type t, int64_t nrows, int64_t ncols, const void *x) ;
void grb_unpack (GrB_Matrix C, gg_type t, int64_t ncols, void *D,
    uint8_t *present, GrB_Index *nvals_out) ;
GrB_Semiring grb_semiring (gg_type t, gg_add a, gg_mul m) ;
void csr_random (test_csr *S, int64_t nrows, int64_t ncols, const int64_t *len) ;
void csr_free (test_csr *S) ;
gg_csr csr_view (const test_csr *S, bool wide, const void *x, bool iso) ;
void check_entry (const char *what, gg_type t, gg_add a, gg_mul m,
    const void *h, const void *g, bool present, const test_terms *T,
    int64_t i, int64_t j) ;
extern uint64_t checked ;

#endif
