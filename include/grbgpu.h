//------------------------------------------------------------------------------
// grbgpu.h: the small optional public API of grbgpu
//------------------------------------------------------------------------------

// grbgpu runs GrB_mxm / GrB_mxv / GrB_vxm of SuiteSparse:GraphBLAS on a GPU
// (or on its host emulation backend) whenever it can give exactly the answer
// the CPU library gives; every other call goes to the CPU library.  Programs
// need none of this header: everything here is also reachable through the
// GRBGPU_* environment variables.  It exists for programs that want to change
// settings at run time or read the statistics.

#ifndef GRBGPU_H
#define GRBGPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRBGPU_VERSION_MAJOR 0
#define GRBGPU_VERSION_MINOR 1
#define GRBGPU_VERSION_PATCH 0

// "grbgpu 0.1.0 (cuda|no cuda)"
const char *grbgpu_version (void) ;

// Change a setting at run time.  name is the environment variable's name
// without the GRBGPU_ prefix, case-insensitive ("DEVICE", "MIN_WORK",
// "VERBOSE", "DISABLE", "STATS", "CACHE_BYTES", "FAULT", "PRECISION",
// "KERNEL", "DEVICE_ID", "DEVICE_MEMORY").  Returns 0 on success, -1 for an
// unknown name or a value that does not parse (the setting is then unchanged).
int grbgpu_set (const char *name, const char *value) ;

// Read a setting back, as text, into buf (at most len bytes, NUL-terminated).
// Returns 0 on success, -1 for an unknown name.
int grbgpu_get (const char *name, char *buf, size_t len) ;

// Counters since start-up (or since the last grbgpu_stats_reset).
typedef struct
{
    uint64_t intercepted ;      // calls of GrB_mxm/mxv/vxm that reached grbgpu
    uint64_t offloaded_host ;   // answered by the host emulation backend
    uint64_t offloaded_cuda ;   // answered by the GPU
    uint64_t declined ;         // handed to the CPU library by decision
    uint64_t fallbacks ;        // handed to the CPU library after a failure
    uint64_t cache_hits ;       // converted operands found in the cache
    uint64_t cache_misses ;     // converted operands built anew
    uint64_t cache_evictions ;  // entries dropped to stay within the budget
    uint64_t cache_invalidations ; // entries dropped because the object changed
    double   convert_seconds ;  // time spent converting operands
    uint64_t bytes_h2d ;        // bytes copied host -> device
    uint64_t bytes_d2h ;        // bytes copied device -> host
    double   h2d_seconds ;      // time in host -> device copies
    double   d2h_seconds ;      // time in device -> host copies
    uint64_t outputs_reused ;   // results written into C's own arrays
    uint64_t split ;            // products (SpMM, SpMV, SDDMM) split across
                                // GRBGPU_DEVICES slots
    uint64_t resident_kept ;    // results kept on the device (GRBGPU_RESIDENT)
    uint64_t materialised ;     // resident results brought down to the host
    uint64_t resident_evicted ; // of which to stay within GRBGPU_DEVICE_MEMORY
    uint64_t split_workers ;    // threads started for the split path (one per
                                // slot, kept between calls: backend/team.h)
}
grbgpu_stats ;

void grbgpu_stats_get (grbgpu_stats *stats) ;
void grbgpu_stats_reset (void) ;

// The reasons calls were declined, with their counts: fills at most max pairs
// and returns how many distinct reasons exist.
int grbgpu_stats_declines (const char **reasons, uint64_t *counts, int max) ;

// The one-line summary that GRBGPU_STATS=1 prints at exit, into buf.
void grbgpu_stats_line (char *buf, size_t len) ;

// What happened to the last intercepted call made by this thread:
// "host", "cuda", "declined: <reason>" or "fallback: <reason>".
const char *grbgpu_last_decision (void) ;

#ifdef __cplusplus
}
#endif
#endif
