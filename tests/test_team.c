//------------------------------------------------------------------------------
// tests/test_team.c: backend/team.c, the split path's persistent workers
//------------------------------------------------------------------------------

// Host only (plain C, no GraphBLAS): member k of every run is the same thread
// across runs and slot counts; workers are started once; runs of several
// callers never overlap; a run asked for inside a run is done inline; stop
// joins and the next run starts afresh; a forked child starts its own
// workers; each worker's OpenMP share; the process exits with workers parked
// (the exit handler joins them: a hang here is a failure of the test).

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend/team.h"

static int checks = 0 ;

typedef struct
{
    pthread_t who [GG_MAX_SLOTS] ;
    int ran [GG_MAX_SLOTS] ;
    int omp [GG_MAX_SLOTS] ;
    gg_team *t ;
    atomic_int active ;         // jobs running now
    atomic_int most ;           // the most at once
    atomic_int jobs ;
}
record ;

static void job (void *arg, int k)
{
    record *r = arg ;
    int now = atomic_fetch_add (&r->active, 1) + 1 ;
    int m = atomic_load (&r->most) ;
    while (now > m && !atomic_compare_exchange_weak (&r->most, &m, now)) { }
    r->who [k] = pthread_self () ;
    r->ran [k]++ ;
#ifdef _OPENMP
    r->omp [k] = omp_get_max_threads () ;
#endif
    atomic_fetch_add (&r->jobs, 1) ;
    usleep (50) ;
    atomic_fetch_sub (&r->active, 1) ;
}

static gg_team team = GG_TEAM_INIT ;

// member k is one thread across runs of every size; started once
static void test_reuse (void **state)
{
    (void) state ;
    pthread_t first [GG_MAX_SLOTS] ;
    bool seen [GG_MAX_SLOTS] = { false } ;
    uint64_t s0 = gg_team_started (&team) ;
    int made = 0 ;
    for (int run = 0 ; run < 300 ; run++)
    {
        int n = 1 + (run * 5) % GG_MAX_SLOTS ;
        record r = { 0 } ;
        made += gg_team_run (&team, n, job, &r) ;
        for (int k = 0 ; k < n ; k++)
        {
            assert_int_equal (r.ran [k], 1) ;
            if (!seen [k]) { first [k] = r.who [k] ; seen [k] = true ; }
            assert_true (pthread_equal (first [k], r.who [k])) ;
            assert_false (pthread_equal (r.who [k], pthread_self ())) ;
            for (int j = 0 ; j < k ; j++) assert_false (pthread_equal (r.who [j], r.who [k])) ;
#ifdef _OPENMP
            int share = omp_get_num_procs () / n ;
            assert_int_equal (r.omp [k], share > 0 ? share : 1) ;
#endif
            checks++ ;
        }
        for (int k = n ; k < GG_MAX_SLOTS ; k++) assert_int_equal (r.ran [k], 0) ;
    }
    assert_int_equal (made, GG_MAX_SLOTS) ;
    assert_int_equal (gg_team_started (&team) - s0, GG_MAX_SLOTS) ;
}

// callers of several threads: every job runs, runs never overlap
static void *caller (void *arg)
{
    record *r = arg ;
    for (int run = 0 ; run < 100 ; run++)
    {
        record mine = { 0 } ;
        gg_team_run (r->t, 3, job, &mine) ;
        for (int k = 0 ; k < 3 ; k++) if (mine.ran [k] != 1) atomic_store (&r->most, 99) ;
        if (atomic_load (&mine.most) > 3) atomic_store (&r->most, 99) ;
        atomic_fetch_add (&r->jobs, atomic_load (&mine.jobs)) ;
    }
    return NULL ;
}

static void test_callers (void **state)
{
    (void) state ;
    record total = { .t = &team } ;
    pthread_t tid [4] ;
    for (int k = 0 ; k < 4 ; k++) assert_int_equal (pthread_create (&tid [k], NULL, caller, &total), 0) ;
    for (int k = 0 ; k < 4 ; k++) pthread_join (tid [k], NULL) ;
    assert_int_equal (atomic_load (&total.jobs), 4 * 100 * 3) ;
    assert_true (atomic_load (&total.most) <= 3) ;
    checks++ ;
}

// a run asked for from inside a run of the same team is done inline
static record inner ;
static void outer_job (void *arg, int k)
{
    record *r = arg ;
    r->who [k] = pthread_self () ;
    if (k == 0) gg_team_run (&team, 3, job, &inner) ;
}

static void test_nested (void **state)
{
    (void) state ;
    record outer = { 0 } ;
    memset (&inner, 0, sizeof (inner)) ;
    gg_team_run (&team, 2, outer_job, &outer) ;
    for (int k = 0 ; k < 3 ; k++)
    {
        assert_int_equal (inner.ran [k], 1) ;
        assert_true (pthread_equal (inner.who [k], outer.who [0])) ;
    }
    checks++ ;
}

// stop joins the workers; the next run starts new ones
static void test_stop (void **state)
{
    (void) state ;
    record r = { 0 } ;
    gg_team_run (&team, 2, job, &r) ;
    pthread_t before = r.who [1] ;
    uint64_t s0 = gg_team_started (&team) ;
    gg_team_stop (&team) ;
    gg_team_stop (&team) ;          // nothing to stop: a no-op
    memset (&r, 0, sizeof (r)) ;
    assert_int_equal (gg_team_run (&team, 2, job, &r), 2) ;
    assert_int_equal (gg_team_started (&team), s0 + 2) ;
    assert_int_equal (r.ran [0] + r.ran [1], 2) ;
    (void) before ;
    checks++ ;
}

// a forked child has none of the parent's workers: it starts its own
static void test_fork (void **state)
{
    (void) state ;
    record r = { 0 } ;
    gg_team_run (&team, 4, job, &r) ;
    fflush (stdout) ;
    pid_t pid = fork () ;
    assert_true (pid >= 0) ;
    if (pid == 0)
    {
        int bad = (gg_team_started (&team) != 0) ;
        for (int run = 0 ; run < 20 ; run++)
        {
            record c = { 0 } ;
            gg_team_run (&team, 3, job, &c) ;
            for (int k = 0 ; k < 3 ; k++) bad |= (c.ran [k] != 1) ;
        }
        bad |= (gg_team_started (&team) != 3) ;
        _exit (bad) ;           // (no exit handlers: the parent's are not ours)
    }
    int status = 0 ;
    assert_int_equal (waitpid (pid, &status, 0), pid) ;
    assert_true (WIFEXITED (status)) ;
    assert_int_equal (WEXITSTATUS (status), 0) ;
    // the parent's workers are still there
    memset (&r, 0, sizeof (r)) ;
    assert_int_equal (gg_team_run (&team, 4, job, &r), 0) ;
    checks++ ;
}

// the child exits through exit (): the handler joins its parked workers
static void test_fork_exit (void **state)
{
    (void) state ;
    fflush (stdout) ;
    pid_t pid = fork () ;
    assert_true (pid >= 0) ;
    if (pid == 0)
    {
        record c = { 0 } ;
        gg_team_run (&team, 5, job, &c) ;
        exit (c.ran [4] == 1 ? 0 : 1) ;
    }
    int status = 0 ;
    // bounded: a hang at exit is a failure
    for (int ms = 0 ; ms < 20000 ; ms += 10)
    {
        pid_t w = waitpid (pid, &status, WNOHANG) ;
        if (w == pid) break ;
        usleep (10000) ;
    }
    assert_true (WIFEXITED (status)) ;
    assert_int_equal (WEXITSTATUS (status), 0) ;
    checks++ ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_reuse),
        cmocka_unit_test (test_callers),
        cmocka_unit_test (test_nested),
        cmocka_unit_test (test_stop),
        cmocka_unit_test (test_fork),
        cmocka_unit_test (test_fork_exit),
    } ;
    int failed = cmocka_run_group_tests (tests, NULL, NULL) ;
    printf ("test_team: %d checks, %d failed groups\n", checks, failed) ;
    return failed ? 1 : 0 ;
}
