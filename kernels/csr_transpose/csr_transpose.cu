//------------------------------------------------------------------------------
// kernels/csr_transpose/csr_transpose.cu: the transpose of a CSR, on the device
//------------------------------------------------------------------------------

// T = S' for S (m x k) in CSR on the device; contract in csr_transpose.h.
//
// Why on the device: GrB_vxm on a matrix held by row pulls from A' (w = A' u),
// and building A' on the host (a threaded count / scan / scatter) took 81-90
// ms on R-MAT 2^20 (16M entries), against 0.32 ms for the warm product.  S is
// uploaded anyway; transposing it where it lands costs a few passes over
// device memory.
//
// The order inside a row of T is fixed: entry (r, c) of S is entry (c, r) of
// T, and T's rows must be sorted by column (= S's row), so every method gives
// the same unique arrays.
//
// "sort": entry q of S (row r, column c) becomes the pair (key c, payload
// (r, x [q])).  An LSD radix sort on the key's ceil(log2 k) bits is stable,
// and S's entries come in ascending r, so within one key the payloads stay in
// ascending r: the sorted payloads are T's (i_t, x_t) in order.  The value
// rides in the payload (8 bytes with the row for values of up to 4 bytes, 12
// for 8) rather than being gathered by a permutation afterwards: a sort pass
// reads and writes the payload sequentially, where a gather costs one 32-byte
// sector per entry.  p_t [c] = the number of sorted keys below c (a binary
// search per column).  Pattern only (or iso): the payload is the row alone
// and the sort writes i_t directly.
//
// "scatter": cnt [c] = entries of column c (atomics), p_t = its exclusive
// scan, then each entry claims the next slot of its column (atomics, so in
// arbitrary order within the column) for its (row, value), and a segmented
// sort by row within each row of T puts them in the unique order (rows are
// distinct within a column, so stability is not needed).
//
// The row of entry q (both methods): each block takes 1024 consecutive
// entries; one thread finds the rows of the block's first and last entries
// by binary search over p, then each thread searches that narrow range (a
// few steps on a power-law matrix, where one block spans ~64 rows), which
// stays balanced whatever the row lengths and skips empty rows for free.

#include <cstring>
#include <cub/cub.cuh>
#include "kernels/csr_transpose/csr_transpose.h"

#define XP_BLOCK   256
#define XP_ITEMS   4
#define XP_TILE    (XP_BLOCK * XP_ITEMS)    // entries per block of the row search
#define XP_ALIGN   256                      // scratch sub-buffers' alignment
#define XP_MAX     ((int64_t) INT32_MAX)    // sizes must stay below 2^31

//------------------------------------------------------------------------------
// payloads of the "sort" method
//------------------------------------------------------------------------------

// The row only (pattern, or iso values)
struct pay_row
{
    uint32_t r ;
} ;

// The row and a value of up to 4 bytes (its bits, zero-extended)
struct pay_row32
{
    uint32_t r, v ;
} ;

// The row and an 8-byte value (as two words: 12 bytes, 4-byte aligned, so
// each sort pass moves 16 bytes per entry with the key, not 20)
struct pay_row64
{
    uint32_t r, lo, hi ;
} ;
static_assert (sizeof (pay_row) == 4 && sizeof (pay_row32) == 8
    && sizeof (pay_row64) == 12, "payloads are packed") ;

// The bits of one value of E bytes, as the unsigned type of that width
template <int E> struct val_bits ;
template <> struct val_bits<1> { typedef uint8_t  t ; } ;
template <> struct val_bits<2> { typedef uint16_t t ; } ;
template <> struct val_bits<4> { typedef uint32_t t ; } ;
template <> struct val_bits<8> { typedef uint64_t t ; } ;

// pack / unpack a payload; E = 0: no value
template <int E> struct payload ;
template <> struct payload<0>
{
    typedef pay_row t ;
    __device__ static t pack (uint32_t r, const void *, int64_t)
    {
        t a ; a.r = r ; return a ;
    }
    __device__ static void unpack (const t &, void *, int64_t) { }
} ;
template <int E> struct payload
{
    static_assert (E == 1 || E == 2 || E == 4, "values of up to 4 bytes") ;
    typedef pay_row32 t ;
    typedef typename val_bits<E>::t vt ;
    __device__ static t pack (uint32_t r, const void *x, int64_t q)
    {
        t a ; a.r = r ; a.v = (uint32_t) ((const vt *) x) [q] ; return a ;
    }
    __device__ static void unpack (const t &a, void *x, int64_t q)
    {
        ((vt *) x) [q] = (vt) a.v ;
    }
} ;
template <> struct payload<8>
{
    typedef pay_row64 t ;
    __device__ static t pack (uint32_t r, const void *x, int64_t q)
    {
        uint64_t v = ((const uint64_t *) x) [q] ;
        t a ; a.r = r ; a.lo = (uint32_t) v ; a.hi = (uint32_t) (v >> 32) ;
        return a ;
    }
    __device__ static void unpack (const t &a, void *x, int64_t q)
    {
        ((uint64_t *) x) [q] = (uint64_t) a.lo | ((uint64_t) a.hi << 32) ;
    }
} ;

//------------------------------------------------------------------------------
// the row of each entry
//------------------------------------------------------------------------------

// The largest r in [lo, hi] with p [r] <= q (given p [lo] <= q): the row
// holding entry q (empty rows share their p with the next row, and the
// largest such r is the one that holds q).
static __device__ __forceinline__ int32_t row_of (const int32_t *__restrict__ p,
    int32_t lo, int32_t hi, int64_t q)
{
    while (lo < hi)
    {
        int32_t mid = lo + (hi - lo + 1) / 2 ;
        if (p [mid] <= q) lo = mid ; else hi = mid - 1 ;
    }
    return lo ;
}

// The rows of this block's first and last entries (thread 0 searches, all
// read them): the tile [q0, q1) of entries.
static __device__ __forceinline__ void tile_rows (const int32_t *__restrict__ p,
    int64_t m, int64_t q0, int64_t q1, int32_t *lo, int32_t *hi)
{
    __shared__ int32_t range [2] ;
    if (threadIdx.x == 0)
    {
        range [0] = row_of (p, 0, (int32_t) (m - 1), q0) ;
        range [1] = row_of (p, range [0], (int32_t) (m - 1), q1 - 1) ;
    }
    __syncthreads () ;
    *lo = range [0] ;
    *hi = range [1] ;
}

//------------------------------------------------------------------------------
// "sort" method kernels
//------------------------------------------------------------------------------

// pay [q] = (row of q, x [q]) for every entry q
template <int E>
static __global__ void __launch_bounds__ (XP_BLOCK) sort_pack_kernel (int64_t m,
    int64_t nnz, const int32_t *__restrict__ p, const void *__restrict__ x,
    typename payload<E>::t *__restrict__ pay)
{
    const int64_t q0 = (int64_t) blockIdx.x * XP_TILE ;
    const int64_t q1 = (q0 + XP_TILE < nnz) ? q0 + XP_TILE : nnz ;
    int32_t lo, hi ;
    tile_rows (p, m, q0, q1, &lo, &hi) ;
    #pragma unroll
    for (int j = 0 ; j < XP_ITEMS ; j++)
    {
        // consecutive threads on consecutive entries (coalesced)
        int64_t q = q0 + j * XP_BLOCK + threadIdx.x ;
        if (q < q1) pay [q] = payload<E>::pack ((uint32_t) row_of (p, lo, hi, q), x, q) ;
    }
}

// (i_t, x_t) from the sorted payloads
template <int E>
static __global__ void __launch_bounds__ (XP_BLOCK) sort_unpack_kernel (int64_t nnz,
    const typename payload<E>::t *__restrict__ pay, int32_t *__restrict__ i_t,
    void *__restrict__ x_t)
{
    for (int64_t t = (int64_t) blockIdx.x * XP_BLOCK + threadIdx.x ; t < nnz ;
        t += (int64_t) gridDim.x * XP_BLOCK)
    {
        typename payload<E>::t a = pay [t] ;
        i_t [t] = (int32_t) a.r ;
        payload<E>::unpack (a, x_t, t) ;
    }
}

// p_t [c] = the number of sorted keys below c, for c in [0, k]
static __global__ void __launch_bounds__ (XP_BLOCK) sort_rowptr_kernel (int64_t k,
    int64_t nnz, const uint32_t *__restrict__ keys, int32_t *__restrict__ p_t)
{
    for (int64_t c = (int64_t) blockIdx.x * XP_BLOCK + threadIdx.x ; c <= k ;
        c += (int64_t) gridDim.x * XP_BLOCK)
    {
        // lower bound of c in keys [0, nnz)
        int64_t lo = 0, hi = nnz ;
        while (lo < hi)
        {
            int64_t mid = lo + (hi - lo) / 2 ;
            if ((int64_t) keys [mid] < c) lo = mid + 1 ; else hi = mid ;
        }
        p_t [c] = (int32_t) lo ;
    }
}

//------------------------------------------------------------------------------
// "scatter" method kernels
//------------------------------------------------------------------------------

// cnt [c] += 1 for every entry of column c (cnt zeroed before)
static __global__ void __launch_bounds__ (XP_BLOCK) scatter_count_kernel (int64_t nnz,
    const int32_t *__restrict__ i, int32_t *__restrict__ cnt)
{
    for (int64_t q = (int64_t) blockIdx.x * XP_BLOCK + threadIdx.x ; q < nnz ;
        q += (int64_t) gridDim.x * XP_BLOCK)
    {
        atomicAdd (&cnt [i [q]], 1) ;
    }
}

// entry q of column c goes to the next free slot of row c of T (pos [c],
// starting at p_t [c]): its row to rows [slot], its value to vals [slot]
template <int E>
static __global__ void __launch_bounds__ (XP_BLOCK) scatter_move_kernel (int64_t m,
    int64_t nnz, const int32_t *__restrict__ p, const int32_t *__restrict__ i,
    const void *__restrict__ x, int32_t *__restrict__ pos,
    int32_t *__restrict__ rows, void *__restrict__ vals)
{
    const int64_t q0 = (int64_t) blockIdx.x * XP_TILE ;
    const int64_t q1 = (q0 + XP_TILE < nnz) ? q0 + XP_TILE : nnz ;
    int32_t lo, hi ;
    tile_rows (p, m, q0, q1, &lo, &hi) ;
    #pragma unroll
    for (int j = 0 ; j < XP_ITEMS ; j++)
    {
        int64_t q = q0 + j * XP_BLOCK + threadIdx.x ;
        if (q >= q1) continue ;
        int32_t slot = atomicAdd (&pos [i [q]], 1) ;
        rows [slot] = row_of (p, lo, hi, q) ;
        if (E > 0)
        {
            typedef typename val_bits<(E > 0 ? E : 1)>::t vt ;
            ((vt *) vals) [slot] = ((const vt *) x) [q] ;
        }
    }
}

//------------------------------------------------------------------------------
// row statistics
//------------------------------------------------------------------------------

// the larger of two (a functor of our own: CUB's and libcu++'s names for it
// changed between CUDA versions)
struct max_of
{
    __device__ unsigned long long operator() (unsigned long long a,
        unsigned long long b) const { return (a > b) ? a : b ; }
} ;

// present [r] = (p [r+1] > p [r]); stats [0] = max over r of p [r+1] - p [r],
// stats [1] = the rows with an entry (stats zeroed before)
static __global__ void __launch_bounds__ (XP_BLOCK) row_stats_kernel (int64_t n,
    const int32_t *__restrict__ p, int8_t *__restrict__ present,
    unsigned long long *__restrict__ stats)
{
    typedef cub::BlockReduce<unsigned long long, XP_BLOCK> reduce ;
    __shared__ typename reduce::TempStorage tmp ;
    unsigned long long longest = 0, nonempty = 0 ;
    for (int64_t r = (int64_t) blockIdx.x * XP_BLOCK + threadIdx.x ; r < n ;
        r += (int64_t) gridDim.x * XP_BLOCK)
    {
        unsigned long long len = (unsigned long long) (p [r+1] - p [r]) ;
        if (present != NULL) present [r] = (int8_t) (len > 0) ;
        longest = (len > longest) ? len : longest ;
        nonempty += (len > 0) ;
    }
    longest = reduce (tmp).Reduce (longest, max_of ()) ;
    __syncthreads () ;
    nonempty = reduce (tmp).Sum (nonempty) ;
    if (threadIdx.x == 0)
    {
        if (longest > 0) atomicMax (&stats [0], longest) ;
        if (nonempty > 0) atomicAdd (&stats [1], nonempty) ;
    }
}

//------------------------------------------------------------------------------
// scratch layout (the query and the launcher compute the same one)
//------------------------------------------------------------------------------

enum xp_method { XP_SORT = 0, XP_SCATTER = 1, XP_UNKNOWN = 2 } ;

static xp_method method_of (const char *method)
{
    if (method == NULL || method [0] == '\0' || strcmp (method, "sort") == 0) return XP_SORT ;
    if (strcmp (method, "scatter") == 0) return XP_SCATTER ;
    return XP_UNKNOWN ;
}

static size_t xp_round (size_t b) { return (b + XP_ALIGN - 1) & ~(size_t) (XP_ALIGN - 1) ; }

// The sub-buffers of the scratch, as offsets (a) and sizes; cub = CUB's part
struct xp_layout
{
    // sort: keys (sorted columns), pin / pout (payloads before and after)
    // scatter: cnt (k+1 counts, then the next free slots), rows, vals
    size_t a_keys, a_pin, a_pout, a_cnt, a_rows, a_vals, a_cub ;
    size_t cub, total ;
} ;

// Bits a column index needs (at least 1: CUB sorts at least one bit)
static int key_bits (int64_t k)
{
    int b = 1 ;
    while (b < 31 && ((int64_t) 1 << b) < k) b++ ;
    return b ;
}

// The CUB calls, each through one function for both the size query (tmp
// NULL: *bytes set, nothing read or launched) and the run, so that both see
// the same template instance and the same arguments.

// (keys_out, pout) = the pairs (keys_in, pin) stably sorted on the bits a
// column index of k columns needs
template <typename P>
static cudaError_t cub_sort (void *tmp, size_t *bytes, const int32_t *keys_in,
    uint32_t *keys_out, const P *pin, P *pout, int64_t nnz, int64_t k,
    cudaStream_t stream)
{
    return cub::DeviceRadixSort::SortPairs (tmp, *bytes,
        (const uint32_t *) keys_in, keys_out, pin, pout, (int) nnz, 0,
        key_bits (k), stream) ;
}

// out = the exclusive scan of the n counts in cnt
static cudaError_t cub_scan (void *tmp, size_t *bytes, const int32_t *cnt,
    int32_t *out, int64_t n, cudaStream_t stream)
{
    return cub::DeviceScan::ExclusiveSum (tmp, *bytes, cnt, out, (int) n, stream) ;
}

// each of the k segments [off [c], off [c+1]) of (rows, vals) sorted by row
// into (rows_out, vals_out); E = 0: rows only.  off NULL (the size query):
// no offsets are read, and off + 1 is not formed from NULL.
template <int E>
static cudaError_t cub_segsort (void *tmp, size_t *bytes, const int32_t *rows,
    int32_t *rows_out, const void *vals, void *vals_out, int64_t nnz,
    int64_t k, const int32_t *off, cudaStream_t stream)
{
    const int32_t *off_end = (off == NULL) ? NULL : off + 1 ;
    if (E == 0)
    {
        return cub::DeviceSegmentedSort::SortKeys (tmp, *bytes, rows, rows_out,
            (int) nnz, (int) k, off, off_end, stream) ;
    }
    typedef typename val_bits<(E > 0 ? E : 1)>::t vt ;
    return cub::DeviceSegmentedSort::SortPairs (tmp, *bytes, rows, rows_out,
        (const vt *) vals, (vt *) vals_out, (int) nnz, (int) k, off, off_end,
        stream) ;
}

// The layout for these sizes; false if the case is refused.
// e: value bytes that move (0, 1, 2, 4, 8).
static bool layout_of (xp_method meth, int64_t k, int64_t nnz, int e,
    xp_layout *L)
{
    memset (L, 0, sizeof (*L)) ;
    if (meth == XP_UNKNOWN || !(e == 0 || e == 1 || e == 2 || e == 4 || e == 8))
    {
        return false ;
    }
    if (nnz == 0) return true ;         // nothing to sort: no scratch
    size_t at = 0, cub_bytes = 0 ;
    cudaError_t err = cudaSuccess ;
    #define XP_TAKE(field, bytes) do { L->field = at ; at += xp_round (bytes) ; } while (0)
    if (meth == XP_SORT)
    {
        size_t pb = (e == 0) ? sizeof (pay_row) : (e <= 4) ? sizeof (pay_row32)
            : sizeof (pay_row64) ;
        XP_TAKE (a_keys, (size_t) nnz * sizeof (uint32_t)) ;
        XP_TAKE (a_pin, (size_t) nnz * pb) ;
        // pattern: the sort writes its rows to i_t directly
        if (e > 0) XP_TAKE (a_pout, (size_t) nnz * pb) ;
        err = (e == 0) ? cub_sort<pay_row> (NULL, &cub_bytes, NULL, NULL,
                NULL, NULL, nnz, k, 0)
            : (e <= 4) ? cub_sort<pay_row32> (NULL, &cub_bytes, NULL, NULL,
                NULL, NULL, nnz, k, 0)
            : cub_sort<pay_row64> (NULL, &cub_bytes, NULL, NULL, NULL, NULL,
                nnz, k, 0) ;
    }
    else
    {
        XP_TAKE (a_cnt, (size_t) (k + 1) * sizeof (int32_t)) ;
        XP_TAKE (a_rows, (size_t) nnz * sizeof (int32_t)) ;
        if (e > 0) XP_TAKE (a_vals, (size_t) nnz * (size_t) e) ;
        #define XP_SEGSORT_BYTES(E) cub_segsort<E> (NULL, &cub_bytes, NULL, \
            NULL, NULL, NULL, nnz, k, NULL, 0)
        switch (e)
        {
            case 0: err = XP_SEGSORT_BYTES (0) ; break ;
            case 1: err = XP_SEGSORT_BYTES (1) ; break ;
            case 2: err = XP_SEGSORT_BYTES (2) ; break ;
            case 4: err = XP_SEGSORT_BYTES (4) ; break ;
            default: err = XP_SEGSORT_BYTES (8) ; break ;
        }
        #undef XP_SEGSORT_BYTES
        // the scan of the counts uses the same space before the sort
        size_t scan_bytes = 0 ;
        if (err == cudaSuccess) err = cub_scan (NULL, &scan_bytes, NULL, NULL, k + 1, 0) ;
        if (scan_bytes > cub_bytes) cub_bytes = scan_bytes ;
    }
    if (err != cudaSuccess) return false ;
    XP_TAKE (a_cub, cub_bytes) ;
    #undef XP_TAKE
    L->cub = cub_bytes ;
    L->total = at ;
    return true ;
}

static bool sizes_ok (int64_t m, int64_t k, int64_t nnz)
{
    return m >= 0 && k >= 0 && nnz >= 0 && m < XP_MAX && k < XP_MAX && nnz < XP_MAX
        && (nnz == 0 || (m > 0 && k > 0)) ;
}

extern "C" size_t gg_cuda_csr_transpose_scratch_bytes (int64_t m, int64_t k,
    int64_t nnz, int elem, const char *method)
{
    xp_layout L ;
    if (!sizes_ok (m, k, nnz) || !layout_of (method_of (method), k, nnz, elem, &L)) return 0 ;
    // a non-empty answer even when nothing is needed, so 0 always means "refused"
    return (L.total > 0) ? L.total : XP_ALIGN ;
}

//------------------------------------------------------------------------------
// the launchers
//------------------------------------------------------------------------------

#define XP_CUDA(call) do { if ((call) != cudaSuccess) return GG_ERR_DEVICE ; } while (0)
#define XP_LAUNCHED() XP_CUDA (cudaGetLastError ())

// Launch failures are read with cudaGetLastError (and CUB reads them with
// cudaPeekAtLastError), which also returns an error left by any earlier
// runtime call of this thread that failed (a cudaMalloc that an eviction
// and a retry then satisfied, say): that error was returned to its caller
// already, so it is cleared before the first launch, not taken for ours.
// A sticky error (the context is lost) comes back from every later call.
static void xp_clear_stale_error (void)
{
    (void) cudaGetLastError () ;
}

// Blocks for a grid-stride loop over n items
static unsigned grid_of (int64_t n)
{
    int64_t b = (n + XP_BLOCK - 1) / XP_BLOCK ;
    if (b > 65536) b = 65536 ;
    return (unsigned) (b > 0 ? b : 1) ;
}

template <int E>
static int transpose_sort (const xp_layout &L, char *scratch, int64_t m,
    int64_t k, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    int32_t *p_t, int32_t *i_t, void *x_t, cudaStream_t stream)
{
    typedef typename payload<E>::t P ;
    uint32_t *keys = (uint32_t *) (scratch + L.a_keys) ;
    P *pin = (P *) (scratch + L.a_pin) ;
    // pattern: the payload is the row, which is i_t
    P *pout = (E == 0) ? (P *) i_t : (P *) (scratch + L.a_pout) ;
    const unsigned tiles = (unsigned) ((nnz + XP_TILE - 1) / XP_TILE) ;

    // pin [q] = (row of q, x [q])
    sort_pack_kernel<E> <<<tiles, XP_BLOCK, 0, stream>>> (m, nnz, p, x, pin) ;
    XP_LAUNCHED () ;

    // (keys, pout) = the pairs (i [q], pin [q]) stably sorted by column
    size_t cub_bytes = L.cub ;
    XP_CUDA (cub_sort<P> (scratch + L.a_cub, &cub_bytes, i, keys, pin, pout,
        nnz, k, stream)) ;

    // p_t [c] = entries in columns below c
    sort_rowptr_kernel <<<grid_of (k + 1), XP_BLOCK, 0, stream>>> (k, nnz, keys, p_t) ;
    XP_LAUNCHED () ;

    // (i_t, x_t) from the payloads
    if (E > 0)
    {
        sort_unpack_kernel<E> <<<grid_of (nnz), XP_BLOCK, 0, stream>>> (nnz,
            pout, i_t, x_t) ;
        XP_LAUNCHED () ;
    }
    return GG_OK ;
}

template <int E>
static int transpose_scatter (const xp_layout &L, char *scratch, int64_t m,
    int64_t k, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    int32_t *p_t, int32_t *i_t, void *x_t, cudaStream_t stream)
{
    int32_t *cnt = (int32_t *) (scratch + L.a_cnt) ;
    int32_t *rows = (int32_t *) (scratch + L.a_rows) ;
    void *vals = (E > 0) ? (void *) (scratch + L.a_vals) : NULL ;
    void *tmp = scratch + L.a_cub ;
    const unsigned tiles = (unsigned) ((nnz + XP_TILE - 1) / XP_TILE) ;

    // cnt [c] = entries of column c (cnt [k] = 0), p_t = its exclusive scan
    XP_CUDA (cudaMemsetAsync (cnt, 0, (size_t) (k + 1) * sizeof (int32_t), stream)) ;
    scatter_count_kernel <<<grid_of (nnz), XP_BLOCK, 0, stream>>> (nnz, i, cnt) ;
    XP_LAUNCHED () ;
    size_t cub_bytes = L.cub ;
    XP_CUDA (cub_scan (tmp, &cub_bytes, cnt, p_t, k + 1, stream)) ;

    // each entry to the next free slot of its column (cnt: the slots now)
    XP_CUDA (cudaMemcpyAsync (cnt, p_t, (size_t) k * sizeof (int32_t),
        cudaMemcpyDeviceToDevice, stream)) ;
    scatter_move_kernel<E> <<<tiles, XP_BLOCK, 0, stream>>> (m, nnz, p, i, x,
        cnt, rows, vals) ;
    XP_LAUNCHED () ;

    // each row of T sorted by column (S's row), values with them
    cub_bytes = L.cub ;
    XP_CUDA (cub_segsort<E> (tmp, &cub_bytes, rows, i_t, vals, x_t, nnz, k,
        p_t, stream)) ;
    return GG_OK ;
}

// One instance per method and value size
template <int E>
static int transpose_e (xp_method meth, const xp_layout &L, char *scratch,
    int64_t m, int64_t k, int64_t nnz, const int32_t *p, const int32_t *i,
    const void *x, int32_t *p_t, int32_t *i_t, void *x_t, cudaStream_t stream)
{
    return (meth == XP_SORT)
        ? transpose_sort<E> (L, scratch, m, k, nnz, p, i, x, p_t, i_t, x_t, stream)
        : transpose_scatter<E> (L, scratch, m, k, nnz, p, i, x, p_t, i_t, x_t, stream) ;
}

extern "C" int gg_cuda_csr_transpose (int64_t m, int64_t k, int64_t nnz,
    const int32_t *p, const int32_t *i, const void *x, int elem, bool iso,
    int32_t *p_t, int32_t *i_t, void *x_t,
    void *scratch, size_t scratch_bytes, const char *method,
    cudaStream_t stream)
{
    //--------------------------------------------------------------------------
    // check inputs
    //--------------------------------------------------------------------------

    const xp_method meth = method_of (method) ;
    if (!sizes_ok (m, k, nnz) || meth == XP_UNKNOWN) return GG_ERR_UNSUPPORTED ;
    // x and x_t both set or both NULL, whatever nnz (nnz = 0 included)
    if ((x == NULL) != (x_t == NULL)) return GG_ERR_UNSUPPORTED ;
    if (p_t == NULL || (nnz > 0 && (p == NULL || i == NULL || i_t == NULL)))
    {
        return GG_ERR_UNSUPPORTED ;
    }
    if (x != NULL && !(elem == 1 || elem == 2 || elem == 4 || elem == 8))
    {
        return GG_ERR_UNSUPPORTED ;
    }
    // value bytes that move with the entries (iso: none)
    const int e = (x == NULL || iso) ? 0 : elem ;
    xp_layout L ;
    if (!layout_of (meth, k, nnz, e, &L)) return GG_ERR_UNSUPPORTED ;
    if (nnz > 0 && (scratch == NULL || scratch_bytes < L.total)) return GG_ERR_UNSUPPORTED ;

    //--------------------------------------------------------------------------
    // iso value, empty matrix
    //--------------------------------------------------------------------------

    xp_clear_stale_error () ;
    if (x != NULL && iso)
    {
        // x_t [0] = x [0]: the one value of every entry, copied once (also
        // when nnz = 0); the sort and the scatter then move rows only (e = 0)
        XP_CUDA (cudaMemcpyAsync (x_t, x, (size_t) elem, cudaMemcpyDeviceToDevice, stream)) ;
    }
    if (nnz == 0)
    {
        // every row of T empty (k+1 >= 1 pointers); p, i, i_t, the scratch
        // and, without iso, x and x_t are not touched, and no kernel is
        // launched (a grid of 0 blocks would be a launch failure)
        XP_CUDA (cudaMemsetAsync (p_t, 0, (size_t) (k + 1) * sizeof (int32_t), stream)) ;
        return GG_OK ;
    }

    //--------------------------------------------------------------------------
    // T = S'
    //--------------------------------------------------------------------------

    char *s = (char *) scratch ;
    switch (e)
    {
        case 0: return transpose_e<0> (meth, L, s, m, k, nnz, p, i, x, p_t, i_t, x_t, stream) ;
        case 1: return transpose_e<1> (meth, L, s, m, k, nnz, p, i, x, p_t, i_t, x_t, stream) ;
        case 2: return transpose_e<2> (meth, L, s, m, k, nnz, p, i, x, p_t, i_t, x_t, stream) ;
        case 4: return transpose_e<4> (meth, L, s, m, k, nnz, p, i, x, p_t, i_t, x_t, stream) ;
        default: return transpose_e<8> (meth, L, s, m, k, nnz, p, i, x, p_t, i_t, x_t, stream) ;
    }
}

extern "C" int gg_cuda_csr_row_stats (int64_t n, const int32_t *p,
    int8_t *present, int64_t *stats, cudaStream_t stream)
{
    if (n < 0 || n >= XP_MAX || stats == NULL || (n > 0 && p == NULL))
    {
        return GG_ERR_UNSUPPORTED ;
    }
    xp_clear_stale_error () ;
    XP_CUDA (cudaMemsetAsync (stats, 0, 2 * sizeof (int64_t), stream)) ;
    if (n == 0) return GG_OK ;
    unsigned blocks = grid_of (n) ;
    if (blocks > 2048) blocks = 2048 ;  // a few rows per thread: fewer atomics
    row_stats_kernel <<<blocks, XP_BLOCK, 0, stream>>> (n, p, present,
        (unsigned long long *) stats) ;
    XP_LAUNCHED () ;
    return GG_OK ;
}
