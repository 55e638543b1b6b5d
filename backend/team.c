//------------------------------------------------------------------------------
// backend/team.c: persistent worker threads, one per slot of the split path
//------------------------------------------------------------------------------

// The contract is in backend/team.h.  How it is kept: one mutex per team
// guards everything in it.  A run is posted by bumping t->run (with n, fn,
// arg and pending = n) and broadcasting `wake`; worker k takes a run it has
// not seen when k < n, runs its job outside the lock and counts it off
// (`done` is broadcast when pending reaches 0).  A caller holds the team
// (busy) from posting to the end of its run, so runs never overlap.

#include <stdlib.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend/team.h"

// The teams of this copy of the file (for the exit and fork handlers).
#define GG_TEAMS_MAX 4
static pthread_mutex_t teams_lock = PTHREAD_MUTEX_INITIALIZER ;
static gg_team *teams [GG_TEAMS_MAX] ;
static int nteams = 0 ;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT ;

// The team whose worker this thread is (NULL: none).
static _Thread_local gg_team *member_of = NULL ;

typedef struct { gg_team *t ; int k ; uint64_t seen ; } worker_start ;

//------------------------------------------------------------------------------
// a worker
//------------------------------------------------------------------------------

static void *worker (void *p)
{
    worker_start ws = *(worker_start *) p ;
    free (p) ;
    gg_team *t = ws.t ;
    const int k = ws.k ;
    uint64_t seen = ws.seen ;
    int last_n = 0 ;
    member_of = t ;
    pthread_mutex_lock (&t->lock) ;
    for (;;)
    {
        // the next run this worker is a member of, or quit when there is none
        bool mine = false ;
        while (!mine)
        {
            if (t->run != seen)
            {
                seen = t->run ;
                mine = (k < t->n) ;
                continue ;
            }
            if (t->quit) goto out ;
            pthread_cond_wait (&t->wake, &t->lock) ;
        }
        const gg_team_fn fn = t->fn ;
        void *arg = t->arg ;
        const int n = t->n ;
        pthread_mutex_unlock (&t->lock) ;
#ifdef _OPENMP
        if (n != last_n)
        {
            // this worker's share of the processors
            int share = omp_get_num_procs () / n ;
            omp_set_num_threads (share > 0 ? share : 1) ;
        }
#endif
        last_n = n ;
        fn (arg, k) ;
        pthread_mutex_lock (&t->lock) ;
        if (--t->pending == 0) pthread_cond_broadcast (&t->done) ;
    }
out:
    pthread_mutex_unlock (&t->lock) ;
    return NULL ;
}

//------------------------------------------------------------------------------
// exit and fork
//------------------------------------------------------------------------------

static void teams_at_exit (void)
{
    pthread_mutex_lock (&teams_lock) ;
    int n = nteams ;
    gg_team *list [GG_TEAMS_MAX] ;
    for (int k = 0 ; k < n ; k++) list [k] = teams [k] ;
    pthread_mutex_unlock (&teams_lock) ;
    for (int k = 0 ; k < n ; k++)
    {
        gg_team *t = list [k] ;
        pthread_mutex_lock (&t->lock) ;
        // a run in flight (another thread still computing while the process
        // exits): leave it, never wait on it
        bool idle = !t->busy ;
        pthread_mutex_unlock (&t->lock) ;
        if (idle) gg_team_stop (t) ;
    }
}

// In a forked child only the forking thread exists: the workers (and any run
// in flight) are the parent's.  Forget them; locks are made afresh (one may
// have been held by a thread that is gone).
static void teams_atfork_child (void)
{
    pthread_mutex_init (&teams_lock, NULL) ;
    for (int k = 0 ; k < nteams ; k++)
    {
        gg_team *t = teams [k] ;
        pthread_mutex_init (&t->lock, NULL) ;
        pthread_cond_init (&t->wake, NULL) ;
        pthread_cond_init (&t->done, NULL) ;
        t->pid = getpid () ;
        t->nworkers = 0 ;
        t->busy = false ;
        t->quit = false ;
        t->pending = 0 ;
        t->started = 0 ;
    }
}

static void handlers_register (void)
{
    pthread_atfork (NULL, NULL, teams_atfork_child) ;
    atexit (teams_at_exit) ;
}

// Called with t->lock held.
static void team_register (gg_team *t)
{
    if (t->registered) return ;
    pthread_mutex_lock (&teams_lock) ;
    if (nteams < GG_TEAMS_MAX)
    {
        teams [nteams++] = t ;
        t->registered = true ;
    }
    pthread_mutex_unlock (&teams_lock) ;
}

//------------------------------------------------------------------------------
// runs
//------------------------------------------------------------------------------

int gg_team_run (gg_team *t, int n, gg_team_fn fn, void *arg)
{
    if (n < 1) return 0 ;
    if (n > GG_MAX_SLOTS) n = GG_MAX_SLOTS ;
    if (member_of == t)
    {
        // asked for from inside a run of this team: no worker is free
        for (int k = 0 ; k < n ; k++) fn (arg, k) ;
        return 0 ;
    }
    pthread_once (&handlers_once, handlers_register) ;
    pthread_mutex_lock (&t->lock) ;
    while (t->busy) pthread_cond_wait (&t->done, &t->lock) ;
    if (t->pid != getpid ())
    {
        // first use in this process (a team used before a fork was reset by
        // the fork handler; one never registered has nothing to forget)
        t->pid = getpid () ;
        t->nworkers = 0 ;
        t->started = 0 ;
    }
    team_register (t) ;
    t->busy = true ;
    t->run++ ;
    t->n = n ;
    t->fn = fn ;
    t->arg = arg ;
    t->pending = n ;
    // start the workers this run is the first to need
    bool inline_job [GG_MAX_SLOTS] = { false } ;
    int made = 0 ;
    for (int k = t->nworkers ; k < n ; k++)
    {
        worker_start *ws = malloc (sizeof (worker_start)) ;
        if (ws != NULL)
        {
            *ws = (worker_start) { .t = t, .k = k, .seen = t->run - 1 } ;
            if (pthread_create (&t->tid [k], NULL, worker, ws) == 0)
            {
                t->nworkers = k + 1 ;
                t->started++ ;
                made++ ;
                continue ;
            }
            free (ws) ;
        }
        // no thread: this job and the rest run here
        for (int j = k ; j < n ; j++) inline_job [j] = true ;
        break ;
    }
    pthread_cond_broadcast (&t->wake) ;
    int ninline = 0 ;
    for (int k = 0 ; k < n ; k++) ninline += inline_job [k] ;
    if (ninline > 0)
    {
        pthread_mutex_unlock (&t->lock) ;
        for (int k = 0 ; k < n ; k++) if (inline_job [k]) fn (arg, k) ;
        pthread_mutex_lock (&t->lock) ;
        t->pending -= ninline ;
    }
    while (t->pending > 0) pthread_cond_wait (&t->done, &t->lock) ;
    t->busy = false ;
    pthread_cond_broadcast (&t->done) ;
    pthread_mutex_unlock (&t->lock) ;
    return made ;
}

uint64_t gg_team_started (gg_team *t)
{
    pthread_mutex_lock (&t->lock) ;
    uint64_t s = (t->pid == getpid ()) ? t->started : 0 ;
    pthread_mutex_unlock (&t->lock) ;
    return s ;
}

void gg_team_stop (gg_team *t)
{
    pthread_mutex_lock (&t->lock) ;
    if (t->pid != getpid () || t->nworkers == 0 || member_of == t)
    {
        pthread_mutex_unlock (&t->lock) ;
        return ;
    }
    while (t->busy) pthread_cond_wait (&t->done, &t->lock) ;
    t->busy = true ;                // held while the workers end
    t->quit = true ;
    pthread_cond_broadcast (&t->wake) ;
    int n = t->nworkers ;
    pthread_t tid [GG_MAX_SLOTS] ;
    for (int k = 0 ; k < n ; k++) tid [k] = t->tid [k] ;
    pthread_mutex_unlock (&t->lock) ;
    for (int k = 0 ; k < n ; k++) pthread_join (tid [k], NULL) ;
    pthread_mutex_lock (&t->lock) ;
    t->nworkers = 0 ;
    t->quit = false ;
    t->busy = false ;
    pthread_cond_broadcast (&t->done) ;
    pthread_mutex_unlock (&t->lock) ;
}
