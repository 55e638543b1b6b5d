//------------------------------------------------------------------------------
// bench/startup_bench.c: what preloading libgrbgpu.so adds to a process start
//------------------------------------------------------------------------------

// Users set LD_PRELOAD=libgrbgpu.so for a whole shell or job script, so every
// process pays whatever loading grbgpu costs.  This program starts a child
// (itself with --child: GrB_init, GrB_finalize, exit) many times, alternately
// without and with LD_PRELOAD=<lib> (and GRBGPU_DISABLE=1, and the host
// emulation backend), and prints the median wall time of each start and the
// differences.  The goal: within 5 ms of the plain start.  Also starts
// /bin/true the same ways (a program that has nothing to do with GraphBLAS).
//
// Usage: startup_bench <path of libgrbgpu.so> [reps]     (linked -lgraphblas
// only, so that grbgpu is present only when preloaded)

#include <GraphBLAS.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ ;

static double now_ms (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return 1e3 * (double) t.tv_sec + 1e-6 * (double) t.tv_nsec ;
}

static int cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

// Start argv with the extra environment entries `extra` (NULL-terminated);
// returns the wall time in ms, or -1.
static double start_once (char *const argv [], char *const extra [])
{
    int n = 0, k = 0 ;
    while (environ [n] != NULL) n++ ;
    while (extra [k] != NULL) k++ ;
    char **env = malloc ((size_t) (n + k + 1) * sizeof (char *)) ;
    if (env == NULL) return -1 ;
    int m = 0 ;
    for (int i = 0 ; i < k ; i++) env [m++] = extra [i] ;
    for (int i = 0 ; i < n ; i++)
    {
        // drop the caller's own LD_PRELOAD / GRBGPU_* so each case is clean
        if (!strncmp (environ [i], "LD_PRELOAD=", 11) || !strncmp (environ [i], "GRBGPU_", 7)) continue ;
        env [m++] = environ [i] ;
    }
    env [m] = NULL ;
    double t0 = now_ms () ;
    pid_t pid ;
    int status = 0 ;
    int rc = posix_spawn (&pid, argv [0], NULL, NULL, argv, env) ;
    if (rc == 0 && waitpid (pid, &status, 0) == pid && WIFEXITED (status)
        && WEXITSTATUS (status) == 0)
    {
        double t = now_ms () - t0 ;
        free (env) ;
        return t ;
    }
    free (env) ;
    return -1 ;
}

#define NCASES 4

int main (int argc, char **argv)
{
    if (argc > 1 && !strcmp (argv [1], "--child"))
    {
        if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;
        return (GrB_finalize () == GrB_SUCCESS) ? 0 : 1 ;
    }
    if (argc < 2)
    {
        fprintf (stderr, "usage: %s <path of libgrbgpu.so> [reps]\n", argv [0]) ;
        return 2 ;
    }
    int reps = (argc > 2) ? atoi (argv [2]) : 40 ;
    if (reps < 3) reps = 3 ;

    char self [4096] ;
    ssize_t len = readlink ("/proc/self/exe", self, sizeof (self) - 1) ;
    if (len <= 0) { perror ("readlink") ; return 1 ; }
    self [len] = 0 ;

    char preload [4200] ;
    snprintf (preload, sizeof (preload), "LD_PRELOAD=%s", argv [1]) ;
    const char *names [NCASES] = { "plain", "LD_PRELOAD", "LD_PRELOAD, GRBGPU_DISABLE=1",
        "LD_PRELOAD, GRBGPU_DEVICE=host" } ;
    char *extra [NCASES][3] = {
        { NULL }, { preload, NULL }, { preload, "GRBGPU_DISABLE=1", NULL },
        { preload, "GRBGPU_DEVICE=host", NULL } } ;

    const char *progs [2] = { "GrB_init + GrB_finalize", "/bin/true" } ;
    char *child [2][3] = { { self, "--child", NULL }, { "/bin/true", NULL } } ;
    double *t = malloc ((size_t) reps * NCASES * sizeof (double)) ;
    if (t == NULL) return 1 ;
    printf ("startup_bench: %d starts per case, interleaved; lib %s\n", reps, argv [1]) ;
    for (int p = 0 ; p < 2 ; p++)
    {
        // one warm-up of each case (page cache), then interleaved repetitions
        for (int c = 0 ; c < NCASES ; c++) (void) start_once (child [p], extra [c]) ;
        for (int r = 0 ; r < reps ; r++)
        {
            for (int c = 0 ; c < NCASES ; c++)
            {
                double x = start_once (child [p], extra [c]) ;
                if (x < 0) { fprintf (stderr, "startup_bench: %s failed\n", names [c]) ; return 1 ; }
                t [c * reps + r] = x ;
            }
        }
        double med [NCASES] ;
        for (int c = 0 ; c < NCASES ; c++)
        {
            qsort (t + c * reps, (size_t) reps, sizeof (double), cmp_double) ;
            med [c] = t [c * reps + reps / 2] ;
        }
        printf ("%s:\n", progs [p]) ;
        for (int c = 0 ; c < NCASES ; c++)
        {
            printf ("  %-32s median %7.2f ms  (+%6.2f ms vs plain)%s\n", names [c], med [c],
                med [c] - med [0], (c > 0 && med [c] - med [0] > 5.0) ? "  over the 5 ms goal" : "") ;
        }
    }
    free (t) ;
    return 0 ;
}
