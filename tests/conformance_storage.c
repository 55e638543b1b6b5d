//------------------------------------------------------------------------------
// tests/conformance_storage.c: storage, iso, aliasing, dense, values
//------------------------------------------------------------------------------

// The groups storage, iso_structure, alias, dense (SDDMM and GEMM) and
// values (values that a trip through another type would change).

#include "tests/conformance.h"

//------------------------------------------------------------------------------
// group: storage of each operand
//------------------------------------------------------------------------------

static const int sparsities [ ] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;
static const char *fmt_name (int f) { return f == GxB_BY_COL ? "bycol" : "byrow" ; }

void group_storage (void)
{
    for (int f = 0 ; f < 2 ; f++)
    {
        int fmt = f ? GxB_BY_COL : GxB_BY_ROW ;
        for (int sp = 0 ; sp < 4 ; sp++)
        {
            int spars = sparsities [sp] ;
            spec s ;
            // A sparse (FULL cannot hold it: stays as GraphBLAS decides)
            s = spec_default ( ) ; s.st = CU_FP32 ; s.sA = spars ; s.fA = fmt ;
            s.gA.empty_rows = 4 ;
            add_spec (&s, "storage/spmm/A_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // B dense in every storage
            s = spec_default ( ) ; s.st = CU_INT32 ; s.sB = spars ; s.fB = fmt ;
            add_spec (&s, "storage/spmm/B_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // C non-empty in every storage (dense so that FULL applies)
            s = spec_default ( ) ; s.st = CU_INT64 ; s.sC = spars ; s.fC = fmt ;
            s.dC = (spars == GxB_FULL) ? 1 : 0.5 ; s.acc = CU_ACC_PLUS ;
            add_spec (&s, "storage/spmm/C_%s_%s_accum", cu_sparsity_name (spars), fmt_name (fmt)) ;
            s.acc = CU_ACC_NONE ; s.mask = MASK_COMP ;
            add_spec (&s, "storage/spmm/C_%s_%s_comp_mask", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // the mask
            if (spars != GxB_FULL)
            {
                s = spec_default ( ) ; s.st = CU_FP64 ; s.mask = MASK_VALUED ;
                s.sM = spars ; s.fM = fmt ; s.dC = 0.4 ; s.tM = CU_INT32 ;
                add_spec (&s, "storage/spmm/M_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
                s.mask = MASK_STRUCT_COMP ; s.acc = CU_ACC_MIN ; s.replace = true ;
                add_spec (&s, "storage/spmm/M_%s_%s_structcomp_accum_replace",
                    cu_sparsity_name (spars), fmt_name (fmt)) ;
            }
            // dense x sparse: both operands
            s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.st = CU_FP64 ;
            s.sA = spars ; s.fA = fmt ; s.sB = (spars == GxB_FULL) ? 0 : spars ; s.fB = 1 - fmt ;
            add_spec (&s, "storage/dxs/A_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // mxv: the matrix
            s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_INT64 ;
            s.sA = (spars == GxB_FULL) ? 0 : spars ; s.fA = fmt ;
            if (spars != GxB_FULL)
                add_spec (&s, "storage/mxv/A_%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            // SDDMM and GEMM operands held otherwise
            s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.st = CU_FP32 ;
            s.sA = spars ; s.fA = fmt ; s.sB = spars ; s.fB = 1 - fmt ;
            s.sM = (spars == GxB_FULL) ? 0 : spars ; s.fM = fmt ;
            add_spec (&s, "storage/sddmm/%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
            s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.st = CU_INT32 ;
            s.sA = spars ; s.fA = fmt ; s.sB = spars ; s.fB = fmt ;
            add_spec (&s, "storage/gemm/%s_%s", cu_sparsity_name (spars), fmt_name (fmt)) ;
        }
    }
    // vectors held sparse / bitmap / full (all present) and the output vector
    for (int sp = 0 ; sp < 4 ; sp++)
    {
        int spars = sparsities [sp] ;
        if (spars == GxB_HYPERSPARSE) continue ;
        spec s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_FP64 ;
        s.sB = spars ; s.sC = (spars == GxB_FULL) ? 0 : spars ; s.dC = 0.5 ;
        s.acc = CU_ACC_PLUS ;
        add_spec (&s, "storage/mxv/u_%s", cu_sparsity_name (spars)) ;
        s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.st = CU_INT32 ;
        s.sA = spars ; s.mask = MASK_VALUED ; s.sM = (spars == GxB_FULL) ? 0 : spars ;
        add_spec (&s, "storage/vxm/u_%s", cu_sparsity_name (spars)) ;
    }
}

//------------------------------------------------------------------------------
// group: iso operands, structure, degenerate shapes
//------------------------------------------------------------------------------

void group_iso_structure (void)
{
    spec s ;
    // iso A (built from one scalar), iso B (assigned one scalar), both
    s = spec_default ( ) ; s.st = CU_INT64 ; s.gA.iso = true ; s.gA.iso_value = 3 ;
    add_spec (&s, "iso/spmm/A_iso") ;
    s = spec_default ( ) ; s.st = CU_FP64 ; s.gB.iso = true ; s.gB.iso_value = -1.5 ;
    add_spec (&s, "iso/spmm/B_iso") ;
    s.gA.iso = true ; s.gA.iso_value = 2 ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_PLUS ;
    add_spec (&s, "iso/spmm/A_B_iso_MIN_PLUS") ;
    s = spec_default ( ) ; s.st = CU_FP32 ; s.add = CU_ADD_ANY ; s.mul = CU_MUL_SECOND ;
    s.gB.iso = true ; s.gB.iso_value = 4 ;
    add_spec (&s, "iso/spmm/B_iso_ANY_SECOND") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_INT32 ;
    s.gB.iso = true ; s.gB.iso_value = 7 ;
    add_spec (&s, "iso/mxv/u_iso") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.st = CU_FP64 ;
    s.gB.iso = true ; s.gB.iso_value = 0.5 ; s.gA.iso = true ; s.gA.iso_value = 3 ;
    add_spec (&s, "iso/vxm/u_B_iso") ;
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.st = CU_FP64 ;
    s.gA.iso = true ; s.gA.iso_value = 2 ;
    add_spec (&s, "iso/sddmm/A_iso") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.st = CU_INT64 ;
    s.gA.iso = true ; s.gA.iso_value = 2 ; s.gB.iso = true ; s.gB.iso_value = 3 ;
    add_spec (&s, "iso/gemm/A_B_iso") ;
    // iso C on input, with accumulate
    s = spec_default ( ) ; s.st = CU_FP64 ; s.dC = 1 ; s.gC.iso = true ;
    s.gC.iso_value = 10 ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "iso/spmm/C_iso_accum") ;
    // iso mask (valued: all true; and all false)
    s = spec_default ( ) ; s.mask = MASK_VALUED ; s.gM.iso = true ; s.gM.iso_value = 1 ;
    s.dC = 0.5 ;
    add_spec (&s, "iso/spmm/M_iso_true") ;
    s.gM.iso_value = 0 ;
    add_spec (&s, "iso/spmm/M_iso_false") ;

    // many empty rows and columns; explicit zeros that must stay entries
    s = spec_default ( ) ; s.st = CU_INT32 ; s.gA.empty_rows = 2 ; s.gA.empty_cols = 3 ;
    s.dA = 0.5 ;
    add_spec (&s, "structure/spmm/empty_rows_cols") ;
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.st = CU_FP64 ;
    s.gB.empty_rows = 2 ; s.gB.empty_cols = 2 ;
    add_spec (&s, "structure/dxs/empty_rows_cols") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.gA.empty_rows = 3 ;
    add_spec (&s, "structure/mxv/empty_rows") ;
    int zs [ ][3] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64 }, { CU_ADD_MIN, CU_MUL_PLUS, CU_INT32 },
        { CU_ADD_LOR, CU_MUL_LAND, CU_BOOL }, { CU_ADD_TIMES, CU_MUL_TIMES, CU_INT32 },
        { CU_ADD_MAX, CU_MUL_FIRST, CU_UINT64 }, { CU_ADD_PLUS, CU_MUL_PAIR, CU_INT64 },
    } ;
    for (int i = 0 ; i < 6 ; i++)
    {
        s = spec_default ( ) ; s.add = zs [i][0] ; s.mul = zs [i][1] ; s.st = zs [i][2] ;
        s.gA.zeros = 0.5 ; s.gB.zeros = 0.3 ;
        if (s.add == CU_ADD_TIMES) s.gA.vals = s.gB.vals = CU_V_POW2 ;
        add_spec (&s, "structure/spmm/explicit_zeros/%s_%s_%s", cu_add_name (s.add),
            cu_mul_name (s.mul), cu_type_name (s.st)) ;
    }
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.gB.zeros = 1 ;
    add_spec (&s, "structure/dxs/all_explicit_zeros") ;
    // A with no entries at all (C gets none); a single entry
    s = spec_default ( ) ; s.dA = 0 ; s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "structure/spmm/A_no_entries") ;
    s.dC = 0.5 ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "structure/spmm/A_no_entries_accum") ;
    s = spec_default ( ) ; s.dA = 0.004 ; s.m = 30 ; s.k = 30 ;
    s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "structure/spmm/A_very_sparse") ;

    // degenerate shapes
    struct { uint64_t m, k, n ; const char *name ; } dg [ ] =
    {
        { 1, 40, 6, "1xN_times_dense" }, { 40, 1, 6, "Nx1_times_1xK" },
        { 30, 20, 1, "dense_B_one_column" }, { 1, 1, 1, "1x1" },
        { 0, 10, 4, "A_0_rows" }, { 10, 8, 0, "B_0_cols" }, { 0, 5, 0, "C_0x0" },
    } ;
    for (int i = 0 ; i < 7 ; i++)
    {
        s = spec_default ( ) ; s.m = dg [i].m ; s.k = dg [i].k ; s.n = dg [i].n ;
        s.dA = 0.5 ; s.st = CU_INT64 ;
        // an output with no room for entries may be declined ("empty output")
        if (s.m == 0 || s.n == 0) s.expect = CU_EXPECT_ANY ;
        add_spec (&s, "degenerate/spmm/%s", dg [i].name) ;
        s.dA = 1 ; s.dB = 0.5 ;
        add_spec (&s, "degenerate/dxs/%s", dg [i].name) ;
    }
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.m = 1 ; s.k = 30 ;
    add_spec (&s, "degenerate/mxv/1xN") ;
    s.m = 30 ; s.k = 1 ;
    add_spec (&s, "degenerate/mxv/Nx1") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.k = 1 ; s.n = 25 ;
    add_spec (&s, "degenerate/vxm/1xN") ;
    s.k = 25 ; s.n = 1 ;
    add_spec (&s, "degenerate/vxm/Nx1") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.m = 1 ; s.n = 1 ;
    add_spec (&s, "degenerate/gemm/dot_product") ;
    s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.k = 1 ;
    add_spec (&s, "degenerate/gemm/outer_product") ;
    // inner dimension 0 (unmasked, no accumulate: the 7.4 defects avoided)
    s = spec_default ( ) ; s.m = 5 ; s.k = 0 ; s.n = 4 ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "degenerate/spmm/inner_dim_0") ;
    s.dC = 0.5 ;
    add_spec (&s, "degenerate/spmm/inner_dim_0_C_nonempty") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.m = 6 ; s.k = 0 ;
    s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "degenerate/mxv/inner_dim_0") ;
}

//------------------------------------------------------------------------------
// group: aliasing
//------------------------------------------------------------------------------

void group_alias (void)
{
    spec s ;
    // C is A: C = C * B (A square so that C has A's dims)
    s = spec_default ( ) ; s.m = s.k = s.n = 24 ; s.st = CU_FP64 ; s.alias = CU_ALIAS_A ;
    add_spec (&s, "alias/spmm/C_is_A") ;
    s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/spmm/C_is_A_accum") ;
    s.mask = MASK_COMP ; s.acc = CU_ACC_MAX ; s.replace = true ;
    add_spec (&s, "alias/spmm/C_is_A_comp_mask_max_replace") ;
    // C is B: C = A * C
    s = spec_default ( ) ; s.m = s.k = s.n = 20 ; s.st = CU_INT32 ; s.alias = CU_ALIAS_B ;
    add_spec (&s, "alias/spmm/C_is_B") ;
    s.mask = MASK_VALUED ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/spmm/C_is_B_masked_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.m = s.k = s.n = 20 ;
    s.alias = CU_ALIAS_A ; s.st = CU_INT64 ;
    add_spec (&s, "alias/dxs/C_is_A") ;
    // C is M: C<C> = A * B
    s = spec_default ( ) ; s.mask = MASK_VALUED ; s.tM = CU_FP64 ; s.tC = CU_FP64 ;
    s.alias = CU_ALIAS_M ;
    add_spec (&s, "alias/spmm/C_is_M") ;
    s.mask = MASK_STRUCT ; s.replace = true ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/spmm/C_is_M_struct_replace_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.tM = CU_FP64 ;
    s.alias = CU_ALIAS_M ;
    add_spec (&s, "alias/sddmm/C_is_M_struct") ;
    s.mask = MASK_VALUED ; s.acc = CU_ACC_TIMES ; s.gM.vals = CU_V_POS ;
    add_spec (&s, "alias/sddmm/C_is_M_valued_times") ;
    // vectors: w is u, w is the mask
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.m = s.k = 40 ; s.alias = CU_ALIAS_B ;
    add_spec (&s, "alias/mxv/w_is_u") ;
    s.acc = CU_ACC_PLUS ;
    add_spec (&s, "alias/mxv/w_is_u_accum") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.k = s.n = 40 ; s.alias = CU_ALIAS_A ;
    s.st = CU_INT32 ;
    add_spec (&s, "alias/vxm/w_is_u") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.mask = MASK_VALUED ;
    s.tM = CU_FP64 ; s.alias = CU_ALIAS_M ;
    add_spec (&s, "alias/mxv/w_is_mask") ;
}

//------------------------------------------------------------------------------
// group: SDDMM and GEMM variants
//------------------------------------------------------------------------------

void group_dense (void)
{
    static const sr_pick srs [ ] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP32, NULL, "PLUS_TIMES_FP32" },
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_FP64, NULL, "PLUS_TIMES_FP64" },
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_INT32, NULL, "PLUS_TIMES_INT32" },
        { CU_ADD_LOR, CU_MUL_LAND, CU_BOOL, NULL, "LOR_LAND_BOOL" },
        { CU_ADD_MIN, CU_MUL_PLUS, CU_INT32, NULL, "MIN_PLUS_INT32" },
        { CU_ADD_MAX, CU_MUL_TIMES, CU_FP32, NULL, "MAX_TIMES_FP32" },
        { CU_ADD_PLUS, CU_MUL_PAIR, CU_INT64, NULL, "PLUS_PAIR_INT64" },
        { CU_ADD_ANY, CU_MUL_FIRST, CU_UINT32, NULL, "ANY_FIRST_UINT32" },
    } ;
    for (int i = 0 ; i < 8 ; i++)
    {
        for (int sh = 0 ; sh < 3 ; sh++)
        {
            int shape = sh == 0 ? SH_SDDMM_T : sh == 1 ? SH_SDDMM : SH_GEMM ;
            spec s = spec_default ( ) ;
            s.add = srs [i].add ; s.mul = srs [i].mul ; s.st = srs [i].t ;
            set_shape (&s, shape) ;
            shape_values (&s, shape, s.add) ;
            s.m = 30 + i ; s.k = 3 + 2*i ; s.n = 22 ;
            if (i % 2) { s.dC = 0.4 ; s.acc = CU_ACC_PLUS ; }
            if (shape != SH_GEMM && i % 3 == 1) s.mask = MASK_VALUED ;
            add_spec (&s, "dense/%s/%s%s", shape_name [shape], srs [i].name,
                s.acc ? "_accum" : "") ;
        }
    }
    // real values: tolerance relative to the sum of |terms|
    spec s = spec_default ( ) ; set_shape (&s, SH_GEMM) ; s.st = CU_FP32 ;
    s.k = 200 ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "dense/gemm/PLUS_TIMES_FP32_real_k200") ;
    s.st = CU_FP64 ; s.rtol = 1e-12 ;
    add_spec (&s, "dense/gemm/PLUS_TIMES_FP64_real_k200") ;
    s = spec_default ( ) ; set_shape (&s, SH_SDDMM_T) ; s.st = CU_FP64 ; s.k = 64 ;
    s.gA.vals = s.gB.vals = CU_V_REAL ; s.rtol = 1e-12 ; s.mag = true ;
    add_spec (&s, "dense/sddmm_abt/PLUS_TIMES_FP64_real_k64") ;
    s = spec_default ( ) ; s.m = 300 ; s.k = 200 ; s.n = 16 ; s.dA = 0.05 ;
    s.st = CU_FP32 ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "dense/spmm/PLUS_TIMES_FP32_real_300x200x16") ;
    // a larger SpMM that the host backend may cut into pieces
    s = spec_default ( ) ; s.m = 2000 ; s.k = 1500 ; s.n = 40 ; s.dA = 0.004 ;
    s.st = CU_INT64 ; s.gA.empty_rows = 9 ;
    add_spec (&s, "dense/spmm/PLUS_TIMES_INT64_2000x1500x40") ;
    s.mask = MASK_COMP ; s.dM = 0.1 ; s.acc = CU_ACC_PLUS ; s.dC = 0.2 ;
    s.tM = CU_BOOL ;
    add_spec (&s, "dense/spmm/PLUS_TIMES_INT64_2000x1500x40_comp_accum") ;
}

//------------------------------------------------------------------------------
// group: values that a trip through another type would change
//------------------------------------------------------------------------------

void group_values (void)
{
    spec s ;
    // integers beyond 2^53 (INT64 / UINT64), whole-range UINT32 / INT32, with
    // wrap-around in the unsigned monoids and multiplies (well defined in C)
    struct { int add, mul, t ; } hs [ ] =
    {
        { CU_ADD_MIN, CU_MUL_FIRST, CU_INT64 }, { CU_ADD_MAX, CU_MUL_SECOND, CU_UINT64 },
        { CU_ADD_MIN, CU_MUL_PLUS, CU_UINT64 }, { CU_ADD_PLUS, CU_MUL_TIMES, CU_UINT64 },
        { CU_ADD_TIMES, CU_MUL_TIMES, CU_UINT64 }, { CU_ADD_MAX, CU_MUL_MIN, CU_INT64 },
        { CU_ADD_PLUS, CU_MUL_FIRST, CU_UINT64 }, { CU_ADD_ANY, CU_MUL_FIRST, CU_INT64 },
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_UINT32 }, { CU_ADD_MIN, CU_MUL_TIMES, CU_UINT32 },
        { CU_ADD_MAX, CU_MUL_PLUS, CU_UINT32 }, { CU_ADD_MIN, CU_MUL_SECOND, CU_INT32 },
        { CU_ADD_MAX, CU_MUL_MAX, CU_INT32 }, { CU_ADD_MIN, CU_MUL_LOR, CU_INT64 },
    } ;
    for (size_t i = 0 ; i < sizeof (hs) / sizeof (hs [0]) ; i++)
    {
        static const int shapes [ ] = { SH_SPMM, SH_MXV, SH_VXM, SH_GEMM, SH_SDDMM_T } ;
        for (int sh = 0 ; sh < 5 ; sh++)
        {
            s = spec_default ( ) ; s.add = hs [i].add ; s.mul = hs [i].mul ; s.st = hs [i].t ;
            set_shape (&s, shapes [sh]) ;
            shape_values (&s, shapes [sh], s.add) ;
            s.gA.vals = s.gB.vals = CU_V_HUGE ;
            add_spec (&s, "values/huge/%s/%s_%s_%s", shape_name [shapes [sh]],
                cu_add_name (s.add), cu_mul_name (s.mul), cu_type_name (s.st)) ;
        }
    }
    // huge integers into other types: INT64 -> FP64 (rounded), UINT64 ->
    // INT32 (modular), INT64 -> UINT32, and an accumulate on huge C values
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_FIRST ; s.st = CU_FP64 ;
    s.tA = CU_INT64 ; s.gA.vals = CU_V_HUGE ;
    add_spec (&s, "values/huge/spmm/A_INT64_MIN_FIRST_FP64") ;
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_INT32 ;
    s.tA = CU_UINT64 ; s.gA.vals = CU_V_HUGE ;
    add_spec (&s, "values/huge/spmm/A_UINT64_MAX_FIRST_INT32") ;
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_SECOND ; s.st = CU_UINT32 ;
    s.tB = CU_INT64 ; s.gB.vals = CU_V_HUGE ;
    add_spec (&s, "values/huge/spmm/B_INT64_MIN_SECOND_UINT32") ;
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_UINT64 ;
    s.gA.vals = s.gC.vals = CU_V_HUGE ; s.dC = 0.6 ; s.acc = CU_ACC_MINUS ;
    add_spec (&s, "values/huge/spmm/C_UINT64_accum_MINUS") ;
    s.tC = CU_INT64 ; s.acc = CU_ACC_PLUS ; s.mask = MASK_COMP ;
    add_spec (&s, "values/huge/spmm/C_INT64_from_UINT64_accum_PLUS_comp") ;

    // FP32 arithmetic must stay FP32: with at most two terms per entry the
    // order of summation cannot matter, so the sums must be bit-identical
    // (a wider accumulator rounds differently)
    for (int k = 1 ; k <= 2 ; k++)
    {
        static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_MXV, SH_VXM, SH_GEMM, SH_SDDMM_T } ;
        for (int sh = 0 ; sh < 6 ; sh++)
        {
            s = spec_default ( ) ; s.st = CU_FP32 ;
            set_shape (&s, shapes [sh]) ;
            s.k = k ;
            if (s.dA < 1) s.dA = 0.7 ;
            if (s.dB < 1) s.dB = 0.7 ;
            s.gA.vals = s.gB.vals = CU_V_REAL ;
            add_spec (&s, "values/fp32_exact/%s/k%d", shape_name [shapes [sh]], k) ;
            // FP64 operands rounded to FP32 first; FP32 sums into a FP64 C
            s.tA = s.tB = CU_FP64 ; s.tC = CU_FP64 ;
            add_spec (&s, "values/fp32_exact/%s/k%d_FP64_operands_and_C", shape_name [shapes [sh]], k) ;
        }
    }
    // and FP32 with accumulate into FP32 C (one rounding per step)
    s = spec_default ( ) ; s.st = CU_FP32 ; s.k = 2 ; s.dA = 0.7 ;
    s.gA.vals = s.gB.vals = s.gC.vals = CU_V_REAL ; s.dC = 0.7 ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "values/fp32_exact/spmm/k2_accum") ;
    // FP64 with two terms: exact too
    s = spec_default ( ) ; s.st = CU_FP64 ; s.k = 2 ; s.dA = 0.7 ;
    s.gA.vals = s.gB.vals = CU_V_REAL ;
    add_spec (&s, "values/fp64_exact/spmm/k2") ;
    s.mul = CU_MUL_PLUS ; s.add = CU_ADD_TIMES ;
    add_spec (&s, "values/fp64_exact/spmm/k2_TIMES_PLUS") ;
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_FP32 ; s.add = CU_ADD_MIN ;
    s.mul = CU_MUL_TIMES ; s.gA.vals = s.gB.vals = CU_V_REAL ; s.tA = CU_FP64 ;
    add_spec (&s, "values/fp32_exact/mxv/MIN_TIMES_FP64_A") ;

    // the full non-complemented mask with accumulate (a 7.4 defect path in
    // the write-back): grbgpu declines it
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_VALUED ; s.dM = 1 ;
    s.sM = GxB_FULL ; s.acc = CU_ACC_PLUS ; s.expect = CU_EXPECT_DECLINE ;
    add_spec (&s, "mask/spmm/full_mask_valued_accum_declined") ;
    s.mask = MASK_STRUCT ;
    add_spec (&s, "mask/spmm/full_mask_struct_accum_declined") ;
    // the same dense mask held as a bitmap: offloading it is allowed
    s.mask = MASK_VALUED ; s.sM = GxB_BITMAP ; s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "mask/spmm/dense_bitmap_mask_valued_accum") ;
}
