//------------------------------------------------------------------------------
// backend/dispatch/classify.c: a call -> a plan, or a named reason to decline
//------------------------------------------------------------------------------

// Every argument is checked here the way GrB_mxm would need it; anything
// unusual (invalid objects, dimension mismatch, user types, ...) is declined,
// so the CPU library answers it and its GrB_Info is the answer.  The semiring
// is checked by semiring.c.

#include "config.h"
#include "backend/dispatch/classify.h"
#include "backend/dispatch/semiring.h"

#include <string.h>

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

// Is type a built-in real type (grbgpu_src_code >= 0)?  Built-in types are
// static objects of the library, so an address once found to be one is one
// for good: the last few found are remembered (user types, whose addresses
// may be reused, are never remembered, and take the full comparison).
#define KNOWN_TYPES 16          // a power of 2
static _Atomic (GrB_Type) known_types [KNOWN_TYPES] ;

static bool type_supported (GrB_Type type)
{
    uint32_t h = (uint32_t) (((uint64_t) (uintptr_t) type * 0x9E3779B97F4A7C15ULL) >> 60) ;
    if (type != NULL && atomic_load_explicit (&known_types [h], memory_order_relaxed) == type)
    {
        return true ;
    }
    if (grbgpu_src_code (type) < 0) return false ;
    atomic_store_explicit (&known_types [h], type, memory_order_relaxed) ;
    return true ;
}

// What inspect found, for the last few objects this thread looked at, by
// (handle, version): an object's dimensions, type and number of entries
// change only through the calls that bump its version (the wrappers of
// backend/interpose/objver_wrappers.c, and the products themselves), and a
// version is never handed out twice, not even to a new object made at a freed
// one's address.  So an operand used again unchanged, the common case in an
// iterative algorithm, costs one version look-up instead of four GraphBLAS
// calls, three of them with a memory fence.  An unknown handle (version 0) is
// always asked.  (Were the object to have pending work, the first inspection,
// through GrB_Matrix_nvals, finished it, and nothing has changed since.)
//
// The memo is searched whole (a product has at most three such operands, so
// a few products' worth fit) and refilled in turn.  Its handles are kept
// together, so that a search reads one cache line.
#define OBJ_MEMO 8
typedef struct
{
    const void *handle [OBJ_MEMO] ;
    struct
    {
        uint64_t version ;
        bool is_vector ;
        obj_info info ;
    }
    entry [OBJ_MEMO] ;
    unsigned next ;             // the entry refilled next
}
obj_memo ;
static _Thread_local obj_memo thread_memo ;

// A's dimensions, type, entries and dense-ness.  With memo (this thread's),
// A is looked up in it and added to it; the output of a call is not worth
// looking up: every call that writes it bumps its version.
static const char *inspect (GrB_Matrix A, bool is_vector, obj_memo *memo, obj_info *o)
{
    if (A == NULL) return "invalid arguments (NULL object)" ;
    int slot = -1 ;
    uint64_t version = 0 ;
    if (memo != NULL && (version = grbgpu_objver_get (A)) != 0)
    {
        for (int k = 0 ; k < OBJ_MEMO ; k++)
        {
            if (memo->handle [k] != A) continue ;
            slot = k ;                  // found: refreshed in place if stale
            if (memo->entry [k].version == version && memo->entry [k].is_vector == is_vector)
            {
                *o = memo->entry [k].info ;
                return NULL ;
            }
            break ;
        }
        if (slot < 0) slot = (int) (memo->next++ % OBJ_MEMO) ;
    }
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
    if (!type_supported (o->type)) return "user-defined or complex type" ;
    unsigned __int128 full = (unsigned __int128) o->nrows * o->ncols ;
    o->dense = (o->nrows > 0 && o->ncols > 0 && (unsigned __int128) o->nvals == full) ;
    if (slot >= 0)
    {
        memo->handle [slot] = A ;
        memo->entry [slot].version = version ;
        memo->entry [slot].is_vector = is_vector ;
        memo->entry [slot].info = *o ;
    }
    return NULL ;
}

//------------------------------------------------------------------------------
// the descriptor
//------------------------------------------------------------------------------

static GrB_Desc_Value desc_field (GrB_Descriptor desc, GrB_Desc_Field f, bool *ok)
{
    GrB_Desc_Value v = GxB_DEFAULT ;
    if (desc != NULL && GxB_Desc_get (desc, f, &v) != GrB_SUCCESS) *ok = false ;
    return v ;
}

// The four fields a product reads (OUTP, MASK, INP0, INP1, in that order);
// false if the descriptor cannot be read.  The library's predefined
// descriptors (GrB_DESC_T0, ...) cannot be changed (GrB_Descriptor_set
// refuses them), so their fields are remembered by address, as semirings
// are: one word per entry, address << 16 | the four values, 4 bits each.
// A descriptor the program made may be changed or freed: always asked.
#define DESC_MEMO 32            // a power of 2
static _Atomic uint64_t desc_memo [DESC_MEMO] ;

static bool read_descriptor (GrB_Descriptor desc, GrB_Desc_Value v [4])
{
    const uint64_t key = (uint64_t) (uintptr_t) desc ;
    const uint32_t h = (uint32_t) ((key * 0x9E3779B97F4A7C15ULL) >> 59) ;
    if (desc != NULL)
    {
        uint64_t e = atomic_load_explicit (&desc_memo [h], memory_order_relaxed) ;
        if (e != 0 && (e >> 16) == key)
        {
            for (int k = 0 ; k < 4 ; k++) v [k] = (GrB_Desc_Value) ((e >> (4 * k)) & 15) ;
            return true ;
        }
    }
    bool ok = true ;
    v [0] = desc_field (desc, GrB_OUTP, &ok) ;
    v [1] = desc_field (desc, GrB_MASK, &ok) ;
    v [2] = desc_field (desc, GrB_INP0, &ok) ;
    v [3] = desc_field (desc, GrB_INP1, &ok) ;
    if (ok && desc != NULL && key < ((uint64_t) 1 << 48) && grbgpu_in_library (desc))
    {
        uint64_t e = key << 16 ;
        for (int k = 0 ; k < 4 ; k++)
        {
            if (v [k] < 0 || v [k] > 15) return ok ;    // (not seen in 7.4)
            e |= (uint64_t) v [k] << (4 * k) ;
        }
        atomic_store_explicit (&desc_memo [h], e, memory_order_relaxed) ;
    }
    return ok ;
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
    grbgpu_semiring_init ( ) ;
    // (the plan is zeroed and filled only once no reason to decline is left:
    // a declined call does not pay for it)
    const char *why ;
    const bool vec_out = (call->kind != GG_CALL_MXM) ;

    //--------------------------------------------------------------------------
    // descriptor
    //--------------------------------------------------------------------------

    GrB_Desc_Value dv [4] ;
    if (!read_descriptor (call->desc, dv)) return "invalid arguments (descriptor)" ;
    const GrB_Desc_Value outp = dv [0], mask = dv [1], in0 = dv [2], in1 = dv [3] ;
    const bool replace = (outp == GrB_REPLACE) ;
    const bool mask_comp = (mask == GrB_COMP || mask == GrB_COMP + GrB_STRUCTURE) ;
    const bool mask_struct = (mask == GrB_STRUCTURE || mask == GrB_COMP + GrB_STRUCTURE) ;
    const bool tA = (in0 == GrB_TRAN), tB = (in1 == GrB_TRAN) ;

    //--------------------------------------------------------------------------
    // semiring
    //--------------------------------------------------------------------------

    if (call->semiring == NULL) return "invalid arguments (NULL semiring)" ;
    gg_semiring sr ;
    if ((why = grbgpu_semiring_check (call->semiring, &sr)) != NULL) return why ;

    //--------------------------------------------------------------------------
    // objects, types, dimensions
    //--------------------------------------------------------------------------

    // argument order as in the call: mxm (A, B), mxv (A, u), vxm (u, A)
    obj_info c, a, b, m ;
    obj_memo *memo = &thread_memo ;
    if ((why = inspect (call->C, vec_out, NULL, &c)) != NULL) return why ;
    if ((why = inspect (call->A, call->kind == GG_CALL_VXM, memo, &a)) != NULL) return why ;
    if ((why = inspect (call->B, call->kind == GG_CALL_MXV, memo, &b)) != NULL) return why ;
    if (call->M != NULL && (why = inspect (call->M, vec_out, memo, &m)) != NULL) return why ;
    if (call->accum != NULL)
    {
        GrB_Type xt = NULL, yt = NULL, zt = NULL ;
        if (GxB_BinaryOp_xtype (&xt, call->accum) != GrB_SUCCESS
            || GxB_BinaryOp_ytype (&yt, call->accum) != GrB_SUCCESS
            || GxB_BinaryOp_ztype (&zt, call->accum) != GrB_SUCCESS)
        {
            return "invalid arguments (accumulator)" ;
        }
        if (!type_supported (xt) || !type_supported (yt) || !type_supported (zt))
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

    if (call->M == NULL && mask_comp) return "complemented empty mask" ;
    if (call->M != NULL && call->accum != NULL && !mask_comp)
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

    // the last reasons to decline
    switch (call->kind)
    {
        case GG_CALL_MXV: if (!b.dense) return "sparse input vector" ; break ;
        case GG_CALL_VXM: if (!a.dense) return "sparse input vector" ; break ;
        default:          if (!a.dense && !b.dense) return "sparse x sparse" ; break ;
    }

    memset (plan, 0, sizeof (gg_plan)) ;
    plan->sr = sr ;
    plan->ztype = grbgpu_semiring_ztype (sr.type) ;
    plan->out.C = call->C ;
    plan->out.is_vector = vec_out ;
    plan->out.M = call->M ;
    plan->out.accum = call->accum ;
    plan->out.replace = replace ;
    plan->out.mask_comp = mask_comp ;
    plan->out.mask_struct = mask_struct ;

    gg_mul mul = sr.mul ;
    switch (call->kind)
    {
        case GG_CALL_MXV:
            plan->op = GG_OP_SPMM ;
            plan->S = (gg_operand) { call->A, tA, false } ;
            plan->X = (gg_operand) { call->B, false, false } ;
            plan->m = (int64_t) ra ; plan->k = (int64_t) ca ; plan->n = 1 ;
            plan->flops = 2.0 * (double) a.nvals ;
            break ;

        case GG_CALL_VXM:
            // w = op(A)' * u, with the multiply's operands swapped
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
                if (call->M != NULL && !mask_comp)
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
            else
            {
                // a.dense: C' = op(B)' * op(A)': the sparse operand goes left
                plan->op = GG_OP_SPMM ;
                plan->flipped = true ;
                mul = swap_mul (mul) ;
                plan->S = (gg_operand) { call->B, !tB, false } ;
                plan->X = (gg_operand) { call->A, !tA, false } ;
                plan->m = (int64_t) cb ; plan->k = (int64_t) rb ; plan->n = (int64_t) ra ;
                plan->flops = 2.0 * (double) b.nvals * (double) ra ;
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
