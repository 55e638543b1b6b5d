//------------------------------------------------------------------------------
// bench/cusparselt_bench_util.cuh: cusparselt_bench's checks, buffers, data and rows
//------------------------------------------------------------------------------

// Included once, by bench/cusparselt_bench.cu (after its includes and
// constants, which this part uses): status checks, device buffers and
// events, the cuSPARSELt objects, random data in each input type, the timing
// median, the sampled error against a double-precision product, and the
// table's rows.  Built with it, by hand, on the GPU host (see there).

#ifndef GG_CUSPARSELT_BENCH_UTIL_CUH
#define GG_CUSPARSELT_BENCH_UTIL_CUH

//------------------------------------------------------------------------------
// status checks: print where and why, then fail the step (a mode, a baseline)
//------------------------------------------------------------------------------

// A failed call prints file:line, the call and its status on stderr, and
// makes the function it is in return `fail`: the mode (or baseline) is then
// reported as skipped in the table and the program goes on.  g_why keeps the
// last status name for that table row.
static char g_why [128] ;

#define GG_NAME(s) case s: return #s

static const char *lt_status_name (cusparseStatus_t s)
{
    switch (s)
    {
        GG_NAME (CUSPARSE_STATUS_SUCCESS) ;
        GG_NAME (CUSPARSE_STATUS_NOT_INITIALIZED) ;
        GG_NAME (CUSPARSE_STATUS_ALLOC_FAILED) ;
        GG_NAME (CUSPARSE_STATUS_INVALID_VALUE) ;
        GG_NAME (CUSPARSE_STATUS_ARCH_MISMATCH) ;
        GG_NAME (CUSPARSE_STATUS_MAPPING_ERROR) ;
        GG_NAME (CUSPARSE_STATUS_EXECUTION_FAILED) ;
        GG_NAME (CUSPARSE_STATUS_INTERNAL_ERROR) ;
        GG_NAME (CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED) ;
        GG_NAME (CUSPARSE_STATUS_ZERO_PIVOT) ;
        GG_NAME (CUSPARSE_STATUS_NOT_SUPPORTED) ;
        GG_NAME (CUSPARSE_STATUS_INSUFFICIENT_RESOURCES) ;
        default: return "unknown cusparseStatus_t" ;
    }
}

// A call's status of type T against OK: where it failed, the call, TEXT
// (status) and the number on stderr; CK_ also keeps NAME (status) in g_why
// and returns fail from the caller.  WARN_ (clean-up and optional steps)
// reports and goes on.
#define CK_STATUS(T, OK, TEXT, NAME, call, fail)                            \
    do {                                                                    \
        T s_ = (call) ;                                                     \
        if (s_ != (OK)) {                                                   \
            fprintf (stderr, "%s:%d: %s: %s (%d)\n", __FILE__, __LINE__,    \
                #call, TEXT (s_), (int) s_) ;                               \
            snprintf (g_why, sizeof (g_why), "%s", NAME (s_)) ;             \
            return fail ;                                                   \
        }                                                                   \
    } while (0)

#define WARN_STATUS(T, OK, TEXT, call)                                      \
    do {                                                                    \
        T s_ = (call) ;                                                     \
        if (s_ != (OK))                                                     \
            fprintf (stderr, "%s:%d: %s: %s (%d)\n", __FILE__, __LINE__,    \
                #call, TEXT (s_), (int) s_) ;                               \
    } while (0)

#define CK_CUDA(call, fail) CK_STATUS (cudaError_t, cudaSuccess,            \
    cudaGetErrorString, cudaGetErrorName, call, fail)
#define CK_BLAS(call, fail) CK_STATUS (cublasStatus_t, CUBLAS_STATUS_SUCCESS, \
    cublasGetStatusName, cublasGetStatusName, call, fail)
#define CK_LT(call, fail) CK_STATUS (cusparseStatus_t, CUSPARSE_STATUS_SUCCESS, \
    lt_status_name, lt_status_name, call, fail)
#define WARN_CUDA(call) WARN_STATUS (cudaError_t, cudaSuccess, cudaGetErrorString, call)
#define WARN_LT(call) WARN_STATUS (cusparseStatus_t, CUSPARSE_STATUS_SUCCESS, lt_status_name, call)

//------------------------------------------------------------------------------
// resources freed on every way out of a mode
//------------------------------------------------------------------------------

// A device buffer freed when it goes out of scope, so that a mode that fails
// half-way leaves nothing allocated behind it.  A size of 0 allocates nothing
// (p stays null, which the libraries take for "no workspace").
struct DevBuf
{
    void *p = nullptr ;
    DevBuf () = default ;
    DevBuf (const DevBuf &) = delete ;
    DevBuf &operator= (const DevBuf &) = delete ;
    ~DevBuf () { release () ; }
    void release ()
    {
        if (p != nullptr) WARN_CUDA (cudaFree (p)) ;
        p = nullptr ;
    }
    cudaError_t alloc (size_t bytes)
    {
        release () ;
        return bytes > 0 ? cudaMalloc (&p, bytes) : cudaSuccess ;
    }
} ;

struct Events
{
    cudaEvent_t a = nullptr, b = nullptr ;
    ~Events ()
    {
        if (a != nullptr) WARN_CUDA (cudaEventDestroy (a)) ;
        if (b != nullptr) WARN_CUDA (cudaEventDestroy (b)) ;
    }
} ;

// The cuSPARSELt objects of one mode.  Matmul descriptors and algorithm
// selections have no destroy function; descriptors and plans do.
struct LtObjs
{
    cusparseLtMatDescriptor_t a, b, c ;
    cusparseLtMatmulDescriptor_t mm ;
    cusparseLtMatmulAlgSelection_t alg ;
    cusparseLtMatmulPlan_t plan ;
    bool has_a = false, has_b = false, has_c = false, has_plan = false ;
    ~LtObjs ()
    {
        if (has_plan) WARN_LT (cusparseLtMatmulPlanDestroy (&plan)) ;
        if (has_c) WARN_LT (cusparseLtMatDescriptorDestroy (&c)) ;
        if (has_b) WARN_LT (cusparseLtMatDescriptorDestroy (&b)) ;
        if (has_a) WARN_LT (cusparseLtMatDescriptorDestroy (&a)) ;
    }
} ;

//------------------------------------------------------------------------------
// data: random values, conversions, host reads of device types
//------------------------------------------------------------------------------

// xorshift64 (13, 7, 17): the same inputs on every run and every host.
struct Rng
{
    uint64_t s ;
    explicit Rng (uint64_t seed)
        : s (seed != 0 ? seed : 0x9E3779B97F4A7C15ull) {}
    uint64_t next ()
    {
        s ^= s << 13 ;
        s ^= s >> 7 ;
        s ^= s << 17 ;
        return s ;
    }
    // uniform in [-1, 1) on a grid of 2^-23: 24 bits, so exact in FP32
    float unif ()
    {
        return (float) ((int64_t) (next () >> 40) - (INT64_C (1) << 23))
            / (float) (1 << 23) ;
    }
    int64_t below (int64_t m) { return (int64_t) (next () % (uint64_t) m) ; }
} ;

static size_t type_size (cudaDataType t)
{
    return (t == CUDA_R_16F || t == CUDA_R_16BF) ? 2 : 4 ;
}

template <typename T> __device__ __forceinline__ T from_float (float v) ;
template <> __device__ __forceinline__ float from_float<float> (float v)
{
    return v ;
}
template <> __device__ __forceinline__ __half from_float<__half> (float v)
{
    return __float2half_rn (v) ;
}
template <> __device__ __forceinline__ __nv_bfloat16
from_float<__nv_bfloat16> (float v)
{
    return __float2bfloat16_rn (v) ;
}

// dst = src (rows x cols, row-major, FP32) in type T, or its transpose
// (cols x rows, row-major) when transpose is set.  Set-up only: the strided
// reads of the transpose do not matter.
template <typename T>
__global__ void convert_kernel (const float *src, T *dst, int64_t rows,
    int64_t cols, bool transpose)
{
    const int64_t total = rows * cols ;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
        i < total ; i += stride)
    {
        const int64_t s = transpose ? (i % rows) * cols + i / rows : i ;
        dst [i] = from_float<T> (src [s]) ;
    }
}

static cudaError_t convert (const float *src, void *dst, cudaDataType t,
    int64_t rows, int64_t cols, bool transpose)
{
    const int threads = 256, blocks = 2048 ;
    switch (t)
    {
        case CUDA_R_16F:
            convert_kernel<__half> <<<blocks, threads>>> (src, (__half *) dst,
                rows, cols, transpose) ;
            break ;
        case CUDA_R_16BF:
            convert_kernel<__nv_bfloat16> <<<blocks, threads>>> (src,
                (__nv_bfloat16 *) dst, rows, cols, transpose) ;
            break ;
        default:
            convert_kernel<float> <<<blocks, threads>>> (src, (float *) dst,
                rows, cols, transpose) ;
            break ;
    }
    return cudaGetLastError () ;
}

// v as the device holds it after the conversion above (both round to
// nearest even), widened to double for the reference.
static double round_to (float v, cudaDataType t)
{
    if (t == CUDA_R_16F) return (double) __half2float (__float2half_rn (v)) ;
    if (t == CUDA_R_16BF)
    {
        return (double) __bfloat162float (__float2bfloat16_rn (v)) ;
    }
    return (double) v ;
}

// Entry i of a host copy of a device array of type t.
static double elem (const unsigned char *p, size_t i, cudaDataType t)
{
    if (t == CUDA_R_16F)
    {
        __half_raw r ;
        memcpy (&r.x, p + 2 * i, 2) ;
        return (double) __half2float (__half (r)) ;
    }
    if (t == CUDA_R_16BF)
    {
        __nv_bfloat16_raw r ;
        memcpy (&r.x, p + 2 * i, 2) ;
        return (double) __bfloat162float (__nv_bfloat16 (r)) ;
    }
    float f ;
    memcpy (&f, p + 4 * i, 4) ;
    return (double) f ;
}

//------------------------------------------------------------------------------
// timing and checking
//------------------------------------------------------------------------------

// Median of REPS calls after WARM untimed ones, each call timed alone with
// events on the default stream (where cuBLAS and cuSPARSELt run here: no
// stream is set on either).  call () returns false on a failed call.
template <typename F>
static bool median_ms (F call, double *ms)
{
    Events ev ;
    CK_CUDA (cudaEventCreate (&ev.a), false) ;
    CK_CUDA (cudaEventCreate (&ev.b), false) ;
    for (int r = 0 ; r < WARM ; r++)
    {
        if (!call ()) return false ;
    }
    std::vector<float> t ;
    for (int r = 0 ; r < REPS ; r++)
    {
        CK_CUDA (cudaEventRecord (ev.a, 0), false) ;
        if (!call ()) return false ;
        CK_CUDA (cudaEventRecord (ev.b, 0), false) ;
        CK_CUDA (cudaEventSynchronize (ev.b), false) ;
        float x ;
        CK_CUDA (cudaEventElapsedTime (&x, ev.a, ev.b), false) ;
        t.push_back (x) ;
    }
    std::sort (t.begin (), t.end ()) ;
    *ms = 0.5 * (t [(REPS - 1) / 2] + t [REPS / 2]) ;
    return true ;
}

// Error of Y (B x n, row-major, type yt, on the device) on NSAMP random
// entries against the FP64 product of X (host FP32, rounded to xt as the
// device got it) and w (kk, j), which reads W as the device got it:
// max |y - ref| / sum |x w|, the scale of a dot product's rounding error.
// A NaN or Inf in Y gives an infinite error.
template <typename WF>
static bool sample_error (const void *dY, cudaDataType yt,
    const std::vector<float> &X, cudaDataType xt, WF w, int64_t B, int64_t k,
    int64_t n, uint64_t seed, double *err)
{
    Rng rng (seed) ;
    const size_t ys = type_size (yt) ;
    double e = 0 ;
    for (int q = 0 ; q < NSAMP ; q++)
    {
        const int64_t r = rng.below (B), c = rng.below (n) ;
        double ref = 0, mag = 0 ;
        for (int64_t kk = 0 ; kk < k ; kk++)
        {
            const double p = round_to (X [r * k + kk], xt) * w (kk, c) ;
            ref += p ;
            mag += fabs (p) ;
        }
        unsigned char yb [4] ;
        CK_CUDA (cudaMemcpy (yb, (const unsigned char *) dY
            + (size_t) (r * n + c) * ys, ys, cudaMemcpyDeviceToHost), false) ;
        const double d = fabs (elem (yb, 0, yt) - ref) ;
        const double rel = mag > 0 ? d / mag : d ;
        e = std::isfinite (rel) ? std::max (e, rel) : INFINITY ;
    }
    *err = e ;
    return true ;
}

//------------------------------------------------------------------------------
// modes and table rows
//------------------------------------------------------------------------------

struct Mode
{
    const char *name ;                  // table label
    const char *prec ;                  // of the dense GEMM compared with
    cudaDataType type ;                 // of X, W and Y
    cusparseComputeType lt_compute ;
    cublasComputeType_t blas_compute ;  // dense GEMM of the same precision
    double tol ;                        // FAIL above this error
    int group ;                         // M of N:M, N = M / 2 (1:2, 2:4)
} ;

struct Shape { int64_t B, k, n ; } ;

static void row_head (const Shape &s, const char *what)
{
    printf ("%5lld x %5lld x %5lld  %-20s", (long long) s.B, (long long) s.k,
        (long long) s.n, what) ;
}

// One timed row.  t_sgemm or t_dense <= 0: that baseline did not run (n/a);
// prec null: a baseline row, no dense column.
static void row_timed (const Shape &s, const char *what, double ms,
    double t_sgemm, const char *prec, double t_dense, double err, double tol,
    const char *note)
{
    const double flops = 2.0 * s.B * s.k * s.n ;
    char sg [32], dn [48] ;
    if (t_sgemm > 0) snprintf (sg, sizeof (sg), "%6.2fx SGEMM", t_sgemm / ms) ;
    else snprintf (sg, sizeof (sg), "   n/a SGEMM") ;
    if (prec == nullptr) dn [0] = '\0' ;
    else if (t_dense > 0)
    {
        snprintf (dn, sizeof (dn), "%6.2fx dense-%s", t_dense / ms, prec) ;
    }
    else snprintf (dn, sizeof (dn), "   n/a dense-%s", prec) ;
    row_head (s, what) ;
    printf ("%9.3f ms  %7.1f TFLOP/s  %s  %-17s  err %.2e%s%s\n", ms,
        flops / ms * 1e-9, sg, dn, err, (err <= tol) ? "" : " FAIL", note) ;
    fflush (stdout) ;
}

static void row_skipped (const Shape &s, const char *what, const char *how)
{
    row_head (s, what) ;
    printf ("%s (%s)\n", how, g_why [0] ? g_why : "?") ;
    fflush (stdout) ;
}

#endif
