//------------------------------------------------------------------------------
// bench/exp_check.cu: the GPU's expf (kernels/vec_ops/vec_exp.cu) against the
// host's, bit for bit
//------------------------------------------------------------------------------

// Runs the path of backend/cuda/form_exp.c by hand (first pass, count down,
// the hard entries' inputs down, the host's expf, answers up, scatter) on 16M
// floats: 8M random in [-90, 90], 4M bit patterns strided through all 2^32
// (NaN, Inf, subnormals, huge and tiny values), 4M consecutive floats from
// 0.5 and from -40; out of place, in place (z == x), and with a first list
// too small for the hard entries (the bitmap's collect pass).  Every result
// is compared with the host's expf by its bits.  Not built by make; on a GPU
// host, from the repository root:
//
//   nvcc -std=c++17 -O3 -fmad=false -gencode=arch=compute_90,code=sm_90 \
//       -I. -Iinclude bench/exp_check.cu kernels/vec_ops/vec_exp.cu \
//       -o exp_check && ./exp_check
//
// Prints "exp_check: N values, M hard, K mismatches" and exits 0 only when
// K is 0.

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/gg_kernels.h"
#include "kernels/vec_ops/vec_exp_cuda.h"

#define CHECK(expr) do { cudaError_t e_ = (expr) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "exp_check: %s: %s (line %d)\n", #expr, \
    cudaGetErrorString (e_), __LINE__) ; exit (2) ; } } while (0)
#define GG(expr) do { int rc_ = (expr) ; if (rc_ != GG_OK) { \
    fprintf (stderr, "exp_check: %s: %d (line %d)\n", #expr, rc_, __LINE__) ; \
    exit (2) ; } } while (0)

static uint32_t bits_of (float f) { uint32_t u ; memcpy (&u, &f, 4) ; return u ; }
static float float_of (uint32_t u) { float f ; memcpy (&f, &u, 4) ; return f ; }

// z (device) = expf (x (device)), n entries, first list of cap entries; the
// number of hard entries returned; *ms: the time of the whole call
static int64_t gpu_exp (int64_t n, float *z, const float *x, int64_t cap,
    cudaStream_t s, float *ms)
{
    cudaEvent_t t0, t1 ;
    CHECK (cudaEventCreate (&t0)) ;
    CHECK (cudaEventCreate (&t1)) ;
    unsigned long long *count ;
    int64_t *hidx ;
    float *hx ;
    uint32_t *mask = NULL ;
    CHECK (cudaMalloc ((void **) &count, sizeof (*count))) ;
    CHECK (cudaMalloc ((void **) &hidx, (size_t) cap * sizeof (int64_t))) ;
    CHECK (cudaMalloc ((void **) &hx, (size_t) cap * sizeof (float))) ;
    if (cap < n) CHECK (cudaMalloc ((void **) &mask, gg_cuda_vec_exp_mask_words (n) * 4)) ;
    CHECK (cudaEventRecord (t0, s)) ;
    GG (gg_cuda_vec_exp_pass1 (n, z, x, count, hidx, hx, cap, mask, s)) ;
    unsigned long long nhard = 0, again = 0 ;
    CHECK (cudaMemcpyAsync (&nhard, count, sizeof (nhard), cudaMemcpyDeviceToHost, s)) ;
    CHECK (cudaStreamSynchronize (s)) ;
    int64_t *hidx2 = hidx ;
    float *hx2 = hx ;
    if (nhard > (unsigned long long) cap)
    {
        CHECK (cudaMalloc ((void **) &hidx2, nhard * sizeof (int64_t))) ;
        CHECK (cudaMalloc ((void **) &hx2, nhard * sizeof (float))) ;
        GG (gg_cuda_vec_exp_collect (n, x, mask, count, hidx2, hx2, (int64_t) nhard, s)) ;
        CHECK (cudaMemcpyAsync (&again, count, sizeof (again), cudaMemcpyDeviceToHost, s)) ;
        CHECK (cudaStreamSynchronize (s)) ;
        if (again != nhard)
        {
            fprintf (stderr, "exp_check: collect found %llu, pass1 %llu\n", again, nhard) ;
            exit (1) ;
        }
    }
    float *hv = (float *) malloc ((nhard > 0 ? nhard : 1) * sizeof (float)) ;
    if (hv == NULL) exit (2) ;
    CHECK (cudaMemcpyAsync (hv, hx2, nhard * sizeof (float), cudaMemcpyDeviceToHost, s)) ;
    CHECK (cudaStreamSynchronize (s)) ;
    for (unsigned long long k = 0 ; k < nhard ; k++) hv [k] = expf (hv [k]) ;
    CHECK (cudaMemcpyAsync (hx2, hv, nhard * sizeof (float), cudaMemcpyHostToDevice, s)) ;
    GG (gg_cuda_vec_exp_scatter ((int64_t) nhard, z, hidx2, hx2, s)) ;
    CHECK (cudaEventRecord (t1, s)) ;
    CHECK (cudaStreamSynchronize (s)) ;
    CHECK (cudaEventElapsedTime (ms, t0, t1)) ;
    free (hv) ;
    if (hidx2 != hidx) { CHECK (cudaFree (hidx2)) ; CHECK (cudaFree (hx2)) ; }
    CHECK (cudaFree (count)) ;
    CHECK (cudaFree (hidx)) ;
    CHECK (cudaFree (hx)) ;
    if (mask != NULL) CHECK (cudaFree (mask)) ;
    CHECK (cudaEventDestroy (t0)) ;
    CHECK (cudaEventDestroy (t1)) ;
    return (int64_t) nhard ;
}

static int64_t compare (const float *x, const float *z, int64_t n, const char *what)
{
    int64_t bad = 0 ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        const float want = expf (x [i]) ;
        if (bits_of (z [i]) != bits_of (want))
        {
            if (bad++ < 10)
            {
                printf ("  %s: expf (%a) = %a, GPU %a\n", what, (double) x [i],
                    (double) want, (double) z [i]) ;
            }
        }
    }
    return bad ;
}

int main (void)
{
    const int64_t n = (int64_t) 1 << 24 ;
    float *x = (float *) malloc (n * sizeof (float)) ;
    float *z = (float *) malloc (n * sizeof (float)) ;
    if (x == NULL || z == NULL) return 2 ;
    uint64_t r = 0x2545f4914f6cdd1dULL ;
    int64_t k = 0 ;
    for ( ; k < n / 2 ; k++)
    {
        r ^= r << 13 ; r ^= r >> 7 ; r ^= r << 17 ;
        x [k] = (float) (-90.0 + 180.0 * ((double) (r >> 11) * 0x1p-53)) ;
    }
    for (int64_t j = 0 ; j < n / 4 ; j++) x [k++] = float_of ((uint32_t) (j * 1024 + 511)) ;
    for (int64_t j = 0 ; j < n / 8 ; j++) x [k++] = float_of (bits_of (0.5f) + (uint32_t) j) ;
    for (int64_t j = 0 ; j < n / 8 ; j++) x [k++] = float_of (bits_of (-40.0f) + (uint32_t) j) ;

    cudaStream_t s ;
    CHECK (cudaStreamCreate (&s)) ;
    float *dx, *dz ;
    CHECK (cudaMalloc ((void **) &dx, n * sizeof (float))) ;
    CHECK (cudaMalloc ((void **) &dz, n * sizeof (float))) ;
    int64_t bad = 0, hard = 0, hard_again ;
    float ms ;

    // out of place, the backend's first list (n/16 + 64 Ki)
    CHECK (cudaMemcpy (dx, x, n * sizeof (float), cudaMemcpyHostToDevice)) ;
    hard = gpu_exp (n, dz, dx, n / 16 + 65536, s, &ms) ;
    CHECK (cudaMemcpy (z, dz, n * sizeof (float), cudaMemcpyDeviceToHost)) ;
    bad += compare (x, z, n, "out of place") ;
    printf ("exp_check: out of place: %lld hard, %.3f ms\n", (long long) hard, ms) ;
    // x unchanged by it
    CHECK (cudaMemcpy (z, dx, n * sizeof (float), cudaMemcpyDeviceToHost)) ;
    if (memcmp (z, x, n * sizeof (float)) != 0) { printf ("  x changed\n") ; bad++ ; }

    // in place
    hard_again = gpu_exp (n, dx, dx, n / 16 + 65536, s, &ms) ;
    CHECK (cudaMemcpy (z, dx, n * sizeof (float), cudaMemcpyDeviceToHost)) ;
    bad += compare (x, z, n, "in place") + (hard_again != hard) ;
    printf ("exp_check: in place: %lld hard, %.3f ms\n", (long long) hard_again, ms) ;

    // in place, first list too small: the bitmap's collect
    CHECK (cudaMemcpy (dx, x, n * sizeof (float), cudaMemcpyHostToDevice)) ;
    hard_again = gpu_exp (n, dx, dx, 1000, s, &ms) ;
    CHECK (cudaMemcpy (z, dx, n * sizeof (float), cudaMemcpyDeviceToHost)) ;
    bad += compare (x, z, n, "in place, collect") + (hard_again != hard) ;
    printf ("exp_check: in place, collect: %lld hard, %.3f ms\n", (long long) hard_again, ms) ;

    // out of place, first list too small
    CHECK (cudaMemcpy (dx, x, n * sizeof (float), cudaMemcpyHostToDevice)) ;
    hard_again = gpu_exp (n, dz, dx, 1000, s, &ms) ;
    CHECK (cudaMemcpy (z, dz, n * sizeof (float), cudaMemcpyDeviceToHost)) ;
    bad += compare (x, z, n, "out of place, collect") + (hard_again != hard) ;

    CHECK (cudaFree (dx)) ;
    CHECK (cudaFree (dz)) ;
    CHECK (cudaStreamDestroy (s)) ;
    printf ("exp_check: %lld values, %lld hard, %lld mismatches\n", (long long) n,
        (long long) hard, (long long) bad) ;
    free (x) ;
    free (z) ;
    return bad == 0 ? 0 : 1 ;
}
