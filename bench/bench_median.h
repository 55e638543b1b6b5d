//------------------------------------------------------------------------------
// bench/bench_median.h: the median of a bench's timings
//------------------------------------------------------------------------------

// Sorts x [0..n) (n > 0) and returns its median (the mean of the two middle
// values when n is even).

#ifndef GG_BENCH_MEDIAN_H
#define GG_BENCH_MEDIAN_H

#include <stdlib.h>

static inline int gg_bench_cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static inline double gg_bench_median (double *x, int n)
{
    qsort (x, (size_t) n, sizeof (double), gg_bench_cmp_double) ;
    return (n % 2) ? x [n / 2] : 0.5 * (x [n / 2 - 1] + x [n / 2]) ;
}

#endif
