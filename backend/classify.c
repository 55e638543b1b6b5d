//------------------------------------------------------------------------------
// backend/classify.c: what is this call?  A plan, or a named reason to decline
//------------------------------------------------------------------------------

// A semiring is recognised by its (monoid operator, multiply operator) pair,
// not by its pointer, so that user-built semirings made of built-in operators
// are recognised; the monoid's identity and terminal value must be the
// standard ones (a user monoid PLUS with identity 1 is a different monoid).
// Every argument is checked here the way GrB_mxm would need it; anything
// unusual (invalid objects, dimension mismatch, user types, ...) is declined,
// so the CPU library answers it and its GrB_Info is the answer.

#include "config.h"
#include "backend/classify.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

//------------------------------------------------------------------------------
// operator tables
//------------------------------------------------------------------------------

typedef struct { GrB_BinaryOp op ; int kind ; gg_type type ; } op_entry ;

#define MAX_OPS 160
static op_entry mul_table [MAX_OPS], add_table [MAX_OPS] ;
static int n_mul = 0, n_add = 0 ;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT ;

static void add_mul (GrB_BinaryOp op, gg_mul kind, gg_type t)
{
    if (n_mul < MAX_OPS) mul_table [n_mul++] = (op_entry) { op, (int) kind, t } ;
}
static void add_add (GrB_BinaryOp op, gg_add kind, gg_type t)
{
    if (n_add < MAX_OPS) add_table [n_add++] = (op_entry) { op, (int) kind, t } ;
}

// The multiplies and monoid operators of one non-boolean type.
#define TABLE_TYPE(T, GT)                                                   \
    add_mul (GrB_TIMES_##T, GG_MUL_TIMES, GT) ;                             \
    add_mul (GrB_FIRST_##T, GG_MUL_FIRST, GT) ;                             \
    add_mul (GrB_SECOND_##T, GG_MUL_SECOND, GT) ;                           \
    add_mul (GxB_PAIR_##T, GG_MUL_PAIR, GT) ;                               \
    add_mul (GrB_ONEB_##T, GG_MUL_PAIR, GT) ;                               \
    add_mul (GrB_PLUS_##T, GG_MUL_PLUS, GT) ;                               \
    add_mul (GrB_MIN_##T, GG_MUL_MIN, GT) ;                                 \
    add_mul (GrB_MAX_##T, GG_MUL_MAX, GT) ;                                 \
    add_mul (GxB_LAND_##T, GG_MUL_LAND, GT) ;                               \
    add_mul (GxB_LOR_##T, GG_MUL_LOR, GT) ;                                 \
    add_add (GrB_PLUS_##T, GG_ADD_PLUS, GT) ;                               \
    add_add (GrB_TIMES_##T, GG_ADD_TIMES, GT) ;                             \
    add_add (GrB_MIN_##T, GG_ADD_MIN, GT) ;                                 \
    add_add (GrB_MAX_##T, GG_ADD_MAX, GT) ;                                 \
    add_add (GxB_ANY_##T, GG_ADD_ANY, GT) ;

static void build_tables (void)
{
    TABLE_TYPE (INT32, GG_INT32)
    TABLE_TYPE (INT64, GG_INT64)
    TABLE_TYPE (UINT32, GG_UINT32)
    TABLE_TYPE (UINT64, GG_UINT64)
    TABLE_TYPE (FP32, GG_FP32)
    TABLE_TYPE (FP64, GG_FP64)
    // BOOL: GraphBLAS renames PLUS, MAX -> LOR and TIMES, MIN -> LAND
    add_mul (GrB_TIMES_BOOL, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GrB_MIN_BOOL, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GxB_LAND_BOOL, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GrB_LAND, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GrB_PLUS_BOOL, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GrB_MAX_BOOL, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GxB_LOR_BOOL, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GrB_LOR, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GrB_FIRST_BOOL, GG_MUL_FIRST, GG_BOOL) ;
    add_mul (GrB_SECOND_BOOL, GG_MUL_SECOND, GG_BOOL) ;
    add_mul (GxB_PAIR_BOOL, GG_MUL_PAIR, GG_BOOL) ;
    add_mul (GrB_ONEB_BOOL, GG_MUL_PAIR, GG_BOOL) ;
    add_add (GrB_PLUS_BOOL, GG_ADD_LOR, GG_BOOL) ;
    add_add (GrB_MAX_BOOL, GG_ADD_LOR, GG_BOOL) ;
    add_add (GxB_LOR_BOOL, GG_ADD_LOR, GG_BOOL) ;
    add_add (GrB_LOR, GG_ADD_LOR, GG_BOOL) ;
    add_add (GrB_TIMES_BOOL, GG_ADD_LAND, GG_BOOL) ;
    add_add (GrB_MIN_BOOL, GG_ADD_LAND, GG_BOOL) ;
    add_add (GxB_LAND_BOOL, GG_ADD_LAND, GG_BOOL) ;
    add_add (GrB_LAND, GG_ADD_LAND, GG_BOOL) ;
    add_add (GxB_ANY_BOOL, GG_ADD_ANY, GG_BOOL) ;
}

static const op_entry *find_op (const op_entry *table, int n, GrB_BinaryOp op)
{
    for (int k = 0 ; k < n ; k++) if (table [k].op == op) return &table [k] ;
    return NULL ;
}

//------------------------------------------------------------------------------
// the standard identity and terminal of a monoid, as 8 bytes
//------------------------------------------------------------------------------

typedef union { uint8_t b ; int32_t i32 ; int64_t i64 ; uint32_t u32 ;
    uint64_t u64 ; float f32 ; double f64 ; } gg_scalar ;

// identity (which == 0) or terminal (which == 1); returns false if the
// standard monoid has no terminal value.
static bool standard_value (gg_add add, gg_type t, int which, gg_scalar *v)
{
    memset (v, 0, sizeof (*v)) ;
    // value: 0 = zero, 1 = one, 2 = the type's minimum, 3 = the maximum
    int what ;
    switch (add)
    {
        case GG_ADD_PLUS:  if (which) return false ; what = 0 ; break ;
        case GG_ADD_TIMES:
            if (!which) { what = 1 ; break ; }
            if (t == GG_FP32 || t == GG_FP64) return false ;
            what = 0 ; break ;
        case GG_ADD_MIN:   what = which ? 2 : 3 ; break ;
        case GG_ADD_MAX:   what = which ? 3 : 2 ; break ;
        case GG_ADD_LOR:   what = which ? 1 : 0 ; break ;
        case GG_ADD_LAND:  what = which ? 0 : 1 ; break ;
        case GG_ADD_ANY:   return false ;   // checked separately
        default: return false ;
    }
    switch (t)
    {
        case GG_BOOL:   v->b = (what == 1 || what == 3) ; break ;
        case GG_INT32:  v->i32 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? INT32_MIN : INT32_MAX ; break ;
        case GG_INT64:  v->i64 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? INT64_MIN : INT64_MAX ; break ;
        case GG_UINT32: v->u32 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? 0 : UINT32_MAX ; break ;
        case GG_UINT64: v->u64 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? 0 : UINT64_MAX ; break ;
        case GG_FP32:   v->f32 = what == 0 ? 0.0f : what == 1 ? 1.0f : what == 2 ? -INFINITY : INFINITY ; break ;
        case GG_FP64:   v->f64 = what == 0 ? 0.0 : what == 1 ? 1.0 : what == 2 ? -INFINITY : INFINITY ; break ;
        default: return false ;
    }
    return true ;
}

// Is this monoid the standard one for its operator?
static const char *check_monoid (GrB_Monoid monoid, gg_add add, gg_type t)
{
    const size_t sz = gg_type_size (t) ;
    gg_scalar id, want, term ;
    memset (&id, 0, sizeof (id)) ;
    memset (&term, 0, sizeof (term)) ;
    bool has_terminal = false ;
    if (GxB_Monoid_identity (&id, monoid) != GrB_SUCCESS) return "monoid is not valid" ;
    if (GxB_Monoid_terminal (&has_terminal, &term, monoid) != GrB_SUCCESS) return "monoid is not valid" ;
    if (add == GG_ADD_ANY) return NULL ;    // any identity/terminal: any value will do
    if (standard_value (add, t, 0, &want) && memcmp (&id, &want, sz) != 0)
    {
        return "monoid has a non-standard identity" ;
    }
    if (has_terminal)
    {
        // a terminal value lets the library stop early: it must be the
        // standard one, or results would differ
        if (!standard_value (add, t, 1, &want) || memcmp (&term, &want, sz) != 0)
        {
            return "monoid has a non-standard terminal value" ;
        }
    }
    return NULL ;
}

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

typedef struct
{
    GrB_Type type ;
    GrB_Index nrows, ncols, nvals ;
    bool dense ;
}
obj_info ;

static const char *inspect (GrB_Matrix A, bool is_vector, obj_info *o)
{
    if (A == NULL) return "invalid arguments (NULL object)" ;
    GrB_Info info ;
    if (is_vector)
    {
        info = GrB_Vector_size (&o->nrows, (GrB_Vector) A) ;
        o->ncols = 1 ;
        if (info == GrB_SUCCESS) info = GrB_Vector_nvals (&o->nvals, (GrB_Vector) A) ;
        if (info == GrB_SUCCESS) info = GxB_Vector_type (&o->type, (GrB_Vector) A) ;
    }
    else
    {
        info = GrB_Matrix_nrows (&o->nrows, A) ;
        if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&o->ncols, A) ;
        if (info == GrB_SUCCESS) info = GrB_Matrix_nvals (&o->nvals, A) ;
        if (info == GrB_SUCCESS) info = GxB_Matrix_type (&o->type, A) ;
    }
    if (info != GrB_SUCCESS) return "invalid arguments (object)" ;
    if (grbgpu_src_code (o->type) < 0) return "user-defined or complex type" ;
    unsigned __int128 full = (unsigned __int128) o->nrows * o->ncols ;
    o->dense = (o->nrows > 0 && o->ncols > 0 && (unsigned __int128) o->nvals == full) ;
    return NULL ;
}

static GrB_Desc_Value desc_field (GrB_Descriptor desc, GrB_Desc_Field f, bool *ok)
{
    GrB_Desc_Value v = GxB_DEFAULT ;
    if (desc != NULL && GxB_Desc_get (desc, f, &v) != GrB_SUCCESS) *ok = false ;
    return v ;
}

static gg_mul swap_mul (gg_mul m)
{
    return m == GG_MUL_FIRST ? GG_MUL_SECOND : m == GG_MUL_SECOND ? GG_MUL_FIRST : m ;
}

//------------------------------------------------------------------------------
// grbgpu_classify
//------------------------------------------------------------------------------

const char *grbgpu_classify (const gg_call *call, gg_plan *plan)
{
    pthread_once (&tables_once, build_tables) ;
    memset (plan, 0, sizeof (gg_plan)) ;
    const char *why ;
    const bool vec_out = (call->kind != GG_CALL_MXM) ;

    //--------------------------------------------------------------------------
    // descriptor
    //--------------------------------------------------------------------------

    bool ok = true ;
    GrB_Desc_Value outp = desc_field (call->desc, GrB_OUTP, &ok) ;
    GrB_Desc_Value mask = desc_field (call->desc, GrB_MASK, &ok) ;
    GrB_Desc_Value in0 = desc_field (call->desc, GrB_INP0, &ok) ;
    GrB_Desc_Value in1 = desc_field (call->desc, GrB_INP1, &ok) ;
    if (!ok) return "invalid arguments (descriptor)" ;
    plan->out.replace = (outp == GrB_REPLACE) ;
    plan->out.mask_comp = (mask == GrB_COMP || mask == GrB_COMP + GrB_STRUCTURE) ;
    plan->out.mask_struct = (mask == GrB_STRUCTURE || mask == GrB_COMP + GrB_STRUCTURE) ;
    const bool tA = (in0 == GrB_TRAN), tB = (in1 == GrB_TRAN) ;

    //--------------------------------------------------------------------------
    // semiring
    //--------------------------------------------------------------------------

    if (call->semiring == NULL) return "invalid arguments (NULL semiring)" ;
    GrB_Monoid monoid = NULL ;
    GrB_BinaryOp mulop = NULL, addop = NULL ;
    if (GxB_Semiring_add (&monoid, call->semiring) != GrB_SUCCESS
        || GxB_Semiring_multiply (&mulop, call->semiring) != GrB_SUCCESS
        || GxB_Monoid_operator (&addop, monoid) != GrB_SUCCESS)
    {
        return "invalid arguments (semiring)" ;
    }
    const op_entry *me = find_op (mul_table, n_mul, mulop) ;
    const op_entry *ae = find_op (add_table, n_add, addop) ;
    if (me == NULL) return "multiply operator not supported" ;
    if (ae == NULL) return "monoid not supported" ;
    if (ae->type != me->type) return "invalid arguments (semiring types)" ;
    if ((why = check_monoid (monoid, (gg_add) ae->kind, ae->type)) != NULL) return why ;
    plan->sr.add = (gg_add) ae->kind ;
    plan->sr.mul = (gg_mul) me->kind ;
    plan->sr.type = me->type ;
    plan->ztype = grbgpu_grb_type (me->type) ;

    //--------------------------------------------------------------------------
    // objects, types, dimensions
    //--------------------------------------------------------------------------

    // argument order as in the call: mxm (A, B), mxv (A, u), vxm (u, A)
    obj_info c, a, b, m ;
    if ((why = inspect (call->C, vec_out, &c)) != NULL) return why ;
    if ((why = inspect (call->A, call->kind == GG_CALL_VXM, &a)) != NULL) return why ;
    if ((why = inspect (call->B, call->kind == GG_CALL_MXV, &b)) != NULL) return why ;
    if (call->M != NULL && (why = inspect (call->M, vec_out, &m)) != NULL) return why ;
    if (call->accum != NULL)
    {
        GrB_Type xt = NULL, yt = NULL, zt = NULL ;
        if (GxB_BinaryOp_xtype (&xt, call->accum) != GrB_SUCCESS
            || GxB_BinaryOp_ytype (&yt, call->accum) != GrB_SUCCESS
            || GxB_BinaryOp_ztype (&zt, call->accum) != GrB_SUCCESS)
        {
            return "invalid arguments (accumulator)" ;
        }
        if (grbgpu_src_code (xt) < 0 || grbgpu_src_code (yt) < 0 || grbgpu_src_code (zt) < 0)
        {
            return "accumulator not supported" ;
        }
    }

    // op (A) is ra x ca, op (B) is rb x cb (vectors are columns)
    GrB_Index ra, ca, rb, cb ;
    switch (call->kind)
    {
        case GG_CALL_MXM:
            ra = tA ? a.ncols : a.nrows ; ca = tA ? a.nrows : a.ncols ;
            rb = tB ? b.ncols : b.nrows ; cb = tB ? b.nrows : b.ncols ;
            break ;
        case GG_CALL_MXV:   // w = op(A) * u
            ra = tA ? a.ncols : a.nrows ; ca = tA ? a.nrows : a.ncols ;
            rb = b.nrows ; cb = 1 ;
            break ;
        default:            // w' = u' * op(A)
            ra = 1 ; ca = a.nrows ;
            rb = tB ? b.ncols : b.nrows ; cb = tB ? b.nrows : b.ncols ;
            break ;
    }
    GrB_Index cr = c.nrows, cc = c.ncols ;
    if (call->kind == GG_CALL_VXM) { cr = 1 ; cc = c.nrows ; }
    if (ca != rb || cr != ra || cc != cb) return "invalid arguments (dimensions)" ;
    if (call->M != NULL && (m.nrows != c.nrows || m.ncols != c.ncols))
    {
        return "invalid arguments (mask dimensions)" ;
    }
    if (ca == 0) return "inner dimension is 0" ;
    if (cr == 0 || cc == 0) return "empty output" ;

    //--------------------------------------------------------------------------
    // masks
    //--------------------------------------------------------------------------

    plan->out.C = call->C ;
    plan->out.is_vector = vec_out ;
    plan->out.M = call->M ;
    plan->out.accum = call->accum ;
    if (call->M == NULL && plan->out.mask_comp) return "complemented empty mask" ;
    if (call->M != NULL && call->accum != NULL && !plan->out.mask_comp)
    {
        int status = 0 ;
        GrB_Info info = vec_out
            ? GxB_Vector_Option_get ((GrB_Vector) call->M, GxB_SPARSITY_STATUS, &status)
            : GxB_Matrix_Option_get (call->M, GxB_SPARSITY_STATUS, &status) ;
        if (info != GrB_SUCCESS) return "invalid arguments (mask)" ;
        if (status == GxB_FULL) return "C<M>+=T with M held full (SuiteSparse 7.4 defect)" ;
    }

    //--------------------------------------------------------------------------
    // the canonical product
    //--------------------------------------------------------------------------

    gg_mul mul = plan->sr.mul ;
    switch (call->kind)
    {
        case GG_CALL_MXV:
            if (!b.dense) return "sparse input vector" ;
            plan->op = GG_OP_SPMM ;
            plan->S = (gg_operand) { call->A, tA, false } ;
            plan->X = (gg_operand) { call->B, false, false } ;
            plan->m = (int64_t) ra ; plan->k = (int64_t) ca ; plan->n = 1 ;
            plan->flops = 2.0 * (double) a.nvals ;
            break ;

        case GG_CALL_VXM:
            // w = op(A)' * u, with the multiply's operands swapped
            if (!a.dense) return "sparse input vector" ;
            plan->op = GG_OP_SPMM ;
            mul = swap_mul (mul) ;
            plan->S = (gg_operand) { call->B, !tB, false } ;
            plan->X = (gg_operand) { call->A, false, false } ;
            plan->m = (int64_t) cb ; plan->k = (int64_t) rb ; plan->n = 1 ;
            plan->flops = 2.0 * (double) b.nvals ;
            break ;

        default:
            if (a.dense && b.dense)
            {
                // dense x dense: only entries under a (non-complemented) mask
                // are needed, so compute them alone (SDDMM); else all (GEMM)
                plan->L = (gg_operand) { call->A, tA, false } ;
                plan->R = (gg_operand) { call->B, !tB, false } ;
                plan->m = (int64_t) ra ; plan->n = (int64_t) cb ; plan->k = (int64_t) ca ;
                if (call->M != NULL && !plan->out.mask_comp)
                {
                    plan->op = GG_OP_SDDMM ;
                    plan->P = (gg_operand) { call->M, false, false } ;
                    plan->flops = 2.0 * (double) m.nvals * (double) ca ;
                }
                else
                {
                    plan->op = GG_OP_GEMM ;
                    plan->flops = 2.0 * (double) ra * (double) cb * (double) ca ;
                }
            }
            else if (b.dense)
            {
                plan->op = GG_OP_SPMM ;
                plan->S = (gg_operand) { call->A, tA, false } ;
                plan->X = (gg_operand) { call->B, tB, false } ;
                plan->m = (int64_t) ra ; plan->k = (int64_t) ca ; plan->n = (int64_t) cb ;
                plan->flops = 2.0 * (double) a.nvals * (double) cb ;
            }
            else if (a.dense)
            {
                // C' = op(B)' * op(A)': the sparse operand goes left
                plan->op = GG_OP_SPMM ;
                plan->flipped = true ;
                mul = swap_mul (mul) ;
                plan->S = (gg_operand) { call->B, !tB, false } ;
                plan->X = (gg_operand) { call->A, !tA, false } ;
                plan->m = (int64_t) cb ; plan->k = (int64_t) rb ; plan->n = (int64_t) ra ;
                plan->flops = 2.0 * (double) b.nvals * (double) ra ;
            }
            else
            {
                return "sparse x sparse" ;
            }
            break ;
    }
    plan->sr.mul = mul ;

    // which values the multiply reads: mul (s, x)
    const bool left_values = (mul != GG_MUL_SECOND && mul != GG_MUL_PAIR) ;
    const bool right_values = (mul != GG_MUL_FIRST && mul != GG_MUL_PAIR) ;
    if (plan->op == GG_OP_SPMM)
    {
        plan->S.values = left_values ;
        plan->X.values = right_values ;
    }
    else
    {
        plan->L.values = left_values ;
        plan->R.values = right_values ;
    }
    return NULL ;
}
