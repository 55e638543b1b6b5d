//------------------------------------------------------------------------------
// backend/cuda/form_exp.c: expf on a resident buffer, bit for bit the host's
//------------------------------------------------------------------------------

// gg_backend.vec_exp (kernels/gg_kernels.h): z [i] = expf (x [i]) for FP32
// device buffers, giving exactly the bits of the host libm's expf, which the
// CPU library's GxB_EXP_FP32 calls.  kernels/vec_ops/vec_exp.h says how: the
// first kernel writes every entry whose double exp is far enough from a
// float rounding boundary and lists the others (about 1 % in range, plus
// NaN, Inf and everything outside [-87, 88]) with their inputs; the list
// comes down, the host's expf computes it, and the answers go up and are
// scattered into z.  z may be x: the first kernel reads each x [i] before
// writing z [i] and never writes a listed entry's z [i].
//
// The list of the first pass holds up to n entries for small vectors and
// n/16 + 64 Ki for large ones (whose temporaries would otherwise be three
// times the vector); such a pass also marks every hard entry in a bitmap (n
// bits), and when the count exceeds the list (mostly NaN or huge values), a
// list of the exact count is collected again from the bitmap.  FP64 is not
// supported: the device has no exact double exp to compare with the host's.
// Runs like the operations of form_resident.c (res_begin / res_end there).

#include "backend/cuda/cuda_internal.h"
#include "kernels/vec_ops/vec_exp_cuda.h"

#include <math.h>
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

// vectors up to this size get a list of n entries in the first pass
#define EXP_WHOLE_LIST ((int64_t) 1 << 20)
// the host's expf goes parallel past this many hard entries
#define EXP_HOST_PARALLEL 65536

// (res_begin / res_end: form_resident.c's, cuda_internal.h)

// One device temporary for a list of cap entries: the counter, cap indices,
// cap inputs (then answers).
typedef struct
{
    unsigned long long *count ;
    int64_t *idx ;
    float *x ;
}
exp_list ;

static int list_alloc (gg_devcall *c, exp_list *l, int64_t cap)
{
    void *p = NULL ;
    const size_t bytes = sizeof (unsigned long long)
        + (size_t) cap * (sizeof (int64_t) + sizeof (float)) ;
    int rc = tmp_alloc (c, &p, bytes) ;
    if (rc != GG_OK) return rc ;
    l->count = (unsigned long long *) p ;
    l->idx = (int64_t *) ((char *) p + sizeof (unsigned long long)) ;
    l->x = (float *) (l->idx + cap) ;
    return GG_OK ;
}

int cuda_vec_exp (gg_type t, int64_t n, void *z, const void *x)
{
    if (t != GG_FP32) return GG_ERR_UNSUPPORTED ;
    if (n <= 0) return GG_OK ;
    int old, rc ;
    gg_devcall c ;
    exp_list l = { NULL, NULL, NULL } ;
    uint32_t *mask = NULL ;
    unsigned long long nhard = 0, again = 0 ;
    float *hv = NULL ;
    int64_t nh = 0 ;
    const int64_t cap = (n <= EXP_WHOLE_LIST) ? n : n / 16 + 65536 ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc != GG_OK) goto done ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    GG_TRY (list_alloc (&c, &l, cap)) ;
    if (cap < n)
    {
        GG_TRY (tmp_alloc (&c, (void **) &mask,
            gg_cuda_vec_exp_mask_words (n) * sizeof (uint32_t))) ;
    }
    GG_TRY (gg_cuda_vec_exp_pass1 (n, (float *) z, (const float *) x, l.count,
        l.idx, l.x, cap, mask, c.ctx->stream)) ;
    GG_TRY (download (&c, &nhard, l.count, sizeof (nhard))) ;
    if (nhard == 0) goto done ;
    if (nhard > (unsigned long long) cap)
    {
        // more than the first list holds (mask is set: cap < n): all again
        // from the bitmap, into a list of the exact count
        GG_TRY (list_alloc (&c, &l, (int64_t) nhard)) ;
        GG_TRY (gg_cuda_vec_exp_collect (n, (const float *) x, mask, l.count,
            l.idx, l.x, (int64_t) nhard, c.ctx->stream)) ;
        GG_TRY (download (&c, &again, l.count, sizeof (again))) ;
        if (again != nhard)
        {
            grbgpu_log (1, "cuda: vec_exp listed %llu hard entries, then %llu",
                nhard, again) ;
            rc = GG_ERR_DEVICE ;
            goto done ;
        }
    }
    hv = (float *) malloc ((size_t) nhard * sizeof (float)) ;
    if (hv == NULL)
    {
        rc = GG_ERR_NOMEM ;
        goto done ;
    }
    GG_TRY (download (&c, hv, l.x, (size_t) nhard * sizeof (float))) ;
    nh = (int64_t) nhard ;
#ifdef _OPENMP
    #pragma omp parallel for if (nh > EXP_HOST_PARALLEL) schedule (static)
#endif
    for (int64_t k = 0 ; k < nh ; k++) hv [k] = expf (hv [k]) ;
    GG_TRY (upload (&c, l.x, hv, (size_t) nhard * sizeof (float))) ;
    GG_TRY (gg_cuda_vec_exp_scatter (nh, (float *) z, l.idx, l.x, c.ctx->stream)) ;
done:
    res_end (&c, old, &rc) ;
    free (hv) ;
    return rc ;
}
