//------------------------------------------------------------------------------
// backend/dispatch/vec_dispatch.c: dense vector and matrix operations on the device
//------------------------------------------------------------------------------

// See vec_dispatch.h.  One path serves every operation, on vectors and on
// matrices (a full vector is the n-by-1 case): the operands are found (a
// resident buffer, pinned; an iso full object: its scalar; a full object on
// the host: uploaded and kept resident, so that an operand read by every
// iteration goes up once), the output gets a fresh buffer, the backend's
// vec_op runs over the nrows*ncols values in storage order, and the buffer
// replaces the output's content (grbgpu_resident_keep), which keeps the
// structure the CPU library gives it: full, of its type, dimensions and
// orientation (C = op (A) keeps C's orientation; every operand must be held
// in it).  Until the keep nothing of the output has changed, so any failure
// is answered by the CPU library.  Reductions download one value.  The whole
// path runs with materialisation off (its own GraphBLAS calls read only
// structure and options).

#include "config.h"
#include "backend/dispatch/vec_private.h"
#include "backend/resident/resident.h"
#include "backend/storage/storage.h"
#include "backend/interpose/galloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// below this many values an operation with nothing resident stays on the
// CPU library under GRBGPU_DEVICE=auto
#define GG_VEC_MIN_AUTO 65536

//------------------------------------------------------------------------------
// operators
//------------------------------------------------------------------------------

bool grbgpu_vec_binop (GrB_BinaryOp op, gg_vop *vop, gg_type *t)
{
    enum { NBIN = 14 } ;
    const GrB_BinaryOp f32 [NBIN] = { GrB_FIRST_FP32, GrB_SECOND_FP32, GrB_PLUS_FP32,
        GrB_MINUS_FP32, GrB_TIMES_FP32, GrB_DIV_FP32, GrB_MIN_FP32, GrB_MAX_FP32,
        GxB_ISEQ_FP32, GxB_ISNE_FP32, GxB_ISGT_FP32, GxB_ISLT_FP32, GxB_ISGE_FP32,
        GxB_ISLE_FP32 } ;
    const GrB_BinaryOp f64 [NBIN] = { GrB_FIRST_FP64, GrB_SECOND_FP64, GrB_PLUS_FP64,
        GrB_MINUS_FP64, GrB_TIMES_FP64, GrB_DIV_FP64, GrB_MIN_FP64, GrB_MAX_FP64,
        GxB_ISEQ_FP64, GxB_ISNE_FP64, GxB_ISGT_FP64, GxB_ISLT_FP64, GxB_ISGE_FP64,
        GxB_ISLE_FP64 } ;
    const gg_vop v [NBIN] = { GG_VOP_FIRST, GG_VOP_SECOND, GG_VOP_PLUS, GG_VOP_MINUS,
        GG_VOP_TIMES, GG_VOP_DIV, GG_VOP_MIN, GG_VOP_MAX, GG_VOP_ISEQ, GG_VOP_ISNE,
        GG_VOP_ISGT, GG_VOP_ISLT, GG_VOP_ISGE, GG_VOP_ISLE } ;
    if (op == NULL) return false ;
    for (int k = 0 ; k < NBIN ; k++)
    {
        if (op == f32 [k]) { *vop = v [k] ; *t = GG_FP32 ; return true ; }
        if (op == f64 [k]) { *vop = v [k] ; *t = GG_FP64 ; return true ; }
    }
    return false ;
}

static bool unop (GrB_UnaryOp op, gg_vop *vop, gg_type *t)
{
    const GrB_UnaryOp f32 [3] = { GrB_IDENTITY_FP32, GrB_AINV_FP32, GrB_ABS_FP32 } ;
    const GrB_UnaryOp f64 [3] = { GrB_IDENTITY_FP64, GrB_AINV_FP64, GrB_ABS_FP64 } ;
    const gg_vop v [3] = { GG_VOP_IDENTITY, GG_VOP_AINV, GG_VOP_ABS } ;
    if (op == NULL) return false ;
    for (int k = 0 ; k < 3 ; k++)
    {
        if (op == f32 [k]) { *vop = v [k] ; *t = GG_FP32 ; return true ; }
        if (op == f64 [k]) { *vop = v [k] ; *t = GG_FP64 ; return true ; }
    }
    return false ;
}

bool vec_monoid_add (GrB_Monoid m, gg_add *add, gg_type *t)
{
    const GrB_Monoid f32 [4] = { GrB_PLUS_MONOID_FP32, GrB_TIMES_MONOID_FP32,
        GrB_MIN_MONOID_FP32, GrB_MAX_MONOID_FP32 } ;
    const GrB_Monoid f64 [4] = { GrB_PLUS_MONOID_FP64, GrB_TIMES_MONOID_FP64,
        GrB_MIN_MONOID_FP64, GrB_MAX_MONOID_FP64 } ;
    const gg_add a [4] = { GG_ADD_PLUS, GG_ADD_TIMES, GG_ADD_MIN, GG_ADD_MAX } ;
    if (m == NULL) return false ;
    for (int k = 0 ; k < 4 ; k++)
    {
        if (m == f32 [k]) { *add = a [k] ; *t = GG_FP32 ; return true ; }
        if (m == f64 [k]) { *add = a [k] ; *t = GG_FP64 ; return true ; }
    }
    return false ;
}

//------------------------------------------------------------------------------
// the backend, declines
//------------------------------------------------------------------------------

void vec_decline (const char *reason)
{
    grbgpu_count (GG_STAT_DECLINED, 1) ;
    grbgpu_count_decline (reason) ;
    grbgpu_set_last_decision ("declined", reason) ;
    if (grbgpu_settings.verbose >= 1) grbgpu_log (1, "declined: %s", reason) ;
}

// The backend for a dense operation, or NULL (declined, or residency off,
// or a call grbgpu's own path makes, e.g. a product's write-back applying
// its accumulator: then silently, so that programs without residency count
// nothing new and one product counts as one intercepted call).
const gg_backend *vec_backend (void)
{
    const gg_settings *s = grbgpu_settings_get () ;
    if (s->disable || !s->resident || grbgpu_resident_is_quiet ()) return NULL ;
    grbgpu_count (GG_STAT_INTERCEPTED, 1) ;
    if (s->device == GG_DEVICE_CPU) { vec_decline ("GRBGPU_DEVICE=cpu") ; return NULL ; }
    const gg_backend *be = (s->device == GG_DEVICE_HOST) ? &grbgpu_host_backend
        : grbgpu_cuda_backend () ;
    if (be == NULL) { vec_decline ("no usable CUDA device") ; return NULL ; }
    if (!grbgpu_resident_enabled (be) || be->vec_op == NULL || be->vec_reduce == NULL
        || be->res_upload == NULL)
    {
        vec_decline ("dense op: the backend has no vector operations") ;
        return NULL ;
    }
    return be ;
}

GrB_Type vec_type (GrB_Matrix A)
{
    GrB_Type t ;
    return (A != NULL && GxB_Matrix_type (&t, A) == GrB_SUCCESS) ? t : NULL ;
}

bool vec_vsize (GrB_Vector v, GrB_Index *n)
{
    return v != NULL && GrB_Vector_size (n, v) == GrB_SUCCESS ;
}

bool vec_shape_of (GrB_Matrix A, bool is_vector, vec_shape *s)
{
    GrB_Index nrows = 0, ncols = 1 ;
    GxB_Format_Value format = GxB_BY_ROW ;
    bool ok = is_vector ? vec_vsize ((GrB_Vector) A, &nrows)
        : (A != NULL && GrB_Matrix_nrows (&nrows, A) == GrB_SUCCESS
           && GrB_Matrix_ncols (&ncols, A) == GrB_SUCCESS
           && GxB_Matrix_Option_get (A, GxB_FORMAT, &format) == GrB_SUCCESS) ;
    // (nrows*ncols values must be countable: a full object this large
    // cannot exist, so a call on one is the CPU library's to answer)
    if (!ok || (ncols > 0 && nrows > (GrB_Index) INT64_MAX / ncols)) return false ;
    *s = (vec_shape) { .is_vector = is_vector, .nrows = (int64_t) nrows,
        .ncols = (int64_t) ncols, .by_col = (format == GxB_BY_COL) } ;
    return true ;
}

bool vec_may_be_full (GrB_Matrix A)
{
    int control = 0 ;
    return GxB_Matrix_Option_get (A, GxB_SPARSITY_CONTROL, &control) == GrB_SUCCESS
        && (control & GxB_FULL) != 0 ;
}

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

static void put_scalar (gg_vscalar *s, gg_type t, const void *x)
{
    if (t == GG_FP32) memcpy (&s->f, x, 4) ; else memcpy (&s->d, x, 8) ;
}

bool grbgpu_vec_adopt (const gg_backend *be, GrB_Matrix C, gg_type t, bool is_vector)
{
    gg_view v ;
    if (!vec_may_be_full (C) || grbgpu_view (&v, C) != GrB_SUCCESS) return false ;
    const int64_t n = v.vlen * v.vdim ;
    if (v.src != (t == GG_FP32 ? GG_SRC_FP32 : GG_SRC_FP64) || v.nvals != n || n == 0
        || (v.storage != GG_STORE_FULL && v.storage != GG_STORE_BITMAP)) return false ;
    const size_t zsz = gg_type_size (t), bytes = (size_t) n * zsz ;
    void *buf = grbgpu_resident_alloc (be, bytes) ;
    if (buf == NULL) return false ;
    int rc ;
    if (v.iso)
    {
        gg_vec_args a = { .op = GG_VOP_FIRST, .type = t, .n = n, .z = buf } ;
        put_scalar (&a.xs, t, v.x) ;
        rc = be->vec_op (&a) ;
    }
    else
    {
        rc = grbgpu_fault (GG_FAULT_COPY) ? GG_ERR_FAULT : be->res_upload (buf, v.x, bytes) ;
    }
    if (rc != GG_OK) { grbgpu_resident_release (be, buf, bytes) ; return false ; }
    // x holds the values in storage order (a vector's: its n values)
    gg_resident r = { .be = be, .buf = buf, .bytes = bytes, .zt = t, .is_vector = is_vector,
        .nrows = is_vector ? n : gg_view_nrows (&v, false),
        .ncols = is_vector ? 1 : gg_view_ncols (&v, false),
        .by_col = !is_vector && v.by_col } ;
    if (grbgpu_resident_keep (C, &r) != GrB_SUCCESS) return false ;
    // the value is the same, its storage is not (a form read in place)
    grbgpu_objver_bump (C) ;
    if (grbgpu_settings.verbose >= 2)
    {
        grbgpu_log (2, "resident: %p sent up (%zu bytes) and kept", (void *) C, bytes) ;
    }
    return true ;
}

// Find u: resident on be (pinned), an iso full object (its scalar), or a full
// object on the host (uploaded and kept, then pinned), in the shape s (its
// dimensions, and for a matrix its orientation).  A resident u on a pattern
// is taken only when pattern_ok.  Returns NULL or the reason to vec_decline.
const char *vec_get_input (const gg_backend *be, GrB_Matrix u, gg_type t,
    const vec_shape *s, bool pattern_ok, vec_in *in)
{
    in->obj = u ; in->pinned = false ;
    GrB_Index nvals ;
    vec_shape us ;
    const int64_t n = s->nrows * s->ncols ;
    if (vec_type (u) != grbgpu_grb_type (t)) return "dense op: operand of another type" ;
    if (!vec_shape_of (u, s->is_vector, &us) || us.nrows != s->nrows || us.ncols != s->ncols)
    {
        return "dense op: operand of another size" ;
    }
    if (us.by_col != s->by_col) return "dense op: operand held in another orientation (by row / by column)" ;
    for (int attempt = 0 ; attempt < 2 ; attempt++)
    {
        if (grbgpu_resident_pin (u, &in->r))
        {
            const bool ok = in->r.be == be && in->r.zt == t && in->r.is_vector == s->is_vector
                && in->r.nrows == s->nrows && in->r.ncols == s->ncols
                && (s->is_vector || in->r.by_col == s->by_col) && !in->r.on_csr && !in->r.on_rows ;
            if (ok && (pattern_ok || in->r.pattern == NULL))
            {
                in->pinned = true ;
                return NULL ;
            }
            grbgpu_resident_unpin (u, in->r.buf) ;
            return ok ? "dense op: operand resident on a pattern (not full)"
                : "dense op: operand resident elsewhere" ;
        }
        if (attempt > 0) break ;
        if (GrB_Matrix_nvals (&nvals, u) != GrB_SUCCESS || nvals != (GrB_Index) n)
        {
            return "dense op: operand not full" ;
        }
        gg_view v ;
        if (grbgpu_view (&v, u) != GrB_SUCCESS) return "dense op: operand cannot be viewed" ;
        if (v.iso)
        {
            put_scalar (&in->s, t, v.x) ;
            in->obj = NULL ;
            return NULL ;
        }
        if (!grbgpu_vec_adopt (be, u, t, s->is_vector)) return "dense op: operand could not be sent up" ;
    }
    return "dense op: operand left the device" ;
}

void vec_put_input (vec_in *in)
{
    if (in->pinned) grbgpu_resident_unpin (in->obj, in->r.buf) ;
    in->pinned = false ;
}

//------------------------------------------------------------------------------
// the one path: C = op (x, y) (x, y: objects or scalars)
//------------------------------------------------------------------------------

// x (or y) NULL: the scalar xs (ys).  Returns true when it answered.
static bool vec_run (const gg_backend *be, bool is_vector, GrB_Matrix C, gg_vop op,
    gg_type t, GrB_Matrix x, const gg_vscalar *xs, GrB_Matrix y, const gg_vscalar *ys,
    GrB_Info *info)
{
    const char *why = NULL ;
    vec_shape cs ;
    vec_in a = { 0 }, b = { 0 } ;
    void *buf = NULL ;
    size_t bytes = 0 ;
    if (vec_type (C) != grbgpu_grb_type (t)) { vec_decline ("dense op: output of another type") ; return false ; }
    if (!vec_shape_of (C, is_vector, &cs) || cs.nrows * cs.ncols == 0)
    {
        vec_decline ("dense op: empty output") ;
        return false ;
    }
    const int64_t n = cs.nrows * cs.ncols ;
    if (!vec_may_be_full (C)) { vec_decline ("dense op: output's sparsity control excludes full") ; return false ; }
    if (grbgpu_settings.device == GG_DEVICE_AUTO && n < GG_VEC_MIN_AUTO
        && !grbgpu_resident_has (C) && !grbgpu_resident_has (x) && !grbgpu_resident_has (y))
    {
        vec_decline ("dense op: too small, nothing resident") ;
        return false ;
    }
    if (x != NULL) why = vec_get_input (be, x, t, &cs, false, &a) ; else a.s = *xs ;
    if (why == NULL && y != NULL) why = vec_get_input (be, y, t, &cs, false, &b) ; else if (y == NULL) b.s = *ys ;
    if (why == NULL)
    {
        bytes = (size_t) n * gg_type_size (t) ;
        buf = grbgpu_resident_alloc (be, bytes) ;
        if (buf == NULL) why = "dense op: no device memory for the result" ;
    }
    // The CPU library computes MIN / MAX as op (y, x) when y is a scalar (a
    // bound second scalar or an iso operand) and when the output is x itself
    // (C = C op B): which of two equal operands (-0, +0) or of two NaNs is
    // the answer follows its order
    if ((op == GG_VOP_MIN || op == GG_VOP_MAX) && (b.obj == NULL || (a.obj != NULL && a.obj == C)))
    {
        vec_in swap = a ; a = b ; b = swap ;
    }
    int rc = GG_OK ;
    if (why == NULL)
    {
        gg_vec_args args = { .op = op, .type = t, .n = n, .z = buf,
            .x = a.obj ? a.r.buf : NULL, .y = b.obj ? b.r.buf : NULL,
            .xs = a.s, .ys = b.s, .present = NULL } ;
        rc = grbgpu_fault (GG_FAULT_LAUNCH) ? GG_ERR_FAULT : be->vec_op (&args) ;
    }
    vec_put_input (&a) ;
    vec_put_input (&b) ;
    if (why != NULL) { vec_decline (why) ; return false ; }
    if (rc != GG_OK)
    {
        grbgpu_resident_release (be, buf, bytes) ;
        grbgpu_count (GG_STAT_FALLBACKS, 1) ;
        grbgpu_set_last_decision ("fallback", "dense op failed") ;
        grbgpu_log (1, "fallback to the CPU library after a dense op failed (%d) on %s", rc, be->name) ;
        return false ;
    }
    gg_resident r = { .be = be, .buf = buf, .bytes = bytes, .zt = t, .nrows = cs.nrows,
        .ncols = cs.ncols, .by_col = !is_vector && cs.by_col, .is_vector = is_vector } ;
    if (grbgpu_resident_keep (C, &r) != GrB_SUCCESS)
    {
        // C unchanged, buf freed
        grbgpu_count (GG_STAT_FALLBACKS, 1) ;
        return false ;
    }
    grbgpu_count (be == &grbgpu_host_backend ? GG_STAT_OFFLOADED_HOST : GG_STAT_OFFLOADED_CUDA, 1) ;
    grbgpu_set_last_decision (be->name, NULL) ;
    *info = GrB_SUCCESS ;
    return true ;
}

// the common checks of the entry points; NULL: go on
static const char *plain_call (const void *mask, const void *accum, const void *desc)
{
    if (mask != NULL) return "dense op: mask" ;
    if (accum != NULL) return "dense op: accumulator" ;
    if (desc != NULL) return "dense op: descriptor" ;
    return NULL ;
}

#define ENTER \
    const gg_backend *be = vec_backend () ; \
    if (be == NULL) return false ; \
    grbgpu_resident_quiet (1) ; \
    bool done = false ;
#define LEAVE \
    grbgpu_resident_quiet (-1) ; \
    return done ;
#define DECLINE(why) do { vec_decline (why) ; goto leave ; } while (0)

//------------------------------------------------------------------------------
// the entry points
//------------------------------------------------------------------------------

bool grbgpu_vec_assign (GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
    gg_type xt, double x, const GrB_Index *I, GrB_Index ni, const GrB_Descriptor desc,
    GrB_Info *info)
{
    ENTER
    GrB_Index n ;
    const char *why = plain_call (mask, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (I != GrB_ALL || !vec_vsize (w, &n) || ni != n) DECLINE ("vector assign: not all of w") ;
    gg_vscalar s ;
    if (xt == GG_FP32) s.f = (float) x ; else s.d = x ;
    done = vec_run (be, true, (GrB_Matrix) w, GG_VOP_FIRST, xt, NULL, &s, NULL, &s, info) ;
leave:
    LEAVE
}

static bool ewise_on (const gg_backend *be, bool is_vector, GrB_Matrix C,
    const GrB_Matrix mask, const GrB_BinaryOp accum, const GrB_BinaryOp op,
    const GrB_Matrix A, const GrB_Matrix B, const GrB_Descriptor desc, GrB_Info *info)
{
    grbgpu_resident_quiet (1) ;
    bool done = false ;
    gg_vop vop ;
    gg_type t ;
    const char *why = plain_call (mask, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (!grbgpu_vec_binop (op, &vop, &t)) DECLINE ("dense op: operator not built in") ;
    if (A == NULL || B == NULL) DECLINE ("dense op: no operand") ;
    done = vec_run (be, is_vector, C, vop, t, A, NULL, B, NULL, info) ;
leave:
    LEAVE
}

bool grbgpu_dense_ewise (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Matrix A,
    const GrB_Matrix B, const GrB_Descriptor desc, GrB_Info *info)
{
    const gg_backend *be = vec_backend () ;
    return be != NULL && ewise_on (be, is_vector, C, mask, accum, op, A, B, desc, info) ;
}

bool grbgpu_dense_apply (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_UnaryOp op, const GrB_Matrix A,
    const GrB_Descriptor desc, GrB_Info *info)
{
    ENTER
    gg_vop vop ;
    gg_type t ;
    gg_vscalar zero = { .d = 0 } ;
    const char *why = plain_call (mask, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    const bool is_exp = (op != NULL && (op == GxB_EXP_FP32 || op == GxB_EXP_FP64)) ;
    if (is_exp) { vop = GG_VOP_IDENTITY ; t = (op == GxB_EXP_FP32) ? GG_FP32 : GG_FP64 ; }
    else if (!unop (op, &vop, &t)) DECLINE ("dense op: operator not built in") ;
    if (A == NULL) DECLINE ("dense op: no operand") ;
    if (!is_vector)
    {
        // a matrix resident on a pattern (mat_pattern.c)
        bool applies ;
        done = grbgpu_pattern_apply (be, C, vop, is_exp, t, A, NULL, false, info, &applies) ;
        if (applies) goto leave ;
    }
    if (is_exp) DECLINE ("dense op: operator not built in") ;
    done = vec_run (be, is_vector, C, vop, t, A, NULL, NULL, &zero, info) ;
leave:
    LEAVE
}

bool grbgpu_dense_apply_bind (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Matrix A, gg_type st,
    double s, bool first, const GrB_Descriptor desc, GrB_Info *info)
{
    ENTER
    gg_vop vop ;
    gg_type t ;
    gg_vscalar sc ;
    const char *why = plain_call (mask, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (!grbgpu_vec_binop (op, &vop, &t)) DECLINE ("dense op: operator not built in") ;
    if (t != st) DECLINE ("dense op: scalar of another type") ;
    if (A == NULL) DECLINE ("dense op: no operand") ;
    if (t == GG_FP32) sc.f = (float) s ; else sc.d = s ;
    if (!is_vector)
    {
        bool applies ;
        done = grbgpu_pattern_apply (be, C, vop, false, t, A, &sc, first, info, &applies) ;
        if (applies) goto leave ;
    }
    done = first ? vec_run (be, is_vector, C, vop, t, NULL, &sc, A, NULL, info)
                 : vec_run (be, is_vector, C, vop, t, A, NULL, NULL, &sc, info) ;
leave:
    LEAVE
}

// The CPU library reduces a bitmap vector (not iso) from the monoid's
// identity (+0 for PLUS, +Inf / -Inf for MIN / MAX), the device (like the CPU
// library on a sparse or full vector) from -0 / NaN: the two differ only
// where the device's answer is -0 (PLUS: every entry -0) or NaN (MIN / MAX:
// every entry NaN), and there the CPU library answers its identity.
static int bitmap_fold (gg_add add, gg_type t, GrB_Monoid monoid, void *result)
{
    float f ;
    double d ;
    if (t == GG_FP32) { memcpy (&f, result, 4) ; d = f ; } else memcpy (&d, result, 8) ;
    const bool fix = (add == GG_ADD_PLUS && d == 0 && signbit (d))
        || ((add == GG_ADD_MIN || add == GG_ADD_MAX) && isnan (d)) ;
    if (!fix) return GG_OK ;
    return (GxB_Monoid_identity (result, monoid) == GrB_SUCCESS) ? GG_OK : GG_ERR_UNSUPPORTED ;
}

bool grbgpu_vec_reduce (void *c, gg_type ct, const GrB_BinaryOp accum,
    const GrB_Monoid monoid, const GrB_Vector u, const GrB_Descriptor desc, GrB_Info *info)
{
    ENTER
    gg_add add ;
    gg_type t ;
    vec_in a = { 0 } ;
    vec_shape shape ;
    const char *why = plain_call (NULL, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (c == NULL || u == NULL) DECLINE ("vector reduce: no operand") ;
    if (!vec_monoid_add (monoid, &add, &t)) DECLINE ("vector reduce: monoid not built in") ;
    if (t != ct || vec_type ((GrB_Matrix) u) != grbgpu_grb_type (t)) DECLINE ("vector reduce: another type") ;
    // only a resident u gains: nothing is sent up for a reduction
    if (!grbgpu_resident_has (u)) DECLINE ("vector reduce: operand not resident") ;
    if (!vec_shape_of ((GrB_Matrix) u, true, &shape) || shape.nrows == 0) DECLINE ("vector reduce: empty") ;
    why = vec_get_input (be, (GrB_Matrix) u, t, &shape, true, &a) ;
    if (why != NULL) DECLINE (why) ;
    double result ;
    int rc = GG_OK ;
    if (a.r.pattern != NULL && a.r.nvals == 0)
    {
        // no entries: the monoid's identity, as the CPU library answers
        rc = (GxB_Monoid_identity (&result, monoid) == GrB_SUCCESS) ? GG_OK : GG_ERR_UNSUPPORTED ;
    }
    else
    {
        // on a pattern: over its entries only (backend/resident/resident.h)
        rc = be->vec_reduce (add, t, a.r.buf, shape.nrows, a.r.pattern, &result) ;
        int status = 0 ;
        if (rc == GG_OK && a.r.pattern != NULL)
        {
            rc = (GxB_Vector_Option_get (u, GxB_SPARSITY_STATUS, &status) == GrB_SUCCESS)
                ? GG_OK : GG_ERR_UNSUPPORTED ;
            if (rc == GG_OK && status == GxB_BITMAP) rc = bitmap_fold (add, t, monoid, &result) ;
        }
    }
    vec_put_input (&a) ;
    if (rc != GG_OK)
    {
        grbgpu_count (GG_STAT_FALLBACKS, 1) ;
        grbgpu_log (1, "fallback to the CPU library after a reduction failed (%d) on %s", rc, be->name) ;
        goto leave ;
    }
    memcpy (c, &result, gg_type_size (t)) ;
    grbgpu_count (be == &grbgpu_host_backend ? GG_STAT_OFFLOADED_HOST : GG_STAT_OFFLOADED_CUDA, 1) ;
    grbgpu_set_last_decision (be->name, NULL) ;
    *info = GrB_SUCCESS ;
    done = true ;
leave:
    LEAVE
}

// a new object as the CPU library's dup makes it from A: A's type, size,
// orientation, sparsity control and hyper switch (the bitmap switch is the
// default for its size, as the CPU library's dup leaves it)
static GrB_Info new_like (GrB_Matrix A, bool is_vector, GrB_Type type, const vec_shape *s,
    GrB_Matrix *C)
{
    int control = 0 ;
    double hyper = 0 ;
    GrB_Info info = GxB_Matrix_Option_get (A, GxB_SPARSITY_CONTROL, &control) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_get (A, GxB_HYPER_SWITCH, &hyper) ;
    if (info != GrB_SUCCESS) return info ;
    if (is_vector)
    {
        GrB_Vector v = NULL ;
        info = GrB_Vector_new (&v, type, (GrB_Index) s->nrows) ;
        *C = (GrB_Matrix) v ;
    }
    else
    {
        info = GrB_Matrix_new (C, type, (GrB_Index) s->nrows, (GrB_Index) s->ncols) ;
        if (info == GrB_SUCCESS) info = GxB_Matrix_Option_set (*C, GxB_FORMAT,
            s->by_col ? GxB_BY_COL : GxB_BY_ROW) ;
    }
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_set (*C, GxB_SPARSITY_CONTROL, control) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_set (*C, GxB_HYPER_SWITCH, hyper) ;
    return info ;
}

bool grbgpu_dense_dup (bool is_vector, void *handle, const GrB_Matrix A, GrB_Info *info)
{
    ENTER
    GrB_Type type = vec_type (A) ;
    vec_shape s ;
    gg_type t = (type == GrB_FP32) ? GG_FP32 : GG_FP64 ;
    GrB_Matrix C = NULL ;
    gg_vscalar zero = { .d = 0 } ;
    if (handle == NULL || A == NULL) DECLINE ("dup: no operand") ;
    // only a resident A gains (a host one is copied as well on the host)
    if (!grbgpu_resident_has (A)) DECLINE ("dup: operand not resident") ;
    if (type != GrB_FP32 && type != GrB_FP64) DECLINE ("dup: type not FP32 / FP64") ;
    if (!vec_shape_of (A, is_vector, &s)) DECLINE ("dup: operand cannot be read") ;
    if (new_like (A, is_vector, type, &s, &C) == GrB_SUCCESS)
    {
        // a matrix on a pattern (mat_pattern.c), else full
        bool applies = false ;
        if (!is_vector) done = grbgpu_pattern_apply (be, C, GG_VOP_IDENTITY, false, t, A,
            NULL, false, info, &applies) ;
        if (!applies) done = vec_run (be, is_vector, C, GG_VOP_IDENTITY, t, A, NULL, NULL, &zero, info) ;
    }
    else
    {
        vec_decline ("dup: the new object could not be made") ;
    }
    if (done) memcpy (handle, &C, sizeof (C)) ; else GrB_Matrix_free (&C) ;
leave:
    LEAVE
}

bool grbgpu_dense_ewise_mult (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Matrix A,
    const GrB_Matrix B, const GrB_Descriptor desc, GrB_Info *info)
{
    gg_vop vop ;
    gg_type t ;
    const gg_backend *be = vec_backend ( ) ;
    if (be == NULL) return false ;
    if (is_vector && mask == NULL && accum == NULL && desc == NULL && A != NULL && B != NULL
        && grbgpu_vec_binop (op, &vop, &t) && (vop == GG_VOP_FIRST || vop == GG_VOP_SECOND))
    {
        grbgpu_resident_quiet (1) ;
        bool applies ;
        bool done = vec_pattern_path (be, (GrB_Vector) C, op, vop, t, (GrB_Vector) A,
            (GrB_Vector) B, info, &applies) ;
        grbgpu_resident_quiet (-1) ;
        if (applies) return done ;
    }
    return ewise_on (be, is_vector, C, mask, accum, op, A, B, desc, info) ;
}
