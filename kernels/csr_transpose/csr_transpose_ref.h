//------------------------------------------------------------------------------
// kernels/csr_transpose/csr_transpose_ref.h: host CSR, R-MAT and transpose
//------------------------------------------------------------------------------

// Host-side helpers shared by tests/test_csr_transpose.cu and
// bench/transpose_bench.cu (C++, header only, not part of the library): a
// plain CSR with 32-bit indices and raw value bytes, the reference transpose
// (one thread: count, scan, scatter in row order, which leaves every row of
// the result sorted), and the R-MAT generator of the kernel benchmarks
// (a, b, c, d = 0.57, 0.19, 0.19, 0.05, 16 edges per row before duplicates
// are dropped).

#ifndef GG_CSR_TRANSPOSE_REF_H
#define GG_CSR_TRANSPOSE_REF_H

#include <cstdint>
#include <cstring>
#include <vector>
#include <algorithm>

// A CSR on the host: m x k, values of elem bytes (elem == 0: none; iso: one)
struct xp_csr
{
    int64_t m = 0, k = 0, nnz = 0 ;
    int elem = 0 ;
    bool iso = false ;
    std::vector<int32_t> p, i ;
    std::vector<uint8_t> x ;
} ;

// splitmix64
static inline uint64_t xp_rng (uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull ;
    return z ^ (z >> 31) ;
}

// Random value bytes for every entry of A (A.elem of them each; iso: one)
static inline void xp_fill_values (xp_csr &A, int elem, bool iso, uint64_t *state)
{
    A.elem = elem ;
    A.iso = iso ;
    size_t n = (elem == 0) ? 0 : (size_t) (iso ? 1 : A.nnz) * (size_t) elem ;
    A.x.resize (n) ;
    for (size_t b = 0 ; b < n ; b += 8)
    {
        uint64_t u = xp_rng (state) ;
        memcpy (A.x.data () + b, &u, std::min ((size_t) 8, n - b)) ;
    }
}

// T = A': rows of T filled in A's row order, so each comes out sorted
static inline xp_csr xp_transpose_ref (const xp_csr &A)
{
    xp_csr T ;
    T.m = A.k ; T.k = A.m ; T.nnz = A.nnz ; T.elem = A.elem ; T.iso = A.iso ;
    T.p.assign ((size_t) A.k + 1, 0) ;
    T.i.resize ((size_t) A.nnz) ;
    for (int64_t q = 0 ; q < A.nnz ; q++) T.p [(size_t) A.i [q] + 1]++ ;
    for (int64_t c = 0 ; c < A.k ; c++) T.p [c+1] += T.p [c] ;
    std::vector<int32_t> next (T.p.begin (), T.p.end () - 1) ;
    const size_t e = (size_t) A.elem ;
    if (A.iso || e == 0) T.x = A.x ;
    else T.x.resize ((size_t) A.nnz * e) ;
    for (int64_t r = 0 ; r < A.m ; r++)
    {
        for (int64_t q = A.p [r] ; q < A.p [r+1] ; q++)
        {
            int32_t t = next [A.i [q]]++ ;
            T.i [t] = (int32_t) r ;
            if (!A.iso && e > 0) memcpy (&T.x [(size_t) t * e], &A.x [(size_t) q * e], e) ;
        }
    }
    return T ;
}

// (row << 32 | column) keys -> the pattern of A (m x k), sorted rows,
// duplicates dropped
static inline void xp_csr_from_keys (xp_csr &A, std::vector<uint64_t> &keys)
{
    std::vector<int64_t> cnt ((size_t) A.m + 1, 0) ;
    for (uint64_t key : keys) cnt [(key >> 32) + 1]++ ;
    for (int64_t r = 0 ; r < A.m ; r++) cnt [r+1] += cnt [r] ;
    std::vector<int32_t> cols (keys.size ()) ;
    {
        std::vector<int64_t> pos (cnt.begin (), cnt.end () - 1) ;
        for (uint64_t key : keys) cols [pos [key >> 32]++] = (int32_t) (key & 0xffffffffu) ;
    }
    A.p.assign (1, 0) ;
    A.i.clear () ;
    A.i.reserve (keys.size ()) ;
    for (int64_t r = 0 ; r < A.m ; r++)
    {
        auto b = cols.begin () + cnt [r], e = cols.begin () + cnt [r+1] ;
        std::sort (b, e) ;
        e = std::unique (b, e) ;
        A.i.insert (A.i.end (), b, e) ;
        A.p.push_back ((int32_t) A.i.size ()) ;
    }
    A.nnz = (int64_t) A.i.size () ;
}

// The pattern of an R-MAT of 2^scale rows and columns, 16 edges per row
static inline xp_csr xp_rmat (int scale, uint64_t *state)
{
    xp_csr A ;
    A.m = A.k = (int64_t) 1 << scale ;
    const int64_t ne = 16 * A.m ;
    std::vector<uint64_t> keys ((size_t) ne) ;
    // quadrant thresholds of a, a+b, a+b+c on 32 random bits
    const uint32_t ta = (uint32_t) (0.57 * 4294967296.0),
        tb = (uint32_t) (0.76 * 4294967296.0), tc = (uint32_t) (0.95 * 4294967296.0) ;
    for (int64_t e = 0 ; e < ne ; e++)
    {
        uint64_t r = 0, c = 0 ;
        for (int l = 0 ; l < scale ; l += 2)
        {
            uint64_t u = xp_rng (state) ;
            for (int h = 0 ; h < 2 && l + h < scale ; h++)
            {
                uint32_t v = (uint32_t) (u >> (32 * h)) ;
                int rb = (v >= tb) ? 1 : 0 ;
                int cb = ((v >= ta && v < tb) || v >= tc) ? 1 : 0 ;
                r = 2 * r + (uint64_t) rb ; c = 2 * c + (uint64_t) cb ;
            }
        }
        keys [e] = (r << 32) | c ;
    }
    xp_csr_from_keys (A, keys) ;
    return A ;
}

#endif
