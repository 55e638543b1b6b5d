//------------------------------------------------------------------------------
// reorder/reorder_util.h: CSR patterns for the reorder test and benchmark
//------------------------------------------------------------------------------

// Header-only C, for tests/test_reorder.c and bench/reorder_bench.c (not
// part of libgrbgpu): a CSR pattern (32-bit indices, sorted distinct
// columns), a splitmix64 stream, CSR from (row, col) pairs, R-MAT
// (a, b, c, d = 0.57, 0.19, 0.19, 0.05, 16 edges per row before duplicates
// are dropped), a block-structured generator, a row permutation, and a
// Matrix Market .mtx.gz reader (through `gzip -dc`; symmetric files
// mirrored; values ignored).

#ifndef GG_REORDER_UTIL_H
#define GG_REORDER_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reorder/reorder.h"

typedef struct
{
    int64_t m, k ;
    int32_t *p, *i ;
}
ru_csr ;

static inline void ru_free (ru_csr *A)
{
    free (A->p) ; free (A->i) ;
    A->p = A->i = NULL ;
    A->m = A->k = 0 ;
}

static inline uint64_t ru_next (uint64_t *s)      // splitmix64
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return z ^ (z >> 31) ;
}

static inline int64_t ru_below (uint64_t *s, int64_t n)
{
    return (int64_t) (ru_next (s) % (uint64_t) n) ;
}

static inline int ru_cmp_i32 (const void *x, const void *y)
{
    const int32_t a = *(const int32_t *) x, b = *(const int32_t *) y ;
    return (a > b) - (a < b) ;
}

// CSR from n (row, col) pairs; duplicates dropped; false if out of memory
static inline bool ru_from_pairs (ru_csr *A, int64_t m, int64_t k,
    const int32_t *row, const int32_t *col, int64_t n)
{
    A->m = m ; A->k = k ;
    A->p = calloc ((size_t) (m + 1), sizeof (int32_t)) ;
    A->i = malloc ((size_t) (n + 1) * sizeof (int32_t)) ;
    int32_t *fill = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    if (A->p == NULL || A->i == NULL || fill == NULL)
    {
        free (fill) ; ru_free (A) ; return false ;
    }
    for (int64_t e = 0 ; e < n ; e++) A->p [row [e] + 1]++ ;
    for (int64_t r = 0 ; r < m ; r++) A->p [r+1] += A->p [r] ;
    memcpy (fill, A->p, (size_t) m * sizeof (int32_t)) ;
    for (int64_t e = 0 ; e < n ; e++) A->i [fill [row [e]]++] = col [e] ;
    // sort each row, drop duplicates, compact
    int64_t out = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        const int64_t b = A->p [r], e = A->p [r+1] ;
        qsort (A->i + b, (size_t) (e - b), sizeof (int32_t), ru_cmp_i32) ;
        A->p [r] = (int32_t) out ;
        for (int64_t x = b ; x < e ; x++)
        {
            if (x > b && A->i [x] == A->i [x-1]) continue ;
            A->i [out++] = A->i [x] ;
        }
    }
    A->p [m] = (int32_t) out ;
    free (fill) ;
    return true ;
}

// R-MAT, 2^scale x 2^scale
static inline bool ru_rmat (ru_csr *A, int scale, uint64_t seed)
{
    const int64_t m = (int64_t) 1 << scale, n = 16 * m ;
    int32_t *row = malloc ((size_t) n * sizeof (int32_t)) ;
    int32_t *col = malloc ((size_t) n * sizeof (int32_t)) ;
    if (row == NULL || col == NULL) { free (row) ; free (col) ; return false ; }
    uint64_t s = seed ;
    for (int64_t e = 0 ; e < n ; e++)
    {
        int64_t r = 0, c = 0 ;
        for (int l = 0 ; l < scale ; l++)
        {
            // quadrant: a (0,0) 0.57, b (0,1) 0.19, c (1,0) 0.19, d (1,1) 0.05
            const double u = (double) (ru_next (&s) >> 11) * (1.0 / 9007199254740992.0) ;
            const int rb = (u >= 0.76) ;
            const int cb = (u >= 0.57 && u < 0.76) || (u >= 0.95) ;
            r = 2 * r + rb ; c = 2 * c + cb ;
        }
        row [e] = (int32_t) r ; col [e] = (int32_t) c ;
    }
    const bool ok = ru_from_pairs (A, m, m, row, col, n) ;
    free (row) ; free (col) ;
    return ok ;
}

// nblocks blocks of bsize rows; block b owns columns [b*bcols, (b+1)*bcols)
// and each of its rows holds each of them with probability fill, plus
// `noise` uniformly random columns; rows in block order
static inline bool ru_blocks (ru_csr *A, int64_t nblocks, int64_t bsize,
    int64_t bcols, double fill, int noise, uint64_t seed)
{
    const int64_t m = nblocks * bsize, k = nblocks * bcols ;
    const int64_t cap = m * (bcols + noise) + 1 ;
    int32_t *row = malloc ((size_t) cap * sizeof (int32_t)) ;
    int32_t *col = malloc ((size_t) cap * sizeof (int32_t)) ;
    if (row == NULL || col == NULL) { free (row) ; free (col) ; return false ; }
    uint64_t s = seed ;
    int64_t n = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        const int64_t b = r / bsize ;
        for (int64_t j = 0 ; j < bcols ; j++)
        {
            if ((double) (ru_next (&s) >> 11) * (1.0 / 9007199254740992.0) < fill)
            {
                row [n] = (int32_t) r ; col [n] = (int32_t) (b * bcols + j) ; n++ ;
            }
        }
        for (int x = 0 ; x < noise ; x++)
        {
            row [n] = (int32_t) r ; col [n] = (int32_t) ru_below (&s, k) ; n++ ;
        }
    }
    const bool ok = ru_from_pairs (A, m, k, row, col, n) ;
    free (row) ; free (col) ;
    return ok ;
}

// B = A (perm, :), perm [new] = old
static inline bool ru_permute_rows (ru_csr *B, const ru_csr *A,
    const int32_t *perm)
{
    B->m = A->m ; B->k = A->k ;
    B->p = malloc ((size_t) (A->m + 1) * sizeof (int32_t)) ;
    B->i = malloc ((size_t) (A->p [A->m] + 1) * sizeof (int32_t)) ;
    if (B->p == NULL || B->i == NULL) { ru_free (B) ; return false ; }
    gg_reorder_permute_rows (A->p, A->i, NULL, 0, false, A->m, perm, B->p, B->i, NULL) ;
    return true ;
}

// a random permutation of 0..m-1 (Fisher-Yates)
static inline void ru_shuffle (int32_t *perm, int64_t m, uint64_t seed)
{
    uint64_t s = seed ;
    for (int64_t t = 0 ; t < m ; t++) perm [t] = (int32_t) t ;
    for (int64_t t = m - 1 ; t > 0 ; t--)
    {
        const int64_t u = ru_below (&s, t + 1) ;
        const int32_t x = perm [t] ; perm [t] = perm [u] ; perm [u] = x ;
    }
}

// a Matrix Market coordinate file, gzipped; false if it cannot be read
static inline bool ru_read_mtx_gz (ru_csr *A, const char *path)
{
    char cmd [4200] ;
    if (strchr (path, '\'') != NULL || strlen (path) > 4096) return false ;
    const int len = snprintf (cmd, sizeof (cmd), "gzip -dc '%s'", path) ;
    if (len < 0 || len >= (int) sizeof (cmd)) return false ;
    FILE *f = popen (cmd, "r") ;
    if (f == NULL) return false ;
    char line [1024] ;
    bool symmetric = false, header = true, ok = true ;
    long long nr = 0, nc = 0, ne = 0 ;
    int64_t n = 0, cap = 0 ;
    int32_t *row = NULL, *col = NULL ;
    while (ok && fgets (line, sizeof (line), f))
    {
        if (line [0] == '%')
        {
            if (strncmp (line, "%%MatrixMarket", 14) == 0)
            {
                symmetric = strstr (line, "symmetric") != NULL
                    || strstr (line, "hermitian") != NULL ;
                ok = strstr (line, "coordinate") != NULL ;
            }
            continue ;
        }
        if (header)
        {
            ok = sscanf (line, "%lld %lld %lld", &nr, &nc, &ne) == 3
                && nr >= 0 && nc >= 0 && nr < INT32_MAX && nc < INT32_MAX ;
            cap = 2 * ne + 1 ;
            row = malloc ((size_t) cap * sizeof (int32_t)) ;
            col = malloc ((size_t) cap * sizeof (int32_t)) ;
            ok = ok && row != NULL && col != NULL ;
            header = false ;
            continue ;
        }
        long long r, c ;
        if (sscanf (line, "%lld %lld", &r, &c) != 2) continue ;
        if (r < 1 || r > nr || c < 1 || c > nc || n + 2 > cap) { ok = false ; break ; }
        row [n] = (int32_t) (r - 1) ; col [n] = (int32_t) (c - 1) ; n++ ;
        if (symmetric && r != c)
        {
            row [n] = (int32_t) (c - 1) ; col [n] = (int32_t) (r - 1) ; n++ ;
        }
    }
    pclose (f) ;
    ok = ok && !header && ru_from_pairs (A, nr, nc, row, col, n) ;
    free (row) ; free (col) ;
    return ok ;
}

#endif
