//------------------------------------------------------------------------------
// tests/test_vxm_device.c: GrB_vxm through the transpose made on the device
//------------------------------------------------------------------------------

// GrB_vxm (w = u' A, A held by row) reaches the CUDA backend as A's own CSR
// with gg_csr.transposed set; the backend makes A' on the device
// (backend/cuda/form_csrt.c, kernels/csr_transpose) and keeps it with A's
// device form.  Checked here end to end (the interposer and the CUDA module's
// objects are linked into this program) against the CPU library
// (grbgpu_set ("DEVICE", "cpu")) in the same process, on fresh random
// operands:
//   - FP32, FP64, INT32 and several semirings (PLUS_TIMES, MIN_PLUS,
//     MAX_TIMES / MAX_MIN, PLUS_SECOND, PLUS_PAIR), unmasked, under a valued
//     mask, a complemented structural mask, and with an accumulator;
//   - GrB_mxm (C = A' B, B dense) and GrB_mxv with A held by column, which
//     take the same path;
//   - the transposed form is made once per version of A: a second call makes
//     none, a change of A (GrB_Matrix_setElement) makes a new one, and the
//     answer follows the change;
//   - threads multiplying by one new A at once: one transposed form;
//   - faults injected in the device transpose (convert, launch): the
//     call answers right through the CPU library, and once the cache is
//     cleared the device pool holds what it held before (nothing leaked).
// Values: FP sums may be reordered (|gpu - cpu| <= tol * |cpu| + tiny with
// positive terms), everything else is compared exactly.  Without a usable
// CUDA device the same calls run on the host emulation backend
// (GRBGPU_DEVICE=host, which transposes on the host: the same dispatch path),
// without the device's own checks (forms made, pool).

#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "backend/grbgpu_internal.h"
#include "backend/cache/cache.h"
#include "backend/cuda/device.h"

// transposed forms made so far (backend/cuda/form_csrt.c)
uint64_t gg_csrt_builds (void) ;

static int checks = 0, failures = 0 ;
static const char *dev = "cuda" ;      // or "host" without a GPU
static bool on_gpu = true ;
static uint64_t builds (void) { return on_gpu ? gg_csrt_builds () : 0 ; }
#define CHECK(cond, ...) do { checks++ ; if (!(cond)) { failures++ ; \
    printf ("FAIL %s:%d: ", __FILE__, __LINE__) ; printf (__VA_ARGS__) ; \
    printf ("\n") ; } } while (0)
#define OK(call) do { GrB_Info i_ = (call) ; if (i_ != GrB_SUCCESS) { \
    printf ("%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int) i_) ; \
    exit (1) ; } } while (0)

static uint64_t rng_s = 0x243f6a8885a308d3ull ;
static uint64_t rng (void)
{
    uint64_t z = (rng_s += 0x9e3779b97f4a7c15ull) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull ;
    return z ^ (z >> 31) ;
}
static double unif (void) { return (double) (rng () >> 11) * (1.0 / 9007199254740992.0) ; }

// A random m x k matrix of type T held by row (or column): each row has
// entries with probability 1 - empty, few columns are left empty, values in
// [0.5, 1.5) (FP) or [-20, 20] (INT32).
static GrB_Matrix make_matrix (GrB_Type T, int64_t m, int64_t k, double density,
    bool by_col)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, T, m, k)) ;
    if (by_col) OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        if (unif () < 0.1) continue ;                   // an empty row
        for (int64_t j = 0 ; j < k ; j++)
        {
            if (j % 7 == 3 || unif () >= density) continue ;  // empty columns
            double v = 0.5 + unif () ;
            if (T == GrB_INT32) OK (GrB_Matrix_setElement_INT32 (A, (int32_t) (rng () % 41) - 20, i, j)) ;
            else OK (GrB_Matrix_setElement_FP64 (A, v, i, j)) ;
        }
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static GrB_Vector make_dense_vector (GrB_Type T, int64_t n)
{
    GrB_Vector u ;
    OK (GrB_Vector_new (&u, T, n)) ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        if (T == GrB_INT32) OK (GrB_Vector_setElement_INT32 (u, (int32_t) (rng () % 21) - 10, i)) ;
        else OK (GrB_Vector_setElement_FP64 (u, 0.5 + unif (), i)) ;
    }
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    return u ;
}

// The same structure and values (FP: within tol of the reference; a
// non-finite reference exactly).
static bool same_matrix (GrB_Matrix G, GrB_Matrix C, bool fp, double tol)
{
    GrB_Index ng, nc, nr, ncol ;
    OK (GrB_Matrix_nvals (&ng, G)) ;
    OK (GrB_Matrix_nvals (&nc, C)) ;
    if (ng != nc) { printf ("  nvals %llu vs %llu\n", (unsigned long long) ng, (unsigned long long) nc) ; return false ; }
    OK (GrB_Matrix_nrows (&nr, C)) ;
    OK (GrB_Matrix_ncols (&ncol, C)) ;
    GrB_Index *Ig = malloc ((ng + 1) * sizeof (GrB_Index)), *Jg = malloc ((ng + 1) * sizeof (GrB_Index)) ;
    GrB_Index *Ic = malloc ((nc + 1) * sizeof (GrB_Index)), *Jc = malloc ((nc + 1) * sizeof (GrB_Index)) ;
    double *Xg = malloc ((ng + 1) * sizeof (double)), *Xc = malloc ((nc + 1) * sizeof (double)) ;
    GrB_Index n1 = ng, n2 = nc ;
    OK (GrB_Matrix_extractTuples_FP64 (Ig, Jg, Xg, &n1, G)) ;
    OK (GrB_Matrix_extractTuples_FP64 (Ic, Jc, Xc, &n2, C)) ;
    bool same = true ;
    for (GrB_Index q = 0 ; q < n1 && same ; q++)
    {
        if (Ig [q] != Ic [q] || Jg [q] != Jc [q]) { printf ("  entry %llu at another place\n", (unsigned long long) q) ; same = false ; break ; }
        double a = Xg [q], b = Xc [q] ;
        bool ok = fp ? (isfinite (b) ? fabs (a - b) <= tol * fabs (b) + 1e-300 : (isnan (b) ? isnan (a) : a == b))
                     : (a == b) ;
        if (!ok) { printf ("  (%llu,%llu): %.17g vs %.17g\n", (unsigned long long) Ig [q], (unsigned long long) Jg [q], a, b) ; same = false ; }
    }
    free (Ig) ; free (Jg) ; free (Ic) ; free (Jc) ; free (Xg) ; free (Xc) ;
    return same ;
}

static bool same_vector (GrB_Vector g, GrB_Vector c, bool fp, double tol)
{
    // (a vector is an n x 1 matrix to GraphBLAS)
    return same_matrix ((GrB_Matrix) g, (GrB_Matrix) c, fp, tol) ;
}

typedef struct { const char *name ; GrB_Semiring sr [3] ; } sr_case ;   // FP32, FP64, INT32

// w<mask> accum= u' A on the GPU and in the CPU library, from the same
// starting w; the answer must be the same and (without a fault) the GPU's.
static void vxm_case (const char *what, GrB_Type T, GrB_Semiring sr,
    GrB_Vector u, GrB_Matrix A, GrB_Vector mask, GrB_BinaryOp accum,
    GrB_Descriptor d, bool expect_cuda)
{
    GrB_Index k ;
    OK (GrB_Matrix_ncols (&k, A)) ;
    GrB_Vector w1, w2 ;
    OK (GrB_Vector_new (&w1, T, k)) ;
    if (accum != NULL) for (GrB_Index j = 0 ; j < k ; j += 3) OK (GrB_Vector_setElement_INT32 (w1, (int32_t) (j % 5), j)) ;
    OK (GrB_Vector_dup (&w2, w1)) ;
    grbgpu_set ("DEVICE", dev) ;
    OK (GrB_vxm (w1, mask, accum, sr, u, A, d)) ;
    const char *dec = grbgpu_last_decision () ;
    char decision [64] ;
    snprintf (decision, sizeof (decision), "%s", dec ? dec : "?") ;
    grbgpu_set ("DEVICE", "cpu") ;
    OK (GrB_vxm (w2, mask, accum, sr, u, A, d)) ;
    grbgpu_set ("DEVICE", dev) ;
    const bool fp = (T != GrB_INT32) ;
    CHECK (same_vector (w1, w2, fp, T == GrB_FP32 ? 1e-5 : 1e-12), "%s: vxm differs", what) ;
    if (expect_cuda) CHECK (strcmp (decision, dev) == 0, "%s: answered by %s", what, decision) ;
    GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
}

static void test_semirings (void)
{
    const sr_case cases [] =
    {
        { "PLUS_TIMES",  { GrB_PLUS_TIMES_SEMIRING_FP32, GrB_PLUS_TIMES_SEMIRING_FP64, GrB_PLUS_TIMES_SEMIRING_INT32 } },
        { "MIN_PLUS",    { GrB_MIN_PLUS_SEMIRING_FP32, GrB_MIN_PLUS_SEMIRING_FP64, GrB_MIN_PLUS_SEMIRING_INT32 } },
        { "MAX_TIMES",   { GrB_MAX_TIMES_SEMIRING_FP32, GrB_MAX_TIMES_SEMIRING_FP64, GrB_MAX_MIN_SEMIRING_INT32 } },
        { "PLUS_SECOND", { GxB_PLUS_SECOND_FP32, GxB_PLUS_SECOND_FP64, GxB_PLUS_SECOND_INT32 } },
        { "PLUS_PAIR",   { GxB_PLUS_PAIR_FP32, GxB_PLUS_PAIR_FP64, GxB_PLUS_PAIR_INT32 } },
    } ;
    GrB_Type types [3] = { GrB_FP32, GrB_FP64, GrB_INT32 } ;
    for (int ti = 0 ; ti < 3 ; ti++)
    {
        GrB_Type T = types [ti] ;
        const int64_t m = 900, k = 700 ;
        GrB_Matrix A = make_matrix (T, m, k, 0.02, false) ;
        GrB_Vector u = make_dense_vector (T, m) ;
        // masks over w (length k): a valued one (some false values) and a
        // structural one used complemented
        GrB_Vector mv, ms ;
        OK (GrB_Vector_new (&mv, GrB_BOOL, k)) ;
        OK (GrB_Vector_new (&ms, GrB_BOOL, k)) ;
        for (int64_t j = 0 ; j < k ; j++)
        {
            if (j % 2 == 0) OK (GrB_Vector_setElement_BOOL (mv, (j % 6) != 0, j)) ;
            if (j % 5 == 1) OK (GrB_Vector_setElement_BOOL (ms, false, j)) ;
        }
        GrB_Descriptor dsc ;
        OK (GrB_Descriptor_new (&dsc)) ;
        OK (GrB_Descriptor_set (dsc, GrB_MASK, GrB_COMP)) ;
        OK (GrB_Descriptor_set (dsc, GrB_MASK, GrB_STRUCTURE)) ;
        GrB_BinaryOp plus = (T == GrB_FP32) ? GrB_PLUS_FP32 : (T == GrB_FP64) ? GrB_PLUS_FP64 : GrB_PLUS_INT32 ;
        uint64_t b0 = builds () ;
        for (size_t c = 0 ; c < sizeof (cases) / sizeof (cases [0]) ; c++)
        {
            char what [96] ;
            GrB_Semiring sr = cases [c].sr [ti] ;
            snprintf (what, sizeof what, "%s %s", cases [c].name, ti == 0 ? "FP32" : ti == 1 ? "FP64" : "INT32") ;
            vxm_case (what, T, sr, u, A, NULL, NULL, NULL, true) ;
            snprintf (what, sizeof what, "%s %s valued mask", cases [c].name, ti == 0 ? "FP32" : ti == 1 ? "FP64" : "INT32") ;
            vxm_case (what, T, sr, u, A, mv, NULL, NULL, true) ;
            snprintf (what, sizeof what, "%s %s !struct mask, accum", cases [c].name, ti == 0 ? "FP32" : ti == 1 ? "FP64" : "INT32") ;
            vxm_case (what, T, sr, u, A, ms, plus, dsc, true) ;
        }
        // one version of A: transposed forms made at most once per kind of
        // value array (with values, pattern only, with ones), not per call
        uint64_t made = builds () - b0 ;
        CHECK (!on_gpu || (made >= 1 && made <= 3), "%s: %llu transposed forms made for one A", ti == 0 ? "FP32" : ti == 1 ? "FP64" : "INT32", (unsigned long long) made) ;
        GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&mv) ;
        GrB_Vector_free (&ms) ; GrB_Descriptor_free (&dsc) ;
    }
}

// A change of A: a new version, a new transposed form, the new answer.
static void test_version_change (void)
{
    GrB_Type T = GrB_FP64 ;
    GrB_Matrix A = make_matrix (T, 800, 600, 0.03, false) ;
    GrB_Vector u = make_dense_vector (T, 800) ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    uint64_t b0 = builds () ;
    vxm_case ("version: first", T, sr, u, A, NULL, NULL, NULL, true) ;
    CHECK (!on_gpu || builds () == b0 + 1, "first vxm: %llu forms made", (unsigned long long) (builds () - b0)) ;
    vxm_case ("version: second", T, sr, u, A, NULL, NULL, NULL, true) ;
    CHECK (!on_gpu || builds () == b0 + 1, "second vxm made a form") ;
    // a new entry in a column that had none (j % 7 == 3), and a changed one
    OK (GrB_Matrix_setElement_FP64 (A, 1000.0, 5, 3)) ;
    OK (GrB_Matrix_setElement_FP64 (A, -7.0, 0, 0)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    vxm_case ("version: after setElement", T, sr, u, A, NULL, NULL, NULL, true) ;
    CHECK (!on_gpu || builds () == b0 + 2, "vxm after a change: %llu forms made", (unsigned long long) (builds () - b0)) ;
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ;
}

// The other products by op (A)' whose storage gives op (A): C = A' B
// (GrB_INP0 transposed) and w = A u with A held by column.
static void test_other_products (void)
{
    GrB_Type T = GrB_FP32 ;
    GrB_Matrix A = make_matrix (T, 500, 400, 0.03, false) ;
    GrB_Matrix B ;
    OK (GrB_Matrix_new (&B, T, 500, 8)) ;
    for (int64_t i = 0 ; i < 500 ; i++) for (int64_t j = 0 ; j < 8 ; j++) OK (GrB_Matrix_setElement_FP64 (B, 0.5 + unif (), i, j)) ;
    OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
    GrB_Matrix C1, C2 ;
    OK (GrB_Matrix_new (&C1, T, 400, 8)) ;
    OK (GrB_Matrix_new (&C2, T, 400, 8)) ;
    uint64_t b0 = builds () ;
    grbgpu_set ("DEVICE", dev) ;
    OK (GrB_mxm (C1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, B, GrB_DESC_T0)) ;
    CHECK (strcmp (grbgpu_last_decision (), dev) == 0, "mxm A'B: answered by %s", grbgpu_last_decision ()) ;
    grbgpu_set ("DEVICE", "cpu") ;
    OK (GrB_mxm (C2, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, B, GrB_DESC_T0)) ;
    CHECK (same_matrix (C1, C2, true, 1e-5), "mxm A'B differs") ;
    CHECK (!on_gpu || builds () == b0 + 1, "mxm A'B: %llu forms made", (unsigned long long) (builds () - b0)) ;

    GrB_Matrix Ac = make_matrix (T, 600, 500, 0.02, true) ;
    GrB_Vector u = make_dense_vector (T, 500), w1, w2 ;
    OK (GrB_Vector_new (&w1, T, 600)) ;
    OK (GrB_Vector_new (&w2, T, 600)) ;
    grbgpu_set ("DEVICE", dev) ;
    OK (GrB_mxv (w1, NULL, NULL, GrB_MIN_PLUS_SEMIRING_FP32, Ac, u, NULL)) ;
    CHECK (strcmp (grbgpu_last_decision (), dev) == 0, "mxv by column: answered by %s", grbgpu_last_decision ()) ;
    grbgpu_set ("DEVICE", "cpu") ;
    OK (GrB_mxv (w2, NULL, NULL, GrB_MIN_PLUS_SEMIRING_FP32, Ac, u, NULL)) ;
    grbgpu_set ("DEVICE", dev) ;
    CHECK (same_vector (w1, w2, true, 0), "mxv by column differs") ;
    CHECK (!on_gpu || builds () == b0 + 2, "mxv by column: %llu forms made", (unsigned long long) (builds () - b0)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
    GrB_Matrix_free (&Ac) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
}

// Threads multiplying by the same new A at once: every answer right, one
// transposed form made.
typedef struct { GrB_Matrix A ; GrB_Vector u, w ; } thread_arg ;
static void *thread_vxm (void *p)
{
    thread_arg *a = (thread_arg *) p ;
    GrB_Info info = GrB_vxm (a->w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, a->u, a->A, NULL) ;
    return (void *) (intptr_t) info ;
}

static void test_threads (void)
{
    enum { NT = 4 } ;
    GrB_Type T = GrB_FP64 ;
    GrB_Matrix A = make_matrix (T, 1200, 1000, 0.02, false) ;
    GrB_Vector u = make_dense_vector (T, 1200), ref ;
    OK (GrB_Vector_new (&ref, T, 1000)) ;
    grbgpu_set ("DEVICE", "cpu") ;
    OK (GrB_vxm (ref, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, NULL)) ;
    grbgpu_set ("DEVICE", dev) ;
    uint64_t b0 = builds () ;
    pthread_t th [NT] ;
    thread_arg args [NT] ;
    for (int t = 0 ; t < NT ; t++)
    {
        args [t].A = A ; args [t].u = u ;
        OK (GrB_Vector_new (&args [t].w, T, 1000)) ;
        CHECK (pthread_create (&th [t], NULL, thread_vxm, &args [t]) == 0, "pthread_create") ;
    }
    for (int t = 0 ; t < NT ; t++)
    {
        void *r = NULL ;
        pthread_join (th [t], &r) ;
        CHECK ((GrB_Info) (intptr_t) r == GrB_SUCCESS, "thread %d: GrB_vxm -> %d", t, (int) (intptr_t) r) ;
        CHECK (same_vector (args [t].w, ref, true, 1e-12), "thread %d: vxm differs", t) ;
        GrB_Vector_free (&args [t].w) ;
    }
    CHECK (!on_gpu || builds () == b0 + 1, "threads: %llu transposed forms made", (unsigned long long) (builds () - b0)) ;
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&ref) ;
}

static size_t pool_used (void)
{
    cudaMemPool_t pool ;
    uint64_t used = 0 ;
    grbgpu_cuda_sync () ;
    cudaDeviceSynchronize () ;
    if (cudaDeviceGetDefaultMemPool (&pool, grbgpu_settings.device_id) != cudaSuccess
        || cudaMemPoolGetAttribute (pool, cudaMemPoolAttrUsedMemCurrent, &used) != cudaSuccess)
    {
        printf ("cannot read the device pool\n") ;
        exit (1) ;
    }
    return (size_t) used ;
}

// Faults in the device transpose: A's form is on the device first (an mxv),
// so the conversion on the host is a cache hit and the fault fires in
// form_csrt.c.  The answer comes from the CPU library and is right; nothing
// stays taken.  Then the transpose is made, and its bytes count in the
// cache's device bytes.
static void test_faults (void)
{
    const char *points [2] = { "convert", "launch" } ;
    for (int pt = 0 ; pt < 2 ; pt++)
    {
        grbgpu_cache_clear () ;
        size_t base = on_gpu ? pool_used () : 0 ;
        GrB_Type T = GrB_FP32 ;
        // (square, and u is mxv's input too: u's form is cached as well)
        GrB_Matrix A = make_matrix (T, 700, 700, 0.03, false) ;
        GrB_Vector u = make_dense_vector (T, 700), y ;
        OK (GrB_Vector_new (&y, T, 700)) ;
        grbgpu_set ("DEVICE", dev) ;
        OK (GrB_mxv (y, NULL, NULL, GrB_MIN_PLUS_SEMIRING_FP32, A, u, NULL)) ;
        CHECK (strcmp (grbgpu_last_decision (), dev) == 0, "fault %s: the mxv before: %s", points [pt], grbgpu_last_decision ()) ;
        size_t host0, dev0, host1, dev1 ;
        grbgpu_cache_usage (&host0, &dev0) ;
        grbgpu_stats s0, s1 ;
        grbgpu_stats_get (&s0) ;
        uint64_t b0 = builds () ;
        char spec [64] ;
        snprintf (spec, sizeof spec, "%s:1", points [pt]) ;
        CHECK (grbgpu_set ("FAULT", spec) == 0, "GRBGPU_FAULT=%s refused", spec) ;
        vxm_case (points [pt], T, GrB_MIN_PLUS_SEMIRING_FP32, u, A, NULL, NULL, NULL, false) ;
        CHECK (grbgpu_set ("FAULT", "") == 0, "GRBGPU_FAULT= refused") ;
        grbgpu_stats_get (&s1) ;
        CHECK (!on_gpu || builds () == b0, "fault %s: a transposed form was made", points [pt]) ;
        CHECK (!on_gpu || s1.fallbacks == s0.fallbacks + 1, "fault %s: %llu fallbacks", points [pt], (unsigned long long) (s1.fallbacks - s0.fallbacks)) ;
        // and without the fault the same A goes through the device transpose
        vxm_case ("after the fault", T, GrB_MIN_PLUS_SEMIRING_FP32, u, A, NULL, NULL, NULL, true) ;
        CHECK (!on_gpu || builds () == b0 + 1, "after fault %s: no transposed form made", points [pt]) ;
        // the transposed form's bytes count in A's cache entry
        GrB_Index nnz ;
        OK (GrB_Matrix_nvals (&nnz, A)) ;
        grbgpu_cache_usage (&host1, &dev1) ;
        CHECK (!on_gpu || dev1 >= dev0 + 8 * (size_t) nnz, "after fault %s: device bytes %zu -> %zu for %llu entries",
            points [pt], dev0, dev1, (unsigned long long) nnz) ;
        GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&y) ;
        grbgpu_cache_clear () ;
        size_t after = on_gpu ? pool_used () : 0 ;
        CHECK (after == base, "fault %s: device pool %zu bytes, was %zu", points [pt], after, base) ;
    }
}

int main (void)
{
    setenv ("GRBGPU_VERBOSE", "0", 0) ;
    grbgpu_settings_init () ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (grbgpu_cuda_backend () == NULL)
    {
        printf ("test_vxm_device: no usable CUDA device: the host emulation backend\n") ;
        dev = "host" ;
        on_gpu = false ;
    }
    grbgpu_set ("MIN_WORK", "0") ;
    test_semirings () ;
    test_version_change () ;
    test_other_products () ;
    test_threads () ;
    test_faults () ;
    GrB_finalize () ;
    printf ("test_vxm_device (%s): %d checks, %d failed\n", dev, checks, failures) ;
    return failures ? 1 : 0 ;
}
