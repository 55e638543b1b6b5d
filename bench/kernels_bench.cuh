//------------------------------------------------------------------------------
// bench/kernels_bench.cuh: what bench/kernels_bench's files share
//------------------------------------------------------------------------------

// bench/kernels_bench is one program: the matrices and the checks
// (bench/kernels_bench_util.cu), timing, the runs on one matrix, the tables
// and main (bench/kernels_bench.cu).

#ifndef GG_BENCH_KERNELS_BENCH_CUH
#define GG_BENCH_KERNELS_BENCH_CUH

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>
#include <algorithm>
#include <map>
#include <dirent.h>
#include <cuda_runtime.h>
#include <cusparse.h>
#include "kernels/gg_cuda.h"
#include "bench/bench_cuda.cuh"

extern uint64_t rng_state ;     // bench/kernels_bench.cu
static inline uint64_t rng (void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull ;
    return z ^ (z >> 31) ;
}
static inline float rnd_val (void) { return (float) ((rng () >> 40) & 0xffff) / 65536.0f + 0.5f ; }

typedef struct
{
    std::string name ;
    int64_t m, k, nnz, max_row ;
    std::vector<int32_t> p, i ;
    std::vector<float> x ;
}
csr ;

enum { SR_PLUS_TIMES = 0, SR_MIN_PLUS, SR_PLUS_SECOND, SR_MIN_SECOND, SR_N } ;
extern const char *sr_name [SR_N] ;
extern const gg_semiring sr_def [SR_N] ;

// bench/kernels_bench_util.cu
csr rmat (int scale) ;
csr degree_sorted (const csr &A) ;
bool read_mtx_gz (const std::string &path, csr &A) ;
bool close_all (const std::vector<float> &y, const std::vector<float> &ref,
    const csr &A, const std::vector<float> &X, int64_t n) ;
bool check_sample (int sr, const csr &A, const std::vector<float> &X,
    int64_t n, const std::vector<float> &y, const std::vector<int64_t> &rows) ;

#endif
