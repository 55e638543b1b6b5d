//------------------------------------------------------------------------------
// bench/spmm_bench.h: what bench/spmm_bench's files share
//------------------------------------------------------------------------------

// bench/spmm_bench is one program: options and main (bench/spmm_bench.c),
// matrices, the sampled reference and cuSPARSE called directly
// (bench/spmm_bench_util.c), (a) + (c) the backend's SpMM / SDDMM vs cuSPARSE
// (bench/spmm_bench_kernels.c), (d) vxm (bench/spmm_bench_vxm.c), (b) and (e)
// end to end (bench/spmm_bench_e2e.c).

#ifndef GG_BENCH_SPMM_BENCH_H
#define GG_BENCH_SPMM_BENCH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <dirent.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cuda_runtime_api.h>
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#include "backend/grbgpu_internal.h"
#include "backend/cache/cache.h"
#include "backend/cuda/device.h"
#include "kernels/gg_cuda.h"

#define CHECK_CUDA(x) do { cudaError_t e_ = (x) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
    cudaGetErrorString (e_)) ; exit (2) ; } } while (0)
#define CHECK_SP(x) do { cusparseStatus_t s_ = (x) ; \
    if (s_ != CUSPARSE_STATUS_SUCCESS) { fprintf (stderr, "%s:%d: %s: %s\n", \
    __FILE__, __LINE__, #x, cusparseGetErrorString (s_)) ; exit (2) ; } } \
    while (0)


// options (bench/spmm_bench.c)
extern int scales [8] ;
extern int nscales ;
extern int ns [8] ;
extern int nns ;
extern int reps ;
extern const char *data_dir ;
extern const char *real_filter ;
extern const char *csv_path ;
extern bool do_e2e, do_sddmm ;
extern const char *sddmm_kernels ;   // --sddmm-kernels: our schedules timed next to cuSPARSE
extern FILE *csv ;
extern int failures ;

typedef struct
{
    char name [64] ;
    int64_t m, k, nnz ;
    int32_t *p, *i ;
    double *v ;             // values (FP64); FP32 copies are made per run
}
csr ;

typedef struct
{
    double ms ;
    int alg ;
}
vendor_result ;

static inline uint64_t rnd (uint64_t *s)
{
    uint64_t x = (*s += 0x9e3779b97f4a7c15ull) ;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull ;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull ;
    return x ^ (x >> 31) ;
}
static inline double rnd_unit (uint64_t *s)    // [-1, 1)
{
    return (double) (rnd (s) >> 11) / 4503599627370496.0 - 1.0 ;
}

// bench/spmm_bench_util.c
void parse_list (const char *s, int *out, int *n) ;
double now (void) ;
double median (double *v, int n) ;
void make_rmat (csr *A, int scale) ;
bool read_mtx (csr *A, const char *path, const char *name) ;
void free_csr (csr *A) ;
double check_rows (const csr *A, const void *vals, const void *X,
    const void *Y, int64_t n, bool fp32) ;
vendor_result vendor_spmm (cusparseHandle_t h, const csr *A,
    const int32_t *dp, const int32_t *di, const void *dv, const void *dX,
    void *dY, int64_t n, bool fp32) ;

// bench/spmm_bench_kernels.c, bench/spmm_bench_vxm.c
gg_cache_entry *entry (void) ;
void *csr_to_device (const csr *A, bool fp32, int32_t **dp, int32_t **di,
    void **dv) ;
void bench_kernel (const gg_backend *b, cusparseHandle_t h,
    const csr *A, bool fp32) ;
void bench_sddmm (const gg_backend *b, cusparseHandle_t h,
    const csr *M, bool fp32) ;
void bench_vxm (cusparseHandle_t h, const csr *A, bool fp32) ;

#ifdef GG_BENCH_E2E
// bench/spmm_bench_e2e.c
#define GRB_OK(x) do { GrB_Info i_ = (x) ; if (i_ != GrB_SUCCESS) { \
    fprintf (stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #x, i_) ; \
    exit (2) ; } } while (0)
extern const char *split_list ;
extern bool split_sddmm ;          // --split-sddmm: C<A> = L * R' instead
void bench_e2e (const csr *A, bool fp32) ;
void bench_split (const csr *A) ;
GrB_Matrix grb_of (const csr *A, bool fp32) ;
double compare_matrices (GrB_Matrix C1, GrB_Matrix C2, GrB_Type T) ;
extern int split_reps ;            // --split-reps: warm calls per row (5)
extern bool split_only ;           // --split-only: no one-slot row; checked by row blocks
#endif

#endif
