//------------------------------------------------------------------------------
// tests/test_conformance.c: every offloaded call compared with the CPU library
//------------------------------------------------------------------------------

// Each case draws fresh random operands (seeded: the seed is printed, and
// GRBGPU_TEST_SEED=N repeats a run), runs the call once through the CPU
// library (GRBGPU_DEVICE=cpu, the reference) and once forced onto the host
// emulation backend (DEVICE=host, MIN_WORK=0), each on its own copy of C,
// and asserts: the same GrB_Info; the same type, dimensions, pattern and
// values of C (integers exactly; floating values exactly when the inputs are
// small integers or powers of two, so that every order of summation gives the
// same sum, else within a relative tolerance of the sum of |terms|); that the
// call was offloaded when it is supported, or declined when it is not; and
// that the statistics counted it once.
//
// Environment: GRBGPU_TEST_SEED (repeat a run), GRBGPU_TEST_FILTER (a CMocka
// test-name pattern, e.g. 'mask/*'), GRBGPU_TEST_DATA (folder of *.mtx.gz;
// the real-matrix cases skip when it is absent), GRBGPU_TEST_SELFCHECK=1
// (both sides on the CPU library: checks the test itself).
//
// Steers around the SuiteSparse:GraphBLAS 7.4 defects listed in
// docs/ARCHITECTURE.md: no C<M> += T with a full non-complemented mask, no
// masked product with inner dimension 0, no resize.

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "grbgpu.h"
#include "tests/conformance_util.h"

//------------------------------------------------------------------------------
// a case, declaratively
//------------------------------------------------------------------------------

typedef enum
{
    MASK_NONE = 0, MASK_VALUED, MASK_STRUCT, MASK_COMP, MASK_STRUCT_COMP,
    MASK_NKINDS
}
mask_kind ;

static const char *mask_name [MASK_NKINDS] = { "none", "valued", "struct",
    "comp", "structcomp" } ;

typedef struct spec spec ;
struct spec
{
    char name [112] ;
    int op ;                    // CU_MXM, CU_MXV, CU_VXM
    int add, mul, st ;          // semiring from built-in pieces, of type st
    GrB_Semiring *builtin ;     // or a predefined semiring (st still its type)
    uint64_t m, k, n ;          // op(A) is m x k, op(B) is k x n
    double dA, dB ;             // densities (>= 1: dense)
    int tA, tB, tC ;            // operand types (-1: the semiring's)
    cu_gen gA, gB, gC ;
    bool trA, trB ;             // GrB_INP0 / GrB_INP1 = GrB_TRAN
    int mask ;
    double dM ;
    int tM ;
    cu_gen gM ;
    bool replace ;
    int acc ;                   // cu_acc, on C's type
    double dC ;                 // density of the initial C (0: empty)
    int sA, fA, sB, fB, sC, fC, sM, fM ;    // storage: sparsity / format
    int alias ;                 // cu_alias
    bool B_is_A ;               // the same handle for both inputs
    bool M_is_A ;               // the mask is input A
    int expect ;                // cu_expect
    double rtol ;               // 0: exact
    bool mag ;                  // tolerance relative to sum |terms|
    int (*custom) (const spec *) ;  // a case that builds its own call
    const char *file ;          // real-matrix cases: the file
    const char *kernel ;        // GRBGPU_KERNEL for the offload side (NULL:
                                // the chooser)
    int nm_n, nm_m ;            // nm_m > 0: op(B) is N:M down its columns
    bool nm_extra ;             // (nm_matrix) with one entry too many
} ;

#define MAX_SPECS 8192
static spec specs [MAX_SPECS] ;
static int nspecs = 0 ;

static spec spec_default (void)
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

static spec *add_spec (const spec *s, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3))) ;

static spec *add_spec (const spec *s, const char *fmt, ...)
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
static void *magnitude (int op, int mul, void *A, void *B, bool trA, bool trB,
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

static void free_obj (int isvec, void **X)
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
// its N and one more in its second group.  tr: returned as its transpose
// (n x k).
static GrB_Matrix nm_matrix (cu_rng *r, int t, uint64_t k, uint64_t n, int N,
    int M, bool extra, bool tr, const cu_gen *g)
{
    GrB_Matrix full = cu_matrix (r, t, k, n, 1, g) ;
    GrB_Matrix P = NULL, W = NULL, Wt = NULL ;
    size_t cap = (size_t) (k * n) + 1 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    bool *X = malloc (cap) ;
    if (I == NULL || J == NULL || X == NULL) cu_die (__FILE__, __LINE__, "malloc", -1) ;
    GrB_Index nz = 0 ;
    for (uint64_t j = 0 ; j < n ; j++)
    {
        if (j % 5 == 4) continue ;
        for (uint64_t g0 = 0 ; g0 < k ; g0 += (uint64_t) M)
        {
            const int width = (int) ((k - g0 < (uint64_t) M) ? k - g0 : (uint64_t) M) ;
            const bool full_col = extra && j == 1 ;
            int take = (!full_col && cu_int (r, 0, 7) == 0) ? N - 1 : N ;
            if (full_col && g0 == (uint64_t) M) take = N + 1 ;
            if (take > width) take = width ;
            bool pick [32] = { false } ;
            for (int have = 0 ; have < take ; )
            {
                int q = (int) cu_int (r, 0, width - 1) ;
                if (!pick [q]) { pick [q] = true ; have++ ; }
            }
            for (int q = 0 ; q < width ; q++)
            {
                if (!pick [q]) continue ;
                I [nz] = g0 + (uint64_t) q ; J [nz] = j ; X [nz] = true ; nz++ ;
            }
        }
    }
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
            B = nm_matrix (&r, tB, s->k, s->n, s->nm_n, s->nm_m, s->nm_extra, s->trB, &s->gB) ;
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

static void test_spec (void **state)
{
    const spec *s = (const spec *) *state ;
    int problems = s->custom ? s->custom (s) : run_spec (s) ;
    assert_int_equal (problems, 0) ;
}

//------------------------------------------------------------------------------
// group: every monoid x multiply x type on a small SpMM
//------------------------------------------------------------------------------

static const int adds_nonbool [ ] = { CU_ADD_PLUS, CU_ADD_TIMES, CU_ADD_MIN,
    CU_ADD_MAX, CU_ADD_ANY } ;
static const int adds_bool [ ] = { CU_ADD_LOR, CU_ADD_LAND, CU_ADD_ANY } ;

// Values that keep every order of the monoid exact: small integers, powers
// of two under TIMES, and for ANY the same value for every candidate
// (op(A) constant along each row, op(B) constant along each column).
static void values_for (spec *s, int add)
{
    memset (&s->gA, 0, sizeof (cu_gen)) ;
    memset (&s->gB, 0, sizeof (cu_gen)) ;
    if (add == CU_ADD_ANY)
    {
        s->gA.vary = CU_VARY_ROW ;
        s->gB.vary = CU_VARY_COL ;
    }
    else
    {
        s->gA.zeros = 0.1 ;
        if (add == CU_ADD_TIMES) s->gA.vals = s->gB.vals = CU_V_POW2 ;
    }
}

static void group_grid (void)
{
    for (int t = 0 ; t < CU_NT ; t++)
    {
        const int *adds = (t == CU_BOOL) ? adds_bool : adds_nonbool ;
        int nadds = (t == CU_BOOL) ? 3 : 5 ;
        for (int a = 0 ; a < nadds ; a++)
        {
            for (int mul = 0 ; mul < CU_NMUL ; mul++)
            {
                spec s = spec_default ( ) ;
                s.add = adds [a] ; s.mul = mul ; s.st = t ;
                values_for (&s, s.add) ;
                s.gA.empty_rows = 7 ; s.gA.empty_cols = 5 ;
                add_spec (&s, "grid/%s_%s_%s", cu_add_name (s.add),
                    cu_mul_name (mul), cu_type_name (t)) ;
            }
        }
    }
}

//------------------------------------------------------------------------------
// group: a subset of semirings on every shape
//------------------------------------------------------------------------------

typedef struct { int add, mul, t ; GrB_Semiring *builtin ; const char *name ; } sr_pick ;

static sr_pick shape_semirings [ ] =
{
    { CU_ADD_PLUS,  CU_MUL_TIMES,  CU_FP64,   &GrB_PLUS_TIMES_SEMIRING_FP64, "PLUS_TIMES_FP64" },
    { CU_ADD_PLUS,  CU_MUL_TIMES,  CU_INT32,  &GrB_PLUS_TIMES_SEMIRING_INT32, "PLUS_TIMES_INT32" },
    { CU_ADD_MIN,   CU_MUL_PLUS,   CU_INT64,  NULL, "MIN_PLUS_INT64" },
    { CU_ADD_MAX,   CU_MUL_MIN,    CU_FP32,   &GrB_MAX_MIN_SEMIRING_FP32, "MAX_MIN_FP32" },
    { CU_ADD_PLUS,  CU_MUL_SECOND, CU_FP32,   &GxB_PLUS_SECOND_FP32, "PLUS_SECOND_FP32" },
    { CU_ADD_MIN,   CU_MUL_SECOND, CU_UINT32, NULL, "MIN_SECOND_UINT32" },
    { CU_ADD_LOR,   CU_MUL_LAND,   CU_BOOL,   &GrB_LOR_LAND_SEMIRING_BOOL, "LOR_LAND_BOOL" },
    { CU_ADD_ANY,   CU_MUL_PAIR,   CU_INT64,  &GxB_ANY_PAIR_INT64, "ANY_PAIR_INT64" },
    { CU_ADD_PLUS,  CU_MUL_PAIR,   CU_UINT64, &GxB_PLUS_PAIR_UINT64, "PLUS_PAIR_UINT64" },
    { CU_ADD_MAX,   CU_MUL_TIMES,  CU_INT32,  NULL, "MAX_TIMES_INT32" },
    { CU_ADD_TIMES, CU_MUL_FIRST,  CU_FP64,   NULL, "TIMES_FIRST_FP64" },
    { CU_ADD_PLUS,  CU_MUL_FIRST,  CU_FP64,   &GxB_PLUS_FIRST_FP64, "PLUS_FIRST_FP64" },
    { CU_ADD_MIN,   CU_MUL_FIRST,  CU_INT32,  &GrB_MIN_FIRST_SEMIRING_INT32, "MIN_FIRST_INT32" },
    { CU_ADD_ANY,   CU_MUL_SECOND, CU_FP32,   NULL, "ANY_SECOND_FP32" },
    { CU_ADD_PLUS,  CU_MUL_ONEB,   CU_INT64,  NULL, "PLUS_ONEB_INT64" },
    { CU_ADD_LAND,  CU_MUL_LOR,    CU_BOOL,   NULL, "LAND_LOR_BOOL" },
    { CU_ADD_MAX,   CU_MUL_PLUS,   CU_UINT64, NULL, "MAX_PLUS_UINT64" },
} ;
#define N_SHAPE_SEMIRINGS (int) (sizeof (shape_semirings) / sizeof (sr_pick))

typedef enum
{
    SH_SPMM = 0, SH_DXS, SH_MXV, SH_VXM, SH_SDDMM_T, SH_SDDMM, SH_GEMM,
    SH_NSHAPES
}
shape_kind ;

static const char *shape_name [SH_NSHAPES] = { "spmm", "dxs", "mxv", "vxm",
    "sddmm_abt", "sddmm_ab", "gemm" } ;

// Set op, dims, densities and mask of s for a shape.
static void set_shape (spec *s, int shape)
{
    s->op = CU_MXM ;
    switch (shape)
    {
        case SH_SPMM:
            s->m = 41 ; s->k = 29 ; s->n = 7 ; s->dA = 0.2 ; s->dB = 1 ; break ;
        case SH_DXS:
            s->m = 9 ; s->k = 31 ; s->n = 40 ; s->dA = 1 ; s->dB = 0.2 ; break ;
        case SH_MXV:
            s->op = CU_MXV ; s->m = 57 ; s->k = 33 ; s->dA = 0.2 ; s->dB = 1 ; break ;
        case SH_VXM:
            s->op = CU_VXM ; s->k = 33 ; s->n = 45 ; s->dA = 1 ; s->dB = 0.2 ; break ;
        case SH_SDDMM_T:
            s->m = 20 ; s->k = 6 ; s->n = 25 ; s->dA = 1 ; s->dB = 1 ; s->trB = true ;
            s->mask = MASK_STRUCT ; s->dM = 0.15 ; break ;
        case SH_SDDMM:
            s->m = 20 ; s->k = 6 ; s->n = 25 ; s->dA = 1 ; s->dB = 1 ;
            s->mask = MASK_STRUCT ; s->dM = 0.15 ; break ;
        case SH_GEMM:
        default:
            s->m = 13 ; s->k = 11 ; s->n = 9 ; s->dA = 1 ; s->dB = 1 ; break ;
    }
}

// the sparse operand gets empty rows / columns and explicit zeros
static void shape_values (spec *s, int shape, int add)
{
    values_for (s, add) ;
    if (add != CU_ADD_ANY)
    {
        s->gA.zeros = (s->dA < 1) ? 0.1 : 0 ;
        s->gB.zeros = (s->dB < 1) ? 0.1 : 0 ;
    }
    if (shape == SH_SPMM || shape == SH_MXV) { s->gA.empty_rows = 6 ; s->gA.empty_cols = 4 ; }
    if (shape == SH_DXS || shape == SH_VXM) { s->gB.empty_rows = 5 ; s->gB.empty_cols = 3 ; }
}

static void group_shapes (void)
{
    for (int i = 0 ; i < N_SHAPE_SEMIRINGS ; i++)
    {
        for (int sh = 0 ; sh < SH_NSHAPES ; sh++)
        {
            sr_pick *p = &shape_semirings [i] ;
            spec s = spec_default ( ) ;
            s.add = p->add ; s.mul = p->mul ; s.st = p->t ; s.builtin = p->builtin ;
            set_shape (&s, sh) ;
            shape_values (&s, sh, p->add) ;
            add_spec (&s, "shape/%s/%s", shape_name [sh], p->name) ;
        }
    }
}

//------------------------------------------------------------------------------
// group: operand types that differ from the semiring's
//------------------------------------------------------------------------------

static void group_mixed (void)
{
    spec s ;

    // INT32 A, FP64 B, PLUS_TIMES FP64
    s = spec_default ( ) ; s.st = CU_FP64 ; s.tA = CU_INT32 ; s.tB = CU_FP64 ;
    s.gB.vals = CU_V_POW2 ;
    add_spec (&s, "mixed/A_INT32_B_FP64_PLUS_TIMES_FP64") ;

    // PageRank: r += A' * w with A boolean, PLUS_SECOND FP32 (real values)
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ;
    s.builtin = &GxB_PLUS_SECOND_FP32 ; s.add = CU_ADD_PLUS ; s.mul = CU_MUL_SECOND ;
    s.st = CU_FP32 ; s.tA = CU_BOOL ; s.gA.vals = CU_V_ONE ; s.trA = true ;
    s.m = 50 ; s.k = 50 ; s.gB.vals = CU_V_REAL ;
    s.acc = CU_ACC_PLUS ; s.dC = 1 ; s.gC.vals = CU_V_REAL ;
    s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "mixed/pagerank_mxv_A_BOOL_PLUS_SECOND_FP32") ;

    // the same as a matrix product, with explicit false entries in A
    s = spec_default ( ) ; s.builtin = &GxB_PLUS_SECOND_FP32 ;
    s.add = CU_ADD_PLUS ; s.mul = CU_MUL_SECOND ; s.st = CU_FP32 ;
    s.tA = CU_BOOL ; s.gA.zeros = 0.2 ; s.gB.vals = CU_V_REAL ;
    s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "mixed/A_BOOL_PLUS_SECOND_FP32_real") ;

    // FP64 values cast to INT32: truncation and saturation, read by MAX_FIRST
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_INT32 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_CAST ;
    add_spec (&s, "mixed/A_FP64_cast_MAX_FIRST_INT32") ;

    // ... by MIN_SECOND, with B the cast one (and A values ignored)
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_SECOND ; s.st = CU_INT32 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_CAST ; s.tB = CU_FP64 ; s.gB.vals = CU_V_CAST ;
    add_spec (&s, "mixed/B_FP64_cast_MIN_SECOND_INT32") ;

    // moderate fractions and negatives, PLUS_TIMES INT32 (truncation before the product)
    s = spec_default ( ) ; s.st = CU_INT32 ; s.tA = CU_FP64 ; s.gA.vals = CU_V_FRAC ;
    s.tB = CU_FP64 ; s.gB.vals = CU_V_FRAC ;
    add_spec (&s, "mixed/A_B_FP64_frac_PLUS_TIMES_INT32") ;

    // negatives into an unsigned semiring (saturate at 0)
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_UINT32 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_CAST ;
    add_spec (&s, "mixed/A_FP64_cast_MAX_FIRST_UINT32") ;

    s = spec_default ( ) ; s.add = CU_ADD_PLUS ; s.mul = CU_MUL_TIMES ; s.st = CU_UINT64 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_FRAC ; s.tB = CU_INT32 ;
    add_spec (&s, "mixed/A_FP64_frac_B_INT32_PLUS_TIMES_UINT64") ;

    // FP32 fractions into INT64
    s = spec_default ( ) ; s.st = CU_INT64 ; s.tA = CU_FP32 ; s.gA.vals = CU_V_FRAC ;
    add_spec (&s, "mixed/A_FP32_frac_PLUS_TIMES_INT64") ;

    // INT64 beyond the INT32 range into INT32
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_FIRST ; s.st = CU_INT32 ;
    s.tA = CU_INT64 ; s.gA.vals = CU_V_CAST ;
    add_spec (&s, "mixed/A_INT64_big_MIN_FIRST_INT32") ;

    // UINT64 into FP32
    s = spec_default ( ) ; s.st = CU_FP32 ; s.tA = CU_UINT64 ; s.tB = CU_INT64 ;
    add_spec (&s, "mixed/A_UINT64_B_INT64_PLUS_TIMES_FP32") ;

    // FP64 reals rounded to FP32 before the product
    s = spec_default ( ) ; s.st = CU_FP32 ; s.tA = CU_FP64 ; s.tB = CU_FP64 ;
    s.gA.vals = CU_V_REAL ; s.gB.vals = CU_V_REAL ; s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "mixed/A_B_FP64_real_PLUS_TIMES_FP32") ;

    // boolean semiring over numeric operands (nonzero is true)
    s = spec_default ( ) ; s.builtin = &GrB_LOR_LAND_SEMIRING_BOOL ;
    s.add = CU_ADD_LOR ; s.mul = CU_MUL_LAND ; s.st = CU_BOOL ;
    s.tA = CU_INT32 ; s.gA.zeros = 0.4 ; s.tB = CU_FP64 ; s.gB.zeros = 0.5 ;
    add_spec (&s, "mixed/A_INT32_B_FP64_LOR_LAND_BOOL") ;

    // mxv / vxm with operand types of their own
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_FP64 ;
    s.tA = CU_INT32 ; s.tB = CU_FP32 ; s.gB.vals = CU_V_POW2 ;
    add_spec (&s, "mixed/mxv_A_INT32_u_FP32_PLUS_TIMES_FP64") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.add = CU_ADD_PLUS ;
    s.mul = CU_MUL_FIRST ; s.st = CU_FP32 ; s.tA = CU_BOOL ; s.tB = CU_INT64 ;
    add_spec (&s, "mixed/vxm_u_BOOL_B_INT64_PLUS_FIRST_FP32") ;

    // operand types that no semiring of the offload has (INT8, UINT16):
    // offloading them is allowed but not promised
    s = spec_default ( ) ; s.st = CU_FP32 ; s.tA = CU_INT8 ; s.tB = CU_UINT16 ;
    s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "mixed/A_INT8_B_UINT16_PLUS_TIMES_FP32") ;
}

//------------------------------------------------------------------------------
// group: masks, replace, accumulate
//------------------------------------------------------------------------------

static void group_masks (void)
{
    static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_MXV, SH_VXM, SH_SDDMM_T, SH_GEMM } ;
    static const sr_pick srs [ ] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_INT64, NULL, "PLUS_TIMES_INT64" },
        { CU_ADD_MIN, CU_MUL_PLUS, CU_FP64, NULL, "MIN_PLUS_FP64" },
        { CU_ADD_PLUS, CU_MUL_SECOND, CU_FP32, NULL, "PLUS_SECOND_FP32" },
        { CU_ADD_MAX, CU_MUL_FIRST, CU_INT32, NULL, "MAX_FIRST_INT32" },
    } ;
    static const int mtypes [ ] = { CU_BOOL, CU_INT32, CU_FP64, CU_UINT16, CU_FP32 } ;
    int count = 0 ;
    for (size_t sh = 0 ; sh < sizeof (shapes) / sizeof (int) ; sh++)
    {
        for (int mk = MASK_VALUED ; mk < MASK_NKINDS ; mk++)
        {
            for (int rep = 0 ; rep < 2 ; rep++)
            {
                for (int acc = 0 ; acc < 2 ; acc++)
                {
                    const sr_pick *p = &srs [count % 4] ;
                    spec s = spec_default ( ) ;
                    s.add = p->add ; s.mul = p->mul ; s.st = p->t ;
                    set_shape (&s, shapes [sh]) ;
                    shape_values (&s, shapes [sh], p->add) ;
                    s.mask = mk ; s.dM = 0.4 ;
                    s.tM = mtypes [count % 5] ;
                    s.replace = rep ;
                    s.acc = acc ? CU_ACC_PLUS : CU_ACC_NONE ;
                    s.dC = 0.5 ;
                    count++ ;
                    add_spec (&s, "mask/%s/%s%s%s/%s", shape_name [shapes [sh]],
                        mask_name [mk], rep ? "_replace" : "", acc ? "_accum" : "",
                        p->name) ;
                }
            }
        }
    }
    // SDDMM under a structural mask into an empty C, or with replace: T is
    // packed straight into C (C held by row), else through GrB_apply
    for (int sh = 0 ; sh < 2 ; sh++)
    {
        for (int v = 0 ; v < 6 ; v++)
        {
            spec s = spec_default ( ) ;
            set_shape (&s, sh ? SH_SDDMM : SH_SDDMM_T) ;
            s.st = (v & 1) ? CU_FP32 : CU_FP64 ;
            s.mask = (v < 4) ? MASK_STRUCT : MASK_VALUED ;
            s.dM = 0.3 ; s.tM = CU_FP32 ; s.gM.zeros = (v >= 4) ;
            s.dC = (v == 2 || v == 3) ? 0.5 : 0 ;
            s.replace = (v == 2 || v == 3) ;
            s.fC = (v == 3) ? GxB_BY_COL : GxB_BY_ROW ;
            add_spec (&s, "mask/%s/struct_direct_%s%s%s/%s", sh ? "sddmm_ab" : "sddmm_abt",
                s.dC == 0 ? "emptyC" : "replace", s.fC == GxB_BY_COL ? "_bycol" : "",
                v >= 4 ? "_valued_zeros" : "", (v & 1) ? "FP32" : "FP64") ;
        }
    }
    // replace without a mask clears C first; a mask with no entries at all
    spec s = spec_default ( ) ; s.dC = 0.6 ; s.replace = true ; s.st = CU_INT32 ;
    add_spec (&s, "mask/spmm/none_replace/PLUS_TIMES_INT32") ;
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_VALUED ; s.dM = 0 ; s.st = CU_INT32 ;
    add_spec (&s, "mask/spmm/empty_mask/PLUS_TIMES_INT32") ;
    s.mask = MASK_COMP ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "mask/spmm/empty_mask_comp_accum/PLUS_TIMES_INT32") ;
    // a valued mask whose every entry is an explicit zero
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_VALUED ; s.gM.zeros = 1 ;
    add_spec (&s, "mask/spmm/all_zero_valued_mask/PLUS_TIMES_FP64") ;
    // a dense mask, complemented, with accumulate (the non-complemented full
    // mask with accumulate is a 7.4 defect: not tested)
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_COMP ; s.dM = 1 ;
    s.sM = GxB_FULL ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "mask/spmm/full_mask_comp_accum/PLUS_TIMES_FP64") ;
    s.acc = CU_ACC_NONE ; s.mask = MASK_VALUED ;
    add_spec (&s, "mask/spmm/full_mask_valued/PLUS_TIMES_FP64") ;
}

static void group_accum (void)
{
    for (int acc = CU_ACC_PLUS ; acc < CU_NACC ; acc++)
    {
        for (int ct = 0 ; ct < 2 ; ct++)
        {
            for (int mk = 0 ; mk < 2 ; mk++)
            {
                spec s = spec_default ( ) ;
                s.st = CU_INT32 ;
                s.tC = ct ? CU_FP64 : CU_INT32 ;
                s.dC = 0.5 ;
                s.acc = acc ;
                if (acc == CU_ACC_TIMES)
                {
                    s.gA.vals = s.gB.vals = s.gC.vals = CU_V_POW2 ;
                }
                s.mask = mk ? MASK_VALUED : MASK_NONE ;
                add_spec (&s, "accum/spmm/%s/C_%s%s", cu_acc_name (acc),
                    cu_type_name (s.tC), mk ? "/masked" : "") ;
            }
        }
        // C full and no mask: grbgpu accumulates in place (SpMM, dense x
        // sparse, mxv, vxm; C held by row and by column)
        static const int full_shapes [ ] = { SH_SPMM, SH_DXS, SH_MXV, SH_VXM } ;
        for (int sh = 0 ; sh < 4 ; sh++)
        {
            for (int f = 0 ; f < 2 ; f++)
            {
                spec s = spec_default ( ) ;
                set_shape (&s, full_shapes [sh]) ;
                s.st = (sh & 1) ? CU_FP64 : CU_INT32 ;
                s.tC = s.st ;
                s.dC = 1 ;
                s.acc = acc ;
                s.fC = f ? GxB_BY_COL : GxB_BY_ROW ;
                if (acc == CU_ACC_TIMES)
                {
                    s.gA.vals = s.gB.vals = s.gC.vals = CU_V_POW2 ;
                }
                add_spec (&s, "accum/full_C/%s/%s/%s", shape_name [full_shapes [sh]],
                    cu_acc_name (acc), f ? "by_col" : "by_row") ;
            }
        }
        // a FP64 sum cast to an INT64 C, then accumulated in INT64
        spec s = spec_default ( ) ; set_shape (&s, SH_MXV) ;
        s.st = CU_FP64 ; s.gA.vals = CU_V_POW2 ; s.gB.vals = CU_V_POW2 ;
        s.tC = CU_INT64 ; s.dC = 0.7 ; s.acc = acc ;
        add_spec (&s, "accum/mxv/%s/FP64_into_C_INT64", cu_acc_name (acc)) ;
        s = spec_default ( ) ; set_shape (&s, SH_VXM) ;
        s.st = CU_UINT32 ; s.tC = CU_FP32 ; s.dC = 0.7 ; s.acc = acc ;
        s.mask = MASK_STRUCT ; s.dM = 0.5 ;
        add_spec (&s, "accum/vxm/%s/UINT32_into_C_FP32_masked", cu_acc_name (acc)) ;
    }
    // C of a type other than the semiring's, no accumulate
    static const int pairs [ ][2] =
    {
        { CU_FP64, CU_INT64 }, { CU_INT32, CU_BOOL }, { CU_FP64, CU_FP32 },
        { CU_INT32, CU_UINT32 }, { CU_BOOL, CU_FP64 }, { CU_UINT64, CU_INT32 },
    } ;
    for (size_t i = 0 ; i < sizeof (pairs) / sizeof (pairs [0]) ; i++)
    {
        spec s = spec_default ( ) ;
        s.st = pairs [i][0] ; s.tC = pairs [i][1] ; s.dC = 0.3 ;
        if (s.st == CU_BOOL) { s.add = CU_ADD_LOR ; s.mul = CU_MUL_LAND ; }
        if (cu_type_float (s.st)) s.gA.vals = s.gB.vals = CU_V_POW2 ;
        add_spec (&s, "accum/spmm/none/%s_into_C_%s", cu_type_name (s.st),
            cu_type_name (s.tC)) ;
    }
    // FP64 values saturating into an INT32 C
    spec s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ;
    s.gA.vals = CU_V_CAST ; s.tC = CU_INT32 ;
    add_spec (&s, "accum/spmm/none/FP64_cast_into_C_INT32") ;
    // C non-empty, no mask, no accumulate: C becomes exactly T
    s = spec_default ( ) ; s.dC = 0.8 ; s.st = CU_INT64 ;
    add_spec (&s, "accum/spmm/none/C_nonempty_replaced") ;
    s.tC = CU_FP32 ; s.mask = MASK_VALUED ;
    add_spec (&s, "accum/spmm/none/C_nonempty_masked_kept") ;
}

//------------------------------------------------------------------------------
// group: transposes
//------------------------------------------------------------------------------

static void group_transpose (void)
{
    static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_GEMM, SH_SDDMM } ;
    for (size_t sh = 0 ; sh < 4 ; sh++)
    {
        for (int tr = 1 ; tr < 4 ; tr++)
        {
            spec s = spec_default ( ) ;
            set_shape (&s, shapes [sh]) ;
            s.add = CU_ADD_PLUS ; s.mul = CU_MUL_TIMES ; s.st = CU_INT64 ;
            shape_values (&s, shapes [sh], s.add) ;
            s.trA = tr & 1 ; s.trB = (tr & 2) != 0 ;
            add_spec (&s, "transpose/%s/%s%s", shape_name [shapes [sh]],
                s.trA ? "A'" : "A", s.trB ? "B'" : "B") ;
            // and a non-commutative multiply, to catch a lost swap
            s.mul = CU_MUL_FIRST ; s.add = CU_ADD_MIN ;
            add_spec (&s, "transpose/%s/%s%s/MIN_FIRST", shape_name [shapes [sh]],
                s.trA ? "A'" : "A", s.trB ? "B'" : "B") ;
        }
    }
    spec s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.trA = true ;
    s.m = 20 ; s.k = 35 ; s.st = CU_FP32 ; s.mul = CU_MUL_SECOND ;
    add_spec (&s, "transpose/mxv/A'") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.trB = true ;
    s.st = CU_INT32 ; s.mul = CU_MUL_FIRST ; s.add = CU_ADD_MAX ;
    add_spec (&s, "transpose/vxm/B'") ;
    // the swapped FIRST/SECOND under a transpose, in every order
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.trA = s.trB = true ;
    s.mul = CU_MUL_SECOND ; s.add = CU_ADD_MAX ; s.st = CU_FP64 ;
    add_spec (&s, "transpose/dxs/A'B'/MAX_SECOND") ;
}

//------------------------------------------------------------------------------
// group: storage of each operand
//------------------------------------------------------------------------------

static const int sparsities [ ] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;
static const char *fmt_name (int f) { return f == GxB_BY_COL ? "bycol" : "byrow" ; }

static void group_storage (void)
{
    for (int f = 0 ; f < 2 ; f++)
    {
        int fmt = f ? GxB_BY_COL : GxB_BY_ROW ;
        for (int sp = 0 ; sp < 4 ; sp++)
        {
            int spars = sparsities [sp] ;
            spec s ;
            // A sparse (FULL cannot hold it: stays as GraphBLAS decides)
            s = spec_default ( ) ; s.st = CU_FP32 ; s.sA = spars ; s.fA = fmt ;
            s.gA.empty_rows = 4 ;
            add_spec (&s, "storage/spmm/A_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // B dense in every storage
            s = spec_default ( ) ; s.st = CU_INT32 ; s.sB = spars ; s.fB = fmt ;
            add_spec (&s, "storage/spmm/B_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // C non-empty in every storage (dense so that FULL applies)
            s = spec_default ( ) ; s.st = CU_INT64 ; s.sC = spars ; s.fC = fmt ;
            s.dC = (spars == GxB_FULL) ? 1 : 0.5 ; s.acc = CU_ACC_PLUS ;
            add_spec (&s, "storage/spmm/C_%s_%s_accum", cu_sparsity_name (spars), fmt_name (fmt)) ;
            s.acc = CU_ACC_NONE ; s.mask = MASK_COMP ;
            add_spec (&s, "storage/spmm/C_%s_%s_comp_mask", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // the mask
            if (spars != GxB_FULL)
            {
                s = spec_default ( ) ; s.st = CU_FP64 ; s.mask = MASK_VALUED ;
                s.sM = spars ; s.fM = fmt ; s.dC = 0.4 ; s.tM = CU_INT32 ;
                add_spec (&s, "storage/spmm/M_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
                s.mask = MASK_STRUCT_COMP ; s.acc = CU_ACC_MIN ; s.replace = true ;
                add_spec (&s, "storage/spmm/M_%s_%s_structcomp_accum_replace",
                    cu_sparsity_name (spars), fmt_name (fmt)) ;
            }
            // dense x sparse: both operands
            s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.st = CU_FP64 ;
            s.sA = spars ; s.fA = fmt ; s.sB = (spars == GxB_FULL) ? 0 : spars ; s.fB = 1 - fmt ;
            add_spec (&s, "storage/dxs/A_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // mxv: the matrix
            s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_INT64 ;
            s.sA = (spars == GxB_FULL) ? 0 : spars ; s.fA = fmt ;
            if (spars != GxB_FULL)
                add_spec (&s, "storage/mxv/A_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // SDDMM and GEMM operands held otherwise
            s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.st = CU_FP32 ;
            s.sA = spars ; s.fA = fmt ; s.sB = spars ; s.fB = 1 - fmt ;
            s.sM = (spars == GxB_FULL) ? 0 : spars ; s.fM = fmt ;
            add_spec (&s, "storage/sddmm/%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.st = CU_INT32 ;
            s.sA = spars ; s.fA = fmt ; s.sB = spars ; s.fB = fmt ;
            add_spec (&s, "storage/gemm/%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
        }
    }
    // vectors held sparse / bitmap / full (all present) and the output vector
    for (int sp = 0 ; sp < 4 ; sp++)
    {
        int spars = sparsities [sp] ;
        if (spars == GxB_HYPERSPARSE) continue ;
        spec s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_FP64 ;
        s.sB = spars ; s.sC = (spars == GxB_FULL) ? 0 : spars ; s.dC = 0.5 ;
        s.acc = CU_ACC_PLUS ;
        add_spec (&s, "storage/mxv/u_%s", cu_sparsity_name (spars)) ;
        s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.st = CU_INT32 ;
        s.sA = spars ; s.mask = MASK_VALUED ; s.sM = (spars == GxB_FULL) ? 0 : spars ;
        add_spec (&s, "storage/vxm/u_%s", cu_sparsity_name (spars)) ;
    }
}

//------------------------------------------------------------------------------
// group: iso operands, structure, degenerate shapes
//------------------------------------------------------------------------------

static void group_iso_structure (void)
{
    spec s ;
    // iso A (built from one scalar), iso B (assigned one scalar), both
    s = spec_default ( ) ; s.st = CU_INT64 ; s.gA.iso = true ; s.gA.iso_value = 3 ;
    add_spec (&s, "iso/spmm/A_iso") ;
    s = spec_default ( ) ; s.st = CU_FP64 ; s.gB.iso = true ; s.gB.iso_value = -1.5 ;
    add_spec (&s, "iso/spmm/B_iso") ;
    s.gA.iso = true ; s.gA.iso_value = 2 ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_PLUS ;
    add_spec (&s, "iso/spmm/A_B_iso_MIN_PLUS") ;
    s = spec_default ( ) ; s.st = CU_FP32 ; s.add = CU_ADD_ANY ; s.mul = CU_MUL_SECOND ;
    s.gB.iso = true ; s.gB.iso_value = 4 ;
    add_spec (&s, "iso/spmm/B_iso_ANY_SECOND") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_INT32 ;
    s.gB.iso = true ; s.gB.iso_value = 7 ;
    add_spec (&s, "iso/mxv/u_iso") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.st = CU_FP64 ;
    s.gB.iso = true ; s.gB.iso_value = 0.5 ; s.gA.iso = true ; s.gA.iso_value = 3 ;
    add_spec (&s, "iso/vxm/u_B_iso") ;
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.st = CU_FP64 ;
    s.gA.iso = true ; s.gA.iso_value = 2 ;
    add_spec (&s, "iso/sddmm/A_iso") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.st = CU_INT64 ;
    s.gA.iso = true ; s.gA.iso_value = 2 ; s.gB.iso = true ; s.gB.iso_value = 3 ;
    add_spec (&s, "iso/gemm/A_B_iso") ;
    // iso C on input, with accumulate
    s = spec_default ( ) ; s.st = CU_FP64 ; s.dC = 1 ; s.gC.iso = true ;
    s.gC.iso_value = 10 ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "iso/spmm/C_iso_accum") ;
    // iso mask (valued: all true; and all false)
    s = spec_default ( ) ; s.mask = MASK_VALUED ; s.gM.iso = true ; s.gM.iso_value = 1 ;
    s.dC = 0.5 ;
    add_spec (&s, "iso/spmm/M_iso_true") ;
    s.gM.iso_value = 0 ;
    add_spec (&s, "iso/spmm/M_iso_false") ;

    // many empty rows and columns; explicit zeros that must stay entries
    s = spec_default ( ) ; s.st = CU_INT32 ; s.gA.empty_rows = 2 ; s.gA.empty_cols = 3 ;
    s.dA = 0.5 ;
    add_spec (&s, "structure/spmm/empty_rows_cols") ;
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.st = CU_FP64 ;
    s.gB.empty_rows = 2 ; s.gB.empty_cols = 2 ;
    add_spec (&s, "structure/dxs/empty_rows_cols") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.gA.empty_rows = 3 ;
    add_spec (&s, "structure/mxv/empty_rows") ;
    int zs [ ][3] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64 }, { CU_ADD_MIN, CU_MUL_PLUS, CU_INT32 },
        { CU_ADD_LOR, CU_MUL_LAND, CU_BOOL }, { CU_ADD_TIMES, CU_MUL_TIMES, CU_INT32 },
        { CU_ADD_MAX, CU_MUL_FIRST, CU_UINT64 }, { CU_ADD_PLUS, CU_MUL_PAIR, CU_INT64 },
    } ;
    for (int i = 0 ; i < 6 ; i++)
    {
        s = spec_default ( ) ; s.add = zs [i][0] ; s.mul = zs [i][1] ; s.st = zs [i][2] ;
        s.gA.zeros = 0.5 ; s.gB.zeros = 0.3 ;
        if (s.add == CU_ADD_TIMES) s.gA.vals = s.gB.vals = CU_V_POW2 ;
        add_spec (&s, "structure/spmm/explicit_zeros/%s_%s_%s", cu_add_name (s.add),
            cu_mul_name (s.mul), cu_type_name (s.st)) ;
    }
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.gB.zeros = 1 ;
    add_spec (&s, "structure/dxs/all_explicit_zeros") ;
    // A with no entries at all (C gets none); a single entry
    s = spec_default ( ) ; s.dA = 0 ; s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "structure/spmm/A_no_entries") ;
    s.dC = 0.5 ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "structure/spmm/A_no_entries_accum") ;
    s = spec_default ( ) ; s.dA = 0.004 ; s.m = 30 ; s.k = 30 ;
    s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "structure/spmm/A_very_sparse") ;

    // degenerate shapes
    struct { uint64_t m, k, n ; const char *name ; } dg [ ] =
    {
        { 1, 40, 6, "1xN_times_dense" }, { 40, 1, 6, "Nx1_times_1xK" },
        { 30, 20, 1, "dense_B_one_column" }, { 1, 1, 1, "1x1" },
        { 0, 10, 4, "A_0_rows" }, { 10, 8, 0, "B_0_cols" }, { 0, 5, 0, "C_0x0" },
    } ;
    for (int i = 0 ; i < 7 ; i++)
    {
        s = spec_default ( ) ; s.m = dg [i].m ; s.k = dg [i].k ; s.n = dg [i].n ;
        s.dA = 0.5 ; s.st = CU_INT64 ;
        // an output with no room for entries may be declined ("empty output")
        if (s.m == 0 || s.n == 0) s.expect = CU_EXPECT_ANY ;
        add_spec (&s, "degenerate/spmm/%s", dg [i].name) ;
        s.dA = 1 ; s.dB = 0.5 ;
        add_spec (&s, "degenerate/dxs/%s", dg [i].name) ;
    }
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.m = 1 ; s.k = 30 ;
    add_spec (&s, "degenerate/mxv/1xN") ;
    s.m = 30 ; s.k = 1 ;
    add_spec (&s, "degenerate/mxv/Nx1") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.k = 1 ; s.n = 25 ;
    add_spec (&s, "degenerate/vxm/1xN") ;
    s.k = 25 ; s.n = 1 ;
    add_spec (&s, "degenerate/vxm/Nx1") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.m = 1 ; s.n = 1 ;
    add_spec (&s, "degenerate/gemm/dot_product") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.k = 1 ;
    add_spec (&s, "degenerate/gemm/outer_product") ;
    // inner dimension 0 (unmasked, no accumulate: the 7.4 defects avoided)
    s = spec_default ( ) ; s.m = 5 ; s.k = 0 ; s.n = 4 ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "degenerate/spmm/inner_dim_0") ;
    s.dC = 0.5 ;
    add_spec (&s, "degenerate/spmm/inner_dim_0_C_nonempty") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.m = 6 ; s.k = 0 ;
    s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "degenerate/mxv/inner_dim_0") ;
}

//------------------------------------------------------------------------------
// group: aliasing
//------------------------------------------------------------------------------

static void group_alias (void)
{
    spec s ;
    // C is A: C = C * B (A square so that C has A's dims)
    s = spec_default ( ) ; s.m = s.k = s.n = 24 ; s.st = CU_FP64 ; s.alias = CU_ALIAS_A ;
    add_spec (&s, "alias/spmm/C_is_A") ;
    s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/spmm/C_is_A_accum") ;
    s.mask = MASK_COMP ; s.acc = CU_ACC_MAX ; s.replace = true ;
    add_spec (&s, "alias/spmm/C_is_A_comp_mask_max_replace") ;
    // C is B: C = A * C
    s = spec_default ( ) ; s.m = s.k = s.n = 20 ; s.st = CU_INT32 ; s.alias = CU_ALIAS_B ;
    add_spec (&s, "alias/spmm/C_is_B") ;
    s.mask = MASK_VALUED ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/spmm/C_is_B_masked_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.m = s.k = s.n = 20 ;
    s.alias = CU_ALIAS_A ; s.st = CU_INT64 ;
    add_spec (&s, "alias/dxs/C_is_A") ;
    // C is M: C<C> = A * B
    s = spec_default ( ) ; s.mask = MASK_VALUED ; s.tM = CU_FP64 ; s.tC = CU_FP64 ;
    s.alias = CU_ALIAS_M ;
    add_spec (&s, "alias/spmm/C_is_M") ;
    s.mask = MASK_STRUCT ; s.replace = true ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/spmm/C_is_M_struct_replace_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.tM = CU_FP64 ;
    s.alias = CU_ALIAS_M ;
    add_spec (&s, "alias/sddmm/C_is_M_struct") ;
    s.mask = MASK_VALUED ; s.acc = CU_ACC_TIMES ; s.gM.vals = CU_V_POS ;
    add_spec (&s, "alias/sddmm/C_is_M_valued_times") ;
    // vectors: w is u, w is the mask
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.m = s.k = 40 ; s.alias = CU_ALIAS_B ;
    add_spec (&s, "alias/mxv/w_is_u") ;
    s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/mxv/w_is_u_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.k = s.n = 40 ; s.alias = CU_ALIAS_A ;
    s.st = CU_INT32 ;
    add_spec (&s, "alias/vxm/w_is_u") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.mask = MASK_VALUED ;
    s.tM = CU_FP64 ; s.alias = CU_ALIAS_M ;
    add_spec (&s, "alias/mxv/w_is_mask") ;
}

//------------------------------------------------------------------------------
// group: SDDMM and GEMM variants
//------------------------------------------------------------------------------

static void group_dense (void)
{
    static const sr_pick srs [ ] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP32, NULL, "PLUS_TIMES_FP32" },
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64, NULL, "PLUS_TIMES_FP64" },
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_INT32, NULL, "PLUS_TIMES_INT32" },
        { CU_ADD_LOR, CU_MUL_LAND, CU_BOOL, NULL, "LOR_LAND_BOOL" },
        { CU_ADD_MIN, CU_MUL_PLUS, CU_INT32, NULL, "MIN_PLUS_INT32" },
        { CU_ADD_MAX, CU_MUL_TIMES, CU_FP32, NULL, "MAX_TIMES_FP32" },
        { CU_ADD_PLUS, CU_MUL_PAIR, CU_INT64, NULL, "PLUS_PAIR_INT64" },
        { CU_ADD_ANY, CU_MUL_FIRST, CU_UINT32, NULL, "ANY_FIRST_UINT32" },
    } ;
    for (int i = 0 ; i < 8 ; i++)
    {
        for (int sh = 0 ; sh < 3 ; sh++)
        {
            int shape = sh == 0 ? SH_SDDMM_T : sh == 1 ? SH_SDDMM : SH_GEMM ;
            spec s = spec_default ( ) ;
            s.add = srs [i].add ; s.mul = srs [i].mul ; s.st = srs [i].t ;
            set_shape (&s, shape) ;
            shape_values (&s, shape, s.add) ;
            s.m = 30 + i ; s.k = 3 + 2*i ; s.n = 22 ;
            if (i % 2) { s.dC = 0.4 ; s.acc = CU_ACC_PLUS ; }
            if (shape != SH_GEMM && i % 3 == 1) s.mask = MASK_VALUED ;
            add_spec (&s, "dense/%s/%s%s", shape_name [shape], srs [i].name,
                s.acc ? "_accum" : "") ;
        }
    }
    // real values: tolerance relative to the sum of |terms|
    spec s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.st = CU_FP32 ;
    s.k = 200 ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "dense/gemm/PLUS_TIMES_FP32_real_k200") ;
    s.st = CU_FP64 ; s.rtol = 1e-12 ;
    add_spec (&s, "dense/gemm/PLUS_TIMES_FP64_real_k200") ;
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.st = CU_FP64 ; s.k = 64 ;
    s.gA.vals = s.gB.vals = CU_V_REAL ; s.rtol = 1e-12 ; s.mag = true ;
    add_spec (&s, "dense/sddmm_abt/PLUS_TIMES_FP64_real_k64") ;
    s = spec_default ( ) ; s.m = 300 ; s.k = 200 ; s.n = 16 ; s.dA = 0.05 ;
    s.st = CU_FP32 ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "dense/spmm/PLUS_TIMES_FP32_real_300x200x16") ;
    // a larger SpMM that the host backend may cut into pieces
    s = spec_default ( ) ; s.m = 2000 ; s.k = 1500 ; s.n = 40 ; s.dA = 0.004 ;
    s.st = CU_INT64 ; s.gA.empty_rows = 9 ;
    add_spec (&s, "dense/spmm/PLUS_TIMES_INT64_2000x1500x40") ;
    s.mask = MASK_COMP ; s.dM = 0.1 ; s.acc = CU_ACC_PLUS ; s.dC = 0.2 ;
    s.tM = CU_BOOL ;
    add_spec (&s, "dense/spmm/PLUS_TIMES_INT64_2000x1500x40_comp_accum") ;
}

//------------------------------------------------------------------------------
// group: values that a trip through another type would change
//------------------------------------------------------------------------------

static void group_values (void)
{
    spec s ;
    // integers beyond 2^53 (INT64 / UINT64), whole-range UINT32 / INT32, with
    // wrap-around in the unsigned monoids and multiplies (well defined in C)
    struct { int add, mul, t ; } hs [ ] =
    {
        { CU_ADD_MIN, CU_MUL_FIRST, CU_INT64 }, { CU_ADD_MAX, CU_MUL_SECOND, CU_UINT64 },
        { CU_ADD_MIN, CU_MUL_PLUS, CU_UINT64 }, { CU_ADD_PLUS, CU_MUL_TIMES, CU_UINT64 },
        { CU_ADD_TIMES, CU_MUL_TIMES, CU_UINT64 }, { CU_ADD_MAX, CU_MUL_MIN, CU_INT64 },
        { CU_ADD_PLUS, CU_MUL_FIRST, CU_UINT64 }, { CU_ADD_ANY, CU_MUL_FIRST, CU_INT64 },
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_UINT32 }, { CU_ADD_MIN, CU_MUL_TIMES, CU_UINT32 },
        { CU_ADD_MAX, CU_MUL_PLUS, CU_UINT32 }, { CU_ADD_MIN, CU_MUL_SECOND, CU_INT32 },
        { CU_ADD_MAX, CU_MUL_MAX, CU_INT32 }, { CU_ADD_MIN, CU_MUL_LOR, CU_INT64 },
    } ;
    for (size_t i = 0 ; i < sizeof (hs) / sizeof (hs [0]) ; i++)
    {
        static const int shapes [ ] = { SH_SPMM, SH_MXV, SH_VXM, SH_GEMM, SH_SDDMM_T } ;
        for (int sh = 0 ; sh < 5 ; sh++)
        {
            s = spec_default ( ) ; s.add = hs [i].add ; s.mul = hs [i].mul ; s.st = hs [i].t ;
            set_shape (&s, shapes [sh]) ;
            shape_values (&s, shapes [sh], s.add) ;
            s.gA.vals = s.gB.vals = CU_V_HUGE ;
            add_spec (&s, "values/huge/%s/%s_%s_%s", shape_name [shapes [sh]],
                cu_add_name (s.add), cu_mul_name (s.mul), cu_type_name (s.st)) ;
        }
    }
    // huge integers into other types: INT64 -> FP64 (rounded), UINT64 ->
    // INT32 (modular), INT64 -> UINT32, and an accumulate on huge C values
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_FIRST ; s.st = CU_FP64 ;
    s.tA = CU_INT64 ; s.gA.vals = CU_V_HUGE ;
    add_spec (&s, "values/huge/spmm/A_INT64_MIN_FIRST_FP64") ;
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_INT32 ;
    s.tA = CU_UINT64 ; s.gA.vals = CU_V_HUGE ;
    add_spec (&s, "values/huge/spmm/A_UINT64_MAX_FIRST_INT32") ;
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_SECOND ; s.st = CU_UINT32 ;
    s.tB = CU_INT64 ; s.gB.vals = CU_V_HUGE ;
    add_spec (&s, "values/huge/spmm/B_INT64_MIN_SECOND_UINT32") ;
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_UINT64 ;
    s.gA.vals = s.gC.vals = CU_V_HUGE ; s.dC = 0.6 ; s.acc = CU_ACC_MINUS ;
    add_spec (&s, "values/huge/spmm/C_UINT64_accum_MINUS") ;
    s.tC = CU_INT64 ; s.acc = CU_ACC_PLUS ; s.mask = MASK_COMP ;
    add_spec (&s, "values/huge/spmm/C_INT64_from_UINT64_accum_PLUS_comp") ;

    // FP32 arithmetic must stay FP32: with at most two terms per entry the
    // order of summation cannot matter, so the sums must be bit-identical
    // (a wider accumulator rounds differently)
    for (int k = 1 ; k <= 2 ; k++)
    {
        static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_MXV, SH_VXM, SH_GEMM, SH_SDDMM_T } ;
        for (int sh = 0 ; sh < 6 ; sh++)
        {
            s = spec_default ( ) ; s.st = CU_FP32 ;
            set_shape (&s, shapes [sh]) ;
            s.k = k ;
            if (s.dA < 1) s.dA = 0.7 ;
            if (s.dB < 1) s.dB = 0.7 ;
            s.gA.vals = s.gB.vals = CU_V_REAL ;
            add_spec (&s, "values/fp32_exact/%s/k%d", shape_name [shapes [sh]], k) ;
            // FP64 operands rounded to FP32 first; FP32 sums into a FP64 C
            s.tA = s.tB = CU_FP64 ; s.tC = CU_FP64 ;
            add_spec (&s, "values/fp32_exact/%s/k%d_FP64_operands_and_C", shape_name [shapes [sh]], k) ;
        }
    }
    // and FP32 with accumulate into FP32 C (one rounding per step)
    s = spec_default ( ) ; s.st = CU_FP32 ; s.k = 2 ; s.dA = 0.7 ;
    s.gA.vals = s.gB.vals = s.gC.vals = CU_V_REAL ; s.dC = 0.7 ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "values/fp32_exact/spmm/k2_accum") ;
    // FP64 with two terms: exact too
    s = spec_default ( ) ; s.st = CU_FP64 ; s.k = 2 ; s.dA = 0.7 ;
    s.gA.vals = s.gB.vals = CU_V_REAL ;
    add_spec (&s, "values/fp64_exact/spmm/k2") ;
    s.mul = CU_MUL_PLUS ; s.add = CU_ADD_TIMES ;
    add_spec (&s, "values/fp64_exact/spmm/k2_TIMES_PLUS") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_FP32 ; s.add = CU_ADD_MIN ;
    s.mul = CU_MUL_TIMES ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.tA = CU_FP64 ;
    add_spec (&s, "values/fp32_exact/mxv/MIN_TIMES_FP64_A") ;

    // the full non-complemented mask with accumulate (a 7.4 defect path in
    // the write-back): grbgpu declines it
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_VALUED ; s.dM = 1 ;
    s.sM = GxB_FULL ; s.acc = CU_ACC_PLUS ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "mask/spmm/full_mask_valued_accum_declined") ;
    s.mask = MASK_STRUCT ;
    add_spec (&s, "mask/spmm/full_mask_struct_accum_declined") ;
    // the same dense mask held as a bitmap: offloading it is allowed
    s.mask = MASK_VALUED ; s.sM = GxB_BITMAP ; s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "mask/spmm/dense_bitmap_mask_valued_accum") ;
}

//------------------------------------------------------------------------------
// group: non-finite and extreme values
//------------------------------------------------------------------------------

// +INF, -INF, NaN, -0, subnormals and the largest finite value in sparse and
// dense operands, iso and not, for SpMM (n = 1, 4 and 40: 40 is where
// cuSPARSE takes the plus-times family), dense x sparse, mxv, vxm, SDDMM and
// GEMM.  The CPU library combines only the terms that exist, starting from
// the first: an absent, padded or masked-out entry must never meet a
// non-finite value (0 * INF, INF - INF), an all-NaN MIN / MAX is NaN (fmin
// and fmax drop NaN), and a sum of -0 is -0 (compared equal to +0 here).
// The values are chosen so that every order of the monoid gives the same
// answer (CU_V_NONFINITE: exact, CU_V_EXTREME: overflow to INF alike in any
// order, subnormal rounding within the tolerance), so that a GPU that sums
// in another order still has to match.  On the GPU run
// (GRBGPU_TEST_DEVICE=cuda) every kernel variant is forced in turn
// (group_nonfinite_kernels).

typedef struct { int add, mul ; } nf_pick ;

static const nf_pick nf_semirings [ ] =
{
    { CU_ADD_PLUS, CU_MUL_TIMES }, { CU_ADD_PLUS, CU_MUL_SECOND },
    { CU_ADD_PLUS, CU_MUL_FIRST }, { CU_ADD_PLUS, CU_MUL_PAIR },
    { CU_ADD_MIN, CU_MUL_PLUS }, { CU_ADD_MAX, CU_MUL_TIMES },
    { CU_ADD_MIN, CU_MUL_SECOND }, { CU_ADD_MAX, CU_MUL_SECOND },
    { CU_ADD_MIN, CU_MUL_TIMES }, { CU_ADD_MAX, CU_MUL_MIN },
    { CU_ADD_PLUS, CU_MUL_MIN }, { CU_ADD_TIMES, CU_MUL_FIRST },
    { CU_ADD_MIN, CU_MUL_FIRST }, { CU_ADD_MAX, CU_MUL_PLUS },
    { CU_ADD_TIMES, CU_MUL_SECOND }, { CU_ADD_PLUS, CU_MUL_PLUS },
} ;
#define NF_NSR (int) (sizeof (nf_semirings) / sizeof (nf_pick))

// the shapes: SpMM n = 1, 4, 40, then dxs, mxv, vxm, both SDDMMs, GEMM, and
// (for the kernel variants) long rows: rows of ~240 entries, cut by the
// chunks of the nnz-split, merge and warp schedules
enum { NF_SPMM1 = 0, NF_SPMM4, NF_SPMM40, NF_DXS, NF_MXV, NF_VXM, NF_SDDMM_T,
    NF_SDDMM, NF_GEMM, NF_LONG1, NF_LONG4, NF_LONG_MXV, NF_LONG_VXM, NF_NSHAPES } ;
static const char *nf_shape_name [NF_NSHAPES] = { "spmm_n1", "spmm_n4",
    "spmm_n40", "dxs", "mxv", "vxm", "sddmm_abt", "sddmm_ab", "gemm",
    "long_n1", "long_n4", "long_mxv", "long_vxm" } ;

static void nf_shape (spec *s, int shape)
{
    switch (shape)
    {
        case NF_SPMM1:   set_shape (s, SH_SPMM) ; s->n = 1 ; break ;
        case NF_SPMM4:   set_shape (s, SH_SPMM) ; s->n = 4 ; break ;
        case NF_SPMM40:  set_shape (s, SH_SPMM) ; s->n = 40 ; break ;
        case NF_DXS:     set_shape (s, SH_DXS) ; break ;
        case NF_MXV:     set_shape (s, SH_MXV) ; break ;
        case NF_VXM:     set_shape (s, SH_VXM) ; break ;
        case NF_SDDMM_T: set_shape (s, SH_SDDMM_T) ; break ;
        case NF_SDDMM:   set_shape (s, SH_SDDMM) ; break ;
        case NF_GEMM:    set_shape (s, SH_GEMM) ; break ;
        case NF_LONG1: case NF_LONG4:
            set_shape (s, SH_SPMM) ;
            s->m = 37 ; s->k = 600 ; s->n = (shape == NF_LONG1) ? 1 : 4 ; s->dA = 0.4 ;
            break ;
        case NF_LONG_MXV:
            set_shape (s, SH_MXV) ; s->m = 37 ; s->k = 600 ; s->dA = 0.4 ; break ;
        default:
            set_shape (s, SH_VXM) ; s->k = 600 ; s->n = 37 ; s->dB = 0.4 ; break ;
    }
}

// does the multiply read the left / right operand's values
static bool nf_reads_a (int mul) { return mul != CU_MUL_SECOND && mul != CU_MUL_PAIR ; }
static bool nf_reads_b (int mul) { return mul != CU_MUL_FIRST && mul != CU_MUL_PAIR ; }

// both operands drawn from one palette (explicit zeros in the sparse one)
static void nf_values (spec *s, int vals)
{
    memset (&s->gA, 0, sizeof (cu_gen)) ;
    memset (&s->gB, 0, sizeof (cu_gen)) ;
    s->gA.vals = s->gB.vals = vals ;
    if (s->dA < 1) s->gA.zeros = 0.1 ;
    if (s->dB < 1) s->gB.zeros = 0.1 ;
    // subnormals round differently in another order: a tolerance relative
    // to the result (the values are non-negative: no cancellation)
    s->rtol = (vals == CU_V_EXTREME) ? 1e-6 : 0 ;
}

static void group_nonfinite (void)
{
    static const int types [2] = { CU_FP32, CU_FP64 } ;
    for (int ti = 0 ; ti < 2 ; ti++)
    {
        const int t = types [ti] ;
        // every semiring on every shape, both palettes
        for (int i = 0 ; i < NF_NSR ; i++)
        {
            for (int sh = 0 ; sh <= NF_GEMM ; sh++)
            {
                for (int pal = 0 ; pal < 2 ; pal++)
                {
                    const int vals = pal ? CU_V_EXTREME : CU_V_NONFINITE ;
                    const int add = nf_semirings [i].add, mul = nf_semirings [i].mul ;
                    // a long product of extreme values overflows in one order
                    // and not in another: TIMES monoids take the other palette
                    if (vals == CU_V_EXTREME && add == CU_ADD_TIMES) continue ;
                    spec s = spec_default ( ) ;
                    s.add = add ; s.mul = mul ; s.st = t ;
                    nf_shape (&s, sh) ;
                    nf_values (&s, vals) ;
                    add_spec (&s, "nonfinite/%s/%s/%s_%s_%s", pal ? "extreme" : "mixed",
                        nf_shape_name [sh], cu_add_name (add), cu_mul_name (mul),
                        cu_type_name (t)) ;
                }
            }
        }
        // an iso operand holding a special value (the other: small integers
        // with explicit zeros), the operand the multiply reads
        const double isos [6] = { INFINITY, -INFINITY, NAN, -0.0,
            (t == CU_FP32) ? FLT_MAX : DBL_MAX, (t == CU_FP32) ? 0x1p-149 : 0x1p-1074 } ;
        static const char *iso_name [6] = { "inf", "-inf", "nan", "-0", "max", "subnormal" } ;
        static const nf_pick iso_sr [ ] =
        {
            { CU_ADD_PLUS, CU_MUL_SECOND }, { CU_ADD_PLUS, CU_MUL_FIRST },
            { CU_ADD_PLUS, CU_MUL_TIMES }, { CU_ADD_MIN, CU_MUL_SECOND },
            { CU_ADD_MAX, CU_MUL_FIRST }, { CU_ADD_MIN, CU_MUL_PLUS },
        } ;
        static const int iso_shapes [ ] = { NF_SPMM1, NF_SPMM4, NF_SPMM40,
            NF_DXS, NF_MXV, NF_VXM, NF_SDDMM_T, NF_GEMM } ;
        for (int i = 0 ; i < (int) (sizeof (iso_sr) / sizeof (nf_pick)) ; i++)
        {
            for (int side = 0 ; side < 2 ; side++)
            {
                const int add = iso_sr [i].add, mul = iso_sr [i].mul ;
                if (side == 0 && !nf_reads_a (mul)) continue ;
                if (side == 1 && !nf_reads_b (mul)) continue ;
                for (int v = 0 ; v < 6 ; v++)
                {
                    for (int q = 0 ; q < (int) (sizeof (iso_shapes) / sizeof (int)) ; q++)
                    {
                        spec s = spec_default ( ) ;
                        s.add = add ; s.mul = mul ; s.st = t ;
                        nf_shape (&s, iso_shapes [q]) ;
                        nf_values (&s, CU_V_INT) ;
                        cu_gen *g = side ? &s.gB : &s.gA ;
                        g->iso = true ;
                        g->iso_value = isos [v] ;
                        g->zeros = 0 ;
                        if (v >= 4)
                        {
                            // the largest value times an integer of either
                            // sign gives +-INF and +-MAX, whose sum depends on
                            // the order: the other operand is positive
                            s.gA.vals = s.gB.vals = CU_V_POS ;
                            s.rtol = 1e-6 ;
                        }
                        add_spec (&s, "nonfinite/iso_%s_%s/%s/%s_%s_%s", side ? "B" : "A",
                            iso_name [v], nf_shape_name [iso_shapes [q]],
                            cu_add_name (add), cu_mul_name (mul), cu_type_name (t)) ;
                    }
                }
            }
        }
        // ANY: with every candidate of an entry the same value (op (B)
        // constant down each column), special values included
        spec s = spec_default ( ) ;
        s.add = CU_ADD_ANY ; s.mul = CU_MUL_SECOND ; s.st = t ;
        nf_shape (&s, NF_SPMM4) ;
        nf_values (&s, CU_V_NONFINITE) ;
        s.gB.vary = CU_VARY_COL ;
        add_spec (&s, "nonfinite/mixed/spmm_n4/ANY_SECOND_%s", cu_type_name (t)) ;
        // special values cast into the semiring's type: FP64 operands into
        // FP32 (DBL_MAX -> INF, subnormals -> 0) and into integers (NaN -> 0,
        // infinities saturate)
        static const int into [3] = { CU_INT32, CU_UINT64, CU_FP32 } ;
        if (t == CU_FP64)
        {
            for (int j = 0 ; j < 3 ; j++)
            {
                for (int pal = 0 ; pal < 2 ; pal++)
                {
                    s = spec_default ( ) ;
                    s.add = CU_ADD_PLUS ; s.mul = CU_MUL_TIMES ; s.st = into [j] ;
                    nf_shape (&s, NF_SPMM4) ;
                    nf_values (&s, pal ? CU_V_EXTREME : CU_V_NONFINITE) ;
                    if (into [j] != CU_FP32) s.rtol = 0 ;
                    s.tA = s.tB = CU_FP64 ;
                    add_spec (&s, "nonfinite/cast/%s/spmm_n4/PLUS_TIMES_%s",
                        pal ? "extreme" : "mixed", cu_type_name (into [j])) ;
                    s.add = CU_ADD_MIN ; s.mul = CU_MUL_SECOND ;
                    add_spec (&s, "nonfinite/cast/%s/spmm_n4/MIN_SECOND_%s",
                        pal ? "extreme" : "mixed", cu_type_name (into [j])) ;
                }
            }
        }
    }
}

// The kernel variants GRBGPU_KERNEL can force (README's settings table) and
// the shapes each one serves (a variant asked for a product it has no
// kernel for declines it, which is not what is tested here).
static const struct { const char *name ; int shapes ; } nf_kernels [ ] =
{
#define NF_ALL   0x1fff
#define NF_SPMV  ((1 << NF_SPMM1) | (1 << NF_MXV) | (1 << NF_VXM) | (1 << NF_LONG1) \
                  | (1 << NF_LONG_MXV) | (1 << NF_LONG_VXM))
#define NF_SPMMS (NF_SPMV | (1 << NF_SPMM4) | (1 << NF_SPMM40) | (1 << NF_DXS) | (1 << NF_LONG4))
#define NF_SDD   ((1 << NF_SDDMM_T) | (1 << NF_SDDMM))
    { "", NF_ALL }, { "row_g4", NF_SPMMS }, { "cusparse", NF_ALL },
    { "cusparse:alg1", NF_SPMMS }, { "cusparse:alg2", NF_SPMMS },
    { "cusparse:alg3", NF_SPMMS }, { "band", NF_SPMV }, { "hot", NF_SPMV },
    { "row_g8", NF_SPMMS }, { "row_g16", NF_SPMMS }, { "row_g32", NF_SPMMS },
    { "nnz_k8", NF_SPMMS }, { "nnz_k16", NF_SPMMS }, { "nnz_k32", NF_SPMMS },
    { "nnz_k128", NF_SPMMS }, { "merge_i4", NF_SPMMS }, { "merge_i8", NF_SPMMS },
    { "warp_t8", NF_SPMMS }, { "g4", NF_SDD }, { "g8", NF_SDD }, { "g16", NF_SDD },
    { "g32", NF_SDD }, { "tc3", NF_SPMMS }, { "tc4", NF_SPMMS },
    { "tc3f", NF_SPMMS }, { "tc4f", NF_SPMMS }, { "tc3r", NF_SPMMS }, { "nm", NF_SPMMS },
} ;

// Every variant meets the special values: on the GPU run all of them, on
// the host (which ignores the names) the first two, to keep the loop tested.
static void group_nonfinite_kernels (void)
{
    static const nf_pick srs [ ] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES }, { CU_ADD_PLUS, CU_MUL_SECOND },
        { CU_ADD_PLUS, CU_MUL_FIRST }, { CU_ADD_MIN, CU_MUL_SECOND },
        { CU_ADD_MAX, CU_MUL_TIMES },
    } ;
    static const int types [2] = { CU_FP32, CU_FP64 } ;
    const int nk = (strcmp (cu_offload_device ( ), "cuda") == 0)
        ? (int) (sizeof (nf_kernels) / sizeof (nf_kernels [0])) : 2 ;
    for (int kv = 0 ; kv < nk ; kv++)
    {
        const char *kname = nf_kernels [kv].name [0] ? nf_kernels [kv].name : "chooser" ;
        for (int sh = 0 ; sh < NF_NSHAPES ; sh++)
        {
            if (!(nf_kernels [kv].shapes & (1 << sh))) continue ;
            for (int ti = 0 ; ti < 2 ; ti++)
            {
                const int t = types [ti] ;
                for (int i = 0 ; i < (int) (sizeof (srs) / sizeof (nf_pick)) ; i++)
                {
                    spec s = spec_default ( ) ;
                    s.add = srs [i].add ; s.mul = srs [i].mul ; s.st = t ;
                    s.kernel = nf_kernels [kv].name ;
                    nf_shape (&s, sh) ;
                    nf_values (&s, CU_V_NONFINITE) ;
                    add_spec (&s, "nonfinite_kernel/%s/%s/%s_%s_%s", kname,
                        nf_shape_name [sh], cu_add_name (s.add), cu_mul_name (s.mul),
                        cu_type_name (t)) ;
                }
                // the report's case (PLUS_SECOND, dense operand iso +INF) and
                // an all-NaN MIN (NaN, not +INF)
                spec s = spec_default ( ) ;
                s.add = CU_ADD_PLUS ; s.mul = CU_MUL_SECOND ; s.st = t ;
                s.kernel = nf_kernels [kv].name ;
                nf_shape (&s, sh) ;
                nf_values (&s, CU_V_INT) ;
                bool right = (sh != NF_DXS) ;       // the dense operand
                cu_gen *g = right ? &s.gB : &s.gA ;
                if (!right) s.mul = CU_MUL_FIRST ;
                g->iso = true ; g->iso_value = INFINITY ; g->zeros = 0 ;
                add_spec (&s, "nonfinite_kernel/%s/%s/iso_inf_PLUS_%s_%s", kname,
                    nf_shape_name [sh], cu_mul_name (s.mul), cu_type_name (t)) ;
                s.add = CU_ADD_MIN ; g->iso_value = NAN ;
                add_spec (&s, "nonfinite_kernel/%s/%s/iso_nan_MIN_%s_%s", kname,
                    nf_shape_name [sh], cu_mul_name (s.mul), cu_type_name (t)) ;
            }
        }
    }
}

//------------------------------------------------------------------------------
// group: dense x N:M (the nm row, backend/cuda/family_nm.c)
//------------------------------------------------------------------------------

// C<M> accum= X * W with X dense and W N:M down its columns (2:4, 1:4, 1:8;
// every 5th column of W empty, so rows of the SpMM's S = W' have no entry),
// FP32 and FP64 PLUS_TIMES, through every mask kind with and without
// replace, accumulators (C sparse and C full), W given transposed, values
// exact (small integers), special (Inf, NaN, -0) and real (a tolerance), and
// a near-miss (M/2:M with one group holding one entry too many).  The offload
// side forces GRBGPU_KERNEL=nm (the host backend ignores the name; on the
// GPU the row runs, or declines the near-miss to the other rows).
static void group_nm (void)
{
    static const int pairs [3][2] = { { 2, 4 }, { 1, 4 }, { 1, 8 } } ;
    static const int types [2] = { CU_FP32, CU_FP64 } ;
    static const int accs [4] = { CU_ACC_PLUS, CU_ACC_MIN, CU_ACC_SECOND, CU_ACC_TIMES } ;
    for (int pi = 0 ; pi < 3 ; pi++)
    {
        for (int ti = 0 ; ti < 2 ; ti++)
        {
            const int N = pairs [pi][0], M = pairs [pi][1], t = types [ti] ;
            char tag [32] ;
            snprintf (tag, sizeof (tag), "%d_%d_%s", N, M, cu_type_name (t)) ;
            spec b = spec_default ( ) ;
            set_shape (&b, SH_DXS) ;
            b.st = t ; b.m = 9 ; b.k = 61 ; b.n = 40 ;
            b.nm_n = N ; b.nm_m = M ;
            b.kernel = "nm" ;
            b.gA.vals = b.gB.vals = CU_V_INT ;
            spec s = b ;
            add_spec (&s, "nm/%s/plain", tag) ;
            for (int mk = MASK_VALUED ; mk < MASK_NKINDS ; mk++)
            {
                for (int rep = 0 ; rep < 2 ; rep++)
                {
                    s = b ; s.mask = mk ; s.dM = 0.4 ; s.replace = rep ; s.dC = 0.5 ;
                    s.tM = (mk == MASK_VALUED) ? CU_FP32 : CU_BOOL ;
                    s.gM.zeros = 0.3 ;
                    add_spec (&s, "nm/%s/mask_%s%s", tag, mask_name [mk], rep ? "_replace" : "") ;
                }
            }
            for (int a = 0 ; a < 4 ; a++)
            {
                s = b ; s.acc = accs [a] ; s.dC = 0.5 ;
                if (accs [a] == CU_ACC_TIMES) s.gA.vals = s.gB.vals = s.gC.vals = CU_V_POW2 ;
                add_spec (&s, "nm/%s/accum_%s", tag, cu_acc_name (accs [a])) ;
                s.mask = MASK_STRUCT_COMP ; s.dM = 0.3 ; s.replace = true ;
                add_spec (&s, "nm/%s/accum_%s_structcomp_replace", tag, cu_acc_name (accs [a])) ;
            }
            s = b ; s.acc = CU_ACC_PLUS ; s.dC = 1 ;
            add_spec (&s, "nm/%s/accum_PLUS_C_full", tag) ;
            s = b ; s.dC = 1 ; s.fC = GxB_BY_COL ;
            add_spec (&s, "nm/%s/C_full_bycol_replaced", tag) ;
            s = b ; s.trB = true ;
            add_spec (&s, "nm/%s/W_transposed", tag) ;
            s = b ; s.fB = GxB_BY_COL ;
            add_spec (&s, "nm/%s/W_bycol", tag) ;
            s = b ; s.m = 300 ; s.k = 256 ; s.n = 70 ;
            add_spec (&s, "nm/%s/larger", tag) ;
            s = b ; nf_values (&s, CU_V_NONFINITE) ; s.gB.zeros = 0 ;
            add_spec (&s, "nm/%s/nonfinite", tag) ;
            s = b ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.mag = true ;
            s.rtol = (t == CU_FP32) ? 1e-5 : 1e-12 ;
            add_spec (&s, "nm/%s/real", tag) ;
            s = b ; s.nm_n = M / 2 ; s.nm_extra = true ;
            add_spec (&s, "nm/%s/near_miss", tag) ;
        }
    }
}

//------------------------------------------------------------------------------
// group: more aliasing (inputs shared), and transposes with column storage
//------------------------------------------------------------------------------

static void group_alias2 (void)
{
    spec s ;
    // C = X * X' with one handle for both (SDDMM and GEMM), and C = C * C
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.n = s.m ; s.B_is_A = true ;
    s.st = CU_INT64 ;
    add_spec (&s, "alias/sddmm/B_is_A") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.m = s.n = 12 ; s.trB = true ;
    s.B_is_A = true ; s.st = CU_FP64 ;
    add_spec (&s, "alias/gemm/X_times_X_transposed") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.m = s.k = s.n = 12 ;
    s.alias = CU_ALIAS_AB ; s.st = CU_INT32 ;
    add_spec (&s, "alias/gemm/C_is_A_and_B") ;
    s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/gemm/C_is_A_and_B_accum") ;
    // the mask is the sparse input (C<A> = A * B), with C aliased to A too
    s = spec_default ( ) ; s.m = s.k = 20 ; s.n = 20 ; s.M_is_A = true ;
    s.mask = MASK_VALUED ; s.gA.zeros = 0.3 ;
    add_spec (&s, "alias/spmm/M_is_A") ;
    s.mask = MASK_STRUCT ; s.alias = CU_ALIAS_A ;
    add_spec (&s, "alias/spmm/C_is_A_M_is_A") ;
    // C = A' * C (transpose and output alias)
    s = spec_default ( ) ; s.m = s.k = s.n = 20 ; s.trA = true ; s.alias = CU_ALIAS_B ;
    s.st = CU_INT64 ;
    add_spec (&s, "alias/spmm/C_is_B_A_transposed") ;

    // transposes with operands held by column
    static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_GEMM, SH_SDDMM, SH_MXV, SH_VXM } ;
    for (int sh = 0 ; sh < 6 ; sh++)
    {
        for (int tr = 0 ; tr < 4 ; tr++)
        {
            s = spec_default ( ) ; set_shape (&s, shapes [sh]) ;
            s.add = CU_ADD_MAX ; s.mul = CU_MUL_SECOND ; s.st = CU_INT32 ;
            shape_values (&s, shapes [sh], s.add) ;
            s.trA = (tr & 1) && shapes [sh] != SH_VXM ;
            s.trB = (tr & 2) && shapes [sh] != SH_MXV ;
            if ((tr & 1) && !s.trA) continue ;
            if ((tr & 2) && !s.trB) continue ;
            s.fA = s.fB = GxB_BY_COL ;
            if (tr == 3) s.fB = GxB_BY_ROW ;
            s.dC = 0.3 ; s.fC = GxB_BY_COL ;
            add_spec (&s, "transpose/bycol/%s/%s%s", shape_name [shapes [sh]],
                s.trA ? "A'" : "A", s.trB ? "B'" : "B") ;
        }
    }
}

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

static void group_sequence (void)
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

static void group_pending (void)
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

static void group_monoids (void)
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

static void group_declines (void)
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

static void group_invalid (void)
{
    for (int k = 0 ; k < INV_N ; k++)
    {
        spec s = spec_default ( ) ;
        s.custom = case_invalid ;
        s.acc = k ;
        add_spec (&s, "invalid/%s", inv_name [k]) ;
    }
}

//------------------------------------------------------------------------------
// group: real matrices from $GRBGPU_TEST_DATA
//------------------------------------------------------------------------------

static const char *data_dir (void)
{
    const char *d = getenv ("GRBGPU_TEST_DATA") ;
    return (d && *d) ? d : NULL ;
}

// Read a Matrix Market coordinate file through gzip -dc.  symmetric and
// skew-symmetric are mirrored; pattern gets random values in (-1,1).
static GrB_Matrix read_mtx_gz (const char *path, cu_rng *r, bool *pattern)
{
    char cmd [4200] ;
    snprintf (cmd, sizeof cmd, "gzip -dc '%s'", path) ;
    FILE *f = popen (cmd, "r") ;
    if (f == NULL) return NULL ;
    char line [1024] ;
    if (!fgets (line, sizeof line, f)) { pclose (f) ; return NULL ; }
    bool sym = strstr (line, "symmetric") != NULL ;
    bool skew = strstr (line, "skew-symmetric") != NULL ;
    *pattern = strstr (line, "pattern") != NULL ;
    do
    {
        if (!fgets (line, sizeof line, f)) { pclose (f) ; return NULL ; }
    }
    while (line [0] == '%') ;
    unsigned long long m, n, nz ;
    if (sscanf (line, "%llu %llu %llu", &m, &n, &nz) != 3) { pclose (f) ; return NULL ; }
    uint64_t cap = (sym ? 2 : 1) * nz + 1 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    if (!I || !J || !X) cu_die (__FILE__, __LINE__, "malloc", 0) ;
    uint64_t k = 0 ;
    while (fgets (line, sizeof line, f))
    {
        char *p = line, *e ;
        unsigned long long i = strtoull (p, &e, 10) ; p = e ;
        unsigned long long j = strtoull (p, &e, 10) ; p = e ;
        if (i == 0 || j == 0) continue ;
        double x = *pattern ? 2 * cu_unif (r) - 1 : strtod (p, NULL) ;
        I [k] = i - 1 ; J [k] = j - 1 ; X [k] = x ; k++ ;
        if (sym && i != j)
        {
            I [k] = j - 1 ; J [k] = i - 1 ; X [k] = skew ? -x : x ; k++ ;
        }
        if (k + 2 > cap) break ;
    }
    pclose (f) ;
    GrB_Matrix A ;
    CU_OK (GrB_Matrix_new (&A, GrB_FP64, m, n)) ;
    CU_OK (GrB_Matrix_build_FP64 (A, I, J, X, k, GrB_PLUS_FP64)) ;
    CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    free (I) ; free (J) ; free (X) ;
    return A ;
}

static GrB_Matrix dense_matrix (cu_rng *r, int t, uint64_t m, uint64_t n, int vals)
{
    cu_gen g = { 0 } ;
    g.vals = vals ;
    return cu_matrix (r, t, m, n, 1, &g) ;
}

// one product of a real matrix, both sides, compared
static int real_call (const char *name, int op, GrB_Semiring s, int mul,
    GrB_Matrix A, void *X, int tC, double rtol)
{
    GrB_Index m, n, nx = 1 ;
    CU_OK (GrB_Matrix_nrows (&m, A)) ;
    CU_OK (GrB_Matrix_ncols (&n, A)) ;
    if (op == CU_MXM) CU_OK (GrB_Matrix_ncols (&nx, (GrB_Matrix) X)) ;
    void *C0 = NULL, *mag = NULL ;
    cu_call c ;
    cu_call_init (&c, name, op) ;
    c.s = s ; c.rtol = rtol ; c.expect = CU_EXPECT_OFFLOAD ;
    if (op == CU_MXM)
    {
        CU_OK (GrB_Matrix_new ((GrB_Matrix *) &C0, cu_type (tC), m, nx)) ;
        c.A = A ; c.B = X ;
        if (rtol > 0) mag = magnitude (op, mul, A, X, false, false, m, nx) ;
    }
    else if (op == CU_MXV)
    {
        CU_OK (GrB_Vector_new ((GrB_Vector *) &C0, cu_type (tC), m)) ;
        c.A = A ; c.B = X ;
        if (rtol > 0) mag = magnitude (op, mul, A, X, false, false, m, 1) ;
    }
    else
    {
        CU_OK (GrB_Vector_new ((GrB_Vector *) &C0, cu_type (tC), n)) ;
        c.A = X ; c.B = A ;
        if (rtol > 0) mag = magnitude (op, mul, X, A, false, false, 1, n) ;
    }
    c.C0 = C0 ; c.mag = mag ;
    int problems = cu_run (&c) ;
    free_obj (op != CU_MXM, &C0) ;
    free_obj (op != CU_MXM, &mag) ;
    return problems ;
}

static int case_real (const spec *s)
{
    const char *dir = data_dir ( ) ;
    char path [4096] ;
    snprintf (path, sizeof path, "%s/%s", dir ? dir : ".", s->file) ;
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    bool pattern ;
    GrB_Matrix A = read_mtx_gz (path, &r, &pattern) ;
    if (A == NULL)
    {
        printf ("  [%s] cannot read %s\n", s->name, path) ;
        return 1 ;
    }
    GrB_Index m, n, nz ;
    GrB_Matrix_nrows (&m, A) ; GrB_Matrix_ncols (&n, A) ; GrB_Matrix_nvals (&nz, A) ;
    bool big = m > 100000 ;
    printf ("  [%s] %llu x %llu, %llu entries%s\n", s->name, (unsigned long long) m,
        (unsigned long long) n, (unsigned long long) nz, big ? " (big: fewer semirings)" : "") ;
    int problems = 0 ;
    char name [256] ;
    int widths [2] = { 8, 33 } ;
    for (int w = 0 ; w < (big ? 1 : 2) ; w++)
    {
        int N = widths [w] ;
        GrB_Matrix B64 = dense_matrix (&r, CU_FP64, n, N, CU_V_REAL) ;
        snprintf (name, sizeof name, "%s/spmm%d/PLUS_TIMES_FP64", s->name, N) ;
        problems += real_call (name, CU_MXM, GrB_PLUS_TIMES_SEMIRING_FP64,
            CU_MUL_TIMES, A, B64, CU_FP64, 1e-12) ;
        snprintf (name, sizeof name, "%s/spmm%d/MIN_PLUS_FP64", s->name, N) ;
        problems += real_call (name, CU_MXM, GrB_MIN_PLUS_SEMIRING_FP64,
            CU_MUL_PLUS, A, B64, CU_FP64, 0) ;
        GrB_Matrix_free (&B64) ;
        if (w == 0)
        {
            GrB_Matrix B32 = dense_matrix (&r, CU_FP32, n, N, CU_V_REAL) ;
            snprintf (name, sizeof name, "%s/spmm%d/PLUS_SECOND_FP32", s->name, N) ;
            problems += real_call (name, CU_MXM, GxB_PLUS_SECOND_FP32,
                CU_MUL_SECOND, A, B32, CU_FP32, 1e-5) ;
            GrB_Matrix_free (&B32) ;
            GrB_Matrix Bi = dense_matrix (&r, CU_INT64, n, N, CU_V_REAL) ;
            snprintf (name, sizeof name, "%s/spmm%d/MIN_SECOND_INT64", s->name, N) ;
            problems += real_call (name, CU_MXM, GrB_MIN_SECOND_SEMIRING_INT64,
                CU_MUL_SECOND, A, Bi, CU_INT64, 0) ;
            GrB_Matrix_free (&Bi) ;
        }
    }
    cu_gen g = { 0 } ;
    g.vals = CU_V_REAL ;
    GrB_Vector u = cu_vector (&r, CU_FP64, n, 1, &g) ;
    snprintf (name, sizeof name, "%s/mxv/PLUS_TIMES_FP64", s->name) ;
    problems += real_call (name, CU_MXV, GrB_PLUS_TIMES_SEMIRING_FP64, CU_MUL_TIMES,
        A, u, CU_FP64, 1e-12) ;
    snprintf (name, sizeof name, "%s/mxv/MIN_PLUS_FP64", s->name) ;
    problems += real_call (name, CU_MXV, GrB_MIN_PLUS_SEMIRING_FP64, CU_MUL_PLUS,
        A, u, CU_FP64, 0) ;
    GrB_Vector_free (&u) ;
    GrB_Vector u32 = cu_vector (&r, CU_FP32, n, 1, &g) ;
    snprintf (name, sizeof name, "%s/mxv/PLUS_SECOND_FP32", s->name) ;
    problems += real_call (name, CU_MXV, GxB_PLUS_SECOND_FP32, CU_MUL_SECOND,
        A, u32, CU_FP32, 1e-5) ;
    GrB_Vector_free (&u32) ;
    GrB_Vector v = cu_vector (&r, CU_FP64, m, 1, &g) ;
    snprintf (name, sizeof name, "%s/vxm/PLUS_TIMES_FP64", s->name) ;
    problems += real_call (name, CU_VXM, GrB_PLUS_TIMES_SEMIRING_FP64, CU_MUL_TIMES,
        A, v, CU_FP64, 1e-12) ;
    GrB_Vector_free (&v) ;
    GrB_Vector vi = cu_vector (&r, CU_INT64, m, 1, &g) ;
    snprintf (name, sizeof name, "%s/vxm/MIN_SECOND_INT64", s->name) ;
    problems += real_call (name, CU_VXM, GrB_MIN_SECOND_SEMIRING_INT64, CU_MUL_SECOND,
        A, vi, CU_INT64, 0) ;
    GrB_Vector_free (&vi) ;
    GrB_Matrix_free (&A) ;
    return problems ;
}

static int cmp_str (const void *a, const void *b)
{
    return strcmp (*(char *const *) a, *(char *const *) b) ;
}

static void group_real (void)
{
    const char *dir = data_dir ( ) ;
    DIR *d = dir ? opendir (dir) : NULL ;
    if (d == NULL)
    {
        printf ("real-matrix cases skipped: GRBGPU_TEST_DATA (%s) is not a folder\n",
            dir ? dir : "unset") ;
        return ;
    }
    char *names [512] ;
    int nn = 0 ;
    struct dirent *e ;
    while ((e = readdir (d)) != NULL && nn < 512)
    {
        size_t len = strlen (e->d_name) ;
        if (len > 7 && strcmp (e->d_name + len - 7, ".mtx.gz") == 0)
            names [nn++] = strdup (e->d_name) ;
    }
    closedir (d) ;
    qsort (names, nn, sizeof (char *), cmp_str) ;
    for (int i = 0 ; i < nn ; i++)
    {
        spec s = spec_default ( ) ;
        s.custom = case_real ;
        s.file = names [i] ;        // kept until exit
        add_spec (&s, "real/%.*s", (int) (strlen (names [i]) - 7), names [i]) ;
    }
    if (nn == 0) printf ("real-matrix cases skipped: no *.mtx.gz in %s\n", dir) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (void)
{
    const char *seed_env = getenv ("GRBGPU_TEST_SEED") ;
    if (seed_env && *seed_env) cu_seed = strtoull (seed_env, NULL, 0) ;
    else
    {
        struct timeval tv ;
        gettimeofday (&tv, NULL) ;
        cu_seed = ((uint64_t) tv.tv_sec * 1000003u) ^ (uint64_t) tv.tv_usec
                ^ ((uint64_t) getpid ( ) << 20) ;
    }
    const char *sc = getenv ("GRBGPU_TEST_SELFCHECK") ;
    cu_selfcheck = sc && *sc && strcmp (sc, "0") != 0 ;
    printf ("conformance: seed %llu (GRBGPU_TEST_SEED=%llu repeats this run)%s\n",
        (unsigned long long) cu_seed, (unsigned long long) cu_seed,
        cu_selfcheck ? " [self-check: both sides on the CPU library]" : "") ;
    printf ("conformance: %s\n", grbgpu_version ( )) ;
    fflush (stdout) ;

    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS)
    {
        fprintf (stderr, "GrB_init failed\n") ;
        return 1 ;
    }
    // the per-call decision matters, not the thresholds: force the offload
    // side explicitly in every case (cu_device_host), reference otherwise
    cu_device_cpu ( ) ;

    group_grid ( ) ;
    group_shapes ( ) ;
    group_mixed ( ) ;
    group_masks ( ) ;
    group_accum ( ) ;
    group_transpose ( ) ;
    group_storage ( ) ;
    group_iso_structure ( ) ;
    group_alias ( ) ;
    group_dense ( ) ;
    group_values ( ) ;
    group_nonfinite ( ) ;
    group_nonfinite_kernels ( ) ;
    group_nm ( ) ;
    group_alias2 ( ) ;
    group_sequence ( ) ;
    group_pending ( ) ;
    group_monoids ( ) ;
    group_declines ( ) ;
    group_invalid ( ) ;
    group_real ( ) ;

    struct CMUnitTest *tests = calloc (nspecs, sizeof (struct CMUnitTest)) ;
    if (tests == NULL) return 1 ;
    for (int i = 0 ; i < nspecs ; i++)
    {
        tests [i].name = specs [i].name ;
        tests [i].test_func = test_spec ;
        tests [i].initial_state = &specs [i] ;
    }
    const char *filter = getenv ("GRBGPU_TEST_FILTER") ;
    if (filter && *filter) cmocka_set_test_filter (filter) ;
    int failed = _cmocka_run_group_tests ("conformance", tests, nspecs, NULL, NULL) ;
    free (tests) ;
    cu_finalize ( ) ;
    GrB_finalize ( ) ;
    return failed ? 1 : 0 ;
}
