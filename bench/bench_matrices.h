//------------------------------------------------------------------------------
// bench/bench_matrices.h: host CSR matrices for CUDA tests and benchmarks
//------------------------------------------------------------------------------

// Header-only C++ (for the *.cu tests and benchmarks): a host CSR with FP32
// values, the project's R-MAT generator (a, b, c, d = 0.57, 0.19, 0.19, 0.05;
// 16 edges per row before duplicates are dropped; values in [0.5, 1.5)) and a
// Matrix Market .mtx.gz reader (symmetric files mirrored, pattern files given
// random values), as bench/kernels_bench_util.cu makes them.  The random stream is
// the caller's (bm_rng), so a program decides its own seed.

#ifndef GG_BENCH_MATRICES_H
#define GG_BENCH_MATRICES_H

#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>

// splitmix64
struct bm_rng
{
    uint64_t s ;
    explicit bm_rng (uint64_t seed) : s (seed) { }
    uint64_t next (void)
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull) ;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull ;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull ;
        return z ^ (z >> 31) ;
    }
    double unif (void) { return (double) (next () >> 11) * (1.0 / 9007199254740992.0) ; }
    // a value in [0.5, 1.5) with 16 random bits
    float val (void) { return (float) ((next () >> 40) & 0xffff) / 65536.0f + 0.5f ; }
} ;

struct bm_csr
{
    std::string name ;
    int64_t m = 0, k = 0, nnz = 0, max_row = 0 ;
    std::vector<int32_t> p, i ;
    std::vector<float> x ;
} ;

// (row << 32 | col, value) pairs -> CSR with sorted rows; the first of
// duplicate entries is kept
static inline void bm_build_csr (bm_csr &A, const std::vector<int64_t> &keys,
    const std::vector<float> &vals)
{
    std::vector<int64_t> cnt (A.m + 1, 0) ;
    for (int64_t key : keys) cnt [(key >> 32) + 1]++ ;
    for (int64_t r = 0 ; r < A.m ; r++) cnt [r+1] += cnt [r] ;
    std::vector<std::pair<int32_t, float>> ent (keys.size ()) ;
    std::vector<int64_t> pos (cnt.begin (), cnt.end () - 1) ;
    for (size_t e = 0 ; e < keys.size () ; e++)
        ent [pos [keys [e] >> 32]++] = { (int32_t) (keys [e] & 0xffffffff), vals [e] } ;
    A.p.assign (1, 0) ;
    A.i.clear () ; A.x.clear () ;
    A.max_row = 0 ;
    for (int64_t r = 0 ; r < A.m ; r++)
    {
        auto b = ent.begin () + cnt [r], e = ent.begin () + cnt [r+1] ;
        std::stable_sort (b, e, [] (const std::pair<int32_t, float> &u,
            const std::pair<int32_t, float> &v) { return u.first < v.first ; }) ;
        const int64_t start = (int64_t) A.i.size () ;
        for (auto it = b ; it != e ; ++it)
        {
            if ((int64_t) A.i.size () > start && A.i.back () == it->first) continue ;
            A.i.push_back (it->first) ;
            A.x.push_back (it->second) ;
        }
        A.p.push_back ((int32_t) A.i.size ()) ;
        A.max_row = std::max (A.max_row, (int64_t) A.i.size () - start) ;
    }
    A.nnz = (int64_t) A.i.size () ;
}

// A random m x k matrix of 8-row windows (the tensor-core tests' inputs).
// Per window: a random number (0..8) of its rows, a random subset, may hold
// entries; start (w) is called once such a window has rows; then 2 + (0..vecs)
// "vectors": column col (w, v, nv) on 1..(rows in use) of those rows, chosen at
// random, for the first nv of them, on one row for the last two; each entry's
// value is val ().  The random draws are rng's, in that order.
template <typename Start, typename Col, typename Val>
static inline bm_csr bm_random_windows (bm_rng &rng, const char *name, int64_t m, int64_t k,
    int vecs, Start start, Col col, Val val)
{
    bm_csr A ;
    A.name = name ;
    A.m = m ; A.k = k ;
    std::vector<int64_t> keys ;
    std::vector<float> vals ;
    for (int64_t w = 0 ; w * 8 < m ; w++)
    {
        const int filled = (int) (rng.next () % 9) ;
        std::vector<int> rows ;
        for (int r = 0 ; r < 8 ; r++) if (w * 8 + r < m) rows.push_back (r) ;
        for (size_t q = rows.size () ; q > 1 ; q--) std::swap (rows [q-1], rows [rng.next () % q]) ;
        if ((int) rows.size () > filled) rows.resize (filled) ;
        if (rows.empty ()) continue ;
        start (w) ;
        const int nv = (int) (rng.next () % (vecs + 1)) ;
        for (int v = 0 ; v < nv + 2 ; v++)
        {
            const int64_t c = col (w, v, nv) ;
            const int size = (v < nv) ? 1 + (int) (rng.next () % rows.size ()) : 1 ;
            std::vector<int> rr = rows ;
            for (size_t q = rr.size () ; q > 1 ; q--) std::swap (rr [q-1], rr [rng.next () % q]) ;
            for (int e = 0 ; e < size ; e++)
            {
                keys.push_back (((w * 8 + rr [e]) << 32) | c) ;
                vals.push_back (val ()) ;
            }
        }
    }
    bm_build_csr (A, keys, vals) ;
    return A ;
}

// R-MAT with 2^scale rows and columns
static inline bm_csr bm_rmat (int scale, bm_rng &rng)
{
    bm_csr A ;
    A.name = "rmat" + std::to_string (scale) ;
    A.m = A.k = (int64_t) 1 << scale ;
    const int64_t ne = 16 * A.m ;
    std::vector<int64_t> keys (ne) ;
    std::vector<float> vals (ne) ;
    const uint32_t ta = (uint32_t) (0.57 * 4294967296.0),
        tb = (uint32_t) (0.76 * 4294967296.0), tc = (uint32_t) (0.95 * 4294967296.0) ;
    for (int64_t e = 0 ; e < ne ; e++)
    {
        int64_t r = 0, c = 0 ;
        for (int l = 0 ; l < scale ; l += 2)
        {
            const uint64_t u = rng.next () ;
            for (int h = 0 ; h < 2 && l + h < scale ; h++)
            {
                const uint32_t v = (uint32_t) (u >> (32 * h)) ;
                const int rb = (v >= tb) ? 1 : 0 ;
                const int cb = ((v >= ta && v < tb) || v >= tc) ? 1 : 0 ;
                r = 2 * r + rb ; c = 2 * c + cb ;
            }
        }
        keys [e] = (r << 32) | c ;
        vals [e] = rng.val () ;
    }
    bm_build_csr (A, keys, vals) ;
    return A ;
}

// a Matrix Market coordinate file, gzipped; false if it cannot be read
static inline bool bm_read_mtx_gz (const std::string &path, bm_csr &A, bm_rng &rng)
{
    const std::string cmd = "gzip -dc '" + path + "'" ;
    FILE *f = popen (cmd.c_str (), "r") ;
    if (f == NULL) return false ;
    char line [1024] ;
    bool pattern = false, symmetric = false, header = true ;
    int64_t nr = 0, nc = 0, ne = 0, got = 0 ;
    std::vector<int64_t> keys ;
    std::vector<float> vals ;
    while (fgets (line, sizeof (line), f))
    {
        if (line [0] == '%')
        {
            if (strncmp (line, "%%MatrixMarket", 14) == 0)
            {
                pattern = strstr (line, "pattern") != NULL ;
                symmetric = strstr (line, "symmetric") != NULL ;
            }
            continue ;
        }
        if (header)
        {
            long long a, b, c ;
            if (sscanf (line, "%lld %lld %lld", &a, &b, &c) != 3) { pclose (f) ; return false ; }
            nr = a ; nc = b ; ne = c ;
            header = false ;
            continue ;
        }
        long long r, c ;
        double v = 0 ;
        const int nf = sscanf (line, "%lld %lld %lf", &r, &c, &v) ;
        if (nf < 2) continue ;
        const float fv = (pattern || nf < 3) ? rng.val () : (float) v ;
        keys.push_back (((int64_t) (r - 1) << 32) | (c - 1)) ;
        vals.push_back (fv) ;
        if (symmetric && r != c)
        {
            keys.push_back (((int64_t) (c - 1) << 32) | (r - 1)) ;
            vals.push_back (fv) ;
        }
        got++ ;
    }
    pclose (f) ;
    if (header || got != ne) return false ;
    A.m = nr ; A.k = nc ;
    bm_build_csr (A, keys, vals) ;
    return true ;
}

// the *.mtx.gz files of a folder, sorted (none when it cannot be read)
#include <dirent.h>
static inline std::vector<std::string> bm_mtx_files (const std::string &dir)
{
    std::vector<std::string> files ;
    DIR *d = dir.empty () ? NULL : opendir (dir.c_str ()) ;
    if (d == NULL) return files ;
    while (struct dirent *e = readdir (d))
    {
        const std::string f = e->d_name ;
        if (f.size () > 7 && f.substr (f.size () - 7) == ".mtx.gz") files.push_back (f) ;
    }
    closedir (d) ;
    std::sort (files.begin (), files.end ()) ;
    return files ;
}

// fn (A) for each *.mtx.gz under dir (a test's $GRBGPU_TEST_DATA; NULL or
// empty: none), A named by its file without ".mtx.gz"; a line for a folder
// without any, a file that cannot be read, and one above max_nnz entries
// (skipped)
template <typename F>
static inline void bm_each_real (const char *dir, int64_t max_nnz, bm_rng &rng, F fn)
{
    const std::vector<std::string> files = bm_mtx_files (dir ? dir : "") ;
    if (files.empty ())
        printf ("real-matrix cases skipped: no *.mtx.gz in GRBGPU_TEST_DATA (%s)\n", dir ? dir : "unset") ;
    for (const std::string &fn_name : files)
    {
        bm_csr A ;
        A.name = fn_name.substr (0, fn_name.size () - 7) ;
        if (!bm_read_mtx_gz (std::string (dir) + "/" + fn_name, A, rng))
        {
            printf ("cannot read %s: skipped\n", fn_name.c_str ()) ;
            continue ;
        }
        if (A.nnz > max_nnz)
        {
            printf ("%s: too large for the host reference, skipped\n", fn_name.c_str ()) ;
            continue ;
        }
        fn (A) ;
    }
}

#endif
