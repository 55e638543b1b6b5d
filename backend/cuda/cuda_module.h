//------------------------------------------------------------------------------
// backend/cuda/cuda_module.h: the contract of libgrbgpu.so and its CUDA module
//------------------------------------------------------------------------------

// The CUDA backend (backend/cuda/, the kernels, cuSPARSE, cuBLAS and the
// CUDA runtime) lives in a module of its own, libgrbgpu-cuda.so, which
// libgrbgpu.so opens with dlopen the first time a call wants a GPU
// (backend/cuda/cuda_loader.c).  libgrbgpu.so itself names no CUDA library
// among its DT_NEEDED entries, so a process that preloads it pays nothing for
// CUDA until it offloads (the CUDA libraries take ~0.4 s to map and relocate).
//
// The module needs a few services of the host library (logging, statistics,
// fault injection, the cache's device accounting, the settings); their
// symbols are hidden in libgrbgpu.so, so the loader hands them over as a
// table of function pointers, and the module's backend/cuda/cuda_shim.c turns
// the table back into the usual grbgpu_* functions for backend/cuda/.  Programs
// that link the module's objects directly (the GPU tests and benchmarks) need
// no table: the loader finds grbgpu_cuda_module_open linked in and calls it.
//
// The ABI number changes with any change to either struct: a module of
// another build is refused (logged), and the CPU library answers.

#ifndef GRBGPU_CUDA_MODULE_H
#define GRBGPU_CUDA_MODULE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "backend/grbgpu_internal.h"
#include "backend/cache/cache.h"

#define GG_CUDA_MODULE_ABI 12  // 5: gg_csr.transposed, gg_backend.spmm_transposed; 6: vector operations;
                               // 7: device ids in the cache's device accounting, split_workers;
                               // 8: vec_reduce on a pattern, vec_select; 9: gg_vec_args.present_dev;
                               // 10: gg_vop MIN, MAX, ISEQ ... ISLE; 11: gg_backend.gemm_res;
                               // 12: gg_csr.x_dev, sddmm_res, csr_row_reduce, csr_row_op, vec_exp
#define GG_CUDA_MODULE_NAME "libgrbgpu-cuda.so"
#define GG_CUDA_MODULE_ENTRY "grbgpu_cuda_module_open"

// What libgrbgpu.so lends the module.
typedef struct
{
    int abi ;                                   // GG_CUDA_MODULE_ABI
    const gg_settings *(*settings) (void) ;     // the settings in force
    void (*vlog) (int level, const char *fmt, va_list ap) ;
    void (*count) (gg_stat which, uint64_t n) ;
    void (*count_seconds) (int which, double seconds) ;
    bool (*fault) (gg_fault_point point) ;
    void (*cache_account_device) (gg_cache_entry *e, int device, size_t bytes) ;
    size_t (*cache_evict_device) (int device, size_t bytes) ;
    void (*cache_set_device_budget) (int device, size_t bytes) ;
    void (*cache_clear) (void) ;
    // the split path (backend/cuda/multi.c) keeps each slot's row block in
    // an entry of its own, keyed beside the whole operand's
    gg_cache_entry *(*cache_acquire) (const gg_cache_key *key) ;
    gg_cache_entry *(*cache_insert) (const gg_cache_key *key, void *host,
        size_t host_bytes, void (*host_free) (void *)) ;
    void (*cache_release) (gg_cache_entry *e) ;
}
gg_host_services ;

// What the module offers (see backend/cuda/device.h for the last four).
typedef struct
{
    int abi ;                                   // GG_CUDA_MODULE_ABI
    const gg_backend *(*backend) (void) ;       // starts CUDA; NULL: no device
    void (*sync) (void) ;
    size_t (*budget) (void) ;
    void (*timing) (bool on) ;
    double (*last_product_ms) (void) ;
}
gg_cuda_module ;

// The module's one exported symbol: records the host's services (NULL when
// the module's objects are linked into the program beside the host's) and
// returns the module's table, or NULL when the ABI differs.
typedef const gg_cuda_module *(*gg_cuda_module_open_fn)
    (const gg_host_services *host) ;

#ifdef __cplusplus
extern "C"
#endif
GG_EXPORT const gg_cuda_module *grbgpu_cuda_module_open
    (const gg_host_services *host) ;

// The module's side (used by the module's table).
GG_INTERNAL const gg_backend *gg_cuda_backend (void) ;   // backend.c
GG_INTERNAL bool gg_cuda_start (void) ;                   // runtime.c
GG_INTERNAL void gg_cuda_sync (void) ;
GG_INTERNAL size_t gg_cuda_budget (void) ;
GG_INTERNAL void gg_cuda_timing (bool on) ;
GG_INTERNAL double gg_cuda_last_product_ms (void) ;

#endif
