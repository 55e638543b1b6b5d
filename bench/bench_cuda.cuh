//------------------------------------------------------------------------------
// bench/bench_cuda.cuh: error checks and event timing for the CUDA benchmarks
//------------------------------------------------------------------------------

// Header-only C++ (bench/kernels_bench and bench/tc_bench).  CK / CKS exit
// with the failed call and its error; bench_time_ms is the median of reps
// timed calls (CUDA events) after warmups untimed ones, and then checks that
// no launch failed.

#ifndef GG_BENCH_CUDA_CUH
#define GG_BENCH_CUDA_CUH

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CK(call) do { cudaError_t e_ = (call) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString (e_)) ; exit (1) ; } } while (0)
#define CKS(call) do { cusparseStatus_t s_ = (call) ; if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    fprintf (stderr, "%s:%d %s: %d\n", __FILE__, __LINE__, #call, (int) s_) ; exit (1) ; } } while (0)

template <typename F> static double bench_time_ms (F launch, int warmups, int reps)
{
    cudaEvent_t a, b ;
    CK (cudaEventCreate (&a)) ; CK (cudaEventCreate (&b)) ;
    for (int w = 0 ; w < warmups ; w++) launch () ;
    CK (cudaDeviceSynchronize ()) ;
    std::vector<float> t ;
    for (int r = 0 ; r < reps ; r++)
    {
        CK (cudaEventRecord (a)) ;
        launch () ;
        CK (cudaEventRecord (b)) ;
        CK (cudaEventSynchronize (b)) ;
        float ms ;
        CK (cudaEventElapsedTime (&ms, a, b)) ;
        t.push_back (ms) ;
    }
    CK (cudaGetLastError ()) ;
    cudaEventDestroy (a) ; cudaEventDestroy (b) ;
    std::sort (t.begin (), t.end ()) ;
    return t [t.size () / 2] ;
}

#endif
