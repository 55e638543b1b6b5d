//------------------------------------------------------------------------------
// backend/resident/resident_csr.c: a matrix resident on a pattern
//------------------------------------------------------------------------------

// A matrix on a pattern (an SDDMM's result C<struct(M)> = A*B', and what
// element-wise and row-wise operations make of it on the device,
// backend/dispatch/mat_pattern.c) holds, on the host, M's structure (CSR,
// by row; GraphBLAS may hold it hypersparse) with one iso placeholder value;
// its buffer holds its values in the order of the CSR entries.  Its
// structure is exactly what the CPU library would give it, so nvals and
// every structural query are right without a download; materialising unpacks
// the placeholder as sorted CSR (the entries in that order) and packs the
// values in.

#include "config.h"
#include "backend/resident/resident_private.h"
#include "backend/interpose/galloc.h"
#include "backend/storage/storage.h"

#include <string.h>

typedef GrB_Info (*munpack_csr_fn) (GrB_Matrix, GrB_Index **, GrB_Index **, void **,
    GrB_Index *, GrB_Index *, GrB_Index *, bool *, bool *, const GrB_Descriptor) ;

GrB_Info grbgpu_res_pack_placeholder (GrB_Matrix obj, const gg_resident *r)
{
    const size_t zsz = gg_type_size (r->zt) ;
    void *p = grbgpu_gb_calloc (1, zsz) ;
    if (p == NULL) return GrB_OUT_OF_MEMORY ;
    GrB_Info info ;
    if (r->on_csr)
    {
        GrB_Index *Ap = NULL, *Aj = NULL ;
        size_t ap_size = 0, aj_size = 0 ;
        info = grbgpu_storage_csr_arrays (&r->csr, &Ap, &ap_size, &Aj, &aj_size) ;
        if (info == GrB_SUCCESS)
        {
            info = REAL (gg_mpack_csr_fn, "GxB_Matrix_pack_CSR") (obj, &Ap, &Aj, &p,
                ap_size, aj_size, zsz, true, false, NULL) ;
        }
        grbgpu_gb_free (Ap) ; grbgpu_gb_free (Aj) ;     // (NULL once packed)
    }
    else
    {
        int64_t bnvals = 0 ;
        int8_t *b = grbgpu_res_rows_bitmap (&r->csr, r->ncols, &bnvals) ;
        const GrB_Index b_size = (GrB_Index) (r->nrows * r->ncols > 0 ? r->nrows * r->ncols : 1) ;
        info = (b == NULL) ? GrB_OUT_OF_MEMORY
            : REAL (gg_mpack_bitmap_fn, "GxB_Matrix_pack_BitmapR") (obj, &b, &p, b_size, zsz,
                true, (GrB_Index) bnvals, NULL) ;
        grbgpu_gb_free (b) ;
    }
    grbgpu_gb_free (p) ;
    return info ;
}

GrB_Info grbgpu_res_fill_csr (GrB_Matrix obj, const gg_resident *r, size_t *down)
{
    const size_t zsz = gg_type_size (r->zt) ;
    const int64_t nvals = r->nvals ;
    const size_t x_size = (size_t) (nvals > 0 ? nvals : 1) * zsz ;
    *down = 0 ;
    // the values first: a failed download leaves obj untouched
    void *x = grbgpu_gb_malloc (x_size) ;
    if (x == NULL) return GrB_OUT_OF_MEMORY ;
    if (nvals > 0 && grbgpu_res_fetch (r, x, (size_t) nvals * zsz) != GG_OK)
    {
        grbgpu_gb_free (x) ;
        return GrB_OUT_OF_MEMORY ;
    }
    GrB_Index *Ap = NULL, *Aj = NULL, ap_size = 0, aj_size = 0, old_size = 0 ;
    void *old = NULL ;
    bool iso = false ;
    // (jumbled NULL: the entries come back sorted, in the CSR's order)
    GrB_Info info = REAL (munpack_csr_fn, "GxB_Matrix_unpack_CSR") (obj, &Ap, &Aj, &old,
        &ap_size, &aj_size, &old_size, &iso, NULL, NULL) ;
    if (info != GrB_SUCCESS) { grbgpu_gb_free (x) ; return info ; }
    gg_mpack_csr_fn pack = REAL (gg_mpack_csr_fn, "GxB_Matrix_pack_CSR") ;
    if ((int64_t) Ap [r->nrows] != nvals)
    {
        // (cannot happen: the structure is the registry's)
        grbgpu_log (1, "resident: %p holds %lld entries, its buffer %lld", (void *) obj,
            (long long) Ap [r->nrows], (long long) nvals) ;
        info = GrB_INVALID_OBJECT ;
    }
    else
    {
        info = pack (obj, &Ap, &Aj, &x, ap_size, aj_size, x_size, false, false, NULL) ;
    }
    if (info != GrB_SUCCESS)
    {
        // put the placeholder back (obj is empty now)
        grbgpu_gb_free (x) ;
        if (pack (obj, &Ap, &Aj, &old, ap_size, aj_size, old_size, iso, false, NULL) != GrB_SUCCESS)
        {
            grbgpu_gb_free (Ap) ; grbgpu_gb_free (Aj) ; grbgpu_gb_free (old) ;
        }
        return info ;
    }
    grbgpu_gb_free (old) ;      // the placeholder
    *down = (size_t) nvals * zsz ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// a matrix of full and absent rows
//------------------------------------------------------------------------------

typedef GrB_Info (*munpack_bitmap_fn) (GrB_Matrix, int8_t **, void **, GrB_Index *,
    GrB_Index *, bool *, GrB_Index *, const GrB_Descriptor) ;

int8_t *grbgpu_res_rows_bitmap (const gg_csr *csr, int64_t ncols, int64_t *nvals)
{
    const int64_t m = csr->nrows ;
    int8_t *b = grbgpu_gb_malloc ((size_t) (m * ncols > 0 ? m * ncols : 1)) ;
    if (b == NULL) return NULL ;
    int64_t rows = 0 ;
    #pragma omp parallel for schedule(static) reduction(+:rows) if (m * ncols > 1000000)
    for (int64_t i = 0 ; i < m ; i++)
    {
        const bool has = csr->p32 [i+1] > csr->p32 [i] ;
        memset (b + i * ncols, has, (size_t) ncols) ;
        rows += has ;
    }
    *nvals = rows * ncols ;
    return b ;
}

GrB_Info grbgpu_res_fill_rows (GrB_Matrix obj, const gg_resident *r, size_t *down)
{
    const size_t zsz = gg_type_size (r->zt) ;
    const int64_t n = r->nrows * r->ncols ;
    const size_t x_size = (size_t) (n > 0 ? n : 1) * zsz ;
    *down = 0 ;
    void *x = grbgpu_gb_malloc (x_size) ;
    if (x == NULL) return GrB_OUT_OF_MEMORY ;
    if (n > 0 && grbgpu_res_fetch (r, x, (size_t) n * zsz) != GG_OK)
    {
        grbgpu_gb_free (x) ;
        return GrB_OUT_OF_MEMORY ;
    }
    int8_t *b = NULL ;
    void *old = NULL ;
    GrB_Index b_size = 0, old_size = 0, nvals = 0 ;
    bool iso = false ;
    GrB_Info info = REAL (munpack_bitmap_fn, "GxB_Matrix_unpack_BitmapR") (obj, &b, &old,
        &b_size, &old_size, &iso, &nvals, NULL) ;
    if (info != GrB_SUCCESS) { grbgpu_gb_free (x) ; return info ; }
    gg_mpack_bitmap_fn pack = REAL (gg_mpack_bitmap_fn, "GxB_Matrix_pack_BitmapR") ;
    info = pack (obj, &b, &x, b_size, x_size, false, nvals, NULL) ;
    if (info != GrB_SUCCESS)
    {
        grbgpu_gb_free (x) ;
        if (pack (obj, &b, &old, b_size, old_size, iso, nvals, NULL) != GrB_SUCCESS)
        {
            grbgpu_gb_free (b) ; grbgpu_gb_free (old) ;
        }
        return info ;
    }
    grbgpu_gb_free (old) ;
    *down = (size_t) n * zsz ;
    return GrB_SUCCESS ;
}
