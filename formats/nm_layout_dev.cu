//------------------------------------------------------------------------------
// formats/nm_layout_dev.cu: the N:M SpMM layout made on the device from a CSR
//------------------------------------------------------------------------------

// See formats/nm_layout_dev.h.  The host path (formats/nm_pack.c, then
// formats/nm_layout.c) packs S row by row and lays the packed form out; here
// the same layout comes from S's device CSR in five launches and one wait:
//  1. values -0 and indices "absent" (ks) everywhere;
//  2. one thread per entry: its row (a binary search of p), its group and
//     offset, its slot (the rank of its offset among the row's offsets in
//     that group, padded to N with the lowest unused ones, as the host's
//     packer numbers them), then its value and its position into a
//     per-column index array (the non-shared layout's);
//  3. one thread per slot and 32 columns: whether every tn columns agree on
//     the slot (the shared layout) and whether the 32 agree where they have
//     it (op.tc32), as two flags, read back;
//  4. the indices, shared (one per tn columns) or per column, into buf;
//  5. where packed (shared, ks = 64: col_info), one thread per tile of bn
//     columns and stage: the positions its slots use, ascending, and each
//     index replaced by its rank among them.

#include "formats/nm_layout_dev.h"
#include "kernels/gg_kernels.h"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

inline int64_t cdiv (int64_t a, int64_t b) { return (a + b - 1) / b ; }

template <typename T>
__global__ void fill_kernel (T *v, int64_t n, T value)
{
    const int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (q < n) v [q] = value ;
}

template <typename T>
__global__ void scatter_kernel (int64_t rows, int64_t nnz, const int32_t *__restrict__ p,
    const int32_t *__restrict__ ci, const T *__restrict__ x, int n, int m, int gs,
    int64_t n_pad, T *__restrict__ val, uint8_t *__restrict__ idxc)
{
    const int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (q >= nnz) return ;
    // the row of entry q: the last r with p [r] <= q
    int64_t lo = 0, hi = rows - 1 ;
    while (lo < hi)
    {
        const int64_t mid = (lo + hi + 1) / 2 ;
        if (p [mid] <= q) lo = mid ; else hi = mid - 1 ;
    }
    const int64_t r = lo ;
    const int32_t col = ci [q] ;
    const int grp = col / m, off = col % m ;
    // the group's positions in this row (at most n entries), padded with the
    // lowest unused ones to n (formats/nm_pack.c's group_slots); the entry's
    // slot is the rank of its position among them
    uint32_t used = 1u << off ;
    for (int64_t j = q - 1 ; j >= p [r] && ci [j] / m == grp ; j--) used |= 1u << (ci [j] % m) ;
    for (int64_t j = q + 1 ; j < p [r + 1] && ci [j] / m == grp ; j++) used |= 1u << (ci [j] % m) ;
    for (int have = __popc (used) ; have < n ; have++) used |= ~used & (used + 1) ;
    const int s = __popc (used & ((1u << off) - 1)) ;
    const int64_t u = (int64_t) grp * n + s ;
    val [u * n_pad + r] = x [q] ;
    idxc [u * n_pad + r] = (uint8_t) ((grp % gs) * m + off) ;
}

// flags [0]: some tn columns disagree on a slot; flags [1]: some 32 columns
// use two positions for one slot
__global__ void check_kernel (const uint8_t *__restrict__ idxc, int64_t U,
    int64_t n_pad, int64_t rows, int tn, int zero_col, int *flags)
{
    const int64_t tiles = n_pad / 32 ;
    const int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (q >= U * tiles) return ;
    const int64_t u = q / tiles, c0 = (q % tiles) * 32 ;
    const uint8_t *row = idxc + u * n_pad + c0 ;
    bool differ = false, tc_differ = false ;
    for (int a = 0 ; a < 32 ; a += tn)
    {
        for (int e = a + 1 ; e < a + tn && c0 + e < rows ; e++)
            differ |= (row [e] != row [a]) ;
    }
    int pos = zero_col ;
    for (int e = 0 ; e < 32 ; e++)
    {
        const int v = row [e] ;
        if (v == zero_col) continue ;
        tc_differ |= (pos != zero_col && v != pos) ;
        pos = v ;
    }
    if (differ) atomicOr (&flags [0], 1) ;
    if (tc_differ) atomicOr (&flags [1], 1) ;
}

__global__ void share_kernel (const uint8_t *__restrict__ idxc, uint8_t *__restrict__ idx,
    int64_t U, int64_t n_pad, int tn)
{
    const int64_t ldd = n_pad / tn ;
    const int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (q >= U * ldd) return ;
    const int64_t u = q / ldd, t = q % ldd ;
    idx [q] = idxc [u * n_pad + t * tn] ;
}

__global__ void pack_kernel (uint8_t *__restrict__ idx, uint8_t *__restrict__ cols,
    int64_t tiles, int64_t stages, int ws, int ks, int64_t ldd, int per_tile)
{
    const int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (q >= tiles * stages) return ;
    const int64_t t = q / stages, st = q % stages ;
    uint64_t used = 0 ;
    for (int64_t u = st * ws ; u < (st + 1) * ws ; u++)
    {
        const uint8_t *row = idx + u * ldd + t * per_tile ;
        for (int e = 0 ; e < per_tile ; e++)
            if (row [e] < ks) used |= 1ull << row [e] ;
    }
    uint8_t *c = cols + (t * stages + st) * ks ;
    int r = 0 ;
    for (uint64_t bits = used ; bits != 0 ; bits &= bits - 1) c [r++] = (uint8_t) __ffsll ((long long) bits) - 1 ;
    for ( ; r < ks ; r++) c [r] = 0xff ;
    for (int64_t u = st * ws ; u < (st + 1) * ws ; u++)
    {
        uint8_t *row = idx + u * ldd + t * per_tile ;
        for (int e = 0 ; e < per_tile ; e++)
            if (row [e] < ks) row [e] = (uint8_t) __popcll (used & ((1ull << row [e]) - 1)) ;
    }
}

struct dims
{
    gg_nm_spmm_geom g ;
    int64_t stages, U, n_pad, tiles ;
} ;

bool dims_of (dims *d, int64_t rows, int64_t k, size_t esz, int n, int m)
{
    if (rows < 0 || k < 1 || !gg_nm_spmm_geometry (&d->g, esz, n, m)) return false ;
    d->stages = cdiv (cdiv (k, m), d->g.gs) ;
    d->U = d->stages * d->g.ws ;
    d->n_pad = cdiv (rows, d->g.bn) * d->g.bn ;
    d->tiles = d->n_pad / d->g.bn ;
    return k < INT32_MAX && d->U < INT32_MAX ;
}

const int NT = 256 ;
inline unsigned blocks (int64_t n) { return (unsigned) cdiv (n > 0 ? n : 1, NT) ; }

} // namespace

extern "C" int gg_nm_layout_dev_size (int64_t rows, int64_t k, size_t esz, int n,
    int m, size_t *buf_bytes, size_t *scratch_bytes)
{
    dims d ;
    if (!dims_of (&d, rows, k, esz, n, m)) return GG_ERR_UNSUPPORTED ;
    const size_t cells = (size_t) (d.U * d.n_pad) ;
    *buf_bytes = cells * esz + cells + (size_t) (d.tiles * d.stages * d.g.ks) ;
    *scratch_bytes = (cells + 15) / 16 * 16 + 16 ;
    return GG_OK ;
}

extern "C" int gg_nm_layout_dev_build (gg_nm_spmm_op *op, size_t *bytes, void *buf,
    void *scratch, int64_t rows, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, size_t esz, int n, int m, bool pack_x,
    cudaStream_t stream)
{
    dims d ;
    if (x == NULL || !dims_of (&d, rows, k, esz, n, m)) return GG_ERR_UNSUPPORTED ;
    const gg_nm_spmm_geom &g = d.g ;
    const int64_t cells = d.U * d.n_pad ;
    const int zero_col = g.ks ;
    uint8_t *idxc = (uint8_t *) scratch ;
    int *dflags = (int *) ((char *) scratch + (cells + 15) / 16 * 16) ;
    uint8_t *idx = (uint8_t *) buf + (size_t) cells * esz ;

    // 1, 2: values and per-column positions
    if (esz == 4) fill_kernel<float> <<<blocks (cells), NT, 0, stream>>> ((float *) buf, cells, -0.0f) ;
    else fill_kernel<double> <<<blocks (cells), NT, 0, stream>>> ((double *) buf, cells, -0.0) ;
    if (cudaMemsetAsync (idxc, zero_col, (size_t) cells, stream) != cudaSuccess
        || cudaMemsetAsync (dflags, 0, 2 * sizeof (int), stream) != cudaSuccess)
        return GG_ERR_DEVICE ;
    if (nnz > 0 && rows > 0)
    {
        if (esz == 4)
            scatter_kernel<float> <<<blocks (nnz), NT, 0, stream>>> (rows, nnz, p, i,
                (const float *) x, n, m, g.gs, d.n_pad, (float *) buf, idxc) ;
        else
            scatter_kernel<double> <<<blocks (nnz), NT, 0, stream>>> (rows, nnz, p, i,
                (const double *) x, n, m, g.gs, d.n_pad, (double *) buf, idxc) ;
    }
    // 3: the two flags
    check_kernel<<<blocks (d.U * (d.n_pad / 32)), NT, 0, stream>>> (idxc, d.U, d.n_pad,
        rows, g.tn, zero_col, dflags) ;
    int flags [2] = { 0, 0 } ;
    if (cudaGetLastError () != cudaSuccess
        || cudaMemcpyAsync (flags, dflags, sizeof (flags), cudaMemcpyDeviceToHost, stream) != cudaSuccess
        || cudaStreamSynchronize (stream) != cudaSuccess)
        return GG_ERR_DEVICE ;
    const bool shared = (flags [0] == 0) ;
    const bool packed = pack_x && shared && g.ks == 64 ;
    const int ib = shared ? g.tn : 1 ;
    const int64_t ldd = d.n_pad / ib ;
    // 4, 5: the indices, then col_info
    if (shared)
        share_kernel<<<blocks (d.U * ldd), NT, 0, stream>>> (idxc, idx, d.U, d.n_pad, g.tn) ;
    else if (cudaMemcpyAsync (idx, idxc, (size_t) cells, cudaMemcpyDeviceToDevice, stream) != cudaSuccess)
        return GG_ERR_DEVICE ;
    uint8_t *cols = idx + d.U * ldd ;
    if (packed)
        pack_kernel<<<blocks (d.tiles * d.stages), NT, 0, stream>>> (idx, cols, d.tiles,
            d.stages, g.ws, g.ks, ldd, g.bn / ib) ;
    if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;

    op->geom = g ;
    op->esz = esz ;
    op->ncols = rows ;
    op->k = k ;
    op->n_pad = d.n_pad ;
    op->stages = d.stages ;
    op->shared = shared ;
    op->packed = packed ;
    op->tc32 = (esz == 4) && flags [1] == 0 ;
    op->val = buf ;
    op->idx = idx ;
    op->cols = packed ? cols : NULL ;
    op->wtc = NULL ;
    *bytes = (size_t) cells * esz + (size_t) (d.U * ldd)
        + (packed ? (size_t) (d.tiles * d.stages * g.ks) : 0) ;
    return GG_OK ;
}
