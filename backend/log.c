//------------------------------------------------------------------------------
// backend/log.c: grbgpu_log, to stderr when GRBGPU_VERBOSE asks for it
//------------------------------------------------------------------------------

// The level is pushed here by settings.c (GRBGPU_VERBOSE, grbgpu_set), so
// that logging depends on nothing: fault.c and every other file log without
// depending on the settings.  Before the settings are read the level is 0,
// their default.

#include "backend/grbgpu_internal.h"

#include <stdarg.h>

// (relaxed: the level changes rarely, from one thread; a line logged or
// dropped at the moment it changes is either)
static atomic_int log_level = 0 ;

void grbgpu_log_set_level (int level)
{
    atomic_store_explicit (&log_level, level, memory_order_relaxed) ;
}

void grbgpu_vlog (int level, const char *fmt, va_list ap)
{
    if (atomic_load_explicit (&log_level, memory_order_relaxed) < level) return ;
    char line [1024] ;
    vsnprintf (line, sizeof (line), fmt, ap) ;
    fprintf (stderr, "grbgpu: %s\n", line) ;
}

void grbgpu_log (int level, const char *fmt, ...)
{
    if (atomic_load_explicit (&log_level, memory_order_relaxed) < level) return ;
    va_list ap ;
    va_start (ap, fmt) ;
    grbgpu_vlog (level, fmt, ap) ;
    va_end (ap) ;
}
