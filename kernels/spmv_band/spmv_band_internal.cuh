//------------------------------------------------------------------------------
// kernels/spmv_band/spmv_band_internal.cuh: the band form, as both files see it
//------------------------------------------------------------------------------

// Why: on a power-law matrix (R-MAT 2^22, 65M entries) every CSR SpMV kernel
// is bound by the L2's request rate, not by DRAM: each entry gathers one
// 4-byte x value, one L2 request, and at ~160 G requests/s that caps SpMV near
// 34 % of the copy bandwidth (bench/NOTES.md, session 3).  The hot/cold form
// (kernels/spmv_hot/) staged the ~50K columns with the most entries in shared
// memory (59 % of the gathers); this form goes on with the next ones.
//
// The form: spmv_band_form.cu; the product: spmv_band.cu.
//
// Bytes per entry: 2 + 4 (FP32) in a band against 8 in CSR, plus 4 per
// (row, band) pair; x leaves the L2 once per band per block that stages it.

#ifndef GG_SPMV_BAND_INTERNAL_CUH
#define GG_SPMV_BAND_INTERNAL_CUH

#include <cstring>
#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

// shared between this folder's files, not exported from the CUDA module
#define BAND_PRIVATE __attribute__ ((visibility ("hidden")))

#define BAND_MAX      GG_SPMV_BAND_MAX   // bands (the cold part is band nb <= 30)
#define BAND_KEYBITS  5         // band number bits in the sort key
#define BAND_ITEMS    8         // entries per lane
#define BAND_CH       (32 * BAND_ITEMS)
#define BAND_WARPS    32        // one block of 1024 threads per SM
#define BAND_MIN_DEG  1         // a band is kept while its columns hold at
                                // least this many entries each on average
#define BAND_WORK_BASE 64

struct gg_spmv_band_form
{
    int64_t m, k, nnz ;
    int ts ;                    // value bytes of the form's W
    int nb ;                    // bands in shared memory
    int64_t W ;                 // slots per band
    bool vals ;                 // values kept
    void *mem ;                 // the one device allocation
    size_t bytes ;
    int32_t *order ;            // nb * W: the column of each rank
    int64_t E [BAND_MAX + 1], R [BAND_MAX + 1], nch [BAND_MAX + 1] ;
    int32_t *rows [BAND_MAX + 1], *plan [BAND_MAX + 1] ;
    uint32_t *flags [BAND_MAX + 1] ;
    void *ci [BAND_MAX + 1] ;   // uint16 slots (bands), int32 columns (cold)
    void *sx [BAND_MAX + 1] ;   // values or NULL
} ;

// one band as the kernel sees it
struct band_part
{
    const int32_t *rows, *plan ;
    const uint32_t *flags ;
    const void *ci ;
    const void *sx ;
    int64_t E, nch, R ;
    int64_t wt ;            // work units per chunk (band_kernel's slices)
} ;

struct band_parts
{
    band_part b [BAND_MAX + 1] ;
} ;

// The kernels' view of f's parts (bands, then the cold part;
// spmv_band_form.cu)
BAND_PRIVATE void band_parts_of (const gg_spmv_band_form *f, band_parts *parts) ;

// W for values of ts bytes: the opt-in shared memory of one block less the
// warps' partial sums (BAND_WARPS * BAND_CH values) and 1 KB of slack, at
// most 65,536 (16-bit slots), a multiple of 16 values (spmv_band_form.cu)
BAND_PRIVATE int64_t band_width (int ts) ;

#endif
