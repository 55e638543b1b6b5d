//------------------------------------------------------------------------------
// tests/resident_products.c: products into outputs that were or are resident
//------------------------------------------------------------------------------

// Part of tests/test_resident (tests/resident_test.h): an output's own values
// array taking the download (the shadow), a resident output overwritten by a
// product written on the host, and a product kept as full and absent rows
// again on the same pattern.

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

//------------------------------------------------------------------------------
// outputs that held full values: their arrays take the download (the shadow)
//------------------------------------------------------------------------------

// got (read as a program would; under copy faults when faults, a read
// answered GrB_OUT_OF_MEMORY being tried again: the object is intact) and
// ref, the CPU library's twin, hold the same entries with the same values;
// with n > 0, n of them
void assert_twins (GrB_Matrix got, GrB_Matrix ref, bool faults, GrB_Index n)
{
    static GrB_Index I [2][NV * KB], J [2][NV * KB] ;
    static double X [2][NV * KB] ;
    GrB_Index nn [2] ;
    for (int d = 0 ; d < 2 ; d++)
    {
        GrB_Matrix T = (d == 0) ? got : ref ;
        nn [d] = NV * KB ;
        if (d == 0 && faults) set ("FAULT", "copy:0.7") ;
        GrB_Info info = GrB_Matrix_extractTuples_FP64 (I [d], J [d], X [d], &nn [d], T) ;
        set ("FAULT", "") ;
        if (info == GrB_OUT_OF_MEMORY)
        {
            nn [d] = NV * KB ;
            info = GrB_Matrix_extractTuples_FP64 (I [d], J [d], X [d], &nn [d], T) ;
        }
        OK (info) ;
        if (n > 0) assert_int_equal (nn [d], n) ;
    }
    assert_int_equal (nn [0], nn [1]) ;
    assert_memory_equal (I [0], I [1], nn [0] * sizeof (GrB_Index)) ;
    assert_memory_equal (J [0], J [1], nn [0] * sizeof (GrB_Index)) ;
    assert_same (X [0], X [1], nn [0]) ;
}

// C full on the host (by row or by column), then C = A*B, C = A*C (aliased),
// Y = A*C, C = A*Y, ... with GrB_wait between; read back (under copy faults
// for half of the rounds): the CPU library's values, and nothing came down
// before the reads but C for C = A*C.
void test_shadow (void **state)
{
    (void) state ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    GrB_Matrix B = full_matrix (NV, KB) ;
    for (int round = 0 ; round < 4 ; round++)
    {
        const bool by_col = (round % 2) ;
        GrB_Matrix C [2], Y [2] ;
        uint64_t kept = stats ( ).resident_kept, m = 0 ;
        for (int d = 0 ; d < 2 ; d++)
        {
            if (d == 0) device_on ( ) ; else device_cpu ( ) ;
            OK (GrB_Matrix_dup (&C [d], B)) ;
            OK (GrB_Matrix_dup (&Y [d], B)) ;
            for (int k = 0 ; k < 2 ; k++)
            {
                GrB_Matrix T = (k == 0) ? C [d] : Y [d] ;
                if (by_col) OK (GxB_Matrix_Option_set (T, GxB_FORMAT, GxB_BY_COL)) ;
                int status = 0 ;
                OK (GxB_Matrix_Option_get (T, GxB_SPARSITY_STATUS, &status)) ;
                assert_int_equal (status, GxB_FULL) ;
            }
            if (d == 0) m = stats ( ).materialised ;
            OK (GrB_mxm (C [d], NULL, NULL, sr, A, B, NULL)) ;
            OK (GrB_mxm (C [d], NULL, NULL, sr, A, C [d], NULL)) ;
            for (int k = 0 ; k < 4 ; k++)
            {
                OK (GrB_mxm (Y [d], NULL, NULL, sr, A, C [d], NULL)) ;
                OK (GrB_Matrix_wait (Y [d], GrB_MATERIALIZE)) ;
                GrB_Matrix T = C [d] ; C [d] = Y [d] ; Y [d] = T ;
            }
        }
        device_on ( ) ;
        if (!by_col)
        {
            // (by column the product may be written on the host instead;
            // C = A*C brings its operand C down: an output that is also an
            // input is not kept)
            expect_kept (kept) ;
            assert_int_equal (stats ( ).materialised, m + 1) ;
        }
        assert_twins (C [0], C [1], round >= 2, NV * KB) ;
        assert_twins (Y [0], Y [1], round >= 2, NV * KB) ;
        for (int d = 0 ; d < 2 ; d++) { GrB_Matrix_free (&C [d]) ; GrB_Matrix_free (&Y [d]) ; }
    }
    GrB_Matrix_free (&B) ;
}

//------------------------------------------------------------------------------
// a resident output overwritten by a product written on the host
//------------------------------------------------------------------------------

// C = A*B is kept; then C = E*B (E: A with row 0 empty, so the product is
// written on the host) drops C's device copy unread; C += E*B and C = E*C
// read C's values, which come down first.  Each C equals the CPU library's.
void test_output_dropped (void **state)
{
    (void) state ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    GrB_Matrix B = full_matrix (NV, KB), E ;
    OK (GrB_Matrix_dup (&E, A)) ;
    for (GrB_Index j = 0 ; j < NV ; j++) OK (GrB_Matrix_removeElement (E, 0, j)) ;
    OK (GrB_Matrix_wait (E, GrB_MATERIALIZE)) ;
    for (int how = 0 ; how < 3 ; how++)
    {
        GrB_Matrix C [2] ;
        uint64_t kept = stats ( ).resident_kept ;
        for (int d = 0 ; d < 2 ; d++)
        {
            if (d == 0) device_on ( ) ; else device_cpu ( ) ;
            OK (GrB_Matrix_new (&C [d], GrB_FP64, NV, KB)) ;
            OK (GrB_mxm (C [d], NULL, NULL, sr, A, B, NULL)) ;
        }
        device_on ( ) ;
        expect_kept (kept) ;
        uint64_t m = stats ( ).materialised ;
        for (int d = 0 ; d < 2 ; d++)
        {
            if (d == 0) device_on ( ) ; else device_cpu ( ) ;
            if (how == 0) OK (GrB_mxm (C [d], NULL, NULL, sr, E, B, NULL)) ;
            if (how == 1) OK (GrB_mxm (C [d], NULL, GrB_PLUS_FP64, sr, E, B, NULL)) ;
            if (how == 2) OK (GrB_mxm (C [d], NULL, NULL, sr, E, C [d], NULL)) ;
        }
        device_on ( ) ;
        assert_int_equal (stats ( ).materialised, m + (how == 0 ? 0 : 1)) ;
        assert_twins (C [0], C [1], false, 0) ;
        for (int d = 0 ; d < 2 ; d++) GrB_Matrix_free (&C [d]) ;
    }
    GrB_Matrix_free (&E) ;
    GrB_Matrix_free (&B) ;
}

//------------------------------------------------------------------------------
// a product kept as full and absent rows, again on the same pattern
//------------------------------------------------------------------------------

// C = E*B (E: A with rows 0 and 5 empty: C is kept as full and absent rows),
// C = E*B2, C = E*B (the same pattern: C keeps its placeholder, only the
// values change; GRBGPU_VERBOSE=2 says "keeps its placeholder"), then read:
// the CPU library's values and structure; then C = E*B2 and C = F*B (F:
// other rows empty: a new placeholder), read again.  Nothing comes down
// before the reads.
void test_rows_again (void **state)
{
    (void) state ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    device_cpu ( ) ;
    GrB_Matrix B [2] = { full_matrix (NV, KB), NULL }, E, F ;
    OK (GrB_Matrix_new (&B [1], GrB_FP64, NV, KB)) ;
    OK (GrB_Matrix_apply_BinaryOp2nd_FP64 (B [1], NULL, NULL, GrB_MINUS_FP64, B [0], 0.25, NULL)) ;
    OK (GrB_Matrix_dup (&E, A)) ;
    OK (GrB_Matrix_dup (&F, A)) ;
    for (GrB_Index j = 0 ; j < NV ; j++)
    {
        OK (GrB_Matrix_removeElement (E, 0, j)) ; OK (GrB_Matrix_removeElement (E, 5, j)) ;
        OK (GrB_Matrix_removeElement (F, 1, j)) ;
    }
    OK (GrB_Matrix_wait (E, GrB_MATERIALIZE)) ;
    OK (GrB_Matrix_wait (F, GrB_MATERIALIZE)) ;
    GrB_Matrix C [2] ;
    for (int d = 0 ; d < 2 ; d++) OK (GrB_Matrix_new (&C [d], GrB_FP64, NV, KB)) ;
    // (S, X) of each step; a read after steps 2 and 4
    GrB_Matrix Ss [5] = { E, E, E, E, F } ;
    const int xs [5] = { 0, 1, 0, 1, 0 } ;
    uint64_t m = stats ( ).materialised ;
    for (int step = 0 ; step < 5 ; step++)
    {
        uint64_t kept = stats ( ).resident_kept ;
        for (int d = 0 ; d < 2 ; d++)
        {
            if (d == 0) device_on ( ) ; else device_cpu ( ) ;
            OK (GrB_mxm (C [d], NULL, NULL, sr, Ss [step], B [xs [step]], NULL)) ;
        }
        device_on ( ) ;
        expect_kept (kept) ;
        assert_int_equal (stats ( ).materialised, m) ;
        GrB_Index nv [2] ;
        for (int d = 0 ; d < 2 ; d++) OK (GrB_Matrix_nvals (&nv [d], C [d])) ;
        assert_int_equal (nv [0], nv [1]) ;
        if (step == 2 || step == 4)
        {
            assert_twins (C [0], C [1], false, 0) ;
            m = stats ( ).materialised ;
        }
    }
    for (int d = 0 ; d < 2 ; d++) GrB_Matrix_free (&C [d]) ;
    GrB_Matrix_free (&E) ; GrB_Matrix_free (&F) ;
    GrB_Matrix_free (&B [0]) ; GrB_Matrix_free (&B [1]) ;
}
