//------------------------------------------------------------------------------
// tests/conformance_calls.c: sequences of changes, pending work
//------------------------------------------------------------------------------

#include "tests/conformance.h"

//------------------------------------------------------------------------------
// group: one operand through a sequence of changes (cache invalidation),
// pending work and zombies met by the offload
//------------------------------------------------------------------------------

static int case_sequence (const spec *s)
{
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    cu_gen g = { 0 } ;
    GrB_Matrix A = cu_matrix (&r, CU_FP64, 40, 30, 0.2, &g) ;
    GrB_Matrix B = cu_matrix (&r, CU_FP64, 30, 6, 1, &g) ;
    GrB_Matrix C0 ;
    CU_OK (GrB_Matrix_new (&C0, GrB_FP64, 40, 6)) ;
    cu_call c ;
    int problems = 0 ;
    char name [160] ;
    int step = 0 ;
    bool by_vector = s->op == CU_MXV ;
    GrB_Vector u = NULL, w0 = NULL ;
    if (by_vector)
    {
        u = cu_vector (&r, CU_FP64, 30, 1, &g) ;
        CU_OK (GrB_Vector_new (&w0, GrB_FP64, 40)) ;
    }

    #define SEQ_RUN(what, first)                                            \
    do {                                                                    \
        snprintf (name, sizeof name, "%s/%d_%s", s->name, ++step, what) ;   \
        cu_call_init (&c, name, by_vector ? CU_MXV : CU_MXM) ;              \
        c.C0 = by_vector ? (void *) w0 : (void *) C0 ;                      \
        c.A = A ; c.B = by_vector ? (void *) u : (void *) B ;               \
        c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ;                                \
        c.offload_first = (first) ;                                         \
        problems += cu_run (&c) ;                                           \
    } while (0)

    static GrB_Index I [1200], J [1200] ;
    static double X [1200] ;
    GrB_Index n = 1200 ;
    SEQ_RUN ("first", false) ;
    SEQ_RUN ("again", false) ;
    // change a value in place (same pattern, same arrays)
    CU_OK (GrB_Matrix_extractTuples_FP64 (I, J, X, &n, A)) ;
    CU_OK (GrB_Matrix_setElement_FP64 (A, X [0] + 5, I [0], J [0])) ;
    CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    SEQ_RUN ("value_changed", false) ;
    // a new entry left pending, met first by the offload
    CU_OK (GrB_Matrix_setElement_FP64 (A, 3, 39, 29)) ;
    CU_OK (GrB_Matrix_setElement_FP64 (A, -2, 0, 0)) ;
    SEQ_RUN ("pending_tuples", true) ;
    // a zombie (removed entry) met first by the offload
    CU_OK (GrB_Matrix_removeElement (A, I [1], J [1])) ;
    SEQ_RUN ("zombie", true) ;
    // a row assigned, then the whole matrix negated in place
    CU_OK (GrB_Matrix_assign_FP64 (A, NULL, NULL, 1.5, &I [2], 1, GrB_ALL, 30, NULL)) ;
    SEQ_RUN ("row_assigned", false) ;
    CU_OK (GrB_Matrix_apply (A, NULL, NULL, GrB_AINV_FP64, A, NULL)) ;
    SEQ_RUN ("negated_in_place", false) ;
    // the same values held by column, then as a bitmap
    CU_OK (GxB_Matrix_Option_set_INT32 (A, GxB_FORMAT, GxB_BY_COL)) ;
    SEQ_RUN ("by_col", false) ;
    CU_OK (GxB_Matrix_Option_set_INT32 (A, GxB_SPARSITY_CONTROL, GxB_BITMAP)) ;
    SEQ_RUN ("bitmap", false) ;
    // the dense operand changed
    if (by_vector) CU_OK (GrB_Vector_setElement_FP64 (u, 100, 3)) ;
    else CU_OK (GrB_Matrix_setElement_FP64 (B, 100, 3, 2)) ;
    SEQ_RUN ("dense_operand_changed", false) ;
    // A cleared and rebuilt under the same handle
    CU_OK (GrB_Matrix_clear (A)) ;
    SEQ_RUN ("cleared", false) ;
    for (int p = 0 ; p < 20 ; p++)
        CU_OK (GrB_Matrix_setElement_FP64 (A, (double) cu_int (&r, -4, 4),
            cu_int (&r, 0, 39), cu_int (&r, 0, 29))) ;
    SEQ_RUN ("refilled_pending", true) ;
    // freed, and a new matrix that may get the same address
    GrB_Matrix_free (&A) ;
    A = cu_matrix (&r, CU_FP64, 40, 30, 0.25, &g) ;
    SEQ_RUN ("new_object", false) ;
    // the output of an offloaded call used as the next call's input
    GrB_Matrix T ;
    CU_OK (GrB_Matrix_new (&T, GrB_FP64, 40, 30)) ;
    cu_device_host ( ) ;
    GrB_Matrix Bsq = cu_matrix (&r, CU_FP64, 30, 30, 1, &g) ;
    CU_OK (GrB_mxm (T, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, Bsq, NULL)) ;  // T<A> = A*Bsq
    cu_device_cpu ( ) ;
    GrB_Matrix_free (&Bsq) ;
    GrB_Matrix_free (&A) ;
    A = T ;
    SEQ_RUN ("output_as_input", false) ;
    #undef SEQ_RUN

    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C0) ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&w0) ;
    return problems ;
}

void group_sequence (void)
{
    spec s = spec_default ( ) ;
    s.custom = case_sequence ;
    add_spec (&s, "sequence/spmm") ;
    s.op = CU_MXV ;
    add_spec (&s, "sequence/mxv") ;
}

//------------------------------------------------------------------------------
// group: pending work (pending tuples, zombies, jumbled) in C, M and A
//------------------------------------------------------------------------------

// leave pending tuples and zombies in C (the same on both sides)
static void make_C_pending (void *out)
{
    GrB_Matrix C = (GrB_Matrix) out ;
    GrB_Index m, n ;
    GrB_Matrix_nrows (&m, C) ;
    GrB_Matrix_ncols (&n, C) ;
    for (GrB_Index k = 0 ; k < 7 && m > 0 && n > 0 ; k++)
    {
        GrB_Matrix_setElement_FP64 (C, (double) k - 3, (k * 5) % m, (k * 3) % n) ;
        GrB_Matrix_removeElement (C, (k * 7 + 1) % m, (k + 2) % n) ;
    }
}

static void make_w_pending (void *out)
{
    GrB_Vector w = (GrB_Vector) out ;
    GrB_Index n ;
    GrB_Vector_size (&n, w) ;
    for (GrB_Index k = 0 ; k < 5 && n > 0 ; k++)
    {
        GrB_Vector_setElement_FP64 (w, (double) k + 1, (k * 5) % n) ;
        GrB_Vector_removeElement (w, (k * 3 + 2) % n) ;
    }
}

static int case_pending (const spec *s)
{
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    cu_gen g = { 0 } ;
    int variant = s->acc ;      // (the variant travels in acc)
    int problems = 0 ;
    cu_call c ;
    if (variant <= 3)
    {
        // C with pending tuples and zombies: plain (pack), accumulate,
        // mask, mask + accumulate
        GrB_Matrix A = cu_matrix (&r, CU_FP64, 30, 20, 0.2, &g) ;
        GrB_Matrix B = cu_matrix (&r, CU_FP64, 20, 6, 1, &g) ;
        GrB_Matrix C = cu_matrix (&r, CU_FP64, 30, 6, 0.4, &g) ;
        GrB_Matrix M = cu_matrix (&r, CU_BOOL, 30, 6, 0.5, &g) ;
        cu_call_init (&c, s->name, CU_MXM) ;
        c.C0 = C ; c.A = A ; c.B = B ; c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ;
        c.prepare_out = make_C_pending ;
        if (variant & 1) c.accum = GrB_PLUS_FP64 ;
        if (variant & 2) c.M = M ;
        problems += cu_run (&c) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
        GrB_Matrix_free (&M) ;
    }
    else if (variant == 4)
    {
        // w with pending work, mxv, accumulate
        GrB_Matrix A = cu_matrix (&r, CU_FP64, 30, 20, 0.2, &g) ;
        GrB_Vector u = cu_vector (&r, CU_FP64, 20, 1, &g) ;
        GrB_Vector w = cu_vector (&r, CU_FP64, 30, 0.5, &g) ;
        cu_call_init (&c, s->name, CU_MXV) ;
        c.C0 = w ; c.A = A ; c.B = u ; c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ;
        c.prepare_out = make_w_pending ;
        problems += cu_run (&c) ;
        c.accum = GrB_MINUS_FP64 ;
        problems += cu_run (&c) ;
        GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
    }
    else if (variant == 5)
    {
        // a mask with pending tuples and zombies, met first by the offload
        for (int comp = 0 ; comp < 2 ; comp++)
        {
            GrB_Matrix A = cu_matrix (&r, CU_FP64, 30, 20, 0.2, &g) ;
            GrB_Matrix B = cu_matrix (&r, CU_FP64, 20, 6, 1, &g) ;
            GrB_Matrix C = cu_matrix (&r, CU_FP64, 30, 6, 0.4, &g) ;
            GrB_Matrix M = cu_matrix (&r, CU_INT32, 30, 6, 0.3, &g) ;
            for (int k = 0 ; k < 6 ; k++)
            {
                CU_OK (GrB_Matrix_setElement_INT32 (M, k % 2, (k * 7) % 30, k)) ;
                GrB_Matrix_removeElement (M, (k * 11 + 3) % 30, (k + 1) % 6) ;
            }
            cu_call_init (&c, s->name, CU_MXM) ;
            c.C0 = C ; c.M = M ; c.A = A ; c.B = B ;
            c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ; c.accum = GrB_PLUS_FP64 ;
            c.d = comp ? GrB_DESC_C : NULL ;
            c.offload_first = true ;
            problems += cu_run (&c) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
            GrB_Matrix_free (&M) ;
        }
    }
    else if (variant == 6)
    {
        // A the output of a CPU sparse x sparse product (saxpy leaves its
        // result jumbled), then given pending tuples: met first by the offload
        GrB_Matrix X = cu_matrix (&r, CU_FP64, 60, 40, 0.1, &g) ;
        GrB_Matrix Y = cu_matrix (&r, CU_FP64, 40, 50, 0.1, &g) ;
        GrB_Matrix A, B = cu_matrix (&r, CU_FP64, 50, 5, 1, &g) ;
        GrB_Matrix C ;
        CU_OK (GrB_Matrix_new (&A, GrB_FP64, 60, 50)) ;
        CU_OK (GrB_Matrix_new (&C, GrB_FP64, 60, 5)) ;
        cu_device_cpu ( ) ;
        CU_OK (GrB_mxm (A, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, NULL)) ;
        cu_call_init (&c, s->name, CU_MXM) ;
        c.C0 = C ; c.A = A ; c.B = B ; c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ;
        c.offload_first = true ;
        problems += cu_run (&c) ;
        CU_OK (GrB_mxm (A, NULL, NULL, GxB_PLUS_PAIR_FP64, X, Y, NULL)) ;
        CU_OK (GrB_Matrix_setElement_FP64 (A, 9, 59, 49)) ;
        CU_OK (GrB_Matrix_setElement_FP64 (A, -9, 0, 0)) ;
        c.offload_first = true ;
        c.d = NULL ;
        problems += cu_run (&c) ;
        GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ; GrB_Matrix_free (&A) ;
        GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    }
    return problems ;
}

void group_pending (void)
{
    static const char *names [7] = { "C_plain", "C_accum", "C_masked",
        "C_masked_accum", "w_mxv", "M_pending", "A_jumbled_pending" } ;
    for (int v = 0 ; v < 7 ; v++)
    {
        spec s = spec_default ( ) ;
        s.custom = case_pending ;
        s.acc = v ;
        add_spec (&s, "pending/%s", names [v]) ;
    }
    // T dense (every row of A has entries) under a valued non-complemented
    // mask with accumulate: the write-back must not hand T over held full
    spec s = spec_default ( ) ; s.dA = 0.5 ; s.dC = 0.5 ; s.mask = MASK_VALUED ;
    s.acc = CU_ACC_PLUS ; s.m = 40 ;
    add_spec (&s, "mask/spmm/T_dense_valued_accum") ;
    s.mask = MASK_STRUCT ; s.sC = GxB_FULL ; s.dC = 1 ;
    add_spec (&s, "mask/spmm/T_dense_struct_accum_C_full") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.dA = 0.5 ; s.dC = 0.5 ;
    s.mask = MASK_VALUED ; s.acc = CU_ACC_TIMES ;
    add_spec (&s, "mask/mxv/T_dense_valued_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.dB = 0.5 ; s.dC = 0.5 ;
    s.mask = MASK_STRUCT ; s.acc = CU_ACC_MIN ;
    add_spec (&s, "mask/vxm/T_dense_struct_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.dB = 0.6 ; s.dC = 0.5 ;
    s.mask = MASK_VALUED ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "mask/dxs/T_dense_valued_accum") ;
}
