//------------------------------------------------------------------------------
// formats/csr_t.c: what a product by a CSR's transpose needs on the host
//------------------------------------------------------------------------------

// A product by op (A)' whose storage gives op (A) directly (GrB_vxm with A
// held by row, GrB_mxv with A held by column, GrB_mxm with a transposed
// input) hands a backend that can transpose on its own (gg_backend's
// spmm_transposed) the direct CSR and the flag.  The host then needs only
// which rows of the transpose have entries, for the write-back
// (gg_csr_form_columns: a pass over the column indices, no transpose).  The
// host emulation backend transposes (gg_csr32_transpose), as the device does.

#include "formats/convert.h"

#include <stdlib.h>
#include <string.h>

int gg_csr_form_columns (gg_csr_form *f)
{
    if (f->col_done) return GG_OK ;
    const gg_csr *S = &f->csr ;
    if (S->i32 == NULL && S->nnz > 0) return GG_ERR_UNSUPPORTED ;
    const int64_t k = S->ncols, nnz = S->nnz ;
    int8_t *pr = calloc ((size_t) (k > 0 ? k : 1), 1) ;
    if (pr == NULL) return GG_ERR_NOMEM ;
    const int32_t *ci = S->i32 ;
    // every store writes 1: a relaxed atomic store keeps it defined when two
    // threads mark the same column
    #pragma omp parallel for schedule(static) if (nnz > 1000000)
    for (int64_t q = 0 ; q < nnz ; q++)
    {
        int8_t *c = pr + ci [q] ;
        if (__atomic_load_n (c, __ATOMIC_RELAXED) == 0) __atomic_store_n (c, 1, __ATOMIC_RELAXED) ;
    }
    int64_t count = 0 ;
    #pragma omp parallel for schedule(static) reduction(+:count) if (k > 1000000)
    for (int64_t c = 0 ; c < k ; c++) count += pr [c] ;
    f->col_present = pr ;
    f->col_nonempty = count ;
    f->col_done = true ;
    return GG_OK ;
}

int gg_csr32_transpose (int64_t m, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, size_t elem, int32_t **pt, int32_t **it,
    void **xt)
{
    *pt = NULL ; *it = NULL ;
    if (xt != NULL) *xt = NULL ;
    int32_t *tp = calloc ((size_t) k + 1, sizeof (int32_t)) ;
    int32_t *ti = malloc ((size_t) (nnz > 0 ? nnz : 1) * sizeof (int32_t)) ;
    void *tx = (x != NULL) ? malloc ((size_t) (nnz > 0 ? nnz : 1) * elem) : NULL ;
    int32_t *pos = malloc ((size_t) (k > 0 ? k : 1) * sizeof (int32_t)) ;
    if (tp == NULL || ti == NULL || pos == NULL || (x != NULL && tx == NULL))
    {
        free (tp) ; free (ti) ; free (tx) ; free (pos) ;
        return GG_ERR_NOMEM ;
    }
    // count, scan, then scatter in row order (each row of the result sorted)
    for (int64_t q = 0 ; q < nnz ; q++) tp [i [q] + 1]++ ;
    for (int64_t c = 0 ; c < k ; c++) tp [c+1] += tp [c] ;
    memcpy (pos, tp, (size_t) k * sizeof (int32_t)) ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        for (int64_t q = p [r] ; q < p [r+1] ; q++)
        {
            int32_t d = pos [i [q]]++ ;
            ti [d] = (int32_t) r ;
            if (tx != NULL) memcpy ((char *) tx + (size_t) d * elem, (const char *) x + (size_t) q * elem, elem) ;
        }
    }
    free (pos) ;
    *pt = tp ; *it = ti ;
    if (xt != NULL) *xt = tx ;
    return GG_OK ;
}
