//------------------------------------------------------------------------------
// kernels/spmm/spmm.cu: Y = S (+.*) X on CUDA cores: variants, chooser, launchers
//------------------------------------------------------------------------------

// The SpMM family's entry: the variant table and its names, the chooser
// (gg_cuda_spmm_choose, gg_cuda_spmm_choose_plan), the type and fast-path
// dispatch to the schedules' launchers (spmm_row_nnz.cu, spmm_merge.cu,
// spmv_warp.cu; what each computes: spmm_internal.cuh), gg_cuda_spmm and
// gg_cuda_spmm_plan.

#include "kernels/spmm/spmm_internal.cuh"

// n == 1, longest row unknown: merge_i8 from this many nonzeros
#define SPMM_MERGE_MIN_NNZ 200000

//------------------------------------------------------------------------------
// variants and chooser
//------------------------------------------------------------------------------

static const spmm_variant spmm_variant_table [] =
{
    { "row_g4",  SCHED_ROW, 4 },
    { "row_g8",  SCHED_ROW, 8 },
    { "row_g16", SCHED_ROW, 16 },
    { "row_g32", SCHED_ROW, 32 },
    { "nnz_k8",  SCHED_NNZ, 8 },
    { "nnz_k16", SCHED_NNZ, 16 },
    { "nnz_k32", SCHED_NNZ, 32 },
    { "nnz_k128", SCHED_NNZ, 128 },
    { "slot_k32", SCHED_NNZ, 32, 1 },
    { "slot_k64", SCHED_NNZ, 64, 1 },
    { "merge_i4", SCHED_MERGE, 4 },
    { "merge_i8", SCHED_MERGE, 8 },
    { "warp_t8", SCHED_WARP, 8 },
} ;
#define SPMM_NVARIANTS ((int) (sizeof (spmm_variant_table) / sizeof (spmm_variant_table [0])))

static const char *const spmm_variant_names [] =
{
    "row_g4", "row_g8", "row_g16", "row_g32", "nnz_k8", "nnz_k16", "nnz_k32",
    "nnz_k128", "slot_k32", "slot_k64", "merge_i4", "merge_i8", "warp_t8", NULL
} ;

extern "C" const char *const *gg_cuda_spmm_variants (void)
{
    return spmm_variant_names ;
}

extern "C" const char *gg_cuda_spmm_choose (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row)
{
    // Thresholds measured on an H200 (bench/kernels_bench; bench/NOTES.md,
    // "own kernels").  A row-split group walks its row alone, so the longest
    // row bounds the run time: with R = G / C lanes on the nonzeros, a row of
    // L entries costs L / R dependent steps.  nnz-split costs a row search per
    // chunk and atomics on cut rows, but no row is longer than a chunk.
    double mean = (m > 0) ? (double) nnz / (double) m : 0 ;
    if (n == 1)
    {
        // nnz-split: balanced whatever the rows, for skewed rows (R-MAT, the
        // arrow, musae_facebook, amazon_photo) or a large matrix whose
        // longest row is not known.  From 1M entries warp_t8 (1.34-1.52x
        // merge_i4 on R-MAT 2^18..2^22, its plan made in the call); below,
        // merge_i8 (two launches; warp_t8 without a kept plan is three, and
        // ~1-2 us slower there; with one, gg_cuda_spmm_choose_plan)
        if ((max_row > 256 && (double) max_row > 16.0 * mean)
            || (max_row < 0 && nnz >= SPMM_MERGE_MIN_NNZ))
            return (nnz >= 1000000) ? "warp_t8" : "merge_i8" ;
        // group size ~ mean row length (twice that when the longest row is
        // far above it), but enough threads to fill the GPU
        int G = 4 ;
        while (G < 32 && (double) G < mean) G *= 2 ;
        if (G < 32 && (double) max_row > 8.0 * mean) G *= 2 ;
        while (G < 32 && m * G < 65536) G *= 2 ;
        return (G == 4) ? "row_g4" : (G == 8) ? "row_g8" : (G == 16) ? "row_g16" : "row_g32" ;
    }
    // n > 1: a group spends its lanes on columns first (R = 1 when C = G), so
    // a row of more than ~64 entries is a long serial walk.  Longer chunks
    // (K = 128) pay off once the matrix is large and n is wide: fewer cut rows,
    // fewer row searches per nonzero.
    bool skewed = (max_row > 64 && (double) max_row > 4.0 * mean)
        || (max_row < 0 && n >= 32 && mean > 16) ;     // unknown: guess
    if (skewed)
    {
        if (n >= 64) return (nnz > 200000) ? "nnz_k128" : "nnz_k32" ;
        return (nnz > 10000000) ? "nnz_k128" : "nnz_k32" ;
    }
    if (mean <= 4) return (n <= 32) ? "row_g4" : "row_g8" ;
    if (mean <= 8) return (n <= 32) ? "row_g8" : "row_g16" ;
    return "row_g32" ;
}

// With the SpMV plan kept (gg_cuda_spmm_plan): warp_t8 wherever the chooser
// takes an nnz-split SpMV (measured 1.2-1.3x merge_i8 on the small skewed
// matrices, where the plan's launch was what made it slower).
extern "C" const char *gg_cuda_spmm_choose_plan (int64_t m, int64_t n,
    int64_t nnz, int64_t max_row)
{
    const char *k = gg_cuda_spmm_choose (m, n, nnz, max_row) ;
    return (strncmp (k, "merge", 5) == 0) ? "warp_t8" : k ;
}

// Measured on an H200 at N = 32 and 128 (kernels_bench, R-MAT 2^18 / 2^20 and
// the 18 shared matrices; bench/NOTES.md, 2026-11-29, sixth session; the
// rule was fitted to that run), with the plan kept: at N = 128 it replaces
// the nnz_kK pick on all 12 skewed matrices (1.09-1.71x faster; slot_k64
// from rows of 512 entries or 1M entries: arrow 1.21 against slot_k32's 0.84x
// cuSPARSE, R-MAT 1.01 / 0.85) and row_g8 on the road networks (2.5 entries
// a row, 0.7-1.0M entries: 1.07-1.13x); on the smaller unskewed matrices
// row_g won 3 of 6 and stays.  At N = 32, slot_k32 replaces nnz_k32 on the
// 9 skewed matrices under 1M entries with no row of 4096: faster on 7
// (amazon_photo 1.24x), even on mbeacxc, slower on pubmed (0.95x); nnz_k
// stays on arrow and R-MAT, row_g on every unskewed matrix.  Between 32 and 128 and above 128:
// not measured, the two rules extended.  Seventh session, with the staged
// slot_kK (the same bench, fitted to that run again): at N = 128 the slots
// also beat row_g on the FEM matrices (bayer10 1.07 against 0.78x cuSPARSE,
// bcsstk13 0.78 / 0.46, bcsstk16 0.98 / 0.81, fidap_ex14 1.05 / 0.86; 4elt
// 1.23 / 1.38 the one loss), so from n = 64 every matrix takes a slot;
// slot_k64 from 1M entries or a row of 4096 (geometric mean x cuSPARSE
// 1.166 at N = 128; 1.074 / 1.250 at N = 64 / 256 and 1.121 on R-MAT 2^22
// at N = 128, shapes the rule was not fitted to; a row of 512 instead:
// 1.161, 1.054 / 1.248, 1.121).
extern "C" const char *gg_cuda_spmm_choose_plan_fp32 (int64_t m, int64_t n,
    int64_t nnz, int64_t max_row)
{
    const char *k = gg_cuda_spmm_choose_plan (m, n, nnz, max_row) ;
    if (n < 32 || max_row < 0) return k ;
    if (n >= 64) return (nnz > 1000000 || max_row >= 4096) ? "slot_k64" : "slot_k32" ;
    const bool nnz_split = (strncmp (k, "nnz_k", 5) == 0) ;
    return (nnz_split && nnz <= 1000000 && max_row < 4096) ? "slot_k32" : k ;
}

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

template <typename T, int OP>
static int spmm_launch_op (const spmm_variant *var, const spmm_args<T> &a,
    int vec, const int32_t *plan, const int32_t *hot, int64_t nhot,
    cudaStream_t stream)
{
    // a permuted store: the row, nnz and slot schedules only (slot_kK is SCHED_NNZ)
    if (a.row_out != NULL && var->sched != SCHED_ROW && var->sched != SCHED_NNZ)
        return GG_ERR_UNSUPPORTED ;
    if (var->sched == SCHED_WARP)
    {
        static_assert (SPW_HOT_ITEMS == 8, "the hot form is warp_t8's") ;
        return spmm_launch_spmv_warp<T, OP, 8> (a, plan, hot, nhot, stream) ;
    }
    if (var->sched == SCHED_MERGE)
    {
        if (var->param == 4) return spmm_launch_merge<T, OP, 4> (a, stream) ;
        return spmm_launch_merge<T, OP, 8> (a, stream) ;
    }
    if constexpr ((std::is_same<T, float>::value || std::is_same<T, double>::value)
        && OP == GG_OP_PLUS_TIMES)
    {
        // (16 bytes of X per lane: vec 4 for float, 2 or more for double)
        if (var->slot && vec * (int) sizeof (T) >= 16)
        {
            int rc = spmm_launch_slot<T> (var, a, plan, stream) ;
            if (rc != GG_ERR_UNSUPPORTED) return rc ;
        }
    }
    switch (vec)
    {
        case 4:  return spmm_launch_vec<T, 4, OP> (var, a, stream) ;
        case 2:  return spmm_launch_vec<T, 2, OP> (var, a, stream) ;
        default: return spmm_launch_vec<T, 1, OP> (var, a, stream) ;
    }
}

struct spmm_dispatch
{
    template <typename T>
    static int run (const gg_canon *cs, const spmm_variant *var, bool fast,
        int64_t m, int64_t k, int64_t n, int64_t nnz, const int32_t *p, const int32_t *i,
        const void *x, bool iso, const void *X, void *Y, const int32_t *plan,
        const int32_t *hot, int64_t nhot, cudaStream_t stream, const int32_t *row_out,
        int64_t max_row)
    {
        spmm_args<T> a ;
        memset (&a, 0, sizeof (a)) ;
        a.m = m ; a.k = k ; a.n = n ; a.nnz = nnz ; a.p = p ; a.ci = i ;
        a.sx = (const T *) x ;
        a.smode = gg_mul_reads_s (cs->mul) ? (iso ? GG_S_ISO : GG_S_ARRAY) : GG_S_NONE ;
        a.X = gg_mul_reads_x (cs->mul) ? (const T *) X : NULL ;
        a.Y = (T *) Y ;
        a.row_out = row_out ;
        a.max_row = max_row ;
        a.mon = cs->mon ; a.mul = cs->mul ;
        int vec = gg_pick_vec (n, sizeof (T), a.X != NULL ? X : Y, Y) ;
        // a compile-time fast path for the FP types' common semirings (the
        // runtime-switch kernel serves every other case, and these too when
        // fast == false)
        const int op = fast ? gg_pick_op<T> (cs->mon, cs->mul, cs->plus_times)
                            : GG_OP_GENERIC ;
        if constexpr (std::is_same<T, float>::value)
        {
            switch (op)
            {
                case GG_OP_PLUS_TIMES: return spmm_launch_op<T, GG_OP_PLUS_TIMES> (var, a, vec, plan, hot, nhot, stream) ;
                case GG_OP_MIN:        return spmm_launch_op<T, GG_OP_MIN> (var, a, vec, plan, hot, nhot, stream) ;
                case GG_OP_MAX:        return spmm_launch_op<T, GG_OP_MAX> (var, a, vec, plan, hot, nhot, stream) ;
                default: break ;
            }
        }
        if constexpr (std::is_same<T, double>::value)
        {
            if (op == GG_OP_PLUS_TIMES) return spmm_launch_op<T, GG_OP_PLUS_TIMES> (var, a, vec, plan, hot, nhot, stream) ;
        }
        return spmm_launch_op<T, GG_OP_GENERIC> (var, a, vec, plan, hot, nhot, stream) ;
    }
} ;

// The semiring in canonical form, and whether the shapes and arrays are
// ones the kernels take
bool spmm_check (const gg_semiring *sr, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const void *x, const void *X, gg_canon *cs)
{
    if (!gg_canon_semiring (sr, cs)) return false ;
    if (m < 0 || k < 0 || n < 0 || nnz < 0) return false ;
    if (m > INT32_MAX || k > INT32_MAX || nnz > INT32_MAX
        || m * n > ((int64_t) 1 << 40)) return false ;
    // an array the multiply reads must be there
    if (gg_mul_reads_s (cs->mul) && x == NULL) return false ;
    if (gg_mul_reads_x (cs->mul) && X == NULL) return false ;
    return true ;
}

const spmm_variant *spmm_variant_named (const char *name)
{
    const spmm_variant *var = NULL ;
    for (int v = 0 ; v < SPMM_NVARIANTS ; v++)
        if (strcmp (spmm_variant_table [v].name, name) == 0) var = &spmm_variant_table [v] ;
    return var ;
}

// (for gg_cuda_spmm_plan here and gg_cuda_spmv_hot, kernels/spmv_hot/)
int spmm_run (const gg_semiring *sr, const gg_canon *cs,
    const spmm_variant *var, bool fast, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *X, void *Y, const int32_t *plan, const int32_t *hot,
    int64_t nhot, cudaStream_t stream, const int32_t *row_out, int64_t max_row)
{
    GG_TYPE_DISPATCH (sr->type, spmm_dispatch, cs, var, fast, m, k, n, nnz, p, i,
        x, iso, X, Y, plan, hot, nhot, stream, row_out, max_row) ;
}

// kernel: a variant name, optionally with "/generic" (no fast path, for
// benchmarks that measure what the runtime switches cost).
static int spmm_named (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const void *plan, int64_t max_row,
    const int32_t *row_out, const char *kernel, cudaStream_t stream)
{
    gg_canon cs ;
    if (!spmm_check (sr, m, k, n, nnz, x, X, &cs)) return GG_ERR_UNSUPPORTED ;

    // the schedule
    const char *name = (kernel != NULL && kernel [0] != '\0') ? kernel
        : gg_cuda_spmm_choose (m, n, nnz, -1) ;
    bool fast = true ;
    char base [32] ;
    size_t len = strlen (name) ;
    const char *suffix = "/generic" ;
    size_t sl = strlen (suffix) ;
    if (len > sl && strcmp (name + len - sl, suffix) == 0)
    {
        fast = false ;
        len -= sl ;
    }
    if (len >= sizeof (base)) return GG_ERR_UNSUPPORTED ;
    memcpy (base, name, len) ;
    base [len] = '\0' ;
    const spmm_variant *var = spmm_variant_named (base) ;
    if (var == NULL) return GG_ERR_UNSUPPORTED ;

    if (m == 0 || n == 0 || nnz == 0) return GG_OK ;   // no row has entries
    return spmm_run (sr, &cs, var, fast, m, k, n, nnz, p, i, x, iso, X, Y,
        (const int32_t *) plan, NULL, 0, stream, row_out, max_row) ;
}

extern "C" int gg_cuda_spmm_plan (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const void *plan, int64_t max_row,
    const char *kernel, cudaStream_t stream)
{
    return spmm_named (sr, m, k, n, nnz, p, i, x, iso, X, Y, plan, max_row, NULL, kernel, stream) ;
}

extern "C" const char *gg_cuda_spmm_choose_rows (int64_t m, int64_t n,
    int64_t nnz, int64_t max_row)
{
    const char *k = gg_cuda_spmm_choose (m, n, nnz, max_row) ;
    const spmm_variant *var = spmm_variant_named (k) ;
    if (var != NULL && (var->sched == SCHED_ROW || var->sched == SCHED_NNZ)) return k ;
    return gg_cuda_spmm_choose (m, 2, nnz, max_row) ;
}

// FP32 PLUS_TIMES with the plan kept: gg_cuda_spmm_choose_plan_fp32's pick
// (slot_kK takes a permuted store: its stores and its init kernel's go
// through spmm_yrow), else gg_cuda_spmm_choose_rows
extern "C" const char *gg_cuda_spmm_choose_rows_plan_fp32 (int64_t m, int64_t n,
    int64_t nnz, int64_t max_row)
{
    const char *k = gg_cuda_spmm_choose_plan_fp32 (m, n, nnz, max_row) ;
    const spmm_variant *var = spmm_variant_named (k) ;
    if (var != NULL && (var->sched == SCHED_ROW || var->sched == SCHED_NNZ)) return k ;
    return gg_cuda_spmm_choose_rows (m, n, nnz, max_row) ;
}

extern "C" int gg_cuda_spmm_plan_rows (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const void *plan, int64_t max_row,
    const int32_t *row_out, const char *kernel, cudaStream_t stream)
{
    if (row_out == NULL) return GG_ERR_UNSUPPORTED ;
    if (kernel == NULL || kernel [0] == '\0') kernel = gg_cuda_spmm_choose_rows (m, n, nnz, max_row) ;
    return spmm_named (sr, m, k, n, nnz, p, i, x, iso, X, Y, plan, max_row, row_out, kernel, stream) ;
}

extern "C" int gg_cuda_spmm_rows (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const int32_t *row_out, const char *kernel,
    cudaStream_t stream)
{
    return gg_cuda_spmm_plan_rows (sr, m, k, n, nnz, p, i, x, iso, X, Y, NULL, -1, row_out,
        kernel, stream) ;
}

extern "C" int gg_cuda_spmm (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const char *kernel, cudaStream_t stream)
{
    return gg_cuda_spmm_plan (sr, m, k, n, nnz, p, i, x, iso, X, Y, NULL, -1,
        kernel, stream) ;
}
