//------------------------------------------------------------------------------
// bench/tc_bench.cuh: what bench/tc_bench's files share
//------------------------------------------------------------------------------

// bench/tc_bench is one program: options, the FP32 runs on one matrix and
// main (bench/tc_bench.cu), the checks and the result rows
// (bench/tc_bench_util.cu), the FP64 and --reorder runs and their tables
// (bench/tc_bench_fp64.cu).

#ifndef GG_BENCH_TC_BENCH_CUH
#define GG_BENCH_TC_BENCH_CUH

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cusparse.h>
#include "kernels/gg_cuda.h"
#include "kernels/tc_spmm/tc_spmm.h"
#include "reorder/reorder.h"
#include "bench/bench_matrices.h"
#include "bench/bench_cuda.cuh"

// options and counts (bench/tc_bench.cu)
extern bm_rng rng ;
extern int reps, warmups ;
extern FILE *csv ;
extern int wrong ;

// the median of reps timed calls after warmups (bench/bench_cuda.cuh)
template <typename F> static double time_ms (F launch)
{
    return bench_time_ms (launch, warmups, reps) ;
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

// the FP64 reference on sampled rows
struct sample
{
    std::vector<int64_t> rows ;
    std::vector<double> acc, scale ;     // rows.size () x n
} ;

struct err64 { double max = 0, med = 0 ; } ;

// results (bench/tc_bench_util.cu)
struct result
{
    std::string matrix, mode, variant ;
    int64_t n ;
    int threshold, seg ;
    double ms, base_ms, rel, e64max, e64med ;
    double tc_share ;
    bool ok ;
} ;
extern std::vector<result> results ;

struct build_row
{
    std::string matrix ;
    int threshold, seg ;
    double first_ms, second_ms, warm_ms, tc_share, fill ;
    int64_t nblk ;
    size_t bytes ;
} ;
extern std::vector<build_row> builds ;
// --rules A:W[:G],...: the window rules (gg_tc_rule's absorb_pct, win_min,
// absorb_grow) on the form T=3 seg=16, as gg_tc_rule; name: "A:W" or "A:W:G"
extern std::vector<gg_tc_rule> rules ;
std::string rule_name (const gg_tc_rule &r) ;

// bench/tc_bench_util.cu
sample make_sample (const bm_csr &A, const std::vector<float> &X, int64_t n) ;
err64 sample_error (const sample &S, int64_t n, const std::vector<float> &y) ;
double rel_error (const int32_t *dp, int64_t m, int64_t n, const float *dY,
    const float *dRef, unsigned *dOut) ;
void report (const bm_csr &A, int64_t n, const std::string &mode,
    const std::string &variant, int T, int seg, double ms, double base, double rel,
    err64 e, double share, bool checked, bool ok) ;

// bench/tc_bench_fp64.cu
void bench_fp64 (cusparseHandle_t h, const bm_csr &A, const std::vector<int64_t> &ns) ;
void fp64_table (const std::vector<int64_t> &ns) ;
void bench_reorder (cusparseHandle_t h, const bm_csr &A, const std::vector<int64_t> &ns) ;
void reorder_table (const std::vector<int64_t> &ns) ;

#endif
