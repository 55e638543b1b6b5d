//------------------------------------------------------------------------------
// tests/test_allocator.c: grbgpu under the program's own GraphBLAS allocator
//------------------------------------------------------------------------------

// The program starts GraphBLAS with GxB_init and counting memory functions
// (tests/count_alloc.h: every block tagged, so that a block freed by the
// wrong free, or a foreign block given to ours, is caught).  GraphBLAS frees
// with those functions every array it owns, so each array grbgpu packs into
// C or into a temporary must come from them, and each array grbgpu unpacks
// from C must go back through them.  GraphBLAS starts once per process, so
// one allocator serves every case; its failures are switched on per call.
//
// For each shape of the conformance suite that reaches a distinct write
// path (plain into an empty C, into C's own arrays held bitmap or full,
// by row and by column; valued / structural / complemented masks with and
// without replace; accumulation through GrB_apply and in place, into an iso
// C; SDDMM C<M> = A*B' into an empty C and otherwise; GEMM; C aliased with
// an input; mxv and vxm; sparse, bitmap, full, hypersparse and iso
// operands), two tests:
//
//   count/<case>  the call runs on the CPU library and on the offload device
//                 (tests/conformance_compare.c's cu_run: same GrB_Info, same
//                 result exactly, offloaded as expected); then every object
//                 is freed, and the allocator must have taken back exactly
//                 the blocks it handed out since the case began, with no
//                 foreign block and no block freed twice.
//
//   fail/<case>   N = the allocations one offloaded call makes.  For every
//                 k in 1..N+1, the k-th allocation of the call fails (once;
//                 then again with every later allocation failing too).  The
//                 call must return GrB_SUCCESS with exactly the reference
//                 result (the CPU library's, computed without failures), or
//                 GrB_OUT_OF_MEMORY -- accepted only when an allocation did
//                 fail during the call, which is when the CPU library itself
//                 returns it.  Any other GrB_Info, a wrong value or a crash
//                 fails.  The output must remain an object GraphBLAS can free
//                 and read (GrB_INVALID_OBJECT is accepted from the read only
//                 after GrB_OUT_OF_MEMORY: the C API leaves an output invalid
//                 after an execution error, and the CPU library does), and
//                 once it is freed the allocator's counts must balance again,
//                 with no foreign block.
//
// Operands hold small integers, so every order of summation gives the same
// value and results are compared exactly.  The offload side is the host
// emulation backend, or the GPU with GRBGPU_TEST_DEVICE=cuda (as in the
// conformance suite).  At the end, after GrB_finalize, no block may be live.
// Environment: GRBGPU_TEST_SEED, GRBGPU_TEST_FILTER, GRBGPU_TEST_DEVICE.

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "grbgpu.h"
#include "tests/conformance_util.h"
#include "tests/count_alloc.h"

//------------------------------------------------------------------------------
// the cases
//------------------------------------------------------------------------------

// An operand: a matrix ('m') or vector ('v') of type t (cu_tcode), nrows x
// ncols (a vector: nrows), each entry present with probability density (>= 1:
// all), held with the given sparsity control (0: automatic) and format (-1:
// by row, the default), iso-valued when iso, every empty_rows-th row empty,
// a fraction `zeros` of explicit zeros (for valued masks).
typedef struct
{
    char kind ;
    int t ;
    int nrows, ncols ;
    double density ;
    int sparsity ;
    int format ;
    bool iso ;
    int empty_rows ;
    double zeros ;
}
operand ;

typedef struct
{
    char name [64] ;
    int op ;                    // CU_MXM, CU_MXV, CU_VXM
    GrB_Semiring *s ;           // built-in semirings (no allocation)
    GrB_BinaryOp *accum ;       // NULL: none
    GrB_Descriptor *d ;         // NULL: default
    operand C, M, A, B ;
    int alias ;                 // cu_alias: C is passed as this input too
    int expect ;                // cu_expect
    bool reuses_c ;             // the write lands in C's own arrays
}
acase ;

enum { m_ = 37, k_ = 23, n_ = 9 } ;       // the usual shapes: C m x n = A m x k * B k x n

#define MAT(t, r, c, dens, sp) { 'm', t, r, c, dens, sp, -1, false, 0, 0 }
#define MAT_COL(t, r, c, dens, sp) { 'm', t, r, c, dens, sp, GxB_BY_COL, false, 0, 0 }
#define MAT_ISO(t, r, c, dens, sp) { 'm', t, r, c, dens, sp, -1, true, 0, 0 }
#define MAT_HOLES(t, r, c, dens) { 'm', t, r, c, dens, GxB_SPARSE, -1, false, 5, 0 }
#define MASK(r, c) { 'm', CU_INT32, r, c, 0.5, GxB_SPARSE, -1, false, 0, 0.3 }
#define VEC(t, n, dens, sp) { 'v', t, n, 1, dens, sp, -1, false, 0, 0 }
#define VEC_ISO(t, n, dens, sp) { 'v', t, n, 1, dens, sp, -1, true, 0, 0 }
#define VMASK(n) { 'v', CU_INT32, n, 1, 0.5, GxB_SPARSE, -1, false, 0, 0.3 }
#define NONE { 0 }
#define EMPTY(t, r, c) MAT (t, r, c, 0, 0)
#define SPARSE GxB_SPARSE
#define HYPER GxB_HYPERSPARSE
#define BITMAP GxB_BITMAP
#define FULL GxB_FULL

static const acase cases [ ] =
{
    // plain, into an empty C (a fresh buffer packed into C)
    { "plain/holes_bitmap_T", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      EMPTY (CU_FP64, m_, n_), NONE, MAT_HOLES (CU_FP64, m_, k_, 0.3),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/full_T_int32", CU_MXM, &GrB_MIN_PLUS_SEMIRING_INT32, NULL, NULL,
      EMPTY (CU_INT32, m_, n_), NONE, MAT (CU_INT32, m_, k_, 0.6, SPARSE),
      MAT (CU_INT32, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/A_bitmap_iso", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      EMPTY (CU_FP64, m_, n_), NONE, MAT_ISO (CU_FP64, m_, k_, 0.4, BITMAP),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/A_hyper", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      EMPTY (CU_FP64, m_, n_), NONE, MAT (CU_FP64, m_, k_, 0.3, HYPER),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/B_iso", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      EMPTY (CU_FP64, m_, n_), NONE, MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT_ISO (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/by_col", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT_COL (CU_FP64, m_, n_, 0, 0), NONE, MAT_COL (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT_COL (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/dense_times_sparse", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      EMPTY (CU_FP64, m_, n_), NONE, MAT (CU_FP64, m_, k_, 1, FULL),
      MAT (CU_FP64, k_, n_, 0.3, SPARSE), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/transpose_A", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_T0,
      EMPTY (CU_FP64, m_, n_), NONE, MAT (CU_FP64, k_, m_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "plain/large_T", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,   // 8.8 MB: the
      EMPTY (CU_FP64, 1100, 1000), NONE, MAT (CU_FP64, 1100, 8, 0.3, SPARSE),  // size that
      MAT (CU_FP64, 8, 1000, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false }, // is 2 MiB
                                        // aligned when GraphBLAS frees with the C library's free
    { "plain/gemm", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      EMPTY (CU_FP64, m_, n_), NONE, MAT (CU_FP64, m_, k_, 1, FULL),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },

    // plain, into C's own arrays (unpacked, written, packed back)
    { "reuse/C_full", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT (CU_FP64, m_, n_, 1, FULL), NONE, MAT (CU_FP64, m_, k_, 0.6, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, true },
    { "reuse/C_bitmap_holes", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT (CU_FP64, m_, n_, 0.5, BITMAP), NONE, MAT_HOLES (CU_FP64, m_, k_, 0.3),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, true },
    { "reuse/C_full_by_col", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT_COL (CU_FP64, m_, n_, 1, FULL), NONE, MAT (CU_FP64, m_, k_, 1, FULL),
      MAT (CU_FP64, k_, n_, 0.3, SPARSE), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, true },
    { "reuse/C_iso", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT_ISO (CU_FP64, m_, n_, 1, FULL), NONE, MAT (CU_FP64, m_, k_, 0.6, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },

    // masks (T becomes a temporary, then GrB_apply)
    { "mask/valued", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT (CU_FP64, m_, n_, 0.3, 0), MASK (m_, n_), MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "mask/struct", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_S,
      MAT (CU_FP64, m_, n_, 0.3, 0), MASK (m_, n_), MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "mask/comp", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_C,
      MAT (CU_FP64, m_, n_, 0.3, 0), MASK (m_, n_), MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "mask/struct_replace", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_RS,
      MAT (CU_FP64, m_, n_, 0.3, 0), MASK (m_, n_), MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "mask/comp_replace_full_C", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_RSC,
      MAT (CU_FP64, m_, n_, 1, FULL), MASK (m_, n_), MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },

    // accumulation
    { "accum/sparse_C", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, &GrB_PLUS_FP64, NULL,
      MAT (CU_FP64, m_, n_, 0.3, 0), NONE, MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "accum/in_place_full_C", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, &GrB_PLUS_FP64, NULL,
      MAT (CU_FP64, m_, n_, 1, FULL), NONE, MAT_HOLES (CU_FP64, m_, k_, 0.3),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "accum/in_place_iso_C", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, &GrB_MINUS_FP64, NULL,
      MAT_ISO (CU_FP64, m_, n_, 1, FULL), NONE, MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "accum/cast_into_int64", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_INT32, &GrB_PLUS_INT64, NULL,
      MAT (CU_INT64, m_, n_, 1, FULL), NONE, MAT (CU_INT32, m_, k_, 0.3, SPARSE),
      MAT (CU_INT32, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "accum/masked_min", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, &GrB_MIN_FP64, NULL,
      MAT (CU_FP64, m_, n_, 0.5, BITMAP), MASK (m_, n_), MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      MAT (CU_FP64, k_, n_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },

    // SDDMM: C<M> = A*B', A and B dense
    { "sddmm/struct_empty_C", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_ST1,
      EMPTY (CU_FP64, m_, n_), MASK (m_, n_), MAT (CU_FP64, m_, k_, 1, FULL),
      MAT (CU_FP64, n_, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "sddmm/struct_replace", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP32, NULL, &GrB_DESC_RST1,
      MAT (CU_FP32, m_, n_, 0.3, 0), MASK (m_, n_), MAT (CU_FP32, m_, k_, 1, FULL),
      MAT (CU_FP32, n_, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "sddmm/valued", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_T1,
      MAT (CU_FP64, m_, n_, 0.3, 0), MASK (m_, n_), MAT (CU_FP64, m_, k_, 1, FULL),
      MAT (CU_FP64, n_, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "sddmm/struct_accum", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, &GrB_PLUS_FP64, &GrB_DESC_ST1,
      MAT (CU_FP64, m_, n_, 0.3, 0), MASK (m_, n_), MAT (CU_FP64, m_, k_, 1, FULL),
      MAT (CU_FP64, n_, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },

    // C is an input too
    { "alias/C_is_A", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT (CU_FP64, m_, n_, 0.3, SPARSE), NONE, NONE,
      MAT (CU_FP64, n_, n_, 1, FULL), CU_ALIAS_A, CU_EXPECT_OFFLOAD, false },
    { "alias/C_is_B_full", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      MAT (CU_FP64, m_, n_, 1, FULL), NONE, MAT (CU_FP64, m_, m_, 0.3, SPARSE),
      NONE, CU_ALIAS_B, CU_EXPECT_OFFLOAD, false },
    { "alias/C_is_B_accum", CU_MXM, &GrB_PLUS_TIMES_SEMIRING_FP64, &GrB_PLUS_FP64, NULL,
      MAT (CU_FP64, m_, n_, 1, FULL), NONE, MAT (CU_FP64, m_, m_, 0.3, SPARSE),
      NONE, CU_ALIAS_B, CU_EXPECT_OFFLOAD, false },

    // vectors
    { "mxv/plain", CU_MXV, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      VEC (CU_FP64, m_, 0, 0), NONE, MAT_HOLES (CU_FP64, m_, k_, 0.3),
      VEC (CU_FP64, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "mxv/reuse_full_w", CU_MXV, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      VEC (CU_FP64, m_, 1, FULL), NONE, MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      VEC (CU_FP64, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, true },
    { "mxv/reuse_bitmap_w", CU_MXV, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      VEC (CU_FP64, m_, 0.5, BITMAP), NONE, MAT_HOLES (CU_FP64, m_, k_, 0.3),
      VEC (CU_FP64, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, true },
    { "mxv/pagerank_in_place", CU_MXV, &GxB_PLUS_SECOND_FP32, &GrB_PLUS_FP32, &GrB_DESC_T0,
      VEC (CU_FP32, k_, 1, FULL), NONE, MAT (CU_BOOL, m_, k_, 0.3, SPARSE),
      VEC (CU_FP32, m_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "mxv/pagerank_iso_w", CU_MXV, &GxB_PLUS_SECOND_FP32, &GrB_PLUS_FP32, &GrB_DESC_T0,
      VEC_ISO (CU_FP32, k_, 1, FULL), NONE, MAT (CU_BOOL, m_, k_, 0.3, SPARSE),
      VEC (CU_FP32, m_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "mxv/masked_comp", CU_MXV, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, &GrB_DESC_SC,
      VEC (CU_FP64, m_, 0.4, 0), VMASK (m_), MAT (CU_FP64, m_, k_, 0.3, SPARSE),
      VEC (CU_FP64, k_, 1, FULL), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "vxm/plain", CU_VXM, &GrB_PLUS_TIMES_SEMIRING_FP64, NULL, NULL,
      VEC (CU_FP64, k_, 0, 0), NONE, VEC (CU_FP64, m_, 1, FULL),
      MAT (CU_FP64, m_, k_, 0.3, SPARSE), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
    { "vxm/accum_masked", CU_VXM, &GrB_PLUS_TIMES_SEMIRING_FP64, &GrB_PLUS_FP64, NULL,
      VEC (CU_FP64, k_, 0.5, BITMAP), VMASK (k_), VEC (CU_FP64, m_, 1, FULL),
      MAT (CU_FP64, m_, k_, 0.3, SPARSE), CU_ALIAS_NONE, CU_EXPECT_OFFLOAD, false },
} ;

#define NCASES ((int) (sizeof (cases) / sizeof (cases [0])))

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

static void *make (cu_rng *r, const operand *o)
{
    if (o->kind == 0) return NULL ;
    cu_gen g = { 0 } ;
    g.vals = CU_V_INT ;
    g.zeros = o->zeros ;
    g.empty_rows = o->empty_rows ;
    g.iso = o->iso ;
    g.iso_value = 3 ;
    if (o->kind == 'v')
    {
        GrB_Vector v = cu_vector (r, o->t, (uint64_t) o->nrows, o->density, &g) ;
        cu_vstorage (v, o->sparsity) ;
        return v ;
    }
    GrB_Matrix A = cu_matrix (r, o->t, (uint64_t) o->nrows, (uint64_t) o->ncols,
        o->density, &g) ;
    cu_storage (A, o->sparsity, o->format) ;
    return A ;
}

static void drop (void **X, char kind)
{
    if (*X == NULL) return ;
    if (kind == 'v') GrB_Vector_free ((GrB_Vector *) X) ;
    else GrB_Matrix_free ((GrB_Matrix *) X) ;
}

// The objects of one case.
typedef struct { void *C0, *M, *A, *B ; } objects ;

static void objects_make (objects *o, const acase *c, cu_rng *r)
{
    o->C0 = make (r, &c->C) ;
    o->M = make (r, &c->M) ;
    o->A = make (r, &c->A) ;
    o->B = make (r, &c->B) ;
}

static void objects_free (objects *o, const acase *c)
{
    drop (&o->C0, c->C.kind) ;
    drop (&o->M, c->M.kind) ;
    drop (&o->A, c->A.kind) ;
    drop (&o->B, c->B.kind) ;
}

static void *dup_output (const acase *c, void *X)
{
    if (c->C.kind == 'v')
    {
        GrB_Vector w ;
        CU_OK (GrB_Vector_dup (&w, (GrB_Vector) X)) ;
        return w ;
    }
    GrB_Matrix C ;
    CU_OK (GrB_Matrix_dup (&C, (GrB_Matrix) X)) ;
    return C ;
}

// One call of the case into out (aliased as the case says).
static GrB_Info call (const acase *c, const objects *o, void *out)
{
    void *M = o->M, *A = o->A, *B = o->B ;
    if (c->alias == CU_ALIAS_A) A = out ;
    if (c->alias == CU_ALIAS_B) B = out ;
    GrB_BinaryOp accum = c->accum ? *c->accum : NULL ;
    GrB_Descriptor d = c->d ? *c->d : NULL ;
    switch (c->op)
    {
        case CU_MXM:
            return GrB_mxm ((GrB_Matrix) out, (GrB_Matrix) M, accum, *c->s,
                (GrB_Matrix) A, (GrB_Matrix) B, d) ;
        case CU_MXV:
            return GrB_mxv ((GrB_Vector) out, (GrB_Vector) M, accum, *c->s,
                (GrB_Matrix) A, (GrB_Vector) B, d) ;
        default:
            return GrB_vxm ((GrB_Vector) out, (GrB_Vector) M, accum, *c->s,
                (GrB_Vector) A, (GrB_Matrix) B, d) ;
    }
}

static int compare (const acase *c, const char *name, void *ref, void *got)
{
    if (c->C.kind == 'v')
        return cu_compare_vector (name, (GrB_Vector) ref, (GrB_Vector) got, 0, NULL, NULL) ;
    return cu_compare_matrix (name, (GrB_Matrix) ref, (GrB_Matrix) got, 0, NULL, NULL) ;
}

// Allocator problems since `from`: blocks not taken back, foreign blocks,
// blocks freed twice.  Prints them; returns their number.
static int balance_check (const char *name, const char *when, const ca_counts *from)
{
    ca_counts now ;
    ca_get (&now) ;
    int64_t live = (now.allocated - from->allocated) - (now.freed - from->freed) ;
    int64_t foreign = now.foreign - from->foreign, twice = now.twice - from->twice ;
    if (live == 0 && foreign == 0 && twice == 0) return 0 ;
    printf ("  [%s] %s: %lld block(s) %s, %lld foreign block(s) given to the "
        "program's free, %lld freed twice\n", name, when, (long long) (live < 0 ? -live : live),
        live < 0 ? "freed that the program's malloc never gave" : "never freed",
        (long long) foreign, (long long) twice) ;
    return (int) ((live != 0) + (foreign != 0) + (twice != 0)) ;
}

//------------------------------------------------------------------------------
// count/<case>: the call on both sides, then every block taken back
//------------------------------------------------------------------------------

// with residency off (count_written/<case>): a case that reuses C's arrays
// must write its result into them
static bool written_only = false ;

static void test_count (void **state)
{
    const acase *c = (const acase *) *state ;
    char name [96] ;
    snprintf (name, sizeof name, "count/%s", c->name) ;
    ca_counts start ;
    ca_get (&start) ;
    cu_rng r = cu_rng_for (cu_seed, name) ;
    objects o ;
    objects_make (&o, c, &r) ;

    cu_call k ;
    cu_call_init (&k, name, c->op) ;
    k.C0 = o.C0 ; k.M = o.M ; k.A = o.A ; k.B = o.B ;
    k.accum = c->accum ? *c->accum : NULL ;
    k.s = *c->s ;
    k.d = c->d ? *c->d : NULL ;
    k.alias = c->alias ;
    k.expect = c->expect ;
    grbgpu_stats s0, s1 ;
    grbgpu_stats_get (&s0) ;
    int problems = cu_run (&k) ;
    grbgpu_stats_get (&s1) ;
    // (a result kept on the device is not written at all)
    if (c->reuses_c && !cu_selfcheck && s1.outputs_reused == s0.outputs_reused
        && (written_only || s1.resident_kept == s0.resident_kept))
    {
        printf ("  [%s] the result was neither written into C's own arrays nor kept"
            " on the device\n", name) ;
        problems++ ;
    }
    objects_free (&o, c) ;
    problems += balance_check (name, "after freeing every object", &start) ;
    assert_int_equal (problems, 0) ;
}

static void test_count_written (void **state)
{
    const char *env = getenv ("GRBGPU_RESIDENT") ;
    assert_int_equal (grbgpu_set ("RESIDENT", "0"), 0) ;
    written_only = true ;
    test_count (state) ;
    written_only = false ;
    assert_int_equal (grbgpu_set ("RESIDENT", (env != NULL && *env) ? env : "1"), 0) ;
}

//------------------------------------------------------------------------------
// fail/<case>: the k-th allocation of the call fails, for every k
//------------------------------------------------------------------------------

static void test_fail (void **state)
{
    const acase *c = (const acase *) *state ;
    char name [96] ;
    snprintf (name, sizeof name, "fail/%s", c->name) ;
    ca_counts start ;
    ca_get (&start) ;
    cu_rng r = cu_rng_for (cu_seed, name) ;
    objects o ;
    objects_make (&o, c, &r) ;
    int problems = 0 ;

    // the reference: the CPU library, no failures
    cu_device_cpu ( ) ;
    void *ref = dup_output (c, o.C0) ;
    CU_OK (call (c, &o, ref)) ;

    // N: the allocations of one offloaded call (its operand forms are cached
    // from here on, as in a program's loop)
    if (cu_selfcheck) cu_device_cpu ( ) ;
    else cu_device_host ( ) ;
    void *out = dup_output (c, o.C0) ;
    ca_counts a, b ;
    ca_get (&a) ;
    GrB_Info info = call (c, &o, out) ;
    ca_get (&b) ;
    const int64_t n = b.calls - a.calls ;
    if (info != GrB_SUCCESS)
    {
        printf ("  [%s] without failures: GrB_Info %d\n", name, (int) info) ;
        problems++ ;
    }
    else problems += compare (c, name, ref, out) ;
    drop (&out, c->C.kind) ;

    int oom = 0, right = 0 ;
    for (int sticky = 0 ; sticky <= 1 && problems == 0 ; sticky++)
    {
        for (int64_t k = 1 ; k <= n + 1 && problems == 0 ; k++)
        {
            char what [256] ;
            snprintf (what, sizeof what, "%.95s: allocation %lld fails%s (of %lld)", name,
                (long long) k, sticky ? ", and every later one" : "", (long long) n) ;
            ca_counts before ;
            ca_get (&before) ;
            out = dup_output (c, o.C0) ;
            ca_get (&a) ;
            ca_fail_from (k, sticky) ;
            info = call (c, &o, out) ;
            ca_fail_off ( ) ;
            ca_get (&b) ;
            const bool failed = b.failed > a.failed ;
            if (info == GrB_SUCCESS)
            {
                problems += compare (c, what, ref, out) ;
                right++ ;
            }
            else if (info == GrB_OUT_OF_MEMORY && failed)
            {
                oom++ ;
            }
            else
            {
                printf ("  [%s] GrB_Info %d (%s)\n", what, (int) info, failed
                    ? "only GrB_SUCCESS or GrB_OUT_OF_MEMORY may come of a failed allocation"
                    : "no allocation failed") ;
                problems++ ;
            }
            // the output is still an object GraphBLAS can free, and read
            // unless the call failed: after an execution error the C API
            // leaves it "invalid" (the CPU library itself then answers
            // GrB_INVALID_OBJECT, e.g. after C += T failed half-way)
            GrB_Index nvals ;
            GrB_Info ninfo = (c->C.kind == 'v') ? GrB_Vector_nvals (&nvals, (GrB_Vector) out)
                : GrB_Matrix_nvals (&nvals, (GrB_Matrix) out) ;
            if (ninfo != GrB_SUCCESS
                && !(info == GrB_OUT_OF_MEMORY && ninfo == GrB_INVALID_OBJECT))
            {
                printf ("  [%s] the output cannot be read afterwards (GrB_Info %d)\n",
                    what, (int) ninfo) ;
                problems++ ;
            }
            drop (&out, c->C.kind) ;
            problems += balance_check (what, "after freeing the output", &before) ;
        }
    }
    printf ("  [%s] %lld allocations per call; %d failing runs answered right, "
        "%d with GrB_OUT_OF_MEMORY\n", name, (long long) n, right, oom) ;
    cu_device_cpu ( ) ;
    drop (&ref, c->C.kind) ;
    objects_free (&o, c) ;
    problems += balance_check (name, "after freeing every object", &start) ;
    assert_int_equal (problems, 0) ;
}

//------------------------------------------------------------------------------
// the allocator's own checks can fail
//------------------------------------------------------------------------------

// A test that could not fail proves nothing: a foreign block is seen, and a
// forced failure returns NULL.  (A block freed twice is counted too, but
// checking that here would read freed memory.)
static int64_t foreign_on_purpose = 0 ;

static void test_allocator_detects (void **state)
{
    (void) state ;
    foreign_on_purpose++ ;
    ca_counts a, b ;
    ca_get (&a) ;
    // a foreign block: 16 zero bytes in front of it (no tag)
    unsigned char *foreign = calloc (1, 64) ;
    assert_non_null (foreign) ;
    ca_free (foreign + 16) ;
    free (foreign) ;
    void *p = ca_malloc (24) ;
    assert_non_null (p) ;
    ca_free (p) ;
    ca_fail_from (1, false) ;
    void *q = ca_malloc (8) ;
    ca_fail_off ( ) ;
    ca_get (&b) ;
    assert_null (q) ;
    assert_int_equal (b.foreign - a.foreign, 1) ;
    assert_int_equal (b.allocated - a.allocated, 1) ;
    assert_int_equal (b.freed - a.freed, 1) ;
    assert_int_equal (b.failed - a.failed, 1) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (void)
{
    const char *seed_env = getenv ("GRBGPU_TEST_SEED") ;
    if (seed_env && *seed_env) cu_seed = strtoull (seed_env, NULL, 0) ;
    else
    {
        struct timeval tv ;
        gettimeofday (&tv, NULL) ;
        cu_seed = ((uint64_t) tv.tv_sec * 1000003u) ^ (uint64_t) tv.tv_usec
                ^ ((uint64_t) getpid ( ) << 20) ;
    }
    printf ("allocator: seed %llu (GRBGPU_TEST_SEED=%llu repeats this run), "
        "offload device %s\n", (unsigned long long) cu_seed,
        (unsigned long long) cu_seed, cu_offload_device ( )) ;
    fflush (stdout) ;

    // GraphBLAS allocates with the counting functions from here on
    if (GxB_init (GrB_NONBLOCKING, ca_malloc, ca_calloc, ca_realloc, ca_free) != GrB_SUCCESS)
    {
        fprintf (stderr, "GxB_init failed\n") ;
        return 1 ;
    }
    // GraphBLAS 7.4 keeps freed blocks of power-of-two sizes in a pool of
    // its own and hands them out again: with the pool off every block goes
    // back to the program's free when GraphBLAS lets it go, so a case's
    // counts balance as soon as its objects are freed
    int64_t no_pool [64] = { 0 } ;
    if (GxB_Global_Option_set (GxB_MEMORY_POOL, no_pool) != GrB_SUCCESS)
    {
        fprintf (stderr, "GxB_set (GxB_MEMORY_POOL) failed\n") ;
        return 1 ;
    }
    cu_device_cpu ( ) ;

    int nreuse = 0 ;
    for (int i = 0 ; i < NCASES ; i++) nreuse += cases [i].reuses_c ;
    const int ntests = 1 + 2 * NCASES + nreuse ;
    struct CMUnitTest *tests = calloc ((size_t) ntests, sizeof (struct CMUnitTest)) ;
    char (*names) [80] = calloc ((size_t) ntests, sizeof (*names)) ;
    if (tests == NULL || names == NULL) return 1 ;
    tests [0].name = "allocator/detects" ;
    tests [0].test_func = test_allocator_detects ;
    for (int i = 0 ; i < NCASES ; i++)
    {
        for (int f = 0 ; f < 2 ; f++)
        {
            int t = 1 + 2 * i + f ;
            snprintf (names [t], sizeof names [t], "%s/%.63s", f ? "fail" : "count", cases [i].name) ;
            tests [t].name = names [t] ;
            tests [t].test_func = f ? test_fail : test_count ;
            tests [t].initial_state = (void *) &cases [i] ;
        }
    }
    for (int i = 0, t = 1 + 2 * NCASES ; i < NCASES ; i++)
    {
        if (!cases [i].reuses_c) continue ;
        snprintf (names [t], sizeof names [t], "count_written/%.63s", cases [i].name) ;
        tests [t].name = names [t] ;
        tests [t].test_func = test_count_written ;
        tests [t].initial_state = (void *) &cases [i] ;
        t++ ;
    }
    const char *sc = getenv ("GRBGPU_TEST_SELFCHECK") ;
    cu_selfcheck = sc && *sc && strcmp (sc, "0") != 0 ;
    const char *filter = getenv ("GRBGPU_TEST_FILTER") ;
    if (filter && *filter) cmocka_set_test_filter (filter) ;
    int failed = _cmocka_run_group_tests ("allocator", tests, (size_t) ntests, NULL, NULL) ;
    free (tests) ;
    free (names) ;
    cu_finalize ( ) ;
    GrB_finalize ( ) ;

    // everything GraphBLAS was given back to the program
    ca_counts end ;
    ca_get (&end) ;
    printf ("allocator: %lld blocks allocated, %lld freed, %lld foreign (%lld given "
        "on purpose), %lld freed twice, %lld allocations made to fail\n",
        (long long) end.allocated, (long long) end.freed, (long long) end.foreign,
        (long long) foreign_on_purpose, (long long) end.twice, (long long) end.failed) ;
    if (end.allocated != end.freed || end.foreign != foreign_on_purpose || end.twice != 0)
    {
        printf ("allocator: FAILED: the counts do not balance after GrB_finalize\n") ;
        failed++ ;
    }
    return failed ? 1 : 0 ;
}
