//------------------------------------------------------------------------------
// backend/cuda/cuda_module.c: the CUDA module's entry point
//------------------------------------------------------------------------------

// grbgpu_cuda_module_open is the one symbol libgrbgpu.so looks up in
// libgrbgpu-cuda.so (backend/cuda/cuda_module.h).  It keeps the host's services
// for backend/cuda/cuda_shim.c and returns the module's table.  Programs that
// link the module's objects beside the host's (GPU tests, benchmarks) reach it
// directly, with no services: the grbgpu_* functions are then the host's own.

#include "config.h"
#include "backend/cuda/cuda_module.h"

#include <stdio.h>

GG_INTERNAL const gg_host_services *gg_host = NULL ;

static const gg_cuda_module module =
{
    .abi = GG_CUDA_MODULE_ABI,
    .backend = gg_cuda_backend,
    .sync = gg_cuda_sync,
    .budget = gg_cuda_budget,
    .timing = gg_cuda_timing,
    .last_product_ms = gg_cuda_last_product_ms,
} ;

const gg_cuda_module *grbgpu_cuda_module_open (const gg_host_services *host)
{
    if (host != NULL)
    {
        if (host->abi != GG_CUDA_MODULE_ABI)
        {
            // the host's logging is out of reach when the ABI differs
            fprintf (stderr, "grbgpu: the CUDA module (ABI %d) does not match "
                "libgrbgpu.so (ABI %d): not used\n", GG_CUDA_MODULE_ABI, host->abi) ;
            return NULL ;
        }
        gg_host = host ;
    }
    return &module ;
}
