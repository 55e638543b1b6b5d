//------------------------------------------------------------------------------
// backend/settings.c: the GRBGPU_* settings, grbgpu_set / grbgpu_get
//------------------------------------------------------------------------------

// Settings are read from the environment once, at the first intercepted call
// (never at load time), and may be changed later through grbgpu_set.  Each
// setting has one parser, shared by the environment and grbgpu_set, so both
// accept exactly the same values.  Two settings are pushed into the files
// that use them, which do not read the settings (arrows point one way):
// GRBGPU_VERBOSE into log.c, GRBGPU_FAULT into fault.c.

#include "config.h"
#include "backend/grbgpu_internal.h"
#include "formats/partition.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

gg_settings grbgpu_settings =
{
    .disable = false, .device = GG_DEVICE_AUTO, .min_work = -1,
    .verbose = 0, .stats = false, .cache_bytes = 0,
    .precision = GG_PRECISION_EXACT, .kernel = "", .device_id = 0,
    .device_memory = 0, .fault = "", .tune = true, .reorder = GG_REORDER_AUTO, .nm = true, .nm_host_pack = false, .devices = "",
    .devices_all = false, .ndevices = 0, .resident = true, .test_fake_devices = 0,
    .split_row_weight = 0
} ;

//------------------------------------------------------------------------------
// parsers: 0 on success, -1 if the text does not parse (setting unchanged)
//------------------------------------------------------------------------------

static int parse_bool (const char *v, bool *out)
{
    if (!strcmp (v, "1") || !strcasecmp (v, "yes") || !strcasecmp (v, "true")
        || !strcasecmp (v, "on")) { *out = true ; return 0 ; }
    if (!strcmp (v, "0") || !strcasecmp (v, "no") || !strcasecmp (v, "false")
        || !strcasecmp (v, "off") || !*v) { *out = false ; return 0 ; }
    return -1 ;
}

// A byte count with an optional K/M/G/T suffix (powers of 1024).
static int parse_bytes (const char *v, uint64_t *out)
{
    char *end ;
    errno = 0 ;
    double x = strtod (v, &end) ;
    if (end == v || errno || x < 0) return -1 ;
    switch (toupper ((unsigned char) *end))
    {
        case 'T': x *= 1024.0 ; // fall through
        case 'G': x *= 1024.0 ; // fall through
        case 'M': x *= 1024.0 ; // fall through
        case 'K': x *= 1024.0 ; end++ ; break ;
        case 0: break ;
        default: return -1 ;
    }
    if (toupper ((unsigned char) *end) == 'B' || toupper ((unsigned char) *end) == 'I') end++ ;
    if (*end) return -1 ;
    *out = (uint64_t) x ;
    return 0 ;
}

static int parse_double (const char *v, double *out)
{
    char *end ;
    errno = 0 ;
    double x = strtod (v, &end) ;
    if (end == v || *end || errno) return -1 ;
    *out = x ;
    return 0 ;
}

static int parse_int (const char *v, int *out)
{
    char *end ;
    errno = 0 ;
    long x = strtol (v, &end, 10) ;
    if (end == v || *end || errno || x < 0 || x > 1000000) return -1 ;
    *out = (int) x ;
    return 0 ;
}

static const char *device_names [] = { "auto", "cuda", "host", "cpu" } ;
static const char *precision_names [] = { "exact", "tf32", "fp16", "bf16" } ;

static int parse_enum (const char *v, const char *const *names, int n, int *out)
{
    for (int k = 0 ; k < n ; k++)
    {
        if (!strcasecmp (v, names [k])) { *out = k ; return 0 ; }
    }
    return -1 ;
}

// GRBGPU_DEVICES: "" or "all", or 1 to GG_MAX_SLOTS device ids separated by
// commas (repeats allowed).  The whole text is checked before anything is set.
static int parse_devices (const char *v, gg_settings *s)
{
    int ids [GG_MAX_SLOTS], n = 0 ;
    bool all = !strcasecmp (v, "all") ;
    if (!all && *v)
    {
        const char *q = v ;
        for (;;)
        {
            char *end ;
            errno = 0 ;
            if (!isdigit ((unsigned char) *q)) return -1 ;   // no sign, no space
            long x = strtol (q, &end, 10) ;
            if (end == q || errno || x >= GG_MAX_DEVICES || n == GG_MAX_SLOTS) return -1 ;
            ids [n++] = (int) x ;
            if (*end == '\0') break ;
            if (*end != ',') return -1 ;
            q = end + 1 ;
        }
    }
    if (strlen (v) >= sizeof (s->devices)) return -1 ;
    strcpy (s->devices, v) ;
    s->devices_all = all ;
    for (int k = 0 ; k < n ; k++) s->device_list [k] = ids [k] ;
    s->ndevices = n ;
    return 0 ;
}

static int copy_text (const char *v, char *dst, size_t len)
{
    if (strlen (v) >= len) return -1 ;
    strcpy (dst, v) ;
    return 0 ;
}

// The default host cache budget: a quarter of physical memory.
static uint64_t default_cache_bytes (void)
{
    long pages = sysconf (_SC_PHYS_PAGES), psize = sysconf (_SC_PAGESIZE) ;
    if (pages <= 0 || psize <= 0) return (uint64_t) 1 << 30 ;
    return (uint64_t) pages * (uint64_t) psize / 4 ;
}

//------------------------------------------------------------------------------
// one table of settings: name, parser, printer
//------------------------------------------------------------------------------

static int set_one (const char *name, const char *v)
{
    gg_settings *s = &grbgpu_settings ;
    int k ;
    if (!strcasecmp (name, "DISABLE"))  return parse_bool (v, &s->disable) ;
    if (!strcasecmp (name, "STATS"))    return parse_bool (v, &s->stats) ;
    if (!strcasecmp (name, "VERBOSE"))
    {
        if (parse_int (v, &s->verbose)) return -1 ;
        grbgpu_log_set_level (s->verbose) ;
        return 0 ;
    }
    if (!strcasecmp (name, "DEVICE_ID")) return parse_int (v, &s->device_id) ;
    if (!strcasecmp (name, "TUNE"))     return parse_bool (v, &s->tune) ;
    if (!strcasecmp (name, "REORDER"))
    {
        bool on ;
        if (!strcasecmp (v, "auto")) { s->reorder = GG_REORDER_AUTO ; return 0 ; }
        if (parse_bool (v, &on)) return -1 ;
        s->reorder = on ? 1 : 0 ;
        return 0 ;
    }
    if (!strcasecmp (name, "NM"))       return parse_bool (v, &s->nm) ;
    if (!strcasecmp (name, "NM_PACK"))
    {
        if (!strcasecmp (v, "device")) s->nm_host_pack = false ;
        else if (!strcasecmp (v, "host")) s->nm_host_pack = true ;
        else return -1 ;
        return 0 ;
    }
    if (!strcasecmp (name, "RESIDENT")) return parse_bool (v, &s->resident) ;
    if (!strcasecmp (name, "TEST_FAKE_DEVICES"))
    {
        int n ;
        if (parse_int (v, &n) || n < 0 || n > GG_MAX_DEVICES) return -1 ;
        s->test_fake_devices = n ;
        return 0 ;
    }
    if (!strcasecmp (name, "SPLIT_ROW_WEIGHT"))
    {
        int n ;
        if (parse_int (v, &n) || n < 0 || n > (int) GG_PARTITION_MAX_ROW_WEIGHT) return -1 ;
        s->split_row_weight = n ;
        return 0 ;
    }
    if (!strcasecmp (name, "MIN_WORK"))
    {
        if (!strcasecmp (v, "auto")) { s->min_work = -1 ; return 0 ; }
        double x ;
        if (parse_double (v, &x) || x < 0) return -1 ;
        s->min_work = x ;
        return 0 ;
    }
    if (!strcasecmp (name, "DEVICE"))
    {
        if (parse_enum (v, device_names, 4, &k)) return -1 ;
        s->device = (gg_device_mode) k ;
        return 0 ;
    }
    if (!strcasecmp (name, "PRECISION"))
    {
        if (parse_enum (v, precision_names, 4, &k)) return -1 ;
        s->precision = (gg_precision) k ;
        return 0 ;
    }
    if (!strcasecmp (name, "CACHE_BYTES"))   return parse_bytes (v, &s->cache_bytes) ;
    if (!strcasecmp (name, "DEVICE_MEMORY")) return parse_bytes (v, &s->device_memory) ;
    if (!strcasecmp (name, "DEVICES")) return parse_devices (v, s) ;
    if (!strcasecmp (name, "KERNEL")) return copy_text (v, s->kernel, sizeof (s->kernel)) ;
    if (!strcasecmp (name, "FAULT"))
    {
        if (grbgpu_fault_configure (v)) return -1 ;
        return copy_text (v, s->fault, sizeof (s->fault)) ;
    }
    return -1 ;
}

static const char *setting_names [] =
{
    "DISABLE", "DEVICE", "MIN_WORK", "VERBOSE", "STATS", "CACHE_BYTES",
    "PRECISION", "KERNEL", "DEVICE_ID", "DEVICE_MEMORY", "FAULT", "TUNE", "REORDER", "NM", "NM_PACK", "DEVICES",
    "RESIDENT", "TEST_FAKE_DEVICES", "SPLIT_ROW_WEIGHT"
} ;
#define NSETTINGS ((int) (sizeof (setting_names) / sizeof (setting_names [0])))

static void stats_at_exit (void)
{
    if (!grbgpu_settings.stats) return ;
    char line [1024] ;
    grbgpu_stats_line (line, sizeof (line)) ;
    fprintf (stderr, "%s\n", line) ;
}

static void settings_init_once (void)
{
    grbgpu_settings.cache_bytes = default_cache_bytes () ;
    for (int k = 0 ; k < NSETTINGS ; k++)
    {
        char env [64] ;
        snprintf (env, sizeof (env), "GRBGPU_%s", setting_names [k]) ;
        const char *v = getenv (env) ;
        if (v != NULL && set_one (setting_names [k], v) != 0)
        {
            fprintf (stderr, "grbgpu: ignoring %s=%s (not a valid value)\n", env, v) ;
        }
    }
    atexit (stats_at_exit) ;
}

static pthread_once_t settings_once = PTHREAD_ONCE_INIT ;

void grbgpu_settings_init (void)
{
    pthread_once (&settings_once, settings_init_once) ;
}

const gg_settings *grbgpu_settings_get (void)
{
    grbgpu_settings_init () ;
    return &grbgpu_settings ;
}

//------------------------------------------------------------------------------
// public API
//------------------------------------------------------------------------------

GG_EXPORT int grbgpu_set (const char *name, const char *value)
{
    if (name == NULL || value == NULL) return -1 ;
    grbgpu_settings_init () ;
    if (!strncasecmp (name, "GRBGPU_", 7)) name += 7 ;
    return set_one (name, value) ;
}

GG_EXPORT int grbgpu_get (const char *name, char *buf, size_t len)
{
    if (name == NULL || buf == NULL || len == 0) return -1 ;
    grbgpu_settings_init () ;
    if (!strncasecmp (name, "GRBGPU_", 7)) name += 7 ;
    const gg_settings *s = &grbgpu_settings ;
    if (!strcasecmp (name, "DISABLE"))  snprintf (buf, len, "%d", s->disable) ;
    else if (!strcasecmp (name, "STATS")) snprintf (buf, len, "%d", s->stats) ;
    else if (!strcasecmp (name, "VERBOSE")) snprintf (buf, len, "%d", s->verbose) ;
    else if (!strcasecmp (name, "DEVICE_ID")) snprintf (buf, len, "%d", s->device_id) ;
    else if (!strcasecmp (name, "TUNE")) snprintf (buf, len, "%d", s->tune) ;
    else if (!strcasecmp (name, "REORDER"))
    {
        if (s->reorder == GG_REORDER_AUTO) snprintf (buf, len, "auto") ;
        else snprintf (buf, len, "%d", s->reorder) ;
    }
    else if (!strcasecmp (name, "NM")) snprintf (buf, len, "%d", s->nm) ;
    else if (!strcasecmp (name, "NM_PACK")) snprintf (buf, len, "%s", s->nm_host_pack ? "host" : "device") ;
    else if (!strcasecmp (name, "RESIDENT")) snprintf (buf, len, "%d", s->resident) ;
    else if (!strcasecmp (name, "TEST_FAKE_DEVICES")) snprintf (buf, len, "%d", s->test_fake_devices) ;
    else if (!strcasecmp (name, "SPLIT_ROW_WEIGHT")) snprintf (buf, len, "%d", s->split_row_weight) ;
    else if (!strcasecmp (name, "MIN_WORK"))
    {
        if (s->min_work < 0) snprintf (buf, len, "auto") ;
        else snprintf (buf, len, "%.17g", s->min_work) ;
    }
    else if (!strcasecmp (name, "DEVICE")) snprintf (buf, len, "%s", device_names [s->device]) ;
    else if (!strcasecmp (name, "PRECISION")) snprintf (buf, len, "%s", precision_names [s->precision]) ;
    else if (!strcasecmp (name, "CACHE_BYTES")) snprintf (buf, len, "%llu", (unsigned long long) s->cache_bytes) ;
    else if (!strcasecmp (name, "DEVICE_MEMORY")) snprintf (buf, len, "%llu", (unsigned long long) s->device_memory) ;
    else if (!strcasecmp (name, "KERNEL")) snprintf (buf, len, "%s", s->kernel) ;
    else if (!strcasecmp (name, "FAULT")) snprintf (buf, len, "%s", s->fault) ;
    else if (!strcasecmp (name, "DEVICES")) snprintf (buf, len, "%s", s->devices) ;
    else return -1 ;
    return 0 ;
}

GG_EXPORT const char *grbgpu_version (void)
{
#ifdef GRBGPU_HAVE_CUDA
    return "grbgpu " PACKAGE_VERSION " (cuda)" ;
#else
    return "grbgpu " PACKAGE_VERSION " (no cuda)" ;
#endif
}
