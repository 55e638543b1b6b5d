//------------------------------------------------------------------------------
// backend/cuda/cuda_shim.c: the host's services inside libgrbgpu-cuda.so
//------------------------------------------------------------------------------

// Linked into the CUDA module only (never into a program that also links the
// host's objects): the grbgpu_* functions that backend/cuda/ calls, each
// forwarding to the table libgrbgpu.so handed to grbgpu_cuda_module_open
// (backend/cuda/cuda_module.h).  The loader opens the module only to call that
// function, so the table is set before any of these runs.

#include "config.h"
#include "backend/cuda/cuda_module.h"

GG_INTERNAL extern const gg_host_services *gg_host ;

const gg_settings *grbgpu_settings_get (void)
{
    return gg_host->settings () ;
}

void grbgpu_log (int level, const char *fmt, ...)
{
    va_list ap ;
    va_start (ap, fmt) ;
    gg_host->vlog (level, fmt, ap) ;
    va_end (ap) ;
}

void grbgpu_count (gg_stat which, uint64_t n)
{
    gg_host->count (which, n) ;
}

void grbgpu_count_seconds (int which, double seconds)
{
    gg_host->count_seconds (which, seconds) ;
}

bool grbgpu_fault (gg_fault_point point)
{
    return gg_host->fault (point) ;
}

void grbgpu_cache_account_device (gg_cache_entry *e, int device, size_t bytes)
{
    gg_host->cache_account_device (e, device, bytes) ;
}

size_t grbgpu_cache_evict_device (int device, size_t bytes)
{
    return gg_host->cache_evict_device (device, bytes) ;
}

void grbgpu_cache_set_device_budget (int device, size_t bytes)
{
    gg_host->cache_set_device_budget (device, bytes) ;
}

void grbgpu_cache_clear (void)
{
    gg_host->cache_clear () ;
}

gg_cache_entry *grbgpu_cache_acquire (const gg_cache_key *key)
{
    return gg_host->cache_acquire (key) ;
}

gg_cache_entry *grbgpu_cache_insert (const gg_cache_key *key, void *host,
    size_t host_bytes, void (*host_free) (void *))
{
    return gg_host->cache_insert (key, host, host_bytes, host_free) ;
}

void grbgpu_cache_release (gg_cache_entry *e)
{
    gg_host->cache_release (e) ;
}
