//------------------------------------------------------------------------------
// backend/team.h: persistent worker threads, one per slot of the split path
//------------------------------------------------------------------------------

// The split path of GRBGPU_DEVICES (backend/cuda/multi.c, and its model in the
// host emulation backend) runs one job per slot at once.  A team keeps one
// worker thread per slot between calls, so that a call pays a hand-off (a
// condition variable each way), not a thread and an OpenMP team per slot.
//
//   - Workers are started on first use (member k of a run is worker k, always
//     the same thread), up to GG_MAX_SLOTS.  Each sets its OpenMP thread count
//     to its share of the processors (processors / members of the run), so the
//     slots' host copies do not oversubscribe the cores.
//   - One run at a time per team: a second caller waits for the first to end
//     (no cycle is possible: a run holds the whole team, nothing else).  A
//     run asked for from a member of the same team runs its jobs in the
//     calling thread, one after another.
//   - A worker that cannot be started: its job runs in the caller's thread.
//   - At process exit (atexit, registered when the first worker starts) idle
//     workers are told to quit and joined; a team in the middle of a run is
//     only told to quit (its workers end after it; nothing waits on them).
//   - fork: the child has none of the parent's workers; it forgets them and
//     starts its own on first use (pthread_atfork).
// The file is compiled into libgrbgpu.so and, as its own copy, into the CUDA
// module (each copy has its teams and its exit and fork handlers).

#ifndef GRBGPU_TEAM_H
#define GRBGPU_TEAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/grbgpu_internal.h"

typedef void (*gg_team_fn) (void *arg, int member) ;

typedef struct
{
    pthread_mutex_t lock ;
    pthread_cond_t wake ;           // workers: a run (or quit) is posted
    pthread_cond_t done ;           // callers: a run ended / the team is free
    pid_t pid ;                     // the process the workers belong to
    int nworkers ;                  // started
    pthread_t tid [GG_MAX_SLOTS] ;
    bool busy ;                     // a run holds the team
    bool quit ;                     // workers end (exit)
    bool registered ;               // in this copy's list of teams
    uint64_t run ;                  // number of the run posted last
    int n ;                         // members of that run
    gg_team_fn fn ;
    void *arg ;
    int pending ;                   // its jobs not yet finished
    uint64_t started ;              // workers started in this process (tests)
}
gg_team ;

#define GG_TEAM_INIT { .lock = PTHREAD_MUTEX_INITIALIZER, \
    .wake = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER }

// Run fn (arg, k) for k = 0 .. n-1 (1 <= n <= GG_MAX_SLOTS), job k on worker
// k, and return when all are done.  fn reports its outcome through arg.
// Returns how many workers were started by this call (0 once they exist).
GG_INTERNAL int gg_team_run (gg_team *t, int n, gg_team_fn fn, void *arg) ;

// Workers started by t in this process since it began (each worker is
// started once: a count that stays put across runs shows they are reused).
GG_INTERNAL uint64_t gg_team_started (gg_team *t) ;

// Tell t's workers to quit and join them (when no run is in flight; else
// only tell them).  The next run starts new ones.  At exit, and in tests.
GG_INTERNAL void gg_team_stop (gg_team *t) ;

#endif
