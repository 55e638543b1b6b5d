//------------------------------------------------------------------------------
// backend/host/host_exp.c: expf on the host emulation's buffers
//------------------------------------------------------------------------------

// gg_backend.vec_exp of the host emulation, by the CUDA backend's method
// (backend/cuda/form_exp.c): the entries kernels/vec_ops/vec_exp.h calls
// easy get (float) exp ((double) x) from glibc's double exp, the hard ones
// the real expf, so that make check (no GPU) runs the classification the
// GPU relies on and compares it with expf bit for bit (tests/test_exp.c).
// z may be x: each entry is read before it is written.  FP32 only.

#include "backend/host/host_vec_ops.h"
#include "kernels/vec_ops/vec_exp.h"

#ifdef _OPENMP
#include <omp.h>
#endif

// entries past which the loop runs in parallel
#define HOST_EXP_PARALLEL 65536

int host_vec_exp (gg_type t, int64_t n, void *z, const void *x)
{
    if (t != GG_FP32) return GG_ERR_UNSUPPORTED ;
    if (n <= 0) return GG_OK ;
    float *zf = (float *) z ;
    const float *xf = (const float *) x ;
#ifdef _OPENMP
    #pragma omp parallel for if (n > HOST_EXP_PARALLEL) schedule (static)
#endif
    for (int64_t i = 0 ; i < n ; i++)
    {
        const float xi = xf [i] ;
        float r ;
        zf [i] = gg_exp_fp32_easy (xi, &r) ? r : expf (xi) ;
    }
    return GG_OK ;
}
