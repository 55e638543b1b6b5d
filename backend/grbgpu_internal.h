//------------------------------------------------------------------------------
// backend/grbgpu_internal.h: what the backend's files share
//------------------------------------------------------------------------------

// Settings, statistics, logging, fault injection, object versions and the
// device-backend registry.  Everything here is internal (hidden visibility);
// the public face is include/grbgpu.h plus the exported GraphBLAS symbols.

#ifndef GRBGPU_INTERNAL_H
#define GRBGPU_INTERNAL_H

#include <GraphBLAS.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "grbgpu.h"
#include "kernels/gg_kernels.h"

#define GG_INTERNAL __attribute__ ((visibility ("hidden")))
#define GG_EXPORT   __attribute__ ((visibility ("default")))

// seconds on the monotonic clock (for phases and statistics)
static inline double grbgpu_now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

//------------------------------------------------------------------------------
// settings (backend/settings.c)
//------------------------------------------------------------------------------

typedef enum
{
    GG_DEVICE_AUTO = 0,     // the GPU when usable and worth it, else the CPU library
    GG_DEVICE_CUDA,         // the GPU whenever the call is supported
    GG_DEVICE_HOST,         // the host emulation backend
    GG_DEVICE_CPU           // always the CPU library
}
gg_device_mode ;

typedef enum
{
    GG_PRECISION_EXACT = 0, GG_PRECISION_TF32, GG_PRECISION_FP16,
    GG_PRECISION_BF16
}
gg_precision ;

#define GG_MAX_SLOTS 8          // slots of GRBGPU_DEVICES (devices, repeats allowed)
#define GG_MAX_DEVICES 64       // device ids 0 .. 63 (GRBGPU_DEVICES, per-device accounts)

#define GG_REORDER_AUTO (-1)    // gg_settings.reorder's default

typedef struct
{
    bool disable ;              // GRBGPU_DISABLE: pure pass-through
    gg_device_mode device ;     // GRBGPU_DEVICE
    double min_work ;           // GRBGPU_MIN_WORK (flops); < 0: use the cost model
    int verbose ;               // GRBGPU_VERBOSE (0, 1, 2), pushed to log.c
    bool stats ;                // GRBGPU_STATS: summary line at exit
    uint64_t cache_bytes ;      // GRBGPU_CACHE_BYTES (host-side cache budget)
    gg_precision precision ;    // GRBGPU_PRECISION
    char kernel [64] ;          // GRBGPU_KERNEL ("" = chooser)
    int device_id ;             // GRBGPU_DEVICE_ID
    uint64_t device_memory ;    // GRBGPU_DEVICE_MEMORY (0 = a safe fraction of free)
    char fault [128] ;          // GRBGPU_FAULT, pushed to backend/fault.c
    int reorder ;               // GRBGPU_REORDER: GG_REORDER_AUTO (default):
                                // the chooser times the row lenr (S's rows by
                                // length, made on the device); 1: also the
                                // tensor-core row of the RSH-reordered S
                                // (tc3r, a host pass); 0: neither
    bool nm ;                   // GRBGPU_NM: offer the dense x N:M row (nm)
    bool nm_host_pack ;         // GRBGPU_NM_PACK=host: lay the N:M form out
                                // on the host (default device)
    bool tune ;                 // GRBGPU_TUNE: time the candidate kernel
                                // families once per operand and shape
    // GRBGPU_DEVICES: "" (default: one device, GRBGPU_DEVICE_ID), "all", or
    // a list of device ids, e.g. "0,1"; a list may repeat a device ("0,0":
    // two slots on one device, for testing the split path on one GPU)
    char devices [64] ;
    bool devices_all ;          // "all"
    int ndevices ;              // entries of the list (0: "" or "all")
    int device_list [GG_MAX_SLOTS] ;
    bool resident ;             // GRBGPU_RESIDENT: keep results on the device
                                // (backend/resident/)
    int test_fake_devices ;     // GRBGPU_TEST_FAKE_DEVICES (tests): pretend this
                                // many devices, ids past the real count standing
                                // for real ones (backend/cuda/runtime.c)
    int split_row_weight ;      // GRBGPU_SPLIT_ROW_WEIGHT: entries a row of
                                // an SpMM's Y counts for in the split's cut
                                // (formats/partition.h; 0: entries only)
}
gg_settings ;

// The settings in force (read from the environment at first use).  Reads of
// single fields are racy-but-benign: settings change rarely, from one thread.
GG_INTERNAL extern gg_settings grbgpu_settings ;
GG_INTERNAL void grbgpu_settings_init (void) ;     // idempotent, thread-safe
// The settings in force, read first if need be (the CUDA module reads them
// through this, backend/cuda/cuda_module.h).
GG_INTERNAL const gg_settings *grbgpu_settings_get (void) ;
// GRBGPU_DEVICES lists several devices, or "all": products may be split
// (backend/cuda/multi.c; results then come to the host, dispatch.c)
static inline bool grbgpu_split_listed (const gg_settings *s)
{
    return s->ndevices >= 2 || s->devices_all ;
}
// The weight of a row in the cut of a split product (formats/partition.h):
// GRBGPU_SPLIT_ROW_WEIGHT for an SpMM of more than one column (its rows of
// Y come to the host), 0 for an SpMV or an SDDMM (whose outputs are M's
// entries)
static inline int64_t grbgpu_split_row_weight (bool sddmm, int64_t ncols)
{
    return (!sddmm && ncols > 1) ? grbgpu_settings_get ()->split_row_weight : 0 ;
}

//------------------------------------------------------------------------------
// statistics (backend/stats.c)
//------------------------------------------------------------------------------

typedef enum
{
    GG_STAT_INTERCEPTED = 0, GG_STAT_OFFLOADED_HOST, GG_STAT_OFFLOADED_CUDA,
    GG_STAT_DECLINED, GG_STAT_FALLBACKS, GG_STAT_CACHE_HITS,
    GG_STAT_CACHE_MISSES, GG_STAT_CACHE_EVICTIONS, GG_STAT_CACHE_INVALIDATIONS,
    GG_STAT_BYTES_H2D, GG_STAT_BYTES_D2H, GG_STAT_OUTPUTS_REUSED,
    GG_STAT_SPLIT,          // products split across GRBGPU_DEVICES slots
    GG_STAT_RESIDENT_KEPT, GG_STAT_MATERIALISED, GG_STAT_RESIDENT_EVICTED,
    GG_STAT_SPLIT_WORKERS,  // worker threads started for the split path
    GG_STAT_NCOUNTERS
}
gg_stat ;

GG_INTERNAL void grbgpu_count (gg_stat which, uint64_t n) ;
GG_INTERNAL void grbgpu_count_seconds (int which, double seconds) ; // 0 convert, 1 h2d, 2 d2h
GG_INTERNAL void grbgpu_count_decline (const char *reason) ;  // reason: a string literal
GG_INTERNAL void grbgpu_set_last_decision (const char *what, const char *reason) ;

//------------------------------------------------------------------------------
// logging (backend/log.c)
//------------------------------------------------------------------------------

// Printed to stderr when GRBGPU_VERBOSE >= level, prefixed "grbgpu: ".
// settings.c sets the level (GRBGPU_VERBOSE, grbgpu_set).
GG_INTERNAL void grbgpu_log_set_level (int level) ;
GG_INTERNAL void grbgpu_log (int level, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3))) ;
GG_INTERNAL void grbgpu_vlog (int level, const char *fmt, va_list ap)
    __attribute__ ((format (printf, 2, 0))) ;

//------------------------------------------------------------------------------
// fault injection (backend/fault.c): GRBGPU_FAULT=alloc:0.1,kernel:0.05,...
//------------------------------------------------------------------------------

// The points at which an offload may be made to fail.
typedef enum
{
    GG_FAULT_ALLOC = 0,     // a host or device allocation
    GG_FAULT_CONVERT,       // converting an operand to a device format
    GG_FAULT_LAUNCH,        // a kernel launch
    GG_FAULT_COPY,          // a host <-> device copy
    GG_FAULT_REORDER,       // making a reordered form (the rows lenr, tc3r):
                            // the product is then made without it
    GG_NFAULTS
}
gg_fault_point ;

// True when this call at this point should fail (by the configured fraction).
// Cheap (one load) when no fault is configured.  Nothing fires until a
// configure: settings.c calls it with GRBGPU_FAULT when the settings are
// first read, which every intercepted call does before any fault point.
GG_INTERNAL bool grbgpu_fault (gg_fault_point point) ;
GG_INTERNAL int grbgpu_fault_configure (const char *spec) ;  // 0 ok, -1 bad spec

//------------------------------------------------------------------------------
// object versions (backend/interpose/objver.c)
//------------------------------------------------------------------------------

// Every exported GraphBLAS function that creates, changes or frees a matrix
// or vector is wrapped (backend/interpose/objver_wrappers.c, generated); the
// wrappers keep a version per handle.  Versions come from one global counter,
// so a (handle, version) pair is never reused, not even when a freed handle's
// address is given to a new object.  0 means "unknown handle": such an object
// is never served from the cache.
GG_INTERNAL uint64_t grbgpu_objver_get (const void *handle) ;
GG_INTERNAL void grbgpu_objver_bump (const void *handle) ;
GG_INTERNAL void grbgpu_objver_drop (const void *handle) ;   // on free

//------------------------------------------------------------------------------
// resident results (backend/resident/resident.c)
//------------------------------------------------------------------------------

// The generated wrappers call grbgpu_resident_touch on every matrix / vector
// argument before the CPU library sees it: a result kept on the device is
// materialised (its values downloaded into the object) first.  fn names the
// call (GRBGPU_VERBOSE says why a materialisation happened).  Returns
// GrB_SUCCESS, or the error the wrapper returns instead of calling.  Free
// functions call grbgpu_resident_forget instead (no download).
GG_INTERNAL extern atomic_int grbgpu_resident_live ;     // objects resident
GG_INTERNAL GrB_Info grbgpu_resident_touch_slow (const void *obj, const char *fn) ;
GG_INTERNAL void grbgpu_resident_forget (const void *obj) ;

static inline GrB_Info grbgpu_resident_touch (const void *obj, const char *fn)
{
    if (obj == NULL || __builtin_expect (atomic_load_explicit (&grbgpu_resident_live,
        memory_order_relaxed) == 0, 1)) return GrB_SUCCESS ;
    return grbgpu_resident_touch_slow (obj, fn) ;
}

//------------------------------------------------------------------------------
// the real GraphBLAS entry points
//------------------------------------------------------------------------------

// dlsym (RTLD_NEXT, name), looked up once; aborts with a message if missing
// (which means libgraphblas itself is missing: nothing sensible to do).
GG_INTERNAL void *grbgpu_real (const char *name) ;

//------------------------------------------------------------------------------
// device backends
//------------------------------------------------------------------------------

GG_INTERNAL extern const gg_backend grbgpu_host_backend ;

// The CUDA backend, or NULL when it is not built or no device is usable.
// Opens the CUDA module and starts CUDA lazily on the first call (never at
// load time): backend/cuda/cuda_loader.c, backend/cuda/cuda_module.h.
GG_INTERNAL const gg_backend *grbgpu_cuda_backend (void) ;

#endif
