//------------------------------------------------------------------------------
// tests/conformance_nonfinite.c: non-finite values, N:M, aliasing
//------------------------------------------------------------------------------

#include "tests/conformance.h"

//------------------------------------------------------------------------------
// group: non-finite and extreme values
//------------------------------------------------------------------------------

// +INF, -INF, NaN, -0, subnormals and the largest finite value in sparse and
// dense operands, iso and not, for SpMM (n = 1, 4 and 40: 40 is where
// cuSPARSE takes the plus-times family), dense x sparse, mxv, vxm, SDDMM and
// GEMM.  The CPU library combines only the terms that exist, starting from
// the first: an absent, padded or masked-out entry must never meet a
// non-finite value (0 * INF, INF - INF), an all-NaN MIN / MAX is NaN (fmin
// and fmax drop NaN), and a sum of -0 is -0 (compared equal to +0 here).
// The values are chosen so that every order of the monoid gives the same
// answer (CU_V_NONFINITE: exact, CU_V_EXTREME: overflow to INF alike in any
// order, subnormal rounding within the tolerance), so that a GPU that sums
// in another order still has to match.  On the GPU run
// (GRBGPU_TEST_DEVICE=cuda) every kernel variant is forced in turn
// (group_nonfinite_kernels).

typedef struct { int add, mul ; } nf_pick ;

static const nf_pick nf_semirings [ ] =
{
    { CU_ADD_PLUS, CU_MUL_TIMES }, { CU_ADD_PLUS, CU_MUL_SECOND },
    { CU_ADD_PLUS, CU_MUL_FIRST }, { CU_ADD_PLUS, CU_MUL_PAIR },
    { CU_ADD_MIN, CU_MUL_PLUS }, { CU_ADD_MAX, CU_MUL_TIMES },
    { CU_ADD_MIN, CU_MUL_SECOND }, { CU_ADD_MAX, CU_MUL_SECOND },
    { CU_ADD_MIN, CU_MUL_TIMES }, { CU_ADD_MAX, CU_MUL_MIN },
    { CU_ADD_PLUS, CU_MUL_MIN }, { CU_ADD_TIMES, CU_MUL_FIRST },
    { CU_ADD_MIN, CU_MUL_FIRST }, { CU_ADD_MAX, CU_MUL_PLUS },
    { CU_ADD_TIMES, CU_MUL_SECOND }, { CU_ADD_PLUS, CU_MUL_PLUS },
} ;
#define NF_NSR (int) (sizeof (nf_semirings) / sizeof (nf_pick))

// the shapes: SpMM n = 1, 4, 40, then dxs, mxv, vxm, both SDDMMs, GEMM, and
// (for the kernel variants) long rows: rows of ~240 entries, cut by the
// chunks of the nnz-split, merge and warp schedules
enum { NF_SPMM1 = 0, NF_SPMM4, NF_SPMM40, NF_DXS, NF_MXV, NF_VXM, NF_SDDMM_T,
    NF_SDDMM, NF_GEMM, NF_LONG1, NF_LONG4, NF_LONG_MXV, NF_LONG_VXM, NF_NSHAPES } ;
static const char *nf_shape_name [NF_NSHAPES] = { "spmm_n1", "spmm_n4",
    "spmm_n40", "dxs", "mxv", "vxm", "sddmm_abt", "sddmm_ab", "gemm",
    "long_n1", "long_n4", "long_mxv", "long_vxm" } ;

static void nf_shape (spec *s, int shape)
{
    switch (shape)
    {
        case NF_SPMM1:   set_shape (s, SH_SPMM) ; s->n = 1 ; break ;
        case NF_SPMM4:   set_shape (s, SH_SPMM) ; s->n = 4 ; break ;
        case NF_SPMM40:  set_shape (s, SH_SPMM) ; s->n = 40 ; break ;
        case NF_DXS:     set_shape (s, SH_DXS) ; break ;
        case NF_MXV:     set_shape (s, SH_MXV) ; break ;
        case NF_VXM:     set_shape (s, SH_VXM) ; break ;
        case NF_SDDMM_T: set_shape (s, SH_SDDMM_T) ; break ;
        case NF_SDDMM:   set_shape (s, SH_SDDMM) ; break ;
        case NF_GEMM:    set_shape (s, SH_GEMM) ; break ;
        case NF_LONG1: case NF_LONG4:
            set_shape (s, SH_SPMM) ;
            s->m = 37 ; s->k = 600 ; s->n = (shape == NF_LONG1) ? 1 : 4 ; s->dA = 0.4 ;
            break ;
        case NF_LONG_MXV:
            set_shape (s, SH_MXV) ; s->m = 37 ; s->k = 600 ; s->dA = 0.4 ; break ;
        default:
            set_shape (s, SH_VXM) ; s->k = 600 ; s->n = 37 ; s->dB = 0.4 ; break ;
    }
}

// does the multiply read the left / right operand's values
static bool nf_reads_a (int mul) { return mul != CU_MUL_SECOND && mul != CU_MUL_PAIR ; }
static bool nf_reads_b (int mul) { return mul != CU_MUL_FIRST && mul != CU_MUL_PAIR ; }

// both operands drawn from one palette (explicit zeros in the sparse one)
static void nf_values (spec *s, int vals)
{
    memset (&s->gA, 0, sizeof (cu_gen)) ;
    memset (&s->gB, 0, sizeof (cu_gen)) ;
    s->gA.vals = s->gB.vals = vals ;
    if (s->dA < 1) s->gA.zeros = 0.1 ;
    if (s->dB < 1) s->gB.zeros = 0.1 ;
    // subnormals round differently in another order: a tolerance relative
    // to the result (the values are non-negative: no cancellation)
    s->rtol = (vals == CU_V_EXTREME) ? 1e-6 : 0 ;
}

void group_nonfinite (void)
{
    static const int types [2] = { CU_FP32, CU_FP64 } ;
    for (int ti = 0 ; ti < 2 ; ti++)
    {
        const int t = types [ti] ;
        // every semiring on every shape, both palettes
        for (int i = 0 ; i < NF_NSR ; i++)
        {
            for (int sh = 0 ; sh <= NF_GEMM ; sh++)
            {
                for (int pal = 0 ; pal < 2 ; pal++)
                {
                    const int vals = pal ? CU_V_EXTREME : CU_V_NONFINITE ;
                    const int add = nf_semirings [i].add, mul = nf_semirings [i].mul ;
                    // a long product of extreme values overflows in one order
                    // and not in another: TIMES monoids take the other palette
                    if (vals == CU_V_EXTREME && add == CU_ADD_TIMES) continue ;
                    spec s = spec_default ( ) ;
                    s.add = add ; s.mul = mul ; s.st = t ;
                    nf_shape (&s, sh) ;
                    nf_values (&s, vals) ;
                    add_spec (&s, "nonfinite/%s/%s/%s_%s_%s", pal ? "extreme" : "mixed",
                        nf_shape_name [sh], cu_add_name (add), cu_mul_name (mul),
                        cu_type_name (t)) ;
                }
            }
        }
        // an iso operand holding a special value (the other: small integers
        // with explicit zeros), the operand the multiply reads
        const double isos [6] = { INFINITY, -INFINITY, NAN, -0.0,
            (t == CU_FP32) ? FLT_MAX : DBL_MAX, (t == CU_FP32) ? 0x1p-149 : 0x1p-1074 } ;
        static const char *iso_name [6] = { "inf", "-inf", "nan", "-0", "max", "subnormal" } ;
        static const nf_pick iso_sr [ ] =
        {
            { CU_ADD_PLUS, CU_MUL_SECOND }, { CU_ADD_PLUS, CU_MUL_FIRST },
            { CU_ADD_PLUS, CU_MUL_TIMES }, { CU_ADD_MIN, CU_MUL_SECOND },
            { CU_ADD_MAX, CU_MUL_FIRST }, { CU_ADD_MIN, CU_MUL_PLUS },
        } ;
        static const int iso_shapes [ ] = { NF_SPMM1, NF_SPMM4, NF_SPMM40,
            NF_DXS, NF_MXV, NF_VXM, NF_SDDMM_T, NF_GEMM } ;
        for (int i = 0 ; i < (int) (sizeof (iso_sr) / sizeof (nf_pick)) ; i++)
        {
            for (int side = 0 ; side < 2 ; side++)
            {
                const int add = iso_sr [i].add, mul = iso_sr [i].mul ;
                if (side == 0 && !nf_reads_a (mul)) continue ;
                if (side == 1 && !nf_reads_b (mul)) continue ;
                for (int v = 0 ; v < 6 ; v++)
                {
                    for (int q = 0 ; q < (int) (sizeof (iso_shapes) / sizeof (int)) ; q++)
                    {
                        spec s = spec_default ( ) ;
                        s.add = add ; s.mul = mul ; s.st = t ;
                        nf_shape (&s, iso_shapes [q]) ;
                        nf_values (&s, CU_V_INT) ;
                        cu_gen *g = side ? &s.gB : &s.gA ;
                        g->iso = true ;
                        g->iso_value = isos [v] ;
                        g->zeros = 0 ;
                        if (v >= 4)
                        {
                            // the largest value times an integer of either
                            // sign gives +-INF and +-MAX, whose sum depends on
                            // the order: the other operand is positive
                            s.gA.vals = s.gB.vals = CU_V_POS ;
                            s.rtol = 1e-6 ;
                        }
                        add_spec (&s, "nonfinite/iso_%s_%s/%s/%s_%s_%s", side ? "B" : "A",
                            iso_name [v], nf_shape_name [iso_shapes [q]],
                            cu_add_name (add), cu_mul_name (mul), cu_type_name (t)) ;
                    }
                }
            }
        }
        // ANY: with every candidate of an entry the same value (op (B)
        // constant down each column), special values included
        spec s = spec_default ( ) ;
        s.add = CU_ADD_ANY ; s.mul = CU_MUL_SECOND ; s.st = t ;
        nf_shape (&s, NF_SPMM4) ;
        nf_values (&s, CU_V_NONFINITE) ;
        s.gB.vary = CU_VARY_COL ;
        add_spec (&s, "nonfinite/mixed/spmm_n4/ANY_SECOND_%s", cu_type_name (t)) ;
        // special values cast into the semiring's type: FP64 operands into
        // FP32 (DBL_MAX -> INF, subnormals -> 0) and into integers (NaN -> 0,
        // infinities saturate)
        static const int into [3] = { CU_INT32, CU_UINT64, CU_FP32 } ;
        if (t == CU_FP64)
        {
            for (int j = 0 ; j < 3 ; j++)
            {
                for (int pal = 0 ; pal < 2 ; pal++)
                {
                    s = spec_default ( ) ;
                    s.add = CU_ADD_PLUS ; s.mul = CU_MUL_TIMES ; s.st = into [j] ;
                    nf_shape (&s, NF_SPMM4) ;
                    nf_values (&s, pal ? CU_V_EXTREME : CU_V_NONFINITE) ;
                    if (into [j] != CU_FP32) s.rtol = 0 ;
                    s.tA = s.tB = CU_FP64 ;
                    add_spec (&s, "nonfinite/cast/%s/spmm_n4/PLUS_TIMES_%s",
                        pal ? "extreme" : "mixed", cu_type_name (into [j])) ;
                    s.add = CU_ADD_MIN ; s.mul = CU_MUL_SECOND ;
                    add_spec (&s, "nonfinite/cast/%s/spmm_n4/MIN_SECOND_%s",
                        pal ? "extreme" : "mixed", cu_type_name (into [j])) ;
                }
            }
        }
    }
}

// The kernel variants GRBGPU_KERNEL can force (README's settings table) and
// the shapes each one serves (a variant asked for a product it has no
// kernel for declines it, which is not what is tested here).
static const struct { const char *name ; int shapes ; } nf_kernels [ ] =
{
#define NF_ALL   0x1fff
#define NF_SPMV  ((1 << NF_SPMM1) | (1 << NF_MXV) | (1 << NF_VXM) | (1 << NF_LONG1) \
                  | (1 << NF_LONG_MXV) | (1 << NF_LONG_VXM))
#define NF_SPMMS (NF_SPMV | (1 << NF_SPMM4) | (1 << NF_SPMM40) | (1 << NF_DXS) | (1 << NF_LONG4))
#define NF_SDD   ((1 << NF_SDDMM_T) | (1 << NF_SDDMM))
    { "", NF_ALL }, { "row_g4", NF_SPMMS }, { "cusparse", NF_ALL },
    { "cusparse:alg1", NF_SPMMS }, { "cusparse:alg2", NF_SPMMS },
    { "cusparse:alg3", NF_SPMMS }, { "band", NF_SPMV }, { "hot", NF_SPMV },
    { "row_g8", NF_SPMMS }, { "row_g16", NF_SPMMS }, { "row_g32", NF_SPMMS },
    { "nnz_k8", NF_SPMMS }, { "nnz_k16", NF_SPMMS }, { "nnz_k32", NF_SPMMS },
    { "nnz_k128", NF_SPMMS }, { "slot_k32", NF_SPMMS }, { "slot_k64", NF_SPMMS },
    { "merge_i4", NF_SPMMS }, { "merge_i8", NF_SPMMS },
    { "warp_t8", NF_SPMMS }, { "g4", NF_SDD }, { "g8", NF_SDD }, { "g16", NF_SDD },
    { "g32", NF_SDD }, { "grp", NF_SDD }, { "w", NF_SDD }, { "w4", NF_SDD },
    { "grpl", NF_SDD }, { "w4l", NF_SDD }, { "w4s", NF_SDD }, { "tc3", NF_SPMMS }, { "tc4", NF_SPMMS },
    { "tc3f", NF_SPMMS }, { "tc4f", NF_SPMMS }, { "tc3r", NF_SPMMS }, { "nm", NF_SPMMS },
    { "nmtc", NF_SPMMS }, { "lenr", NF_SPMMS },
} ;

// Every variant meets the special values: on the GPU run all of them, on
// the host (which ignores the names) the first two, to keep the loop tested.
void group_nonfinite_kernels (void)
{
    static const nf_pick srs [ ] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES }, { CU_ADD_PLUS, CU_MUL_SECOND },
        { CU_ADD_PLUS, CU_MUL_FIRST }, { CU_ADD_MIN, CU_MUL_SECOND },
        { CU_ADD_MAX, CU_MUL_TIMES },
    } ;
    static const int types [2] = { CU_FP32, CU_FP64 } ;
    const int nk = (strcmp (cu_offload_device ( ), "cuda") == 0)
        ? (int) (sizeof (nf_kernels) / sizeof (nf_kernels [0])) : 2 ;
    for (int kv = 0 ; kv < nk ; kv++)
    {
        const char *kname = nf_kernels [kv].name [0] ? nf_kernels [kv].name : "chooser" ;
        for (int sh = 0 ; sh < NF_NSHAPES ; sh++)
        {
            if (!(nf_kernels [kv].shapes & (1 << sh))) continue ;
            for (int ti = 0 ; ti < 2 ; ti++)
            {
                const int t = types [ti] ;
                for (int i = 0 ; i < (int) (sizeof (srs) / sizeof (nf_pick)) ; i++)
                {
                    spec s = spec_default ( ) ;
                    s.add = srs [i].add ; s.mul = srs [i].mul ; s.st = t ;
                    s.kernel = nf_kernels [kv].name ;
                    nf_shape (&s, sh) ;
                    nf_values (&s, CU_V_NONFINITE) ;
                    add_spec (&s, "nonfinite_kernel/%s/%s/%s_%s_%s", kname,
                        nf_shape_name [sh], cu_add_name (s.add), cu_mul_name (s.mul),
                        cu_type_name (t)) ;
                }
                // the report's case (PLUS_SECOND, dense operand iso +INF) and
                // an all-NaN MIN (NaN, not +INF)
                spec s = spec_default ( ) ;
                s.add = CU_ADD_PLUS ; s.mul = CU_MUL_SECOND ; s.st = t ;
                s.kernel = nf_kernels [kv].name ;
                nf_shape (&s, sh) ;
                nf_values (&s, CU_V_INT) ;
                bool right = (sh != NF_DXS) ;       // the dense operand
                cu_gen *g = right ? &s.gB : &s.gA ;
                if (!right) s.mul = CU_MUL_FIRST ;
                g->iso = true ; g->iso_value = INFINITY ; g->zeros = 0 ;
                add_spec (&s, "nonfinite_kernel/%s/%s/iso_inf_PLUS_%s_%s", kname,
                    nf_shape_name [sh], cu_mul_name (s.mul), cu_type_name (t)) ;
                s.add = CU_ADD_MIN ; g->iso_value = NAN ;
                add_spec (&s, "nonfinite_kernel/%s/%s/iso_nan_MIN_%s_%s", kname,
                    nf_shape_name [sh], cu_mul_name (s.mul), cu_type_name (t)) ;
            }
        }
    }
}

//------------------------------------------------------------------------------
// group: dense x N:M (the nm row, backend/cuda/family_nm.c)
//------------------------------------------------------------------------------

// C<M> accum= X * W with X dense and W N:M down its columns (2:4, 1:4, 1:8;
// every 5th column of W empty, so rows of the SpMM's S = W' have no entry),
// FP32 and FP64 PLUS_TIMES, through every mask kind with and without
// replace, accumulators (C sparse and C full), W given transposed, values
// exact (small integers), special (Inf, NaN, -0) and real (a tolerance), and
// a near-miss (M/2:M with one group holding one entry too many).  The offload
// side forces GRBGPU_KERNEL=nm (the host backend ignores the name; on the
// GPU the row runs, or declines the near-miss to the other rows).
// The paths every N:M group takes (prefix pre: "nm" or "nmtc"): each mask
// kind with and without replace, C full by column replaced, W transposed, W
// by column, and a larger product (lm x lk x ln).
static void add_nm_paths (const spec *b, const char *pre, const char *tag,
    int lm, int lk, int ln)
{
    spec s ;
    for (int mk = MASK_VALUED ; mk < MASK_NKINDS ; mk++)
    {
        for (int rep = 0 ; rep < 2 ; rep++)
        {
            s = *b ; s.mask = mk ; s.dM = 0.4 ; s.replace = rep ; s.dC = 0.5 ;
            s.tM = (mk == MASK_VALUED) ? CU_FP32 : CU_BOOL ;
            s.gM.zeros = 0.3 ;
            add_spec (&s, "%s/%s/mask_%s%s", pre, tag, mask_name [mk], rep ? "_replace" : "") ;
        }
    }
    s = *b ; s.dC = 1 ; s.fC = GxB_BY_COL ;
    add_spec (&s, "%s/%s/C_full_bycol_replaced", pre, tag) ;
    s = *b ; s.trB = true ;
    add_spec (&s, "%s/%s/W_transposed", pre, tag) ;
    s = *b ; s.fB = GxB_BY_COL ;
    add_spec (&s, "%s/%s/W_bycol", pre, tag) ;
    s = *b ; s.m = lm ; s.k = lk ; s.n = ln ;
    add_spec (&s, "%s/%s/larger", pre, tag) ;
}

// The tensor-core row nmtc (FP32): W vector-wise by 32 columns (nm_v), X with
// a multiple of 4 rows (the product's columns of X'), real values within 1e-5
// of sum |terms| and small integers (with zeros) exactly; the same paths as
// the nm cases; declined to the other rows with an odd row count, with
// special values, and with element-wise W.
static void group_nmtc (const spec *base, const char *tag)
{
    spec b = *base ;
    b.kernel = "nmtc" ; b.nm_v = 32 ; b.m = 36 ; b.k = 96 ; b.n = 70 ;
    b.gA.vals = b.gB.vals = CU_V_REAL ; b.mag = true ; b.rtol = 1e-5 ;
    spec s = b ;
    add_spec (&s, "nmtc/%s/plain", tag) ;
    add_nm_paths (&b, "nmtc", tag, 260, 300, 200) ;
    s = b ; s.acc = CU_ACC_PLUS ; s.dC = 0.5 ; s.gC.vals = CU_V_REAL ;
    add_spec (&s, "nmtc/%s/accum_PLUS", tag) ;
    // small integers with zeros, exact: the sums are exact in any order,
    // and a zero result's sign is the CPU library's (-0 where every product
    // is -0)
    s = b ; s.gA.vals = s.gB.vals = CU_V_INT ; s.mag = false ; s.rtol = 0 ;
    add_spec (&s, "nmtc/%s/int_values_exact", tag) ;
    s.acc = CU_ACC_PLUS ; s.dC = 0.5 ; s.gC.vals = CU_V_INT ;
    add_spec (&s, "nmtc/%s/int_values_accum_PLUS", tag) ;
    s = b ; s.gA.zeros = 0.5 ;
    add_spec (&s, "nmtc/%s/zeros_in_X", tag) ;
    s = b ; s.m = 9 ;
    add_spec (&s, "nmtc/%s/odd_rows_declined", tag) ;
    s = b ; nf_values (&s, CU_V_NONFINITE) ; s.gB.zeros = 0 ; s.mag = false ; s.rtol = 0 ;
    add_spec (&s, "nmtc/%s/nonfinite_declined", tag) ;
    s = b ; s.nm_v = 0 ;
    add_spec (&s, "nmtc/%s/elementwise_declined", tag) ;
}

void group_nm (void)
{
    static const int pairs [3][2] = { { 2, 4 }, { 1, 4 }, { 1, 8 } } ;
    static const int types [2] = { CU_FP32, CU_FP64 } ;
    static const int accs [4] = { CU_ACC_PLUS, CU_ACC_MIN, CU_ACC_SECOND, CU_ACC_TIMES } ;
    for (int pi = 0 ; pi < 3 ; pi++)
    {
        for (int ti = 0 ; ti < 2 ; ti++)
        {
            const int N = pairs [pi][0], M = pairs [pi][1], t = types [ti] ;
            char tag [32] ;
            snprintf (tag, sizeof (tag), "%d_%d_%s", N, M, cu_type_name (t)) ;
            spec b = spec_default ( ) ;
            set_shape (&b, SH_DXS) ;
            b.st = t ; b.m = 9 ; b.k = 61 ; b.n = 40 ;
            b.nm_n = N ; b.nm_m = M ;
            b.kernel = "nm" ;
            b.gA.vals = b.gB.vals = CU_V_INT ;
            spec s = b ;
            add_spec (&s, "nm/%s/plain", tag) ;
            add_nm_paths (&b, "nm", tag, 300, 256, 70) ;
            for (int a = 0 ; a < 4 ; a++)
            {
                s = b ; s.acc = accs [a] ; s.dC = 0.5 ;
                if (accs [a] == CU_ACC_TIMES) s.gA.vals = s.gB.vals = s.gC.vals = CU_V_POW2 ;
                add_spec (&s, "nm/%s/accum_%s", tag, cu_acc_name (accs [a])) ;
                s.mask = MASK_STRUCT_COMP ; s.dM = 0.3 ; s.replace = true ;
                add_spec (&s, "nm/%s/accum_%s_structcomp_replace", tag, cu_acc_name (accs [a])) ;
            }
            s = b ; s.acc = CU_ACC_PLUS ; s.dC = 1 ;
            add_spec (&s, "nm/%s/accum_PLUS_C_full", tag) ;
            s = b ; nf_values (&s, CU_V_NONFINITE) ; s.gB.zeros = 0 ;
            add_spec (&s, "nm/%s/nonfinite", tag) ;
            s = b ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.mag = true ;
            s.rtol = (t == CU_FP32) ? 1e-5 : 1e-12 ;
            add_spec (&s, "nm/%s/real", tag) ;
            s = b ; s.nm_n = M / 2 ; s.nm_extra = true ;
            add_spec (&s, "nm/%s/near_miss", tag) ;
            if (t == CU_FP32) group_nmtc (&b, tag) ;
        }
    }
}

//------------------------------------------------------------------------------
// group: more aliasing (inputs shared), and transposes with column storage
//------------------------------------------------------------------------------

void group_alias2 (void)
{
    spec s ;
    // C = X * X' with one handle for both (SDDMM and GEMM), and C = C * C
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.n = s.m ; s.B_is_A = true ;
    s.st = CU_INT64 ;
    add_spec (&s, "alias/sddmm/B_is_A") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.m = s.n = 12 ; s.trB = true ;
    s.B_is_A = true ; s.st = CU_FP64 ;
    add_spec (&s, "alias/gemm/X_times_X_transposed") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.m = s.k = s.n = 12 ;
    s.alias = CU_ALIAS_AB ; s.st = CU_INT32 ;
    add_spec (&s, "alias/gemm/C_is_A_and_B") ;
    s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/gemm/C_is_A_and_B_accum") ;
    // the mask is the sparse input (C<A> = A * B), with C aliased to A too
    s = spec_default ( ) ; s.m = s.k = 20 ; s.n = 20 ; s.M_is_A = true ;
    s.mask = MASK_VALUED ; s.gA.zeros = 0.3 ;
    add_spec (&s, "alias/spmm/M_is_A") ;
    s.mask = MASK_STRUCT ; s.alias = CU_ALIAS_A ;
    add_spec (&s, "alias/spmm/C_is_A_M_is_A") ;
    // C = A' * C (transpose and output alias)
    s = spec_default ( ) ; s.m = s.k = s.n = 20 ; s.trA = true ; s.alias = CU_ALIAS_B ;
    s.st = CU_INT64 ;
    add_spec (&s, "alias/spmm/C_is_B_A_transposed") ;

    // transposes with operands held by column
    static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_GEMM, SH_SDDMM, SH_MXV, SH_VXM } ;
    for (int sh = 0 ; sh < 6 ; sh++)
    {
        for (int tr = 0 ; tr < 4 ; tr++)
        {
            s = spec_default ( ) ; set_shape (&s, shapes [sh]) ;
            s.add = CU_ADD_MAX ; s.mul = CU_MUL_SECOND ; s.st = CU_INT32 ;
            shape_values (&s, shapes [sh], s.add) ;
            s.trA = (tr & 1) && shapes [sh] != SH_VXM ;
            s.trB = (tr & 2) && shapes [sh] != SH_MXV ;
            if ((tr & 1) && !s.trA) continue ;
            if ((tr & 2) && !s.trB) continue ;
            s.fA = s.fB = GxB_BY_COL ;
            if (tr == 3) s.fB = GxB_BY_ROW ;
            s.dC = 0.3 ; s.fC = GxB_BY_COL ;
            add_spec (&s, "transpose/bycol/%s/%s%s", shape_name [shapes [sh]],
                s.trA ? "A'" : "A", s.trB ? "B'" : "B") ;
        }
    }
}
