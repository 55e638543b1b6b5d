//------------------------------------------------------------------------------
// tests/test_objver.c: every family of mutating GraphBLAS calls bumps versions
//------------------------------------------------------------------------------

// Linked with backend/interpose/objver_wrappers.c (the generated wrappers),
// objver.c and the real libgraphblas.  For each family: make an object, note
// its version, change it through that call, and check that the version changed
// (and, for a few, that the call really happened: the wrapper forwards).
// Inputs and read-only calls must leave versions alone; a freed handle's
// address, given to a new object, gets a version never seen before.
//
// The families from creation to eWise / extract: tests/objver_families.c.

#include "tests/objver_test.h"

static uint64_t rng_state = 0x243f6a8885a308d3ULL ;
static uint64_t rnd (void)
{
    rng_state ^= rng_state << 13 ;
    rng_state ^= rng_state >> 7 ;
    rng_state ^= rng_state << 17 ;
    return rng_state ;
}

// an n x m FP64 matrix with about nnz random entries (values in [1, 2))
GrB_Matrix rand_matrix (GrB_Index n, GrB_Index m, int nnz)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, n, m)) ;
    for (int k = 0 ; k < nnz ; k++)
    {
        OK (GrB_Matrix_setElement_FP64 (A, 1.0 + (rnd ( ) % 1000) / 1000.0,
            rnd ( ) % n, rnd ( ) % m)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

GrB_Vector rand_vector (GrB_Index n, int nnz)
{
    GrB_Vector v ;
    OK (GrB_Vector_new (&v, GrB_FP64, n)) ;
    for (int k = 0 ; k < nnz ; k++)
    {
        OK (GrB_Vector_setElement_FP64 (v, 1.0 + (rnd ( ) % 1000) / 1000.0,
            rnd ( ) % n)) ;
    }
    OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
    return v ;
}

static int setup (void **state)
{
    (void) state ;
    return GrB_init (GrB_NONBLOCKING) == GrB_SUCCESS ? 0 : -1 ;
}

static int teardown (void **state)
{
    (void) state ;
    GrB_finalize ( ) ;
    return 0 ;
}

// concat, split, diag, sort, reshape
//------------------------------------------------------------------------------

static void test_structure (void **state)
{
    (void) state ;
    GrB_Matrix A = rand_matrix (6, 4, 10) ;
    uint64_t va = VER (A) ;
    // split: four new tiles, each with its own new version
    GrB_Matrix T [4] = { NULL, NULL, NULL, NULL } ;
    GrB_Index rows [2] = { 3, 3 }, cols [2] = { 2, 2 } ;
    OK (GxB_Matrix_split (T, 2, 2, rows, cols, A, NULL)) ;
    for (int k = 0 ; k < 4 ; k++)
    {
        assert_int_not_equal (VER (T [k]), 0) ;
        for (int j = 0 ; j < k ; j++) assert_int_not_equal (VER (T [k]), VER (T [j])) ;
    }
    // concat: C changes, the tiles do not
    GrB_Matrix C ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 6, 4)) ;
    uint64_t vt0 = VER (T [0]) ;
    BUMPS (C, GxB_Matrix_concat (C, T, 2, 2, NULL)) ;
    assert_int_equal (VER (T [0]), vt0) ;
    assert_int_equal (VER (A), va) ;
    for (int k = 0 ; k < 4 ; k++) OK (GrB_Matrix_free (&T [k])) ;

    // diag
    GrB_Vector v = rand_vector (4, 3) ;
    GrB_Matrix D = NULL ;
    OK (GrB_Matrix_diag (&D, v, 1)) ;
    assert_int_not_equal (VER (D), 0) ;
    BUMPS (D, GxB_Matrix_diag (D, v, 1, NULL)) ;
    BUMPS (v, GxB_Vector_diag (v, D, 1, NULL)) ;

    // sort: C and P both change, A does not
    GrB_Matrix P ;
    OK (GrB_Matrix_new (&P, GrB_INT64, 6, 4)) ;
    uint64_t vc = VER (C), vp = VER (P) ;
    OK (GxB_Matrix_sort (C, P, GrB_LT_FP64, A, NULL)) ;
    assert_int_not_equal (VER (C), vc) ;
    assert_int_not_equal (VER (P), vp) ;
    assert_int_equal (VER (A), va) ;
    GrB_Vector w, p, u = rand_vector (10, 6) ;
    OK (GrB_Vector_new (&w, GrB_FP64, 10)) ;
    OK (GrB_Vector_new (&p, GrB_INT64, 10)) ;
    uint64_t vw = VER (w), vpp = VER (p), vu = VER (u) ;
    OK (GxB_Vector_sort (w, p, GrB_LT_FP64, u, NULL)) ;
    assert_int_not_equal (VER (w), vw) ;
    assert_int_not_equal (VER (p), vpp) ;
    assert_int_equal (VER (u), vu) ;

    // reshape in place, reshapeDup new
    BUMPS (A, GxB_Matrix_reshape (A, true, 4, 6, NULL)) ;
    va = VER (A) ;
    GrB_Matrix R = NULL ;
    OK (GxB_Matrix_reshapeDup (&R, A, false, 2, 12, NULL)) ;
    assert_int_not_equal (VER (R), 0) ;
    assert_int_equal (VER (A), va) ;

    GrB_Matrix *ms [] = { &A, &C, &D, &P, &R } ;
    for (size_t k = 0 ; k < sizeof (ms) / sizeof (ms [0]) ; k++) OK (GrB_Matrix_free (ms [k])) ;
    OK (GrB_Vector_free (&v)) ;
    OK (GrB_Vector_free (&w)) ;
    OK (GrB_Vector_free (&p)) ;
    OK (GrB_Vector_free (&u)) ;
}

//------------------------------------------------------------------------------
// pack / unpack / import / export / serialize / HyperHash
//------------------------------------------------------------------------------

static void test_pack_import (void **state)
{
    (void) state ;
    GrB_Matrix A = rand_matrix (10, 10, 25) ;
    GrB_Index *Ap, *Aj, Ap_size, Aj_size, Ax_size, nvals0 ;
    void *Ax ;
    bool iso, jumbled ;
    OK (GrB_Matrix_nvals (&nvals0, A)) ;
    BUMPS (A, GxB_Matrix_unpack_CSR (A, &Ap, &Aj, &Ax, &Ap_size, &Aj_size,
        &Ax_size, &iso, &jumbled, NULL)) ;
    BUMPS (A, GxB_Matrix_pack_CSR (A, &Ap, &Aj, &Ax, Ap_size, Aj_size,
        Ax_size, iso, jumbled, NULL)) ;
    GrB_Index nv ;
    OK (GrB_Matrix_nvals (&nv, A)) ;
    assert_int_equal (nv, nvals0) ;

    // export frees A (dropped: version 0); import makes a new matrix
    GrB_Type type ;
    GrB_Index nrows, ncols ;
    const void *old = A ;
    OK (GxB_Matrix_export_CSR (&A, &type, &nrows, &ncols, &Ap, &Aj, &Ax,
        &Ap_size, &Aj_size, &Ax_size, &iso, &jumbled, NULL)) ;
    assert_null (A) ;
    assert_int_equal (grbgpu_objver_get (old), 0) ;
    OK (GxB_Matrix_import_CSR (&A, type, nrows, ncols, &Ap, &Aj, &Ax,
        Ap_size, Aj_size, Ax_size, iso, jumbled, NULL)) ;
    assert_int_not_equal (VER (A), 0) ;

    // GrB import / export: export copies out (A unchanged)
    GrB_Index np, ni, nx ;
    OK (GrB_Matrix_exportSize (&np, &ni, &nx, GrB_CSR_FORMAT, A)) ;
    GrB_Index *P = malloc (np * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (ni * sizeof (GrB_Index)) ;
    double *X = malloc (nx * sizeof (double)) ;
    KEEPS (A, GrB_Matrix_export_FP64 (P, J, X, &np, &ni, &nx, GrB_CSR_FORMAT, A)) ;
    GrB_Matrix B = NULL ;
    OK (GrB_Matrix_import_FP64 (&B, GrB_FP64, 10, 10, P, J, X, np, ni, nx, GrB_CSR_FORMAT)) ;
    assert_int_not_equal (VER (B), 0) ;
    assert_int_not_equal (VER (B), VER (A)) ;
    free (P) ;
    free (J) ;
    free (X) ;

    // serialize is read-only; deserialize makes a new matrix
    void *blob = NULL ;
    GrB_Index blob_size ;
    KEEPS (A, GxB_Matrix_serialize (&blob, &blob_size, A, NULL)) ;
    GrB_Matrix S = NULL ;
    OK (GxB_Matrix_deserialize (&S, NULL, blob, blob_size, NULL)) ;
    assert_int_not_equal (VER (S), 0) ;
    GrB_Matrix S2 = NULL ;
    OK (GrB_Matrix_deserialize (&S2, NULL, blob, blob_size)) ;
    assert_int_not_equal (VER (S2), 0) ;
    free (blob) ;

    // vectors
    GrB_Vector v = rand_vector (20, 8) ;
    GrB_Index *vi, vi_size, vx_size, vnvals ;
    void *vx ;
    BUMPS (v, GxB_Vector_unpack_CSC (v, &vi, &vx, &vi_size, &vx_size, &iso,
        &vnvals, &jumbled, NULL)) ;
    BUMPS (v, GxB_Vector_pack_CSC (v, &vi, &vx, vi_size, vx_size, iso,
        vnvals, jumbled, NULL)) ;
    GrB_Index n ;
    old = v ;
    OK (GxB_Vector_export_CSC (&v, &type, &n, &vi, &vx, &vi_size, &vx_size,
        &iso, &vnvals, &jumbled, NULL)) ;
    assert_int_equal (grbgpu_objver_get (old), 0) ;
    OK (GxB_Vector_import_CSC (&v, type, n, &vi, &vx, vi_size, vx_size, iso,
        vnvals, jumbled, NULL)) ;
    assert_int_not_equal (VER (v), 0) ;
    blob = NULL ;
    KEEPS (v, GxB_Vector_serialize (&blob, &blob_size, v, NULL)) ;
    GrB_Vector v2 = NULL ;
    OK (GxB_Vector_deserialize (&v2, NULL, blob, blob_size, NULL)) ;
    assert_int_not_equal (VER (v2), 0) ;
    free (blob) ;

    // HyperHash: a hypersparse matrix with enough vectors to have one
    GrB_Matrix H ;
    OK (GrB_Matrix_new (&H, GrB_FP64, 1000000, 1000000)) ;
    OK (GxB_Matrix_Option_set (H, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE)) ;
    for (int k = 0 ; k < 2000 ; k++)
    {
        OK (GrB_Matrix_setElement_FP64 (H, 1, rnd ( ) % 1000000, rnd ( ) % 1000000)) ;
    }
    OK (GrB_Matrix_wait (H, GrB_MATERIALIZE)) ;
    GrB_Matrix Y = NULL ;
    BUMPS (H, GxB_unpack_HyperHash (H, &Y, NULL)) ;
    // Y is an object of its own now (SuiteSparse 7.4 builds the hash for a
    // hypersparse matrix with this many vectors) ...
    assert_non_null (Y) ;
    assert_int_not_equal (VER (Y), 0) ;
    // ... then goes back into H, and is no object of its own any more
    const void *y = Y ;
    BUMPS (H, GxB_pack_HyperHash (H, &Y, NULL)) ;
    assert_null (Y) ;
    assert_int_equal (grbgpu_objver_get (y), 0) ;

    GrB_Matrix *ms [] = { &A, &B, &S, &S2, &H } ;
    for (size_t k = 0 ; k < sizeof (ms) / sizeof (ms [0]) ; k++) OK (GrB_Matrix_free (ms [k])) ;
    OK (GrB_Vector_free (&v)) ;
    OK (GrB_Vector_free (&v2)) ;
}

//------------------------------------------------------------------------------
// options (variadic and typed)
//------------------------------------------------------------------------------

static void test_options (void **state)
{
    (void) state ;
    GrB_Matrix A = rand_matrix (10, 10, 20) ;
    BUMPS (A, GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
    BUMPS (A, GxB_Matrix_Option_set (A, GxB_HYPER_SWITCH, 0.25)) ;
    BUMPS (A, GxB_Matrix_Option_set (A, GxB_BITMAP_SWITCH, 0.5)) ;
    BUMPS (A, GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_BITMAP)) ;
    BUMPS (A, GxB_set (A, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    BUMPS (A, GxB_Matrix_Option_set_INT32 (A, GxB_FORMAT, GxB_BY_ROW)) ;
    BUMPS (A, GxB_Matrix_Option_set_FP64 (A, GxB_HYPER_SWITCH, 0.125)) ;
    // the values went through va_arg correctly
    GxB_Format_Value fmt ;
    double h ;
    int sc ;
    KEEPS (A, GxB_Matrix_Option_get (A, GxB_FORMAT, &fmt)) ;
    assert_int_equal (fmt, GxB_BY_ROW) ;
    OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
    OK (GxB_Matrix_Option_get (A, GxB_FORMAT, &fmt)) ;
    assert_int_equal (fmt, GxB_BY_COL) ;
    OK (GxB_Matrix_Option_set (A, GxB_HYPER_SWITCH, 0.375)) ;
    OK (GxB_Matrix_Option_get (A, GxB_HYPER_SWITCH, &h)) ;
    assert_true (h == 0.375) ;
    OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE + GxB_SPARSE)) ;
    OK (GxB_Matrix_Option_get (A, GxB_SPARSITY_CONTROL, &sc)) ;
    assert_int_equal (sc, GxB_HYPERSPARSE + GxB_SPARSE) ;
    // a field that cannot be set is still refused
    assert_int_not_equal (GxB_Matrix_Option_set (A, GxB_MODE, 0), GrB_SUCCESS) ;

    GrB_Vector v = rand_vector (10, 3) ;
    BUMPS (v, GxB_Vector_Option_set (v, GxB_BITMAP_SWITCH, 0.5)) ;
    BUMPS (v, GxB_Vector_Option_set (v, GxB_SPARSITY_CONTROL, GxB_BITMAP)) ;
    BUMPS (v, GxB_Vector_Option_set_INT32 (v, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    BUMPS (v, GxB_Vector_Option_set_FP64 (v, GxB_BITMAP_SWITCH, 0.25)) ;
    OK (GxB_Vector_Option_get (v, GxB_BITMAP_SWITCH, &h)) ;
    assert_true (h == 0.25) ;
    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Vector_free (&v)) ;
}

//------------------------------------------------------------------------------
// read-only calls do not bump
//------------------------------------------------------------------------------

static void test_read_only (void **state)
{
    (void) state ;
    GrB_Matrix A = rand_matrix (12, 12, 30) ;
    GrB_Vector v = rand_vector (12, 5) ;
    GrB_Index n, I [64], J [64] ;
    double X [64], x ;
    bool b ;
    size_t sz ;
    GrB_Type t ;
    char name [GxB_MAX_NAME_LEN] ;
    int sc ;
    KEEPS (A, GrB_Matrix_nvals (&n, A)) ;
    KEEPS (A, GrB_Matrix_nrows (&n, A)) ;
    KEEPS (A, GrB_Matrix_ncols (&n, A)) ;
    KEEPS (A, GrB_Matrix_extractElement_FP64 (&x, A, 1, 1)) ;
    n = 64 ;
    KEEPS (A, GrB_Matrix_extractTuples_FP64 (I, J, X, &n, A)) ;
    KEEPS (A, GxB_Matrix_isStoredElement (A, 1, 1)) ;
    KEEPS (A, GxB_Matrix_memoryUsage (&sz, A)) ;
    KEEPS (A, GxB_Matrix_iso (&b, A)) ;
    KEEPS (A, GxB_Matrix_type (&t, A)) ;
    KEEPS (A, GxB_Matrix_type_name (name, A)) ;
    KEEPS (A, GxB_Matrix_Option_get (A, GxB_SPARSITY_STATUS, &sc)) ;
    KEEPS (A, GxB_Matrix_fprint (A, "A", GxB_SILENT, NULL)) ;
    KEEPS (A, GrB_Matrix_reduce_FP64 (&x, NULL, GrB_PLUS_MONOID_FP64, A, NULL)) ;
    GxB_Iterator it ;
    OK (GxB_Iterator_new (&it)) ;
    KEEPS (A, GxB_rowIterator_attach (it, A, NULL)) ;
    KEEPS (A, GxB_Matrix_Iterator_attach (it, A, NULL)) ;
    KEEPS (v, GxB_Vector_Iterator_attach (it, v, NULL)) ;
    OK (GxB_Iterator_free (&it)) ;
    KEEPS (v, GrB_Vector_nvals (&n, v)) ;
    KEEPS (v, GrB_Vector_size (&n, v)) ;
    KEEPS (v, GrB_Vector_extractElement_FP64 (&x, v, 2)) ;
    n = 64 ;
    KEEPS (v, GrB_Vector_extractTuples_FP64 (I, X, &n, v)) ;
    KEEPS (v, GrB_Vector_reduce_FP64 (&x, NULL, GrB_PLUS_MONOID_FP64, v, NULL)) ;
    KEEPS (v, GxB_Vector_fprint (v, "v", GxB_SILENT, NULL)) ;
    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Vector_free (&v)) ;
}

// Handles the version table never saw (objects freed inside SuiteSparse, say)
// are tolerated, and so is NULL.
static void test_unknown_handles (void **state)
{
    (void) state ;
    static char fake [4] ;
    assert_int_equal (grbgpu_objver_get (fake), 0) ;
    grbgpu_objver_drop (fake) ;
    grbgpu_objver_drop (NULL) ;
    grbgpu_objver_bump (NULL) ;
    assert_int_equal (grbgpu_objver_get (NULL), 0) ;
    grbgpu_objver_bump (fake) ;
    uint64_t v = grbgpu_objver_get (fake) ;
    assert_int_not_equal (v, 0) ;
    grbgpu_objver_drop (fake) ;
    assert_int_equal (grbgpu_objver_get (fake), 0) ;
    // invalid calls are forwarded (and answered by the library)
    assert_int_equal (GrB_Matrix_new (NULL, GrB_FP64, 2, 2), GrB_NULL_POINTER) ;
    assert_int_equal (GrB_Matrix_setElement_FP64 (NULL, 1, 0, 0), GrB_NULL_POINTER) ;
}

// Many handles: the table grows, and shrinks back when they are freed.
static void test_many_handles (void **state)
{
    (void) state ;
    enum { NH = 20000 } ;
    size_t live0 = grbgpu_objver_live ( ) ;
    GrB_Vector *v = malloc (NH * sizeof (GrB_Vector)) ;
    uint64_t *ver = malloc (NH * sizeof (uint64_t)) ;
    for (int k = 0 ; k < NH ; k++)
    {
        OK (GrB_Vector_new (&v [k], GrB_BOOL, 3)) ;
        ver [k] = VER (v [k]) ;
        assert_int_not_equal (ver [k], 0) ;
    }
    assert_int_equal (grbgpu_objver_live ( ), live0 + NH) ;
    for (int k = 0 ; k < NH ; k++) assert_int_equal (VER (v [k]), ver [k]) ;
    for (int k = 0 ; k < NH ; k += 2) OK (GrB_Vector_free (&v [k])) ;
    for (int k = 1 ; k < NH ; k += 2) assert_int_equal (VER (v [k]), ver [k]) ;
    for (int k = 1 ; k < NH ; k += 2) OK (GrB_Vector_free (&v [k])) ;
    assert_int_equal (grbgpu_objver_live ( ), live0) ;
    free (v) ;
    free (ver) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_new_dup_free),
        cmocka_unit_test (test_address_reuse),
        cmocka_unit_test (test_elements),
        cmocka_unit_test (test_assign),
        cmocka_unit_test (test_apply_select),
        cmocka_unit_test (test_ewise_extract),
        cmocka_unit_test (test_structure),
        cmocka_unit_test (test_pack_import),
        cmocka_unit_test (test_options),
        cmocka_unit_test (test_read_only),
        cmocka_unit_test (test_unknown_handles),
        cmocka_unit_test (test_many_handles),
    } ;
    return cmocka_run_group_tests (tests, setup, teardown) ;
}

