//------------------------------------------------------------------------------
// tests/review_values.c: test_review's cases 1-5
//------------------------------------------------------------------------------

#include "tests/review_test.h"

//------------------------------------------------------------------------------
// 1. typecasting special FP values into every integer semiring type
//------------------------------------------------------------------------------

void test_cast_specials (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (20, 12, v_special) ;
    GrB_Matrix B = dense_fp64 (12, 5, v_special) ;
    GrB_Matrix A32 ;
    OK (GrB_Matrix_new (&A32, GrB_FP32, 20, 12)) ;
    OK (GrB_Matrix_assign (A32, NULL, NULL, A, GrB_ALL, 20, GrB_ALL, 12, NULL)) ;
    struct { GrB_Semiring s ; GrB_Type t ; const char *name ; } sr [ ] =
    {
        { GxB_MAX_FIRST_INT32, GrB_INT32, "MAX_FIRST_INT32" },
        { GxB_MIN_FIRST_INT64, GrB_INT64, "MIN_FIRST_INT64" },
        { GxB_MAX_FIRST_UINT32, GrB_UINT32, "MAX_FIRST_UINT32" },
        { GxB_MIN_FIRST_UINT64, GrB_UINT64, "MIN_FIRST_UINT64" },
        { GxB_MAX_SECOND_UINT64, GrB_UINT64, "MAX_SECOND_UINT64" },
        { GxB_MIN_SECOND_INT64, GrB_INT64, "MIN_SECOND_INT64" },
        { GxB_LOR_FIRST_BOOL, GrB_BOOL, "LOR_FIRST_BOOL" },
        { GxB_LAND_SECOND_BOOL, GrB_BOOL, "LAND_SECOND_BOOL" },
        { GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, "LOR_LAND_BOOL" },
        { GxB_PLUS_FIRST_FP32, GrB_FP32, "PLUS_FIRST_FP32" },
    } ;
    for (size_t k = 0 ; k < sizeof (sr) / sizeof (sr [0]) ; k++)
    {
        for (int a32 = 0 ; a32 < 2 ; a32++)
        {
            GrB_Matrix C0 ;
            OK (GrB_Matrix_new (&C0, sr [k].t, 20, 5)) ;
            ctx_t c = { NULL, a32 ? A32 : A, B, NULL, sr [k].s, NULL, 0 } ;
            char name [100] ;
            snprintf (name, sizeof name, "cast_specials/%s/A_%s", sr [k].name, a32 ? "FP32" : "FP64") ;
            bad += both (name, C0, do_call, &c, NULL, true) ;
            GrB_Matrix_free (&C0) ;
        }
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&A32) ; GrB_Matrix_free (&B) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 2. NaN and signed zeros through the FP MIN / MAX monoids and multiplies
//------------------------------------------------------------------------------

void test_nan_semirings (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (24, 16, v_nan_some) ;
    GrB_Matrix B = dense_fp64 (16, 6, v_nan_some) ;
    struct { GrB_Semiring s ; const char *name ; } sr [ ] =
    {
        { GrB_MIN_PLUS_SEMIRING_FP64, "MIN_PLUS_FP64" },
        { GrB_MAX_PLUS_SEMIRING_FP64, "MAX_PLUS_FP64" },
        { GrB_MIN_TIMES_SEMIRING_FP64, "MIN_TIMES_FP64" },
        { GrB_MAX_TIMES_SEMIRING_FP64, "MAX_TIMES_FP64" },
        { GxB_MIN_FIRST_FP64, "MIN_FIRST_FP64" },
        { GxB_MAX_SECOND_FP64, "MAX_SECOND_FP64" },
        { GrB_MAX_MIN_SEMIRING_FP64, "MAX_MIN_FP64" },
        { GrB_MIN_MAX_SEMIRING_FP64, "MIN_MAX_FP64" },
        { GxB_PLUS_MIN_FP64, "PLUS_MIN_FP64" },
        { GxB_MIN_LAND_FP64, "MIN_LAND_FP64" },
        { GxB_TIMES_LOR_FP64, "TIMES_LOR_FP64" },
        { GxB_MIN_FIRST_FP32, "MIN_FIRST_FP32" },
    } ;
    for (size_t k = 0 ; k < sizeof (sr) / sizeof (sr [0]) ; k++)
    {
        GrB_Matrix C0 ;
        OK (GrB_Matrix_new (&C0, GrB_FP64, 24, 6)) ;
        ctx_t c = { NULL, A, B, NULL, sr [k].s, NULL, 0 } ;
        char name [100] ;
        snprintf (name, sizeof name, "nan/spmm/%s", sr [k].name) ;
        bad += both (name, C0, do_call, &c, NULL, true) ;
        GrB_Matrix_free (&C0) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 3. in-place accumulation into a full C: NaN, signed zero, iso C, C held
//    sparse, FIRST / SECOND
//------------------------------------------------------------------------------

static int spars_for_prep = 0 ;
static void prep_sparsity (GrB_Matrix C)
{
    if (spars_for_prep) OK (GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, spars_for_prep)) ;
}

void test_inplace_accum (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (24, 16, v_small) ;
    GrB_Matrix An = sparse_fp64 (24, 16, v_nan_some) ;
    GrB_Matrix B = dense_fp64 (16, 6, v_nan_some) ;
    GrB_Matrix Cn = dense_fp64 (24, 6, v_nan_some) ;
    GrB_Matrix Ciso ;
    OK (GrB_Matrix_new (&Ciso, GrB_FP64, 24, 6)) ;
    OK (GrB_Matrix_assign_FP64 (Ciso, NULL, NULL, NAN, GrB_ALL, 24, GrB_ALL, 6, NULL)) ;
    OK (GrB_Matrix_wait (Ciso, GrB_MATERIALIZE)) ;
    struct { GrB_BinaryOp op ; const char *name ; } acc [ ] =
    {
        { GrB_MIN_FP64, "MIN" }, { GrB_MAX_FP64, "MAX" }, { GrB_PLUS_FP64, "PLUS" },
        { GrB_MINUS_FP64, "MINUS" }, { GrB_TIMES_FP64, "TIMES" },
        { GrB_FIRST_FP64, "FIRST" }, { GrB_SECOND_FP64, "SECOND" },
    } ;
    const int sp [ ] = { 0, GxB_SPARSE, GxB_BITMAP, GxB_HYPERSPARSE } ;
    for (size_t k = 0 ; k < sizeof (acc) / sizeof (acc [0]) ; k++)
    {
        for (int s = 0 ; s < 4 ; s++)
        {
            for (int which = 0 ; which < 3 ; which++)
            {
                ctx_t c = { NULL, which == 1 ? An : A, B, acc [k].op,
                    GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 0 } ;
                if (which == 2) c.s = GrB_MIN_PLUS_SEMIRING_FP64 ;
                char name [120] ;
                spars_for_prep = sp [s] ;
                snprintf (name, sizeof name, "inplace/%s/C_%s/%s", acc [k].name,
                    sp [s] == 0 ? "auto" : sp [s] == GxB_SPARSE ? "sparse" :
                    sp [s] == GxB_BITMAP ? "bitmap" : "hyper",
                    which == 0 ? "T_finite" : which == 1 ? "T_nan" : "MIN_PLUS") ;
                bad += both (name, Cn, do_call, &c, prep_sparsity, true) ;
                snprintf (name, sizeof name, "inplace/%s/C_iso_nan_%s/%s", acc [k].name,
                    sp [s] == 0 ? "auto" : sp [s] == GxB_SPARSE ? "sparse" :
                    sp [s] == GxB_BITMAP ? "bitmap" : "hyper",
                    which == 0 ? "T_finite" : which == 1 ? "T_nan" : "MIN_PLUS") ;
                bad += both (name, Ciso, do_call, &c, prep_sparsity, true) ;
            }
        }
    }
    spars_for_prep = 0 ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&An) ; GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&Cn) ; GrB_Matrix_free (&Ciso) ;
    assert_int_equal (bad, 0) ;
}

// FP32 in place, MIN / MAX with NaN (fminf / fmaxf)
void test_inplace_accum_fp32_vec (void **state)
{
    (void) state ;
    int bad = 0 ;
    GrB_Matrix A = sparse_fp64 (30, 16, v_nan_some) ;   // some rows empty? no: check
    GrB_Vector u, w0 ;
    OK (GrB_Vector_new (&u, GrB_FP32, 16)) ;
    for (int i = 0 ; i < 16 ; i++) OK (GrB_Vector_setElement_FP64 (u, v_nan_some (i, 1), i)) ;
    OK (GrB_Vector_new (&w0, GrB_FP32, 30)) ;
    for (int i = 0 ; i < 30 ; i++) OK (GrB_Vector_setElement_FP64 (w0, v_nan_some (i, 2), i)) ;
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    OK (GrB_Vector_wait (w0, GrB_MATERIALIZE)) ;
    GrB_BinaryOp ops [ ] = { GrB_MIN_FP32, GrB_MAX_FP32, GrB_MINUS_FP32 } ;
    for (int k = 0 ; k < 3 ; k++)
    {
        ctx_t c = { NULL, A, (GrB_Matrix) u, ops [k], GrB_PLUS_TIMES_SEMIRING_FP32, NULL, 1 } ;
        char name [80] ;
        snprintf (name, sizeof name, "inplace/mxv_fp32/%s", k == 0 ? "MIN" : k == 1 ? "MAX" : "MINUS") ;
        bad += both (name, (GrB_Matrix) w0, do_call, &c, NULL, true) ;
        ctx_t c2 = { NULL, (GrB_Matrix) u, A, ops [k], GrB_PLUS_TIMES_SEMIRING_FP32, GrB_DESC_T1, 2 } ;
        GrB_Vector w1 ;
        OK (GrB_Vector_new (&w1, GrB_FP32, 30)) ;
        OK (GrB_Vector_assign_FP32 (w1, NULL, NULL, NAN, GrB_ALL, 30, NULL)) ;
        snprintf (name, sizeof name, "inplace/vxm_fp32_isoNaN/%s", k == 0 ? "MIN" : k == 1 ? "MAX" : "MINUS") ;
        bad += both (name, (GrB_Matrix) w1, do_call, &c2, NULL, true) ;
        GrB_Vector_free (&w1) ;
    }
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w0) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 4. the global format set to by column (T is created by column then)
//------------------------------------------------------------------------------

void test_global_bycol (void **state)
{
    (void) state ;
    int bad = 0 ;
    OK (GxB_Global_Option_set (GxB_FORMAT, GxB_BY_COL)) ;
    GrB_Matrix A = sparse_fp64 (20, 12, v_small) ;
    GrB_Matrix B = dense_fp64 (12, 7, v_small) ;
    GrB_Matrix D = dense_fp64 (20, 12, v_small) ;
    GrB_Matrix M = sparse_fp64 (20, 7, v_small) ;
    GrB_Matrix C0, C1 ;
    OK (GrB_Matrix_new (&C0, GrB_FP64, 20, 7)) ;
    OK (GrB_Matrix_new (&C1, GrB_INT32, 20, 7)) ;
    ctx_t c = { NULL, A, B, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, 0 } ;
    bad += both ("bycol_global/spmm_plain", C0, do_call, &c, NULL, true) ;
    bad += both ("bycol_global/spmm_C_int32", C1, do_call, &c, NULL, true) ;
    c.M = M ;
    bad += both ("bycol_global/spmm_masked", C0, do_call, &c, NULL, true) ;
    // SDDMM: C<M> = D * B'' ... D (20x12) * B (12x7)
    c.A = D ;
    bad += both ("bycol_global/sddmm", C0, do_call, &c, NULL, true) ;
    c.M = NULL ;
    bad += both ("bycol_global/gemm", C0, do_call, &c, NULL, true) ;
    c.accum = GrB_PLUS_FP64 ;
    GrB_Matrix Cf = dense_fp64 (20, 7, v_small) ;
    bad += both ("bycol_global/gemm_accum_full_C", Cf, do_call, &c, NULL, true) ;
    OK (GxB_Global_Option_set (GxB_FORMAT, GxB_BY_ROW)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&D) ;
    GrB_Matrix_free (&M) ; GrB_Matrix_free (&C0) ; GrB_Matrix_free (&C1) ;
    GrB_Matrix_free (&Cf) ;
    assert_int_equal (bad, 0) ;
}

//------------------------------------------------------------------------------
// 5. vector outputs: masks with accumulate, full w, A with empty rows
//------------------------------------------------------------------------------


void test_vector_outputs (void **state)
{
    (void) state ;
    int bad = 0 ;
    // A with rows 0,3,6.. all empty (no entries), int values
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_INT32, 30, 10)) ;
    for (int i = 0 ; i < 30 ; i++)
        for (int j = 0 ; j < 10 ; j++)
            if (i % 3 != 0 && (i + j) % 2 == 0) OK (GrB_Matrix_setElement_INT32 (A, i - j, i, j)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    GrB_Vector u, w, m ;
    OK (GrB_Vector_new (&u, GrB_INT32, 10)) ;
    for (int i = 0 ; i < 10 ; i++) OK (GrB_Vector_setElement_INT32 (u, 3 - i, i)) ;
    OK (GrB_Vector_new (&w, GrB_INT32, 30)) ;
    for (int i = 0 ; i < 30 ; i++) OK (GrB_Vector_setElement_INT32 (w, 100 + i, i)) ;
    OK (GrB_Vector_new (&m, GrB_BOOL, 30)) ;
    for (int i = 0 ; i < 30 ; i += 2) OK (GrB_Vector_setElement_BOOL (m, i % 4 == 0, i)) ;
    GrB_BinaryOp ops [ ] = { GrB_MINUS_INT32, GrB_TIMES_INT32, GrB_SECOND_INT32, GrB_MIN_INT32 } ;
    for (int k = 0 ; k < 4 ; k++)
    {
        ctx_t c = { NULL, A, (GrB_Matrix) u, ops [k], GrB_PLUS_TIMES_SEMIRING_INT32, NULL, 1 } ;
        char name [80] ;
        snprintf (name, sizeof name, "vec/mxv_full_w_empty_rows/acc%d", k) ;
        bad += both (name, (GrB_Matrix) w, do_call, &c, NULL, true) ;
        c.M = (GrB_Matrix) m ;
        snprintf (name, sizeof name, "vec/mxv_full_w_masked/acc%d", k) ;
        bad += both (name, (GrB_Matrix) w, do_call, &c, NULL, true) ;
        c.d = GrB_DESC_RSC ;
        snprintf (name, sizeof name, "vec/mxv_full_w_masked_RSC/acc%d", k) ;
        bad += both (name, (GrB_Matrix) w, do_call, &c, NULL, true) ;
    }
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w) ; GrB_Vector_free (&m) ;
    assert_int_equal (bad, 0) ;
}
