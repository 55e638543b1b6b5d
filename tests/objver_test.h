//------------------------------------------------------------------------------
// tests/objver_test.h: what tests/test_objver's files share
//------------------------------------------------------------------------------

// tests/test_objver is one program: helpers, the structural, pack / import,
// option, read-only and handle tests and main (tests/test_objver.c), and the
// families from creation to eWise / extract (tests/objver_families.c).

#ifndef GG_TESTS_OBJVER_TEST_H
#define GG_TESTS_OBJVER_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/grbgpu_internal.h"
#include "backend/interpose/objver.h"           // grbgpu_objver_live

#define OK(call) assert_int_equal ((call), GrB_SUCCESS)
#define VER(obj) grbgpu_objver_get ((const void *) (obj))

// `call` changes `obj`: its version is new and not 0
#define BUMPS(obj, call)                                                    \
    do {                                                                    \
        uint64_t v0_ = VER (obj) ;                                          \
        assert_int_not_equal (v0_, 0) ;                                     \
        OK (call) ;                                                         \
        uint64_t v1_ = VER (obj) ;                                          \
        assert_int_not_equal (v1_, 0) ;                                     \
        assert_int_not_equal (v1_, v0_) ;                                   \
    } while (0)

// `call` leaves `obj` at its version
#define KEEPS(obj, call)                                                    \
    do {                                                                    \
        uint64_t v0_ = VER (obj) ;                                          \
        assert_int_not_equal (v0_, 0) ;                                     \
        (void) (call) ;                                                     \
        assert_int_equal (VER (obj), v0_) ;                                 \
    } while (0)

// tests/test_objver.c
GrB_Matrix rand_matrix (GrB_Index n, GrB_Index m, int nnz) ;
GrB_Vector rand_vector (GrB_Index n, int nnz) ;

// tests/objver_families.c, in the order main runs them
void test_new_dup_free (void **state) ;
void test_address_reuse (void **state) ;
void test_elements (void **state) ;
void test_assign (void **state) ;
void test_apply_select (void **state) ;
void test_ewise_extract (void **state) ;

#endif
