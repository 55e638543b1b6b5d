//------------------------------------------------------------------------------
// bench/kernels_bench_util.cu: kernels_bench's matrices and checks
//------------------------------------------------------------------------------

#include "bench/kernels_bench.cuh"

//------------------------------------------------------------------------------
// matrices
//------------------------------------------------------------------------------

// (row, col, val) triplets -> CSR, sorted rows, duplicates dropped
static void build_csr (csr &A, std::vector<int64_t> &keys, std::vector<float> &vals)
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
        std::sort (b, e, [] (const std::pair<int32_t, float> &u,
            const std::pair<int32_t, float> &v) { return u.first < v.first ; }) ;
        int64_t start = (int64_t) A.i.size () ;
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

csr rmat (int scale)
{
    csr A ;
    A.name = "rmat" + std::to_string (scale) ;
    A.m = A.k = (int64_t) 1 << scale ;
    int64_t ne = 16 * A.m ;
    std::vector<int64_t> keys (ne) ;
    std::vector<float> vals (ne) ;
    const uint32_t ta = (uint32_t) (0.57 * 4294967296.0),
        tb = (uint32_t) (0.76 * 4294967296.0), tc = (uint32_t) (0.95 * 4294967296.0) ;
    for (int64_t e = 0 ; e < ne ; e++)
    {
        int64_t r = 0, c = 0 ;
        for (int l = 0 ; l < scale ; l += 2)
        {
            uint64_t u = rng () ;
            for (int h = 0 ; h < 2 && l + h < scale ; h++)
            {
                uint32_t v = (uint32_t) (u >> (32 * h)) ;
                int rb = (v >= tb) ? 1 : 0 ;
                int cb = (v >= ta && v < tb) || (v >= tc) ? 1 : 0 ;
                r = 2 * r + rb ; c = 2 * c + cb ;
            }
        }
        keys [e] = (r << 32) | c ;
        vals [e] = rnd_val () ;
    }
    build_csr (A, keys, vals) ;
    return A ;
}

// A with its columns renumbered by descending number of entries (ties by
// index) and each row re-sorted: the hot entries of x then share sectors
// (--dsort: what a degree-ordered column renumbering would give SpMV).
csr degree_sorted (const csr &A)
{
    std::vector<int64_t> deg (A.k, 0) ;
    for (int32_t c : A.i) deg [c]++ ;
    std::vector<int32_t> order (A.k) ;
    for (int64_t c = 0 ; c < A.k ; c++) order [c] = (int32_t) c ;
    std::stable_sort (order.begin (), order.end (),
        [&] (int32_t a, int32_t b) { return deg [a] > deg [b] ; }) ;
    std::vector<int32_t> inv (A.k) ;
    for (int64_t q = 0 ; q < A.k ; q++) inv [order [q]] = (int32_t) q ;
    csr B = A ;
    B.name = A.name + "_dsort" ;
    std::vector<std::pair<int32_t, float>> row ;
    for (int64_t r = 0 ; r < A.m ; r++)
    {
        row.clear () ;
        for (int32_t e = A.p [r] ; e < A.p [r+1] ; e++) row.push_back ({ inv [A.i [e]], A.x [e] }) ;
        std::sort (row.begin (), row.end ()) ;
        for (size_t q = 0 ; q < row.size () ; q++)
        {
            B.i [A.p [r] + q] = row [q].first ;
            B.x [A.p [r] + q] = row [q].second ;
        }
    }
    return B ;
}

bool read_mtx_gz (const std::string &path, csr &A)
{
    std::string cmd = "gzip -dc '" + path + "'" ;
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
            if (sscanf (line, "%lld %lld %lld", (long long *) &nr, (long long *) &nc,
                (long long *) &ne) != 3) { pclose (f) ; return false ; }
            header = false ;
            continue ;
        }
        long long r, c ; double v = 0 ;
        int nf = sscanf (line, "%lld %lld %lf", &r, &c, &v) ;
        if (nf < 2) continue ;
        float fv = (pattern || nf < 3) ? rnd_val () : (float) v ;
        keys.push_back (((r - 1) << 32) | (c - 1)) ; vals.push_back (fv) ;
        if (symmetric && r != c) { keys.push_back (((c - 1) << 32) | (r - 1)) ; vals.push_back (fv) ; }
        got++ ;
    }
    pclose (f) ;
    if (header || got != ne) return false ;
    A.m = nr ; A.k = nc ;
    build_csr (A, keys, vals) ;
    return true ;
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

// y vs reference on all rows: |y - ref| <= 1e-4 * sum_e |s_e| * max |X| per
// entry (an upper bound of sum |terms|: real matrices have mixed signs, and
// their sums cancel)
bool close_all (const std::vector<float> &y, const std::vector<float> &ref,
    const csr &A, const std::vector<float> &X, int64_t n)
{
    float xmax = 0 ;
    for (float v : X) xmax = std::max (xmax, fabsf (v)) ;
    for (int64_t r = 0 ; r < A.m ; r++)
    {
        if (A.p [r] == A.p [r+1]) continue ;
        double scale = 0 ;
        for (int64_t e = A.p [r] ; e < A.p [r+1] ; e++) scale += fabs (A.x [e]) ;
        scale *= xmax ;
        for (int64_t j = 0 ; j < n ; j++)
        {
            double a = y [r * n + j], b = ref [r * n + j] ;
            if (!(fabs (a - b) <= 1e-4 * scale + 1e-6)) return false ;
        }
    }
    return true ;
}

const char *sr_name [SR_N] = { "PLUS_TIMES", "MIN_PLUS", "PLUS_SECOND", "MIN_SECOND" } ;
const gg_semiring sr_def [SR_N] =
{
    { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 }, { GG_ADD_MIN, GG_MUL_PLUS, GG_FP32 },
    { GG_ADD_PLUS, GG_MUL_SECOND, GG_FP32 }, { GG_ADD_MIN, GG_MUL_SECOND, GG_FP32 },
} ;

// CPU reference on sampled rows (and the longest row)
bool check_sample (int sr, const csr &A, const std::vector<float> &X,
    int64_t n, const std::vector<float> &y, const std::vector<int64_t> &rows)
{
    for (int64_t r : rows)
    {
        if (A.p [r] == A.p [r+1]) continue ;
        for (int64_t j = 0 ; j < n ; j++)
        {
            double acc = 0, scale = 0 ;
            bool first = true ;
            for (int64_t e = A.p [r] ; e < A.p [r+1] ; e++)
            {
                float s = A.x [e], x = X [(int64_t) A.i [e] * n + j] ;
                float z = (sr == SR_PLUS_TIMES) ? s * x : (sr == SR_MIN_PLUS) ? s + x : x ;
                bool plus = (sr == SR_PLUS_TIMES || sr == SR_PLUS_SECOND) ;
                if (first) acc = z ; else acc = plus ? acc + z : fmin (acc, (double) z) ;
                scale += fabs (z) ;
                first = false ;
            }
            double got = y [r * n + j] ;
            bool plus = (sr == SR_PLUS_TIMES || sr == SR_PLUS_SECOND) ;
            bool ok = plus ? fabs (got - acc) <= 1e-4 * scale + 1e-6 : got == (double) (float) acc ;
            if (!ok) return false ;
        }
    }
    return true ;
}

