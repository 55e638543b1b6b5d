//------------------------------------------------------------------------------
// tests/preload_prog.c: an ordinary GraphBLAS program, for the LD_PRELOAD test
//------------------------------------------------------------------------------

// Knows nothing of grbgpu (no grbgpu.h; linked with -lgraphblas only, or
// with -lgrbgpu in either order by tests/tests.mk).  From a fixed seed it
// computes a set of products of the kinds grbgpu offloads, and prints every
// entry of every result in row-major order, one per line:
//
//      <product> <i> <j> <kind> <value> <magnitude>
//
// kind is "i" (integer: compare exactly) or "f32" / "f64" (compare within a
// relative tolerance of magnitude + |value|, where magnitude is the sum of
// |terms| of that entry, computed by the same program on |A| and |B|).
// tests/test_preload.sh runs it with and without grbgpu and compares.
//
// With PRELOAD_PROG_ALLOC=count it starts GraphBLAS through GxB_init with
// counting, tagging memory functions (tests/count_alloc.h), as
// memory-accounting test harnesses do, and after GrB_finalize checks that
// GraphBLAS gave back every block it took, and no other: it prints the
// counts on stderr and exits with 2 when they do not balance.

#include <GraphBLAS.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/count_alloc.h"

#define TRY(call)                                                           \
    do {                                                                    \
        GrB_Info info_ = (call) ;                                           \
        if (info_ != GrB_SUCCESS)                                           \
        {                                                                   \
            fprintf (stderr, "preload_prog: %s failed (%d), line %d\n",     \
                #call, (int) info_, __LINE__) ;                             \
            exit (1) ;                                                      \
        }                                                                   \
    } while (0)

//------------------------------------------------------------------------------
// a fixed-seed generator
//------------------------------------------------------------------------------

static uint64_t state = 20240611 ;

static uint64_t next (void)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return z ^ (z >> 31) ;
}

static double unif (void) { return (double) (next ( ) >> 11) * 0x1.0p-53 ; }

// density < 1: sparse with a few empty rows; >= 1: every entry.  ints: small
// integer values in [-5,5], else reals in (-1,1).
static GrB_Matrix random_matrix (GrB_Type t, GrB_Index m, GrB_Index n,
    double density, int ints)
{
    GrB_Matrix A ;
    TRY (GrB_Matrix_new (&A, t, m, n)) ;
    GrB_Index cap = m * n + 1, k = 0 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    if (!I || !J || !X) exit (1) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        if (density < 1 && i % 11 == 3) continue ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            if (density < 1 && unif ( ) >= density) continue ;
            I [k] = i ; J [k] = j ;
            X [k] = ints ? (double) ((int64_t) (next ( ) % 11) - 5) : 2 * unif ( ) - 1 ;
            k++ ;
        }
    }
    TRY (GrB_Matrix_build_FP64 (A, I, J, X, k, NULL)) ;
    free (I) ; free (J) ; free (X) ;
    return A ;
}

static GrB_Vector random_vector (GrB_Type t, GrB_Index n, int ints)
{
    GrB_Vector v ;
    TRY (GrB_Vector_new (&v, t, n)) ;
    for (GrB_Index i = 0 ; i < n ; i++)
    {
        double x = ints ? (double) ((int64_t) (next ( ) % 11) - 5) : 2 * unif ( ) - 1 ;
        TRY (GrB_Vector_setElement_FP64 (v, x, i)) ;
    }
    TRY (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
    return v ;
}

static GrB_Matrix absval (GrB_Matrix A)
{
    GrB_Index m, n ;
    TRY (GrB_Matrix_nrows (&m, A)) ;
    TRY (GrB_Matrix_ncols (&n, A)) ;
    GrB_Matrix B ;
    TRY (GrB_Matrix_new (&B, GrB_FP64, m, n)) ;
    TRY (GrB_Matrix_apply (B, NULL, NULL, GrB_ABS_FP64, A, NULL)) ;
    return B ;
}

static GrB_Vector vabsval (GrB_Vector u)
{
    GrB_Index n ;
    TRY (GrB_Vector_size (&n, u)) ;
    GrB_Vector v ;
    TRY (GrB_Vector_new (&v, GrB_FP64, n)) ;
    TRY (GrB_Vector_apply (v, NULL, NULL, GrB_ABS_FP64, u, NULL)) ;
    return v ;
}

//------------------------------------------------------------------------------
// printing
//------------------------------------------------------------------------------

typedef struct { GrB_Index i, j ; double x ; } tuple ;

static int cmp_tuple (const void *a, const void *b)
{
    const tuple *s = a, *t = b ;
    if (s->i != t->i) return s->i < t->i ? -1 : 1 ;
    if (s->j != t->j) return s->j < t->j ? -1 : 1 ;
    return 0 ;
}

static tuple *sorted_tuples (GrB_Matrix A, GrB_Index *n)
{
    TRY (GrB_Matrix_nvals (n, A)) ;
    GrB_Index *I = malloc ((*n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((*n + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((*n + 1) * sizeof (double)) ;
    tuple *T = malloc ((*n + 1) * sizeof (tuple)) ;
    if (!I || !J || !X || !T) exit (1) ;
    GrB_Index k = *n ;
    TRY (GrB_Matrix_extractTuples_FP64 (I, J, X, &k, A)) ;
    for (GrB_Index p = 0 ; p < k ; p++) { T [p].i = I [p] ; T [p].j = J [p] ; T [p].x = X [p] ; }
    qsort (T, k, sizeof (tuple), cmp_tuple) ;
    free (I) ; free (J) ; free (X) ;
    *n = k ;
    return T ;
}

// Print C (any built-in type; values printed exactly as FP64, which holds
// every value of these tests exactly), with the magnitude of each entry.
static void print_matrix (const char *name, const char *kind, GrB_Matrix C,
    GrB_Matrix mag)
{
    GrB_Index n, nm = 0 ;
    tuple *T = sorted_tuples (C, &n) ;
    tuple *Mg = mag ? sorted_tuples (mag, &nm) : NULL ;
    printf ("%s nvals %llu\n", name, (unsigned long long) n) ;
    GrB_Index q = 0 ;
    for (GrB_Index p = 0 ; p < n ; p++)
    {
        double m = 0 ;
        while (q < nm && cmp_tuple (&Mg [q], &T [p]) < 0) q++ ;
        if (q < nm && cmp_tuple (&Mg [q], &T [p]) == 0) m = Mg [q].x ;
        printf ("%s %llu %llu %s %.17g %.17g\n", name, (unsigned long long) T [p].i,
            (unsigned long long) T [p].j, kind, T [p].x, m) ;
    }
    free (T) ; free (Mg) ;
}

static void print_vector (const char *name, const char *kind, GrB_Vector v,
    GrB_Vector mag)
{
    // a GrB_Vector is an n x 1 GrB_Matrix in SuiteSparse:GraphBLAS
    print_matrix (name, kind, (GrB_Matrix) v, (GrB_Matrix) mag) ;
}

//------------------------------------------------------------------------------
// the products
//------------------------------------------------------------------------------

int main (void)
{
    const char *alloc = getenv ("PRELOAD_PROG_ALLOC") ;
    const bool counting = alloc != NULL && strcmp (alloc, "count") == 0 ;
    if (counting) TRY (GxB_init (GrB_NONBLOCKING, ca_malloc, ca_calloc, ca_realloc, ca_free)) ;
    else TRY (GrB_init (GrB_NONBLOCKING)) ;

    GrB_Matrix A = random_matrix (GrB_FP64, 300, 200, 0.05, 0) ;
    GrB_Matrix B = random_matrix (GrB_FP64, 200, 16, 1, 0) ;
    GrB_Matrix Aabs = absval (A), Babs = absval (B) ;

    // 1. SpMM: C = A*B, PLUS_TIMES FP64
    GrB_Matrix C1, C1m ;
    TRY (GrB_Matrix_new (&C1, GrB_FP64, 300, 16)) ;
    TRY (GrB_mxm (C1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    TRY (GrB_Matrix_new (&C1m, GrB_FP64, 300, 16)) ;
    TRY (GrB_mxm (C1m, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, Aabs, Babs, NULL)) ;
    print_matrix ("spmm_plus_times_fp64", "f64", C1, C1m) ;

    // 2. SpMM: C = A min.+ B, INT32
    GrB_Matrix Ai = random_matrix (GrB_INT32, 300, 200, 0.05, 1) ;
    GrB_Matrix Bi = random_matrix (GrB_INT32, 200, 12, 1, 1) ;
    GrB_Matrix C2 ;
    TRY (GrB_Matrix_new (&C2, GrB_INT32, 300, 12)) ;
    TRY (GrB_mxm (C2, NULL, NULL, GrB_MIN_PLUS_SEMIRING_INT32, Ai, Bi, NULL)) ;
    print_matrix ("spmm_min_plus_int32", "i", C2, NULL) ;

    // 3. PageRank-style: r = t + A' * (r ./ d), PLUS_SECOND FP32, A boolean
    GrB_Index n = 250 ;
    GrB_Matrix G ;
    TRY (GrB_Matrix_new (&G, GrB_BOOL, n, n)) ;
    for (GrB_Index i = 0 ; i < n ; i++)
    {
        TRY (GrB_Matrix_setElement_BOOL (G, true, i, (i + 1) % n)) ;
        for (int e = 0 ; e < 4 ; e++)
            TRY (GrB_Matrix_setElement_BOOL (G, true, i, next ( ) % n)) ;
    }
    GrB_Vector d, r, w, t ;
    TRY (GrB_Vector_new (&d, GrB_FP32, n)) ;
    TRY (GrB_Matrix_reduce_Monoid (d, NULL, NULL, GrB_PLUS_MONOID_FP32, G, NULL)) ;
    TRY (GrB_Vector_new (&r, GrB_FP32, n)) ;
    TRY (GrB_Vector_new (&w, GrB_FP32, n)) ;
    TRY (GrB_Vector_new (&t, GrB_FP32, n)) ;
    TRY (GrB_Vector_assign_FP32 (r, NULL, NULL, 1.0f / n, GrB_ALL, n, NULL)) ;
    for (int iter = 0 ; iter < 5 ; iter++)
    {
        // w = 0.85 * r ./ d
        TRY (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, GrB_DIV_FP32, r, d, NULL)) ;
        TRY (GrB_Vector_apply_BinaryOp2nd_FP32 (w, NULL, NULL, GrB_TIMES_FP32, w, 0.85f, NULL)) ;
        // r = 0.15/n ; r += A' * w
        TRY (GrB_Vector_assign_FP32 (r, NULL, NULL, 0.15f / n, GrB_ALL, n, NULL)) ;
        TRY (GrB_mxv (r, NULL, GrB_PLUS_FP32, GxB_PLUS_SECOND_FP32, G, w, GrB_DESC_T0)) ;
    }
    // the magnitude: every term is positive, so r is its own magnitude
    print_vector ("pagerank_plus_second_fp32", "f32", r, r) ;

    // 4. vxm: w' = u' * A (PLUS_TIMES FP64) and MAX_FIRST INT64
    GrB_Vector u = random_vector (GrB_FP64, 300, 0), uabs = vabsval (u) ;
    GrB_Vector v, vm ;
    TRY (GrB_Vector_new (&v, GrB_FP64, 200)) ;
    TRY (GrB_vxm (v, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, NULL)) ;
    TRY (GrB_Vector_new (&vm, GrB_FP64, 200)) ;
    TRY (GrB_vxm (vm, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, uabs, Aabs, NULL)) ;
    print_vector ("vxm_plus_times_fp64", "f64", v, vm) ;
    GrB_Vector ui = random_vector (GrB_INT64, 300, 1), vi ;
    TRY (GrB_Vector_new (&vi, GrB_INT64, 200)) ;
    TRY (GrB_vxm (vi, NULL, NULL, GrB_MAX_FIRST_SEMIRING_INT64, ui, Ai, NULL)) ;
    print_vector ("vxm_max_first_int64", "i", vi, NULL) ;

    // 5. masked SDDMM: S<M,struct> = X * Y', PLUS_TIMES FP32
    GrB_Matrix X = random_matrix (GrB_FP32, 120, 32, 1, 0) ;
    GrB_Matrix Y = random_matrix (GrB_FP32, 100, 32, 1, 0) ;
    GrB_Matrix Mk = random_matrix (GrB_BOOL, 120, 100, 0.08, 1) ;
    GrB_Matrix Xabs = absval (X), Yabs = absval (Y) ;
    GrB_Descriptor dsddmm ;
    TRY (GrB_Descriptor_new (&dsddmm)) ;
    TRY (GrB_Descriptor_set (dsddmm, GrB_MASK, GrB_STRUCTURE)) ;
    TRY (GrB_Descriptor_set (dsddmm, GrB_INP1, GrB_TRAN)) ;
    GrB_Matrix S, Sm ;
    TRY (GrB_Matrix_new (&S, GrB_FP32, 120, 100)) ;
    TRY (GrB_mxm (S, Mk, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, X, Y, dsddmm)) ;
    TRY (GrB_Matrix_new (&Sm, GrB_FP64, 120, 100)) ;
    TRY (GrB_mxm (Sm, Mk, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, Xabs, Yabs, dsddmm)) ;
    print_matrix ("sddmm_plus_times_fp32", "f32", S, Sm) ;

    // 6. with accumulators: C += A*B (FP64), and C<M> -= Ai*Bi (INT64 C)
    GrB_Matrix C6 = random_matrix (GrB_FP64, 300, 16, 0.3, 0), C6m ;
    TRY (GrB_Matrix_new (&C6m, GrB_FP64, 300, 16)) ;
    TRY (GrB_Matrix_apply (C6m, NULL, NULL, GrB_ABS_FP64, C6, NULL)) ;
    TRY (GrB_mxm (C6m, NULL, GrB_PLUS_FP64, GrB_PLUS_TIMES_SEMIRING_FP64, Aabs, Babs, NULL)) ;
    TRY (GrB_mxm (C6, NULL, GrB_PLUS_FP64, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    print_matrix ("spmm_accum_plus_fp64", "f64", C6, C6m) ;
    GrB_Matrix C7 = random_matrix (GrB_INT64, 300, 12, 0.4, 1) ;
    GrB_Matrix M7 = random_matrix (GrB_INT32, 300, 12, 0.5, 1) ;   // valued, with zeros
    TRY (GrB_mxm (C7, M7, GrB_MINUS_INT64, GrB_PLUS_TIMES_SEMIRING_INT32, Ai, Bi, NULL)) ;
    print_matrix ("spmm_masked_accum_minus_int64", "i", C7, NULL) ;

    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&Aabs) ;
    GrB_Matrix_free (&Babs) ; GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C1m) ;
    GrB_Matrix_free (&Ai) ; GrB_Matrix_free (&Bi) ; GrB_Matrix_free (&C2) ;
    GrB_Matrix_free (&G) ; GrB_Vector_free (&d) ; GrB_Vector_free (&r) ;
    GrB_Vector_free (&w) ; GrB_Vector_free (&t) ; GrB_Vector_free (&u) ;
    GrB_Vector_free (&uabs) ; GrB_Vector_free (&v) ; GrB_Vector_free (&vm) ;
    GrB_Vector_free (&ui) ; GrB_Vector_free (&vi) ; GrB_Matrix_free (&X) ;
    GrB_Matrix_free (&Y) ; GrB_Matrix_free (&Mk) ; GrB_Matrix_free (&Xabs) ;
    GrB_Matrix_free (&Yabs) ; GrB_Descriptor_free (&dsddmm) ; GrB_Matrix_free (&S) ;
    GrB_Matrix_free (&Sm) ; GrB_Matrix_free (&C6) ; GrB_Matrix_free (&C6m) ;
    GrB_Matrix_free (&C7) ; GrB_Matrix_free (&M7) ;
    GrB_finalize ( ) ;
    if (counting)
    {
        ca_counts c ;
        ca_get (&c) ;
        fprintf (stderr, "preload_prog: allocator: %lld blocks allocated, %lld freed, "
            "%lld foreign blocks given to its free, %lld freed twice\n",
            (long long) c.allocated, (long long) c.freed, (long long) c.foreign,
            (long long) c.twice) ;
        if (c.allocated != c.freed || c.foreign != 0 || c.twice != 0) return 2 ;
    }
    return 0 ;
}
