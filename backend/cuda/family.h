//------------------------------------------------------------------------------
// backend/cuda/family.h: the contract every kernel family signs (SpMM, SDDMM, GEMM)
//------------------------------------------------------------------------------

// A kernel family is one way to compute Y = S (+.*) X on the device: the
// vendor library, grbgpu's CUDA-core schedules, the band and hot/cold SpMV
// kernels, and the ones to come (tensor cores, reordered forms, N:M).  Each
// declares, in one row of the table in backend/cuda/spmm.c:
//   supports   whether it can compute this product exactly (semiring, type,
//              shape, precision mode, the values it would read), NULL when
//              it can, else a named reason (printed at GRBGPU_VERBOSE=2);
//              it may make the converted form it needs (kept with S's device
//              form in the cache, so once per version of S);
//   prefer     the measured static rule: true where it beat the families
//              after it in the table on the GPUs measured (bench/NOTES.md);
//              the choice without tuning is the first family that supports
//              and prefers the product, the last row (grbgpu's own kernels)
//              taking the rest;
//   run        the product into the op's device Y, on the call's stream.
// Adding a family is a new folder under kernels/ (its kernels and launcher)
// plus one row in the table.  SDDMM and GEMM sign the same contract
// (gg_dense_op below; their tables are in backend/cuda/dense.c), and the
// chooser that measures serves all three tables (choose.c, tune_rows).
//
// The chooser that measures (GRBGPU_TUNE, on by default): the first time a
// device form of S meets a product of enough work with a given (N, semiring,
// type, precision), every family that supports it runs once to warm up and
// is then timed with CUDA events (the mean of as many runs as fill 0.25 ms,
// at most 16, at least one); the fastest is remembered in the form (so until
// S changes), and later products go straight to it.  Its cost is bounded:
// per family two runs of a kernel of 0.25 ms or more, or at most 0.5 ms of
// runs of a shorter one, paid once per (version of S, shape), against calls
// that also move X and Y over PCIe.

#ifndef GRBGPU_CUDA_FAMILY_H
#define GRBGPU_CUDA_FAMILY_H

#include "backend/cuda/cuda_internal.h"

// One SpMM on the device: its operands, their device forms and its result.
typedef struct
{
    gg_devcall *c ;
    const gg_semiring *sr ;
    const gg_csr *S ;
    const gg_dense *X ;
    int64_t m, k, n ;
    gg_type t ;
    size_t elem ;
    gg_precision precision ;
    dev_csr *fs ;           // S's device form (values when S has them, and
                            // ones when the vendor library may run SECOND /
                            // PAIR), taken by the caller
    dev_dense *fx ;         // X's device form, or NULL (a multiply that
                            // never reads X)
    const void *dX ;        // fx->x or NULL
    void *xones ;           // k ones (the vendor's row sums), or NULL
    bool exploring ;        // the chooser will time every supporting family
                            // (else only the preferred ones need asking)
    int remembered ;        // the winner the chooser remembered, or -1
    int vendor_ok ;         // no special value where the vendor reads:
                            // 0 not yet checked, 1 none, -1 some
    void *dY ;              // m x n, row-major, on the device
    bool y_dev ;            // Y stays on the device (a resident result):
                            // a row sum (below) cannot be spread on the host
    bool rowsum ;           // set by run: dY holds r (m values) and
                            // Y (i,:) = r (i) (the vendor's FIRST / PAIR)
    // staged SpMV forms, made by supports when a family asks for them
    const gg_spmv_band_form *band ;
    int64_t hot_K ;
    const struct gg_nm_dev *nm ;    // S's N:M form (form_nm.h)
}
gg_spmm_op ;

typedef struct
{
    const char *name ;
    const char *(*supports) (gg_spmm_op *o) ;
    bool (*prefer) (const gg_spmm_op *o) ;
    int (*run) (gg_spmm_op *o) ;
}
gg_spmm_family ;

// Rows defined in files of their own (the table is in backend/cuda/spmm.c):
// the tensor-core hybrid, thresholds 3 and 4, split or fused
// (backend/cuda/family_tc.c); dense x N:M (backend/cuda/family_nm.c).
GG_INTERNAL const char *gg_tc3_supports (gg_spmm_op *o) ;
GG_INTERNAL const char *gg_tc4_supports (gg_spmm_op *o) ;
GG_INTERNAL bool gg_tc_prefer (const gg_spmm_op *o) ;
GG_INTERNAL int gg_tc3_run (gg_spmm_op *o) ;
GG_INTERNAL int gg_tc4_run (gg_spmm_op *o) ;
GG_INTERNAL const char *gg_tc3f_supports (gg_spmm_op *o) ;
GG_INTERNAL const char *gg_tc4f_supports (gg_spmm_op *o) ;
GG_INTERNAL int gg_tc3f_run (gg_spmm_op *o) ;
GG_INTERNAL int gg_tc4f_run (gg_spmm_op *o) ;
GG_INTERNAL const char *gg_tc3r_supports (gg_spmm_op *o) ;
GG_INTERNAL int gg_tc3r_run (gg_spmm_op *o) ;
// the own kernels on S's rows ordered by length (backend/cuda/family_rows.c)
GG_INTERNAL const char *gg_lenr_supports (gg_spmm_op *o) ;
GG_INTERNAL bool gg_lenr_prefer (const gg_spmm_op *o) ;
GG_INTERNAL int gg_lenr_run (gg_spmm_op *o) ;
// dense x N:M (backend/cuda/family_nm.c)
// spmm.c: NULL when the values the product reads hold no Inf, NaN or
// subnormal (checked once per product), else why not
GG_INTERNAL const char *spmm_values_plain (gg_spmm_op *o) ;
// NULL when S's values (its CSR form's) and X pass gg_tc_values_plain, or
// with zeros gg_tc_values_range, else why not (each operand checked once
// per version; backend/cuda/family_tc.c)
GG_INTERNAL const char *tc_operands_check (gg_spmm_op *o, bool zeros) ;
GG_INTERNAL const char *gg_nm_supports (gg_spmm_op *o) ;
GG_INTERNAL bool gg_nm_prefer (const gg_spmm_op *o) ;
GG_INTERNAL int gg_nm_run (gg_spmm_op *o) ;
GG_INTERNAL const char *gg_nmtc_supports (gg_spmm_op *o) ;
GG_INTERNAL bool gg_nmtc_prefer (const gg_spmm_op *o) ;
GG_INTERNAL int gg_nmtc_run (gg_spmm_op *o) ;

// The name of the family that ran this thread's last SpMM ("none" before
// one): for tests, which link the module's objects.
GG_INTERNAL const char *gg_spmm_last_family (void) ;

// The families, in order of the static choice (backend/cuda/spmm.c).
#define GG_SPMM_NFAM 15             // rows in the SpMM table (<= GG_FAM_MAX)
GG_INTERNAL extern const gg_spmm_family gg_spmm_families [] ;
GG_INTERNAL extern const int gg_spmm_nfamilies ;

//------------------------------------------------------------------------------
// SDDMM and GEMM: the same contract (backend/cuda/dense.c)
//------------------------------------------------------------------------------

// One SDDMM (y [q] = A (i,:) (+.*) B (j,:) for each entry q = (i,j) of M) or
// GEMM (Y = A (+.*) B', M == NULL) on the device.  The rows take the device
// forms they read when they run (so a row that needs no pattern uploads none).
typedef struct
{
    gg_devcall *c ;
    const gg_semiring *sr ;
    const gg_csr *M ;       // SDDMM's mask pattern, NULL for GEMM
    const gg_dense *A, *B ;
    int64_t a_row0 ;        // SDDMM: M's row 0 is A's row a_row0 (a slot of
                            // the split path reading a cached whole A)
    int64_t m, n, k, nnz ;  // nnz: outputs (M's entries, or m x n)
    gg_type t ;
    size_t elem ;
    gg_precision precision ;
    dev_csr *fm ;           // M's device form (pattern only), or NULL
    dev_dense *fa, *fb ;    // A's and B's device forms, or NULL
    bool exploring ;        // the chooser will time every supporting row
    int vendor_ok ;         // no special value where the vendor reads:
                            // 0 not yet checked, 1 none, -1 some
    void *dy ;              // the nnz outputs on the device
    void *dsums ;           // the row sums (the rowsum row), or NULL
    void *kones ;           // k ones (the rowsum row), or NULL
    int spread ;            // set by run: 0 dy holds the outputs; 1 dsums
                            // holds A's row sums (output (i,j) = r (i)), 2
                            // B's (r (j)), 3 every output is k (PAIR)
    // GEMM with resident buffers (gemm_attempt_res): fa / fb are the call's
    // own views of A's / B's buffers (not counted, not freed), dy is Y's
    bool a_dev, b_dev, y_dev ;
    dev_dense da, db ;
}
gg_dense_op ;

typedef struct
{
    const char *name ;
    const char *(*supports) (gg_dense_op *o) ;
    bool (*prefer) (const gg_dense_op *o) ;
    int (*run) (gg_dense_op *o) ;
}
gg_dense_family ;

#define GG_SDDMM_NFAM 6             // rows in the SDDMM table
#define GG_GEMM_NFAM 3              // rows in the GEMM table
#define GG_DENSE_NFAM_MAX 6         // the larger of the two (dense.c's arrays)
_Static_assert (GG_SDDMM_NFAM <= GG_DENSE_NFAM_MAX && GG_GEMM_NFAM <= GG_DENSE_NFAM_MAX,
    "GG_DENSE_NFAM_MAX must hold every dense table's rows") ;
GG_INTERNAL extern const gg_dense_family gg_sddmm_families [GG_SDDMM_NFAM] ;
GG_INTERNAL extern const gg_dense_family gg_gemm_families [GG_GEMM_NFAM] ;

#endif
