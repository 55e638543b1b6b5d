//------------------------------------------------------------------------------
// tests/resident_reads.c: test_resident's reads of a resident result
//------------------------------------------------------------------------------

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <GraphBLAS.h>
#include "grbgpu.h"

#include "tests/resident_test.h"

// reads
//------------------------------------------------------------------------------

void test_nvals_stays (void **state)
{
    (void) state ;
    GrB_Vector w = resident ( ) ;
    uint64_t m = stats ( ).materialised ;
    GrB_Index n = 0, size = 0 ;
    GrB_Type t = NULL ;
    OK (GrB_Vector_nvals (&n, w)) ;
    OK (GrB_Vector_size (&size, w)) ;
    OK (GxB_Vector_type (&t, w)) ;
    assert_int_equal (n, NV) ;
    assert_int_equal (size, NV) ;
    assert_ptr_equal (t, GrB_FP64) ;
    assert_int_equal (stats ( ).materialised, m) ;      // nothing came down
    double x [NV] ;
    values_of (w, x) ;                                   // this comes down
    assert_int_equal (stats ( ).materialised, m + 1) ;
    assert_same (x, ref, NV) ;
    OK (GrB_Vector_free (&w)) ;
}

void test_extract_element (void **state)
{
    (void) state ;
    GrB_Vector w = resident ( ) ;
    for (GrB_Index i = 0 ; i < NV ; i++)
    {
        double v = 0 ;
        OK (GrB_Vector_extractElement_FP64 (&v, w, i)) ;
        assert_true (v == ref [i]) ;
    }
    OK (GrB_Vector_free (&w)) ;
}

void test_reduce (void **state)
{
    (void) state ;
    double s = 0, expect = 0 ;
    for (int i = 0 ; i < NV ; i++) expect += ref [i] ;
    GrB_Vector w = resident ( ) ;
    OK (GrB_Vector_reduce_FP64 (&s, NULL, GrB_PLUS_MONOID_FP64, w, NULL)) ;
    assert_true (s == expect) ;
    OK (GrB_Vector_free (&w)) ;
    // to a GrB_Scalar
    w = resident ( ) ;
    GrB_Scalar sc ;
    OK (GrB_Scalar_new (&sc, GrB_FP64)) ;
    OK (GrB_Vector_reduce_Monoid_Scalar (sc, NULL, GrB_MAX_MONOID_FP64, w, NULL)) ;
    double mx = -1e300, got = 0 ;
    for (int i = 0 ; i < NV ; i++) if (ref [i] > mx) mx = ref [i] ;
    OK (GrB_Scalar_extractElement_FP64 (&got, sc)) ;
    assert_true (got == mx) ;
    GrB_Scalar_free (&sc) ;
    OK (GrB_Vector_free (&w)) ;
}

void test_apply_ewise_dup (void **state)
{
    (void) state ;
    double x [NV], y [NV] ;
    // apply into a new vector
    GrB_Vector w = resident ( ), z ;
    OK (GrB_Vector_new (&z, GrB_FP64, NV)) ;
    OK (GrB_Vector_apply (z, NULL, NULL, GrB_AINV_FP64, w, NULL)) ;
    values_of (z, x) ;
    for (int i = 0 ; i < NV ; i++) y [i] = -ref [i] ;
    assert_same (x, y, NV) ;
    OK (GrB_Vector_free (&w)) ;
    // in place: w = w + 1 (w is both input and output)
    w = resident ( ) ;
    OK (GrB_Vector_apply_BinaryOp2nd_FP64 (w, NULL, NULL, GrB_PLUS_FP64, w, 1.0, NULL)) ;
    values_of (w, x) ;
    for (int i = 0 ; i < NV ; i++) y [i] = ref [i] + 1 ;
    assert_same (x, y, NV) ;
    OK (GrB_Vector_free (&w)) ;
    // eWiseAdd of two resident vectors
    w = resident ( ) ;
    GrB_Vector w2 = resident ( ) ;
    OK (GrB_Vector_eWiseAdd_BinaryOp (z, NULL, NULL, GrB_PLUS_FP64, w, w2, NULL)) ;
    values_of (z, x) ;
    for (int i = 0 ; i < NV ; i++) y [i] = 2 * ref [i] ;
    assert_same (x, y, NV) ;
    OK (GrB_Vector_free (&w2)) ;
    OK (GrB_Vector_free (&w)) ;
    OK (GrB_Vector_free (&z)) ;
    // dup
    w = resident ( ) ;
    OK (GrB_Vector_dup (&z, w)) ;
    OK (GrB_Vector_free (&w)) ;
    values_of (z, x) ;
    assert_same (x, ref, NV) ;
    OK (GrB_Vector_free (&z)) ;
}

void test_serialize_export (void **state)
{
    (void) state ;
    double x [NV] ;
    // serialize, deserialize
    GrB_Vector w = resident ( ), z = NULL ;
    void *blob = NULL ;
    GrB_Index size = 0 ;
    OK (GxB_Vector_serialize (&blob, &size, w, NULL)) ;
    OK (GxB_Vector_deserialize (&z, GrB_FP64, blob, size, NULL)) ;
    free (blob) ;
    values_of (z, x) ;
    assert_same (x, ref, NV) ;
    OK (GrB_Vector_free (&z)) ;
    OK (GrB_Vector_free (&w)) ;
    // GrB export (the object stays)
    w = resident ( ) ;
    GrB_Index n = NV, I [NV] ;
    double X [NV] ;
    OK (GrB_Vector_extractTuples_FP64 (I, X, &n, w)) ;     // after a materialise: still right
    OK (GrB_Vector_free (&w)) ;
    // GxB unpack: the values leave the object
    w = resident ( ) ;
    void *vx = NULL ;
    GrB_Index vsize = 0 ;
    bool iso = true ;
    OK (GxB_Vector_unpack_Full (w, &vx, &vsize, &iso, NULL)) ;
    assert_false (iso) ;
    assert_true (vsize >= NV * sizeof (double)) ;
    assert_same ((double *) vx, ref, NV) ;
    free (vx) ;                 // the default memory functions: malloc / free
    OK (GrB_Vector_free (&w)) ;
    // GxB export frees the object
    w = resident ( ) ;
    GrB_Type t ;
    GrB_Index len ;
    vx = NULL ;
    OK (GxB_Vector_export_Full (&w, &t, &len, &vx, &vsize, &iso, NULL)) ;
    assert_null (w) ;
    assert_false (iso) ;
    assert_same ((double *) vx, ref, NV) ;
    free (vx) ;
}

void test_iterator_fprint_option (void **state)
{
    (void) state ;
    GrB_Vector w = resident ( ) ;
    GxB_Iterator it ;
    OK (GxB_Iterator_new (&it)) ;
    OK (GxB_Vector_Iterator_attach (it, w, NULL)) ;
    GrB_Info info = GxB_Vector_Iterator_seek (it, 0) ;
    int seen = 0 ;
    while (info != GxB_EXHAUSTED)
    {
        GrB_Index i = GxB_Vector_Iterator_getIndex (it) ;
        assert_true (GxB_Iterator_get_FP64 (it) == ref [i]) ;
        seen++ ;
        info = GxB_Vector_Iterator_next (it) ;
    }
    assert_int_equal (seen, NV) ;
    GrB_free (&it) ;
    OK (GrB_Vector_free (&w)) ;
    // fprint prints what the CPU library's result of the same chain prints
    GrB_Vector r = chain (A, u, false) ;
    w = resident ( ) ;
    char *text [2] ;
    GrB_Vector v [2] = { w, r } ;
    for (int k = 0 ; k < 2 ; k++)
    {
        size_t len = 0 ;
        FILE *f = open_memstream (&text [k], &len) ;
        assert_non_null (f) ;
        OK (GxB_Vector_fprint (v [k], "w", GxB_COMPLETE, f)) ;
        fclose (f) ;
        // the memory line counts allocations, not content
        char *m = strstr (text [k], ", memory:") ;
        if (m != NULL) { char *e = strchr (m, '\n') ; memmove (m, e, strlen (e) + 1) ; }
    }
    assert_string_equal (text [0], text [1]) ;
    free (text [0]) ; free (text [1]) ;
    OK (GrB_Vector_free (&w)) ;
    OK (GrB_Vector_free (&r)) ;
    // Option_get (a variadic wrapper) sees a full vector
    w = resident ( ) ;
    int status = 0 ;
    OK (GxB_Vector_Option_get (w, GxB_SPARSITY_STATUS, &status)) ;
    assert_int_equal (status, GxB_FULL) ;
    bool wiso = true ;
    OK (GxB_Vector_iso (&wiso, w)) ;
    assert_false (wiso) ;
    double x [NV] ;
    values_of (w, x) ;
    assert_same (x, ref, NV) ;
    OK (GrB_Vector_free (&w)) ;
}

// A resident result used by a call the device path declines (a mask), by a
// call with an accumulator into it, and as both input and output.
void test_declined_and_aliased (void **state)
{
    (void) state ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    GrB_Vector w = resident ( ), z, zr ;
    OK (GrB_Vector_new (&z, GrB_FP64, NV)) ;
    OK (GrB_Vector_new (&zr, GrB_FP64, NV)) ;
    GrB_Vector r ;
    OK (GrB_Vector_new (&r, GrB_FP64, NV)) ;
    for (int i = 0 ; i < NV ; i++) OK (GrB_Vector_setElement_FP64 (r, ref [i], i)) ;
    // z<w> = A*w ; zr<r> = A*r on the CPU library
    OK (GrB_mxv (z, w, NULL, sr, A, w, NULL)) ;
    device_cpu ( ) ;
    OK (GrB_mxv (zr, r, NULL, sr, A, r, NULL)) ;
    device_on ( ) ;
    double x [NV], y [NV] ;
    values_of (z, x) ; values_of (zr, y) ;
    assert_same (x, y, NV) ;
    OK (GrB_Vector_free (&w)) ;
    // w += A*u into a resident w
    w = resident ( ) ;
    OK (GrB_mxv (w, NULL, GrB_PLUS_FP64, sr, A, u, NULL)) ;
    OK (GrB_Vector_free (&z)) ;
    OK (GrB_Vector_dup (&z, r)) ;
    device_cpu ( ) ;
    OK (GrB_mxv (z, NULL, GrB_PLUS_FP64, sr, A, u, NULL)) ;
    device_on ( ) ;
    values_of (w, x) ; values_of (z, y) ;
    assert_same (x, y, NV) ;
    OK (GrB_Vector_free (&w)) ;
    OK (GrB_Vector_free (&z)) ;
    // w = A*w (input and output)
    w = resident ( ) ;
    OK (GrB_mxv (w, NULL, NULL, sr, A, w, NULL)) ;
    device_cpu ( ) ;
    OK (GrB_mxv (r, NULL, NULL, sr, A, r, NULL)) ;
    device_on ( ) ;
    values_of (w, x) ; values_of (r, y) ;
    assert_same (x, y, NV) ;
    OK (GrB_Vector_free (&w)) ;
    OK (GrB_Vector_free (&r)) ;
    OK (GrB_Vector_free (&zr)) ;
}

//------------------------------------------------------------------------------
