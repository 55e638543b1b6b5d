//------------------------------------------------------------------------------
// examples/common.c: PRNG, R-MAT, Matrix Market, timer, dense and check helpers
//------------------------------------------------------------------------------

// Shared by examples/pagerank.c, gcn.c and attention.c.  Plain GraphBLAS and
// libc only: these programs know nothing about grbgpu.  Everything random is
// drawn from xoshiro256** seeded through splitmix64, so a seed gives the same
// graph and the same features on every machine.

#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L     // popen, getline, clock_gettime
#endif

#include "common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//------------------------------------------------------------------------------
// PRNG
//------------------------------------------------------------------------------

uint64_t ex_splitmix64 (uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return (z ^ (z >> 31)) ;
}

void ex_rng_seed (ex_rng *rng, uint64_t seed)
{
    for (int k = 0 ; k < 4 ; k++) rng->s [k] = ex_splitmix64 (&seed) ;
}

static inline uint64_t rotl (uint64_t x, int k)
{
    return ((x << k) | (x >> (64 - k))) ;
}

uint64_t ex_rng_next (ex_rng *rng)
{
    // xoshiro256** (Blackman and Vigna)
    uint64_t *s = rng->s ;
    uint64_t result = rotl (s [1] * 5, 7) * 9 ;
    uint64_t t = s [1] << 17 ;
    s [2] ^= s [0] ; s [3] ^= s [1] ; s [1] ^= s [2] ; s [0] ^= s [3] ;
    s [2] ^= t ;
    s [3] = rotl (s [3], 45) ;
    return (result) ;
}

double ex_rng_uniform (ex_rng *rng)
{
    return ((double) (ex_rng_next (rng) >> 11) * 0x1.0p-53) ;
}

uint64_t ex_rng_below (ex_rng *rng, uint64_t n)
{
    // multiply-shift: bias below 2^-32 for the sizes used here
    return ((uint64_t) (((unsigned __int128) ex_rng_next (rng) * n) >> 64)) ;
}

double ex_rng_normal (ex_rng *rng)
{
    double u1 = ex_rng_uniform (rng), u2 = ex_rng_uniform (rng) ;
    return (sqrt (-2.0 * log (1.0 - u1)) * cos (6.283185307179586 * u2)) ;
}

//------------------------------------------------------------------------------
// ex_rmat: deterministic R-MAT graph
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL { free (I) ; free (J) ; free (X) ; }

GrB_Info ex_rmat (GrB_Matrix *A, int scale, int edge_factor, uint64_t seed)
{
    GrB_Index *I = NULL, *J = NULL ;
    float *X = NULL ;

    //--------------------------------------------------------------------------
    // check inputs
    //--------------------------------------------------------------------------

    EX_TRY (A != NULL && scale >= 1 && scale <= 40 && edge_factor >= 1,
        "ex_rmat: bad arguments") ;
    *A = NULL ;
    GrB_Index n = ((GrB_Index) 1) << scale ;
    GrB_Index nedges = n * (GrB_Index) edge_factor ;
    I = malloc (nedges * sizeof (GrB_Index)) ;
    J = malloc (nedges * sizeof (GrB_Index)) ;
    X = malloc (nedges * sizeof (float)) ;
    EX_TRY (I != NULL && J != NULL && X != NULL, "ex_rmat: out of memory") ;

    //--------------------------------------------------------------------------
    // draw the edges: one quadrant choice per level
    //--------------------------------------------------------------------------

    // P(quadrant) = a (top left), b (top right), c (bottom left), d (bottom
    // right), with (a,b,c,d) = (0.57,0.19,0.19,0.05); cumulative thresholds:
    const double ab = 0.57 + 0.19, abc = 0.57 + 0.19 + 0.19 ;
    ex_rng rng ;
    ex_rng_seed (&rng, seed) ;
    GrB_Index e = 0 ;
    for (GrB_Index k = 0 ; k < nedges ; k++)
    {
        GrB_Index i = 0, j = 0 ;
        for (int level = 0 ; level < scale ; level++)
        {
            double r = ex_rng_uniform (&rng) ;
            GrB_Index bit = ((GrB_Index) 1) << level ;
            if (r < 0.57) { }
            else if (r < ab) j |= bit ;
            else if (r < abc) i |= bit ;
            else { i |= bit ; j |= bit ; }
        }
        if (i == j) continue ;          // no self-loops
        I [e] = i ; J [e] = j ; X [e] = 1 ; e++ ;
    }

    //--------------------------------------------------------------------------
    // A = sparse (I, J, 1), duplicates dropped
    //--------------------------------------------------------------------------

    GRB_TRY (GrB_Matrix_new (A, GrB_FP32, n, n)) ;
    // A(i,j) = 1 for each drawn edge (i,j); FIRST keeps one of duplicates
    GRB_TRY (GrB_Matrix_build_FP32 (*A, I, J, X, e, GrB_FIRST_FP32)) ;
    GRB_TRY (GrB_Matrix_wait (*A, GrB_MATERIALIZE)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// ex_read_mm: Matrix Market coordinate file, optionally gzip-compressed
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    free (I) ; free (J) ; free (X) ; free (line) ;                          \
    if (f != NULL) { if (piped) pclose (f) ; else fclose (f) ; }            \
}

GrB_Info ex_read_mm (GrB_Matrix *A, const char *path)
{
    GrB_Index *I = NULL, *J = NULL ;
    float *X = NULL ;
    char *line = NULL ;
    size_t cap = 0 ;
    FILE *f = NULL ;
    bool piped = false ;

    //--------------------------------------------------------------------------
    // open: through "gzip -dc" when the name ends in .gz
    //--------------------------------------------------------------------------

    EX_TRY (A != NULL && path != NULL, "ex_read_mm: bad arguments") ;
    *A = NULL ;
    size_t len = strlen (path) ;
    if (len > 3 && strcmp (path + len - 3, ".gz") == 0)
    {
        // quote the path for the shell: '...' with ' written as '\''
        size_t qlen = 16 + 4 * len ;
        char *cmd = malloc (qlen) ;
        EX_TRY (cmd != NULL, "ex_read_mm: out of memory") ;
        char *p = cmd + sprintf (cmd, "gzip -dc '") ;
        for (const char *s = path ; *s ; s++)
        {
            if (*s == '\'') { memcpy (p, "'\\''", 4) ; p += 4 ; }
            else *p++ = *s ;
        }
        strcpy (p, "'") ;
        f = popen (cmd, "r") ;
        free (cmd) ;
        piped = true ;
    }
    else
    {
        f = fopen (path, "r") ;
    }
    EX_TRY (f != NULL, "ex_read_mm: cannot open %s", path) ;

    //--------------------------------------------------------------------------
    // header: %%MatrixMarket matrix coordinate <field> <symmetry>
    //--------------------------------------------------------------------------

    EX_TRY (getline (&line, &cap, f) > 0, "ex_read_mm: %s is empty", path) ;
    for (char *s = line ; *s ; s++) *s = (char) tolower ((unsigned char) *s) ;
    char object [64] = "", format [64] = "", field [64] = "", sym [64] = "" ;
    EX_TRY (sscanf (line, "%%%%matrixmarket %63s %63s %63s %63s", object,
        format, field, sym) == 4 && strcmp (object, "matrix") == 0,
        "ex_read_mm: %s: not a Matrix Market matrix", path) ;
    EX_TRY (strcmp (format, "coordinate") == 0,
        "ex_read_mm: %s: only coordinate format is read", path) ;
    bool pattern = (strcmp (field, "pattern") == 0) ;
    EX_TRY (pattern || strcmp (field, "real") == 0
        || strcmp (field, "integer") == 0 || strcmp (field, "double") == 0,
        "ex_read_mm: %s: field '%s' not supported", path, field) ;
    bool symmetric = (strcmp (sym, "symmetric") == 0) ;
    bool skew = (strcmp (sym, "skew-symmetric") == 0) ;
    EX_TRY (symmetric || skew || strcmp (sym, "general") == 0,
        "ex_read_mm: %s: symmetry '%s' not supported", path, sym) ;

    // skip comments, then "nrows ncols nnz"
    unsigned long long nrows = 0, ncols = 0, nnz = 0 ;
    for (;;)
    {
        EX_TRY (getline (&line, &cap, f) > 0, "ex_read_mm: %s: no size line",
            path) ;
        if (line [0] == '%') continue ;
        char *s = line ;
        while (isspace ((unsigned char) *s)) s++ ;
        if (*s == '\0') continue ;
        EX_TRY (sscanf (s, "%llu %llu %llu", &nrows, &ncols, &nnz) == 3,
            "ex_read_mm: %s: bad size line", path) ;
        break ;
    }

    //--------------------------------------------------------------------------
    // entries (1-based), mirrored when symmetric
    //--------------------------------------------------------------------------

    GrB_Index cap_e = (symmetric || skew) ? 2 * nnz : nnz ;
    I = malloc ((cap_e + 1) * sizeof (GrB_Index)) ;
    J = malloc ((cap_e + 1) * sizeof (GrB_Index)) ;
    X = malloc ((cap_e + 1) * sizeof (float)) ;
    EX_TRY (I != NULL && J != NULL && X != NULL, "ex_read_mm: out of memory") ;
    GrB_Index e = 0 ;
    for (GrB_Index k = 0 ; k < nnz ; k++)
    {
        EX_TRY (getline (&line, &cap, f) > 0,
            "ex_read_mm: %s: %llu of %llu entries", path,
            (unsigned long long) k, nnz) ;
        char *s = line, *end ;
        unsigned long long i = strtoull (s, &end, 10) ; s = end ;
        unsigned long long j = strtoull (s, &end, 10) ; s = end ;
        double x = 1 ;
        if (!pattern) x = strtod (s, &end) ;
        EX_TRY (i >= 1 && i <= nrows && j >= 1 && j <= ncols,
            "ex_read_mm: %s: entry %llu out of range", path,
            (unsigned long long) k + 1) ;
        I [e] = i - 1 ; J [e] = j - 1 ; X [e] = (float) x ; e++ ;
        if ((symmetric || skew) && i != j)
        {
            I [e] = j - 1 ; J [e] = i - 1 ; X [e] = (float) (skew ? -x : x) ;
            e++ ;
        }
    }

    //--------------------------------------------------------------------------
    // A = sparse (I, J, X)
    //--------------------------------------------------------------------------

    GRB_TRY (GrB_Matrix_new (A, GrB_FP32, nrows, ncols)) ;
    // A(i,j) = x; a file should not repeat an entry, but if it does, sum them
    GRB_TRY (GrB_Matrix_build_FP32 (*A, I, J, X, e, GrB_PLUS_FP32)) ;
    GRB_TRY (GrB_Matrix_wait (*A, GrB_MATERIALIZE)) ;
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// dense pack / unpack
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL { GrB_free (M) ; }

GrB_Info ex_dense_pack (GrB_Matrix *M, float **X, GrB_Index nrows,
    GrB_Index ncols)
{
    EX_TRY (M != NULL && X != NULL && *X != NULL && nrows > 0 && ncols > 0,
        "ex_dense_pack: bad arguments") ;
    *M = NULL ;
    GRB_TRY (GrB_Matrix_new (M, GrB_FP32, nrows, ncols)) ;
    // M = X (full, by row); GraphBLAS now owns X
    GRB_TRY (GxB_Matrix_pack_FullR (*M, (void **) X,
        nrows * ncols * sizeof (float), false, NULL)) ;
    return (GrB_SUCCESS) ;
}

#undef  FREE_ALL
#define FREE_ALL { free (Y) ; }

GrB_Info ex_dense_unpack (float **X, GrB_Matrix M)
{
    void *Y = NULL ;
    EX_TRY (X != NULL && M != NULL, "ex_dense_unpack: bad arguments") ;
    *X = NULL ;
    GrB_Index nrows, ncols, nvals, size ;
    bool iso ;
    GRB_TRY (GrB_Matrix_nrows (&nrows, M)) ;
    GRB_TRY (GrB_Matrix_ncols (&ncols, M)) ;
    GRB_TRY (GrB_Matrix_nvals (&nvals, M)) ;
    if (nvals < nrows * ncols)
    {
        // M<!struct(M)> = 0: fill in the missing entries with zeros
        GRB_TRY (GrB_Matrix_assign_FP32 (M, M, NULL, 0, GrB_ALL, nrows,
            GrB_ALL, ncols, GrB_DESC_SC)) ;
    }
    // Y = M as a row-major array; M is left empty
    GRB_TRY (GxB_Matrix_unpack_FullR (M, &Y, &size, &iso, NULL)) ;
    if (iso)
    {
        // an iso matrix holds one value: expand it
        float v = ((float *) Y) [0] ;
        float *Z = malloc (nrows * ncols * sizeof (float)) ;
        EX_TRY (Z != NULL, "ex_dense_unpack: out of memory") ;
        for (GrB_Index k = 0 ; k < nrows * ncols ; k++) Z [k] = v ;
        free (Y) ;
        Y = Z ;
    }
    *X = Y ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// timer and command line
//------------------------------------------------------------------------------

double ex_wtime (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return ((double) t.tv_sec + 1e-9 * (double) t.tv_nsec) ;
}

bool ex_parse_check_arg (ex_check_opts *opt, int argc, char **argv, int *k)
{
    const char *a = argv [*k] ;
    if ((strcmp (a, "--save") == 0 || strcmp (a, "--compare") == 0)
        && *k + 1 < argc)
    {
        if (a [2] == 's') opt->save = argv [*k + 1] ;
        else opt->compare = argv [*k + 1] ;
        (*k) += 2 ;
        return (true) ;
    }
    return (false) ;
}

//------------------------------------------------------------------------------
// check files
//------------------------------------------------------------------------------

static const char check_magic [] = "grbgpu-examples-check v1\n" ;

FILE *ex_check_create (const char *path)
{
    FILE *f = fopen (path, "wb") ;
    if (f == NULL) { perror (path) ; return (NULL) ; }
    fwrite (check_magic, 1, sizeof (check_magic) - 1, f) ;
    return (f) ;
}

int ex_check_write (FILE *f, const char *name, const double *x, int64_t n)
{
    char label [32] = { 0 } ;
    strncpy (label, name, sizeof (label) - 1) ;
    if (fwrite (label, 1, 32, f) != 32 || fwrite (&n, 8, 1, f) != 1
        || (n > 0 && fwrite (x, sizeof (double), n, f) != (size_t) n))
    {
        fprintf (stderr, "check file: write of %s failed\n", name) ;
        return (-1) ;
    }
    return (0) ;
}

int ex_check_read (const char *path, const char *name, double **x, int64_t *n)
{
    *x = NULL ; *n = 0 ;
    FILE *f = fopen (path, "rb") ;
    if (f == NULL) { perror (path) ; return (-1) ; }
    char magic [sizeof (check_magic)] = { 0 } ;
    if (fread (magic, 1, sizeof (check_magic) - 1, f)
        != sizeof (check_magic) - 1 || strcmp (magic, check_magic) != 0)
    {
        fprintf (stderr, "%s: not a check file\n", path) ;
        fclose (f) ;
        return (-1) ;
    }
    char label [32] ;
    int64_t count ;
    while (fread (label, 1, 32, f) == 32 && fread (&count, 8, 1, f) == 1)
    {
        label [31] = '\0' ;
        if (count < 0) break ;
        if (strcmp (label, name) == 0)
        {
            double *y = malloc ((count + 1) * sizeof (double)) ;
            if (y == NULL || (int64_t) fread (y, sizeof (double), count, f)
                != count)
            {
                free (y) ;
                break ;
            }
            fclose (f) ;
            *x = y ; *n = count ;
            return (0) ;
        }
        if (fseek (f, count * (long) sizeof (double), SEEK_CUR) != 0) break ;
    }
    fprintf (stderr, "%s: no array '%s'\n", path, name) ;
    fclose (f) ;
    return (-1) ;
}

bool ex_check_compare (const char *name, const double *ref, int64_t nref,
    const double *got, int64_t ngot, double rtol, bool normwise)
{
    if (nref != ngot)
    {
        printf ("check: %-12s FAIL: %lld values saved, %lld computed\n", name,
            (long long) nref, (long long) ngot) ;
        return (false) ;
    }
    double scale = 0, err = 0 ;
    int64_t worst = -1 ;
    for (int64_t k = 0 ; k < nref ; k++) scale = fmax (scale, fabs (ref [k])) ;
    for (int64_t k = 0 ; k < nref ; k++)
    {
        double d = fabs (got [k] - ref [k]) ;
        double e ;
        if (normwise) e = (scale > 0) ? d / scale : d ;
        else e = (ref [k] != 0) ? d / fabs (ref [k]) : d ;
        if (isnan (got [k]) != isnan (ref [k])) e = INFINITY ;
        if (e > err || worst < 0) { err = (e > err) ? e : err ; worst = k ; }
    }
    bool ok = (err <= rtol) ;
    printf ("check: %-12s %s: %lld values, max %s error %.3g (tolerance %.3g)",
        name, ok ? "ok" : "FAIL", (long long) nref,
        normwise ? "normwise relative" : "relative", err, rtol) ;
    if (!ok && worst >= 0)
    {
        printf (" worst [%lld]: saved %.9g, computed %.9g", (long long) worst,
            ref [worst], got [worst]) ;
    }
    printf ("\n") ;
    return (ok) ;
}
