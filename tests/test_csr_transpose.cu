//------------------------------------------------------------------------------
// tests/test_csr_transpose.cu: the device CSR transpose against a host one
//------------------------------------------------------------------------------

// gg_cuda_csr_transpose (both methods, "sort" and "scatter") on fresh random
// CSRs: uniform, with runs of empty rows and columns, one row (m = 1), one
// column (k = 1: a single heavy column), 1 x 1, no entries (also with m = 0
// or k = 0), k at and just past a power of two (the sort's key bits), a
// power-law one (heavy columns and a hub row), one large enough for many
// thousand blocks, and an R-MAT 2^16.  Each with no values, values of 1, 2,
// 4 and 8 bytes, and iso values.  The result (p_t, i_t, x_t) must equal,
// bit for bit, a host transpose done here (count, scan, scatter in row
// order); outputs start as garbage so an unwritten entry shows.  The same
// launch is repeated on the used scratch (must give the same arrays), the
// result is transposed back (must give S again), and gg_cuda_csr_row_stats
// is checked on T's row pointers.  Bad arguments must be refused.
//
// Usage: test_csr_transpose [SEED [quick]]   (SEED 0 or none: a fresh one,
// printed; quick: without the two largest cases, for compute-sanitizer)
// Without a CUDA device: prints "SKIP: no CUDA device" and exits 77.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <ctime>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include "tests/need_device.h"
#include "kernels/csr_transpose/csr_transpose.h"
#include "kernels/csr_transpose/csr_transpose_ref.h"

#include "tests/cuda_check.h"

static uint64_t seed_state ;
static int failures = 0, checks = 0 ;

#define EXPECT(cond, ...)                                                   \
    do {                                                                    \
        checks++ ;                                                          \
        if (!(cond)) {                                                      \
            failures++ ;                                                    \
            printf ("FAIL %s:%d: ", __FILE__, __LINE__) ;                   \
            printf (__VA_ARGS__) ;                                          \
            printf ("\n") ;                                                 \
        }                                                                   \
    } while (0)

//------------------------------------------------------------------------------
// random CSRs
//------------------------------------------------------------------------------

static double unif (void) { return (double) (xp_rng (&seed_state) >> 11) * 0x1.0p-53 ; }

// m x k with about avg entries per row; pow_col > 1 skews the columns toward
// small indices (column = k u^pow_col: heavy columns), empty_runs leaves runs
// of empty rows and columns, hub adds one row holding about a third of k
typedef struct { double avg, pow_col ; bool empty_runs, hub ; } gen_opts ;

static xp_csr random_csr (int64_t m, int64_t k, gen_opts o)
{
    xp_csr A ;
    A.m = m ; A.k = k ;
    std::vector<uint64_t> keys ;
    int64_t hub = (o.hub && m > 0) ? (int64_t) (xp_rng (&seed_state) % (uint64_t) m) : -1 ;
    for (int64_t r = 0 ; r < m && k > 0 ; r++)
    {
        // runs of empty rows: rows in a stretch of 64 out of every 256
        if (o.empty_runs && (r / 64) % 4 == 1) continue ;
        int64_t len = (int64_t) (2.0 * o.avg * unif () + 0.5) ;
        if (r == hub) len = k / 3 + 1 ;
        for (int64_t t = 0 ; t < len ; t++)
        {
            int64_t c = (int64_t) ((double) k * ((o.pow_col > 1) ? pow (unif (), o.pow_col) : unif ())) ;
            if (c >= k) c = k - 1 ;
            // runs of empty columns: fold those of a stretch onto its neighbour
            if (o.empty_runs && (c / 50) % 3 == 2) c -= 50 ;
            if (c < 0) c = 0 ;
            keys.push_back (((uint64_t) r << 32) | (uint64_t) c) ;
        }
    }
    xp_csr_from_keys (A, keys) ;
    return A ;
}

//------------------------------------------------------------------------------
// one transpose on the device, compared
//------------------------------------------------------------------------------

struct dev_csr
{
    int32_t *p = NULL, *i = NULL ;
    void *x = NULL ;
} ;

// Every upload and fill below is queued on the test's stream s, the one the
// launcher runs on: s is non-blocking, so work on the legacy default stream
// (a plain cudaMemcpy / cudaMemset) would not be ordered before the launch
// (such a fill of x_t landing after the launcher's copy of the iso value,
// or of p_t after its memset, showed as intermittent "values differ" and
// "row pointers differ").
static void *dev_copy (const void *h, size_t bytes, cudaStream_t s)
{
    void *d = NULL ;
    CHECK_CUDA (cudaMalloc (&d, bytes > 0 ? bytes : 1)) ;
    if (bytes > 0)
    {
        CHECK_CUDA (cudaMemcpyAsync (d, h, bytes, cudaMemcpyHostToDevice, s)) ;
        CHECK_CUDA (cudaStreamSynchronize (s)) ;     // h is pageable
    }
    return d ;
}

// Device buffers of T's shape, filled with garbage (on s).  values: T keeps
// values (x_t set exactly when x is, as the contract asks, even when it holds
// no bytes: nnz = 0 without iso)
static dev_csr dev_alloc_like (int64_t rows, int64_t nnz, bool values,
    size_t xbytes, cudaStream_t s)
{
    dev_csr D ;
    CHECK_CUDA (cudaMalloc ((void **) &D.p, (size_t) (rows + 1) * 4)) ;
    CHECK_CUDA (cudaMalloc ((void **) &D.i, (size_t) (nnz > 0 ? nnz : 1) * 4)) ;
    CHECK_CUDA (cudaMemsetAsync (D.p, 0xA5, (size_t) (rows + 1) * 4, s)) ;
    CHECK_CUDA (cudaMemsetAsync (D.i, 0xA5, (size_t) (nnz > 0 ? nnz : 1) * 4, s)) ;
    if (values)
    {
        CHECK_CUDA (cudaMalloc (&D.x, xbytes > 0 ? xbytes : 1)) ;
        CHECK_CUDA (cudaMemsetAsync (D.x, 0xA5, xbytes > 0 ? xbytes : 1, s)) ;
    }
    return D ;
}

static void dev_free (dev_csr &D)
{
    cudaFree (D.p) ; cudaFree (D.i) ; cudaFree (D.x) ;
    D.p = D.i = NULL ; D.x = NULL ;
}

template <typename T>
static std::vector<T> download (const void *d, size_t n)
{
    std::vector<T> h (n) ;
    if (n > 0) CHECK_CUDA (cudaMemcpy (h.data (), d, n * sizeof (T), cudaMemcpyDeviceToHost)) ;
    return h ;
}

// Does the device CSR D equal R (shape from R), bit for bit?
static bool same (const dev_csr &D, const xp_csr &R, std::string *why)
{
    std::vector<int32_t> p = download<int32_t> (D.p, (size_t) R.m + 1) ;
    std::vector<int32_t> i = download<int32_t> (D.i, (size_t) R.nnz) ;
    if (p != R.p) { *why = "row pointers differ" ; return false ; }
    if (i != R.i) { *why = "column indices differ" ; return false ; }
    if (!R.x.empty ())
    {
        std::vector<uint8_t> x = download<uint8_t> (D.x, R.x.size ()) ;
        if (x != R.x) { *why = "values differ" ; return false ; }
    }
    return true ;
}

// T = A' on the device by `method`; false (with a message naming `what`) on
// a launcher error
static bool transpose_dev (const char *what, const xp_csr &A, const dev_csr &S,
    dev_csr &T, const char *method, void **scratch, size_t *scratch_bytes,
    cudaStream_t s)
{
    const char *mname = method ? method : "(default)" ;
    const bool has_x = (A.elem > 0) ;
    const int moving = (has_x && !A.iso) ? A.elem : 0 ;
    size_t need = gg_cuda_csr_transpose_scratch_bytes (A.m, A.k, A.nnz, moving, method) ;
    EXPECT (need > 0, "%s %s: scratch query refused m %lld k %lld nnz %lld",
        what, mname, (long long) A.m, (long long) A.k, (long long) A.nnz) ;
    if (need == 0) return false ;
    if (*scratch == NULL || *scratch_bytes != need)
    {
        // exactly the size asked for: an overrun shows under compute-sanitizer;
        // garbage in it, as the contract allows
        cudaFree (*scratch) ;
        CHECK_CUDA (cudaMalloc (scratch, need)) ;
        CHECK_CUDA (cudaMemsetAsync (*scratch, 0xA5, need, s)) ;
        *scratch_bytes = need ;
    }
    int rc = gg_cuda_csr_transpose (A.m, A.k, A.nnz, S.p, S.i, S.x, A.elem,
        A.iso, T.p, T.i, T.x, *scratch, need, method, s) ;
    EXPECT (rc == GG_OK, "%s %s: launcher returned %d (m %lld k %lld nnz %lld)",
        what, mname, rc, (long long) A.m, (long long) A.k, (long long) A.nnz) ;
    CHECK_CUDA (cudaStreamSynchronize (s)) ;
    CHECK_CUDA (cudaGetLastError ()) ;
    return rc == GG_OK ;
}

// Every check on A with values of elem bytes (0: none), iso or not
static void check_case (const char *name, xp_csr A, int elem, bool iso,
    cudaStream_t s)
{
    xp_fill_values (A, elem, iso, &seed_state) ;
    const xp_csr R = xp_transpose_ref (A) ;
    // value bytes: nnz elem, or elem if iso, or none (also nnz = 0 without
    // iso, where x and x_t are still set: 1-byte buffers, never written)
    const size_t xb = A.x.size () ;
    const bool values = (elem > 0) ;
    char what [128] ;
    snprintf (what, sizeof (what), "%s elem %d%s", name, elem, iso ? " iso" : "") ;
    dev_csr S ;
    S.p = (int32_t *) dev_copy (A.p.data (), A.p.size () * 4, s) ;
    S.i = (int32_t *) dev_copy (A.i.data (), A.i.size () * 4, s) ;
    if (values) S.x = dev_copy (A.x.data (), xb, s) ;
    void *scratch = NULL ;
    size_t scratch_bytes = 0 ;
    const char *methods [3] = { "sort", "scatter", NULL } ;
    for (int mi = 0 ; mi < 3 ; mi++)
    {
        const char *meth = methods [mi] ;
        const char *mname = meth ? meth : "(default)" ;
        dev_csr T = dev_alloc_like (A.k, A.nnz, values, xb, s) ;
        std::string why ;

        // T = A', twice on the same (now used) scratch
        bool t_ok = true ;
        for (int rep = 0 ; rep < 2 && t_ok ; rep++)
        {
            t_ok = transpose_dev (what, A, S, T, meth, &scratch, &scratch_bytes, s) ;
            if (!t_ok) break ;
            t_ok = same (T, R, &why) ;
            EXPECT (t_ok, "%s %s run %d: %s", what, mname, rep, why.c_str ()) ;
        }

        // (A')' = A (only from a correct T: a garbage one is no CSR)
        if (mi < 2 && t_ok)
        {
            dev_csr B = dev_alloc_like (A.m, A.nnz, values, xb, s) ;
            xp_csr At = R ;
            if (transpose_dev (what, At, T, B, meth, &scratch, &scratch_bytes, s))
            {
                bool ok = same (B, A, &why) ;
                EXPECT (ok, "%s %s back: %s", what, mname, why.c_str ()) ;
            }
            dev_free (B) ;
        }

        // row statistics of T (A's column counts)
        if (mi == 0 && t_ok)
        {
            int8_t *present ;
            int64_t *stats ;
            CHECK_CUDA (cudaMalloc ((void **) &present, (size_t) (R.m > 0 ? R.m : 1))) ;
            CHECK_CUDA (cudaMalloc ((void **) &stats, 2 * sizeof (int64_t))) ;
            int rc = gg_cuda_csr_row_stats (R.m, T.p, present, stats, s) ;
            EXPECT (rc == GG_OK, "%s row_stats returned %d", what, rc) ;
            CHECK_CUDA (cudaStreamSynchronize (s)) ;
            std::vector<int8_t> hp = download<int8_t> (present, (size_t) R.m) ;
            std::vector<int64_t> hs = download<int64_t> (stats, 2) ;
            int64_t longest = 0, nonempty = 0 ;
            bool pres_ok = true ;
            for (int64_t r = 0 ; r < R.m ; r++)
            {
                int64_t len = R.p [r+1] - R.p [r] ;
                longest = std::max (longest, len) ;
                nonempty += (len > 0) ;
                pres_ok = pres_ok && (hp [r] == (len > 0 ? 1 : 0)) ;
            }
            EXPECT (pres_ok && hs [0] == longest && hs [1] == nonempty,
                "%s row_stats: present %s, max_row %lld (want %lld), nonempty "
                "%lld (want %lld)", what, pres_ok ? "ok" : "wrong",
                (long long) hs [0], (long long) longest, (long long) hs [1],
                (long long) nonempty) ;
            cudaFree (present) ; cudaFree (stats) ;
        }
        dev_free (T) ;
    }
    cudaFree (scratch) ;
    dev_free (S) ;
}

// Arguments the launcher must refuse (nothing launched)
static void check_refusals (cudaStream_t s)
{
    xp_csr A = random_csr (40, 30, { 3.0, 1.0, false, false }) ;
    xp_fill_values (A, 4, false, &seed_state) ;
    dev_csr S, T ;
    S.p = (int32_t *) dev_copy (A.p.data (), A.p.size () * 4, s) ;
    S.i = (int32_t *) dev_copy (A.i.data (), A.i.size () * 4, s) ;
    S.x = dev_copy (A.x.data (), A.x.size (), s) ;
    T = dev_alloc_like (A.k, A.nnz, true, A.x.size (), s) ;
    size_t need = gg_cuda_csr_transpose_scratch_bytes (A.m, A.k, A.nnz, 4, "sort") ;
    void *scratch = NULL ;
    CHECK_CUDA (cudaMalloc (&scratch, need)) ;
    EXPECT (A.nnz > 0, "refusal matrix has entries") ;
    EXPECT (gg_cuda_csr_transpose_scratch_bytes (A.m, A.k, A.nnz, 4, "bogus") == 0,
        "unknown method: query must refuse") ;
    EXPECT (gg_cuda_csr_transpose_scratch_bytes (A.m, A.k, A.nnz, 3, NULL) == 0,
        "elem 3: query must refuse") ;
    EXPECT (gg_cuda_csr_transpose_scratch_bytes (A.m, (int64_t) 1 << 31, A.nnz, 4, NULL) == 0,
        "k = 2^31: query must refuse") ;
    EXPECT (gg_cuda_csr_transpose (A.m, A.k, A.nnz, S.p, S.i, S.x, 4, false,
        T.p, T.i, T.x, scratch, need, "bogus", s) == GG_ERR_UNSUPPORTED,
        "unknown method must be refused") ;
    EXPECT (gg_cuda_csr_transpose (A.m, A.k, A.nnz, S.p, S.i, S.x, 4, false,
        T.p, T.i, T.x, scratch, need - 1, "sort", s) == GG_ERR_UNSUPPORTED,
        "short scratch must be refused") ;
    EXPECT (gg_cuda_csr_transpose (A.m, A.k, A.nnz, S.p, S.i, S.x, 3, false,
        T.p, T.i, T.x, scratch, need, "sort", s) == GG_ERR_UNSUPPORTED,
        "elem 3 must be refused") ;
    EXPECT (gg_cuda_csr_transpose (A.m, A.k, A.nnz, S.p, S.i, S.x, 4, false,
        T.p, T.i, NULL, scratch, need, "sort", s) == GG_ERR_UNSUPPORTED,
        "x without x_t must be refused") ;
    EXPECT (gg_cuda_csr_transpose (A.m, A.k, A.nnz, S.p, S.i, NULL, 4, false,
        T.p, T.i, T.x, scratch, need, "sort", s) == GG_ERR_UNSUPPORTED,
        "x_t without x must be refused") ;
    // no entries: x and x_t still both set or both NULL (nothing is queued
    // on a refusal, so T.p keeps its garbage)
    EXPECT (gg_cuda_csr_transpose (A.m, A.k, 0, S.p, S.i, S.x, 4, false,
        T.p, T.i, NULL, NULL, 0, "sort", s) == GG_ERR_UNSUPPORTED,
        "nnz = 0: x without x_t must be refused") ;
    EXPECT (gg_cuda_csr_row_stats (-1, T.p, NULL, (int64_t *) scratch, s) == GG_ERR_UNSUPPORTED,
        "row_stats n < 0 must be refused") ;
    CHECK_CUDA (cudaStreamSynchronize (s)) ;
    cudaFree (scratch) ;
    dev_free (S) ; dev_free (T) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (int argc, char **argv)
{
    gg_need_device (NULL) ;
    const bool quick = (argc > 2 && strcmp (argv [2], "quick") == 0) ;
    if (argc > 1 && strcmp (argv [1], "0") != 0) seed_state = strtoull (argv [1], NULL, 0) ;
    else seed_state = (uint64_t) time (NULL) * 2654435761ull ;
    printf ("test_csr_transpose: seed %llu\n", (unsigned long long) seed_state) ;
    cudaStream_t s ;
    CHECK_CUDA (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;

    struct { const char *name ; int64_t m, k ; gen_opts o ; } cases [] =
    {
        { "uniform 1000x700",        1000,   700, { 6.0, 1.0, false, false } },
        { "empty runs 3000x2000",    3000,  2000, { 5.0, 1.0, true,  false } },
        { "one row 1x5000",             1,  5000, { 900.0, 1.0, false, false } },
        { "one column 5000x1",       5000,     1, { 0.4, 1.0, false, false } },
        { "1x1",                        1,     1, { 1.0, 1.0, false, false } },
        { "no entries 50x30",          50,    30, { 0.0, 1.0, false, false } },
        { "no rows 0x30",               0,    30, { 0.0, 1.0, false, false } },
        { "no columns 40x0",           40,     0, { 0.0, 1.0, false, false } },
        { "k = 2^12",                 900,  4096, { 8.0, 1.0, false, false } },
        { "k = 2^12 + 1",             900,  4097, { 8.0, 1.0, false, true } },
        { "power law 20000x30000",  20000, 30000, { 10.0, 4.0, false, true } },
        { "large 300000x500000",   300000, 500000, { 10.0, 2.0, true, true } },
    } ;
    const int ncases = (int) (sizeof (cases) / sizeof (cases [0])) ;
    const int elems [5] = { 0, 1, 2, 4, 8 } ;
    for (int c = 0 ; c <= ncases ; c++)
    {
        xp_csr A ;
        std::string name ;
        if (quick && (c == ncases || (c < ncases && cases [c].m >= 100000))) continue ;
        if (c < ncases)
        {
            A = random_csr (cases [c].m, cases [c].k, cases [c].o) ;
            name = cases [c].name ;
        }
        else
        {
            A = xp_rmat (16, &seed_state) ;
            name = "rmat16" ;
        }
        int before = failures ;
        for (int e = 0 ; e < 5 ; e++)
        {
            check_case (name.c_str (), A, elems [e], false, s) ;
            if (elems [e] > 0) check_case (name.c_str (), A, elems [e], true, s) ;
        }
        printf ("%-24s m %7lld k %7lld nnz %8lld: %s\n", name.c_str (),
            (long long) A.m, (long long) A.k, (long long) A.nnz,
            failures == before ? "ok" : "FAILED") ;
    }
    check_refusals (s) ;
    CHECK_CUDA (cudaStreamDestroy (s)) ;
    printf ("test_csr_transpose: %d checks, %d failures\n", checks, failures) ;
    return failures == 0 ? 0 : 1 ;
}
