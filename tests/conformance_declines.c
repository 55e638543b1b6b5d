//------------------------------------------------------------------------------
// tests/conformance_declines.c: monoids, declined calls, invalid args
//------------------------------------------------------------------------------

#include "tests/conformance.h"

//------------------------------------------------------------------------------
// group: user-built monoids of built-in operators, descriptors' other fields
//------------------------------------------------------------------------------

static int case_monoid (const spec *s)
{
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    cu_gen g = { 0 } ;
    int variant = s->acc ;
    GrB_Monoid mon = NULL ;
    int expect ;
    switch (variant)
    {
        case 0:     // PLUS with the standard identity: the same monoid
            CU_OK (GrB_Monoid_new_INT64 (&mon, GrB_PLUS_INT64, 0)) ; break ;
        case 1:     // PLUS with identity 1: another monoid
            CU_OK (GrB_Monoid_new_INT64 (&mon, GrB_PLUS_INT64, 1)) ; break ;
        case 2:     // MAX without a terminal value: the same results
            CU_OK (GrB_Monoid_new_INT64 (&mon, GrB_MAX_INT64, INT64_MIN)) ; break ;
        default:    // MAX with a terminal value 2 (the library may stop early)
            CU_OK (GxB_Monoid_terminal_new_INT64 (&mon, GrB_MAX_INT64, INT64_MIN, 2)) ; break ;
    }
    // SuiteSparse 7.4 keeps the standard identity and terminal of a built-in
    // operator whatever the user gave (GxB_Monoid_identity says so): such a
    // monoid is the standard one and is offloaded; only a monoid that really
    // has other values must be declined
    int64_t id = 0, term = 0 ;
    bool has_term = false ;
    CU_OK (GxB_Monoid_identity (&id, mon)) ;
    CU_OK (GxB_Monoid_terminal (&has_term, &term, mon)) ;
    bool standard = (variant <= 1) ? (id == 0 && !has_term)
        : (id == INT64_MIN && (!has_term || term == INT64_MAX)) ;
    expect = standard ? CU_EXPECT_OFFLOAD : CU_EXPECT_DECLINE ;
    GrB_Semiring sr ;
    CU_OK (GrB_Semiring_new (&sr, mon, GrB_TIMES_INT64)) ;
    GrB_Matrix A = cu_matrix (&r, CU_INT64, 25, 15, 0.3, &g) ;
    GrB_Matrix B = cu_matrix (&r, CU_INT64, 15, 6, 1, &g) ;
    GrB_Matrix C ;
    CU_OK (GrB_Matrix_new (&C, GrB_INT64, 25, 6)) ;
    cu_call c ;
    cu_call_init (&c, s->name, CU_MXM) ;
    c.C0 = C ; c.A = A ; c.B = B ; c.s = sr ; c.expect = expect ;
    int problems = cu_run (&c) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Semiring_free (&sr) ; GrB_Monoid_free (&mon) ;
    return problems ;
}

static int case_descriptor (const spec *s)
{
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    cu_gen g = { 0 } ;
    GrB_Matrix A = cu_matrix (&r, CU_FP64, 25, 15, 0.3, &g) ;
    GrB_Matrix B = cu_matrix (&r, CU_FP64, 15, 6, 1, &g) ;
    GrB_Matrix C = cu_matrix (&r, CU_FP64, 25, 6, 0.3, &g) ;
    GrB_Matrix M = cu_matrix (&r, CU_BOOL, 25, 6, 0.5, &g) ;
    GrB_Descriptor d ;
    CU_OK (GrB_Descriptor_new (&d)) ;
    // fields that choose how, not what: the answer is the same
    CU_OK (GxB_Desc_set_INT32 (d, GxB_AxB_METHOD, GxB_AxB_DOT)) ;
    CU_OK (GxB_Desc_set_INT32 (d, GxB_SORT, 1)) ;
    CU_OK (GxB_Desc_set_INT32 (d, GxB_DESCRIPTOR_NTHREADS, 1)) ;
    cu_call c ;
    cu_call_init (&c, s->name, CU_MXM) ;
    c.C0 = C ; c.A = A ; c.B = B ; c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ; c.d = d ;
    int problems = cu_run (&c) ;
    // the predefined descriptors: replace + structural complement
    cu_call_init (&c, "descriptor/GrB_DESC_RSC", CU_MXM) ;
    c.C0 = C ; c.M = M ; c.A = A ; c.B = B ; c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    c.d = GrB_DESC_RSC ; c.accum = GrB_PLUS_FP64 ;
    problems += cu_run (&c) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Matrix_free (&M) ; GrB_Descriptor_free (&d) ;
    return problems ;
}

void group_monoids (void)
{
    static const char *names [4] = { "PLUS_identity_0", "PLUS_identity_1",
        "MAX_no_terminal", "MAX_terminal_2" } ;
    for (int v = 0 ; v < 4 ; v++)
    {
        spec s = spec_default ( ) ;
        s.custom = case_monoid ;
        s.acc = v ;
        add_spec (&s, "monoid/user_%s", names [v]) ;
    }
    spec s = spec_default ( ) ;
    s.custom = case_descriptor ;
    add_spec (&s, "descriptor/method_sort_nthreads") ;
    // a hypersparse A with few non-empty rows (the offload may decline it)
    s = spec_default ( ) ; s.m = 400 ; s.k = 30 ; s.dA = 0.002 ;
    s.sA = GxB_HYPERSPARSE ; s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "storage/spmm/A_hyper_few_rows") ;
}

//------------------------------------------------------------------------------
// group: calls grbgpu must decline (the CPU library answers)
//------------------------------------------------------------------------------

// a user-defined type: a pair, with its own plus and times
// no padding: results are compared byte for byte, and padding bytes would be
// uninitialised (valgrind) and could differ between the two sides
typedef struct { double x ; int32_t tag ; int32_t zero ; } pair_t ;

static void pair_plus (void *z, const void *x, const void *y)
{
    const pair_t *a = x, *b = y ;
    pair_t r = { a->x + b->x, a->tag > b->tag ? a->tag : b->tag, 0 } ;
    *(pair_t *) z = r ;
}

static void pair_times (void *z, const void *x, const void *y)
{
    const pair_t *a = x, *b = y ;
    pair_t r = { a->x * b->x, a->tag + b->tag, 0 } ;
    *(pair_t *) z = r ;
}

static void fp64_times_plus_one (void *z, const void *x, const void *y)
{
    *(double *) z = *(const double *) x * *(const double *) y + 1 ;
}

static GrB_Type pair_type = NULL ;
static GrB_Semiring pair_semiring = NULL ;
static GrB_BinaryOp pair_plus_op = NULL ;
static GrB_Semiring user_op_semiring = NULL ;
static GrB_BinaryOp user_op = NULL ;

static void make_user_objects (void)
{
    if (pair_type != NULL) return ;
    GrB_BinaryOp times ;
    GrB_Monoid mon ;
    pair_t zero = { 0, 0, 0 } ;
    CU_OK (GrB_Type_new (&pair_type, sizeof (pair_t))) ;
    CU_OK (GrB_BinaryOp_new (&pair_plus_op, pair_plus, pair_type, pair_type, pair_type)) ;
    CU_OK (GrB_BinaryOp_new (&times, pair_times, pair_type, pair_type, pair_type)) ;
    CU_OK (GrB_Monoid_new_UDT (&mon, pair_plus_op, &zero)) ;
    CU_OK (GrB_Semiring_new (&pair_semiring, mon, times)) ;
    CU_OK (GrB_BinaryOp_new (&user_op, fp64_times_plus_one, GrB_FP64, GrB_FP64, GrB_FP64)) ;
    CU_OK (GrB_Semiring_new (&user_op_semiring, GrB_PLUS_MONOID_FP64, user_op)) ;
    // the monoid and times op stay alive with the semiring until exit
}

static GrB_Matrix pair_matrix (cu_rng *r, uint64_t m, uint64_t n, double density)
{
    GrB_Matrix A ;
    CU_OK (GrB_Matrix_new (&A, pair_type, m, n)) ;
    for (uint64_t i = 0 ; i < m ; i++)
        for (uint64_t j = 0 ; j < n ; j++)
            if (density >= 1 || cu_unif (r) < density)
            {
                pair_t v = { (double) cu_int (r, -3, 3), (int32_t) cu_int (r, 0, 9), 0 } ;
                CU_OK (GrB_Matrix_setElement_UDT (A, &v, i, j)) ;
            }
    CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static int case_user_type (const spec *s)
{
    make_user_objects ( ) ;
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    GrB_Matrix A = pair_matrix (&r, 15, 12, 0.3), B = pair_matrix (&r, 12, 6, 1) ;
    GrB_Matrix C = pair_matrix (&r, 15, 6, 0.3) ;
    cu_call c ;
    cu_call_init (&c, s->name, CU_MXM) ;
    c.C0 = C ; c.A = A ; c.B = B ; c.s = pair_semiring ;
    c.accum = (s->acc) ? pair_plus_op : NULL ;
    c.expect = CU_EXPECT_DECLINE ;
    int problems = cu_run (&c) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    return problems ;
}

static int case_user_op (const spec *s)
{
    make_user_objects ( ) ;
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    GrB_Matrix A = cu_matrix (&r, CU_FP64, 15, 12, 0.3, NULL) ;
    GrB_Matrix B = cu_matrix (&r, CU_FP64, 12, 6, 1, NULL) ;
    GrB_Matrix C ;
    CU_OK (GrB_Matrix_new (&C, GrB_FP64, 15, 6)) ;
    cu_call c ;
    cu_call_init (&c, s->name, CU_MXM) ;
    c.C0 = C ; c.A = A ; c.B = B ; c.s = user_op_semiring ;
    c.expect = CU_EXPECT_DECLINE ;
    int problems = cu_run (&c) ;
    // and a user-defined accumulate with a supported semiring
    cu_call_init (&c, "decline/user_accum", CU_MXM) ;
    c.C0 = C ; c.A = A ; c.B = B ; c.s = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    c.accum = user_op ;
    c.expect = CU_EXPECT_ANY ;
    problems += cu_run (&c) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    return problems ;
}

static int case_complex (const spec *s)
{
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    GrB_Matrix A, B, C ;
    CU_OK (GrB_Matrix_new (&A, GxB_FC64, 14, 9)) ;
    CU_OK (GrB_Matrix_new (&B, GxB_FC64, 9, 5)) ;
    CU_OK (GrB_Matrix_new (&C, GxB_FC64, 14, 5)) ;
    for (int i = 0 ; i < 14 ; i++)
        for (int j = 0 ; j < 9 ; j++)
            if (cu_unif (&r) < 0.3)
                CU_OK (GxB_Matrix_setElement_FC64 (A, GxB_CMPLX ((double) cu_int (&r, -3, 3),
                    (double) cu_int (&r, -3, 3)), i, j)) ;
    for (int i = 0 ; i < 9 ; i++)
        for (int j = 0 ; j < 5 ; j++)
            CU_OK (GxB_Matrix_setElement_FC64 (B, GxB_CMPLX ((double) cu_int (&r, -3, 3),
                (double) cu_int (&r, -3, 3)), i, j)) ;
    cu_call c ;
    cu_call_init (&c, s->name, CU_MXM) ;
    c.C0 = C ; c.A = A ; c.B = B ; c.s = GxB_PLUS_TIMES_FC64 ;
    c.expect = CU_EXPECT_DECLINE ;
    int problems = cu_run (&c) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    return problems ;
}

void group_declines (void)
{
    spec s ;
    // sparse x sparse
    s = spec_default ( ) ; s.dB = 0.3 ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "decline/sparse_x_sparse") ;
    s.mask = MASK_VALUED ; s.acc = CU_ACC_PLUS ; s.dC = 0.4 ; s.st = CU_INT32 ;
    add_spec (&s, "decline/sparse_x_sparse_masked_accum") ;
    // a B with only its first row missing is not dense: sparse x sparse
    s = spec_default ( ) ; s.m = 30 ; s.k = 30 ; s.n = 30 ; s.dB = 1 - 1e-12 ;
    s.gB.empty_rows = 1000000 ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "decline/B_one_row_missing") ;
    // the same with B a vector missing one entry
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.dB = 1 - 1e-12 ;
    s.gB.empty_rows = 1000000 ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "decline/mxv_u_one_entry_missing") ;
    // sparse input vectors
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.dB = 0.5 ;
    s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "decline/mxv_sparse_u") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.dA = 0.5 ;
    s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "decline/vxm_sparse_u") ;
    // semirings outside the supported set
    struct { GrB_Semiring *s ; int t ; const char *name ; } un [ ] =
    {
        { &GrB_LXOR_LAND_SEMIRING_BOOL, CU_BOOL, "LXOR_LAND_BOOL" },
        { &GxB_PLUS_MINUS_FP64, CU_FP64, "PLUS_MINUS_FP64" },
        { &GxB_MAX_DIV_FP64, CU_FP64, "MAX_DIV_FP64" },
        { &GxB_PLUS_FIRSTI_INT64, CU_INT64, "PLUS_FIRSTI_INT64" },
        { &GxB_PLUS_TIMES_INT8, CU_INT8, "PLUS_TIMES_INT8" },
        { &GxB_PLUS_TIMES_UINT16, CU_UINT16, "PLUS_TIMES_UINT16" },
    } ;
    for (int i = 0 ; i < 6 ; i++)
    {
        s = spec_default ( ) ; s.builtin = un [i].s ; s.st = un [i].t ;
        s.gB.vals = CU_V_POS ;      // no division by zero
        s.expect = CU_EXPECT_DECLINE ;
        add_spec (&s, "decline/semiring_%s", un [i].name) ;
    }
    s = spec_default ( ) ; s.custom = case_user_type ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "decline/user_type") ;
    s.acc = CU_ACC_PLUS ;
    add_spec (&s, "decline/user_type_accum") ;
    s = spec_default ( ) ; s.custom = case_user_op ;
    add_spec (&s, "decline/user_op") ;
    s = spec_default ( ) ; s.custom = case_complex ;
    add_spec (&s, "decline/complex_FC64") ;
}

//------------------------------------------------------------------------------
// group: invalid arguments (forwarded: the same GrB_Info as the CPU library)
//------------------------------------------------------------------------------

// zeroed memory, big enough for any header: not an initialized object
static _Alignas (64) unsigned char zeroed_object [8192] ;

typedef enum
{
    INV_INNER = 0, INV_MASK_DIMS, INV_C_DIMS, INV_NULL_C, INV_NULL_A, INV_NULL_B,
    INV_NULL_SEMIRING, INV_UNINIT_A, INV_UNINIT_C, INV_C_UDT, INV_A_UDT,
    INV_MASK_UDT, INV_ACCUM_UDT, INV_MXV_U_LEN, INV_MXV_W_LEN, INV_MXV_MASK_LEN,
    INV_VXM_U_LEN, INV_VXM_W_LEN, INV_MXV_NULL_U,
    INV_N
}
inv_kind ;

static const char *inv_name [INV_N] = { "inner_dims", "mask_dims", "C_dims",
    "NULL_C", "NULL_A", "NULL_B", "NULL_semiring", "uninit_A", "uninit_C",
    "C_user_type", "A_user_type", "mask_user_type", "accum_user_type",
    "mxv_u_length", "mxv_w_length", "mxv_mask_length", "vxm_u_length",
    "vxm_w_length", "mxv_NULL_u" } ;

static int case_invalid (const spec *s)
{
    make_user_objects ( ) ;
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    int kind = s->acc ;     // (the kind travels in acc)
    int problems = 0 ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    GrB_Matrix A = cu_matrix (&r, CU_FP64, 12, 8, 0.3, NULL) ;
    GrB_Matrix B = cu_matrix (&r, CU_FP64, 8, 5, 1, NULL) ;
    GrB_Matrix C = cu_matrix (&r, CU_FP64, 12, 5, 0.3, NULL) ;
    GrB_Matrix M = cu_matrix (&r, CU_BOOL, 12, 5, 0.5, NULL) ;
    GrB_Matrix X = NULL ;     // a wrongly sized or typed extra object
    GrB_Vector u = cu_vector (&r, CU_FP64, 8, 1, NULL) ;
    GrB_Vector w = cu_vector (&r, CU_FP64, 12, 0.5, NULL) ;
    GrB_Vector m = cu_vector (&r, CU_BOOL, 12, 0.5, NULL) ;
    GrB_Vector y = NULL ;
    cu_call c ;
    cu_call_init (&c, s->name, CU_MXM) ;
    c.C0 = C ; c.A = A ; c.B = B ; c.s = sr ; c.expect = CU_EXPECT_DECLINE ;
    switch (kind)
    {
        case INV_INNER:
            X = cu_matrix (&r, CU_FP64, 7, 5, 1, NULL) ; c.B = X ; break ;
        case INV_MASK_DIMS:
            X = cu_matrix (&r, CU_BOOL, 12, 6, 0.5, NULL) ; c.M = X ; break ;
        case INV_C_DIMS:
            X = cu_matrix (&r, CU_FP64, 11, 5, 0.3, NULL) ; c.C0 = X ; break ;
        case INV_NULL_C:     c.C0 = NULL ; break ;
        case INV_NULL_A:     c.A = NULL ; break ;
        case INV_NULL_B:     c.B = NULL ; break ;
        case INV_NULL_SEMIRING: c.s = NULL ; break ;
        case INV_UNINIT_A:   c.A = (GrB_Matrix) (void *) zeroed_object ; break ;
        case INV_UNINIT_C:
            break ;     // by hand below: the runner would duplicate C0
        case INV_C_UDT:
            X = pair_matrix (&r, 12, 5, 0.3) ; c.C0 = X ; break ;
        case INV_A_UDT:
            X = pair_matrix (&r, 12, 8, 0.3) ; c.A = X ; break ;
        case INV_MASK_UDT:
            X = pair_matrix (&r, 12, 5, 0.3) ; c.M = X ; break ;
        case INV_ACCUM_UDT:
            c.accum = pair_plus_op ; break ;
        case INV_MXV_U_LEN:
            cu_call_init (&c, s->name, CU_MXV) ; c.expect = CU_EXPECT_DECLINE ;
            y = cu_vector (&r, CU_FP64, 7, 1, NULL) ;
            c.C0 = w ; c.A = A ; c.B = y ; c.s = sr ; break ;
        case INV_MXV_W_LEN:
            cu_call_init (&c, s->name, CU_MXV) ; c.expect = CU_EXPECT_DECLINE ;
            y = cu_vector (&r, CU_FP64, 13, 0.5, NULL) ;
            c.C0 = y ; c.A = A ; c.B = u ; c.s = sr ; break ;
        case INV_MXV_MASK_LEN:
            cu_call_init (&c, s->name, CU_MXV) ; c.expect = CU_EXPECT_DECLINE ;
            y = cu_vector (&r, CU_BOOL, 11, 0.5, NULL) ;
            c.C0 = w ; c.M = y ; c.A = A ; c.B = u ; c.s = sr ; break ;
        case INV_MXV_NULL_U:
            cu_call_init (&c, s->name, CU_MXV) ; c.expect = CU_EXPECT_DECLINE ;
            c.C0 = w ; c.M = m ; c.A = A ; c.B = NULL ; c.s = sr ; break ;
        case INV_VXM_U_LEN:
            // w (5) = y' (11) * B (8 x 5)
            cu_call_init (&c, s->name, CU_VXM) ; c.expect = CU_EXPECT_DECLINE ;
            y = cu_vector (&r, CU_FP64, 11, 1, NULL) ;
            X = (GrB_Matrix) (void *) cu_vector (&r, CU_FP64, 5, 0.5, NULL) ;
            c.C0 = X ; c.A = y ; c.B = B ; c.s = sr ; break ;
        case INV_VXM_W_LEN:
        default:
            cu_call_init (&c, s->name, CU_VXM) ; c.expect = CU_EXPECT_DECLINE ;
            X = (GrB_Matrix) (void *) cu_vector (&r, CU_FP64, 6, 0.5, NULL) ;
            c.C0 = X ; c.A = u ; c.B = B ; c.s = sr ; break ;
    }
    if (kind == INV_UNINIT_C)
    {
        // an uninitialized output: both sides on the same zeroed memory,
        // which neither may write into (it is not an object)
        GrB_Info info [2] ;
        char dec [64] = "" ;
        for (int side = 0 ; side < 2 ; side++)
        {
            if (side == 0 || cu_selfcheck) cu_device_cpu ( ) ; else cu_device_host ( ) ;
            info [side] = GrB_mxm ((GrB_Matrix) (void *) zeroed_object, NULL,
                NULL, sr, A, B, NULL) ;
            snprintf (dec, sizeof dec, "%s", grbgpu_last_decision ( )) ;
        }
        cu_device_cpu ( ) ;
        if (info [0] != info [1])
        {
            printf ("  [%s] GrB_Info: expected %d, got %d\n", s->name, info [0], info [1]) ;
            problems++ ;
        }
        if (!cu_selfcheck && strncmp (dec, "declined", 8) != 0)
        {
            printf ("  [%s] decision: expected declined, got \"%s\"\n", s->name, dec) ;
            problems++ ;
        }
        for (size_t i = 0 ; i < sizeof (zeroed_object) ; i++)
        {
            if (zeroed_object [i] != 0)
            {
                printf ("  [%s] the non-object was written into\n", s->name) ;
                memset (zeroed_object, 0, sizeof (zeroed_object)) ;
                problems++ ;
                break ;
            }
        }
    }
    else
    {
        problems = cu_run (&c) ;
    }
    if (kind == INV_VXM_U_LEN || kind == INV_VXM_W_LEN) GrB_Vector_free ((GrB_Vector *) &X) ;
    else GrB_Matrix_free (&X) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Matrix_free (&M) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
    GrB_Vector_free (&m) ; GrB_Vector_free (&y) ;
    return problems ;
}

void group_invalid (void)
{
    for (int k = 0 ; k < INV_N ; k++)
    {
        spec s = spec_default ( ) ;
        s.custom = case_invalid ;
        s.acc = k ;
        add_spec (&s, "invalid/%s", inv_name [k]) ;
    }
}
