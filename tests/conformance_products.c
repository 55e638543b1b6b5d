//------------------------------------------------------------------------------
// tests/conformance_products.c: semirings, shapes, masks, accumulators
//------------------------------------------------------------------------------

// The groups grid, shapes, mixed (operand types), masks, accum and
// transpose; set_shape / shape_values serve the other groups too.

#include "tests/conformance.h"

//------------------------------------------------------------------------------
// group: every monoid x multiply x type on a small SpMM
//------------------------------------------------------------------------------

static const int adds_nonbool [ ] = { CU_ADD_PLUS, CU_ADD_TIMES, CU_ADD_MIN,
    CU_ADD_MAX, CU_ADD_ANY } ;
static const int adds_bool [ ] = { CU_ADD_LOR, CU_ADD_LAND, CU_ADD_ANY } ;

// Values that keep every order of the monoid exact: small integers, powers
// of two under TIMES, and for ANY the same value for every candidate
// (op(A) constant along each row, op(B) constant along each column).
static void values_for (spec *s, int add)
{
    memset (&s->gA, 0, sizeof (cu_gen)) ;
    memset (&s->gB, 0, sizeof (cu_gen)) ;
    if (add == CU_ADD_ANY)
    {
        s->gA.vary = CU_VARY_ROW ;
        s->gB.vary = CU_VARY_COL ;
    }
    else
    {
        s->gA.zeros = 0.1 ;
        if (add == CU_ADD_TIMES) s->gA.vals = s->gB.vals = CU_V_POW2 ;
    }
}

void group_grid (void)
{
    for (int t = 0 ; t < CU_NT ; t++)
    {
        const int *adds = (t == CU_BOOL) ? adds_bool : adds_nonbool ;
        int nadds = (t == CU_BOOL) ? 3 : 5 ;
        for (int a = 0 ; a < nadds ; a++)
        {
            for (int mul = 0 ; mul < CU_NMUL ; mul++)
            {
                spec s = spec_default ( ) ;
                s.add = adds [a] ; s.mul = mul ; s.st = t ;
                values_for (&s, s.add) ;
                s.gA.empty_rows = 7 ; s.gA.empty_cols = 5 ;
                add_spec (&s, "grid/%s_%s_%s", cu_add_name (s.add),
                    cu_mul_name (mul), cu_type_name (t)) ;
            }
        }
    }
}

//------------------------------------------------------------------------------
// group: a subset of semirings on every shape
//------------------------------------------------------------------------------

static sr_pick shape_semirings [ ] =
{
    { CU_ADD_PLUS,  CU_MUL_TIMES,  CU_FP64,   &GrB_PLUS_TIMES_SEMIRING_FP64, "PLUS_TIMES_FP64" },
    { CU_ADD_PLUS,  CU_MUL_TIMES,  CU_INT32,  &GrB_PLUS_TIMES_SEMIRING_INT32, "PLUS_TIMES_INT32" },
    { CU_ADD_MIN,   CU_MUL_PLUS,   CU_INT64,  NULL, "MIN_PLUS_INT64" },
    { CU_ADD_MAX,   CU_MUL_MIN,    CU_FP32,   &GrB_MAX_MIN_SEMIRING_FP32, "MAX_MIN_FP32" },
    { CU_ADD_PLUS,  CU_MUL_SECOND, CU_FP32,   &GxB_PLUS_SECOND_FP32, "PLUS_SECOND_FP32" },
    { CU_ADD_MIN,   CU_MUL_SECOND, CU_UINT32, NULL, "MIN_SECOND_UINT32" },
    { CU_ADD_LOR,   CU_MUL_LAND,   CU_BOOL,   &GrB_LOR_LAND_SEMIRING_BOOL, "LOR_LAND_BOOL" },
    { CU_ADD_ANY,   CU_MUL_PAIR,   CU_INT64,  &GxB_ANY_PAIR_INT64, "ANY_PAIR_INT64" },
    { CU_ADD_PLUS,  CU_MUL_PAIR,   CU_UINT64, &GxB_PLUS_PAIR_UINT64, "PLUS_PAIR_UINT64" },
    { CU_ADD_MAX,   CU_MUL_TIMES,  CU_INT32,  NULL, "MAX_TIMES_INT32" },
    { CU_ADD_TIMES, CU_MUL_FIRST,  CU_FP64,   NULL, "TIMES_FIRST_FP64" },
    { CU_ADD_PLUS,  CU_MUL_FIRST,  CU_FP64,   &GxB_PLUS_FIRST_FP64, "PLUS_FIRST_FP64" },
    { CU_ADD_MIN,   CU_MUL_FIRST,  CU_INT32,  &GrB_MIN_FIRST_SEMIRING_INT32, "MIN_FIRST_INT32" },
    { CU_ADD_ANY,   CU_MUL_SECOND, CU_FP32,   NULL, "ANY_SECOND_FP32" },
    { CU_ADD_PLUS,  CU_MUL_ONEB,   CU_INT64,  NULL, "PLUS_ONEB_INT64" },
    { CU_ADD_LAND,  CU_MUL_LOR,    CU_BOOL,   NULL, "LAND_LOR_BOOL" },
    { CU_ADD_MAX,   CU_MUL_PLUS,   CU_UINT64, NULL, "MAX_PLUS_UINT64" },
} ;
#define N_SHAPE_SEMIRINGS (int) (sizeof (shape_semirings) / sizeof (sr_pick))

const char *shape_name [SH_NSHAPES] = { "spmm", "dxs", "mxv", "vxm",
    "sddmm_abt", "sddmm_ab", "gemm" } ;

// Set op, dims, densities and mask of s for a shape.
void set_shape (spec *s, int shape)
{
    s->op = CU_MXM ;
    switch (shape)
    {
        case SH_SPMM:
            s->m = 41 ; s->k = 29 ; s->n = 7 ; s->dA = 0.2 ; s->dB = 1 ; break ;
        case SH_DXS:
            s->m = 9 ; s->k = 31 ; s->n = 40 ; s->dA = 1 ; s->dB = 0.2 ; break ;
        case SH_MXV:
            s->op = CU_MXV ; s->m = 57 ; s->k = 33 ; s->dA = 0.2 ; s->dB = 1 ; break ;
        case SH_VXM:
            s->op = CU_VXM ; s->k = 33 ; s->n = 45 ; s->dA = 1 ; s->dB = 0.2 ; break ;
        case SH_SDDMM_T:
            s->m = 20 ; s->k = 6 ; s->n = 25 ; s->dA = 1 ; s->dB = 1 ; s->trB = true ;
            s->mask = MASK_STRUCT ; s->dM = 0.15 ; break ;
        case SH_SDDMM:
            s->m = 20 ; s->k = 6 ; s->n = 25 ; s->dA = 1 ; s->dB = 1 ;
            s->mask = MASK_STRUCT ; s->dM = 0.15 ; break ;
        case SH_GEMM:
        default:
            s->m = 13 ; s->k = 11 ; s->n = 9 ; s->dA = 1 ; s->dB = 1 ; break ;
    }
}

// the sparse operand gets empty rows / columns and explicit zeros
void shape_values (spec *s, int shape, int add)
{
    values_for (s, add) ;
    if (add != CU_ADD_ANY)
    {
        s->gA.zeros = (s->dA < 1) ? 0.1 : 0 ;
        s->gB.zeros = (s->dB < 1) ? 0.1 : 0 ;
    }
    if (shape == SH_SPMM || shape == SH_MXV) { s->gA.empty_rows = 6 ; s->gA.empty_cols = 4 ; }
    if (shape == SH_DXS || shape == SH_VXM) { s->gB.empty_rows = 5 ; s->gB.empty_cols = 3 ; }
}

void group_shapes (void)
{
    for (int i = 0 ; i < N_SHAPE_SEMIRINGS ; i++)
    {
        for (int sh = 0 ; sh < SH_NSHAPES ; sh++)
        {
            sr_pick *p = &shape_semirings [i] ;
            spec s = spec_default ( ) ;
            s.add = p->add ; s.mul = p->mul ; s.st = p->t ; s.builtin = p->builtin ;
            set_shape (&s, sh) ;
            shape_values (&s, sh, p->add) ;
            add_spec (&s, "shape/%s/%s", shape_name [sh], p->name) ;
        }
    }
}

//------------------------------------------------------------------------------
// group: operand types that differ from the semiring's
//------------------------------------------------------------------------------

void group_mixed (void)
{
    spec s ;

    // INT32 A, FP64 B, PLUS_TIMES FP64
    s = spec_default ( ) ; s.st = CU_FP64 ; s.tA = CU_INT32 ; s.tB = CU_FP64 ;
    s.gB.vals = CU_V_POW2 ;
    add_spec (&s, "mixed/A_INT32_B_FP64_PLUS_TIMES_FP64") ;

    // PageRank: r += A' * w with A boolean, PLUS_SECOND FP32 (real values)
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ;
    s.builtin = &GxB_PLUS_SECOND_FP32 ; s.add = CU_ADD_PLUS ; s.mul = CU_MUL_SECOND ;
    s.st = CU_FP32 ; s.tA = CU_BOOL ; s.gA.vals = CU_V_ONE ; s.trA = true ;
    s.m = 50 ; s.k = 50 ; s.gB.vals = CU_V_REAL ;
    s.acc = CU_ACC_PLUS ; s.dC = 1 ; s.gC.vals = CU_V_REAL ;
    s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "mixed/pagerank_mxv_A_BOOL_PLUS_SECOND_FP32") ;

    // the same as a matrix product, with explicit false entries in A
    s = spec_default ( ) ; s.builtin = &GxB_PLUS_SECOND_FP32 ;
    s.add = CU_ADD_PLUS ; s.mul = CU_MUL_SECOND ; s.st = CU_FP32 ;
    s.tA = CU_BOOL ; s.gA.zeros = 0.2 ; s.gB.vals = CU_V_REAL ;
    s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "mixed/A_BOOL_PLUS_SECOND_FP32_real") ;

    // FP64 values cast to INT32: truncation and saturation, read by MAX_FIRST
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_INT32 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_CAST ;
    add_spec (&s, "mixed/A_FP64_cast_MAX_FIRST_INT32") ;

    // ... by MIN_SECOND, with B the cast one (and A values ignored)
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_SECOND ; s.st = CU_INT32 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_CAST ; s.tB = CU_FP64 ; s.gB.vals = CU_V_CAST ;
    add_spec (&s, "mixed/B_FP64_cast_MIN_SECOND_INT32") ;

    // moderate fractions and negatives, PLUS_TIMES INT32 (truncation before the product)
    s = spec_default ( ) ; s.st = CU_INT32 ; s.tA = CU_FP64 ; s.gA.vals = CU_V_FRAC ;
    s.tB = CU_FP64 ; s.gB.vals = CU_V_FRAC ;
    add_spec (&s, "mixed/A_B_FP64_frac_PLUS_TIMES_INT32") ;

    // negatives into an unsigned semiring (saturate at 0)
    s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ; s.st = CU_UINT32 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_CAST ;
    add_spec (&s, "mixed/A_FP64_cast_MAX_FIRST_UINT32") ;

    s = spec_default ( ) ; s.add = CU_ADD_PLUS ; s.mul = CU_MUL_TIMES ; s.st = CU_UINT64 ;
    s.tA = CU_FP64 ; s.gA.vals = CU_V_FRAC ; s.tB = CU_INT32 ;
    add_spec (&s, "mixed/A_FP64_frac_B_INT32_PLUS_TIMES_UINT64") ;

    // FP32 fractions into INT64
    s = spec_default ( ) ; s.st = CU_INT64 ; s.tA = CU_FP32 ; s.gA.vals = CU_V_FRAC ;
    add_spec (&s, "mixed/A_FP32_frac_PLUS_TIMES_INT64") ;

    // INT64 beyond the INT32 range into INT32
    s = spec_default ( ) ; s.add = CU_ADD_MIN ; s.mul = CU_MUL_FIRST ; s.st = CU_INT32 ;
    s.tA = CU_INT64 ; s.gA.vals = CU_V_CAST ;
    add_spec (&s, "mixed/A_INT64_big_MIN_FIRST_INT32") ;

    // UINT64 into FP32
    s = spec_default ( ) ; s.st = CU_FP32 ; s.tA = CU_UINT64 ; s.tB = CU_INT64 ;
    add_spec (&s, "mixed/A_UINT64_B_INT64_PLUS_TIMES_FP32") ;

    // FP64 reals rounded to FP32 before the product
    s = spec_default ( ) ; s.st = CU_FP32 ; s.tA = CU_FP64 ; s.tB = CU_FP64 ;
    s.gA.vals = CU_V_REAL ; s.gB.vals = CU_V_REAL ; s.rtol = 1e-5 ; s.mag = true ;
    add_spec (&s, "mixed/A_B_FP64_real_PLUS_TIMES_FP32") ;

    // boolean semiring over numeric operands (nonzero is true)
    s = spec_default ( ) ; s.builtin = &GrB_LOR_LAND_SEMIRING_BOOL ;
    s.add = CU_ADD_LOR ; s.mul = CU_MUL_LAND ; s.st = CU_BOOL ;
    s.tA = CU_INT32 ; s.gA.zeros = 0.4 ; s.tB = CU_FP64 ; s.gB.zeros = 0.5 ;
    add_spec (&s, "mixed/A_INT32_B_FP64_LOR_LAND_BOOL") ;

    // mxv / vxm with operand types of their own
    s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.st = CU_FP64 ;
    s.tA = CU_INT32 ; s.tB = CU_FP32 ; s.gB.vals = CU_V_POW2 ;
    add_spec (&s, "mixed/mxv_A_INT32_u_FP32_PLUS_TIMES_FP64") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.add = CU_ADD_PLUS ;
    s.mul = CU_MUL_FIRST ; s.st = CU_FP32 ; s.tA = CU_BOOL ; s.tB = CU_INT64 ;
    add_spec (&s, "mixed/vxm_u_BOOL_B_INT64_PLUS_FIRST_FP32") ;

    // operand types that no semiring of the offload has (INT8, UINT16):
    // offloading them is allowed but not promised
    s = spec_default ( ) ; s.st = CU_FP32 ; s.tA = CU_INT8 ; s.tB = CU_UINT16 ;
    s.expect = CU_EXPECT_ANY ;
    add_spec (&s, "mixed/A_INT8_B_UINT16_PLUS_TIMES_FP32") ;
}

//------------------------------------------------------------------------------
// group: masks, replace, accumulate
//------------------------------------------------------------------------------

void group_masks (void)
{
    static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_MXV, SH_VXM, SH_SDDMM_T, SH_GEMM } ;
    static const sr_pick srs [ ] =
    {
        { CU_ADD_PLUS, CU_MUL_TIMES, CU_INT64, NULL, "PLUS_TIMES_INT64" },
        { CU_ADD_MIN, CU_MUL_PLUS, CU_FP64, NULL, "MIN_PLUS_FP64" },
        { CU_ADD_PLUS, CU_MUL_SECOND, CU_FP32, NULL, "PLUS_SECOND_FP32" },
        { CU_ADD_MAX, CU_MUL_FIRST, CU_INT32, NULL, "MAX_FIRST_INT32" },
    } ;
    static const int mtypes [ ] = { CU_BOOL, CU_INT32, CU_FP64, CU_UINT16, CU_FP32 } ;
    int count = 0 ;
    for (size_t sh = 0 ; sh < sizeof (shapes) / sizeof (int) ; sh++)
    {
        for (int mk = MASK_VALUED ; mk < MASK_NKINDS ; mk++)
        {
            for (int rep = 0 ; rep < 2 ; rep++)
            {
                for (int acc = 0 ; acc < 2 ; acc++)
                {
                    const sr_pick *p = &srs [count % 4] ;
                    spec s = spec_default ( ) ;
                    s.add = p->add ; s.mul = p->mul ; s.st = p->t ;
                    set_shape (&s, shapes [sh]) ;
                    shape_values (&s, shapes [sh], p->add) ;
                    s.mask = mk ; s.dM = 0.4 ;
                    s.tM = mtypes [count % 5] ;
                    s.replace = rep ;
                    s.acc = acc ? CU_ACC_PLUS : CU_ACC_NONE ;
                    s.dC = 0.5 ;
                    count++ ;
                    add_spec (&s, "mask/%s/%s%s%s/%s", shape_name [shapes [sh]],
                        mask_name [mk], rep ? "_replace" : "", acc ? "_accum" : "",
                        p->name) ;
                }
            }
        }
    }
    // SDDMM under a structural mask into an empty C, or with replace: T is
    // packed straight into C (C held by row), else through GrB_apply
    for (int sh = 0 ; sh < 2 ; sh++)
    {
        for (int v = 0 ; v < 6 ; v++)
        {
            spec s = spec_default ( ) ;
            set_shape (&s, sh ? SH_SDDMM : SH_SDDMM_T) ;
            s.st = (v & 1) ? CU_FP32 : CU_FP64 ;
            s.mask = (v < 4) ? MASK_STRUCT : MASK_VALUED ;
            s.dM = 0.3 ; s.tM = CU_FP32 ; s.gM.zeros = (v >= 4) ;
            s.dC = (v == 2 || v == 3) ? 0.5 : 0 ;
            s.replace = (v == 2 || v == 3) ;
            s.fC = (v == 3) ? GxB_BY_COL : GxB_BY_ROW ;
            add_spec (&s, "mask/%s/struct_direct_%s%s%s/%s", sh ? "sddmm_ab" : "sddmm_abt",
                s.dC == 0 ? "emptyC" : "replace", s.fC == GxB_BY_COL ? "_bycol" : "",
                v >= 4 ? "_valued_zeros" : "", (v & 1) ? "FP32" : "FP64") ;
        }
    }
    // replace without a mask clears C first; a mask with no entries at all
    spec s = spec_default ( ) ; s.dC = 0.6 ; s.replace = true ; s.st = CU_INT32 ;
    add_spec (&s, "mask/spmm/none_replace/PLUS_TIMES_INT32") ;
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_VALUED ; s.dM = 0 ; s.st = CU_INT32 ;
    add_spec (&s, "mask/spmm/empty_mask/PLUS_TIMES_INT32") ;
    s.mask = MASK_COMP ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "mask/spmm/empty_mask_comp_accum/PLUS_TIMES_INT32") ;
    // a valued mask whose every entry is an explicit zero
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_VALUED ; s.gM.zeros = 1 ;
    add_spec (&s, "mask/spmm/all_zero_valued_mask/PLUS_TIMES_FP64") ;
    // a dense mask, complemented, with accumulate (the non-complemented full
    // mask with accumulate is a 7.4 defect: not tested)
    s = spec_default ( ) ; s.dC = 0.6 ; s.mask = MASK_COMP ; s.dM = 1 ;
    s.sM = GxB_FULL ; s.acc = CU_ACC_PLUS ;
    add_spec (&s, "mask/spmm/full_mask_comp_accum/PLUS_TIMES_FP64") ;
    s.acc = CU_ACC_NONE ; s.mask = MASK_VALUED ;
    add_spec (&s, "mask/spmm/full_mask_valued/PLUS_TIMES_FP64") ;
}

void group_accum (void)
{
    for (int acc = CU_ACC_PLUS ; acc < CU_NACC ; acc++)
    {
        for (int ct = 0 ; ct < 2 ; ct++)
        {
            for (int mk = 0 ; mk < 2 ; mk++)
            {
                spec s = spec_default ( ) ;
                s.st = CU_INT32 ;
                s.tC = ct ? CU_FP64 : CU_INT32 ;
                s.dC = 0.5 ;
                s.acc = acc ;
                if (acc == CU_ACC_TIMES)
                {
                    s.gA.vals = s.gB.vals = s.gC.vals = CU_V_POW2 ;
                }
                s.mask = mk ? MASK_VALUED : MASK_NONE ;
                add_spec (&s, "accum/spmm/%s/C_%s%s", cu_acc_name (acc),
                    cu_type_name (s.tC), mk ? "/masked" : "") ;
            }
        }
        // C full and no mask: grbgpu accumulates in place (SpMM, dense x
        // sparse, mxv, vxm; C held by row and by column)
        static const int full_shapes [ ] = { SH_SPMM, SH_DXS, SH_MXV, SH_VXM } ;
        for (int sh = 0 ; sh < 4 ; sh++)
        {
            for (int f = 0 ; f < 2 ; f++)
            {
                spec s = spec_default ( ) ;
                set_shape (&s, full_shapes [sh]) ;
                s.st = (sh & 1) ? CU_FP64 : CU_INT32 ;
                s.tC = s.st ;
                s.dC = 1 ;
                s.acc = acc ;
                s.fC = f ? GxB_BY_COL : GxB_BY_ROW ;
                if (acc == CU_ACC_TIMES)
                {
                    s.gA.vals = s.gB.vals = s.gC.vals = CU_V_POW2 ;
                }
                add_spec (&s, "accum/full_C/%s/%s/%s", shape_name [full_shapes [sh]],
                    cu_acc_name (acc), f ? "by_col" : "by_row") ;
            }
        }
        // a FP64 sum cast to an INT64 C, then accumulated in INT64
        spec s = spec_default ( ) ; set_shape (&s, SH_MXV) ;
        s.st = CU_FP64 ; s.gA.vals = CU_V_POW2 ; s.gB.vals = CU_V_POW2 ;
        s.tC = CU_INT64 ; s.dC = 0.7 ; s.acc = acc ;
        add_spec (&s, "accum/mxv/%s/FP64_into_C_INT64", cu_acc_name (acc)) ;
        s = spec_default ( ) ; set_shape (&s, SH_VXM) ;
        s.st = CU_UINT32 ; s.tC = CU_FP32 ; s.dC = 0.7 ; s.acc = acc ;
        s.mask = MASK_STRUCT ; s.dM = 0.5 ;
        add_spec (&s, "accum/vxm/%s/UINT32_into_C_FP32_masked", cu_acc_name (acc)) ;
    }
    // C of a type other than the semiring's, no accumulate
    static const int pairs [ ][2] =
    {
        { CU_FP64, CU_INT64 }, { CU_INT32, CU_BOOL }, { CU_FP64, CU_FP32 },
        { CU_INT32, CU_UINT32 }, { CU_BOOL, CU_FP64 }, { CU_UINT64, CU_INT32 },
    } ;
    for (size_t i = 0 ; i < sizeof (pairs) / sizeof (pairs [0]) ; i++)
    {
        spec s = spec_default ( ) ;
        s.st = pairs [i][0] ; s.tC = pairs [i][1] ; s.dC = 0.3 ;
        if (s.st == CU_BOOL) { s.add = CU_ADD_LOR ; s.mul = CU_MUL_LAND ; }
        if (cu_type_float (s.st)) s.gA.vals = s.gB.vals = CU_V_POW2 ;
        add_spec (&s, "accum/spmm/none/%s_into_C_%s", cu_type_name (s.st),
            cu_type_name (s.tC)) ;
    }
    // FP64 values saturating into an INT32 C
    spec s = spec_default ( ) ; s.add = CU_ADD_MAX ; s.mul = CU_MUL_FIRST ;
    s.gA.vals = CU_V_CAST ; s.tC = CU_INT32 ;
    add_spec (&s, "accum/spmm/none/FP64_cast_into_C_INT32") ;
    // C non-empty, no mask, no accumulate: C becomes exactly T
    s = spec_default ( ) ; s.dC = 0.8 ; s.st = CU_INT64 ;
    add_spec (&s, "accum/spmm/none/C_nonempty_replaced") ;
    s.tC = CU_FP32 ; s.mask = MASK_VALUED ;
    add_spec (&s, "accum/spmm/none/C_nonempty_masked_kept") ;
}

//------------------------------------------------------------------------------
// group: transposes
//------------------------------------------------------------------------------

void group_transpose (void)
{
    static const int shapes [ ] = { SH_SPMM, SH_DXS, SH_GEMM, SH_SDDMM } ;
    for (size_t sh = 0 ; sh < 4 ; sh++)
    {
        for (int tr = 1 ; tr < 4 ; tr++)
        {
            spec s = spec_default ( ) ;
            set_shape (&s, shapes [sh]) ;
            s.add = CU_ADD_PLUS ; s.mul = CU_MUL_TIMES ; s.st = CU_INT64 ;
            shape_values (&s, shapes [sh], s.add) ;
            s.trA = tr & 1 ; s.trB = (tr & 2) != 0 ;
            add_spec (&s, "transpose/%s/%s%s", shape_name [shapes [sh]],
                s.trA ? "A'" : "A", s.trB ? "B'" : "B") ;
            // and a non-commutative multiply, to catch a lost swap
            s.mul = CU_MUL_FIRST ; s.add = CU_ADD_MIN ;
            add_spec (&s, "transpose/%s/%s%s/MIN_FIRST", shape_name [shapes [sh]],
                s.trA ? "A'" : "A", s.trB ? "B'" : "B") ;
        }
    }
    spec s = spec_default ( ) ; set_shape (&s, SH_MXV) ; s.trA = true ;
    s.m = 20 ; s.k = 35 ; s.st = CU_FP32 ; s.mul = CU_MUL_SECOND ;
    add_spec (&s, "transpose/mxv/A'") ;
    s = spec_default ( ) ; set_shape (&s, SH_VXM) ; s.trB = true ;
    s.st = CU_INT32 ; s.mul = CU_MUL_FIRST ; s.add = CU_ADD_MAX ;
    add_spec (&s, "transpose/vxm/B'") ;
    // the swapped FIRST/SECOND under a transpose, in every order
    s = spec_default ( ) ; set_shape (&s, SH_DXS) ; s.trA = s.trB = true ;
    s.mul = CU_MUL_SECOND ; s.add = CU_ADD_MAX ; s.st = CU_FP64 ;
    add_spec (&s, "transpose/dxs/A'B'/MAX_SECOND") ;
}
