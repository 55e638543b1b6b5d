//------------------------------------------------------------------------------
// tests/objver_families.c: test_objver's families, creation to eWise / extract
//------------------------------------------------------------------------------

#include "tests/objver_test.h"

//------------------------------------------------------------------------------
// creation, duplication, free
//------------------------------------------------------------------------------

void test_new_dup_free (void **state)
{
    (void) state ;
    size_t live0 = grbgpu_objver_live ( ) ;
    GrB_Matrix A, B ;
    OK (GrB_Matrix_new (&A, GrB_FP64, 10, 10)) ;
    uint64_t va = VER (A) ;
    assert_int_not_equal (va, 0) ;
    OK (GrB_Matrix_setElement_FP64 (A, 3.5, 2, 3)) ;
    assert_int_not_equal (VER (A), va) ;
    va = VER (A) ;
    // dup: the copy is new, the source is unchanged
    OK (GrB_Matrix_dup (&B, A)) ;
    assert_int_not_equal (VER (B), 0) ;
    assert_int_not_equal (VER (B), va) ;
    double x = 0 ;
    OK (GrB_Matrix_extractElement_FP64 (&x, B, 2, 3)) ;
    assert_true (x == 3.5) ;
    assert_int_equal (grbgpu_objver_live ( ), live0 + 2) ;
    const void *a_addr = A ;
    OK (GrB_Matrix_free (&A)) ;
    assert_null (A) ;
    assert_int_equal (grbgpu_objver_get (a_addr), 0) ;
    OK (GrB_Matrix_free (&B)) ;
    assert_int_equal (grbgpu_objver_live ( ), live0) ;
    // freeing NULL and an already freed (NULL) handle is fine
    OK (GrB_Matrix_free (&A)) ;

    GrB_Vector v, w ;
    OK (GrB_Vector_new (&v, GrB_INT32, 7)) ;
    assert_int_not_equal (VER (v), 0) ;
    OK (GrB_Vector_dup (&w, v)) ;
    assert_int_not_equal (VER (w), 0) ;
    assert_int_not_equal (VER (w), VER (v)) ;
    OK (GrB_Vector_free (&v)) ;
    OK (GrB_Vector_free (&w)) ;
    assert_int_equal (grbgpu_objver_live ( ), live0) ;
}

// A freed handle's address, reused by a new object, gets a version never
// handed out before.
void test_address_reuse (void **state)
{
    (void) state ;
    enum { TRIES = 64 } ;
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, 5, 5)) ;
    OK (GrB_Matrix_setElement_FP64 (A, 1, 1, 1)) ;
    const void *addr = A ;
    uint64_t old = VER (A) ;
    OK (GrB_Matrix_free (&A)) ;
    GrB_Matrix held [TRIES] ;
    int n = 0, reused = 0 ;
    for ( ; n < TRIES && !reused ; n++)
    {
        OK (GrB_Matrix_new (&held [n], GrB_FP64, 5, 5)) ;
        if ((const void *) held [n] == addr)
        {
            reused = 1 ;
            assert_int_not_equal (VER (held [n]), 0) ;
            assert_int_not_equal (VER (held [n]), old) ;
        }
    }
    // SuiteSparse hands a freed header straight back (malloc or its pool);
    // if that ever stops, this test has to find another way to provoke it
    assert_true (reused) ;
    for (int k = 0 ; k < n ; k++) OK (GrB_Matrix_free (&held [k])) ;
}

//------------------------------------------------------------------------------
// element-wise changes: setElement, removeElement, build, clear, resize
//------------------------------------------------------------------------------

void test_elements (void **state)
{
    (void) state ;
    GrB_Matrix A = rand_matrix (20, 30, 50) ;
    BUMPS (A, GrB_Matrix_setElement_FP64 (A, 2.5, 1, 2)) ;
    BUMPS (A, GrB_Matrix_setElement_INT32 (A, 7, 3, 4)) ;
    BUMPS (A, GrB_Matrix_setElement_BOOL (A, true, 5, 6)) ;
    BUMPS (A, GrB_Matrix_setElement_UINT64 (A, 9, 5, 7)) ;
    GrB_Scalar s ;
    OK (GrB_Scalar_new (&s, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (s, 4.25)) ;
    BUMPS (A, GrB_Matrix_setElement_Scalar (A, s, 8, 9)) ;
    double x ;
    OK (GrB_Matrix_extractElement_FP64 (&x, A, 8, 9)) ;
    assert_true (x == 4.25) ;
    BUMPS (A, GrB_Matrix_removeElement (A, 8, 9)) ;
    assert_int_equal (GrB_Matrix_extractElement_FP64 (&x, A, 8, 9), GrB_NO_VALUE) ;
    BUMPS (A, GrB_Matrix_clear (A)) ;
    GrB_Index nv = 1 ;
    OK (GrB_Matrix_nvals (&nv, A)) ;
    assert_int_equal (nv, 0) ;
    GrB_Index I [3] = { 0, 1, 2 }, J [3] = { 2, 1, 0 } ;
    double X [3] = { 1, 2, 3 } ;
    BUMPS (A, GrB_Matrix_build_FP64 (A, I, J, X, 3, GrB_PLUS_FP64)) ;
    OK (GrB_Matrix_clear (A)) ;
    int32_t Xi [3] = { 1, 2, 3 } ;
    BUMPS (A, GrB_Matrix_build_INT32 (A, I, J, Xi, 3, GrB_PLUS_INT32)) ;
    OK (GrB_Matrix_clear (A)) ;
    BUMPS (A, GxB_Matrix_build_Scalar (A, I, J, s, 3)) ;
    BUMPS (A, GrB_Matrix_resize (A, 40, 40)) ;
    BUMPS (A, GxB_Matrix_resize (A, 30, 35)) ;
    // GrB_wait finishes pending work: the value (and so the version) stays
    OK (GrB_Matrix_setElement_FP64 (A, 2.5, 1, 1)) ;
    {
        uint64_t w0 = VER (A) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        assert_true (VER (A) == w0) ;
    }

    GrB_Vector v = rand_vector (50, 10) ;
    BUMPS (v, GrB_Vector_setElement_FP64 (v, 1.5, 3)) ;
    BUMPS (v, GrB_Vector_setElement_INT8 (v, 2, 4)) ;
    BUMPS (v, GrB_Vector_setElement_Scalar (v, s, 5)) ;
    BUMPS (v, GrB_Vector_removeElement (v, 5)) ;
    BUMPS (v, GrB_Vector_clear (v)) ;
    BUMPS (v, GrB_Vector_build_FP64 (v, I, X, 3, GrB_PLUS_FP64)) ;
    OK (GrB_Vector_clear (v)) ;
    BUMPS (v, GxB_Vector_build_Scalar (v, I, s, 3)) ;
    BUMPS (v, GrB_Vector_resize (v, 60)) ;
    BUMPS (v, GxB_Vector_resize (v, 55)) ;
    {
        uint64_t w0 = VER (v) ;
        OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
        assert_true (VER (v) == w0) ;
    }
    OK (GrB_Vector_extractElement_FP64 (&x, v, 1)) ;
    assert_true (x == 4.25) ;

    OK (GrB_Scalar_free (&s)) ;
    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Vector_free (&v)) ;
}

//------------------------------------------------------------------------------
// assign and subassign
//------------------------------------------------------------------------------

void test_assign (void **state)
{
    (void) state ;
    GrB_Matrix C = rand_matrix (10, 10, 30) ;
    GrB_Matrix A = rand_matrix (3, 3, 5) ;
    GrB_Matrix M = rand_matrix (10, 10, 40) ;
    GrB_Vector u = rand_vector (3, 2) ;
    GrB_Index I [3] = { 1, 4, 7 } ;
    GrB_Scalar s ;
    OK (GrB_Scalar_new (&s, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (s, -1)) ;
    uint64_t va = VER (A), vm = VER (M), vu = VER (u) ;

    BUMPS (C, GrB_Matrix_assign (C, NULL, NULL, A, I, 3, I, 3, NULL)) ;
    BUMPS (C, GrB_Matrix_assign (C, M, GrB_PLUS_FP64, A, I, 3, I, 3, NULL)) ;
    BUMPS (C, GrB_Matrix_assign_FP64 (C, NULL, NULL, 2.0, I, 3, I, 3, NULL)) ;
    BUMPS (C, GrB_Matrix_assign_INT64 (C, NULL, NULL, 2, GrB_ALL, 10, I, 1, NULL)) ;
    BUMPS (C, GrB_Matrix_assign_Scalar (C, NULL, NULL, s, I, 2, I, 2, NULL)) ;
    BUMPS (C, GrB_Row_assign (C, NULL, NULL, u, 2, I, 3, NULL)) ;
    BUMPS (C, GrB_Col_assign (C, NULL, NULL, u, I, 3, 5, NULL)) ;
    BUMPS (C, GxB_Matrix_subassign (C, NULL, NULL, A, I, 3, I, 3, NULL)) ;
    BUMPS (C, GxB_Matrix_subassign_FP32 (C, NULL, NULL, 1.5f, I, 3, I, 3, NULL)) ;
    BUMPS (C, GxB_Matrix_subassign_Scalar (C, NULL, NULL, s, I, 3, I, 3, NULL)) ;
    BUMPS (C, GxB_Row_subassign (C, NULL, NULL, u, 3, I, 3, NULL)) ;
    BUMPS (C, GxB_Col_subassign (C, NULL, NULL, u, I, 3, 6, NULL)) ;
    double x ;
    OK (GrB_Matrix_extractElement_FP64 (&x, C, 1, 1)) ;
    assert_true (x == -1) ;
    // inputs and masks are unchanged
    assert_int_equal (VER (A), va) ;
    assert_int_equal (VER (M), vm) ;
    assert_int_equal (VER (u), vu) ;

    GrB_Vector w = rand_vector (10, 4) ;
    BUMPS (w, GrB_Vector_assign (w, NULL, NULL, u, I, 3, NULL)) ;
    BUMPS (w, GrB_Vector_assign_FP64 (w, NULL, NULL, 3.0, I, 3, NULL)) ;
    BUMPS (w, GrB_Vector_assign_BOOL (w, NULL, NULL, true, I, 2, NULL)) ;
    BUMPS (w, GrB_Vector_assign_Scalar (w, NULL, NULL, s, I, 3, NULL)) ;
    BUMPS (w, GxB_Vector_subassign (w, NULL, NULL, u, I, 3, NULL)) ;
    BUMPS (w, GxB_Vector_subassign_INT16 (w, NULL, NULL, 5, I, 3, NULL)) ;
    BUMPS (w, GxB_Vector_subassign_Scalar (w, NULL, NULL, s, I, 3, NULL)) ;
    assert_int_equal (VER (u), vu) ;

    OK (GrB_Scalar_free (&s)) ;
    OK (GrB_Matrix_free (&C)) ;
    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Matrix_free (&M)) ;
    OK (GrB_Vector_free (&u)) ;
    OK (GrB_Vector_free (&w)) ;
}

//------------------------------------------------------------------------------
// apply, select
//------------------------------------------------------------------------------

void test_apply_select (void **state)
{
    (void) state ;
    GrB_Matrix C = rand_matrix (8, 8, 10) ;
    GrB_Matrix A = rand_matrix (8, 8, 20) ;
    GrB_Scalar s ;
    OK (GrB_Scalar_new (&s, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (s, 2)) ;
    uint64_t va = VER (A) ;

    BUMPS (C, GrB_Matrix_apply (C, NULL, NULL, GrB_AINV_FP64, A, NULL)) ;
    BUMPS (C, GrB_Matrix_apply_BinaryOp1st_FP64 (C, NULL, NULL, GrB_TIMES_FP64, 2.0, A, NULL)) ;
    BUMPS (C, GrB_Matrix_apply_BinaryOp2nd_INT32 (C, NULL, NULL, GrB_PLUS_FP64, A, 1, NULL)) ;
    BUMPS (C, GrB_Matrix_apply_BinaryOp1st_Scalar (C, NULL, NULL, GrB_MINUS_FP64, s, A, NULL)) ;
    BUMPS (C, GrB_Matrix_apply_BinaryOp2nd_Scalar (C, NULL, NULL, GrB_MINUS_FP64, A, s, NULL)) ;
    BUMPS (C, GxB_Matrix_apply_BinaryOp1st (C, NULL, NULL, GrB_MINUS_FP64, s, A, NULL)) ;
    BUMPS (C, GxB_Matrix_apply_BinaryOp2nd (C, NULL, NULL, GrB_MINUS_FP64, A, s, NULL)) ;
    BUMPS (C, GrB_Matrix_apply_IndexOp_INT64 (C, NULL, NULL, GrB_ROWINDEX_INT64, A, 0, NULL)) ;
    BUMPS (C, GrB_Matrix_apply_IndexOp_Scalar (C, NULL, NULL, GrB_ROWINDEX_INT64, A, s, NULL)) ;
    BUMPS (C, GrB_Matrix_select_FP64 (C, NULL, NULL, GrB_VALUEGT_FP64, A, 1.5, NULL)) ;
    BUMPS (C, GrB_Matrix_select_INT64 (C, NULL, NULL, GrB_TRIL, A, 0, NULL)) ;
    BUMPS (C, GrB_Matrix_select_Scalar (C, NULL, NULL, GrB_VALUEGT_FP64, A, s, NULL)) ;
    BUMPS (C, GxB_Matrix_select (C, NULL, NULL, GxB_TRIU, A, NULL, NULL)) ;
    // C = tril (A): check it was computed
    GrB_Index nc, na ;
    OK (GrB_Matrix_nvals (&nc, C)) ;
    OK (GrB_Matrix_nvals (&na, A)) ;
    assert_true (nc <= na) ;
    assert_int_equal (VER (A), va) ;

    GrB_Vector w = rand_vector (8, 2), u = rand_vector (8, 5) ;
    uint64_t vu = VER (u) ;
    BUMPS (w, GrB_Vector_apply (w, NULL, NULL, GrB_ABS_FP64, u, NULL)) ;
    BUMPS (w, GrB_Vector_apply_BinaryOp1st_FP32 (w, NULL, NULL, GrB_PLUS_FP64, 1, u, NULL)) ;
    BUMPS (w, GrB_Vector_apply_BinaryOp2nd_UINT8 (w, NULL, NULL, GrB_PLUS_FP64, u, 1, NULL)) ;
    BUMPS (w, GrB_Vector_apply_BinaryOp1st_Scalar (w, NULL, NULL, GrB_PLUS_FP64, s, u, NULL)) ;
    BUMPS (w, GrB_Vector_apply_BinaryOp2nd_Scalar (w, NULL, NULL, GrB_PLUS_FP64, u, s, NULL)) ;
    BUMPS (w, GxB_Vector_apply_BinaryOp1st (w, NULL, NULL, GrB_PLUS_FP64, s, u, NULL)) ;
    BUMPS (w, GxB_Vector_apply_BinaryOp2nd (w, NULL, NULL, GrB_PLUS_FP64, u, s, NULL)) ;
    BUMPS (w, GrB_Vector_apply_IndexOp_INT32 (w, NULL, NULL, GrB_ROWINDEX_INT64, u, 1, NULL)) ;
    BUMPS (w, GrB_Vector_apply_IndexOp_Scalar (w, NULL, NULL, GrB_ROWINDEX_INT64, u, s, NULL)) ;
    BUMPS (w, GrB_Vector_select_FP64 (w, NULL, NULL, GrB_VALUEGE_FP64, u, 1.5, NULL)) ;
    BUMPS (w, GrB_Vector_select_Scalar (w, NULL, NULL, GrB_VALUEGE_FP64, u, s, NULL)) ;
    BUMPS (w, GxB_Vector_select (w, NULL, NULL, GxB_NONZERO, u, NULL, NULL)) ;
    assert_int_equal (VER (u), vu) ;

    OK (GrB_Scalar_free (&s)) ;
    OK (GrB_Matrix_free (&C)) ;
    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Vector_free (&w)) ;
    OK (GrB_Vector_free (&u)) ;
}

//------------------------------------------------------------------------------
// eWise, extract, transpose, kronecker, reduce to vector
//------------------------------------------------------------------------------

void test_ewise_extract (void **state)
{
    (void) state ;
    GrB_Matrix C = rand_matrix (6, 6, 5) ;
    GrB_Matrix A = rand_matrix (6, 6, 12), B = rand_matrix (6, 6, 12) ;
    GrB_Scalar s ;
    OK (GrB_Scalar_new (&s, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (s, 0)) ;
    uint64_t va = VER (A), vb = VER (B) ;
    BUMPS (C, GrB_Matrix_eWiseAdd_BinaryOp (C, NULL, NULL, GrB_PLUS_FP64, A, B, NULL)) ;
    BUMPS (C, GrB_Matrix_eWiseAdd_Monoid (C, NULL, NULL, GrB_PLUS_MONOID_FP64, A, B, NULL)) ;
    BUMPS (C, GrB_Matrix_eWiseAdd_Semiring (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    BUMPS (C, GrB_Matrix_eWiseMult_BinaryOp (C, NULL, NULL, GrB_TIMES_FP64, A, B, NULL)) ;
    BUMPS (C, GrB_Matrix_eWiseMult_Monoid (C, NULL, NULL, GrB_TIMES_MONOID_FP64, A, B, NULL)) ;
    BUMPS (C, GrB_Matrix_eWiseMult_Semiring (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    BUMPS (C, GxB_Matrix_eWiseUnion (C, NULL, NULL, GrB_PLUS_FP64, A, s, B, s, NULL)) ;
    GrB_Index I [2] = { 0, 3 } ;
    GrB_Matrix E ;
    OK (GrB_Matrix_new (&E, GrB_FP64, 2, 2)) ;
    BUMPS (E, GrB_Matrix_extract (E, NULL, NULL, A, I, 2, I, 2, NULL)) ;
    BUMPS (C, GrB_transpose (C, NULL, NULL, A, NULL)) ;
    double x, y ;
    if (GrB_Matrix_extractElement_FP64 (&x, A, 1, 2) == GrB_SUCCESS)
    {
        OK (GrB_Matrix_extractElement_FP64 (&y, C, 2, 1)) ;
        assert_true (x == y) ;
    }
    GrB_Matrix K ;
    OK (GrB_Matrix_new (&K, GrB_FP64, 36, 36)) ;
    BUMPS (K, GrB_Matrix_kronecker_BinaryOp (K, NULL, NULL, GrB_TIMES_FP64, A, B, NULL)) ;
    BUMPS (K, GrB_Matrix_kronecker_Monoid (K, NULL, NULL, GrB_TIMES_MONOID_FP64, A, B, NULL)) ;
    BUMPS (K, GrB_Matrix_kronecker_Semiring (K, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    BUMPS (K, GxB_kron (K, NULL, NULL, GrB_TIMES_FP64, A, B, NULL)) ;
    assert_int_equal (VER (A), va) ;
    assert_int_equal (VER (B), vb) ;

    GrB_Vector w = rand_vector (6, 1), u = rand_vector (6, 4), v = rand_vector (6, 4) ;
    BUMPS (w, GrB_Vector_eWiseAdd_BinaryOp (w, NULL, NULL, GrB_PLUS_FP64, u, v, NULL)) ;
    BUMPS (w, GrB_Vector_eWiseAdd_Monoid (w, NULL, NULL, GrB_PLUS_MONOID_FP64, u, v, NULL)) ;
    BUMPS (w, GrB_Vector_eWiseAdd_Semiring (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, v, NULL)) ;
    BUMPS (w, GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, GrB_TIMES_FP64, u, v, NULL)) ;
    BUMPS (w, GrB_Vector_eWiseMult_Monoid (w, NULL, NULL, GrB_TIMES_MONOID_FP64, u, v, NULL)) ;
    BUMPS (w, GrB_Vector_eWiseMult_Semiring (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, v, NULL)) ;
    BUMPS (w, GxB_Vector_eWiseUnion (w, NULL, NULL, GrB_PLUS_FP64, u, s, v, s, NULL)) ;
    GrB_Vector e ;
    OK (GrB_Vector_new (&e, GrB_FP64, 2)) ;
    BUMPS (e, GrB_Vector_extract (e, NULL, NULL, u, I, 2, NULL)) ;
    BUMPS (w, GrB_Col_extract (w, NULL, NULL, A, GrB_ALL, 6, 1, NULL)) ;
    BUMPS (w, GrB_Matrix_reduce_Monoid (w, NULL, NULL, GrB_PLUS_MONOID_FP64, A, NULL)) ;
    BUMPS (w, GrB_Matrix_reduce_BinaryOp (w, NULL, NULL, GrB_PLUS_FP64, A, NULL)) ;
    assert_int_equal (VER (A), va) ;

    OK (GrB_Scalar_free (&s)) ;
    GrB_Matrix *ms [] = { &C, &A, &B, &E, &K } ;
    for (size_t k = 0 ; k < sizeof (ms) / sizeof (ms [0]) ; k++) OK (GrB_Matrix_free (ms [k])) ;
    GrB_Vector *vs [] = { &w, &u, &v, &e } ;
    for (size_t k = 0 ; k < sizeof (vs) / sizeof (vs [0]) ; k++) OK (GrB_Vector_free (vs [k])) ;
}

//------------------------------------------------------------------------------
