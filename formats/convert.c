//------------------------------------------------------------------------------
// formats/convert.c: views of GraphBLAS storage -> CSR / dense kernel forms
//------------------------------------------------------------------------------

// Every product's operands pass through here once per object version (the
// cache keeps the result).  The walk over the storage is written once
// (for_each_vector_entry) and serves the direct CSR, the transposed CSR and
// the row counts.  Values are cast with GraphBLAS's own rules.

#include "formats/convert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

//------------------------------------------------------------------------------
// typecasting exactly as SuiteSparse:GraphBLAS does
//------------------------------------------------------------------------------

static const size_t src_size [GG_NSRC] = { 1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8 } ;

size_t gg_src_size (gg_src_type s)
{
    return src_size [s] ;
}

// float -> integer: NaN gives 0, out-of-range values saturate.
#define DEFINE_FLOAT_TO_INT(DT, LO, HI)                                     \
    static inline DT float_to_##DT (double x)                               \
    {                                                                       \
        if (isnan (x)) return 0 ;                                           \
        if (x <= (double) (LO)) return (LO) ;                               \
        if (x >= (double) (HI)) return (HI) ;                               \
        return (DT) x ;                                                     \
    }
DEFINE_FLOAT_TO_INT (int32_t, INT32_MIN, INT32_MAX)
DEFINE_FLOAT_TO_INT (int64_t, INT64_MIN, INT64_MAX)
DEFINE_FLOAT_TO_INT (uint32_t, 0, UINT32_MAX)
DEFINE_FLOAT_TO_INT (uint64_t, 0, UINT64_MAX)

#define SRC_IS_FLOAT(s) ((s) == GG_SRC_FP32 || (s) == GG_SRC_FP64)

// One loop per (destination, source) pair; the expression casts one value v.
#define CAST_LOOP(DT, ST, EXPR)                                             \
{                                                                           \
    DT *restrict d = (DT *) dst ;                                           \
    const ST *restrict sp = (const ST *) src ;                              \
    if (iso)                                                                \
    {                                                                       \
        ST v = sp [0] ; DT z = (EXPR) ;                                     \
        for (int64_t k = 0 ; k < n ; k++) d [k] = z ;                       \
    }                                                                       \
    else                                                                    \
    {                                                                       \
        _Pragma ("omp parallel for schedule(static) if (n > 1000000)")     \
        for (int64_t k = 0 ; k < n ; k++) { ST v = sp [k] ; d [k] = (EXPR) ; } \
    }                                                                       \
}

#define CAST_FROM(DT, EXPR_INT, EXPR_FLOAT)                                 \
    switch (s)                                                              \
    {                                                                       \
        case GG_SRC_BOOL:   CAST_LOOP (DT, uint8_t,  EXPR_INT) ; break ;    \
        case GG_SRC_INT8:   CAST_LOOP (DT, int8_t,   EXPR_INT) ; break ;    \
        case GG_SRC_INT16:  CAST_LOOP (DT, int16_t,  EXPR_INT) ; break ;    \
        case GG_SRC_INT32:  CAST_LOOP (DT, int32_t,  EXPR_INT) ; break ;    \
        case GG_SRC_INT64:  CAST_LOOP (DT, int64_t,  EXPR_INT) ; break ;    \
        case GG_SRC_UINT8:  CAST_LOOP (DT, uint8_t,  EXPR_INT) ; break ;    \
        case GG_SRC_UINT16: CAST_LOOP (DT, uint16_t, EXPR_INT) ; break ;    \
        case GG_SRC_UINT32: CAST_LOOP (DT, uint32_t, EXPR_INT) ; break ;    \
        case GG_SRC_UINT64: CAST_LOOP (DT, uint64_t, EXPR_INT) ; break ;    \
        case GG_SRC_FP32:   CAST_LOOP (DT, float,    EXPR_FLOAT) ; break ;  \
        case GG_SRC_FP64:   CAST_LOOP (DT, double,   EXPR_FLOAT) ; break ;  \
        default: break ;                                                    \
    }

void gg_cast_array (void *dst, gg_type t, const void *src, gg_src_type s,
    bool iso, int64_t n)
{
    if (n <= 0) return ;
    switch (t)
    {
        case GG_BOOL:   CAST_FROM (uint8_t, (uint8_t) (v != 0), (uint8_t) (v != 0)) ; break ;
        case GG_INT32:  CAST_FROM (int32_t, (int32_t) v, float_to_int32_t (v)) ; break ;
        case GG_INT64:  CAST_FROM (int64_t, (int64_t) v, float_to_int64_t (v)) ; break ;
        case GG_UINT32: CAST_FROM (uint32_t, (uint32_t) v, float_to_uint32_t (v)) ; break ;
        case GG_UINT64: CAST_FROM (uint64_t, (uint64_t) v, float_to_uint64_t (v)) ; break ;
        case GG_FP32:   CAST_FROM (float, (float) v, (float) v) ; break ;
        case GG_FP64:   CAST_FROM (double, (double) v, (double) v) ; break ;
        default: break ;
    }
}

// Is the source type's representation the same as the kernel type's?
static bool same_type (gg_src_type s, gg_type t)
{
    switch (t)
    {
        case GG_BOOL:   return s == GG_SRC_BOOL ;
        case GG_INT32:  return s == GG_SRC_INT32 ;
        case GG_INT64:  return s == GG_SRC_INT64 ;
        case GG_UINT32: return s == GG_SRC_UINT32 ;
        case GG_UINT64: return s == GG_SRC_UINT64 ;
        case GG_FP32:   return s == GG_SRC_FP32 ;
        case GG_FP64:   return s == GG_SRC_FP64 ;
        default:        return false ;
    }
}

//------------------------------------------------------------------------------
// walking the storage: vector j, entry at index i, value at position q
//------------------------------------------------------------------------------

// Entries of the stored vector k (0 <= k < nvec): its name j, and the range of
// positions / how to get the index.  Bitmap and full are walked position by
// position (q = j*vlen + i).
static inline int64_t vec_name (const gg_view *v, int64_t k)
{
    return (v->storage == GG_STORE_HYPER) ? v->h [k] : k ;
}

static inline int64_t vec_count (const gg_view *v, int64_t k)
{
    switch (v->storage)
    {
        case GG_STORE_SPARSE:
        case GG_STORE_HYPER: return v->p [k+1] - v->p [k] ;
        case GG_STORE_FULL: return v->vlen ;
        default:
        {
            int64_t c = 0 ;
            const int8_t *b = v->b + k * v->vlen ;
            for (int64_t i = 0 ; i < v->vlen ; i++) c += b [i] ;
            return c ;
        }
    }
}

//------------------------------------------------------------------------------
// CSR
//------------------------------------------------------------------------------

void gg_csr_form_free (void *form)
{
    gg_csr_form *f = (gg_csr_form *) form ;
    if (f == NULL) return ;
    free (f->p) ;
    free (f->i) ;
    free (f->x) ;
    free (f->present) ;
    free (f->col_present) ;
    free (f) ;
}

// dst [d] = src [q], values of sz bytes
static inline void put_val (void *dst, int64_t d, const void *src, int64_t q,
    size_t sz)
{
    switch (sz)
    {
        case 1: ((uint8_t *) dst) [d] = ((const uint8_t *) src) [q] ; break ;
        case 2: ((uint16_t *) dst) [d] = ((const uint16_t *) src) [q] ; break ;
        case 4: ((uint32_t *) dst) [d] = ((const uint32_t *) src) [q] ; break ;
        case 8: ((uint64_t *) dst) [d] = ((const uint64_t *) src) [q] ; break ;
        default: memcpy ((char *) dst + d * sz, (const char *) src + q * sz, sz) ;
    }
}

#define IDX_SET(arr, w32, k, val) \
    do { if (w32) ((int32_t *) (arr)) [k] = (int32_t) (val) ; \
         else ((int64_t *) (arr)) [k] = (int64_t) (val) ; } while (0)

// The transpose of sparse (or hypersparse) storage, over its vectors k0 ..
// k1-1: count [i] += the entries with index i; then each entry (index i,
// vector j) goes to row i, column j, at pos [i]++ (its value, when sv is
// given, along with it).  Walking the vectors in increasing j keeps each
// row's columns sorted.
static void transpose_count (const gg_view *v, int64_t k0, int64_t k1,
    int64_t *count)
{
    for (int64_t q = v->p [k0] ; q < v->p [k1] ; q++) count [v->i [q]]++ ;
}

static void transpose_move (const gg_view *v, int64_t k0, int64_t k1,
    int64_t *pos, void *ci, bool w32, void *sv, size_t ssz)
{
    for (int64_t k = k0 ; k < k1 ; k++)
    {
        int64_t j = vec_name (v, k) ;
        for (int64_t q = v->p [k] ; q < v->p [k+1] ; q++)
        {
            int64_t dst = pos [v->i [q]]++ ;
            IDX_SET (ci, w32, dst, j) ;
            if (sv) put_val (sv, dst, v->x, q, ssz) ;
        }
    }
}

int gg_csr_from_view (gg_csr_form **out, const gg_view *v, bool transpose,
    bool values, gg_type t)
{
    *out = NULL ;
    const int64_t nrows = gg_view_nrows (v, transpose) ;
    const int64_t ncols = gg_view_ncols (v, transpose) ;
    const int64_t nnz = v->nvals ;
    // the storage's vectors are the rows of op (A) when these agree:
    const bool direct = (v->by_col == transpose) ;
    // with the stored vectors as rows and no bitmap holes, entry k of the CSR
    // is entry k of the storage: values need no gather
    const bool in_order = direct && v->storage != GG_STORE_BITMAP ;
    const bool w32 = nrows < INT32_MAX && ncols < INT32_MAX && nnz < INT32_MAX ;
    const size_t isz = w32 ? 4 : 8 ;
    const size_t tsz = gg_type_size (t) ;
    const bool iso = values && v->iso ;

    gg_csr_form *f = calloc (1, sizeof (gg_csr_form)) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->p = malloc ((size_t) (nrows + 1) * isz) ;
    f->present = malloc ((size_t) (nrows > 0 ? nrows : 1)) ;
    f->i = malloc ((size_t) (nnz > 0 ? nnz : 1) * isz) ;
    // A transpose of sparse storage moves each value with its entry (sv: in
    // the source type, straight into f->x when that is the semiring type);
    // other reorders record each entry's value position (q_of) and gather
    // after.
    const bool sparse_transpose = !direct
        && (v->storage == GG_STORE_SPARSE || v->storage == GG_STORE_HYPER) ;
    const bool scatter_vals = values && !iso && sparse_transpose ;
    const size_t ssz = gg_src_size (v->src) ;
    void *sv = NULL ;
    int64_t *q_of = NULL ;      // value position of each CSR entry
    if (values)
    {
        f->x = malloc ((size_t) (iso ? 1 : (nnz > 0 ? nnz : 1)) * tsz) ;
        if (scatter_vals)
        {
            sv = same_type (v->src, t) ? f->x
                : malloc ((size_t) (nnz > 0 ? nnz : 1) * ssz) ;
        }
        else if (!iso && !in_order)
        {
            q_of = malloc ((size_t) (nnz > 0 ? nnz : 1) * sizeof (int64_t)) ;
        }
    }
    int64_t *count = calloc ((size_t) nrows + 1, sizeof (int64_t)) ;
    if (f->p == NULL || f->i == NULL || f->present == NULL || (values && f->x == NULL)
        || (scatter_vals && sv == NULL)
        || (values && !iso && !in_order && !scatter_vals && q_of == NULL) || count == NULL)
    {
        if (sv != f->x) free (sv) ;
        free (q_of) ; free (count) ; gg_csr_form_free (f) ;
        return GG_ERR_NOMEM ;
    }
    f->bytes = (size_t) (nrows + 1) * isz + (size_t) nnz * isz
             + (values ? (size_t) (iso ? 1 : nnz) * tsz : 0) + (size_t) nrows ;

    //--------------------------------------------------------------------------
    // row counts: count [r+1] = entries of row r of op (A)
    //--------------------------------------------------------------------------

    const int64_t nvec = (v->storage == GG_STORE_HYPER) ? v->nvec : v->vdim ;
    // A transpose of sparse storage runs on nt threads, each over a range of
    // vectors holding about nnz / nt entries, with its own row counts (nt x
    // nrows of them; nt <= nnz / nrows, so at most 8 bytes per entry)
    int nt = 1 ;
    int64_t *tcount = NULL, *kfirst = NULL ;
#ifdef _OPENMP
    if (sparse_transpose && nnz > 1000000 && !omp_in_parallel ())
    {
        nt = omp_get_max_threads () ;
        if (nt > 16) nt = 16 ;
        int64_t per_row = nnz / (nrows > 0 ? nrows : 1) ;
        if (nt > per_row) nt = (int) (per_row > 1 ? per_row : 1) ;
        if (nt > 1)
        {
            tcount = calloc ((size_t) nt * (size_t) nrows, sizeof (int64_t)) ;
            kfirst = malloc ((size_t) (nt + 1) * sizeof (int64_t)) ;
            if (tcount == NULL || kfirst == NULL)
            {
                free (tcount) ; free (kfirst) ; tcount = kfirst = NULL ; nt = 1 ;
            }
        }
        else nt = 1 ;
    }
#endif
    if (nt > 1)
    {
        // kfirst [t]: the first vector of thread t (entries split evenly)
        kfirst [0] = 0 ; kfirst [nt] = nvec ;
        for (int t = 1 ; t < nt ; t++)
        {
            int64_t want = nnz / nt * t, lo = kfirst [t-1], hi = nvec ;
            while (lo < hi)
            {
                int64_t mid = lo + (hi - lo) / 2 ;
                if (v->p [mid] < want) lo = mid + 1 ; else hi = mid ;
            }
            kfirst [t] = lo ;
        }
        #pragma omp parallel for num_threads (nt) schedule (static, 1)
        for (int t = 0 ; t < nt ; t++)
        {
            transpose_count (v, kfirst [t], kfirst [t+1],
                tcount + (size_t) t * (size_t) nrows) ;
        }
        #pragma omp parallel for schedule (static) if (nrows > 65536)
        for (int64_t r = 0 ; r < nrows ; r++)
        {
            int64_t sum = 0 ;
            for (int t = 0 ; t < nt ; t++) sum += tcount [(size_t) t * (size_t) nrows + r] ;
            count [r+1] = sum ;
        }
    }
    else if (direct)
    {
        #pragma omp parallel for schedule(dynamic, 4096) if (nvec > 65536)
        for (int64_t k = 0 ; k < nvec ; k++)
        {
            count [vec_name (v, k) + 1] = vec_count (v, k) ;
        }
    }
    else if (sparse_transpose)
    {
        transpose_count (v, 0, nvec, count + 1) ;
    }
    else if (v->storage == GG_STORE_FULL)
    {
        for (int64_t r = 0 ; r < nrows ; r++) count [r+1] = v->vdim ;
    }
    else
    {
        for (int64_t j = 0 ; j < v->vdim ; j++)
        {
            const int8_t *b = v->b + j * v->vlen ;
            for (int64_t i = 0 ; i < v->vlen ; i++) count [i+1] += b [i] ;
        }
    }
    int64_t max_row = 0, empty_rows = 0 ;
    for (int64_t r = 0 ; r < nrows ; r++)
    {
        if (count [r+1] > max_row) max_row = count [r+1] ;
        empty_rows += (count [r+1] == 0) ;
        f->present [r] = (int8_t) (count [r+1] > 0) ;
        count [r+1] += count [r] ;
    }
    for (int64_t r = 0 ; r <= nrows ; r++) IDX_SET (f->p, w32, r, count [r]) ;

    //--------------------------------------------------------------------------
    // column indices (and the value position of each entry)
    //--------------------------------------------------------------------------

    if (direct)
    {
        // row j of op (A) is stored vector j: copy in place
        #pragma omp parallel for schedule(dynamic, 4096) if (nvec > 65536)
        for (int64_t k = 0 ; k < nvec ; k++)
        {
            int64_t j = vec_name (v, k), dst = count [j] ;
            if (v->storage == GG_STORE_SPARSE || v->storage == GG_STORE_HYPER)
            {
                for (int64_t q = v->p [k] ; q < v->p [k+1] ; q++, dst++)
                {
                    IDX_SET (f->i, w32, dst, v->i [q]) ;
                    if (q_of) q_of [dst] = q ;
                }
            }
            else
            {
                const int64_t base = j * v->vlen ;
                for (int64_t i = 0 ; i < v->vlen ; i++)
                {
                    if (v->storage == GG_STORE_BITMAP && !v->b [base + i]) continue ;
                    IDX_SET (f->i, w32, dst, i) ;
                    if (q_of) q_of [dst] = base + i ;
                    dst++ ;
                }
            }
        }
    }
    else if (nt > 1)
    {
        // the parallel transpose: thread t's entries of row r start after
        // those of threads before it; each walks its vectors in increasing j,
        // so columns come out sorted
        #pragma omp parallel for schedule (static) if (nrows > 65536)
        for (int64_t r = 0 ; r < nrows ; r++)
        {
            int64_t pos = count [r] ;
            for (int t = 0 ; t < nt ; t++)
            {
                int64_t *c = tcount + (size_t) t * (size_t) nrows + r ;
                int64_t here = *c ;
                *c = pos ;
                pos += here ;
            }
        }
        #pragma omp parallel for num_threads (nt) schedule (static, 1)
        for (int t = 0 ; t < nt ; t++)
        {
            transpose_move (v, kfirst [t], kfirst [t+1],
                tcount + (size_t) t * (size_t) nrows, f->i, w32, sv, ssz) ;
        }
    }
    else if (sparse_transpose)
    {
        transpose_move (v, 0, nvec, count, f->i, w32, sv, ssz) ;
    }
    else
    {
        // transpose of bitmap or full storage: entry (index i, vector j) goes
        // to row i, column j; the vectors are walked in increasing j, so
        // columns come out sorted.
        for (int64_t j = 0 ; j < nvec ; j++)
        {
            const int64_t base = j * v->vlen ;
            for (int64_t i = 0 ; i < v->vlen ; i++)
            {
                if (v->storage == GG_STORE_BITMAP && !v->b [base + i]) continue ;
                int64_t dst = count [i]++ ;
                IDX_SET (f->i, w32, dst, j) ;
                if (q_of) q_of [dst] = base + i ;
            }
        }
    }
    free (count) ;
    free (tcount) ;
    free (kfirst) ;

    //--------------------------------------------------------------------------
    // values, cast to the semiring type
    //--------------------------------------------------------------------------

    if (values)
    {
        if (iso)
        {
            gg_cast_array (f->x, t, v->x, v->src, true, 1) ;
        }
        else if (scatter_vals)
        {
            // moved with their entries: cast in one pass unless already there
            if (sv != f->x)
            {
                gg_cast_array (f->x, t, sv, v->src, false, nnz) ;
                free (sv) ;
            }
        }
        else
        {
            // gather the source values in CSR order, then cast in one pass
            bool identity_order = true ;
            if (q_of != NULL)
            {
                int64_t off = 0 ;
                #pragma omp parallel for schedule(static) reduction(+:off) if (nnz > 1000000)
                for (int64_t k = 0 ; k < nnz ; k++) off += (q_of [k] != k) ;
                identity_order = (off == 0) ;
            }
            if (identity_order)
            {
                gg_cast_array (f->x, t, v->x, v->src, false, nnz) ;
            }
            else
            {
                void *g = malloc ((size_t) (nnz > 0 ? nnz : 1) * ssz) ;
                if (g == NULL)
                {
                    free (q_of) ; gg_csr_form_free (f) ;
                    return GG_ERR_NOMEM ;
                }
                const char *sx = (const char *) v->x ;
                #pragma omp parallel for schedule(static) if (nnz > 1000000)
                for (int64_t k = 0 ; k < nnz ; k++)
                {
                    memcpy ((char *) g + k * ssz, sx + q_of [k] * ssz, ssz) ;
                }
                gg_cast_array (f->x, t, g, v->src, false, nnz) ;
                free (g) ;
            }
        }
    }
    free (q_of) ;

    f->csr.nrows = nrows ;
    f->csr.ncols = ncols ;
    f->csr.nnz = nnz ;
    if (w32) { f->csr.p32 = f->p ; f->csr.i32 = f->i ; }
    else     { f->csr.p64 = f->p ; f->csr.i64 = f->i ; }
    f->csr.x = f->x ;
    f->csr.iso = iso ;
    f->csr.max_row = max_row ;
    f->csr.no_empty_rows = (empty_rows == 0) ;
    f->csr.present = f->present ;
    f->csr.nonempty = nrows - empty_rows ;
    f->csr.cache = NULL ;
    *out = f ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// dense
//------------------------------------------------------------------------------

// out (r, c) = in (c, r): out is rows x cols row-major, in is cols x rows.
// Blocks of 32 x 32 keep both sides in cache; one loop per value size.
#define DEFINE_TRANSPOSE(NAME, T)                                           \
    static void NAME (void *out_, const void *in_, int64_t rows, int64_t cols) \
    {                                                                       \
        T *restrict out = (T *) out_ ;                                      \
        const T *restrict in = (const T *) in_ ;                            \
        const int64_t B = 32 ;                                              \
        _Pragma ("omp parallel for schedule(static) if (rows * cols > 1000000)") \
        for (int64_t r0 = 0 ; r0 < rows ; r0 += B)                          \
        {                                                                   \
            int64_t r1 = r0 + B < rows ? r0 + B : rows ;                    \
            for (int64_t c0 = 0 ; c0 < cols ; c0 += B)                      \
            {                                                               \
                int64_t c1 = c0 + B < cols ? c0 + B : cols ;                \
                for (int64_t r = r0 ; r < r1 ; r++)                         \
                {                                                           \
                    for (int64_t c = c0 ; c < c1 ; c++)                     \
                    {                                                       \
                        out [r * cols + c] = in [c * rows + r] ;            \
                    }                                                       \
                }                                                           \
            }                                                               \
        }                                                                   \
    }
DEFINE_TRANSPOSE (transpose_1, uint8_t)
DEFINE_TRANSPOSE (transpose_4, uint32_t)
DEFINE_TRANSPOSE (transpose_8, uint64_t)

void gg_dense_form_free (void *form)
{
    gg_dense_form *f = (gg_dense_form *) form ;
    if (f == NULL) return ;
    free (f->owned) ;
    free (f) ;
}

// The stored array x [j*vlen + i] is row-major op (A) when the vectors are
// its rows, or when it has a single row or column: with the semiring's type
// and no iso value, it is read in place.
bool gg_dense_in_place (const gg_view *v, bool transpose, gg_type t)
{
    const bool direct = (v->by_col == transpose) || v->vlen == 1 || v->vdim == 1 ;
    return direct && !v->iso && same_type (v->src, t) ;
}

int gg_dense_from_view (gg_dense_form **out, const gg_view *v, bool transpose,
    bool values, gg_type t)
{
    *out = NULL ;
    gg_dense_form *f = calloc (1, sizeof (gg_dense_form)) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    const int64_t nrows = gg_view_nrows (v, transpose) ;
    const int64_t ncols = gg_view_ncols (v, transpose) ;
    f->dense.nrows = nrows ;
    f->dense.ncols = ncols ;
    if (!values)
    {
        *out = f ;
        return GG_OK ;
    }
    const bool direct = (v->by_col == transpose) || v->vlen == 1 || v->vdim == 1 ;
    const int64_t n = nrows * ncols ;
    if (gg_dense_in_place (v, transpose, t))
    {
        f->dense.x = v->x ;     // zero-copy
        *out = f ;
        return GG_OK ;
    }
    const size_t tsz = gg_type_size (t) ;
    f->owned = malloc ((size_t) (n > 0 ? n : 1) * tsz) ;
    if (f->owned == NULL) { free (f) ; return GG_ERR_NOMEM ; }
    f->bytes = (size_t) n * tsz ;
    if (direct || v->iso)
    {
        gg_cast_array (f->owned, t, v->x, v->src, v->iso, n) ;
    }
    else
    {
        // cast in storage order, then transpose by blocks: out (r, c) =
        // stored (vector c, index r)
        void *tmp = malloc ((size_t) (n > 0 ? n : 1) * tsz) ;
        if (tmp == NULL) { gg_dense_form_free (f) ; return GG_ERR_NOMEM ; }
        gg_cast_array (tmp, t, v->x, v->src, false, n) ;
        const int64_t vlen = v->vlen, vdim = v->vdim ;   // out is vlen x vdim
        switch (tsz)
        {
            case 1:  transpose_1 (f->owned, tmp, vlen, vdim) ; break ;
            case 4:  transpose_4 (f->owned, tmp, vlen, vdim) ; break ;
            default: transpose_8 (f->owned, tmp, vlen, vdim) ; break ;
        }
        free (tmp) ;
    }
    f->dense.x = f->owned ;
    *out = f ;
    return GG_OK ;
}
