//------------------------------------------------------------------------------
// backend/dispatch/vec_dispatch.c: dense vector operations on the device
//------------------------------------------------------------------------------

// See vec_dispatch.h.  One path serves every operation: the operands are
// found (a resident buffer, pinned; an iso full vector: its scalar; a full
// vector on the host: uploaded and kept resident, so that a vector read by
// every iteration goes up once), the output gets a fresh buffer, the
// backend's vec_op runs, and the buffer replaces the output's content
// (grbgpu_resident_keep).  Until the keep nothing of the output has changed,
// so any failure is answered by the CPU library.  Reductions download one
// value.  The whole path runs with materialisation off (its own GraphBLAS
// calls read only structure and options).

#include "config.h"
#include "backend/dispatch/vec_private.h"
#include "backend/resident/resident.h"
#include "backend/storage/storage.h"
#include "backend/interpose/galloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// below this length a vector operation with nothing resident stays on the
// CPU library under GRBGPU_DEVICE=auto
#define GG_VEC_MIN_AUTO 65536

//------------------------------------------------------------------------------
// operators
//------------------------------------------------------------------------------

bool grbgpu_vec_binop (GrB_BinaryOp op, gg_vop *vop, gg_type *t)
{
    const GrB_BinaryOp f32 [6] = { GrB_FIRST_FP32, GrB_SECOND_FP32, GrB_PLUS_FP32,
        GrB_MINUS_FP32, GrB_TIMES_FP32, GrB_DIV_FP32 } ;
    const GrB_BinaryOp f64 [6] = { GrB_FIRST_FP64, GrB_SECOND_FP64, GrB_PLUS_FP64,
        GrB_MINUS_FP64, GrB_TIMES_FP64, GrB_DIV_FP64 } ;
    const gg_vop v [6] = { GG_VOP_FIRST, GG_VOP_SECOND, GG_VOP_PLUS, GG_VOP_MINUS,
        GG_VOP_TIMES, GG_VOP_DIV } ;
    if (op == NULL) return false ;
    for (int k = 0 ; k < 6 ; k++)
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

static bool monoid_add (GrB_Monoid m, gg_add *add, gg_type *t)
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

// The backend for a vector operation, or NULL (declined, or residency off,
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
        vec_decline ("vector op: the backend has no vector operations") ;
        return NULL ;
    }
    return be ;
}

GrB_Type vec_vtype (GrB_Vector v)
{
    GrB_Type t ;
    return (v != NULL && GxB_Vector_type (&t, v) == GrB_SUCCESS) ? t : NULL ;
}

bool vec_vsize (GrB_Vector v, GrB_Index *n)
{
    return v != NULL && GrB_Vector_size (n, v) == GrB_SUCCESS ;
}

// may v be held full (its sparsity control allows it)?
bool vec_may_be_full (GrB_Vector v)
{
    int control = 0 ;
    return GxB_Vector_Option_get (v, GxB_SPARSITY_CONTROL, &control) == GrB_SUCCESS
        && (control & GxB_FULL) != 0 ;
}

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

static void put_scalar (gg_vscalar *s, gg_type t, const void *x)
{
    if (t == GG_FP32) memcpy (&s->f, x, 4) ; else memcpy (&s->d, x, 8) ;
}

bool grbgpu_vec_adopt (const gg_backend *be, GrB_Matrix C, gg_type t)
{
    gg_view v ;
    if (!vec_may_be_full ((GrB_Vector) C) || grbgpu_view (&v, C) != GrB_SUCCESS) return false ;
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
    gg_resident r = { .be = be, .buf = buf, .bytes = bytes, .zt = t, .nrows = n, .ncols = 1,
        .is_vector = true } ;
    if (grbgpu_resident_keep (C, &r) != GrB_SUCCESS) return false ;
    // the value is the same, its storage is not (a form read in place)
    grbgpu_objver_bump (C) ;
    if (grbgpu_settings.verbose >= 2)
    {
        grbgpu_log (2, "resident: %p sent up (%zu bytes) and kept", (void *) C, bytes) ;
    }
    return true ;
}

// Find u: resident on be (pinned), an iso full vector (its scalar), or a full
// vector on the host (uploaded and kept, then pinned).  A resident u on a
// pattern is taken only when pattern_ok.  Returns NULL or the reason to
// vec_decline.
const char *vec_get_input (const gg_backend *be, GrB_Vector u, gg_type t,
    GrB_Index n, bool pattern_ok, vec_in *in)
{
    in->obj = u ; in->pinned = false ;
    GrB_Index un, nvals ;
    if (vec_vtype (u) != grbgpu_grb_type (t)) return "vector op: operand of another type" ;
    if (!vec_vsize (u, &un) || un != n) return "vector op: operand of another size" ;
    for (int attempt = 0 ; attempt < 2 ; attempt++)
    {
        if (grbgpu_resident_pin (u, &in->r))
        {
            const bool ok = in->r.be == be && in->r.zt == t && in->r.is_vector
                && in->r.nrows == (int64_t) n ;
            if (ok && (pattern_ok || in->r.pattern == NULL))
            {
                in->pinned = true ;
                return NULL ;
            }
            grbgpu_resident_unpin (u, in->r.buf) ;
            return ok ? "vector op: operand resident on a pattern (not full)"
                : "vector op: operand resident elsewhere" ;
        }
        if (attempt > 0) break ;
        if (GrB_Vector_nvals (&nvals, u) != GrB_SUCCESS || nvals != n)
        {
            return "vector op: operand not full" ;
        }
        gg_view v ;
        if (grbgpu_view (&v, (GrB_Matrix) u) != GrB_SUCCESS) return "vector op: operand cannot be viewed" ;
        if (v.iso)
        {
            put_scalar (&in->s, t, v.x) ;
            in->obj = NULL ;
            return NULL ;
        }
        if (!grbgpu_vec_adopt (be, (GrB_Matrix) u, t)) return "vector op: operand could not be sent up" ;
    }
    return "vector op: operand left the device" ;
}

void vec_put_input (vec_in *in)
{
    if (in->pinned) grbgpu_resident_unpin (in->obj, in->r.buf) ;
    in->pinned = false ;
}

//------------------------------------------------------------------------------
// the one path: w = op (u, v) (u, v: vectors or scalars)
//------------------------------------------------------------------------------

// u or v NULL: the scalar us / vs.  Returns true when it answered.
static bool vec_run (const gg_backend *be, GrB_Vector w, gg_vop op, gg_type t,
    GrB_Vector u, const gg_vscalar *us, GrB_Vector v, const gg_vscalar *vs, GrB_Info *info)
{
    const char *why = NULL ;
    GrB_Index n = 0 ;
    vec_in a = { 0 }, b = { 0 } ;
    void *buf = NULL ;
    size_t bytes = 0 ;
    if (vec_vtype (w) != grbgpu_grb_type (t)) { vec_decline ("vector op: output of another type") ; return false ; }
    if (!vec_vsize (w, &n) || n == 0) { vec_decline ("vector op: empty output") ; return false ; }
    if (!vec_may_be_full (w)) { vec_decline ("vector op: output's sparsity control excludes full") ; return false ; }
    if (grbgpu_settings.device == GG_DEVICE_AUTO && n < GG_VEC_MIN_AUTO
        && !grbgpu_resident_has (w) && !grbgpu_resident_has (u) && !grbgpu_resident_has (v))
    {
        vec_decline ("vector op: too small, nothing resident") ;
        return false ;
    }
    if (u != NULL) why = vec_get_input (be, u, t, n, false, &a) ; else a.s = *us ;
    if (why == NULL && v != NULL) why = vec_get_input (be, v, t, n, false, &b) ; else if (v == NULL) b.s = *vs ;
    if (why == NULL)
    {
        bytes = (size_t) n * gg_type_size (t) ;
        buf = grbgpu_resident_alloc (be, bytes) ;
        if (buf == NULL) why = "vector op: no device memory for the result" ;
    }
    int rc = GG_OK ;
    if (why == NULL)
    {
        gg_vec_args args = { .op = op, .type = t, .n = (int64_t) n, .z = buf,
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
        grbgpu_set_last_decision ("fallback", "vector op failed") ;
        grbgpu_log (1, "fallback to the CPU library after a vector op failed (%d) on %s", rc, be->name) ;
        return false ;
    }
    gg_resident r = { .be = be, .buf = buf, .bytes = bytes, .zt = t, .nrows = (int64_t) n,
        .ncols = 1, .is_vector = true } ;
    if (grbgpu_resident_keep ((GrB_Matrix) w, &r) != GrB_SUCCESS)
    {
        // w unchanged, buf freed
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
    if (mask != NULL) return "vector op: mask" ;
    if (accum != NULL) return "vector op: accumulator" ;
    if (desc != NULL) return "vector op: descriptor" ;
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
    done = vec_run (be, w, GG_VOP_FIRST, xt, NULL, &s, NULL, &s, info) ;
leave:
    LEAVE
}

static bool ewise_on (const gg_backend *be, GrB_Vector w, const GrB_Vector mask,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Vector u,
    const GrB_Vector v, const GrB_Descriptor desc, GrB_Info *info)
{
    grbgpu_resident_quiet (1) ;
    bool done = false ;
    gg_vop vop ;
    gg_type t ;
    const char *why = plain_call (mask, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (!grbgpu_vec_binop (op, &vop, &t)) DECLINE ("vector op: operator not built in") ;
    if (u == NULL || v == NULL) DECLINE ("vector op: no operand") ;
    done = vec_run (be, w, vop, t, u, NULL, v, NULL, info) ;
leave:
    LEAVE
}

bool grbgpu_vec_ewise (GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
    const GrB_BinaryOp op, const GrB_Vector u, const GrB_Vector v,
    const GrB_Descriptor desc, GrB_Info *info)
{
    const gg_backend *be = vec_backend () ;
    return be != NULL && ewise_on (be, w, mask, accum, op, u, v, desc, info) ;
}

bool grbgpu_vec_apply (GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
    const GrB_UnaryOp op, const GrB_Vector u, const GrB_Descriptor desc, GrB_Info *info)
{
    ENTER
    gg_vop vop ;
    gg_type t ;
    gg_vscalar zero = { .d = 0 } ;
    const char *why = plain_call (mask, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (!unop (op, &vop, &t)) DECLINE ("vector op: operator not built in") ;
    if (u == NULL) DECLINE ("vector op: no operand") ;
    done = vec_run (be, w, vop, t, u, NULL, NULL, &zero, info) ;
leave:
    LEAVE
}

bool grbgpu_vec_apply_bind (GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
    const GrB_BinaryOp op, const GrB_Vector u, gg_type st, double s, bool first,
    const GrB_Descriptor desc, GrB_Info *info)
{
    ENTER
    gg_vop vop ;
    gg_type t ;
    gg_vscalar sc ;
    const char *why = plain_call (mask, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (!grbgpu_vec_binop (op, &vop, &t)) DECLINE ("vector op: operator not built in") ;
    if (t != st) DECLINE ("vector op: scalar of another type") ;
    if (u == NULL) DECLINE ("vector op: no operand") ;
    if (t == GG_FP32) sc.f = (float) s ; else sc.d = s ;
    done = first ? vec_run (be, w, vop, t, NULL, &sc, u, NULL, info)
                 : vec_run (be, w, vop, t, u, NULL, NULL, &sc, info) ;
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
    GrB_Index n ;
    const char *why = plain_call (NULL, accum, desc) ;
    if (why != NULL) DECLINE (why) ;
    if (c == NULL || u == NULL) DECLINE ("vector reduce: no operand") ;
    if (!monoid_add (monoid, &add, &t)) DECLINE ("vector reduce: monoid not built in") ;
    if (t != ct || vec_vtype (u) != grbgpu_grb_type (t)) DECLINE ("vector reduce: another type") ;
    // only a resident u gains: nothing is sent up for a reduction
    if (!grbgpu_resident_has (u)) DECLINE ("vector reduce: operand not resident") ;
    if (!vec_vsize (u, &n) || n == 0) DECLINE ("vector reduce: empty") ;
    why = vec_get_input (be, u, t, n, true, &a) ;
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
        rc = be->vec_reduce (add, t, a.r.buf, (int64_t) n, a.r.pattern, &result) ;
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

bool grbgpu_vec_dup (GrB_Vector *w, const GrB_Vector u, GrB_Info *info)
{
    ENTER
    GrB_Type type = vec_vtype (u) ;
    GrB_Index n ;
    gg_type t = (type == GrB_FP32) ? GG_FP32 : GG_FP64 ;
    GrB_Vector out = NULL ;
    int control = 0 ;
    if (w == NULL || u == NULL) DECLINE ("vector dup: no operand") ;
    // only a resident u gains (a host one is copied as well on the host)
    if (!grbgpu_resident_has (u)) DECLINE ("vector dup: operand not resident") ;
    if (type != GrB_FP32 && type != GrB_FP64) DECLINE ("vector dup: type not FP32 / FP64") ;
    if (!vec_vsize (u, &n) || GxB_Vector_Option_get (u, GxB_SPARSITY_CONTROL, &control) != GrB_SUCCESS)
    {
        DECLINE ("vector dup: operand cannot be read") ;
    }
    if (GrB_Vector_new (&out, type, n) != GrB_SUCCESS) DECLINE ("vector dup: out of memory") ;
    if (GxB_Vector_Option_set (out, GxB_SPARSITY_CONTROL, control) == GrB_SUCCESS)
    {
        gg_vscalar zero = { .d = 0 } ;
        done = vec_run (be, out, GG_VOP_IDENTITY, t, u, NULL, NULL, &zero, info) ;
    }
    if (done) *w = out ; else GrB_Vector_free (&out) ;
leave:
    LEAVE
}

bool grbgpu_vec_ewise_mult (GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
    const GrB_BinaryOp op, const GrB_Vector u, const GrB_Vector v,
    const GrB_Descriptor desc, GrB_Info *info)
{
    gg_vop vop ;
    gg_type t ;
    const gg_backend *be = vec_backend ( ) ;
    if (be == NULL) return false ;
    if (mask == NULL && accum == NULL && desc == NULL && u != NULL && v != NULL
        && grbgpu_vec_binop (op, &vop, &t) && (vop == GG_VOP_FIRST || vop == GG_VOP_SECOND))
    {
        grbgpu_resident_quiet (1) ;
        bool applies ;
        bool done = vec_pattern_path (be, w, op, vop, t, u, v, info, &applies) ;
        grbgpu_resident_quiet (-1) ;
        if (applies) return done ;
    }
    return ewise_on (be, w, mask, accum, op, u, v, desc, info) ;
}
