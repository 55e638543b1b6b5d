//------------------------------------------------------------------------------
// kernels/vec_ops/vec_exp_cuda.h: launchers of the expf kernels (vec_exp.cu)
//------------------------------------------------------------------------------

// z [i] = expf (x [i]), bit for bit the host's, on device buffers of n floats
// (z == x allowed; partly overlapping buffers are not).  The entries
// kernels/vec_ops/vec_exp.h calls easy are written by the first pass; the
// hard ones go to a list that the caller brings to the host, computes with
// the host's expf and hands back to the scatter (backend/cuda/form_exp.c):
//
//   gg_cuda_vec_exp_pass1    (count = 0 first) easy z [i] written; each hard
//                            i (z [i] not written) counted in *count and,
//                            while the count is below cap, put in the list:
//                            hidx [k] = i, hx [k] = x [i]; with mask (n bits,
//                            gg_cuda_vec_exp_mask_words (n) words, zeroed
//                            here) every hard i also sets its bit there
//   gg_cuda_vec_exp_collect  after a pass1 whose count exceeded its cap: the
//                            whole list again from the mask, into lists of
//                            cap >= that count (x [i] is still the input
//                            there, also with z == x, since pass1 left hard
//                            entries alone)
//   gg_cuda_vec_exp_scatter  z [hidx [k]] = hv [k], k < nhard
//
// All pointers are device memory; stream ordered, no synchronisation.
// Return GG_OK, or GG_ERR_DEVICE for a launch (or memset) error.

#ifndef GG_VEC_EXP_CUDA_H
#define GG_VEC_EXP_CUDA_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t gg_cuda_vec_exp_mask_words (int64_t n) ;
int gg_cuda_vec_exp_pass1 (int64_t n, float *z, const float *x,
    unsigned long long *count, int64_t *hidx, float *hx, int64_t cap,
    uint32_t *mask, cudaStream_t stream) ;
int gg_cuda_vec_exp_collect (int64_t n, const float *x, const uint32_t *mask,
    unsigned long long *count, int64_t *hidx, float *hx, int64_t cap,
    cudaStream_t stream) ;
int gg_cuda_vec_exp_scatter (int64_t nhard, float *z, const int64_t *hidx,
    const float *hv, cudaStream_t stream) ;

#ifdef __cplusplus
}
#endif

#endif
