//------------------------------------------------------------------------------
// backend/cuda/form_nm.h: the N:M form of a CSR form (form_nm.c, family_nm.c)
//------------------------------------------------------------------------------

#ifndef GRBGPU_CUDA_FORM_NM_H
#define GRBGPU_CUDA_FORM_NM_H

#include "backend/cuda/cuda_internal.h"
#include "kernels/nm_spmm/nm_geom.h"

// The packed N:M layout of S on the device, as the kernel reads it
// (kernels/nm_spmm/nm_geom.h: op.val / op.idx / op.cols point into buf).
struct gg_nm_dev
{
    gg_nm_spmm_op op ;
    void *buf ;                 // device: values, indices, packed positions
    void *tcbuf ;               // device: op.wtc (tc32 FP32 layouts), or NULL
    size_t bytes ;              // of both
    int n, m ;                  // the N:M pair found
    double fill ;
} ;

// f's N:M form for values of elem bytes (4 or 8), made at the first call
// with `build` (S checked, packed and uploaded once per CSR form; the
// answer kept in f).  *out = NULL with *why a reason when there is none:
// S is not exactly N:M along its columns for a supported pair, it was not
// checked yet and build is false, or it could not be made.  Returns GG_OK.
GG_INTERNAL int nm_form (gg_devcall *c, const gg_csr *S, dev_csr *f,
    size_t elem, bool build, const struct gg_nm_dev **out, const char **why) ;

#endif
