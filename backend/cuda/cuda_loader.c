//------------------------------------------------------------------------------
// backend/cuda/cuda_loader.c: open the CUDA module on first use
//------------------------------------------------------------------------------

// grbgpu_cuda_backend () is what the dispatcher calls when a call wants the
// GPU.  The first such call opens libgrbgpu-cuda.so
// (backend/cuda/cuda_module.h), hands it the host's services and keeps its
// table; CUDA itself starts inside the module, also lazily.  Until then nothing
// of CUDA is in the process: a program that preloads libgrbgpu.so and never
// offloads (or runs with GRBGPU_DEVICE=host or cpu, or GRBGPU_DISABLE=1) never
// maps a CUDA library.
//
// Where the module is looked for, first found wins:
//  1. GRBGPU_CUDA_MODULE (a path), when set;
//  2. beside libgrbgpu.so itself (dladdr), as installed and in the build tree;
//  3. the dynamic loader's search path (LD_LIBRARY_PATH, ld.so.cache).
// A program linked with the module's objects (the GPU tests and benchmarks)
// has grbgpu_cuda_module_open already: it is used and nothing is opened.
//
// A module that is missing, fails to load (no CUDA runtime on this machine)
// or has another ABI leaves grbgpu_cuda_backend () NULL: every call then goes
// to the CPU library, as on a machine without a GPU (logged at
// GRBGPU_VERBOSE=1, once).

#include "config.h"
#include "backend/cuda/cuda_module.h"
#include "backend/cuda/device.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Defined when the module's objects are linked into this program.
#pragma weak grbgpu_cuda_module_open

static pthread_once_t load_once = PTHREAD_ONCE_INIT ;
static const gg_cuda_module *module = NULL ;

static const gg_host_services services =
{
    .abi = GG_CUDA_MODULE_ABI,
    .settings = grbgpu_settings_get,
    .vlog = grbgpu_vlog,
    .count = grbgpu_count,
    .count_seconds = grbgpu_count_seconds,
    .fault = grbgpu_fault,
    .cache_account_device = grbgpu_cache_account_device,
    .cache_evict_device = grbgpu_cache_evict_device,
    .cache_set_device_budget = grbgpu_cache_set_device_budget,
    .cache_clear = grbgpu_cache_clear,
    .cache_acquire = grbgpu_cache_acquire,
    .cache_insert = grbgpu_cache_insert,
    .cache_release = grbgpu_cache_release,
} ;

// dlopen path, logging what failed; NULL when not opened.
static void *open_module (const char *path, bool quiet)
{
    void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL) ;
    if (h == NULL && !quiet) grbgpu_log (1, "cuda: %s", dlerror ()) ;
    return h ;
}

static void *find_module (void)
{
    const char *env = getenv ("GRBGPU_CUDA_MODULE") ;
    if (env != NULL && *env) return open_module (env, false) ;

    // beside the library that holds this function
    Dl_info self ;
    if (dladdr ((void *) find_module, &self) && self.dli_fname != NULL)
    {
        const char *slash = strrchr (self.dli_fname, '/') ;
        size_t dir = (slash != NULL) ? (size_t) (slash - self.dli_fname) : 0 ;
        char path [PATH_MAX] ;
        if (slash != NULL && dir + 1 + sizeof (GG_CUDA_MODULE_NAME) <= sizeof (path))
        {
            memcpy (path, self.dli_fname, dir) ;
            path [dir] = '/' ;
            memcpy (path + dir + 1, GG_CUDA_MODULE_NAME, sizeof (GG_CUDA_MODULE_NAME)) ;
            void *h = open_module (path, true) ;
            if (h != NULL) return h ;
        }
    }
    return open_module (GG_CUDA_MODULE_NAME, false) ;
}

static void load (void)
{
    grbgpu_settings_init () ;
#ifdef GRBGPU_HAVE_CUDA
    if (grbgpu_cuda_module_open != NULL)
    {
        __atomic_store_n (&module, grbgpu_cuda_module_open (NULL), __ATOMIC_RELEASE) ;
        return ;
    }
    void *h = find_module () ;
    if (h == NULL)
    {
        grbgpu_log (1, "cuda: the CUDA module (%s) could not be loaded: "
            "no GPU offload in this process", GG_CUDA_MODULE_NAME) ;
        return ;
    }
    gg_cuda_module_open_fn open_fn ;
    *(void **) (&open_fn) = dlsym (h, GG_CUDA_MODULE_ENTRY) ;
    const gg_cuda_module *m = (open_fn != NULL) ? open_fn (&services) : NULL ;
    __atomic_store_n (&module, m, __ATOMIC_RELEASE) ;
    if (m == NULL)
    {
        grbgpu_log (1, "cuda: %s is not a usable CUDA module of this build",
            GG_CUDA_MODULE_NAME) ;
        dlclose (h) ;
    }
    else
    {
        grbgpu_log (2, "cuda: module loaded") ;
    }
#else
    (void) services ;
    grbgpu_log (1, "cuda: built without CUDA") ;
#endif
}

// Open the module if not yet done; its table or NULL.
static const gg_cuda_module *loaded (void)
{
    pthread_once (&load_once, load) ;
    return __atomic_load_n (&module, __ATOMIC_ACQUIRE) ;
}

// The module's table if it is open already (never opens it).
static const gg_cuda_module *if_loaded (void)
{
    return __atomic_load_n (&module, __ATOMIC_ACQUIRE) ;
}

const gg_backend *grbgpu_cuda_backend (void)
{
    const gg_cuda_module *m = loaded () ;
    return (m != NULL) ? m->backend () : NULL ;
}

//------------------------------------------------------------------------------
// for tests and benchmarks (backend/cuda/device.h)
//------------------------------------------------------------------------------

void grbgpu_cuda_sync (void)
{
    const gg_cuda_module *m = if_loaded () ;
    if (m != NULL) m->sync () ;
}

size_t grbgpu_cuda_budget (void)
{
    const gg_cuda_module *m = if_loaded () ;
    return (m != NULL) ? m->budget () : 0 ;
}

void grbgpu_cuda_timing (bool on)
{
    // benchmarks turn timing on before their first call: open the module
    // (CUDA itself still starts at the first product)
    const gg_cuda_module *m = loaded () ;
    if (m != NULL) m->timing (on) ;
}

double grbgpu_cuda_last_product_ms (void)
{
    const gg_cuda_module *m = if_loaded () ;
    return (m != NULL) ? m->last_product_ms () : -1 ;
}
