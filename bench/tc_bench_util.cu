//------------------------------------------------------------------------------
// bench/tc_bench_util.cu: tc_bench's checks and result rows
//------------------------------------------------------------------------------

#include "bench/tc_bench.cuh"

sample make_sample (const bm_csr &A, const std::vector<float> &X, int64_t n)
{
    sample S ;
    std::vector<int64_t> ne ;
    for (int64_t r = 0 ; r < A.m ; r++) if (A.p [r+1] > A.p [r]) ne.push_back (r) ;
    for (int q = 0 ; q < 2000 && !ne.empty () ; q++) S.rows.push_back (ne [rng.next () % ne.size ()]) ;
    for (int64_t r = 0 ; r < A.m ; r++) if (A.p [r+1] - A.p [r] == A.max_row && A.max_row > 0) { S.rows.push_back (r) ; break ; }
    S.acc.assign (S.rows.size () * n, 0) ;
    S.scale.assign (S.rows.size () * n, 0) ;
    for (size_t q = 0 ; q < S.rows.size () ; q++)
    {
        const int64_t r = S.rows [q] ;
        for (int32_t e = A.p [r] ; e < A.p [r+1] ; e++)
            for (int64_t j = 0 ; j < n ; j++)
            {
                const double t = (double) A.x [e] * X [(int64_t) A.i [e] * n + j] ;
                S.acc [q * n + j] += t ;
                S.scale [q * n + j] += fabs (t) ;
            }
    }
    return S ;
}


err64 sample_error (const sample &S, int64_t n, const std::vector<float> &y)
{
    std::vector<double> all ;
    for (size_t q = 0 ; q < S.rows.size () ; q++)
        for (int64_t j = 0 ; j < n ; j++)
        {
            const double v = y [q * n + j] ;
            const double d = std::isfinite (v) ? fabs (v - S.acc [q * n + j]) /
                (S.scale [q * n + j] > 0 ? S.scale [q * n + j] : 1) : INFINITY ;
            all.push_back (d) ;
        }
    err64 e ;
    if (all.empty ()) return e ;
    std::sort (all.begin (), all.end ()) ;
    e.max = all.back () ;
    e.med = all [all.size () / 2] ;
    return e ;
}

// max |y - ref| / max |ref| over the rows with entries, on the device (a
// non-finite y counts as an infinite error); out [0] = the numerator's
// bits, out [1] the denominator's (non-negative floats order as integers)
__global__ void rel_error_kernel (const int32_t *p, int64_t m, int64_t n, const float *y,
    const float *ref, unsigned *out)
{
    float num = 0, den = 0 ;
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < m * n ;
         q += (int64_t) gridDim.x * blockDim.x)
    {
        const int64_t r = q / n ;
        if (p [r+1] == p [r]) continue ;
        const float a = y [q], b = ref [q] ;
        num = fmaxf (num, isfinite (a) ? fabsf (a - b) : INFINITY) ;
        den = fmaxf (den, fabsf (b)) ;
    }
    for (int o = 16 ; o > 0 ; o >>= 1)
    {
        num = fmaxf (num, __shfl_xor_sync (0xffffffffu, num, o)) ;
        den = fmaxf (den, __shfl_xor_sync (0xffffffffu, den, o)) ;
    }
    if ((threadIdx.x & 31) == 0)
    {
        atomicMax (out, __float_as_uint (num)) ;
        atomicMax (out + 1, __float_as_uint (den)) ;
    }
}

double rel_error (const int32_t *dp, int64_t m, int64_t n, const float *dY,
    const float *dRef, unsigned *dOut)
{
    unsigned h [2] ;
    CK (cudaMemset (dOut, 0, 8)) ;
    rel_error_kernel <<<1024, 256>>> (dp, m, n, dY, dRef, dOut) ;
    CK (cudaGetLastError ()) ;
    CK (cudaMemcpy (h, dOut, 8, cudaMemcpyDeviceToHost)) ;
    float num, den ;
    memcpy (&num, &h [0], 4) ; memcpy (&den, &h [1], 4) ;
    return den > 0 ? (double) num / den : (double) num ;
}

//------------------------------------------------------------------------------
// results
//------------------------------------------------------------------------------

std::vector<result> results ;
std::vector<build_row> builds ;

void report (const bm_csr &A, int64_t n, const std::string &mode,
    const std::string &variant, int T, int seg, double ms, double base, double rel,
    err64 e, double share, bool checked, bool ok)
{
    const double gflops = 2.0 * (double) A.nnz * n / (ms * 1e6) ;
    const double bytes = (A.m + 1) * 4.0 + A.nnz * 8.0 + A.k * n * 4.0 + A.m * n * 4.0 ;
    printf ("%-14s %4lld %-8s %-9s T=%d s=%-2d %9.4f ms %8.1f GF/s %7.1f GB/s %6.2fx rel %.2e e64 %.2e/%.2e %s\n",
        A.name.c_str (), (long long) n, mode.c_str (), variant.c_str (), T, seg, ms, gflops,
        bytes / (ms * 1e6), base > 0 ? base / ms : 0, rel, e.max, e.med,
        checked ? (ok ? "ok" : "WRONG") : "-") ;
    fflush (stdout) ;
    if (csv)
        fprintf (csv, "%s,%lld,%lld,%lld,%lld,%s,%s,%d,%d,%.5f,%.2f,%.3f,%.3e,%.3e,%.3e,%.4f,%s\n",
            A.name.c_str (), (long long) A.m, (long long) A.k, (long long) A.nnz, (long long) n,
            mode.c_str (), variant.c_str (), T, seg, ms, gflops, base > 0 ? base / ms : 0, rel,
            e.max, e.med, share, checked ? (ok ? "ok" : "WRONG") : "-") ;
    if (checked)
    {
        results.push_back ({ A.name, mode, variant, n, T, seg, ms, base, rel, e.max, e.med, share, ok }) ;
        if (!ok) wrong++ ;
    }
}

