//------------------------------------------------------------------------------
// tests/conformance_compare.c: devices, comparison, two-sided runner
//------------------------------------------------------------------------------

// The second half of conformance_util.h's functions (the first, generator and
// tables: tests/conformance_util.c).  The comparison is exact for integer and
// boolean values, and for floating values unless the case gives a tolerance:
// then |ref - got| <= rtol * (mag + |ref| + |C_old|), where mag is the sum of
// the magnitudes of the terms of that entry (computed by the CPU library on
// the absolute values of the operands), so that a different order of
// summation passes and a wrong term does not.  Always: NaN matches NaN (any
// sign or payload), an infinity only itself, and -0 equals +0.

#include "tests/conformance_util.h"
#include "grbgpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


//------------------------------------------------------------------------------
// devices
//------------------------------------------------------------------------------

void cu_device_cpu (void)
{
    if (grbgpu_set ("DEVICE", "cpu") != 0)
        cu_die (__FILE__, __LINE__, "grbgpu_set DEVICE=cpu", -1) ;
}

// The offload side's device: "host" (default; CI) or "cuda" (on the GPU
// host: GRBGPU_TEST_DEVICE=cuda runs the whole suite on the GPU).
const char *cu_offload_device (void)
{
    const char *d = getenv ("GRBGPU_TEST_DEVICE") ;
    return (d != NULL && strcmp (d, "cuda") == 0) ? "cuda" : "host" ;
}

void cu_device_host (void)
{
    if (grbgpu_set ("DEVICE", cu_offload_device ( )) != 0 || grbgpu_set ("MIN_WORK", "0") != 0)
        cu_die (__FILE__, __LINE__, "grbgpu_set DEVICE=host MIN_WORK=0", -1) ;
}

//------------------------------------------------------------------------------
// tuples: extraction in row-major order
//------------------------------------------------------------------------------

typedef enum { K_INT = 0, K_UINT, K_FP, K_FC, K_UDT } cu_kind ;

typedef struct
{
    GrB_Index n, nrows, ncols ;
    GrB_Index *I, *J ;
    int kind ;
    size_t vsize ;          // bytes per value
    void *X ;
}
cu_tuples ;

static int cu_kind_of (GrB_Type t, size_t *vsize)
{
    if (t == GrB_BOOL || t == GrB_INT8 || t == GrB_INT16 || t == GrB_INT32
        || t == GrB_INT64) { *vsize = 8 ; return K_INT ; }
    if (t == GrB_UINT8 || t == GrB_UINT16 || t == GrB_UINT32
        || t == GrB_UINT64) { *vsize = 8 ; return K_UINT ; }
    if (t == GrB_FP32 || t == GrB_FP64) { *vsize = 8 ; return K_FP ; }
    if (t == GxB_FC32 || t == GxB_FC64) { *vsize = 16 ; return K_FC ; }
    size_t s = 0 ;
    GxB_Type_size (&s, t) ;
    *vsize = s ;
    return K_UDT ;
}

static const GrB_Index *cu_sort_keys_I, *cu_sort_keys_J ;
static int cu_cmp_perm (const void *a, const void *b)
{
    GrB_Index pa = *(const GrB_Index *) a, pb = *(const GrB_Index *) b ;
    const GrB_Index *I = cu_sort_keys_I, *J = cu_sort_keys_J ;
    if (I [pa] != I [pb]) return I [pa] < I [pb] ? -1 : 1 ;
    if (J [pa] != J [pb]) return J [pa] < J [pb] ? -1 : 1 ;
    return 0 ;
}

// Put the tuples in row-major order (a matrix held by column extracts in
// column-major order; the two sides need not be held alike).
static void cu_tuples_sort (cu_tuples *T)
{
    bool sorted = true ;
    for (GrB_Index p = 1 ; p < T->n && sorted ; p++)
    {
        sorted = T->I [p-1] < T->I [p]
            || (T->I [p-1] == T->I [p] && T->J [p-1] < T->J [p]) ;
    }
    if (sorted) return ;
    GrB_Index *perm = malloc ((T->n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *I2 = malloc ((T->n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J2 = malloc ((T->n + 1) * sizeof (GrB_Index)) ;
    char *X2 = malloc ((T->n + 1) * T->vsize) ;
    if (!perm || !I2 || !J2 || !X2) cu_die (__FILE__, __LINE__, "malloc", 0) ;
    for (GrB_Index p = 0 ; p < T->n ; p++) perm [p] = p ;
    cu_sort_keys_I = T->I ; cu_sort_keys_J = T->J ;
    qsort (perm, T->n, sizeof (GrB_Index), cu_cmp_perm) ;
    for (GrB_Index p = 0 ; p < T->n ; p++)
    {
        I2 [p] = T->I [perm [p]] ; J2 [p] = T->J [perm [p]] ;
        memcpy (X2 + p * T->vsize, (char *) T->X + perm [p] * T->vsize, T->vsize) ;
    }
    free (T->I) ; free (T->J) ; free (T->X) ; free (perm) ;
    T->I = I2 ; T->J = J2 ; T->X = X2 ;
}

static void cu_tuples_free (cu_tuples *T)
{
    free (T->I) ; free (T->J) ; free (T->X) ;
    memset (T, 0, sizeof (*T)) ;
}

// as_fp: extract values as FP64 whatever the type (for magnitudes)
static void cu_tuples_matrix (cu_tuples *T, GrB_Matrix A, bool as_fp)
{
    memset (T, 0, sizeof (*T)) ;
    GrB_Type type ;
    CU_OK (GxB_Matrix_type (&type, A)) ;
    CU_OK (GrB_Matrix_nrows (&T->nrows, A)) ;
    CU_OK (GrB_Matrix_ncols (&T->ncols, A)) ;
    CU_OK (GrB_Matrix_nvals (&T->n, A)) ;
    T->kind = as_fp ? K_FP : cu_kind_of (type, &T->vsize) ;
    if (as_fp) T->vsize = 8 ;
    T->I = malloc ((T->n + 1) * sizeof (GrB_Index)) ;
    T->J = malloc ((T->n + 1) * sizeof (GrB_Index)) ;
    T->X = malloc ((T->n + 1) * T->vsize + 1) ;
    if (!T->I || !T->J || !T->X) cu_die (__FILE__, __LINE__, "malloc", 0) ;
    GrB_Index n = T->n ;
    switch (T->kind)
    {
        case K_INT:  CU_OK (GrB_Matrix_extractTuples_INT64 (T->I, T->J, T->X, &n, A)) ; break ;
        case K_UINT: CU_OK (GrB_Matrix_extractTuples_UINT64 (T->I, T->J, T->X, &n, A)) ; break ;
        case K_FP:   CU_OK (GrB_Matrix_extractTuples_FP64 (T->I, T->J, T->X, &n, A)) ; break ;
        case K_FC:   CU_OK (GxB_Matrix_extractTuples_FC64 (T->I, T->J, T->X, &n, A)) ; break ;
        default:     CU_OK (GrB_Matrix_extractTuples_UDT (T->I, T->J, T->X, &n, A)) ; break ;
    }
    T->n = n ;
    cu_tuples_sort (T) ;
}

static void cu_tuples_vector (cu_tuples *T, GrB_Vector v, bool as_fp)
{
    memset (T, 0, sizeof (*T)) ;
    GrB_Type type ;
    CU_OK (GxB_Vector_type (&type, v)) ;
    CU_OK (GrB_Vector_size (&T->nrows, v)) ;
    T->ncols = 1 ;
    CU_OK (GrB_Vector_nvals (&T->n, v)) ;
    T->kind = as_fp ? K_FP : cu_kind_of (type, &T->vsize) ;
    if (as_fp) T->vsize = 8 ;
    T->I = malloc ((T->n + 1) * sizeof (GrB_Index)) ;
    T->J = calloc (T->n + 1, sizeof (GrB_Index)) ;
    T->X = malloc ((T->n + 1) * T->vsize + 1) ;
    if (!T->I || !T->J || !T->X) cu_die (__FILE__, __LINE__, "malloc", 0) ;
    GrB_Index n = T->n ;
    switch (T->kind)
    {
        case K_INT:  CU_OK (GrB_Vector_extractTuples_INT64 (T->I, T->X, &n, v)) ; break ;
        case K_UINT: CU_OK (GrB_Vector_extractTuples_UINT64 (T->I, T->X, &n, v)) ; break ;
        case K_FP:   CU_OK (GrB_Vector_extractTuples_FP64 (T->I, T->X, &n, v)) ; break ;
        case K_FC:   CU_OK (GxB_Vector_extractTuples_FC64 (T->I, T->X, &n, v)) ; break ;
        default:     CU_OK (GrB_Vector_extractTuples_UDT (T->I, T->X, &n, v)) ; break ;
    }
    T->n = n ;
    cu_tuples_sort (T) ;
}

// FP64 value at (i,j) of sorted tuples, 0 when absent
static double cu_lookup (const cu_tuples *T, GrB_Index i, GrB_Index j)
{
    if (T == NULL || T->n == 0) return 0 ;
    GrB_Index lo = 0, hi = T->n ;
    while (lo < hi)
    {
        GrB_Index mid = lo + (hi - lo) / 2 ;
        if (T->I [mid] < i || (T->I [mid] == i && T->J [mid] < j)) lo = mid + 1 ;
        else hi = mid ;
    }
    if (lo < T->n && T->I [lo] == i && T->J [lo] == j)
        return fabs (((double *) T->X) [lo]) ;
    return 0 ;
}

#define CU_MAX_REPORTS 5

static int cu_compare_tuples (const char *name, GrB_Type tref, GrB_Type tgot,
    cu_tuples *R, cu_tuples *G, double rtol, cu_tuples *mag, cu_tuples *cold)
{
    int problems = 0 ;
    if (tref != tgot)
    {
        char a [GxB_MAX_NAME_LEN] = "?", b [GxB_MAX_NAME_LEN] = "?" ;
        GxB_Type_name (a, tref) ; GxB_Type_name (b, tgot) ;
        printf ("  [%s] type: expected %s, got %s\n", name, a, b) ;
        return 1 ;
    }
    if (R->nrows != G->nrows || R->ncols != G->ncols)
    {
        printf ("  [%s] dims: expected %llu x %llu, got %llu x %llu\n", name,
            (unsigned long long) R->nrows, (unsigned long long) R->ncols,
            (unsigned long long) G->nrows, (unsigned long long) G->ncols) ;
        return 1 ;
    }
    if (R->n != G->n)
    {
        printf ("  [%s] nvals: expected %llu, got %llu\n", name,
            (unsigned long long) R->n, (unsigned long long) G->n) ;
        problems++ ;
    }
    // pattern: first difference in row-major order
    GrB_Index p = 0, q = 0 ;
    int reported = 0 ;
    uint64_t nbad = 0 ;
    while (p < R->n || q < G->n)
    {
        bool inR = p < R->n, inG = q < G->n ;
        int c = !inR ? 1 : !inG ? -1
              : (R->I [p] != G->I [q]) ? (R->I [p] < G->I [q] ? -1 : 1)
              : (R->J [p] != G->J [q]) ? (R->J [p] < G->J [q] ? -1 : 1) : 0 ;
        if (c != 0)
        {
            nbad++ ;
            if (reported++ < CU_MAX_REPORTS)
            {
                if (c < 0)
                    printf ("  [%s] entry (%llu,%llu) missing from the offload's result\n",
                        name, (unsigned long long) R->I [p], (unsigned long long) R->J [p]) ;
                else
                    printf ("  [%s] entry (%llu,%llu) present in the offload's result only\n",
                        name, (unsigned long long) G->I [q], (unsigned long long) G->J [q]) ;
            }
            if (c < 0) p++ ; else q++ ;
            continue ;
        }
        // same position: compare the values (formatted only when they differ)
        bool ok ;
        switch (R->kind)
        {
            case K_INT:
                ok = ((int64_t *) R->X) [p] == ((int64_t *) G->X) [q] ;
                break ;
            case K_UINT:
                ok = ((uint64_t *) R->X) [p] == ((uint64_t *) G->X) [q] ;
                break ;
            case K_FP:
            {
                double a = ((double *) R->X) [p], b = ((double *) G->X) [q] ;
                // NaN matches NaN; infinities are exact even with a
                // tolerance (|INF - x| <= rtol * INF would pass anything)
                if (isnan (a) || isnan (b)) ok = isnan (a) && isnan (b) ;
                else if (a == b) ok = true ;
                else if (rtol == 0 || isinf (a) || isinf (b)) ok = false ;
                else
                {
                    double m = cu_lookup (mag, R->I [p], R->J [p])
                             + cu_lookup (cold, R->I [p], R->J [p]) + fabs (a) ;
                    ok = fabs (a - b) <= rtol * m ;
                }
                break ;
            }
            case K_FC:
            {
                double *a = (double *) R->X + 2*p, *b = (double *) G->X + 2*q ;
                double m = fabs (a [0]) + fabs (a [1]) ;
                ok = (rtol == 0) ? (a [0] == b [0] && a [1] == b [1])
                   : (fabs (a [0] - b [0]) <= rtol * m && fabs (a [1] - b [1]) <= rtol * m) ;
                break ;
            }
            default:
                ok = memcmp ((char *) R->X + p * R->vsize,
                    (char *) G->X + q * G->vsize, R->vsize) == 0 ;
                break ;
        }
        if (!ok)
        {
            nbad++ ;
            if (reported++ < CU_MAX_REPORTS)
            {
                char ev [96], gv [96] ;
                switch (R->kind)
                {
                    case K_INT:
                        snprintf (ev, sizeof ev, "%lld", (long long) ((int64_t *) R->X) [p]) ;
                        snprintf (gv, sizeof gv, "%lld", (long long) ((int64_t *) G->X) [q]) ;
                        break ;
                    case K_UINT:
                        snprintf (ev, sizeof ev, "%llu", (unsigned long long) ((uint64_t *) R->X) [p]) ;
                        snprintf (gv, sizeof gv, "%llu", (unsigned long long) ((uint64_t *) G->X) [q]) ;
                        break ;
                    case K_FP:
                    {
                        double a = ((double *) R->X) [p], b = ((double *) G->X) [q] ;
                        snprintf (ev, sizeof ev, "%.17g", a) ;
                        snprintf (gv, sizeof gv, "%.17g (diff %.3g, tolerance %.3g)", b,
                            fabs (a - b), rtol * (cu_lookup (mag, R->I [p], R->J [p])
                            + cu_lookup (cold, R->I [p], R->J [p]) + fabs (a))) ;
                        break ;
                    }
                    case K_FC:
                    {
                        double *a = (double *) R->X + 2*p, *b = (double *) G->X + 2*q ;
                        snprintf (ev, sizeof ev, "%.17g%+.17gi", a [0], a [1]) ;
                        snprintf (gv, sizeof gv, "%.17g%+.17gi", b [0], b [1]) ;
                        break ;
                    }
                    default:
                        snprintf (ev, sizeof ev, "(%zu bytes)", R->vsize) ;
                        snprintf (gv, sizeof gv, "(other bytes)") ;
                        break ;
                }
                printf ("  [%s] value at (%llu,%llu): expected %s, got %s\n", name,
                    (unsigned long long) R->I [p], (unsigned long long) R->J [p], ev, gv) ;
            }
        }
        p++ ; q++ ;
    }
    if (nbad > 0)
    {
        printf ("  [%s] %llu entries differ (of %llu)\n", name,
            (unsigned long long) nbad, (unsigned long long) R->n) ;
        problems++ ;
    }
    return problems ;
}

// The tuples of a matrix or a vector (one comparison serves both).
static void cu_tuples_of (cu_tuples *t, bool is_vector, void *X, bool flag)
{
    if (is_vector) cu_tuples_vector (t, (GrB_Vector) X, flag) ;
    else cu_tuples_matrix (t, (GrB_Matrix) X, flag) ;
}

static int cu_compare_objects (const char *name, bool is_vector, void *ref,
    void *got, double rtol, void *mag, void *cold)
{
    GrB_Type tr, tg ;
    if (is_vector)
    {
        CU_OK (GxB_Vector_type (&tr, (GrB_Vector) ref)) ;
        CU_OK (GxB_Vector_type (&tg, (GrB_Vector) got)) ;
    }
    else
    {
        CU_OK (GxB_Matrix_type (&tr, (GrB_Matrix) ref)) ;
        CU_OK (GxB_Matrix_type (&tg, (GrB_Matrix) got)) ;
    }
    cu_tuples R, G, Mg, Co ;
    cu_tuples_of (&R, is_vector, ref, false) ;
    cu_tuples_of (&G, is_vector, got, false) ;
    bool use_mag = rtol > 0 && mag != NULL, use_cold = rtol > 0 && cold != NULL ;
    if (use_mag) cu_tuples_of (&Mg, is_vector, mag, true) ;
    if (use_cold) cu_tuples_of (&Co, is_vector, cold, true) ;
    int problems = cu_compare_tuples (name, tr, tg, &R, &G, rtol,
        use_mag ? &Mg : NULL, use_cold ? &Co : NULL) ;
    cu_tuples_free (&R) ; cu_tuples_free (&G) ;
    if (use_mag) cu_tuples_free (&Mg) ;
    if (use_cold) cu_tuples_free (&Co) ;
    return problems ;
}

int cu_compare_matrix (const char *name, GrB_Matrix ref, GrB_Matrix got,
    double rtol, GrB_Matrix mag, GrB_Matrix cold)
{
    return cu_compare_objects (name, false, ref, got, rtol, mag, cold) ;
}

int cu_compare_vector (const char *name, GrB_Vector ref, GrB_Vector got,
    double rtol, GrB_Vector mag, GrB_Vector cold)
{
    return cu_compare_objects (name, true, ref, got, rtol, mag, cold) ;
}

//------------------------------------------------------------------------------
// settings of an object (kept by every call) and snapshots of the inputs
//------------------------------------------------------------------------------

typedef struct { int32_t format, control ; double hyper, bitmap ; } cu_settings ;

static cu_settings cu_settings_of (int isvec, void *X)
{
    cu_settings s = { -1, -1, -1, -1 } ;
    if (isvec)
    {
        GxB_Vector_Option_get_INT32 ((GrB_Vector) X, GxB_SPARSITY_CONTROL, &s.control) ;
        GxB_Vector_Option_get_FP64 ((GrB_Vector) X, GxB_BITMAP_SWITCH, &s.bitmap) ;
    }
    else
    {
        GxB_Matrix_Option_get_INT32 ((GrB_Matrix) X, GxB_FORMAT, &s.format) ;
        GxB_Matrix_Option_get_INT32 ((GrB_Matrix) X, GxB_SPARSITY_CONTROL, &s.control) ;
        GxB_Matrix_Option_get_FP64 ((GrB_Matrix) X, GxB_HYPER_SWITCH, &s.hyper) ;
        GxB_Matrix_Option_get_FP64 ((GrB_Matrix) X, GxB_BITMAP_SWITCH, &s.bitmap) ;
    }
    return s ;
}

static int cu_settings_compare (const char *name, const char *what,
    cu_settings a, cu_settings b)
{
    if (a.format == b.format && a.control == b.control && a.hyper == b.hyper
        && a.bitmap == b.bitmap) return 0 ;
    printf ("  [%s] %s: settings (format %d, sparsity control %d, hyper switch "
        "%g, bitmap switch %g) became (%d, %d, %g, %g)\n", name, what, a.format,
        a.control, a.hyper, a.bitmap, b.format, b.control, b.hyper, b.bitmap) ;
    return 1 ;
}

// an input before the offload: its settings, and a copy when small
typedef struct { void *X ; int isvec ; cu_settings s ; void *copy ; } cu_snapshot ;

static void cu_snapshot_take (cu_snapshot *S, void *X, int isvec)
{
    S->X = X ; S->isvec = isvec ; S->copy = NULL ;
    if (X == NULL) return ;
    S->s = cu_settings_of (isvec, X) ;
    GrB_Index n = 0 ;
    if (isvec) GrB_Vector_nvals (&n, (GrB_Vector) X) ;
    else GrB_Matrix_nvals (&n, (GrB_Matrix) X) ;
    if (n > 200000) return ;
    if (isvec) GrB_Vector_dup ((GrB_Vector *) &S->copy, (GrB_Vector) X) ;
    else GrB_Matrix_dup ((GrB_Matrix *) &S->copy, (GrB_Matrix) X) ;
}

static int cu_snapshot_check (cu_snapshot *S, const char *name, const char *what)
{
    if (S->X == NULL) return 0 ;
    int problems = cu_settings_compare (name, what, S->s, cu_settings_of (S->isvec, S->X)) ;
    if (S->copy != NULL)
    {
        char label [300] ;
        snprintf (label, sizeof label, "%s: input %s changed", name, what) ;
        problems += S->isvec
            ? cu_compare_vector (label, S->copy, S->X, 0, NULL, NULL)
            : cu_compare_matrix (label, S->copy, S->X, 0, NULL, NULL) ;
        if (S->isvec) GrB_Vector_free ((GrB_Vector *) &S->copy) ;
        else GrB_Matrix_free ((GrB_Matrix *) &S->copy) ;
    }
    return problems ;
}

//------------------------------------------------------------------------------
// the runner
//------------------------------------------------------------------------------

void cu_call_init (cu_call *c, const char *name, int op)
{
    memset (c, 0, sizeof (*c)) ;
    c->name = name ;
    c->op = op ;
    c->check_stats = true ;
}

static void *cu_dup (int op, void *X)
{
    if (X == NULL) return NULL ;
    if (op == CU_MXM)
    {
        GrB_Matrix C ;
        CU_OK (GrB_Matrix_dup (&C, (GrB_Matrix) X)) ;
        return C ;
    }
    GrB_Vector w ;
    CU_OK (GrB_Vector_dup (&w, (GrB_Vector) X)) ;
    return w ;
}

static void cu_free (int op, void **X)
{
    if (*X == NULL) return ;
    if (op == CU_MXM) GrB_Matrix_free ((GrB_Matrix *) X) ;
    else GrB_Vector_free ((GrB_Vector *) X) ;
}

int cu_run (const cu_call *c)
{
    int problems = 0 ;
    void *out [2] = { NULL, NULL } ;
    GrB_Info info [2] ;
    char decision [2][256] ;
    grbgpu_stats s0, s1, st0 [2], st1 [2] ;

    for (int turn = 0 ; turn < 2 ; turn++)
    {
        int side = c->offload_first ? 1 - turn : turn ;
        if (side == 0 || cu_selfcheck) cu_device_cpu ( ) ;
        else cu_device_host ( ) ;
        out [side] = cu_dup (c->op, c->C0) ;
        if (c->prepare_out != NULL && out [side] != NULL) c->prepare_out (out [side]) ;
        void *M = c->M, *A = c->A, *B = c->B ;
        if (c->alias == CU_ALIAS_A) A = out [side] ;
        if (c->alias == CU_ALIAS_B) B = out [side] ;
        if (c->alias == CU_ALIAS_M) M = out [side] ;
        if (c->alias == CU_ALIAS_AB) A = B = out [side] ;
        // the offload must leave its inputs as they were (content and settings)
        cu_snapshot snap [3] ;
        memset (snap, 0, sizeof (snap)) ;
        if (side == 1 && !cu_selfcheck)
        {
            bool vA = c->op == CU_VXM, vB = c->op == CU_MXV, vM = c->op != CU_MXM ;
            if (A != out [side]) cu_snapshot_take (&snap [0], A, vA) ;
            if (B != out [side] && B != A) cu_snapshot_take (&snap [1], B, vB) ;
            if (M != out [side] && M != A && M != B) cu_snapshot_take (&snap [2], M, vM) ;
        }
        grbgpu_stats_get (&s0) ;
        switch (c->op)
        {
            case CU_MXM:
                info [side] = GrB_mxm ((GrB_Matrix) out [side], (GrB_Matrix) M,
                    c->accum, c->s, (GrB_Matrix) A, (GrB_Matrix) B, c->d) ;
                break ;
            case CU_MXV:
                info [side] = GrB_mxv ((GrB_Vector) out [side], (GrB_Vector) M,
                    c->accum, c->s, (GrB_Matrix) A, (GrB_Vector) B, c->d) ;
                break ;
            default:
                info [side] = GrB_vxm ((GrB_Vector) out [side], (GrB_Vector) M,
                    c->accum, c->s, (GrB_Vector) A, (GrB_Matrix) B, c->d) ;
                break ;
        }
        grbgpu_stats_get (&s1) ;
        if (side == 1)
        {
            problems += cu_snapshot_check (&snap [0], c->name, "A") ;
            problems += cu_snapshot_check (&snap [1], c->name, "B") ;
            problems += cu_snapshot_check (&snap [2], c->name, "M") ;
        }
        st1 [side] = s1 ;
        st0 [side] = s0 ;
        const char *dec = grbgpu_last_decision ( ) ;
        snprintf (decision [side], sizeof decision [side], "%s", dec ? dec : "(null)") ;
    }
    s0 = st0 [1] ;
    s1 = st1 [1] ;
    cu_device_cpu ( ) ;

    // same GrB_Info
    if (info [0] != info [1])
    {
        printf ("  [%s] GrB_Info: expected %d, got %d (decision \"%s\")\n",
            c->name, (int) info [0], (int) info [1], decision [1]) ;
        problems++ ;
    }

    // the offload happened, or was declined, as it should
    if (!cu_selfcheck)
    {
        const char *d = decision [1] ;
        bool host = strcmp (d, cu_offload_device ( )) == 0 ;
        bool declined = strncmp (d, "declined", 8) == 0 ;
        bool ok = (c->expect == CU_EXPECT_OFFLOAD) ? host
                : (c->expect == CU_EXPECT_DECLINE) ? declined
                : (host || declined) ;
        if (ok && c->expect == CU_EXPECT_ANY)
        {
            printf ("  [%s] decision (either is allowed): %s\n", c->name, d) ;
        }
        if (!ok)
        {
            printf ("  [%s] decision: expected %s, got \"%s\"\n", c->name,
                c->expect == CU_EXPECT_OFFLOAD ? "\"host\""
                : c->expect == CU_EXPECT_DECLINE ? "\"declined: ...\""
                : "\"host\" or \"declined: ...\"", d) ;
            problems++ ;
        }
        if (c->check_stats)
        {
            // the counters of the offload side moved by exactly this call
            uint64_t di = s1.intercepted - s0.intercepted ;
            uint64_t dh = (strcmp (cu_offload_device ( ), "cuda") == 0)
                ? s1.offloaded_cuda - s0.offloaded_cuda
                : s1.offloaded_host - s0.offloaded_host ;
            uint64_t dd = s1.declined - s0.declined ;
            bool sok = di == 1 && dh == (host ? 1u : 0u) && dd == (declined ? 1u : 0u) ;
            if (!sok)
            {
                printf ("  [%s] stats: intercepted +%llu, offloaded_host +%llu, "
                    "declined +%llu for one call decided \"%s\"\n", c->name,
                    (unsigned long long) di, (unsigned long long) dh,
                    (unsigned long long) dd, d) ;
                problems++ ;
            }
        }
    }

    // same output (also when both failed: C must be untouched on both),
    // with the same settings (a call keeps C's format and sparsity control)
    if (out [0] != NULL && out [1] != NULL)
    {
        problems += cu_settings_compare (c->name, "C (vs the reference)",
            cu_settings_of (c->op != CU_MXM, out [0]),
            cu_settings_of (c->op != CU_MXM, out [1])) ;
        if (c->op == CU_MXM)
            problems += cu_compare_matrix (c->name, out [0], out [1], c->rtol,
                (GrB_Matrix) c->mag, c->accum ? (GrB_Matrix) c->C0 : NULL) ;
        else
            problems += cu_compare_vector (c->name, out [0], out [1], c->rtol,
                (GrB_Vector) c->mag, c->accum ? (GrB_Vector) c->C0 : NULL) ;
    }
    cu_free (c->op, &out [0]) ;
    cu_free (c->op, &out [1]) ;
    if (problems)
    {
        printf ("  [%s] FAILED (seed %llu: GRBGPU_TEST_SEED=%llu "
            "GRBGPU_TEST_FILTER='%s' reproduces it)\n", c->name,
            (unsigned long long) cu_seed, (unsigned long long) cu_seed, c->name) ;
    }
    return problems ;
}
