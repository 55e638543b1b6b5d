//------------------------------------------------------------------------------
// bench/floor_bench.cu: the GPU's floors that bound a product's speedup
//------------------------------------------------------------------------------

// What no kernel of ours or cuSPARSE's can go under, measured on the machine
// the other benchmarks run on, so that a speedup target can be checked
// against what the hardware allows (docs/BENCHMARKS.md, "What the hardware
// allows"):
//   launch: an empty kernel (grid 132 or 2112 blocks of 128), timed as the
//     SDDMM and SpMM benchmarks time a product: one call between two events
//     on an idle GPU (median of 21), and 200 calls back to back between two
//     events, divided by 200;
//   chain: the same launch with each thread walking D dependent loads of a
//     1 MB table (L2-resident), D = 1 .. 16: what a kernel's chain of
//     dependent loads adds to the floor;
//   gather: rows of W bytes (W = 128 and 512: an FP32 row of N = 32 and 128
//     columns) read at random row numbers from a table of 16 MB (fits in L2)
//     and of 2 GB (does not), the row numbers themselves read coalesced, as
//     SpMM reads X's rows at S's column indices and SDDMM the rows of A and
//     B; every thread keeps 8 rows in flight; bytes of the rows / time;
//   stream: a 2 GB array read once in order (HBM's read bandwidth).
// The gathers and the stream read are the median of 9 timed launches after
// 2 untimed.  Built by hand (bench/gpu_round.sh step floor):
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 bench/floor_bench.cu -o floor_bench

#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include "bench/bench_cuda.cuh"

__global__ void fb_empty (int *out)
{
    if (out != NULL && threadIdx.x == 1024) out [0] = 1 ;    // never
}

__global__ void fb_chain (const int *__restrict__ nx, int mask, int depth, int *out)
{
    int i = (int) ((blockIdx.x * blockDim.x + threadIdx.x) & (unsigned) mask) ;
    for (int d = 0 ; d < depth ; d++) i = __ldg (nx + i) ;
    if (i == -1) out [0] = i ;          // never: keeps the loads
}

// rows of W bytes (W / 16 float4 pieces, P lanes a row, 32 / P rows per warp
// load), at the row numbers idx [0 .. nidx), U rows per lane in flight
template <int W>
__global__ void __launch_bounds__ (256) fb_gather (const float4 *__restrict__ tab,
    const int32_t *__restrict__ idx, int64_t nidx, float *__restrict__ out)
{
    constexpr int P = W / 16, RPW = 32 / P, U = 8 ;
    const int lane = threadIdx.x & 31, sub = lane / P, piece = lane % P ;
    const int64_t warp = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
    const int64_t nwarps = (int64_t) gridDim.x * blockDim.x / 32 ;
    float acc = 0 ;
    for (int64_t base = warp * RPW * U ; base < nidx ; base += nwarps * RPW * U)
    {
        float4 v [U] ;
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const int64_t q = base + (int64_t) u * RPW + sub ;
            v [u] = (q < nidx) ? __ldg (tab + (int64_t) __ldg (idx + q) * P + piece)
                : make_float4 (0, 0, 0, 0) ;
        }
#pragma unroll
        for (int u = 0 ; u < U ; u++) acc += v [u].x + v [u].y + v [u].z + v [u].w ;
    }
    out [(int64_t) blockIdx.x * blockDim.x + threadIdx.x] = acc ;
}

__global__ void __launch_bounds__ (256) fb_stream (const float4 *__restrict__ a, int64_t n,
    float *__restrict__ out)
{
    float acc = 0 ;
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < n ;
         q += (int64_t) gridDim.x * blockDim.x)
    {
        const float4 v = __ldg (a + q) ;
        acc += v.x + v.y + v.z + v.w ;
    }
    out [(int64_t) blockIdx.x * blockDim.x + threadIdx.x] = acc ;
}

// single: the median of 21 calls, each between two events on an idle GPU;
// back to back: reps calls between two events / reps
template <typename F> static void fb_launch_time (F launch, double *single_us, double *bb_us)
{
    cudaEvent_t a, b ;
    CK (cudaEventCreate (&a)) ; CK (cudaEventCreate (&b)) ;
    for (int w = 0 ; w < 20 ; w++) launch () ;
    CK (cudaDeviceSynchronize ()) ;
    std::vector<float> t ;
    float ms ;
    for (int r = 0 ; r < 21 ; r++)
    {
        CK (cudaEventRecord (a)) ; launch () ; CK (cudaEventRecord (b)) ;
        CK (cudaEventSynchronize (b)) ; CK (cudaEventElapsedTime (&ms, a, b)) ;
        t.push_back (ms) ;
    }
    std::sort (t.begin (), t.end ()) ;
    *single_us = 1e3 * t [10] ;
    const int reps = 200 ;
    CK (cudaEventRecord (a)) ;
    for (int r = 0 ; r < reps ; r++) launch () ;
    CK (cudaEventRecord (b)) ; CK (cudaEventSynchronize (b)) ;
    CK (cudaEventElapsedTime (&ms, a, b)) ;
    *bb_us = 1e3 * ms / reps ;
    CK (cudaGetLastError ()) ;
    cudaEventDestroy (a) ; cudaEventDestroy (b) ;
}

static uint64_t fb_rng (uint64_t *s)
{
    *s ^= *s << 13 ; *s ^= *s >> 7 ; *s ^= *s << 17 ;
    return *s ;
}

int main ()
{
    cudaDeviceProp prop ;
    CK (cudaGetDeviceProperties (&prop, 0)) ;
    printf ("# floor_bench: %s, %d SMs, L2 %.0f MB\n", prop.name, prop.multiProcessorCount,
        prop.l2CacheSize / 1048576.0) ;
    int *out = NULL ;
    CK (cudaMalloc (&out, 4)) ;

    // launch floor and dependent loads
    const int chain_n = 1 << 18 ;      // 1 MB of next indices
    std::vector<int> h (chain_n) ;
    for (int q = 0 ; q < chain_n ; q++) h [q] = (int) (((int64_t) q * 7919 + 12345) % chain_n) ;
    int *nx = NULL ;
    CK (cudaMalloc (&nx, chain_n * 4)) ;
    CK (cudaMemcpy (nx, h.data (), chain_n * 4, cudaMemcpyHostToDevice)) ;
    const int grids [2] = { 132, 2112 } ;
    for (int gi = 0 ; gi < 2 ; gi++)
    {
        const int g = grids [gi] ;
        double s, bb ;
        fb_launch_time ([&] { fb_empty <<<g, 128>>> (NULL) ; }, &s, &bb) ;
        printf ("launch  grid %4d x 128  empty kernel    single %6.2f us  back to back %6.2f us\n", g, s, bb) ;
        for (int depth = 1 ; depth <= 16 ; depth *= 2)
        {
            fb_launch_time ([&] { fb_chain <<<g, 128>>> (nx, chain_n - 1, depth, out) ; }, &s, &bb) ;
            printf ("chain   grid %4d x 128  %2d dependent loads single %6.2f us  back to back %6.2f us\n",
                g, depth, s, bb) ;
        }
    }

    // gathers and the stream read
    const int64_t big = INT64_C (2) << 30, small = INT64_C (16) << 20 ;
    float4 *tab = NULL ;
    float *gout = NULL ;
    CK (cudaMalloc (&tab, big)) ;
    CK (cudaMemset (tab, 0, big)) ;
    const int threads = 256, blocks = prop.multiProcessorCount * 8 ;
    CK (cudaMalloc (&gout, (size_t) blocks * threads * 4)) ;
    const int64_t nidx = INT64_C (1) << 22 ;
    int32_t *idx = NULL ;
    CK (cudaMalloc (&idx, nidx * 4)) ;
    std::vector<int32_t> hi (nidx) ;
    for (int w = 128 ; w <= 512 ; w *= 4)
    {
        for (int t = 0 ; t < 2 ; t++)
        {
            const int64_t tb = t ? big : small, rows = tb / w ;
            uint64_t s = 88172645463325252ull + w + t ;
            for (int64_t q = 0 ; q < nidx ; q++) hi [q] = (int32_t) (fb_rng (&s) % (uint64_t) rows) ;
            CK (cudaMemcpy (idx, hi.data (), nidx * 4, cudaMemcpyHostToDevice)) ;
            const double ms = bench_time_ms ([&] {
                if (w == 128) fb_gather<128> <<<blocks, threads>>> (tab, idx, nidx, gout) ;
                else fb_gather<512> <<<blocks, threads>>> (tab, idx, nidx, gout) ; }, 2, 9) ;
            printf ("gather  rows of %3d B from a %5.0f MB table: %8.3f ms  %6.2f TB/s of rows\n",
                w, tb / 1048576.0, ms, (double) nidx * w / ms / 1e9) ;
        }
    }
    const double ms = bench_time_ms ([&] {
        fb_stream <<<blocks, threads>>> (tab, big / 16, gout) ; }, 2, 9) ;
    printf ("stream  read %5.0f MB in order: %8.3f ms  %6.2f TB/s\n", big / 1048576.0, ms,
        (double) big / ms / 1e9) ;
    cudaFree (tab) ; cudaFree (gout) ; cudaFree (idx) ; cudaFree (nx) ; cudaFree (out) ;
    return 0 ;
}
