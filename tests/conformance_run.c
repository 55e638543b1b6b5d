//------------------------------------------------------------------------------
// tests/conformance_run.c: the conformance suite's specs, and running one
//------------------------------------------------------------------------------

#include "tests/conformance.h"

const char *mask_name [MASK_NKINDS] = { "none", "valued", "struct",
    "comp", "structcomp" } ;

spec specs [MAX_SPECS] ;
int nspecs = 0 ;

spec spec_default (void)
{
    spec s ;
    memset (&s, 0, sizeof (s)) ;
    s.op = CU_MXM ;
    s.add = CU_ADD_PLUS ; s.mul = CU_MUL_TIMES ; s.st = CU_FP64 ;
    s.m = 23 ; s.k = 17 ; s.n = 5 ;
    s.dA = 0.3 ; s.dB = 1 ;
    s.tA = s.tB = s.tC = -1 ;
    s.dM = 0.4 ; s.tM = CU_BOOL ;
    s.gM.vals = CU_V_POS ; s.gM.zeros = 0.3 ;
    s.fA = s.fB = s.fC = s.fM = -1 ;
    return s ;
}

spec *add_spec (const spec *s, const char *fmt, ...)
{
    if (nspecs == MAX_SPECS)
    {
        fprintf (stderr, "too many cases\n") ;
        abort ( ) ;
    }
    spec *t = &specs [nspecs++] ;
    *t = *s ;
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (t->name, sizeof (t->name), fmt, ap) ;
    va_end (ap) ;
    return t ;
}

//------------------------------------------------------------------------------
// running a spec
//------------------------------------------------------------------------------

static int vary_flip (int v)
{
    return v == CU_VARY_ROW ? CU_VARY_COL : v == CU_VARY_COL ? CU_VARY_ROW : v ;
}

static GrB_Matrix abs_matrix (GrB_Matrix A)
{
    GrB_Index m, n ;
    CU_OK (GrB_Matrix_nrows (&m, A)) ;
    CU_OK (GrB_Matrix_ncols (&n, A)) ;
    GrB_Matrix B ;
    CU_OK (GrB_Matrix_new (&B, GrB_FP64, m, n)) ;
    CU_OK (GrB_Matrix_apply (B, NULL, NULL, GrB_ABS_FP64, A, NULL)) ;
    return B ;
}

static GrB_Vector abs_vector (GrB_Vector u)
{
    GrB_Index n ;
    CU_OK (GrB_Vector_size (&n, u)) ;
    GrB_Vector v ;
    CU_OK (GrB_Vector_new (&v, GrB_FP64, n)) ;
    CU_OK (GrB_Vector_apply (v, NULL, NULL, GrB_ABS_FP64, u, NULL)) ;
    return v ;
}

// The magnitude sum_k |A(i,k)| |B(k,j)| (or |A(i,k)| for FIRST, |B(k,j)| for
// SECOND) of every entry, by the CPU library, in FP64.  NULL when the
// multiply has no such form (MIN/MAX/PLUS multiplies: their sums are then
// compared against |ref| only).
void *magnitude (int op, int mul, void *A, void *B, bool trA, bool trB,
    uint64_t m, uint64_t n)
{
    GrB_Semiring s = (mul == CU_MUL_TIMES) ? GrB_PLUS_TIMES_SEMIRING_FP64
                   : (mul == CU_MUL_FIRST) ? GxB_PLUS_FIRST_FP64
                   : (mul == CU_MUL_SECOND) ? GxB_PLUS_SECOND_FP64 : NULL ;
    if (s == NULL) return NULL ;
    cu_device_cpu ( ) ;
    GrB_Descriptor d ;
    CU_OK (GrB_Descriptor_new (&d)) ;
    if (trA) CU_OK (GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN)) ;
    if (trB) CU_OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    void *mag = NULL ;
    if (op == CU_MXM)
    {
        GrB_Matrix a = abs_matrix (A), b = abs_matrix (B), c ;
        CU_OK (GrB_Matrix_new (&c, GrB_FP64, m, n)) ;
        CU_OK (GrB_mxm (c, NULL, NULL, s, a, b, d)) ;
        GrB_Matrix_free (&a) ; GrB_Matrix_free (&b) ;
        mag = c ;
    }
    else if (op == CU_MXV)
    {
        GrB_Matrix a = abs_matrix (A) ;
        GrB_Vector b = abs_vector (B), c ;
        CU_OK (GrB_Vector_new (&c, GrB_FP64, m)) ;
        CU_OK (GrB_mxv (c, NULL, NULL, s, a, b, d)) ;
        GrB_Matrix_free (&a) ; GrB_Vector_free (&b) ;
        mag = c ;
    }
    else
    {
        GrB_Vector a = abs_vector (A), c ;
        GrB_Matrix b = abs_matrix (B) ;
        CU_OK (GrB_Vector_new (&c, GrB_FP64, n)) ;
        CU_OK (GrB_vxm (c, NULL, NULL, s, a, b, d)) ;
        GrB_Vector_free (&a) ; GrB_Matrix_free (&b) ;
        mag = c ;
    }
    GrB_Descriptor_free (&d) ;
    return mag ;
}

void free_obj (int isvec, void **X)
{
    if (*X == NULL) return ;
    if (isvec) GrB_Vector_free ((GrB_Vector *) X) ;
    else GrB_Matrix_free ((GrB_Matrix *) X) ;
}

static GrB_Descriptor make_desc (bool replace, int mask, bool tr0, bool tr1)
{
    if (!replace && mask != MASK_COMP && mask != MASK_STRUCT
        && mask != MASK_STRUCT_COMP && !tr0 && !tr1) return NULL ;
    GrB_Descriptor d ;
    CU_OK (GrB_Descriptor_new (&d)) ;
    if (replace) CU_OK (GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE)) ;
    if (mask == MASK_COMP || mask == MASK_STRUCT_COMP)
        CU_OK (GrB_Descriptor_set (d, GrB_MASK, GrB_COMP)) ;
    if (mask == MASK_STRUCT || mask == MASK_STRUCT_COMP)
        CU_OK (GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE)) ;
    if (tr0) CU_OK (GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN)) ;
    if (tr1) CU_OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    return d ;
}

// A random k x n matrix of type t that is N:M down its columns (each group
// of M consecutive rows of a column holds N entries, N - 1 in about one group
// in 8), every 5th column empty, values from g; extra: column 1 holds all
// its N and one more in its second group; V > 1: the columns of each block
// of V share their positions (vector-wise; the first column of the block
// draws them).  tr: returned as its transpose (n x k).
static GrB_Matrix nm_matrix (cu_rng *r, int t, uint64_t k, uint64_t n, int N,
    int M, bool extra, int V, bool tr, const cu_gen *g)
{
    GrB_Matrix full = cu_matrix (r, t, k, n, 1, g) ;
    GrB_Matrix P = NULL, W = NULL, Wt = NULL ;
    size_t cap = (size_t) (k * n) + 1 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    bool *X = malloc (cap) ;
    if (I == NULL || J == NULL || X == NULL) cu_die (__FILE__, __LINE__, "malloc", -1) ;
    bool *blk = calloc ((size_t) k + 1, 1) ;   // the block's positions
    if (blk == NULL) cu_die (__FILE__, __LINE__, "calloc", -1) ;
    GrB_Index nz = 0 ;
    for (uint64_t j = 0 ; j < n ; j++)
    {
        const bool draw = (V <= 1) ? (j % 5 != 4) : (j % (uint64_t) V == 0) ;
        for (uint64_t g0 = 0 ; draw && g0 < k ; g0 += (uint64_t) M)
        {
            const int width = (int) ((k - g0 < (uint64_t) M) ? k - g0 : (uint64_t) M) ;
            const bool full_col = extra && j == 1 ;
            int take = (!full_col && cu_int (r, 0, 7) == 0) ? N - 1 : N ;
            if (full_col && g0 == (uint64_t) M) take = N + 1 ;
            if (take > width) take = width ;
            bool *pick = blk + g0 ;
            memset (pick, 0, (size_t) width) ;
            for (int have = 0 ; have < take ; )
            {
                int q = (int) cu_int (r, 0, width - 1) ;
                if (!pick [q]) { pick [q] = true ; have++ ; }
            }
        }
        if (j % 5 == 4) continue ;
        for (uint64_t q = 0 ; q < k ; q++)
        {
            if (!blk [q]) continue ;
            I [nz] = q ; J [nz] = j ; X [nz] = true ; nz++ ;
        }
    }
    free (blk) ;
    CU_OK (GrB_Matrix_new (&P, GrB_BOOL, k, n)) ;
    CU_OK (GrB_Matrix_build_BOOL (P, I, J, X, nz, GrB_LOR)) ;
    CU_OK (GrB_Matrix_new (&W, cu_type (t), k, n)) ;
    CU_OK (GrB_Matrix_assign (W, P, NULL, full, GrB_ALL, k, GrB_ALL, n, GrB_DESC_S)) ;
    free (I) ; free (J) ; free (X) ;
    GrB_Matrix_free (&P) ; GrB_Matrix_free (&full) ;
    if (!tr) return W ;
    CU_OK (GrB_Matrix_new (&Wt, cu_type (t), n, k)) ;
    CU_OK (GrB_transpose (Wt, NULL, NULL, W, NULL)) ;
    GrB_Matrix_free (&W) ;
    return Wt ;
}

static int run_spec (const spec *s)
{
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    int tA = s->tA < 0 ? s->st : s->tA ;
    int tB = s->tB < 0 ? s->st : s->tB ;
    int tC = s->tC < 0 ? s->st : s->tC ;
    GrB_Semiring sr = s->builtin ? *(s->builtin) : cu_semiring (s->add, s->mul, s->st) ;
    if (sr == NULL)
    {
        printf ("  [%s] no such semiring (a broken case)\n", s->name) ;
        return 1 ;
    }
    void *A = NULL, *B = NULL, *C0 = NULL, *M = NULL, *mag = NULL ;
    bool vecA = s->op == CU_VXM, vecB = s->op == CU_MXV ;
    bool vecC = s->op != CU_MXM ;
    uint64_t cm = s->m, cn = s->n ;

    // ---- operands -----------------------------------------------------------
    if (vecA)
    {
        // u' is 1 x k: "the same along each row" makes u constant
        cu_gen g = s->gA ;
        if (g.vary == CU_VARY_ROW) g.vary = CU_VARY_COL ;
        A = cu_vector (&r, tA, s->k, s->dA, &g) ;
        cu_vstorage (A, s->sA) ;
    }
    else
    {
        cu_gen g = s->gA ;
        if (s->trA)
        {
            g.vary = vary_flip (g.vary) ;
            int e = g.empty_rows ; g.empty_rows = g.empty_cols ; g.empty_cols = e ;
        }
        A = s->trA ? cu_matrix (&r, tA, s->k, s->m, s->dA, &g)
                   : cu_matrix (&r, tA, s->m, s->k, s->dA, &g) ;
        cu_storage (A, s->sA, s->fA) ;
    }
    if (vecB)
    {
        B = cu_vector (&r, tB, s->k, s->dB, &s->gB) ;
        cu_vstorage (B, s->sB) ;
    }
    else
    {
        cu_gen g = s->gB ;
        if (s->trB)
        {
            g.vary = vary_flip (g.vary) ;
            int e = g.empty_rows ; g.empty_rows = g.empty_cols ; g.empty_cols = e ;
        }
        if (s->nm_m > 0)
            B = nm_matrix (&r, tB, s->k, s->n, s->nm_n, s->nm_m, s->nm_extra, s->nm_v, s->trB, &s->gB) ;
        else
            B = s->trB ? cu_matrix (&r, tB, s->n, s->k, s->dB, &g)
                       : cu_matrix (&r, tB, s->k, s->n, s->dB, &g) ;
        cu_storage (B, s->sB, s->fB) ;
    }
    if (s->op == CU_MXV) cn = 1 ;
    if (s->op == CU_VXM) { cm = s->n ; cn = 1 ; }

    // ---- output and mask ----------------------------------------------------
    if (vecC)
    {
        C0 = cu_vector (&r, tC, cm, s->dC, &s->gC) ;
        cu_vstorage (C0, s->sC) ;
        if (s->mask != MASK_NONE)
        {
            M = cu_vector (&r, s->tM, cm, s->dM, &s->gM) ;
            cu_vstorage (M, s->sM) ;
        }
    }
    else
    {
        C0 = cu_matrix (&r, tC, cm, cn, s->dC, &s->gC) ;
        cu_storage (C0, s->sC, s->fC) ;
        if (s->mask != MASK_NONE)
        {
            M = cu_matrix (&r, s->tM, cm, cn, s->dM, &s->gM) ;
            cu_storage (M, s->sM, s->fM) ;
        }
    }

    bool tr0 = (s->op == CU_MXM && s->trA) || (s->op == CU_MXV && s->trA) ;
    bool tr1 = (s->op == CU_MXM && s->trB) || (s->op == CU_VXM && s->trB) ;
    GrB_Descriptor d = make_desc (s->replace, s->mask, tr0, tr1) ;
    if (s->mag && s->alias == CU_ALIAS_NONE)
    {
        mag = magnitude (s->op, s->mul, A, B, tr0, tr1, s->op == CU_VXM ? 1 : s->m,
            s->op == CU_VXM ? s->n : s->n) ;
    }

    // ---- the call -----------------------------------------------------------
    cu_call c ;
    cu_call_init (&c, s->name, s->op) ;
    c.C0 = C0 ; c.M = M ; c.A = A ; c.B = B ;
    c.accum = cu_accop (s->acc, tC) ;
    c.s = sr ; c.d = d ;
    c.alias = s->alias ;
    c.expect = s->expect ;
    c.rtol = s->rtol ;
    c.mag = mag ;
    if (s->B_is_A) c.B = A ;
    if (s->M_is_A) c.M = A ;
    // the output starts as a copy of the input it aliases
    if (s->alias == CU_ALIAS_A || s->alias == CU_ALIAS_AB) c.C0 = A ;
    if (s->alias == CU_ALIAS_B) c.C0 = B ;
    if (s->alias == CU_ALIAS_M) c.C0 = M ;
    // a forced kernel variant (the host backend ignores the names)
    if (s->kernel != NULL && grbgpu_set ("KERNEL", s->kernel) != 0)
        cu_die (__FILE__, __LINE__, "grbgpu_set KERNEL", -1) ;
    int problems = cu_run (&c) ;
    if (s->kernel != NULL && grbgpu_set ("KERNEL", "") != 0)
        cu_die (__FILE__, __LINE__, "grbgpu_set KERNEL \"\"", -1) ;

    free_obj (vecA, &A) ; free_obj (vecB, &B) ;
    free_obj (vecC, &C0) ; free_obj (vecC, &M) ; free_obj (vecC, &mag) ;
    GrB_Descriptor_free (&d) ;
    return problems ;
}

void test_spec (void **state)
{
    const spec *s = (const spec *) *state ;
    int problems = s->custom ? s->custom (s) : run_spec (s) ;
    assert_int_equal (problems, 0) ;
}
