//------------------------------------------------------------------------------
// backend/storage/writeback.c: the exact write-back, C<M> = accum (C, T)
//------------------------------------------------------------------------------

// Arrays unpacked from C go back through the free GraphBLAS was given
// (backend/interpose/galloc.h).  When the call is plain (no mask, no
// accumulator, C of the semiring's type, C held in T's orientation) T is
// packed straight into C; otherwise T becomes a temporary matrix and
// GrB_*_apply (C, M, accum, IDENTITY, T, desc') reproduces mask, complement,
// structure, replace, accumulation and typecasting exactly, since GrB_mxm
// ends with the same step (C<M> = accum (C, T)).  One exception, for speed: a
// built-in accumulator into a full C is applied to C's values in place.

#include "config.h"
#include "backend/storage/storage_private.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

static GrB_UnaryOp identity_op (gg_type t)
{
    switch (t)
    {
        case GG_BOOL:   return GrB_IDENTITY_BOOL ;
        case GG_INT32:  return GrB_IDENTITY_INT32 ;
        case GG_INT64:  return GrB_IDENTITY_INT64 ;
        case GG_UINT32: return GrB_IDENTITY_UINT32 ;
        case GG_UINT64: return GrB_IDENTITY_UINT64 ;
        case GG_FP32:   return GrB_IDENTITY_FP32 ;
        case GG_FP64:   return GrB_IDENTITY_FP64 ;
        default:        return NULL ;
    }
}

//------------------------------------------------------------------------------
// packing T
//------------------------------------------------------------------------------

// Whether row r of S has entries is all the callers ask: the presence array
// when S keeps one (an S given by its transpose's arrays, gg_csr.transposed,
// has no row pointers of its own rows), else the row pointers.
static int64_t csr_row_count (const gg_csr *S, int64_t r)
{
    if (S->present != NULL) return S->present [r] ;
    return S->p32 ? (int64_t) (S->p32 [r+1] - S->p32 [r]) : S->p64 [r+1] - S->p64 [r] ;
}

// The bitmap of a dense result whose stored vectors are present iff the
// corresponding row of `present` has entries (NULL: all present).  Written
// into r->b when C's bitmap was taken (its pages are mapped), else into a
// fresh buffer.  Absent vectors' values are zeroed when x is fresh memory,
// so that no uninitialised byte reaches GraphBLAS (in a reused x they hold
// earlier values of C).
static int8_t *result_bitmap (gg_result *r, int64_t nvec, int64_t vlen,
    int64_t *nvals, size_t *size)
{
    const size_t bytes = (size_t) (nvec * vlen > 0 ? nvec * vlen : 1) ;
    int8_t *b ;
    if (r->b != NULL && r->b_size >= bytes) { b = r->b ; *size = r->b_size ; r->b = NULL ; }
    else { b = grbgpu_alloc_result (bytes) ; *size = bytes ; }
    if (b == NULL) return NULL ;
    const size_t zsz = gg_type_size (r->zt) ;
    const bool zero = r->x_fresh ;
    const gg_csr *P = r->present ;
    int64_t count = 0 ;
    if (vlen == 1 && P != NULL && P->present != NULL)
    {
        // a vector (mxv): the presence of each row, kept with the CSR
        const int64_t chunk = 1 << 16 ;
        #pragma omp parallel for schedule(static) if (nvec > 4 * chunk)
        for (int64_t j0 = 0 ; j0 < nvec ; j0 += chunk)
        {
            int64_t len = (nvec - j0 < chunk) ? nvec - j0 : chunk ;
            memcpy (b + j0, P->present + j0, (size_t) len) ;
            if (zero)
            {
                for (int64_t j = j0 ; j < j0 + len ; j++)
                    if (!b [j]) memset ((char *) r->x + (size_t) j * zsz, 0, zsz) ;
            }
        }
        *nvals = P->nonempty ;
        return b ;
    }
    // first touch in parallel: the pages of a fresh buffer fault in on all cores
    #pragma omp parallel for schedule(static) reduction(+:count) if (nvec * vlen > 1000000)
    for (int64_t j = 0 ; j < nvec ; j++)
    {
        bool here = (P == NULL) || csr_row_count (P, j) > 0 ;
        memset (b + j * vlen, here ? 1 : 0, (size_t) vlen) ;
        if (here) count += vlen ;
        else if (zero) memset ((char *) r->x + (size_t) (j * vlen) * zsz, 0, (size_t) vlen * zsz) ;
    }
    *nvals = count ;
    return b ;
}

static bool all_present (const gg_result *r, int64_t nvec)
{
    if (r->present == NULL) return true ;
    if (r->present->present != NULL) return r->present->nonempty == nvec ;
    for (int64_t j = 0 ; j < nvec ; j++)
    {
        if (csr_row_count (r->present, j) == 0) return false ;
    }
    return true ;
}

// The library's pack / unpack (full) and option functions, as a program
// calls them (through grbgpu's wrappers where there is one) or, real, the
// library's own (grbgpu_real: no wrapper runs, which the resident registry
// needs under its lock).  One table of each, so that the write-back and the
// registry share every function below.
typedef GrB_Info (*mopt_fn) (GrB_Matrix, GxB_Option_Field, ...) ;
typedef GrB_Info (*vopt_fn) (GrB_Vector, GxB_Option_Field, ...) ;
typedef GrB_Info (*vpack_fn) (GrB_Vector, void **, GrB_Index, bool, const GrB_Descriptor) ;
typedef GrB_Info (*mpack_fn) (GrB_Matrix, void **, GrB_Index, bool, const GrB_Descriptor) ;
typedef GrB_Info (*vunpack_fn) (GrB_Vector, void **, GrB_Index *, bool *, const GrB_Descriptor) ;
typedef GrB_Info (*munpack_fn) (GrB_Matrix, void **, GrB_Index *, bool *, const GrB_Descriptor) ;

typedef struct
{
    mopt_fn mget, mset ;
    vopt_fn vget, vset ;
    vpack_fn vpack ;
    mpack_fn mpackc, mpackr ;
    vunpack_fn vunpack ;
    munpack_fn munpackc, munpackr ;
}
lib_fns ;

static const lib_fns lib_wrapped =
{
    GxB_Matrix_Option_get, GxB_Matrix_Option_set, GxB_Vector_Option_get, GxB_Vector_Option_set,
    GxB_Vector_pack_Full, GxB_Matrix_pack_FullC, GxB_Matrix_pack_FullR,
    GxB_Vector_unpack_Full, GxB_Matrix_unpack_FullC, GxB_Matrix_unpack_FullR
} ;
static lib_fns lib_real ;
static pthread_once_t lib_real_once = PTHREAD_ONCE_INIT ;

static void lib_real_init (void)
{
    lib_real.mget = (mopt_fn) grbgpu_real ("GxB_Matrix_Option_get") ;
    lib_real.mset = (mopt_fn) grbgpu_real ("GxB_Matrix_Option_set") ;
    lib_real.vget = (vopt_fn) grbgpu_real ("GxB_Vector_Option_get") ;
    lib_real.vset = (vopt_fn) grbgpu_real ("GxB_Vector_Option_set") ;
    lib_real.vpack = (vpack_fn) grbgpu_real ("GxB_Vector_pack_Full") ;
    lib_real.mpackc = (mpack_fn) grbgpu_real ("GxB_Matrix_pack_FullC") ;
    lib_real.mpackr = (mpack_fn) grbgpu_real ("GxB_Matrix_pack_FullR") ;
    lib_real.vunpack = (vunpack_fn) grbgpu_real ("GxB_Vector_unpack_Full") ;
    lib_real.munpackc = (munpack_fn) grbgpu_real ("GxB_Matrix_unpack_FullC") ;
    lib_real.munpackr = (munpack_fn) grbgpu_real ("GxB_Matrix_unpack_FullR") ;
}

static const lib_fns *lib (bool real)
{
    if (!real) return &lib_wrapped ;
    pthread_once (&lib_real_once, lib_real_init) ;
    return &lib_real ;
}

// Pack a full value array into X: a vector, or a matrix held by column or by
// row.  On success *x is NULL (GraphBLAS owns the array).
GrB_Info grbgpu_storage_pack_full (GrB_Matrix X, bool is_vector, bool by_col, void **x,
    GrB_Index xsize, bool iso, bool real)
{
    const lib_fns *L = lib (real) ;
    if (is_vector) return L->vpack ((GrB_Vector) X, x, xsize, iso, NULL) ;
    return (by_col ? L->mpackc : L->mpackr) (X, x, xsize, iso, NULL) ;
}

// Unpack the full value array of X (a vector, or a matrix held by column or
// by row): the twin of grbgpu_storage_pack_full.
GrB_Info grbgpu_storage_unpack_full (GrB_Matrix X, bool is_vector, bool by_col,
    void **x, GrB_Index *xsize, bool *iso, bool real)
{
    const lib_fns *L = lib (real) ;
    if (is_vector) return L->vunpack ((GrB_Vector) X, x, xsize, iso, NULL) ;
    return (by_col ? L->munpackc : L->munpackr) (X, x, xsize, iso, NULL) ;
}

// The same pair for bitmap arrays (b and x).
static GrB_Info pack_bitmap (GrB_Matrix X, bool is_vector, bool by_col,
    int8_t **b, void **x, GrB_Index bsize, GrB_Index xsize, bool iso,
    GrB_Index nvals)
{
    if (is_vector) return GxB_Vector_pack_Bitmap ((GrB_Vector) X, b, x, bsize, xsize, iso, nvals, NULL) ;
    if (by_col) return GxB_Matrix_pack_BitmapC (X, b, x, bsize, xsize, iso, nvals, NULL) ;
    return GxB_Matrix_pack_BitmapR (X, b, x, bsize, xsize, iso, nvals, NULL) ;
}

GrB_Info grbgpu_storage_unpack_bitmap (GrB_Matrix X, bool is_vector, bool by_col,
    int8_t **b, void **x, GrB_Index *bsize, GrB_Index *xsize, bool *iso,
    GrB_Index *nvals)
{
    if (is_vector) return GxB_Vector_unpack_Bitmap ((GrB_Vector) X, b, x, bsize, xsize, iso, nvals, NULL) ;
    if (by_col) return GxB_Matrix_unpack_BitmapC (X, b, x, bsize, xsize, iso, nvals, NULL) ;
    return GxB_Matrix_unpack_BitmapR (X, b, x, bsize, xsize, iso, nvals, NULL) ;
}

// T has exactly the mask's entries, so C<struct(M)> = T leaves C equal to T
// when C held nothing outside M (empty, or replace)
bool grbgpu_storage_pattern_is_all (const gg_output *out, GrB_Type ctype, GrB_Type ztype)
{
    if (out->M == NULL || !out->mask_struct || out->mask_comp || out->accum != NULL
        || ctype != ztype || out->is_vector) return false ;
    GxB_Format_Value fmt = GxB_BY_COL ;
    GrB_Index cnvals = 1 ;
    return (GxB_Matrix_Option_get (out->C, GxB_FORMAT, &fmt) == GrB_SUCCESS) && fmt == GxB_BY_ROW
        && (out->replace || (GrB_Matrix_nvals (&cnvals, out->C) == GrB_SUCCESS && cnvals == 0)) ;
}

GrB_Info grbgpu_storage_csr_arrays (const gg_csr *csr, GrB_Index **Ap, size_t *ap_size,
    GrB_Index **Aj, size_t *aj_size)
{
    const int64_t m = csr->nrows, nnz = csr->nnz ;
    *ap_size = (size_t) (m + 1) * sizeof (GrB_Index) ;
    *aj_size = (size_t) (nnz > 0 ? nnz : 1) * sizeof (GrB_Index) ;
    *Ap = grbgpu_gb_malloc (*ap_size) ;
    *Aj = grbgpu_gb_malloc (*aj_size) ;
    if (*Ap == NULL || *Aj == NULL)
    {
        grbgpu_gb_free (*Ap) ; grbgpu_gb_free (*Aj) ;
        *Ap = NULL ; *Aj = NULL ;
        return GrB_OUT_OF_MEMORY ;
    }
    GrB_Index *p = *Ap, *j = *Aj ;
    #pragma omp parallel for schedule(static) if (m > 100000)
    for (int64_t k = 0 ; k <= m ; k++) p [k] = csr->p32 ? (GrB_Index) csr->p32 [k] : (GrB_Index) csr->p64 [k] ;
    #pragma omp parallel for schedule(static) if (nnz > 100000)
    for (int64_t k = 0 ; k < nnz ; k++) j [k] = csr->i32 ? (GrB_Index) csr->i32 [k] : (GrB_Index) csr->i64 [k] ;
    return GrB_SUCCESS ;
}

// Pack the result into X (a new temporary, or C itself when plain).
static GrB_Info pack_result (GrB_Matrix X, bool is_vector, gg_result *r,
    bool allow_full)
{
    GrB_Info info ;
    const size_t zsz = gg_type_size (r->zt) ;

    if (r->pattern != NULL)
    {
        // SDDMM: T has the mask's pattern (CSR by row) with values r->x
        const gg_csr *P = r->pattern ;
        const int64_t nnz = P->nnz ;
        GrB_Index *Tp, *Tj ;
        size_t tp_size, tj_size ;
        info = grbgpu_storage_csr_arrays (P, &Tp, &tp_size, &Tj, &tj_size) ;
        if (info != GrB_SUCCESS) return info ;
        void *Tx = r->x ;
        info = GxB_Matrix_pack_CSR (X, &Tp, &Tj, &Tx, (GrB_Index) tp_size, (GrB_Index) tj_size,
            (GrB_Index) ((nnz > 0 ? nnz : 1) * zsz), false, false, NULL) ;
        // what the pack took is NULL now (GraphBLAS owns it, and frees it
        // even if the pack then fails); the rest is still ours
        r->x = Tx ;
        grbgpu_gb_free (Tp) ; grbgpu_gb_free (Tj) ;
        return info ;
    }

    // dense layout: stored vectors are rows (by_col false) or columns
    const int64_t nvec = r->by_col ? r->ncols : r->nrows ;
    const int64_t vlen = r->by_col ? r->nrows : r->ncols ;
    GrB_Index xsize = (GrB_Index) ((nvec * vlen > 0 ? nvec * vlen : 1) * zsz) ;
    if (r->x_size > xsize) xsize = (GrB_Index) r->x_size ;
    void *Tx = r->x ;
    if (allow_full && all_present (r, nvec))
    {
        info = grbgpu_storage_pack_full (X, is_vector, r->by_col, &Tx, xsize, false, false) ;
        r->x = Tx ;                                 // NULL once GraphBLAS took it
        return info ;
    }
    int64_t nvals ;
    size_t bsize ;
    int8_t *Tb = result_bitmap (r, nvec, vlen, &nvals, &bsize) ;
    if (Tb == NULL) return GrB_OUT_OF_MEMORY ;
    info = pack_bitmap (X, is_vector, r->by_col, &Tb, &Tx, (GrB_Index) bsize,
        xsize, false, (GrB_Index) nvals) ;
    r->x = Tx ;                                     // NULL once GraphBLAS took it
    grbgpu_gb_free (Tb) ;
    return info ;
}

//------------------------------------------------------------------------------
// C's storage options, kept across a pack or unpack
//------------------------------------------------------------------------------

GrB_Info grbgpu_storage_options_get (GrB_Matrix C, bool is_vector, bool real,
    gg_c_options *o)
{
    const lib_fns *L = lib (real) ;
    GrB_Info info ;
    o->control = GxB_AUTO_SPARSITY ; o->hyper = 0 ; o->bitmap = 0 ;
    if (is_vector)
    {
        // (a vector's hyper switch through the matrix function: a pack
        // resets it, and GrB_Vector_dup copies it)
        info = L->vget ((GrB_Vector) C, GxB_SPARSITY_CONTROL, &o->control) ;
        if (info == GrB_SUCCESS) info = L->vget ((GrB_Vector) C, GxB_BITMAP_SWITCH, &o->bitmap) ;
        if (info == GrB_SUCCESS) info = L->mget (C, GxB_HYPER_SWITCH, &o->hyper) ;
        return info ;
    }
    info = L->mget (C, GxB_SPARSITY_CONTROL, &o->control) ;
    if (info == GrB_SUCCESS) info = L->mget (C, GxB_HYPER_SWITCH, &o->hyper) ;
    if (info == GrB_SUCCESS) info = L->mget (C, GxB_BITMAP_SWITCH, &o->bitmap) ;
    return info ;
}

GrB_Info grbgpu_storage_options_restore (GrB_Matrix C, bool is_vector, bool real,
    const gg_c_options *o)
{
    const lib_fns *L = lib (real) ;
    gg_c_options now ;
    GrB_Info info = grbgpu_storage_options_get (C, is_vector, real, &now) ;
    if (info != GrB_SUCCESS) return info ;
    if (is_vector)
    {
        GrB_Vector w = (GrB_Vector) C ;
        if (now.hyper != o->hyper) info = L->mset (C, GxB_HYPER_SWITCH, o->hyper) ;
        if (info == GrB_SUCCESS && now.bitmap != o->bitmap) info = L->vset (w, GxB_BITMAP_SWITCH, o->bitmap) ;
        if (info == GrB_SUCCESS && now.control != o->control) info = L->vset (w, GxB_SPARSITY_CONTROL, o->control) ;
        return info ;
    }
    if (now.control != o->control) info = L->mset (C, GxB_SPARSITY_CONTROL, o->control) ;
    if (info == GrB_SUCCESS && now.hyper != o->hyper) info = L->mset (C, GxB_HYPER_SWITCH, o->hyper) ;
    if (info == GrB_SUCCESS && now.bitmap != o->bitmap) info = L->mset (C, GxB_BITMAP_SWITCH, o->bitmap) ;
    return info ;
}

// A matrix packed as CSR is held in the storage GraphBLAS conforms it to
// (sparse, hypersparse or bitmap by its options and size), as the CPU
// library's result would be: setting the sparsity control (to what it is)
// conforms it; a pack does not
GrB_Info grbgpu_storage_conform (GrB_Matrix C, bool real, const gg_c_options *o)
{
    return lib (real)->mset (C, GxB_SPARSITY_CONTROL, o->control) ;
}

// Will T be packed straight into C (*plain)?  No mask, no accumulator, C of
// T's type and held in T's orientation (packing would change C's
// orientation otherwise: GrB_apply then transposes).
GrB_Info grbgpu_storage_plain_write (const gg_output *out, const gg_result *r,
    GrB_Type ctype, bool *plain)
{
    *plain = (out->M == NULL && out->accum == NULL && !out->mask_comp
        && ctype == r->ztype && r->pattern == NULL) ;
    if (!*plain || out->is_vector) return GrB_SUCCESS ;
    GxB_Format_Value fmt ;
    GrB_Info info = GxB_Matrix_Option_get (out->C, GxB_FORMAT, &fmt) ;
    *plain = (info == GrB_SUCCESS) && ((fmt == GxB_BY_COL) == r->by_col) ;
    return info ;
}

// Pack T into C itself, keeping C's sparsity settings (pack resets them):
// those read before C was unpacked when grbgpu_result_prepare saved them.
static GrB_Info pack_into_c (const gg_output *out, gg_result *r)
{
    gg_c_options opt = { r->opt_control, r->opt_hyper, r->opt_bitmap } ;
    GrB_Info info = r->opt_saved ? GrB_SUCCESS : grbgpu_storage_options_get (out->C, out->is_vector, false, &opt) ;
    if (info == GrB_SUCCESS) info = pack_result (out->C, out->is_vector, r, true) ;
    if (info == GrB_SUCCESS) info = grbgpu_storage_options_restore (out->C, out->is_vector, false, &opt) ;
    result_free_x (r) ;
    return info ;
}

//------------------------------------------------------------------------------
// C += T in place, when C is full
//------------------------------------------------------------------------------

// Accumulators applied in place: z = accum (c, t), all of T's type.
typedef enum { ACC_NONE = 0, ACC_PLUS, ACC_MINUS, ACC_TIMES, ACC_MIN, ACC_MAX,
    ACC_FIRST, ACC_SECOND } acc_kind ;

static acc_kind accum_kind (GrB_BinaryOp op, gg_type t)
{
    #define ACC_OPS(T) \
        if (op == GrB_PLUS_##T) return ACC_PLUS ; \
        if (op == GrB_MINUS_##T) return ACC_MINUS ; \
        if (op == GrB_TIMES_##T) return ACC_TIMES ; \
        if (op == GrB_MIN_##T) return ACC_MIN ; \
        if (op == GrB_MAX_##T) return ACC_MAX ; \
        if (op == GrB_FIRST_##T) return ACC_FIRST ; \
        if (op == GrB_SECOND_##T) return ACC_SECOND ; \
        return ACC_NONE ;
    switch (t)
    {
        case GG_INT32:  ACC_OPS (INT32)
        case GG_INT64:  ACC_OPS (INT64)
        case GG_UINT32: ACC_OPS (UINT32)
        case GG_UINT64: ACC_OPS (UINT64)
        case GG_FP32:   ACC_OPS (FP32)
        case GG_FP64:   ACC_OPS (FP64)
        default:        return ACC_NONE ;     // BOOL's renamed operators: apply
    }
    #undef ACC_OPS
}

// c [k] = accum (c [k], t [k]) over n values, where pm == NULL or pm [k] != 0.
// Integer arithmetic wraps (done unsigned).  FP MIN / MAX: a NaN operand
// gives the other one, and a tie (-0 against +0) gives t, as the CPU library
// does when it accumulates into a full C (fmin / fmax leave the sign of a
// zero tie unspecified).
#define ACC_LOOP(T, UT, FMIN, FMAX)                                             \
{                                                                               \
    T *restrict c = (T *) cx ; const T *restrict t = (const T *) tx ;          \
    switch (kind)                                                               \
    {                                                                           \
        case ACC_PLUS:   ACC_EACH (T, (T) ((UT) c [k] + (UT) t [k])) ; break ; \
        case ACC_MINUS:  ACC_EACH (T, (T) ((UT) c [k] - (UT) t [k])) ; break ; \
        case ACC_TIMES:  ACC_EACH (T, (T) ((UT) c [k] * (UT) t [k])) ; break ; \
        case ACC_MIN:    ACC_EACH (T, FMIN (c [k], t [k])) ; break ;           \
        case ACC_MAX:    ACC_EACH (T, FMAX (c [k], t [k])) ; break ;           \
        case ACC_SECOND: ACC_EACH (T, t [k]) ; break ;                         \
        default: break ;                                                        \
    }                                                                           \
}
// c [k] = e for every k, or where pm [k] (a select, so that it vectorises)
#define ACC_EACH(T, e)                                                          \
    do {                                                                        \
        if (pm == NULL)                                                         \
        {                                                                       \
            _Pragma ("omp simd")                                                \
            for (int64_t k = 0 ; k < n ; k++) c [k] = (e) ;                     \
        }                                                                       \
        else                                                                    \
        {                                                                       \
            _Pragma ("omp simd")                                                \
            for (int64_t k = 0 ; k < n ; k++) { T z_ = (e) ; c [k] = pm [k] ? z_ : c [k] ; } \
        }                                                                       \
    } while (0)
#define IMIN(a,b) ((a) < (b) ? (a) : (b))
#define IMAX(a,b) ((a) > (b) ? (a) : (b))
#define FPMIN(c,t) (isnan (c) ? (t) : isnan (t) ? (c) : ((c) < (t) ? (c) : (t)))
#define FPMAX(c,t) (isnan (c) ? (t) : isnan (t) ? (c) : ((c) > (t) ? (c) : (t)))

static void accumulate_values (acc_kind kind, gg_type t, void *cx, const void *tx,
    const int8_t *pm, int64_t n)
{
    switch (t)
    {
        case GG_INT32:  ACC_LOOP (int32_t, uint32_t, IMIN, IMAX) ; break ;
        case GG_INT64:  ACC_LOOP (int64_t, uint64_t, IMIN, IMAX) ; break ;
        case GG_UINT32: ACC_LOOP (uint32_t, uint32_t, IMIN, IMAX) ; break ;
        case GG_UINT64: ACC_LOOP (uint64_t, uint64_t, IMIN, IMAX) ; break ;
        case GG_FP32:   ACC_LOOP (float, float, FPMIN, FPMAX) ; break ;
        case GG_FP64:   ACC_LOOP (double, double, FPMIN, FPMAX) ; break ;
        default: break ;
    }
}

// x [0..n) = the value at v (zsz bytes), in parallel when large
static void fill_values (void *x, const void *v, size_t zsz, int64_t n)
{
    #define FILL(T) do { T val ; memcpy (&val, v, sizeof (T)) ; T *restrict y = (T *) x ; \
        _Pragma ("omp parallel for schedule(static) if (n > 100000)") \
        for (int64_t k = 0 ; k < n ; k++) y [k] = val ; } while (0)
    switch (zsz)
    {
        case 1: FILL (uint8_t) ; break ;
        case 2: FILL (uint16_t) ; break ;
        case 4: FILL (uint32_t) ; break ;
        case 8: FILL (uint64_t) ; break ;
        default:
            for (int64_t k = 0 ; k < n ; k++) memcpy ((char *) x + (size_t) k * zsz, v, zsz) ;
            break ;
    }
    #undef FILL
}

// Does accumulate_in_place take this write?  No mask, a built-in accumulator
// of T's type, C full and held in T's orientation.  (grbgpu_result_prepare
// asks too: then T can live in the scratch buffer.)
bool grbgpu_storage_in_place_write (const gg_output *out, const gg_result *r,
    GrB_Type ctype)
{
    if (out->M != NULL || out->accum == NULL || out->mask_comp
        || ctype != r->ztype || r->pattern != NULL
        || accum_kind (out->accum, r->zt) == ACC_NONE) return false ;
    GrB_Index nvals ;
    GxB_Format_Value fmt = GxB_BY_ROW ;
    if (out->is_vector)
    {
        if (GrB_Vector_nvals (&nvals, (GrB_Vector) out->C) != GrB_SUCCESS) return false ;
    }
    else if (GrB_Matrix_nvals (&nvals, out->C) != GrB_SUCCESS
        || GxB_Matrix_Option_get (out->C, GxB_FORMAT, &fmt) != GrB_SUCCESS
        || (fmt == GxB_BY_COL) != r->by_col) return false ;
    return (int64_t) nvals == r->nrows * r->ncols ;
}

// C = accum (C, T) with no mask, C full (every entry present; iso expanded) of T's
// type and held in T's orientation: C's value array is unpacked (O(1)),
// updated where T has entries, and packed back.  Returns false (nothing
// done) when the case does not fit; GrB_mxm's own accumulation through
// GrB_apply is exact too, but an order of magnitude slower for this case (a
// PageRank step).
static bool accumulate_in_place (const gg_output *out, gg_result *r,
    GrB_Type ctype, GrB_Info *info)
{
    // (an iso C is expanded below, as GraphBLAS would)
    if (!grbgpu_storage_in_place_write (out, r, ctype)) return false ;
    const acc_kind kind = accum_kind (out->accum, r->zt) ;

    gg_c_options opt ;
    if (grbgpu_storage_options_get (out->C, out->is_vector, false, &opt) != GrB_SUCCESS) return false ;
    void *cx = NULL ;
    GrB_Index cx_size = 0 ;
    bool c_iso = false ;
    *info = grbgpu_storage_unpack_full (out->C, out->is_vector, r->by_col, &cx, &cx_size, &c_iso, false) ;
    if (*info != GrB_SUCCESS) { result_free_x (r) ; return true ; }

    // C's values are now ours; T's stored vectors line up with C's
    const int64_t nvec = r->by_col ? r->ncols : r->nrows ;
    const int64_t vlen = r->by_col ? r->nrows : r->ncols ;
    const size_t zsz = gg_type_size (r->zt) ;
    if (c_iso)
    {
        // C held one value for all entries (e.g. PageRank's teleport term):
        // expand it, since the sum is no longer iso
        size_t bytes = (size_t) (nvec * vlen > 0 ? nvec * vlen : 1) * zsz ;
        void *full = grbgpu_alloc_result (bytes) ;     // packed into C below
        if (full == NULL)
        {
            *info = GrB_OUT_OF_MEMORY ;     // C is packed back unchanged
        }
        else
        {
            fill_values (full, cx, zsz, nvec * vlen) ;
            grbgpu_gb_free (cx) ;
            cx = full ;
            cx_size = bytes ;
            c_iso = false ;
        }
    }
    if (!c_iso && vlen == 1 && (r->present == NULL || r->present->present != NULL))
    {
        // a vector (PageRank's r += A'w): runs of 64K values, masked by the
        // presence of each row
        const int64_t chunk = 1 << 16 ;
        const int8_t *pr = (r->present != NULL) ? r->present->present : NULL ;
        #pragma omp parallel for schedule(static) if (nvec > 4 * chunk)
        for (int64_t j0 = 0 ; j0 < nvec ; j0 += chunk)
        {
            int64_t len = (nvec - j0 < chunk) ? nvec - j0 : chunk ;
            accumulate_values (kind, r->zt, (char *) cx + (size_t) j0 * zsz,
                (const char *) r->x + (size_t) j0 * zsz, pr ? pr + j0 : NULL, len) ;
        }
    }
    else if (!c_iso)
    {
        #pragma omp parallel for schedule(static) if (nvec * vlen > 100000)
        for (int64_t j = 0 ; j < nvec ; j++)
        {
            if (r->present != NULL && csr_row_count (r->present, j) == 0) continue ;
            accumulate_values (kind, r->zt, (char *) cx + (size_t) (j * vlen) * zsz,
                (const char *) r->x + (size_t) (j * vlen) * zsz, NULL, vlen) ;
        }
    }
    GrB_Info pinfo = grbgpu_storage_pack_full (out->C, out->is_vector, r->by_col, &cx, cx_size, c_iso, false) ;
    if (pinfo != GrB_SUCCESS) { grbgpu_gb_free (cx) ; *info = pinfo ; }   // (NULL if taken)
    if (*info == GrB_SUCCESS) *info = grbgpu_storage_options_restore (out->C, out->is_vector, false, &opt) ;
    result_free_x (r) ;
    return true ;
}

//------------------------------------------------------------------------------
// grbgpu_write_result
//------------------------------------------------------------------------------

static GrB_Descriptor apply_descriptor (const gg_output *out)
{
    // the call's mask and replace flags, without the input transposes
    if (out->M == NULL) return out->replace ? GrB_DESC_R : NULL ;
    int k = (out->replace ? 4 : 0) + (out->mask_struct ? 2 : 0) + (out->mask_comp ? 1 : 0) ;
    const GrB_Descriptor d [8] =
    {
        NULL, GrB_DESC_C, GrB_DESC_S, GrB_DESC_SC,
        GrB_DESC_R, GrB_DESC_RC, GrB_DESC_RS, GrB_DESC_RSC
    } ;
    return d [k] ;
}

static GrB_Info write_result (const gg_output *out, gg_result *r) ;

GrB_Info grbgpu_write_result (const gg_output *out, gg_result *r)
{
    GrB_Info info = write_result (out, r) ;
    grbgpu_gb_free (r->b) ; // C's old bitmap, when the result did not need it
    r->b = NULL ;
    return info ;
}

static GrB_Info write_result (const gg_output *out, gg_result *r)
{
    GrB_Info info ;
    GrB_Type ctype ;
    info = GxB_Matrix_type (&ctype, out->C) ;
    if (info != GrB_SUCCESS) { result_free_x (r) ; return info ; }

    //--------------------------------------------------------------------------
    // plain: pack straight into C
    //--------------------------------------------------------------------------

    bool plain ;
    info = grbgpu_storage_plain_write (out, r, ctype, &plain) ;
    if (info != GrB_SUCCESS) { result_free_x (r) ; return info ; }
    if (plain) return pack_into_c (out, r) ;

    //--------------------------------------------------------------------------
    // SDDMM under a structural mask into an empty C (or with replace): C = T
    //--------------------------------------------------------------------------

    if (r->pattern != NULL && grbgpu_storage_pattern_is_all (out, ctype, r->ztype))
    {
        return pack_into_c (out, r) ;
    }

    //--------------------------------------------------------------------------
    // C = accum (C, T) in place when C is full
    //--------------------------------------------------------------------------

    if (accumulate_in_place (out, r, ctype, &info)) return info ;

    //--------------------------------------------------------------------------
    // general: T as a temporary, then C<M,replace> = accum (C, T)
    //--------------------------------------------------------------------------

    if (r->x_scratch)
    {
        // the in-place write declined after all: T goes to GraphBLAS, which
        // frees what it is given, so it gets a copy
        const size_t bytes = (size_t) (r->nrows * r->ncols > 0 ? r->nrows * r->ncols : 1)
            * gg_type_size (r->zt) ;
        void *copy = grbgpu_alloc_result (bytes) ;
        if (copy == NULL) { result_free_x (r) ; return GrB_OUT_OF_MEMORY ; }
        memcpy (copy, r->x, bytes) ;
        r->x = copy ; r->x_size = bytes ; r->x_scratch = false ; r->x_fresh = true ;
    }
    GrB_Matrix T = NULL ;
    if (out->is_vector) info = GrB_Vector_new ((GrB_Vector *) &T, r->ztype, (GrB_Index) r->nrows) ;
    else info = GrB_Matrix_new (&T, r->ztype, (GrB_Index) r->nrows, (GrB_Index) r->ncols) ;
    // SuiteSparse 7.4 can crash in C<M> += T when T is held full: hand T
    // over as bitmap whenever there is a mask and an accumulator
    bool allow_full = !(out->M != NULL && out->accum != NULL) ;
    if (info == GrB_SUCCESS) info = pack_result (T, out->is_vector, r, allow_full) ;
    if (info == GrB_SUCCESS)
    {
        GrB_Descriptor d = apply_descriptor (out) ;
        GrB_UnaryOp id = identity_op (r->zt) ;
        if (out->is_vector)
            info = GrB_Vector_apply ((GrB_Vector) out->C, (GrB_Vector) out->M, out->accum, id, (GrB_Vector) T, d) ;
        else
            info = GrB_Matrix_apply (out->C, out->M, out->accum, id, T, d) ;
    }
    result_free_x (r) ;
    if (T != NULL)
    {
        if (out->is_vector) GrB_Vector_free ((GrB_Vector *) &T) ;
        else GrB_Matrix_free (&T) ;
    }
    return info ;
}
