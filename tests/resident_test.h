//------------------------------------------------------------------------------
// tests/resident_test.h: what tests/test_resident's files share
//------------------------------------------------------------------------------

// tests/test_resident is one program: the chain, the fixtures, changes,
// products, eviction, faults, options and main (tests/test_resident.c), the
// reads of a resident result (tests/resident_reads.c), and products into
// outputs that were or are resident (tests/resident_products.c).  Include after
// cmocka.h, GraphBLAS.h and grbgpu.h.

#ifndef GG_TESTS_RESIDENT_TEST_H
#define GG_TESTS_RESIDENT_TEST_H

#include "tests/resident_util.h"

enum { NV = 300, KB = 4 } ;     // A is NV x NV, B is NV x KB

// tests/test_resident.c
GrB_Vector chain (GrB_Matrix A, GrB_Vector u, bool device) ;
void assert_same (const double *x, const double *y, GrB_Index n) ;
extern GrB_Matrix A ;
extern GrB_Vector u ;
extern double ref [NV] ;            // the CPU library's chain (u)
GrB_Vector resident (void) ;
void expect_kept (uint64_t before) ;
GrB_Matrix full_matrix (GrB_Index m, GrB_Index n) ;

// tests/resident_products.c
void assert_twins (GrB_Matrix got, GrB_Matrix ref, bool faults, GrB_Index n) ;
void test_shadow (void **state) ;
void test_output_dropped (void **state) ;
void test_rows_again (void **state) ;

// tests/resident_reads.c, in the order main runs them
void test_nvals_stays (void **state) ;
void test_extract_element (void **state) ;
void test_reduce (void **state) ;
void test_apply_ewise_dup (void **state) ;
void test_serialize_export (void **state) ;
void test_iterator_fprint_option (void **state) ;
void test_declined_and_aliased (void **state) ;

#endif
