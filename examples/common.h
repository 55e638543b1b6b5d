//------------------------------------------------------------------------------
// examples/common.h: shared helpers for the GraphBLAS example programs
//------------------------------------------------------------------------------

// The examples are plain GraphBLAS programs: they include only GraphBLAS.h and
// libc, and link with -lgraphblas -lm.  This header gives them what every one
// needs: a seeded PRNG (splitmix64 / xoshiro256**), a deterministic R-MAT
// generator, a Matrix Market reader (gzip-aware), a monotonic timer, dense
// pack/unpack of FP32 matrices, and the --save / --compare check files.

#ifndef EXAMPLES_COMMON_H
#define EXAMPLES_COMMON_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

//------------------------------------------------------------------------------
// error handling: every GraphBLAS call is wrapped in GRB_TRY
//------------------------------------------------------------------------------

// Each function using GRB_TRY / EX_TRY defines FREE_ALL (what to release on any
// exit) and returns an int or GrB_Info status from its error path.
#define GRB_TRY(call)                                                        \
    do {                                                                     \
        GrB_Info grb_try_info_ = (call);                                     \
        if (grb_try_info_ != GrB_SUCCESS && grb_try_info_ != GrB_NO_VALUE)   \
        {                                                                    \
            fprintf (stderr, "%s:%d: %s failed: GrB_Info %d\n", __FILE__,    \
                __LINE__, #call, (int) grb_try_info_);                       \
            FREE_ALL ;                                                       \
            return (grb_try_info_) ;                                         \
        }                                                                    \
    } while (0)

// a libc-level condition (malloc, fopen, ...) that must hold
#define EX_TRY(cond, ...)                                                    \
    do {                                                                     \
        if (!(cond))                                                         \
        {                                                                    \
            fprintf (stderr, "%s:%d: ", __FILE__, __LINE__);                 \
            fprintf (stderr, __VA_ARGS__);                                   \
            fprintf (stderr, "\n");                                          \
            FREE_ALL ;                                                       \
            return (GrB_PANIC) ;                                             \
        }                                                                    \
    } while (0)

//------------------------------------------------------------------------------
// PRNG: xoshiro256** seeded through splitmix64 (never rand ())
//------------------------------------------------------------------------------

typedef struct { uint64_t s [4] ; } ex_rng ;

uint64_t ex_splitmix64 (uint64_t *state) ;
void ex_rng_seed (ex_rng *rng, uint64_t seed) ;
uint64_t ex_rng_next (ex_rng *rng) ;
double ex_rng_uniform (ex_rng *rng) ;              // in [0,1), 53 bits
uint64_t ex_rng_below (ex_rng *rng, uint64_t n) ;  // in [0,n)
double ex_rng_normal (ex_rng *rng) ;               // N(0,1), Box-Muller

//------------------------------------------------------------------------------
// graphs
//------------------------------------------------------------------------------

// R-MAT (a,b,c,d) = (0.57,0.19,0.19,0.05): n = 2^scale vertices, edge_factor*n
// edges drawn, duplicates and self-loops removed, values 1.  FP32, by row.
GrB_Info ex_rmat (GrB_Matrix *A, int scale, int edge_factor, uint64_t seed) ;

// Matrix Market "coordinate" real/integer/pattern, general/symmetric (the
// off-diagonal of a symmetric file is mirrored), optionally gzip-compressed
// (name ends in .gz).  Pattern entries get the value 1.  FP32, square or not.
GrB_Info ex_read_mm (GrB_Matrix *A, const char *path) ;

//------------------------------------------------------------------------------
// dense FP32 matrices as GrB_Matrix (full, held by row)
//------------------------------------------------------------------------------

// M = X, an nrows-by-ncols full matrix; takes ownership of X (malloc'd).
GrB_Info ex_dense_pack (GrB_Matrix *M, float **X, GrB_Index nrows,
    GrB_Index ncols) ;

// X = M as a row-major array (missing entries become 0); M is left empty
// (same type and size).  The caller frees *X.
GrB_Info ex_dense_unpack (float **X, GrB_Matrix M) ;

//------------------------------------------------------------------------------
// timing and command line
//------------------------------------------------------------------------------

double ex_wtime (void) ;                    // monotonic seconds

// the check mode every example shares: --save FILE / --compare FILE
typedef struct
{
    const char *save ;      // write results here (NULL: do not)
    const char *compare ;   // compare results with this file (NULL: do not)
} ex_check_opts ;

// parse the arguments common to all examples; returns true if argv [*k] (and
// maybe its value) was consumed, advancing *k past it
bool ex_parse_check_arg (ex_check_opts *opt, int argc, char **argv, int *k) ;

//------------------------------------------------------------------------------
// check files: named arrays of doubles
//------------------------------------------------------------------------------

// A check file is binary: the magic line "grbgpu-examples-check v1\n" then,
// per array, a 32-byte NUL-padded name, an int64 count and count doubles.
FILE *ex_check_create (const char *path) ;
int ex_check_write (FILE *f, const char *name, const double *x, int64_t n) ;
// read array "name" from the file (*x malloc'd, caller frees); 0 on success
int ex_check_read (const char *path, const char *name, double **x, int64_t *n) ;

// Compare got with ref; prints one line per array.  normwise: the error is
// max_i |got_i - ref_i| / max_i |ref_i|; else max_i |got_i - ref_i| / |ref_i|
// (ref_i != 0; rtol 0 demands equality).  Returns true when err <= rtol.
bool ex_check_compare (const char *name, const double *ref, int64_t nref,
    const double *got, int64_t ngot, double rtol, bool normwise) ;

#endif
