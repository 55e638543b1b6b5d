//------------------------------------------------------------------------------
// tests/nm_gen.h: random N:M weights for the N:M SpMM test and benchmark
//------------------------------------------------------------------------------

// W' (n rows = output columns, k columns = reduction) in CSR, vector-wise
// N:M with blocks of v rows: per (block, group) n positions drawn at random,
// each row of the block keeping each with probability keep (1: exactly the
// block's positions).  Values uniform in [-1, 1) from the caller's fill.

#ifndef GG_NM_GEN_H
#define GG_NM_GEN_H

#include <cstdint>
#include <cstring>
#include <vector>
#include "kernels/gg_kernels.h"

struct nm_gen_csr
{
    int64_t nrows, ncols ;
    std::vector<int32_t> p, i ;
} ;

// S as a gg_csr (the packer's input), with values x (S.i.size () of them)
static inline gg_csr nm_gen_view (const nm_gen_csr &S, const void *x)
{
    gg_csr A ;
    memset (&A, 0, sizeof A) ;
    A.nrows = S.nrows ; A.ncols = S.ncols ; A.nnz = (int64_t) S.i.size () ;
    A.p32 = S.p.data () ; A.i32 = S.i.data () ; A.x = x ;
    A.max_row = -1 ;
    return A ;
}

static inline uint64_t nm_gen_next (uint64_t *s)
{
    // splitmix64
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull ;
    return z ^ (z >> 31) ;
}

static inline double nm_gen_unif (uint64_t *s)
{
    return (double) (nm_gen_next (s) >> 11) * (1.0 / 9007199254740992.0) ;
}

static inline nm_gen_csr nm_gen_pattern (int64_t nrows, int64_t k, int n,
    int m, int v, double keep, uint64_t *seed)
{
    nm_gen_csr A ;
    A.nrows = nrows ;
    A.ncols = k ;
    A.p.assign ((size_t) nrows + 1, 0) ;
    const int64_t G = (k + m - 1) / m ;
    std::vector<uint32_t> pick ((size_t) G) ;
    for (int64_t r = 0 ; r < nrows ; r++)
    {
        if (r % v == 0)
        {
            for (int64_t g = 0 ; g < G ; g++)
            {
                const int len = (int) ((g * m + m <= k) ? m : k - g * m) ;
                uint32_t bits = 0 ;
                const int want = (n < len) ? n : len ;
                for (int have = 0 ; have < want ; )
                {
                    const int o = (int) (nm_gen_next (seed) % (uint64_t) len) ;
                    if (!(bits & (1u << o))) { bits |= 1u << o ; have++ ; }
                }
                pick [g] = bits ;
            }
        }
        for (int64_t g = 0 ; g < G ; g++)
        {
            for (int o = 0 ; o < m ; o++)
            {
                if ((pick [g] >> o & 1) && (keep >= 1 || nm_gen_unif (seed) < keep))
                {
                    A.i.push_back ((int32_t) (g * m + o)) ;
                }
            }
        }
        A.p [r+1] = (int32_t) A.i.size () ;
    }
    return A ;
}

#endif
