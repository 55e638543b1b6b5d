//------------------------------------------------------------------------------
// tests/conformance_util.c: generator and tables of the conformance tests
//------------------------------------------------------------------------------

// See conformance_util.h.  The devices, the comparison and the two-sided
// runner: tests/conformance_compare.c.

#include "tests/conformance_util.h"
#include "grbgpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cu_selfcheck = false ;
uint64_t cu_seed = 0 ;

void cu_die (const char *file, int line, const char *what, int info)
{
    fprintf (stderr, "%s:%d: test set-up failed (GrB_Info %d): %s\n",
        file, line, info, what) ;
    abort ( ) ;
}

//------------------------------------------------------------------------------
// random numbers
//------------------------------------------------------------------------------

uint64_t cu_next (cu_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return z ^ (z >> 31) ;
}

double cu_unif (cu_rng *r)
{
    return (double) (cu_next (r) >> 11) * 0x1.0p-53 ;
}

int64_t cu_int (cu_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t) (cu_next (r) % (uint64_t) (hi - lo + 1)) ;
}

cu_rng cu_rng_for (uint64_t seed, const char *name)
{
    // FNV-1a of the case name, so that each case draws the same inputs
    // whatever else runs (GRBGPU_TEST_FILTER) and in whatever order.
    uint64_t h = 0xcbf29ce484222325ull ;
    for (const char *p = name ; *p ; p++) h = (h ^ (uint8_t) *p) * 0x100000001b3ull ;
    cu_rng r = { seed ^ h } ;
    cu_next (&r) ;
    return r ;
}

//------------------------------------------------------------------------------
// tables
//------------------------------------------------------------------------------

GrB_Type cu_type (int t)
{
    switch (t)
    {
        case CU_BOOL:   return GrB_BOOL ;
        case CU_INT32:  return GrB_INT32 ;
        case CU_INT64:  return GrB_INT64 ;
        case CU_UINT32: return GrB_UINT32 ;
        case CU_UINT64: return GrB_UINT64 ;
        case CU_FP32:   return GrB_FP32 ;
        case CU_FP64:   return GrB_FP64 ;
        case CU_INT8:   return GrB_INT8 ;
        case CU_UINT16: return GrB_UINT16 ;
        default:        return NULL ;
    }
}

const char *cu_type_name (int t)
{
    static const char *names [CU_NTALL] = { "BOOL", "INT32", "INT64",
        "UINT32", "UINT64", "FP32", "FP64", "INT8", "UINT16" } ;
    return (t >= 0 && t < CU_NTALL) ? names [t] : "?" ;
}

bool cu_type_signed (int t)
{
    return t == CU_INT32 || t == CU_INT64 || t == CU_INT8 || cu_type_float (t) ;
}

bool cu_type_float (int t)
{
    return t == CU_FP32 || t == CU_FP64 ;
}

const char *cu_add_name (int a)
{
    static const char *names [CU_NADD] = { "PLUS", "TIMES", "MIN", "MAX",
        "ANY", "LOR", "LAND" } ;
    return names [a] ;
}

const char *cu_mul_name (int m)
{
    static const char *names [CU_NMUL] = { "TIMES", "FIRST", "SECOND",
        "PAIR", "PLUS", "MIN", "MAX", "LAND", "LOR", "ONEB" } ;
    return names [m] ;
}

const char *cu_acc_name (int a)
{
    static const char *names [CU_NACC] = { "none", "PLUS", "MINUS", "MIN",
        "MAX", "SECOND", "FIRST", "TIMES" } ;
    return names [a] ;
}

#define CU_BY_TYPE(P,S)                                                     \
    switch (t)                                                              \
    {                                                                       \
        case CU_BOOL:   return P ## BOOL ## S ;                             \
        case CU_INT32:  return P ## INT32 ## S ;                            \
        case CU_INT64:  return P ## INT64 ## S ;                            \
        case CU_UINT32: return P ## UINT32 ## S ;                           \
        case CU_UINT64: return P ## UINT64 ## S ;                           \
        case CU_FP32:   return P ## FP32 ## S ;                             \
        case CU_FP64:   return P ## FP64 ## S ;                             \
        case CU_INT8:   return P ## INT8 ## S ;                             \
        case CU_UINT16: return P ## UINT16 ## S ;                           \
        default:        return NULL ;                                       \
    }

#define CU_BY_NONBOOL(P,S)                                                  \
    switch (t)                                                              \
    {                                                                       \
        case CU_INT32:  return P ## INT32 ## S ;                            \
        case CU_INT64:  return P ## INT64 ## S ;                            \
        case CU_UINT32: return P ## UINT32 ## S ;                           \
        case CU_UINT64: return P ## UINT64 ## S ;                           \
        case CU_FP32:   return P ## FP32 ## S ;                             \
        case CU_FP64:   return P ## FP64 ## S ;                             \
        case CU_INT8:   return P ## INT8 ## S ;                             \
        case CU_UINT16: return P ## UINT16 ## S ;                           \
        default:        return NULL ;                                       \
    }

GrB_Monoid cu_monoid (int add, int t)
{
    if (t == CU_BOOL)
    {
        switch (add)
        {
            case CU_ADD_LOR:  return GrB_LOR_MONOID_BOOL ;
            case CU_ADD_LAND: return GrB_LAND_MONOID_BOOL ;
            case CU_ADD_ANY:  return GxB_ANY_BOOL_MONOID ;
            default:          return NULL ;
        }
    }
    switch (add)
    {
        case CU_ADD_PLUS:  CU_BY_NONBOOL (GrB_PLUS_MONOID_, )
        case CU_ADD_TIMES: CU_BY_NONBOOL (GrB_TIMES_MONOID_, )
        case CU_ADD_MIN:   CU_BY_NONBOOL (GrB_MIN_MONOID_, )
        case CU_ADD_MAX:   CU_BY_NONBOOL (GrB_MAX_MONOID_, )
        case CU_ADD_ANY:   CU_BY_NONBOOL (GxB_ANY_, _MONOID)
        default:           return NULL ;
    }
}

GrB_BinaryOp cu_mulop (int mul, int t)
{
    switch (mul)
    {
        case CU_MUL_TIMES:  CU_BY_TYPE (GrB_TIMES_, )
        case CU_MUL_FIRST:  CU_BY_TYPE (GrB_FIRST_, )
        case CU_MUL_SECOND: CU_BY_TYPE (GrB_SECOND_, )
        case CU_MUL_PAIR:   CU_BY_TYPE (GxB_PAIR_, )
        case CU_MUL_ONEB:   CU_BY_TYPE (GrB_ONEB_, )
        case CU_MUL_PLUS:   CU_BY_TYPE (GrB_PLUS_, )
        case CU_MUL_MIN:    CU_BY_TYPE (GrB_MIN_, )
        case CU_MUL_MAX:    CU_BY_TYPE (GrB_MAX_, )
        case CU_MUL_LAND:
            if (t == CU_BOOL) return GrB_LAND ;
            CU_BY_NONBOOL (GxB_LAND_, )
        case CU_MUL_LOR:
            if (t == CU_BOOL) return GrB_LOR ;
            CU_BY_NONBOOL (GxB_LOR_, )
        default: return NULL ;
    }
}

GrB_BinaryOp cu_accop (int acc, int t)
{
    switch (acc)
    {
        case CU_ACC_PLUS:   CU_BY_TYPE (GrB_PLUS_, )
        case CU_ACC_MINUS:  CU_BY_TYPE (GrB_MINUS_, )
        case CU_ACC_MIN:    CU_BY_TYPE (GrB_MIN_, )
        case CU_ACC_MAX:    CU_BY_TYPE (GrB_MAX_, )
        case CU_ACC_SECOND: CU_BY_TYPE (GrB_SECOND_, )
        case CU_ACC_FIRST:  CU_BY_TYPE (GrB_FIRST_, )
        case CU_ACC_TIMES:  CU_BY_TYPE (GrB_TIMES_, )
        default:            return NULL ;
    }
}

static GrB_Semiring cu_semirings [CU_NADD][CU_NMUL][CU_NT] ;

GrB_Semiring cu_semiring (int add, int mul, int t)
{
    if (t < 0 || t >= CU_NT) return NULL ;
    GrB_Semiring *s = &cu_semirings [add][mul][t] ;
    if (*s == NULL)
    {
        GrB_Monoid mon = cu_monoid (add, t) ;
        GrB_BinaryOp op = cu_mulop (mul, t) ;
        if (mon == NULL || op == NULL) return NULL ;
        CU_OK (GrB_Semiring_new (s, mon, op)) ;
    }
    return *s ;
}

void cu_finalize (void)
{
    for (int a = 0 ; a < CU_NADD ; a++)
        for (int m = 0 ; m < CU_NMUL ; m++)
            for (int t = 0 ; t < CU_NT ; t++)
                GrB_Semiring_free (&cu_semirings [a][m][t]) ;
}

//------------------------------------------------------------------------------
// random operands
//------------------------------------------------------------------------------

// Values that exercise GraphBLAS's casts from FP64: truncation toward zero,
// saturation at the integer limits, negatives into unsigned types.
static const double cu_cast_values [ ] = { -3.7, 2.9, -0.4, 0.6, 7.99,
    -128.5, 3e9, -3e9, 1e10, -1e10, 1e20, -1e20, 65535.5, 4294967295.0,
    4294967296.5, 1.5, -2.5, 100.25 } ;

static double cu_value (cu_rng *r, int t, int vals)
{
    bool sgn = cu_type_signed (t), flt = cu_type_float (t) ;
    if (t == CU_BOOL && vals != CU_V_ONE && vals != CU_V_CAST && vals != CU_V_FRAC)
    {
        return (double) cu_int (r, 0, 1) ;
    }
    switch (vals)
    {
        case CU_V_INT:
            return sgn ? (double) cu_int (r, -4, 4) : (double) cu_int (r, 0, 6) ;
        case CU_V_POW2:
        {
            static const double f [ ] = { -2, -1, -0.5, 0.5, 1, 2 } ;
            static const double s [ ] = { -2, -1, 1, 2 } ;
            if (flt) return f [cu_int (r, 0, 5)] ;
            if (sgn) return s [cu_int (r, 0, 3)] ;
            return (double) cu_int (r, 1, 2) ;
        }
        case CU_V_REAL:
            if (flt) return 2 * cu_unif (r) - 1 ;
            return sgn ? (double) cu_int (r, -100, 100) : (double) cu_int (r, 0, 200) ;
        case CU_V_CAST:
            return cu_cast_values [cu_int (r, 0,
                (int64_t) (sizeof (cu_cast_values) / sizeof (double)) - 1)] ;
        case CU_V_ONE:
            return 1 ;
        case CU_V_FRAC:
        {
            static const double f [ ] = { -3.7, 2.9, -0.4, 0.6, 7.99, -2.5,
                1.5, 100.25, -17.75, 0.25 } ;
            return f [cu_int (r, 0, 9)] ;
        }
        case CU_V_HUGE:
            return 1 ;      // a marker: the value is drawn as an integer later
        case CU_V_NONFINITE:
        {
            static const double f [ ] = { -2, -1, 1, 2, 3 } ;
            switch (cu_int (r, 0, 19))
            {
                case 0:  return INFINITY ;
                case 1:  return -INFINITY ;
                case 2:  return NAN ;
                case 3:  return -0.0 ;
                case 4:  return 0.0 ;
                default: return f [cu_int (r, 0, 4)] ;
            }
        }
        case CU_V_EXTREME:
        {
            const bool f32 = (t == CU_FP32) ;
            switch (flt ? cu_int (r, 0, 11) : 11)
            {
                case 0:  return f32 ? FLT_MAX : DBL_MAX ;
                case 1:  return f32 ? 0x1p-149 : 0x1p-1074 ;
                case 2:  return f32 ? 0x3p-149 : 0x3p-1074 ;
                case 3:  return -0.0 ;
                case 4:  return f32 ? FLT_MIN : DBL_MIN ;
                case 5:  return 0.5 ;
                default: return (double) cu_int (r, 1, 3) ;
            }
        }
        case CU_V_POS:
        default:
            return (double) cu_int (r, 1, 9) ;
    }
}

// Draws the pattern and values; returns the tuple count.
static uint64_t cu_tuples_draw (cu_rng *r, int t, uint64_t nrows,
    uint64_t ncols, double density, const cu_gen *g, GrB_Index **Ip,
    GrB_Index **Jp, double **Xp)
{
    bool dense = density >= 1 ;
    uint64_t cap = dense ? nrows * ncols
        : (uint64_t) (density * (double) nrows * (double) ncols * 1.5) + 16 ;
    if (cap > nrows * ncols) cap = nrows * ncols ;
    GrB_Index *I = malloc ((cap + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((cap + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((cap + 1) * sizeof (double)) ;
    double *rowv = malloc ((nrows + 1) * sizeof (double)) ;
    double *colv = malloc ((ncols + 1) * sizeof (double)) ;
    if (!I || !J || !X || !rowv || !colv) cu_die (__FILE__, __LINE__, "malloc", 0) ;
    for (uint64_t i = 0 ; i < nrows ; i++) rowv [i] = cu_value (r, t, g->vals) ;
    for (uint64_t j = 0 ; j < ncols ; j++) colv [j] = cu_value (r, t, g->vals) ;
    uint64_t n = 0 ;
    for (uint64_t i = 0 ; i < nrows ; i++)
    {
        if (!dense && g->empty_rows > 0 && i % g->empty_rows == 0) continue ;
        for (uint64_t j = 0 ; j < ncols ; j++)
        {
            if (!dense && g->empty_cols > 0 && j % g->empty_cols == 0) continue ;
            if (!dense && cu_unif (r) >= density) continue ;
            if (n == cap)
            {
                cap = 2 * cap + 16 ;
                I = realloc (I, cap * sizeof (GrB_Index)) ;
                J = realloc (J, cap * sizeof (GrB_Index)) ;
                X = realloc (X, cap * sizeof (double)) ;
                if (!I || !J || !X) cu_die (__FILE__, __LINE__, "realloc", 0) ;
            }
            double x = (g->vary == CU_VARY_ROW) ? rowv [i]
                     : (g->vary == CU_VARY_COL) ? colv [j]
                     : cu_value (r, t, g->vals) ;
            if (g->zeros > 0 && cu_unif (r) < g->zeros) x = 0 ;
            I [n] = i ; J [n] = j ; X [n] = x ; n++ ;
        }
    }
    free (rowv) ; free (colv) ;
    *Ip = I ; *Jp = J ; *Xp = X ;
    return n ;
}

static GrB_Scalar cu_scalar (int t, double x)
{
    GrB_Scalar s ;
    CU_OK (GrB_Scalar_new (&s, cu_type (t))) ;
    CU_OK (GrB_Scalar_setElement_FP64 (s, x)) ;
    return s ;
}

GrB_Matrix cu_matrix (cu_rng *r, int t, uint64_t nrows, uint64_t ncols,
    double density, const cu_gen *g)
{
    static const cu_gen dflt = { 0 } ;
    if (g == NULL) g = &dflt ;
    GrB_Matrix A ;
    CU_OK (GrB_Matrix_new (&A, cu_type (t), nrows, ncols)) ;
    if (g->iso && density >= 1)
    {
        // A(:,:) = x: a full iso matrix, the way programs make one
        CU_OK (GrB_Matrix_assign_FP64 (A, NULL, NULL, g->iso_value, GrB_ALL,
            nrows, GrB_ALL, ncols, NULL)) ;
    }
    else
    {
        GrB_Index *I, *J ; double *X ;
        uint64_t n = cu_tuples_draw (r, t, nrows, ncols, density, g, &I, &J, &X) ;
        if (g->iso)
        {
            GrB_Scalar s = cu_scalar (t, g->iso_value) ;
            CU_OK (GxB_Matrix_build_Scalar (A, I, J, s, n)) ;
            GrB_Scalar_free (&s) ;
        }
        else if (g->vals == CU_V_HUGE && !cu_type_float (t))
        {
            // the whole range of the type, drawn as 64-bit integers
            bool sgn = cu_type_signed (t) ;
            int bits = (t == CU_INT32 || t == CU_UINT32) ? 32
                     : (t == CU_INT8) ? 8 : (t == CU_UINT16) ? 16
                     : (t == CU_BOOL) ? 1 : 64 ;
            uint64_t *U = malloc ((n + 1) * sizeof (uint64_t)) ;
            uint64_t *rowu = malloc ((nrows + 1) * sizeof (uint64_t)) ;
            uint64_t *colu = malloc ((ncols + 1) * sizeof (uint64_t)) ;
            if (!U || !rowu || !colu) cu_die (__FILE__, __LINE__, "malloc", 0) ;
            for (uint64_t i = 0 ; i < nrows ; i++) rowu [i] = cu_next (r) ;
            for (uint64_t j = 0 ; j < ncols ; j++) colu [j] = cu_next (r) ;
            for (uint64_t p = 0 ; p < n ; p++)
            {
                uint64_t x = (g->vary == CU_VARY_ROW) ? rowu [I [p]]
                           : (g->vary == CU_VARY_COL) ? colu [J [p]] : cu_next (r) ;
                if (bits < 64) x &= (((uint64_t) 1) << bits) - 1 ;
                if (sgn && bits < 64 && (x >> (bits - 1))) x |= ~((((uint64_t) 1) << bits) - 1) ;
                U [p] = (X [p] == 0) ? 0 : x ;      // explicit zeros stay zero
            }
            if (sgn) CU_OK (GrB_Matrix_build_INT64 (A, I, J, (int64_t *) U, n, NULL)) ;
            else CU_OK (GrB_Matrix_build_UINT64 (A, I, J, U, n, NULL)) ;
            free (U) ; free (rowu) ; free (colu) ;
        }
        else
        {
            CU_OK (GrB_Matrix_build_FP64 (A, I, J, X, n, NULL)) ;
        }
        free (I) ; free (J) ; free (X) ;
    }
    CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

GrB_Vector cu_vector (cu_rng *r, int t, uint64_t n, double density,
    const cu_gen *g)
{
    static const cu_gen dflt = { 0 } ;
    if (g == NULL) g = &dflt ;
    cu_gen g2 = *g ;
    g2.empty_cols = 0 ;
    // a vector is n x 1: "row" variation is per entry, "column" is constant
    if (g2.vary == CU_VARY_ROW) g2.vary = CU_VARY_ENTRY ;
    GrB_Vector v ;
    CU_OK (GrB_Vector_new (&v, cu_type (t), n)) ;
    if (g2.iso && density >= 1)
    {
        CU_OK (GrB_Vector_assign_FP64 (v, NULL, NULL, g2.iso_value, GrB_ALL,
            n, NULL)) ;
    }
    else
    {
        GrB_Index *I, *J ; double *X ;
        uint64_t nv = cu_tuples_draw (r, t, n, 1, density, &g2, &I, &J, &X) ;
        if (g2.iso)
        {
            GrB_Scalar s = cu_scalar (t, g2.iso_value) ;
            CU_OK (GxB_Vector_build_Scalar (v, I, s, nv)) ;
            GrB_Scalar_free (&s) ;
        }
        else if (g2.vals == CU_V_HUGE && !cu_type_float (t))
        {
            // through the matrix builder: an n x 1 matrix, then its column
            free (I) ; free (J) ; free (X) ;
            GrB_Vector_free (&v) ;
            GrB_Matrix A = cu_matrix (r, t, n, 1, density, &g2) ;
            CU_OK (GrB_Vector_new (&v, cu_type (t), n)) ;
            CU_OK (GrB_Col_extract (v, NULL, NULL, A, GrB_ALL, n, 0, NULL)) ;
            GrB_Matrix_free (&A) ;
            CU_OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
            return v ;
        }
        else
        {
            CU_OK (GrB_Vector_build_FP64 (v, I, X, nv, NULL)) ;
        }
        free (I) ; free (J) ; free (X) ;
    }
    CU_OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
    return v ;
}

void cu_storage (GrB_Matrix A, int sparsity, int format)
{
    if (A == NULL) return ;
    if (format >= 0)
        CU_OK (GxB_Matrix_Option_set_INT32 (A, GxB_FORMAT, format)) ;
    if (sparsity > 0)
        CU_OK (GxB_Matrix_Option_set_INT32 (A, GxB_SPARSITY_CONTROL, sparsity)) ;
    CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
}

void cu_vstorage (GrB_Vector v, int sparsity)
{
    if (v == NULL) return ;
    if (sparsity > 0)
        CU_OK (GxB_Vector_Option_set_INT32 (v, GxB_SPARSITY_CONTROL, sparsity)) ;
    CU_OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
}

const char *cu_sparsity_name (int s)
{
    switch (s)
    {
        case GxB_SPARSE:      return "sparse" ;
        case GxB_HYPERSPARSE: return "hyper" ;
        case GxB_BITMAP:      return "bitmap" ;
        case GxB_FULL:        return "full" ;
        default:              return "auto" ;
    }
}
