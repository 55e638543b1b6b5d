//------------------------------------------------------------------------------
// backend/dispatch/mat_pattern.c: operations on a matrix resident on a pattern
//------------------------------------------------------------------------------

// A matrix on a pattern (backend/resident/resident_csr.c) is made by an SDDMM
// whose result is all of C's new content (dispatch.c) and is then, on the
// device, what a row softmax and an aggregation do with it (graph
// attention): element-wise operations (grbgpu_pattern_apply: apply of a
// built-in unary operator, EXP among them, or a bound binary one), row
// reductions to a vector (grbgpu_pattern_reduce), the product by a diagonal
// matrix (grbgpu_pattern_mxm: C = D*S, one term per entry, so any monoid:
// C(i,j) = mul (D(i,i), S(i,j))) and SpMM with S in place (dispatch.c).  The
// structure never changes on these paths (a product by a diagonal that would
// drop rows is declined), so the object's host structure stays exact; a
// result that goes into another object gets a copy of that structure.  The
// values of the result are new device memory, put in place of the old only
// once they are complete, so a failure leaves every object as it was and the
// CPU library answers.  Exact as the dense path is: one IEEE operation per
// entry, EXP bit for bit the host's expf (kernels/vec_ops/vec_exp.h); the row
// reductions PLUS / TIMES are equal up to the order of the sum, MIN / MAX bit
// for bit (the entry the CPU library's in-order reduction keeps, vec_elem.h).

#include "config.h"
#include "backend/dispatch/vec_private.h"
#include "backend/dispatch/classify.h"
#include "backend/resident/resident.h"
#include "backend/storage/storage.h"
#include "backend/storage/storage_private.h"
#include "backend/interpose/galloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

// A pinned on be as a matrix on a pattern of type t (*r), or false (not pinned)
static bool pin_csr (const gg_backend *be, GrB_Matrix A, gg_type t, gg_resident *r)
{
    if (A == NULL || !grbgpu_resident_pin (A, r)) return false ;
    if (r->on_csr && r->be == be && r->zt == t) return true ;
    grbgpu_resident_unpin (A, r->buf) ;
    return false ;
}

// May C (m x n) take a result of type t on a pattern?  NULL, or why not.
static const char *output_ok (GrB_Matrix C, gg_type t, int64_t m, int64_t n)
{
    GrB_Index nrows = 0, ncols = 0 ;
    GxB_Format_Value fmt = GxB_BY_COL ;
    int control = 0 ;
    if (vec_type (C) != grbgpu_grb_type (t)) return "pattern op: output of another type" ;
    if (GrB_Matrix_nrows (&nrows, C) != GrB_SUCCESS || GrB_Matrix_ncols (&ncols, C) != GrB_SUCCESS
        || (int64_t) nrows != m || (int64_t) ncols != n) return "pattern op: output of another size" ;
    if (GxB_Matrix_Option_get (C, GxB_FORMAT, &fmt) != GrB_SUCCESS || fmt != GxB_BY_ROW)
        return "pattern op: output held by column" ;
    if (GxB_Matrix_Option_get (C, GxB_SPARSITY_CONTROL, &control) != GrB_SUCCESS
        || (control & (GxB_SPARSE | GxB_HYPERSPARSE)) == 0)
        return "pattern op: output's sparsity control excludes sparse" ;
    return NULL ;
}

// z (a buffer of a->bytes from grbgpu_resident_alloc, complete) becomes C's
// content: in place of A's values (C is A: the structure stays), or C gets
// A's structure.  z is taken either way.  Unpins A.
static bool finish (const gg_backend *be, GrB_Matrix C, GrB_Matrix A, gg_resident *a,
    void *z, GrB_Info *info)
{
    bool ok ;
    if (C == A)
    {
        ok = grbgpu_resident_rebuf (A, a->buf, z) ;
        if (!ok) grbgpu_resident_release (be, z, a->bytes) ;
        grbgpu_resident_unpin (A, a->buf) ;
    }
    else
    {
        // (A stays pinned until the keep has taken its own reference to
        // the pattern's cache entry)
        gg_resident r = *a ;
        r.buf = z ;
        ok = (grbgpu_resident_keep_csr (C, &r) == GrB_SUCCESS) ;
        grbgpu_resident_unpin (A, a->buf) ;
    }
    if (!ok)
    {
        grbgpu_count (GG_STAT_FALLBACKS, 1) ;
        grbgpu_log (1, "fallback to the CPU library: a result on a pattern could not be kept") ;
        return false ;
    }
    grbgpu_count (be == &grbgpu_host_backend ? GG_STAT_OFFLOADED_HOST : GG_STAT_OFFLOADED_CUDA, 1) ;
    grbgpu_set_last_decision (be->name, NULL) ;
    *info = GrB_SUCCESS ;
    return true ;
}

static bool failed (const gg_backend *be, GrB_Matrix A, gg_resident *a, void *z, int rc)
{
    grbgpu_resident_release (be, z, a->bytes) ;
    grbgpu_resident_unpin (A, a->buf) ;
    grbgpu_count (GG_STAT_FALLBACKS, 1) ;
    grbgpu_set_last_decision ("fallback", "pattern op failed") ;
    grbgpu_log (1, "fallback to the CPU library after a pattern op failed (%d) on %s", rc, be->name) ;
    return false ;
}

//------------------------------------------------------------------------------
// C = op (A), op (s, A), op (A, s)
//------------------------------------------------------------------------------

bool grbgpu_pattern_apply (const gg_backend *be, GrB_Matrix C, gg_vop vop, bool is_exp,
    gg_type t, GrB_Matrix A, const gg_vscalar *s, bool s_first, GrB_Info *info,
    bool *applies)
{
    gg_resident a ;
    *applies = pin_csr (be, A, t, &a) ;
    if (!*applies) return false ;
    const char *why = output_ok (C, t, a.nrows, a.ncols) ;
    if (why == NULL && is_exp && (be->vec_exp == NULL || t != GG_FP32))
        why = "pattern op: EXP of this type has no exact device kernel" ;
    void *z = NULL ;
    if (why == NULL)
    {
        z = grbgpu_resident_alloc (be, a.bytes) ;
        if (z == NULL) why = "pattern op: no device memory for the result" ;
    }
    if (why != NULL)
    {
        grbgpu_resident_unpin (A, a.buf) ;
        vec_decline (why) ;
        return false ;
    }
    int rc ;
    if (grbgpu_fault (GG_FAULT_LAUNCH)) rc = GG_ERR_FAULT ;
    else if (a.nvals == 0) rc = GG_OK ;
    else if (is_exp) rc = be->vec_exp (t, a.nvals, z, a.buf) ;
    else
    {
        gg_vec_args args = { .op = vop, .type = t, .n = a.nvals, .z = z, .x = a.buf } ;
        if (s != NULL)
        {
            // op (s, A) or op (A, s); MIN / MAX with the scalar second are
            // computed as op (s, A), the CPU library's order (vec_dispatch.c)
            const bool first = s_first || vop == GG_VOP_MIN || vop == GG_VOP_MAX ;
            if (first) { args.x = NULL ; args.xs = *s ; args.y = a.buf ; }
            else args.ys = *s ;
        }
        rc = be->vec_op (&args) ;
    }
    if (rc != GG_OK) return failed (be, A, &a, z, rc) ;
    return finish (be, C, A, &a, z, info) ;
}

//------------------------------------------------------------------------------
// w = reduce (A) by rows
//------------------------------------------------------------------------------

// w (size m) = the values out [i] (m of them, from GraphBLAS's memory
// functions; taken) at the rows i of P with an entry: packed as a bitmap
// when at least an eighth of the rows have one (out is its values array as
// it is), else sparse; then w's options are set back where the pack changed
// them, and GraphBLAS conforms w to them as it does the CPU library's result
static GrB_Info pack_rows (GrB_Vector w, const gg_csr *P, gg_type t, void *out)
{
    const size_t zsz = gg_type_size (t) ;
    const int64_t m = P->nrows ;
    int64_t nv = 0 ;
    for (int64_t i = 0 ; i < m ; i++) nv += (P->p32 [i+1] > P->p32 [i]) ;
    gg_c_options opt ;
    GrB_Info info = grbgpu_storage_options_get ((GrB_Matrix) w, true, false, &opt) ;
    if (info != GrB_SUCCESS) { grbgpu_gb_free (out) ; return info ; }
    const size_t out_size = (size_t) (m > 0 ? m : 1) * zsz ;
    if (nv * 8 >= m && m > 0)
    {
        int8_t *b = grbgpu_gb_malloc ((size_t) m) ;
        if (b == NULL) { grbgpu_gb_free (out) ; return GrB_OUT_OF_MEMORY ; }
        for (int64_t i = 0 ; i < m ; i++) b [i] = (P->p32 [i+1] > P->p32 [i]) ;
        void *x = out ;
        info = GxB_Vector_pack_Bitmap (w, &b, &x,
            (GrB_Index) m, (GrB_Index) out_size, false, (GrB_Index) nv, NULL) ;
        if (info != GrB_SUCCESS) { grbgpu_gb_free (b) ; grbgpu_gb_free (x) ; return info ; }
    }
    else
    {
        const size_t i_size = (size_t) (nv > 0 ? nv : 1) * sizeof (GrB_Index) ;
        GrB_Index *I = grbgpu_gb_malloc (i_size) ;
        if (I == NULL) { grbgpu_gb_free (out) ; return GrB_OUT_OF_MEMORY ; }
        // the values of the rows with entries, moved to the front in order
        char *X = out ;
        int64_t k = 0 ;
        for (int64_t i = 0 ; i < m ; i++)
        {
            if (P->p32 [i+1] == P->p32 [i]) continue ;
            I [k] = (GrB_Index) i ;
            if (k != i) memcpy (X + (size_t) k * zsz, X + (size_t) i * zsz, zsz) ;
            k++ ;
        }
        void *x = out ;
        info = GxB_Vector_pack_CSC (w, &I, &x,
            (GrB_Index) i_size, (GrB_Index) out_size, false, (GrB_Index) nv, false, NULL) ;
        if (info != GrB_SUCCESS) { grbgpu_gb_free (I) ; grbgpu_gb_free (x) ; return info ; }
    }
    // the pack may have reset w's options: those that differ are set back
    return grbgpu_storage_options_restore ((GrB_Matrix) w, true, false, &opt) ;
}

bool grbgpu_pattern_reduce (GrB_Vector w, const GrB_Vector mask, const GrB_BinaryOp accum,
    const GrB_Monoid monoid, const GrB_Matrix A, const GrB_Descriptor desc, GrB_Info *info)
{
    // only a resident A gains (and only then is the call counted here)
    if (!grbgpu_resident_has (A)) return false ;
    const gg_backend *be = vec_backend () ;
    if (be == NULL) return false ;
    grbgpu_resident_quiet (1) ;
    bool done = false ;
    gg_add add ;
    gg_type t ;
    gg_resident a ;
    GrB_Index n = 0 ;
    const char *why = NULL ;
    if (mask != NULL || accum != NULL || desc != NULL) why = "row reduce: mask, accumulator or descriptor" ;
    else if (!vec_monoid_add (monoid, &add, &t)) why = "row reduce: monoid not built in" ;
    else if (be->csr_row_reduce == NULL) why = "row reduce: no kernel on the backend" ;
    else if (!pin_csr (be, A, t, &a)) why = "row reduce: operand not resident on a pattern of the monoid's type" ;
    if (why != NULL) { vec_decline (why) ; goto leave ; }
    if (vec_type ((GrB_Matrix) w) != grbgpu_grb_type (t) || !vec_vsize (w, &n) || (int64_t) n != a.nrows
        || a.csr.p32 == NULL)
    {
        grbgpu_resident_unpin (A, a.buf) ;
        vec_decline ("row reduce: output of another type or size") ;
        goto leave ;
    }
    const double t0 = grbgpu_now () ;
    void *out = grbgpu_gb_malloc ((size_t) (a.nrows > 0 ? a.nrows : 1) * gg_type_size (t)) ;
    int rc = (out == NULL) ? GG_ERR_NOMEM : grbgpu_fault (GG_FAULT_LAUNCH) ? GG_ERR_FAULT
        : be->csr_row_reduce (add, t, &a.csr, a.buf, out) ;
    if (rc == GG_OK)
    {
        // w is overwritten whole: a device copy of it is dropped unread
        grbgpu_resident_drop (w) ;
        const double t1 = grbgpu_now () ;
        GrB_Info pinfo = pack_rows (w, &a.csr, t, out) ;      // (takes out)
        out = NULL ;
        grbgpu_log (2, "resident: row reduce, ms: device %.3f, w packed %.3f", 1e3 * (t1 - t0),
            1e3 * (grbgpu_now () - t1)) ;
        if (pinfo == GrB_OUT_OF_MEMORY) rc = GG_ERR_NOMEM ;
        else
        {
            *info = pinfo ;
            done = true ;
            grbgpu_count (be == &grbgpu_host_backend ? GG_STAT_OFFLOADED_HOST : GG_STAT_OFFLOADED_CUDA, 1) ;
            grbgpu_set_last_decision (be->name, NULL) ;
        }
    }
    grbgpu_gb_free (out) ;
    grbgpu_resident_unpin (A, a.buf) ;
    if (!done)
    {
        grbgpu_count (GG_STAT_FALLBACKS, 1) ;
        grbgpu_log (1, "fallback to the CPU library after a row reduce failed (%d) on %s", rc, be->name) ;
    }
leave:
    grbgpu_resident_quiet (-1) ;
    return done ;
}

//------------------------------------------------------------------------------
// C = D * S, D diagonal, S resident on a pattern
//------------------------------------------------------------------------------

// the multiply as a binary operator of the vector operations: z = op (d, s)
// (d_first) or op (s, d)
static bool scale_op (GrB_BinaryOp mul, gg_vop *vop, gg_type *t, bool *d_first)
{
    *d_first = true ;
    if (grbgpu_vec_binop (mul, vop, t)) return true ;
    *d_first = false ;
    if (mul == GxB_RMINUS_FP32) { *vop = GG_VOP_MINUS ; *t = GG_FP32 ; return true ; }
    if (mul == GxB_RMINUS_FP64) { *vop = GG_VOP_MINUS ; *t = GG_FP64 ; return true ; }
    if (mul == GxB_RDIV_FP32) { *vop = GG_VOP_DIV ; *t = GG_FP32 ; return true ; }
    if (mul == GxB_RDIV_FP64) { *vop = GG_VOP_DIV ; *t = GG_FP64 ; return true ; }
    return false ;
}

// D (m x m) diagonal, with an entry on every row where P has entries (else
// the product would drop that row): d [i] = D (i,i) (type t) there.  One
// pass over the rows; NULL, or why not.
#define DIAG_READ(T)                                                          \
{                                                                             \
    T *dt = (T *) d ;                                                         \
    const T *xt = (const T *) v.x ;                                           \
    for (int64_t k = 0 ; k < v.nvec ; k++)                                    \
    {                                                                         \
        const int64_t j = hyper ? v.h [k] : k ;                               \
        const int64_t q0 = v.p [k], q1 = v.p [k+1] ;                          \
        if (q1 == q0) continue ;                                              \
        if (q1 - q0 > 1 || v.i [q0] != j) return "sparse x sparse" ;          \
        /* rows of P before j without a diagonal entry must be empty */      \
        if (P->p32 [j] != P->p32 [next]) return "scaling: a row without its diagonal entry" ; \
        dt [j] = xt [v.iso ? 0 : q0] ;                                        \
        next = j + 1 ;                                                        \
    }                                                                         \
}

static const char *diagonal (GrB_Matrix D, const gg_csr *P, gg_type t, void *d)
{
    gg_view v ;
    const int64_t m = P->nrows ;
    if (grbgpu_view (&v, D) != GrB_SUCCESS) return "scaling: operand cannot be viewed" ;
    if (v.vlen != m || v.vdim != m) return "scaling: operand of another size" ;
    if (v.src != (t == GG_FP32 ? GG_SRC_FP32 : GG_SRC_FP64)) return "scaling: diagonal of another type" ;
    if (v.storage != GG_STORE_SPARSE && v.storage != GG_STORE_HYPER) return "scaling: diagonal not sparse" ;
    const bool hyper = (v.h != NULL) ;
    int64_t next = 0 ;          // rows before next are checked
    if (t == GG_FP32) DIAG_READ (float) else DIAG_READ (double)
    if (P->p32 [m] != P->p32 [next]) return "scaling: a row without its diagonal entry" ;
    return NULL ;
}

bool grbgpu_pattern_mxm (const void *call_, GrB_Info *info)
{
    const gg_call *call = (const gg_call *) call_ ;
    if (call->kind != GG_CALL_MXM || call->B == NULL || !grbgpu_resident_has (call->B)) return false ;
    const gg_settings *s = grbgpu_settings_get () ;
    const gg_backend *be = (s->device == GG_DEVICE_HOST) ? &grbgpu_host_backend : grbgpu_cuda_backend () ;
    if (be == NULL || be->csr_row_op == NULL || !grbgpu_resident_enabled (be)) return false ;
    GrB_BinaryOp mul = NULL, addop = NULL ;
    GrB_Monoid monoid = NULL ;
    GrB_Type ztype = NULL ;
    gg_vop vop ;
    gg_type t ;
    bool d_first ;
    if (call->M != NULL || call->accum != NULL || call->desc != NULL || call->A == NULL
        || call->A == call->B || call->C == call->A || grbgpu_resident_has (call->A)) return false ;
    if (GxB_Semiring_multiply (&mul, call->semiring) != GrB_SUCCESS
        || GxB_Semiring_add (&monoid, call->semiring) != GrB_SUCCESS
        || GxB_Monoid_operator (&addop, monoid) != GrB_SUCCESS
        || GxB_BinaryOp_ztype (&ztype, addop) != GrB_SUCCESS) return false ;
    if (!scale_op (mul, &vop, &t, &d_first) || ztype != grbgpu_grb_type (t)) return false ;
    gg_resident a ;
    if (!pin_csr (be, call->B, t, &a)) return false ;
    if (a.csr.p32 == NULL) { grbgpu_resident_unpin (call->B, a.buf) ; return false ; }
    // from here the call is this path's: answered, or declined with a reason
    const double t0 = grbgpu_now () ;
    const int64_t m = a.nrows ;
    const size_t zsz = gg_type_size (t) ;
    // d: the thread's scratch buffer (its rows without entries in S are
    // never read: the kernels read d [i] for the entries of row i only)
    void *d = grbgpu_storage_scratch ((size_t) (m > 0 ? m : 1) * zsz) ;
    void *z = NULL ;
    const char *why = (d == NULL) ? "scaling: out of host memory" : NULL ;
    if (why == NULL) why = output_ok (call->C, t, m, a.ncols) ;
    const double tv = grbgpu_now () ;
    if (why == NULL) why = diagonal (call->A, &a.csr, t, d) ;
    const double tr = grbgpu_now () ;
    const double t1 = tr ;
    if (why == NULL)
    {
        z = grbgpu_resident_alloc (be, a.bytes) ;
        if (z == NULL) why = "scaling: no device memory for the result" ;
    }
    const double ta = grbgpu_now () ;
    if (why != NULL)
    {
        grbgpu_resident_unpin (call->B, a.buf) ;
        // (grbgpu_dispatch goes on, and counts its own decline)
        grbgpu_log (2, "resident: product by a diagonal not taken: %s", why) ;
        return false ;
    }
    int rc = grbgpu_fault (GG_FAULT_LAUNCH) ? GG_ERR_FAULT
        : (a.nvals == 0) ? GG_OK : be->csr_row_op (vop, t, &a.csr, z, a.buf, d, d_first) ;
    if (rc != GG_OK) { (void) failed (be, call->B, &a, z, rc) ; return false ; }
    const double t2 = grbgpu_now () ;
    bool done = finish (be, call->C, call->B, &a, z, info) ;
    grbgpu_log (2, "resident: C = D*S, ms: checks %.3f (diagonal read %.3f), result allocated"
        " %.3f, computed %.3f, kept %.3f", 1e3 * (t1 - t0), 1e3 * (tr - tv), 1e3 * (ta - t1),
        1e3 * (t2 - ta), 1e3 * (grbgpu_now () - t2)) ;
    return done ;
}

//------------------------------------------------------------------------------
// D = diag (v): made by grbgpu while results are held on the device
//------------------------------------------------------------------------------

// The CPU library's GrB_Matrix_diag leaves work pending in D that the first
// read of D finishes (about 1 + 0.5 ms for 65536 rows on the GPU host, the
// greater part of a row scaling D*S on the device).  While results are held
// on the device (a softmax's D = diag (v) before D*S), grbgpu makes D itself:
// the same n-by-n matrix, D (i,i) = v (i) at v's entries (iso when v is),
// packed by row as sorted CSR, which GraphBLAS conforms to its sparsity
// rules.  FP32 / FP64, k = 0, v on the host; anything else is the CPU
// library's, untouched and uncounted.
bool grbgpu_pattern_diag (GrB_Matrix *C, const GrB_Vector v, int64_t k, GrB_Info *info)
{
    if (atomic_load_explicit (&grbgpu_resident_live, memory_order_relaxed) == 0) return false ;
    const gg_settings *s = grbgpu_settings_get () ;
    if (s->disable || !s->resident || s->device == GG_DEVICE_CPU || grbgpu_resident_is_quiet ()) return false ;
    if (C == NULL || v == NULL || k != 0 || grbgpu_resident_has (v)) return false ;
    GrB_Type type = vec_type ((GrB_Matrix) v) ;
    if (type != GrB_FP32 && type != GrB_FP64) return false ;
    const size_t zsz = (type == GrB_FP32) ? 4 : 8 ;
    grbgpu_resident_quiet (1) ;
    bool done = false ;
    gg_view vw ;
    GrB_Index *Ap = NULL, *Aj = NULL ;
    char *Ax = NULL ;
    GrB_Matrix D = NULL ;
    if (grbgpu_view (&vw, (GrB_Matrix) v) != GrB_SUCCESS || vw.vdim != 1) goto leave ;
    const int64_t n = vw.vlen, nv = vw.nvals ;
    const size_t ap_size = (size_t) (n + 1) * sizeof (GrB_Index) ;
    const size_t aj_size = (size_t) (nv > 0 ? nv : 1) * sizeof (GrB_Index) ;
    const size_t ax_size = (vw.iso ? 1 : (size_t) (nv > 0 ? nv : 1)) * zsz ;
    Ap = grbgpu_gb_malloc (ap_size) ;
    Aj = grbgpu_gb_malloc (aj_size) ;
    Ax = grbgpu_gb_malloc (ax_size) ;
    if (Ap == NULL || Aj == NULL || Ax == NULL) goto leave ;
    const char *x = vw.x ;
    if (vw.iso) memcpy (Ax, x, zsz) ;
    int64_t q = 0 ;
    Ap [0] = 0 ;
    if (vw.storage == GG_STORE_SPARSE || vw.storage == GG_STORE_HYPER)
    {
        // (a vector: one vector of vlen, its entries' indices in i)
        int64_t e = 0 ;
        for (int64_t i = 0 ; i < n ; i++)
        {
            if (e < nv && vw.i [e] == i)
            {
                Aj [q] = (GrB_Index) i ;
                if (!vw.iso) memcpy (Ax + (size_t) q * zsz, x + (size_t) e * zsz, zsz) ;
                q++ ; e++ ;
            }
            Ap [i+1] = (GrB_Index) q ;
        }
    }
    else
    {
        for (int64_t i = 0 ; i < n ; i++)
        {
            if (vw.storage == GG_STORE_FULL || vw.b [i])
            {
                Aj [q] = (GrB_Index) i ;
                if (!vw.iso) memcpy (Ax + (size_t) q * zsz, x + (size_t) i * zsz, zsz) ;
                q++ ;
            }
            Ap [i+1] = (GrB_Index) q ;
        }
    }
    if (q != nv) goto leave ;       // (a jumbled vector: the CPU library's)
    if (GrB_Matrix_new (&D, type, (GrB_Index) n, (GrB_Index) n) != GrB_SUCCESS) goto leave ;
    void *xv = Ax ;
    if (GxB_Matrix_pack_CSR (D, &Ap, &Aj, &xv, ap_size, aj_size,
        ax_size, vw.iso, false, NULL) != GrB_SUCCESS)
    {
        Ax = xv ;
        goto leave ;
    }
    Ax = xv ;
    *C = D ;
    D = NULL ;
    *info = GrB_SUCCESS ;
    done = true ;
    grbgpu_log (2, "resident: D = diag (v) made by grbgpu (%lld entries)", (long long) nv) ;
leave:
    grbgpu_gb_free (Ap) ; grbgpu_gb_free (Aj) ; grbgpu_gb_free (Ax) ;
    if (D != NULL) GrB_Matrix_free (&D) ;
    grbgpu_resident_quiet (-1) ;
    return done ;
}
