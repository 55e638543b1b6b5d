//------------------------------------------------------------------------------
// tests/test_cuda_backend.c: the CUDA backend through the gg_backend interface
//------------------------------------------------------------------------------

// Drives grbgpu_cuda_backend ()->spmm / sddmm / gemm directly (backend/cuda/
// is linked into this program: its symbols are hidden in the library) on fresh
// random operands and compares with a plain C reference computed here, for the
// plus-times family over FP32 / FP64 (TIMES, FIRST, SECOND, PAIR, iso values,
// n == 1 SpMV, every cuSPARSE SpMM algorithm), the own-kernel path, the device
// cache (a second call with the same entry uploads nothing), eviction under a
// tiny device budget, fault injection (an error code, nothing leaked), threads
// sharing one cached operand, a forked child, and the kernel-family rows
// (tensor cores, N:M).  GRBGPU_TEST_FILTER (a CMocka pattern) runs some only.
//
// Tolerance: |gpu - ref| <= tol * sum |terms| + tiny, tol = 1e-5 (FP32) or
// 1e-12 (FP64): sums may be reordered, products must be exact.
// Exit 77 (skip) when no CUDA device is usable.

#include "config.h"

#include "tests/cuda_backend_test.h"

//------------------------------------------------------------------------------
// fault injection
//------------------------------------------------------------------------------

static int configure_fault (const char *point, const char *p)
{
    char spec [64] ;
    snprintf (spec, sizeof (spec), "%s:%s", point, p) ;
    return grbgpu_fault_configure (spec) ;
}

// Every failure point: the call returns an error code, and no device memory
// stays taken (the cache is cleared, so the pool's use returns to where it
// was).  At a 30% fault rate, every call either fails or is right.
static void test_faults (void **state)
{
    (void) state ;
    const char *points [3] = { "alloc", "copy", "launch" } ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
    int64_t m = 500, k = 400, n = 16 ;
    test_csr S = make_csr (m, k, 0.03, GG_FP32) ;
    double *Xv ;
    void *X = make_dense (k, n, GG_FP32, &Xv) ;
    float *Y = malloc ((size_t) (m * n) * sizeof (float)) ;
    float *y = malloc ((size_t) S.nnz * sizeof (float) + 4) ;
    gg_dense Xd = { .nrows = k, .ncols = n, .x = X } ;
    grbgpu_cache_clear () ;
    size_t base = pool_used () ;
    for (int pt = 0 ; pt < 3 ; pt++)
    {
        assert_int_equal (configure_fault (points [pt], "1"), 0) ;
        gg_cache_entry *e = make_entry () ;
        gg_csr Sv = view_csr (&S, false, e) ;
        int rc = be->spmm (&sr, &Sv, &Xd, Y) ;
        assert_int_equal (rc, GG_ERR_FAULT) ;
        // M = S's pattern (m x k), A: m x n (Y's memory), B = X (k x n)
        memset (Y, 0, (size_t) (m * n) * sizeof (float)) ;
        gg_dense Ad = { .nrows = m, .ncols = n, .x = Y } ;
        rc = be->sddmm (&sr, &Sv, &Ad, &Xd, y) ;
        assert_true (rc != GG_OK) ;
        gg_dense A = { .nrows = 20, .ncols = 10, .x = X } ;
        rc = be->gemm (&sr, &A, &A, Y) ;
        assert_true (rc != GG_OK) ;
        assert_int_equal (grbgpu_fault_configure (""), 0) ;
        grbgpu_cache_release (e) ;
        grbgpu_cache_clear () ;
        assert_int_equal (pool_used (), base) ;

        // a fraction: right or an error, never wrong
        assert_int_equal (configure_fault (points [pt], "0.3"), 0) ;
        int ok = 0 ;
        for (int r = 0 ; r < 20 ; r++)
        {
            gg_cache_entry *e2 = (r % 2) ? make_entry () : NULL ;
            gg_csr Sv2 = view_csr (&S, false, e2) ;
            memset (Y, 0, (size_t) (m * n) * sizeof (float)) ;
            if (be->spmm (&sr, &Sv2, &Xd, Y) == GG_OK)
            {
                ok++ ;
                assert_int_equal (check_spmm (&sr, &S, false, Xv, n, Y), 0) ;
            }
            if (e2 != NULL) grbgpu_cache_release (e2) ;
        }
        assert_int_equal (grbgpu_fault_configure (""), 0) ;
        grbgpu_cache_clear () ;
        assert_int_equal (pool_used (), base) ;
        print_message ("  fault %s:0.3: %d of 20 calls succeeded\n",
            points [pt], ok) ;
    }
    free_csr (&S) ; free (X) ; free (Xv) ; free (Y) ; free (y) ;
}

//------------------------------------------------------------------------------
// threads sharing one cached operand
//------------------------------------------------------------------------------

typedef struct
{
    const test_csr *S ;
    gg_cache_entry *e ;
    gg_type t ;
    int64_t n ;
    int bad ;
    int rc ;
}
thread_job ;

static void *thread_main (void *arg)
{
    thread_job *j = arg ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, j->t } ;
    double *Xv ;
    for (int r = 0 ; r < 6 && j->rc == GG_OK && j->bad == 0 ; r++)
    {
        // make_dense draws from the shared generator: serialise the draw
        static pthread_mutex_t draw = PTHREAD_MUTEX_INITIALIZER ;
        pthread_mutex_lock (&draw) ;
        void *X = make_dense (j->S->k, j->n, j->t, &Xv) ;
        pthread_mutex_unlock (&draw) ;
        void *Y = malloc ((size_t) (j->S->m * j->n) * 8) ;
        gg_csr Sv = view_csr (j->S, false, j->e) ;
        gg_dense Xd = { .nrows = j->S->k, .ncols = j->n, .x = X } ;
        j->rc = be->spmm (&sr, &Sv, &Xd, Y) ;
        if (j->rc == GG_OK) j->bad = check_spmm (&sr, j->S, false, Xv, j->n,
            Y) ;
        free (X) ; free (Xv) ; free (Y) ;
    }
    return NULL ;
}

static void test_threads (void **state)
{
    (void) state ;
    enum { NT = 8 } ;       // more threads than contexts: some wait
    test_csr S = make_csr (3000, 2000, 0.005, GG_FP32) ;
    gg_cache_entry *e = make_entry () ;
    pthread_t th [NT] ;
    thread_job job [NT] ;
    for (int t = 0 ; t < NT ; t++)
    {
        job [t] = (thread_job) { .S = &S, .e = e, .t = GG_FP32,
            .n = (t % 2) ? 32 : 128 } ;
        assert_int_equal (pthread_create (&th [t], NULL, thread_main,
            &job [t]), 0) ;
    }
    for (int t = 0 ; t < NT ; t++)
    {
        pthread_join (th [t], NULL) ;
        assert_int_equal (job [t].rc, GG_OK) ;
        assert_int_equal (job [t].bad, 0) ;
    }
    grbgpu_cache_release (e) ;
    grbgpu_cache_clear () ;
    free_csr (&S) ;
}

//------------------------------------------------------------------------------
// fork
//------------------------------------------------------------------------------

// A child forked before this process touched CUDA starts CUDA itself and
// computes the right answer: exit 0 right, 1 wrong, 77 no device.
static int child_spmm (void)
{
    alarm (60) ;
    const gg_backend *b = grbgpu_cuda_backend () ;
    if (b == NULL) return 77 ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 } ;
    test_csr S = make_csr (100, 90, 0.1, GG_FP64) ;
    double *Xv ;
    void *X = make_dense (90, 5, GG_FP64, &Xv) ;
    double Y [100 * 5] ;
    gg_csr Sv = view_csr (&S, false, NULL) ;
    gg_dense Xd = { .nrows = 90, .ncols = 5, .x = X } ;
    if (b->spmm (&sr, &Sv, &Xd, Y) != GG_OK) return 1 ;
    return check_spmm (&sr, &S, false, Xv, 5, Y) == 0 ? 0 : 1 ;
}

static int fork_status = -1 ;

// After this process started CUDA, a forked child must not crash or give a
// wrong answer: it gets no backend, or an error, or the right result.
static void test_fork_after_start (void **state)
{
    (void) state ;
    assert_int_equal (fork_status, 0) ;     // the child forked before start
    if (getenv ("GRBGPU_TEST_UNDER_SANITIZER") != NULL)
    {
        // compute-sanitizer's injected library does not survive a fork
        // after CUDA started: the child dies in it, not in grbgpu
        print_message ("  skipped under compute-sanitizer\n") ;
        skip () ;
    }
    pid_t pid = fork () ;
    assert_true (pid >= 0) ;
    if (pid == 0)
    {
        int r = child_spmm () ;
        _exit (r == 77 ? 0 : r) ;
    }
    int st = 0 ;
    waitpid (pid, &st, 0) ;
    assert_true (WIFEXITED (st)) ;
    if (WEXITSTATUS (st) == 1) print_message ("  note: child after start "
        "got an error (expected: CUDA does not survive fork)\n") ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

// after each test, pass or fail: no kernel forced, reordering as the
// environment set it, no fault injected (a test that stops at a failed
// assertion must not leave its settings to the next one)
static int reorder_default ;
static int restore_settings (void **state)
{
    (void) state ;
    set_kernel ("") ;
    grbgpu_settings.reorder = reorder_default ;
    return grbgpu_fault_configure ("") ;
}
#define T(f) cmocka_unit_test_teardown (f, restore_settings)

int main (void)
{
    setenv ("GRBGPU_VERBOSE", "1", 0) ;
    grbgpu_settings_init () ;
    reorder_default = grbgpu_settings.reorder ;

    // fork before anything here touches CUDA
    fflush (NULL) ;
    pid_t pid = fork () ;
    if (pid == 0) _exit (child_spmm ()) ;
    int st = 0 ;
    waitpid (pid, &st, 0) ;
    fork_status = WIFEXITED (st) ? WEXITSTATUS (st) : 2 ;

    GrB_init (GrB_NONBLOCKING) ;
    be = grbgpu_cuda_backend () ;
    if (be == NULL)
    {
        printf ("test_cuda_backend: SKIP: no usable CUDA device\n") ;
        return 77 ;
    }
    if (fork_status == 77) fork_status = 0 ;    // raced with a vanished GPU
    const struct CMUnitTest tests [] =
    {
        T (test_spmm_plus_times),
        T (test_spmm_algorithms),
        T (test_spmm_tuned),
        T (test_spmm_own_kernels),
        T (test_spmm_edge_cases),
        T (test_spmv_push),
        T (test_spmv_hot),
        T (test_spmv_band),
        T (test_tc_family),
        T (test_nm_family),
        T (test_lenr_family),
        T (test_sddmm),
        T (test_gemm),
        T (test_dense_tuned),
        T (test_cache_reuse),
        T (test_cache_eviction),
        T (test_faults),
        T (test_threads),
        T (test_fork_after_start),
    } ;
    // GRBGPU_TEST_FILTER (a CMocka pattern, e.g. 'test_nm*') runs some only
    const char *filter = getenv ("GRBGPU_TEST_FILTER") ;
    if (filter != NULL && *filter) cmocka_set_test_filter (filter) ;
    int failed = cmocka_run_group_tests (tests, NULL, NULL) ;
    grbgpu_cache_clear () ;
    for (int k = 0 ; k < nhandles ; k++) GrB_Matrix_free (&handles [k]) ;
    free (handles) ;
    GrB_finalize () ;
    return failed ? 1 : 0 ;
}
