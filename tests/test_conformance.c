//------------------------------------------------------------------------------
// tests/test_conformance.c: every offloaded call compared with the CPU library
//------------------------------------------------------------------------------

// Each case draws fresh random operands (seeded: the seed is printed, and
// GRBGPU_TEST_SEED=N repeats a run), runs the call once through the CPU
// library (GRBGPU_DEVICE=cpu, the reference) and once forced onto the host
// emulation backend (DEVICE=host, MIN_WORK=0), each on its own copy of C,
// and asserts: the same GrB_Info; the same type, dimensions, pattern and
// values of C (integers exactly; floating values exactly when the inputs are
// small integers or powers of two, so that every order of summation gives the
// same sum, else within a relative tolerance of the sum of |terms|); that the
// call was offloaded when it is supported, or declined when it is not; and
// that the statistics counted it once.
//
// Environment: GRBGPU_TEST_SEED (repeat a run), GRBGPU_TEST_FILTER (a CMocka
// test-name pattern, e.g. 'mask/*'), GRBGPU_TEST_DATA (folder of *.mtx.gz;
// the real-matrix cases skip when it is absent), GRBGPU_TEST_SELFCHECK=1
// (both sides on the CPU library: checks the test itself).
//
// Steers around the SuiteSparse:GraphBLAS 7.4 defects listed in
// docs/ARCHITECTURE.md: no C<M> += T with a full non-complemented mask, no
// masked product with inner dimension 0, no resize.
//
// The groups of cases live in tests/conformance_*.c (what they share:
// tests/conformance.h); this file holds the real-matrix group and main,
// which registers every group in a fixed order.

#include "tests/conformance.h"

//------------------------------------------------------------------------------
// group: real matrices from $GRBGPU_TEST_DATA
//------------------------------------------------------------------------------

static const char *data_dir (void)
{
    const char *d = getenv ("GRBGPU_TEST_DATA") ;
    return (d && *d) ? d : NULL ;
}

// Read a Matrix Market coordinate file through gzip -dc.  symmetric and
// skew-symmetric are mirrored; pattern gets random values in (-1,1).
static GrB_Matrix read_mtx_gz (const char *path, cu_rng *r, bool *pattern)
{
    char cmd [4200] ;
    snprintf (cmd, sizeof cmd, "gzip -dc '%s'", path) ;
    FILE *f = popen (cmd, "r") ;
    if (f == NULL) return NULL ;
    char line [1024] ;
    if (!fgets (line, sizeof line, f)) { pclose (f) ; return NULL ; }
    bool sym = strstr (line, "symmetric") != NULL ;
    bool skew = strstr (line, "skew-symmetric") != NULL ;
    *pattern = strstr (line, "pattern") != NULL ;
    do
    {
        if (!fgets (line, sizeof line, f)) { pclose (f) ; return NULL ; }
    }
    while (line [0] == '%') ;
    unsigned long long m, n, nz ;
    if (sscanf (line, "%llu %llu %llu", &m, &n, &nz) != 3) { pclose (f) ; return NULL ; }
    uint64_t cap = (sym ? 2 : 1) * nz + 1 ;
    GrB_Index *I = malloc (cap * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc (cap * sizeof (GrB_Index)) ;
    double *X = malloc (cap * sizeof (double)) ;
    if (!I || !J || !X) cu_die (__FILE__, __LINE__, "malloc", 0) ;
    uint64_t k = 0 ;
    while (fgets (line, sizeof line, f))
    {
        char *p = line, *e ;
        unsigned long long i = strtoull (p, &e, 10) ; p = e ;
        unsigned long long j = strtoull (p, &e, 10) ; p = e ;
        if (i == 0 || j == 0) continue ;
        double x = *pattern ? 2 * cu_unif (r) - 1 : strtod (p, NULL) ;
        I [k] = i - 1 ; J [k] = j - 1 ; X [k] = x ; k++ ;
        if (sym && i != j)
        {
            I [k] = j - 1 ; J [k] = i - 1 ; X [k] = skew ? -x : x ; k++ ;
        }
        if (k + 2 > cap) break ;
    }
    pclose (f) ;
    GrB_Matrix A ;
    CU_OK (GrB_Matrix_new (&A, GrB_FP64, m, n)) ;
    CU_OK (GrB_Matrix_build_FP64 (A, I, J, X, k, GrB_PLUS_FP64)) ;
    CU_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    free (I) ; free (J) ; free (X) ;
    return A ;
}

static GrB_Matrix dense_matrix (cu_rng *r, int t, uint64_t m, uint64_t n, int vals)
{
    cu_gen g = { 0 } ;
    g.vals = vals ;
    return cu_matrix (r, t, m, n, 1, &g) ;
}

// one product of a real matrix, both sides, compared
static int real_call (const char *name, int op, GrB_Semiring s, int mul,
    GrB_Matrix A, void *X, int tC, double rtol)
{
    GrB_Index m, n, nx = 1 ;
    CU_OK (GrB_Matrix_nrows (&m, A)) ;
    CU_OK (GrB_Matrix_ncols (&n, A)) ;
    if (op == CU_MXM) CU_OK (GrB_Matrix_ncols (&nx, (GrB_Matrix) X)) ;
    void *C0 = NULL, *mag = NULL ;
    cu_call c ;
    cu_call_init (&c, name, op) ;
    c.s = s ; c.rtol = rtol ; c.expect = CU_EXPECT_OFFLOAD ;
    if (op == CU_MXM)
    {
        CU_OK (GrB_Matrix_new ((GrB_Matrix *) &C0, cu_type (tC), m, nx)) ;
        c.A = A ; c.B = X ;
        if (rtol > 0) mag = magnitude (op, mul, A, X, false, false, m, nx) ;
    }
    else if (op == CU_MXV)
    {
        CU_OK (GrB_Vector_new ((GrB_Vector *) &C0, cu_type (tC), m)) ;
        c.A = A ; c.B = X ;
        if (rtol > 0) mag = magnitude (op, mul, A, X, false, false, m, 1) ;
    }
    else
    {
        CU_OK (GrB_Vector_new ((GrB_Vector *) &C0, cu_type (tC), n)) ;
        c.A = X ; c.B = A ;
        if (rtol > 0) mag = magnitude (op, mul, X, A, false, false, 1, n) ;
    }
    c.C0 = C0 ; c.mag = mag ;
    int problems = cu_run (&c) ;
    free_obj (op != CU_MXM, &C0) ;
    free_obj (op != CU_MXM, &mag) ;
    return problems ;
}

static int case_real (const spec *s)
{
    const char *dir = data_dir ( ) ;
    char path [4096] ;
    snprintf (path, sizeof path, "%s/%s", dir ? dir : ".", s->file) ;
    cu_rng r = cu_rng_for (cu_seed, s->name) ;
    bool pattern ;
    GrB_Matrix A = read_mtx_gz (path, &r, &pattern) ;
    if (A == NULL)
    {
        printf ("  [%s] cannot read %s\n", s->name, path) ;
        return 1 ;
    }
    GrB_Index m, n, nz ;
    GrB_Matrix_nrows (&m, A) ; GrB_Matrix_ncols (&n, A) ; GrB_Matrix_nvals (&nz, A) ;
    bool big = m > 100000 ;
    printf ("  [%s] %llu x %llu, %llu entries%s\n", s->name, (unsigned long long) m,
        (unsigned long long) n, (unsigned long long) nz, big ? " (big: fewer semirings)" : "") ;
    int problems = 0 ;
    char name [256] ;
    int widths [2] = { 8, 33 } ;
    for (int w = 0 ; w < (big ? 1 : 2) ; w++)
    {
        int N = widths [w] ;
        GrB_Matrix B64 = dense_matrix (&r, CU_FP64, n, N, CU_V_REAL) ;
        snprintf (name, sizeof name, "%s/spmm%d/PLUS_TIMES_FP64", s->name, N) ;
        problems += real_call (name, CU_MXM, GrB_PLUS_TIMES_SEMIRING_FP64,
            CU_MUL_TIMES, A, B64, CU_FP64, 1e-12) ;
        snprintf (name, sizeof name, "%s/spmm%d/MIN_PLUS_FP64", s->name, N) ;
        problems += real_call (name, CU_MXM, GrB_MIN_PLUS_SEMIRING_FP64,
            CU_MUL_PLUS, A, B64, CU_FP64, 0) ;
        GrB_Matrix_free (&B64) ;
        if (w == 0)
        {
            GrB_Matrix B32 = dense_matrix (&r, CU_FP32, n, N, CU_V_REAL) ;
            snprintf (name, sizeof name, "%s/spmm%d/PLUS_SECOND_FP32", s->name, N) ;
            problems += real_call (name, CU_MXM, GxB_PLUS_SECOND_FP32,
                CU_MUL_SECOND, A, B32, CU_FP32, 1e-5) ;
            GrB_Matrix_free (&B32) ;
            GrB_Matrix Bi = dense_matrix (&r, CU_INT64, n, N, CU_V_REAL) ;
            snprintf (name, sizeof name, "%s/spmm%d/MIN_SECOND_INT64", s->name, N) ;
            problems += real_call (name, CU_MXM, GrB_MIN_SECOND_SEMIRING_INT64,
                CU_MUL_SECOND, A, Bi, CU_INT64, 0) ;
            GrB_Matrix_free (&Bi) ;
        }
    }
    cu_gen g = { 0 } ;
    g.vals = CU_V_REAL ;
    GrB_Vector u = cu_vector (&r, CU_FP64, n, 1, &g) ;
    snprintf (name, sizeof name, "%s/mxv/PLUS_TIMES_FP64", s->name) ;
    problems += real_call (name, CU_MXV, GrB_PLUS_TIMES_SEMIRING_FP64, CU_MUL_TIMES,
        A, u, CU_FP64, 1e-12) ;
    snprintf (name, sizeof name, "%s/mxv/MIN_PLUS_FP64", s->name) ;
    problems += real_call (name, CU_MXV, GrB_MIN_PLUS_SEMIRING_FP64, CU_MUL_PLUS,
        A, u, CU_FP64, 0) ;
    GrB_Vector_free (&u) ;
    GrB_Vector u32 = cu_vector (&r, CU_FP32, n, 1, &g) ;
    snprintf (name, sizeof name, "%s/mxv/PLUS_SECOND_FP32", s->name) ;
    problems += real_call (name, CU_MXV, GxB_PLUS_SECOND_FP32, CU_MUL_SECOND,
        A, u32, CU_FP32, 1e-5) ;
    GrB_Vector_free (&u32) ;
    GrB_Vector v = cu_vector (&r, CU_FP64, m, 1, &g) ;
    snprintf (name, sizeof name, "%s/vxm/PLUS_TIMES_FP64", s->name) ;
    problems += real_call (name, CU_VXM, GrB_PLUS_TIMES_SEMIRING_FP64, CU_MUL_TIMES,
        A, v, CU_FP64, 1e-12) ;
    GrB_Vector_free (&v) ;
    GrB_Vector vi = cu_vector (&r, CU_INT64, m, 1, &g) ;
    snprintf (name, sizeof name, "%s/vxm/MIN_SECOND_INT64", s->name) ;
    problems += real_call (name, CU_VXM, GrB_MIN_SECOND_SEMIRING_INT64, CU_MUL_SECOND,
        A, vi, CU_INT64, 0) ;
    GrB_Vector_free (&vi) ;
    GrB_Matrix_free (&A) ;
    return problems ;
}

static int cmp_str (const void *a, const void *b)
{
    return strcmp (*(char *const *) a, *(char *const *) b) ;
}

void group_real (void)
{
    const char *dir = data_dir ( ) ;
    DIR *d = dir ? opendir (dir) : NULL ;
    if (d == NULL)
    {
        printf ("real-matrix cases skipped: GRBGPU_TEST_DATA (%s) is not a folder\n",
            dir ? dir : "unset") ;
        return ;
    }
    char *names [512] ;
    int nn = 0 ;
    struct dirent *e ;
    while ((e = readdir (d)) != NULL && nn < 512)
    {
        size_t len = strlen (e->d_name) ;
        if (len > 7 && strcmp (e->d_name + len - 7, ".mtx.gz") == 0)
            names [nn++] = strdup (e->d_name) ;
    }
    closedir (d) ;
    qsort (names, nn, sizeof (char *), cmp_str) ;
    for (int i = 0 ; i < nn ; i++)
    {
        spec s = spec_default ( ) ;
        s.custom = case_real ;
        s.file = names [i] ;        // kept until exit
        add_spec (&s, "real/%.*s", (int) (strlen (names [i]) - 7), names [i]) ;
    }
    if (nn == 0) printf ("real-matrix cases skipped: no *.mtx.gz in %s\n", dir) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (void)
{
    const char *seed_env = getenv ("GRBGPU_TEST_SEED") ;
    if (seed_env && *seed_env) cu_seed = strtoull (seed_env, NULL, 0) ;
    else
    {
        struct timeval tv ;
        gettimeofday (&tv, NULL) ;
        cu_seed = ((uint64_t) tv.tv_sec * 1000003u) ^ (uint64_t) tv.tv_usec
                ^ ((uint64_t) getpid ( ) << 20) ;
    }
    const char *sc = getenv ("GRBGPU_TEST_SELFCHECK") ;
    cu_selfcheck = sc && *sc && strcmp (sc, "0") != 0 ;
    printf ("conformance: seed %llu (GRBGPU_TEST_SEED=%llu repeats this run)%s\n",
        (unsigned long long) cu_seed, (unsigned long long) cu_seed,
        cu_selfcheck ? " [self-check: both sides on the CPU library]" : "") ;
    printf ("conformance: %s\n", grbgpu_version ( )) ;
    fflush (stdout) ;

    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS)
    {
        fprintf (stderr, "GrB_init failed\n") ;
        return 1 ;
    }
    // the per-call decision matters, not the thresholds: force the offload
    // side explicitly in every case (cu_device_host), reference otherwise
    cu_device_cpu ( ) ;

    group_grid ( ) ;
    group_shapes ( ) ;
    group_mixed ( ) ;
    group_masks ( ) ;
    group_accum ( ) ;
    group_transpose ( ) ;
    group_storage ( ) ;
    group_iso_structure ( ) ;
    group_alias ( ) ;
    group_dense ( ) ;
    group_values ( ) ;
    group_nonfinite ( ) ;
    group_nonfinite_kernels ( ) ;
    group_nm ( ) ;
    group_alias2 ( ) ;
    group_sequence ( ) ;
    group_pending ( ) ;
    group_monoids ( ) ;
    group_declines ( ) ;
    group_invalid ( ) ;
    group_real ( ) ;

    struct CMUnitTest *tests = calloc (nspecs, sizeof (struct CMUnitTest)) ;
    if (tests == NULL) return 1 ;
    for (int i = 0 ; i < nspecs ; i++)
    {
        tests [i].name = specs [i].name ;
        tests [i].test_func = test_spec ;
        tests [i].initial_state = &specs [i] ;
    }
    const char *filter = getenv ("GRBGPU_TEST_FILTER") ;
    if (filter && *filter) cmocka_set_test_filter (filter) ;
    int failed = _cmocka_run_group_tests ("conformance", tests, nspecs, NULL, NULL) ;
    free (tests) ;
    cu_finalize ( ) ;
    GrB_finalize ( ) ;
    return failed ? 1 : 0 ;
}
