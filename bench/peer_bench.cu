//------------------------------------------------------------------------------
// bench/peer_bench.cu: X to a second GPU, peer to peer or from the host
//------------------------------------------------------------------------------

// Issue 18's item 2: a slot on another device needs all of X.  The split path
// (backend/cuda/multi.c) copies it from the main device's copy, peer to peer,
// when the devices reach each other, else uploads it from the host.  This
// measures, for X of 64 MB to 2 GB (R-MAT 2^22 x 128 FP32 is 2.1 GB):
//   host -> GPU 1 (pinned host memory, the best an upload can do),
//   host -> GPU 0 and host -> GPU 1 at once (uploading to each),
//   GPU 0 -> GPU 1 peer to peer (cudaMemcpyPeerAsync, peer access on),
// each the median of 7 timed copies after 2 untimed, wall time around the
// copy and its synchronisation.  Built by hand (bench/gpu_round.sh step
// peer): nvcc -O2 bench/peer_bench.cu -o build/peer_bench.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>

#define CK(call) do { cudaError_t e_ = (call) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString (e_)) ; exit (1) ; } } while (0)

template <typename F> static double median_ms (F copy)
{
    std::vector<double> t ;
    for (int r = 0 ; r < 9 ; r++)
    {
        auto a = std::chrono::steady_clock::now () ;
        copy () ;
        auto b = std::chrono::steady_clock::now () ;
        if (r >= 2) t.push_back (std::chrono::duration<double, std::milli> (b - a).count ()) ;
    }
    std::sort (t.begin (), t.end ()) ;
    return t [t.size () / 2] ;
}

int main ()
{
    int ndev = 0 ;
    if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev < 2)
    {
        printf ("peer_bench: needs two GPUs (%d found)\n", ndev) ;
        return 77 ;
    }
    int can01 = 0 ;
    CK (cudaDeviceCanAccessPeer (&can01, 1, 0)) ;
    printf ("# peer_bench: device 1 can read device 0: %s\n", can01 ? "yes" : "no") ;
    const size_t maxb = (size_t) 2147483648ull ;
    void *h = NULL, *d0 = NULL, *d1 = NULL, *d1b = NULL ;
    CK (cudaMallocHost (&h, maxb)) ;
    memset (h, 1, maxb) ;
    cudaStream_t s0, s1 ;
    CK (cudaSetDevice (0)) ; CK (cudaMalloc (&d0, maxb)) ; CK (cudaStreamCreate (&s0)) ;
    CK (cudaMemset (d0, 0, maxb)) ;
    CK (cudaSetDevice (1)) ; CK (cudaMalloc (&d1, maxb)) ; CK (cudaMalloc (&d1b, maxb)) ;
    CK (cudaStreamCreate (&s1)) ;
    if (can01) CK (cudaDeviceEnablePeerAccess (0, 0)) ;
    printf ("# %10s %14s %14s %14s %10s\n", "bytes", "host->1 ms", "host->0,1 ms", "0->1 peer ms",
        "peer/host") ;
    for (size_t b = (size_t) 64 << 20 ; b <= maxb ; b *= 2)
    {
        double up1 = median_ms ([&] {
            CK (cudaMemcpyAsync (d1, h, b, cudaMemcpyHostToDevice, s1)) ;
            CK (cudaStreamSynchronize (s1)) ; }) ;
        // two uploads at once from the same pinned bytes (as two slots each
        // uploading X would)
        double up01 = median_ms ([&] {
            CK (cudaMemcpyAsync (d0, h, b, cudaMemcpyHostToDevice, s0)) ;
            CK (cudaMemcpyAsync (d1, h, b, cudaMemcpyHostToDevice, s1)) ;
            CK (cudaStreamSynchronize (s0)) ; CK (cudaStreamSynchronize (s1)) ; }) ;
        double peer = median_ms ([&] {
            CK (cudaMemcpyPeerAsync (d1b, 1, d0, 0, b, s1)) ;
            CK (cudaStreamSynchronize (s1)) ; }) ;
        printf ("peer %12zu %14.3f %14.3f %14.3f %10.3f   (%.1f / %.1f / %.1f GB/s)\n", b, up1, up01,
            peer, peer / up1, b / up1 / 1e6, 2.0 * b / up01 / 1e6, b / peer / 1e6) ;
    }
    CK (cudaFreeHost (h)) ;
    CK (cudaFree (d1)) ; CK (cudaFree (d1b)) ;
    CK (cudaSetDevice (0)) ; CK (cudaFree (d0)) ;
    return 0 ;
}
