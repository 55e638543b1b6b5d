//------------------------------------------------------------------------------
// tests/test_cuda_kernels.cu: grbgpu's CUDA kernels against a plain reference
//------------------------------------------------------------------------------

// Every SpMM variant (and the chooser), SDDMM and GEMM, for all 7 types and a
// representative set of semirings, on fresh random matrices with structured
// rows (lengths 0, 1, 31, 33, one hub row holding most entries, long runs of
// empty rows, a hub spanning more than 32 warp chunks) and n = 1, 3, 32, 128.
// The warp_tI SpMV variant runs twice: making its plan in the call, and
// with a plan made beforehand by gg_cuda_spmv_plan_build (gg_cuda_spmm_plan).
// At n = 1 the hot/cold SpMV (gg_cuda_spmv_hot) runs with four hot forms of
// each matrix: K = 0, at most 5 and 200 columns (fewer than it has), and as
// many as FP64 allows (every column on most of them); the build is checked.
// The band SpMV (gg_cuda_spmv_band) runs with four band forms of each
// matrix (bands of 16, 64 and the device's width of columns; see
// test_spmm_case) whenever the multiply reads x and the type has 4 bytes
// (the build must refuse the others).
// Then the FP types with special values (+-INF, NaN, -0 among the values,
// or every value one of them: FILL_SPECIAL, FILL_CONST) on every variant,
// SDDMM and GEMM, compared exactly (NaN matching NaN): absent and padded
// entries must never meet them.
// The MIN / MAX semirings run the FP32 fast paths (compile-time monoid) and,
// on rows cut by chunk boundaries, the integer-ordered FP atomics (nnz_k, and
// warp's fix-up) or the carry fix-up (merge).  The reference below is a
// direct loop over the GraphBLAS semantics (the kernels' canonicalisation is
// not reused): BOOL with its own logical operators, integers wrapping, FP
// MIN / MAX as fmin / fmax.
//
// Comparison: integers and BOOL exactly.  FP values are small integers, so
// every PLUS, MIN and MAX result is exact in any order and is compared
// exactly too; TIMES monoids are compared to 1e-5 relative (and any
// non-finite result is accepted where the reference is non-finite, since
// overflow then depends on the order).  ANY: the result must equal one of the
// row's candidates.  Arrays the multiply ignores are passed as NULL (a kernel
// that reads one faults), and rows without entries must keep a sentinel.
//
// Without a CUDA device: prints "SKIP: no CUDA device" and exits 77.

#include "tests/need_device.h"
#include "tests/cuda_kernels_test.h"

uint64_t rng_state = 0x9e3779b97f4a7c15ull ;
uint64_t rng (void)
{
    // splitmix64
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull ;
    return z ^ (z >> 31) ;
}

const char *type_name [GG_NTYPES] =
    { "BOOL", "INT32", "INT64", "UINT32", "UINT64", "FP32", "FP64" } ;
const char *add_name [GG_NADD] =
    { "PLUS", "TIMES", "MIN", "MAX", "ANY", "LOR", "LAND" } ;
const char *mul_name [GG_NMUL] =
    { "TIMES", "FIRST", "SECOND", "PAIR", "PLUS", "MIN", "MAX", "LAND", "LOR" } ;

//------------------------------------------------------------------------------
// SDDMM and GEMM: Y (i,j) = (+)_t mul (A (i,t), B (j,t))
//------------------------------------------------------------------------------

static void dot_ref (gg_type t, gg_semiring sr, const void *A, int64_t i,
    const void *B, int64_t j, int64_t k, val *want, std::vector<val> *cands)
{
    bool rs = sr.mul != GG_MUL_SECOND && sr.mul != GG_MUL_PAIR ;
    bool rx = sr.mul != GG_MUL_FIRST && sr.mul != GG_MUL_PAIR ;
    val acc = { 0, 0 } ;
    if (cands) cands->clear () ;
    for (int64_t q = 0 ; q < k ; q++)
    {
        val a = rs ? get (t, A, i * k + q) : val { 0, 0 } ;
        val b = rx ? get (t, B, j * k + q) : val { 0, 0 } ;
        val z = ref_mul (t, sr.mul, a, b) ;
        acc = (q == 0) ? z : ref_add (t, sr.add, acc, z) ;
        if (cands) cands->push_back (z) ;
    }
    *want = acc ;
}

static bool dot_ok (gg_type t, gg_semiring sr, val got, val want,
    const std::vector<val> &cands)
{
    if (sr.add != GG_ADD_ANY) return same (t, sr.add, got, want) ;
    for (const val &c : cands) if (same (t, sr.add, got, c)) return true ;
    return false ;
}

// the row of each entry for the SDDMM cases (gg_cuda_sddmm_rows), or NULL:
// the kernels search p
static const int32_t *sddmm_ri = NULL ;

static void test_sddmm_case (const csr &M, gg_semiring sr, int64_t k,
    const int32_t *d_p, const int32_t *d_i, const char *kernel)
{
    const gg_type t = sr.type ;
    const size_t ts = gg_type_size (t) ;
    bool rs = sr.mul != GG_MUL_SECOND && sr.mul != GG_MUL_PAIR ;
    bool rx = sr.mul != GG_MUL_FIRST && sr.mul != GG_MUL_PAIR ;
    int64_t m = M.m, n = M.k ;
    std::vector<unsigned char> A (m * k * ts + 8), B (n * k * ts + 8), y (M.nnz * ts) ;
    fill_random (t, A.data (), m * k, sr.add == GG_ADD_TIMES) ;
    fill_random (t, B.data (), n * k, sr.add == GG_ADD_TIMES) ;
    void *d_A = NULL, *d_B = NULL, *d_y = NULL ;
    if (rs) { CHECK_CUDA (cudaMalloc (&d_A, A.size ())) ; CHECK_CUDA (cudaMemcpy (d_A, A.data (), A.size (), cudaMemcpyHostToDevice)) ; }
    if (rx) { CHECK_CUDA (cudaMalloc (&d_B, B.size ())) ; CHECK_CUDA (cudaMemcpy (d_B, B.data (), B.size (), cudaMemcpyHostToDevice)) ; }
    CHECK_CUDA (cudaMalloc (&d_y, y.size () + 8)) ;
    int rc = gg_cuda_sddmm (&sr, m, n, k, M.nnz, d_p, d_i, sddmm_ri, d_A, d_B, d_y, kernel, 0) ;
    cudaError_t err = cudaDeviceSynchronize () ;
    checks++ ;
    if (rc != GG_OK || err != cudaSuccess)
    {
        printf ("FAIL sddmm %s %s_%s_%s k=%lld: rc %d %s\n", M.name, add_name [sr.add],
            mul_name [sr.mul], type_name [t], (long long) k, rc, cudaGetErrorString (err)) ;
        failures++ ;
        if (err != cudaSuccess) exit (1) ;
    }
    else
    {
        CHECK_CUDA (cudaMemcpy (y.data (), d_y, y.size (), cudaMemcpyDeviceToHost)) ;
        int64_t bad = 0 ;
        std::vector<val> cands ;
        for (int64_t r = 0 ; r < m ; r++)
            for (int64_t q = M.p [r] ; q < M.p [r+1] ; q++)
            {
                val want ;
                dot_ref (t, sr, A.data (), r, B.data (), M.i [q], k, &want, &cands) ;
                if (!dot_ok (t, sr, get (t, y.data (), q), want, cands) && bad++ == 0)
                    printf ("  first bad sddmm entry (%lld,%d)\n", (long long) r, M.i [q]) ;
            }
        if (bad)
        {
            failures++ ;
            printf ("FAIL sddmm %s %s_%s_%s k=%lld %s%s: %lld wrong\n", M.name,
                add_name [sr.add], mul_name [sr.mul], type_name [t], (long long) k,
                kernel ? kernel : "(default)", sddmm_ri ? " (rows given)" : "", (long long) bad) ;
        }
    }
    cudaFree (d_A) ; cudaFree (d_B) ; cudaFree (d_y) ;
}

static void test_gemm_case (gg_semiring sr, int64_t m, int64_t n, int64_t k)
{
    const gg_type t = sr.type ;
    const size_t ts = gg_type_size (t) ;
    bool rs = sr.mul != GG_MUL_SECOND && sr.mul != GG_MUL_PAIR ;
    bool rx = sr.mul != GG_MUL_FIRST && sr.mul != GG_MUL_PAIR ;
    std::vector<unsigned char> A (m * k * ts + 8), B (n * k * ts + 8), Y (m * n * ts) ;
    fill_random (t, A.data (), m * k, sr.add == GG_ADD_TIMES) ;
    fill_random (t, B.data (), n * k, sr.add == GG_ADD_TIMES) ;
    void *d_A = NULL, *d_B = NULL, *d_Y = NULL ;
    if (rs) { CHECK_CUDA (cudaMalloc (&d_A, A.size ())) ; CHECK_CUDA (cudaMemcpy (d_A, A.data (), A.size (), cudaMemcpyHostToDevice)) ; }
    if (rx) { CHECK_CUDA (cudaMalloc (&d_B, B.size ())) ; CHECK_CUDA (cudaMemcpy (d_B, B.data (), B.size (), cudaMemcpyHostToDevice)) ; }
    CHECK_CUDA (cudaMalloc (&d_Y, Y.size () + 8)) ;
    int rc = gg_cuda_gemm (&sr, m, n, k, d_A, d_B, d_Y, 0) ;
    cudaError_t err = cudaDeviceSynchronize () ;
    checks++ ;
    if (rc != GG_OK || err != cudaSuccess)
    {
        printf ("FAIL gemm %s_%s_%s %lldx%lldx%lld: rc %d %s\n", add_name [sr.add],
            mul_name [sr.mul], type_name [t], (long long) m, (long long) n,
            (long long) k, rc, cudaGetErrorString (err)) ;
        failures++ ;
        if (err != cudaSuccess) exit (1) ;
    }
    else
    {
        CHECK_CUDA (cudaMemcpy (Y.data (), d_Y, Y.size (), cudaMemcpyDeviceToHost)) ;
        int64_t bad = 0 ;
        std::vector<val> cands ;
        for (int64_t i = 0 ; i < m ; i++)
            for (int64_t j = 0 ; j < n ; j++)
            {
                val want ;
                dot_ref (t, sr, A.data (), i, B.data (), j, k, &want, &cands) ;
                if (!dot_ok (t, sr, get (t, Y.data (), i * n + j), want, cands)) bad++ ;
            }
        if (bad)
        {
            failures++ ;
            printf ("FAIL gemm %s_%s_%s %lldx%lldx%lld: %lld wrong\n", add_name [sr.add],
                mul_name [sr.mul], type_name [t], (long long) m, (long long) n,
                (long long) k, (long long) bad) ;
        }
    }
    cudaFree (d_A) ; cudaFree (d_B) ; cudaFree (d_Y) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (int argc, char **argv)
{
    gg_need_device (NULL) ;
    // test_cuda_kernels [SEED [quick]]: quick = a subset for
    // compute-sanitizer (three matrices: structured+hub, the long empty-row
    // runs, the long hub; four types, four semirings, n <= 32)
    bool quick = (argc > 2 && strcmp (argv [2], "quick") == 0) ;
    if (argc > 1 && strcmp (argv [1], "0") != 0) rng_state = strtoull (argv [1], NULL, 0) ;
    else
    {
        // fresh inputs every run; the seed is printed to reproduce a failure
        rng_state = (uint64_t) time (NULL) * 2654435761ull ;
    }
    printf ("test_cuda_kernels: seed %llu\n", (unsigned long long) rng_state) ;

    // semirings tested on every type (BOOL maps PLUS -> LOR etc.)
    const struct { gg_add add ; gg_mul mul ; } all_types [] =
    {
        { GG_ADD_PLUS, GG_MUL_TIMES }, { GG_ADD_MIN, GG_MUL_PLUS },
        { GG_ADD_MAX, GG_MUL_TIMES }, { GG_ADD_MIN, GG_MUL_SECOND },
        { GG_ADD_PLUS, GG_MUL_SECOND }, { GG_ADD_PLUS, GG_MUL_PAIR },
        { GG_ADD_ANY, GG_MUL_PAIR }, { GG_ADD_TIMES, GG_MUL_PLUS },
        { GG_ADD_PLUS, GG_MUL_FIRST }, { GG_ADD_MAX, GG_MUL_MIN },
        { GG_ADD_MIN, GG_MUL_MAX }, { GG_ADD_ANY, GG_MUL_SECOND },
        { GG_ADD_PLUS, GG_MUL_LAND }, { GG_ADD_MAX, GG_MUL_LOR },
        { GG_ADD_TIMES, GG_MUL_TIMES },
    } ;
    const int nsr = (int) (sizeof (all_types) / sizeof (all_types [0])) ;
    const int64_t ns [] = { 1, 3, 32, 128 } ;

    std::vector<csr> mats = test_matrices () ;
    if (quick) mats = { mats [0], mats [mats.size () - 2], mats.back () } ;
    for (const csr &A : mats)
    {
        int32_t *d_p, *d_i ;
        CHECK_CUDA (cudaMalloc (&d_p, (A.m + 1) * sizeof (int32_t))) ;
        CHECK_CUDA (cudaMalloc (&d_i, (A.nnz + 1) * sizeof (int32_t))) ;
        CHECK_CUDA (cudaMemcpy (d_p, A.p.data (), (A.m + 1) * sizeof (int32_t), cudaMemcpyHostToDevice)) ;
        CHECK_CUDA (cudaMemcpy (d_i, A.i.data (), A.nnz * sizeof (int32_t), cudaMemcpyHostToDevice)) ;
        // the row of each entry (SDDMM), checked against the pattern
        int32_t *d_ri ;
        CHECK_CUDA (cudaMalloc (&d_ri, (A.nnz + 1) * sizeof (int32_t))) ;
        {
            checks++ ;
            std::vector<int32_t> ri (A.nnz + 1) ;
            int rrc = gg_cuda_sddmm_rows (A.m, A.nnz, d_p, d_ri, 0) ;
            CHECK_CUDA (cudaMemcpy (ri.data (), d_ri, A.nnz * sizeof (int32_t), cudaMemcpyDeviceToHost)) ;
            int64_t wrong = 0 ;
            for (int64_t r = 0 ; r < A.m && rrc == GG_OK ; r++)
                for (int64_t q = A.p [r] ; q < A.p [r+1] ; q++) wrong += (ri [q] != r) ;
            if (rrc != GG_OK || wrong != 0)
            {
                printf ("FAIL sddmm rows %s: rc %d, %lld wrong\n", A.name, rrc, (long long) wrong) ;
                failures++ ;
            }
        }
        // the SpMV plan, made once for the pattern
        void *d_plan ;
        CHECK_CUDA (cudaMalloc (&d_plan, gg_cuda_spmv_plan_bytes (A.nnz))) ;
        checks++ ;
        if (gg_cuda_spmv_plan_build (A.m, A.nnz, d_p, d_plan, 0) != GG_OK)
        {
            printf ("FAIL spmv plan %s\n", A.name) ;
            failures++ ;
        }
        // hot forms: none, a few columns, some, as many as FP64 allows
        // (all the columns on most of these matrices)
        std::vector<hot_form> hots ;
        {
            const int64_t kmaxes [] = { 0, 5, 200, (int64_t) gg_cuda_spmv_hot_max (8) } ;
            for (int64_t kmax : kmaxes) hots.push_back (test_hot_build (A, d_i, kmax)) ;
        }
        test_rows_form (A, d_p, d_i) ;
        int f0 = failures ;
        for (int t = 0 ; t < GG_NTYPES ; t++)
        {
            if (quick && t != GG_BOOL && t != GG_INT32 && t != GG_FP32 && t != GG_FP64) continue ;
            for (int s = 0 ; s < nsr ; s++)
            {
                if (quick && s > 3) continue ;
                gg_semiring sr = { all_types [s].add, all_types [s].mul, (gg_type) t } ;
                for (int64_t n : ns)
                {
                    // the large widths on a subset, to keep the test short
                    if (n == 128 && (s % 3 != 0 || quick)) continue ;
                    test_spmm_case (A, sr, n, false, d_p, d_i, d_plan, hots) ;
                }
                if (s < 3) test_spmm_case (A, sr, 5, true, d_p, d_i, d_plan, hots) ;     // iso
                if (s < 3) test_spmm_case (A, sr, 1, true, d_p, d_i, d_plan, hots) ;     // iso SpMV
                if (t == GG_FP32 && s == 0 && !quick)
                {
                    // the slot schedule's other shapes: 4 column lanes (n = 12),
                    // lanes past n (36: 16 lanes cover 64 columns), a second,
                    // partial strip (200), iso values
                    const int64_t ns_slot [] = { 12, 36, 200 } ;
                    for (int64_t n : ns_slot) test_spmm_case (A, sr, n, false, d_p, d_i, d_plan, hots) ;
                    test_spmm_case (A, sr, 32, true, d_p, d_i, d_plan, hots) ;
                }
            }
            // boolean monoids
            if (t == GG_BOOL && !quick)
            {
                gg_semiring a = { GG_ADD_LOR, GG_MUL_LAND, GG_BOOL } ;
                gg_semiring b = { GG_ADD_LAND, GG_MUL_LOR, GG_BOOL } ;
                for (int64_t n : ns) { test_spmm_case (A, a, n, false, d_p, d_i, d_plan, hots) ; test_spmm_case (A, b, n, false, d_p, d_i, d_plan, hots) ; }
            }
        }
        // SDDMM with this pattern as the mask (n = its column count)
        for (int t = 0 ; t < GG_NTYPES && !quick ; t++)
            for (int s = 0 ; s < nsr ; s += 2)
            {
                gg_semiring sr = { all_types [s].add, all_types [s].mul, (gg_type) t } ;
                const int64_t ks [] = { 1, 3, 32, 100 } ;
                for (int64_t k : ks) test_sddmm_case (A, sr, k, d_p, d_i, NULL) ;
                // the long runs (4x the entries per warp) on every type
                test_sddmm_case (A, sr, 32, d_p, d_i, "grpl") ;
                if (t == GG_FP32 || t == GG_FP64)
                    for (int64_t k : ks)
                    {
                        test_sddmm_case (A, sr, k, d_p, d_i, "w") ;
                        test_sddmm_case (A, sr, k, d_p, d_i, "w4") ;
                        test_sddmm_case (A, sr, k, d_p, d_i, (s % 4 == 0) ? "w4l" : "wl") ;
                    }
                // the rows given: the rule, and group and batch schedules in
                // each run length
                sddmm_ri = d_ri ;
                for (int64_t k : ks)
                {
                    test_sddmm_case (A, sr, k, d_p, d_i, NULL) ;
                    test_sddmm_case (A, sr, k, d_p, d_i, (s % 4 == 0) ? "grp" : "grpl") ;
                    test_sddmm_case (A, sr, k, d_p, d_i, "grps") ;
                    if (t == GG_FP32 || t == GG_FP64)
                    {
                        test_sddmm_case (A, sr, k, d_p, d_i, (s % 4 == 0) ? "w4l" : "w") ;
                        test_sddmm_case (A, sr, k, d_p, d_i, (s % 4 == 0) ? "w4s" : "ws") ;
                    }
                }
                sddmm_ri = NULL ;
            }
        {
            gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
            const char *gs [] = { "g4", "g8", "g16", "g32", "grp", "w", "w4", "grpl", "wl", "w4l", "grps", "ws", "w4s" } ;
            for (const char *g : gs) if (!quick) test_sddmm_case (A, sr, 64, d_p, d_i, g) ;
        }
        // special values (+-INF, NaN, -0) on every variant: absent and padded
        // entries must never meet them (0 * INF, INF - INF), an all-NaN MIN
        // is NaN, and cut rows combine through the NaN-aware atomics
        if (!quick)
        {
            const gg_semiring special_srs [] =
            {
                { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 }, { GG_ADD_PLUS, GG_MUL_SECOND, GG_FP32 },
                { GG_ADD_PLUS, GG_MUL_FIRST, GG_FP32 }, { GG_ADD_MIN, GG_MUL_SECOND, GG_FP32 },
                { GG_ADD_MAX, GG_MUL_TIMES, GG_FP32 }, { GG_ADD_MIN, GG_MUL_PLUS, GG_FP32 },
                { GG_ADD_MAX, GG_MUL_MIN, GG_FP32 }, { GG_ADD_TIMES, GG_MUL_FIRST, GG_FP32 },
                { GG_ADD_ANY, GG_MUL_SECOND, GG_FP32 }, { GG_ADD_MAX, GG_MUL_SECOND, GG_FP32 },
            } ;
            const int nss = (int) (sizeof (special_srs) / sizeof (special_srs [0])) ;
            const int64_t sns [] = { 1, 3, 32 } ;
            for (int t = GG_FP32 ; t <= GG_FP64 ; t++)
            {
                for (int s = 0 ; s < nss ; s++)
                {
                    gg_semiring sr = special_srs [s] ;
                    sr.type = (gg_type) t ;
                    fill_mode = FILL_SPECIAL ;
                    for (int64_t n : sns) test_spmm_case (A, sr, n, false, d_p, d_i, d_plan, hots) ;
                    test_spmm_case (A, sr, 1, true, d_p, d_i, d_plan, hots) ;
                    if (s % 2 == 0)
                    {
                        const int64_t ks [] = { 1, 3, 32, 100 } ;
                        for (int64_t k : ks) test_sddmm_case (A, sr, k, d_p, d_i, NULL) ;
                    }
                    // every value the same special one (the report's case: a
                    // PLUS_SECOND with X all +INF; MIN / MAX of all NaN)
                    const double consts [] = { INFINITY, -INFINITY, NAN, -0.0 } ;
                    for (double cv : consts)
                    {
                        fill_mode = FILL_CONST ;
                        fill_const = cv ;
                        test_spmm_case (A, sr, 1, false, d_p, d_i, d_plan, hots) ;
                        test_spmm_case (A, sr, 4, false, d_p, d_i, d_plan, hots) ;
                        if (s < 4) test_spmm_case (A, sr, 3, true, d_p, d_i, d_plan, hots) ;
                        if (s < 4) test_sddmm_case (A, sr, 5, d_p, d_i, NULL) ;
                    }
                }
                fill_mode = FILL_SPECIAL ;
                gg_semiring pt = { GG_ADD_MIN, GG_MUL_SECOND, (gg_type) t } ;
                const char *gs [] = { "g4", "g8", "g16", "g32", "grp", "w", "w4", "grpl", "wl", "w4l", "grps", "ws", "w4s" } ;
                for (const char *g : gs) test_sddmm_case (A, pt, 64, d_p, d_i, g) ;
                sddmm_ri = d_ri ;
                for (const char *g : gs) test_sddmm_case (A, pt, 64, d_p, d_i, g) ;
                sddmm_ri = NULL ;
            }
            fill_mode = FILL_PLAIN ;
        }
        printf ("matrix %-22s m=%5lld nnz=%6lld: %s\n", A.name, (long long) A.m,
            (long long) A.nnz, failures == f0 ? "ok" : "FAILED") ;
        cudaFree (d_p) ; cudaFree (d_i) ; cudaFree (d_plan) ; cudaFree (d_ri) ;
        for (hot_form &h : hots) { cudaFree (h.d_hot) ; cudaFree (h.d_ih) ; }
    }

    // GEMM: odd shapes (tile edges, k not a multiple of the slab)
    for (int t = 0 ; t < GG_NTYPES && !quick ; t++)
        for (int s = 0 ; s < nsr ; s++)
        {
            gg_semiring sr = { all_types [s].add, all_types [s].mul, (gg_type) t } ;
            test_gemm_case (sr, 70, 130, 37) ;
            if (s < 3) test_gemm_case (sr, 1, 65, 200) ;
        }
    // GEMM with special values (the other values: small integers, +-1
    // under TIMES monoids), and with every value one special value
    for (int t = GG_FP32 ; t <= GG_FP64 && !quick ; t++)
        for (int s = 0 ; s < nsr ; s++)
        {
            gg_semiring sr = { all_types [s].add, all_types [s].mul, (gg_type) t } ;
            fill_mode = FILL_SPECIAL ;
            test_gemm_case (sr, 70, 130, 37) ;
            test_gemm_case (sr, 1, 65, 200) ;
            fill_mode = FILL_CONST ;
            const double consts [] = { INFINITY, NAN, -0.0 } ;
            for (double cv : consts)
            {
                fill_const = cv ;
                test_gemm_case (sr, 33, 17, 9) ;
            }
        }
    fill_mode = FILL_PLAIN ;
    printf ("gemm: %s\n", failures ? "see above" : "ok") ;

    // unsupported combinations are declined, not run
    {
        gg_semiring bad = { GG_ADD_LOR, GG_MUL_TIMES, GG_FP32 } ;
        checks++ ;
        if (gg_cuda_spmm (&bad, 1, 1, 1, 0, NULL, NULL, NULL, false, NULL, NULL, NULL, 0)
            != GG_ERR_UNSUPPORTED) { printf ("FAIL: LOR on FP32 accepted\n") ; failures++ ; }
        gg_semiring ok = { GG_ADD_PLUS, GG_MUL_PAIR, GG_FP32 } ;
        checks++ ;
        if (gg_cuda_spmm (&ok, 1, 1, 1, 0, NULL, NULL, NULL, false, NULL, NULL, "no_such", 0)
            != GG_ERR_UNSUPPORTED) { printf ("FAIL: unknown variant accepted\n") ; failures++ ; }
    }

    printf ("test_cuda_kernels: %d checks, %d failures\n", checks, failures) ;
    return failures ? 1 : 0 ;
}
