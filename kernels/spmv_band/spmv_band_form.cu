//------------------------------------------------------------------------------
// kernels/spmv_band/spmv_band_form.cu: band SpMV, the form of a matrix
//------------------------------------------------------------------------------

// The form ("band form", made once per matrix): the columns are ranked by
// their number of entries; band b (b < nb) is the columns of rank
// [b W, (b+1) W), W = what one block's shared memory holds of x next to the
// warps' partial sums (49,664 FP32 values on an H200), and the columns after
// the last band are "cold".  Each band is its own compact CSR: the rows
// holding entries of the band (rows []), a bit per entry that starts a row,
// the row holding each chunk's first entry (plan []), a column slot in 16
// bits (the column's rank less b W) and the value; the cold part keeps
// 32-bit column indices.  Every array is padded to whole chunks of 256
// entries (the padding is a dummy row of its own).  Bands are kept, in rank
// order, while their columns hold at least one entry each on average, at
// most 30 (bench/NOTES.md: fewer bands, 6 or 3 entries a column, measured
// slower on R-MAT 2^20 and 2^22).  4-byte values only.
//
// The product and why: spmv_band.cu, spmv_band_internal.cuh.

#include <cub/cub.cuh>
#include "kernels/spmv_band/spmv_band_internal.cuh"

// The kernels' view of f's parts (bands, then the cold part)
void band_parts_of (const gg_spmv_band_form *f, band_parts *parts)
{
    memset (parts, 0, sizeof (*parts)) ;
    for (int b = 0 ; b <= f->nb ; b++)
    {
        band_part &bp = parts->b [b] ;
        bp.rows = f->rows [b] ; bp.flags = f->flags [b] ; bp.plan = f->plan [b] ;
        bp.ci = f->ci [b] ; bp.sx = f->sx [b] ;
        bp.E = f->E [b] ; bp.nch = f->nch [b] ; bp.R = f->R [b] ;
        // a chunk's cost for band_kernel's slices: a base plus its part's
        // mean rows per chunk (one atomic each)
        bp.wt = BAND_WORK_BASE + ((bp.nch > 0) ? (bp.R + bp.nch - 1) / bp.nch : 0) ;
    }
}

static size_t band_round (size_t b) { return (b + 255) & ~(size_t) 255 ; }

// W for values of ts bytes: the opt-in shared memory of one block less the
// warps' partial sums (BAND_WARPS * BAND_CH values) and 1 KB of slack, at
// most 65,536 (16-bit slots), a multiple of 16 values
int64_t band_width (int ts)
{
    if (ts != 4) return 0 ;     // 4-byte values only (see gg_cuda_spmv_band)
    int dev = 0, optin = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess
        || cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    {
        cudaGetLastError () ;
        return 0 ;
    }
    int64_t w = ((int64_t) optin - 1024) / ts - BAND_WARPS * BAND_CH ;
    if (w > 65536) w = 65536 ;
    return (w < 16) ? 0 : (w & ~(int64_t) 15) ;
}

//------------------------------------------------------------------------------
// the form
//------------------------------------------------------------------------------

__global__ void band_degree_kernel (const int32_t *ci, int64_t nnz, uint32_t *deg)
{
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x) atomicAdd (deg + ci [e], 1u) ;
}

__global__ void band_iota_kernel (int32_t *a, int64_t n)
{
    for (int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; t < n ;
         t += (int64_t) gridDim.x * blockDim.x) a [t] = (int32_t) t ;
}

// bsum [b] = the entries of the columns of rank [b W, (b+1) W), b < nbc
__global__ void band_sum_kernel (const uint32_t *dsorted, int64_t k, int64_t W,
    int nbc, unsigned long long *bsum)
{
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
         r < k && r < (int64_t) nbc * W ; r += (int64_t) gridDim.x * blockDim.x)
        if (dsorted [r] > 0) atomicAdd (bsum + r / W, (unsigned long long) dsorted [r]) ;
}

// rank [col] for the columns of the bands (rank != NULL); order [r] = the
// column of rank r, 0 past k: slots no entry names (order != NULL)
__global__ void band_rank_kernel (const int32_t *csorted, int64_t k, int64_t nx,
    int32_t *rank, int32_t *order)
{
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; r < nx ;
         r += (int64_t) gridDim.x * blockDim.x)
    {
        const int32_t c = (r < k) ? csorted [r] : 0 ;
        if (rank != NULL && r < k) rank [c] = (int32_t) r ;
        if (order != NULL) order [r] = c ;
    }
}

// key [e] = band (e's column) << rb | row (e): a warp per row
__global__ void band_key_kernel (const int32_t *p, const int32_t *ci, int64_t m,
    const int32_t *rank, int64_t W, int nb, int rb, uint32_t *key)
{
    const int lane = threadIdx.x & 31 ;
    for (int64_t r = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ; r < m ;
         r += (int64_t) gridDim.x * blockDim.x / 32)
    {
        for (int64_t e = p [r] + lane ; e < p [r+1] ; e += 32)
        {
            const int32_t rk = rank [ci [e]] ;
            const uint32_t b = (rk >= 0) ? (uint32_t) (rk / W) : (uint32_t) nb ;
            key [e] = (b << rb) | (uint32_t) r ;
        }
    }
}

// the first run of each band (rstart [b], b <= nb; bands without runs keep
// the value set before)
__global__ void band_bounds_kernel (const uint32_t *ukey, int64_t nruns, int rb,
    int64_t *rstart)
{
    for (int64_t j = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; j < nruns ;
         j += (int64_t) gridDim.x * blockDim.x)
    {
        const uint32_t b = ukey [j] >> rb ;
        if (j == 0 || (ukey [j-1] >> rb) != b) rstart [b] = j ;
    }
}

// per run j (one (band, row)): the row, its start bit and the plan of its
// band (and the padding's dummy row start after the band's last run)
__global__ void band_rows_kernel (const uint32_t *ukey, const int32_t *cnt,
    const int32_t *eoff, int64_t nruns, int rb, band_parts parts,
    const int64_t *rstart_d, const int64_t *estart_d)
{
    for (int64_t j = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; j < nruns ;
         j += (int64_t) gridDim.x * blockDim.x)
    {
        const int b = (int) (ukey [j] >> rb) ;
        const band_part &bp = parts.b [b] ;
        const int64_t jl = j - rstart_d [b] ;
        const int64_t lo = eoff [j] - estart_d [b], hi = lo + cnt [j] ;
        ((int32_t *) bp.rows) [jl] = (int32_t) (ukey [j] & ((1u << rb) - 1u)) ;
        atomicOr ((uint32_t *) bp.flags + (lo >> 5), 1u << (lo & 31)) ;
        int32_t *plan = (int32_t *) bp.plan ;
        for (int64_t u = (lo + BAND_CH - 1) / BAND_CH ; u * BAND_CH < hi ; u++)
            plan [u] = (int32_t) jl ;
        if (hi == bp.E)
        {
            plan [bp.nch] = (int32_t) jl ;
            // the padding after the last entry: a dummy row of its own
            if (hi < bp.nch * BAND_CH) atomicOr ((uint32_t *) bp.flags + (hi >> 5), 1u << (hi & 31)) ;
        }
    }
}

// the entries, in (band, row, column) order: slot or column, and value
__global__ void band_fill_kernel (const uint32_t *skey, const int32_t *sidx,
    int64_t nnz, int rb, int nb, int64_t W, const int32_t *ci,
    const unsigned char *x, int ts, const int32_t *rank, band_parts parts,
    const int64_t *estart_d)
{
    for (int64_t s = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; s < nnz ;
         s += (int64_t) gridDim.x * blockDim.x)
    {
        const int b = (int) (skey [s] >> rb) ;
        const band_part &bp = parts.b [b] ;
        const int64_t l = s - estart_d [b] ;
        const int32_t e = sidx [s], c = ci [e] ;
        if (b < nb) ((uint16_t *) bp.ci) [l] = (uint16_t) (rank [c] - (int64_t) b * W) ;
        else ((int32_t *) bp.ci) [l] = c ;
        if (x != NULL)
        {
            unsigned char *d = ((unsigned char *) bp.sx) + l * ts ;
            const unsigned char *q = x + (int64_t) e * ts ;
            for (int t = 0 ; t < ts ; t++) d [t] = q [t] ;
        }
    }
}

#define BAND_TRY(call) do { if ((call) != cudaSuccess) { cudaGetLastError () ; \
    rc = GG_ERR_DEVICE ; goto done ; } } while (0)
#define BAND_ALLOC(ptr, bytes) do { if (cudaMallocAsync ((void **) &(ptr), \
    band_round (bytes), stream) != cudaSuccess) { cudaGetLastError () ; \
    rc = GG_ERR_DEVMEM ; goto done ; } } while (0)
// A CUB device call: its scratch size, the scratch (cub_tmp: made at the
// first call, grown when a call asks for more than its need bytes), then the
// call
#define BAND_CUB(fn, ...) do { size_t cub_bytes = 0 ; \
    BAND_TRY (fn (NULL, cub_bytes, __VA_ARGS__)) ; \
    if (cub_tmp == NULL || cub_bytes > need) { if (cub_tmp != NULL) cudaFreeAsync (cub_tmp, stream) ; \
        cub_tmp = NULL ; need = cub_bytes ; BAND_ALLOC (cub_tmp, need) ; } \
    BAND_TRY (fn (cub_tmp, cub_bytes, __VA_ARGS__)) ; } while (0)

extern "C" size_t gg_cuda_spmv_band_width (int type_size)
{
    return (size_t) band_width (type_size) ;
}

extern "C" int gg_cuda_spmv_band_build (int64_t m, int64_t k, int64_t nnz,
    const int32_t *p, const int32_t *i, const void *x, int type_size,
    int64_t width, int64_t min_nnz, gg_spmv_band_form **form,
    cudaStream_t stream)
{
    if (form == NULL) return GG_ERR_UNSUPPORTED ;
    *form = NULL ;
    int64_t W = band_width (type_size) ;
    if (width > 0 && width < W) W = (width < 16) ? 16 : (width & ~(int64_t) 15) ;
    if (W == 0 || m <= 0 || k <= 0 || nnz <= 0 || m > ((int64_t) 1 << (32 - BAND_KEYBITS))
        || k > INT32_MAX || nnz > INT32_MAX - BAND_CH) return GG_ERR_UNSUPPORTED ;
    int rc = GG_OK ;
    int rb = 1 ;
    while (((int64_t) 1 << rb) < m) rb++ ;
    const int nbc = (int) (((k + W - 1) / W < BAND_MAX) ? (k + W - 1) / W : BAND_MAX) ;
    const int sms = gg_device_sms () > 0 ? gg_device_sms () : 132 ;
    const unsigned grid = (unsigned) sms * 8 ;
    uint32_t *deg = NULL, *dsorted = NULL, *key = NULL, *skey = NULL, *ukey = NULL ;
    int32_t *cols = NULL, *csorted = NULL, *rank = NULL, *idx = NULL, *sidx = NULL,
        *cnt = NULL, *eoff = NULL ;
    unsigned long long *bsum = NULL ;
    int64_t *bounds = NULL, *nruns_d = NULL ;
    void *cub_tmp = NULL ;
    size_t need = 0 ;
    unsigned long long hsum [BAND_MAX] ;
    int64_t nruns = 0, rstart [BAND_MAX + 2], estart [BAND_MAX + 2] ;
    gg_spmv_band_form *f = NULL ;
    int nb = 0 ;
    int64_t thr ;
    band_parts parts ;

    // the columns by descending number of entries, and the entries per band
    BAND_ALLOC (deg, (size_t) k * 4) ;
    BAND_ALLOC (dsorted, (size_t) k * 4) ;
    BAND_ALLOC (cols, (size_t) k * 4) ;
    BAND_ALLOC (csorted, (size_t) k * 4) ;
    BAND_ALLOC (bsum, BAND_MAX * sizeof (unsigned long long)) ;
    BAND_TRY (cudaMemsetAsync (deg, 0, (size_t) k * 4, stream)) ;
    BAND_TRY (cudaMemsetAsync (bsum, 0, BAND_MAX * sizeof (unsigned long long), stream)) ;
    band_degree_kernel <<<grid, 256, 0, stream>>> (i, nnz, deg) ;
    band_iota_kernel <<<grid, 256, 0, stream>>> (cols, k) ;
    BAND_CUB (cub::DeviceRadixSort::SortPairsDescending, deg, dsorted, cols, csorted,
        (int) k, 0, 32, stream) ;
    band_sum_kernel <<<grid, 256, 0, stream>>> (dsorted, k, W, nbc, bsum) ;
    BAND_TRY (cudaMemcpyAsync (hsum, bsum, nbc * sizeof (unsigned long long),
        cudaMemcpyDeviceToHost, stream)) ;
    BAND_TRY (cudaStreamSynchronize (stream)) ;
    thr = (min_nnz >= 0) ? min_nnz : BAND_MIN_DEG * W ;
    if (thr < 1) thr = 1 ;
    while (nb < nbc && (int64_t) hsum [nb] >= thr) nb++ ;
    if (nb == 0) goto done ;        // nothing worth staging: no form

    f = (gg_spmv_band_form *) calloc (1, sizeof (gg_spmv_band_form)) ;
    if (f == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
    f->m = m ; f->k = k ; f->nnz = nnz ; f->ts = type_size ; f->nb = nb ;
    f->W = W ; f->vals = (x != NULL) ;
    estart [0] = 0 ;
    for (int b = 0 ; b < nb ; b++)
    {
        f->E [b] = (int64_t) hsum [b] ;
        estart [b+1] = estart [b] + f->E [b] ;
    }
    f->E [nb] = nnz - estart [nb] ;

    // the entries sorted by (band, row), stable: columns stay in order
    BAND_ALLOC (rank, (size_t) k * 4) ;
    BAND_ALLOC (key, (size_t) nnz * 4) ;
    BAND_ALLOC (skey, (size_t) nnz * 4) ;
    BAND_ALLOC (idx, (size_t) nnz * 4) ;
    BAND_ALLOC (sidx, (size_t) nnz * 4) ;
    BAND_TRY (cudaMemsetAsync (rank, 0xff, (size_t) k * 4, stream)) ;
    band_iota_kernel <<<grid, 256, 0, stream>>> (idx, nnz) ;
    // rank now; order is written into the form once it exists
    band_rank_kernel <<<grid, 256, 0, stream>>> (csorted, k, (int64_t) nb * W, rank, NULL) ;
    band_key_kernel <<<grid, 256, 0, stream>>> (p, i, m, rank, W, nb, rb, key) ;
    BAND_CUB (cub::DeviceRadixSort::SortPairs, key, skey, idx, sidx, (int) nnz, 0,
        rb + BAND_KEYBITS, stream) ;

    // runs of one (band, row): rows and their entry counts (key and idx are
    // free now: they hold the runs)
    ukey = key ; cnt = idx ;
    BAND_ALLOC (eoff, (size_t) nnz * 4) ;
    BAND_ALLOC (nruns_d, sizeof (int64_t)) ;
    BAND_ALLOC (bounds, (size_t) (2 * (BAND_MAX + 2)) * sizeof (int64_t)) ;
    BAND_CUB (cub::DeviceRunLengthEncode::Encode, skey, ukey, cnt, nruns_d, (int) nnz, stream) ;
    BAND_TRY (cudaMemcpyAsync (&nruns, nruns_d, sizeof (int64_t), cudaMemcpyDeviceToHost, stream)) ;
    BAND_TRY (cudaStreamSynchronize (stream)) ;
    BAND_CUB (cub::DeviceScan::ExclusiveSum, cnt, eoff, (int) nruns, stream) ;
    for (int b = 0 ; b <= nb + 1 ; b++) rstart [b] = nruns ;
    BAND_TRY (cudaMemcpyAsync (bounds, rstart, (nb + 2) * sizeof (int64_t), cudaMemcpyHostToDevice, stream)) ;
    band_bounds_kernel <<<grid, 256, 0, stream>>> (ukey, nruns, rb, bounds) ;
    BAND_TRY (cudaMemcpyAsync (rstart, bounds, (nb + 2) * sizeof (int64_t), cudaMemcpyDeviceToHost, stream)) ;
    BAND_TRY (cudaStreamSynchronize (stream)) ;
    // a band without runs (only the cold part can be empty) starts where
    // the next one does
    for (int b = nb ; b >= 0 ; b--) if (rstart [b] > rstart [b+1]) rstart [b] = rstart [b+1] ;

    // the form's one allocation
    {
        size_t off [BAND_MAX + 1][5], total = 0 ;
        const size_t order_bytes = band_round ((size_t) nb * W * 4) ;
        total += order_bytes ;
        for (int b = 0 ; b <= nb ; b++)
        {
            f->R [b] = rstart [b+1] - rstart [b] ;
            f->nch [b] = (f->E [b] + BAND_CH - 1) / BAND_CH ;
            const size_t Ep = (size_t) f->nch [b] * BAND_CH ;
            const size_t sz [5] = { (size_t) f->R [b] * 4, (size_t) f->nch [b] * (BAND_CH / 8),
                (size_t) (f->nch [b] + 1) * 4, Ep * (b < nb ? 2 : 4),
                (x != NULL) ? Ep * (size_t) type_size : 0 } ;
            for (int a = 0 ; a < 5 ; a++) { off [b][a] = total ; total += band_round (sz [a]) ; }
        }
        f->bytes = total ;
        if (cudaMallocAsync (&f->mem, total, stream) != cudaSuccess)
        {
            cudaGetLastError () ;
            f->mem = NULL ;
            rc = GG_ERR_DEVMEM ;
            goto done ;
        }
        BAND_TRY (cudaMemsetAsync (f->mem, 0, total, stream)) ;
        unsigned char *base = (unsigned char *) f->mem ;
        f->order = (int32_t *) base ;
        for (int b = 0 ; b <= nb ; b++)
        {
            f->rows [b] = (int32_t *) (base + off [b][0]) ;
            f->flags [b] = (uint32_t *) (base + off [b][1]) ;
            f->plan [b] = (int32_t *) (base + off [b][2]) ;
            f->ci [b] = base + off [b][3] ;
            f->sx [b] = (x != NULL) ? (void *) (base + off [b][4]) : NULL ;
        }
        band_parts_of (f, &parts) ;
    }
    // order (rank -> column) for the bands' ranks
    band_rank_kernel <<<grid, 256, 0, stream>>> (csorted, k, (int64_t) nb * W, NULL, f->order) ;
    // rstart and estart (parts 0 .. nb + 1) on the device, after each other
    // in bounds
    estart [nb + 1] = nnz ;
    BAND_TRY (cudaMemcpyAsync (bounds, rstart, (nb + 2) * sizeof (int64_t), cudaMemcpyHostToDevice, stream)) ;
    BAND_TRY (cudaMemcpyAsync (bounds + BAND_MAX + 2, estart, (nb + 2) * sizeof (int64_t), cudaMemcpyHostToDevice, stream)) ;
    band_rows_kernel <<<grid, 256, 0, stream>>> (ukey, cnt, eoff, nruns, rb, parts,
        bounds, bounds + BAND_MAX + 2) ;
    band_fill_kernel <<<grid, 256, 0, stream>>> (skey, sidx, nnz, rb, nb, W, i,
        (const unsigned char *) x, type_size, rank, parts, bounds + BAND_MAX + 2) ;
    BAND_TRY (cudaGetLastError ()) ;
    // the host copies above read rstart / estart: wait before they go
    BAND_TRY (cudaStreamSynchronize (stream)) ;

done:
    {
        void *tmp [] = { deg, dsorted, cols, csorted, bsum, rank, key, skey, idx,
            sidx, eoff, nruns_d, bounds, cub_tmp } ;
        for (size_t t = 0 ; t < sizeof (tmp) / sizeof (tmp [0]) ; t++)
            if (tmp [t] != NULL) cudaFreeAsync (tmp [t], stream) ;
    }
    if (rc != GG_OK && f != NULL)
    {
        gg_cuda_spmv_band_free (f, true, stream) ;
        f = NULL ;
    }
    *form = f ;
    return rc ;
}

extern "C" void gg_cuda_spmv_band_free (gg_spmv_band_form *f, bool device,
    cudaStream_t stream)
{
    if (f == NULL) return ;
    if (device && f->mem != NULL) cudaFreeAsync (f->mem, stream) ;
    free (f) ;
}

extern "C" void gg_cuda_spmv_band_info (const gg_spmv_band_form *f,
    gg_spmv_band_info *info)
{
    memset (info, 0, sizeof (*info)) ;
    if (f == NULL) return ;
    info->nbands = f->nb ;
    info->width = f->W ;
    info->bytes = f->bytes ;
    for (int b = 0 ; b <= f->nb ; b++)
    {
        info->nnz [b] = f->E [b] ;
        info->rows [b] = f->R [b] ;
        if (b < f->nb) info->band_nnz += f->E [b] ;
    }
}
