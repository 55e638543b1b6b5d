//------------------------------------------------------------------------------
// tests/test_exp.c: expf by classification (kernels/vec_ops/vec_exp.h)
//------------------------------------------------------------------------------

// host_vec_exp (backend/host/host_exp.c, compiled into this program) against
// the host's expf, bit for bit, out of place and in place: every float of
// dense ranges of bit patterns (strided through [-1, 1], [1, 88], [-87, -1]
// and beyond the range, and 2^20 consecutive floats at a few places), random
// floats in [-90, 90], special values, and the entries nearest the
// classification's threshold: the hard ones, and the easy ones within a few
// hundredths of an ulp of a rounding boundary.  Also checks the bound the
// classification rests on: wherever (float) exp ((double) x) and expf (x)
// differ, the double is within 0.005 ulp of the midpoint (so such an x is
// always hard).  The share of hard entries in range is printed and must stay
// below 3 % (it is about 1 %).  The GPU side (backend/cuda/form_exp.c) runs
// the same classification; bench/exp_check.cu compares it on a GPU.

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "backend/host/host_vec_ops.h"
#include "kernels/vec_ops/vec_exp.h"

// |y - mid| / ulp for x in range: how far exp ((double) x) is from the
// rounding boundary on its side, in ulps of float (-1: y is a float)
static double midpoint_distance (float x)
{
    const double y = exp ((double) x) ;
    const float r = (float) y ;
    if ((double) r == y) return -1 ;
    const float nb = nextafterf (r, y > (double) r ? INFINITY : -INFINITY) ;
    const double mid = ((double) r + (double) nb) / 2 ;
    return fabs (y - mid) / fabs ((double) nb - (double) r) ;
}

typedef struct
{
    int64_t n, in_range, hard_in_range, hard ;
    double worst ;      // largest midpoint distance where (float) exp != expf
}
exp_stats ;

// host_vec_exp on x [0..n) out of place and in place, each equal to expf bit
// for bit; counts into *s
static void check (const float *x, int64_t n, const char *what, exp_stats *s)
{
    float *z = malloc ((size_t) n * sizeof (float)) ;
    float *w = malloc ((size_t) n * sizeof (float)) ;
    assert_non_null (z) ;
    assert_non_null (w) ;
    memcpy (w, x, (size_t) n * sizeof (float)) ;
    assert_int_equal (host_vec_exp (GG_FP32, n, z, x), GG_OK) ;
    assert_int_equal (host_vec_exp (GG_FP32, n, w, w), GG_OK) ;
    int64_t bad = 0 ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        const float want = expf (x [i]) ;
        if (gg_f32_bits (z [i]) != gg_f32_bits (want) || gg_f32_bits (w [i]) != gg_f32_bits (want))
        {
            if (bad++ < 10)
            {
                printf ("  %s: expf (%a) = %a, got %a (in place %a)\n", what,
                    (double) x [i], (double) want, (double) z [i], (double) w [i]) ;
            }
        }
        float r ;
        const bool easy = gg_exp_fp32_easy (x [i], &r) ;
        const bool in = (x [i] >= -87.0f && x [i] <= 88.0f) ;
        s->hard += !easy ;
        s->in_range += in ;
        s->hard_in_range += (in && !easy) ;
        if (in && gg_f32_bits ((float) exp ((double) x [i])) != gg_f32_bits (want))
        {
            const double d = midpoint_distance (x [i]) ;
            if (d > s->worst) s->worst = d ;
        }
    }
    s->n += n ;
    free (z) ;
    free (w) ;
    if (bad > 0) printf ("  %s: %lld of %lld wrong\n", what, (long long) bad, (long long) n) ;
    assert_int_equal (bad, 0) ;
}

static void report (const char *what, const exp_stats *s)
{
    const double frac = s->in_range > 0 ? (double) s->hard_in_range / (double) s->in_range : 0 ;
    printf ("test_exp: %s: %lld values, %lld hard (%lld of %lld in [-87, 88]: %.3f %%);"
        " (float) exp != expf only within %.5f ulp of a midpoint\n", what,
        (long long) s->n, (long long) s->hard, (long long) s->hard_in_range,
        (long long) s->in_range, 100 * frac, s->worst) ;
    assert_true (s->worst <= 0.005) ;
    assert_true (frac < 0.03) ;
}

// every stride-th bit pattern from lo up to hi (of the same sign), checked
static void sweep (uint32_t lo, uint32_t hi, uint32_t stride, const char *what,
    exp_stats *s)
{
    const int64_t n = ((int64_t) hi - lo) / stride + 1 ;
    float *x = malloc ((size_t) n * sizeof (float)) ;
    assert_non_null (x) ;
    for (int64_t k = 0 ; k < n ; k++) x [k] = gg_f32_of_bits (lo + (uint32_t) k * stride) ;
    check (x, n, what, s) ;
    free (x) ;
}

static void test_sweeps (void **state)
{
    (void) state ;
    exp_stats s = { 0 } ;
    sweep (gg_f32_bits (0.0f), gg_f32_bits (1.0f), 1021, "[0, 1]", &s) ;
    sweep (gg_f32_bits (-0.0f), gg_f32_bits (-1.0f), 1021, "[-1, -0]", &s) ;
    sweep (gg_f32_bits (1.0f), gg_f32_bits (88.0f), 41, "[1, 88]", &s) ;
    sweep (gg_f32_bits (-1.0f), gg_f32_bits (-87.0f), 41, "[-87, -1]", &s) ;
    sweep (gg_f32_bits (88.0f), gg_f32_bits (INFINITY), 4099, "[88, Inf]", &s) ;
    sweep (gg_f32_bits (-87.0f), gg_f32_bits (-INFINITY), 4099, "[-Inf, -87]", &s) ;
    sweep (gg_f32_bits (INFINITY) + 1, 0x7fffffffu, 65537, "NaN", &s) ;
    sweep (gg_f32_bits (-INFINITY) + 1, 0xffffffffu, 65537, "-NaN", &s) ;
    // 2^20 consecutive floats in a few places
    const float at [] = { 1.0f, 10.0f, -20.0f, 63.0f, 88.0f - 0.0625f, -86.0f } ;
    for (size_t j = 0 ; j < sizeof (at) / sizeof (at [0]) ; j++)
    {
        sweep (gg_f32_bits (at [j]), gg_f32_bits (at [j]) + (1u << 20) - 1, 1, "consecutive", &s) ;
    }
    report ("sweeps", &s) ;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL ;
static double uniform (void)
{
    rng ^= rng << 13 ;
    rng ^= rng >> 7 ;
    rng ^= rng << 17 ;
    return (double) (rng >> 11) * 0x1p-53 ;
}

static void test_random (void **state)
{
    (void) state ;
    enum { NR = 2000000 } ;
    float *x = malloc (NR * sizeof (float)) ;
    assert_non_null (x) ;
    for (int64_t k = 0 ; k < NR ; k++) x [k] = (float) (-90.0 + 180.0 * uniform ()) ;
    exp_stats s = { 0 } ;
    check (x, NR, "random [-90, 90]", &s) ;
    report ("random [-90, 90]", &s) ;
    free (x) ;
}

static void test_special (void **state)
{
    (void) state ;
    const float x [] = {
        0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, FLT_MIN, -FLT_MIN,
        FLT_MAX, -FLT_MAX, FLT_TRUE_MIN, -FLT_TRUE_MIN, 0x1.fffffcp-127f,
        -0x1.fffffcp-127f, 0x1p-140f, FLT_EPSILON, -FLT_EPSILON,
        0x1p-24f, -0x1p-24f, 0x1p-25f, -0x1p-25f, 0x1.000002p-24f,
        1.0f, -1.0f, 0.5f, -0.5f, 2.0f, 10.0f, -10.0f,
        -87.0f, nextafterf (-87.0f, 0), nextafterf (-87.0f, -100),
        88.0f, nextafterf (88.0f, 0), nextafterf (88.0f, 100),
        88.5f, 88.7f, 88.72283f, 88.72284f, 88.8f, 89.0f, 100.0f,
        -87.3365f, -87.3366f, -100.0f, -103.0f, -103.97f, -103.98f,
        -104.0f, -150.0f, -200.0f, 0x1.62e42ep6f, 0x1.62e430p6f,
        -0x1.9fe368p6f, -0x1.9fe36ap6f, -0x1.5d589ep6f, -0x1.5d58a0p6f,
        gg_f32_of_bits (0x7fc00001u), gg_f32_of_bits (0xffc12345u), gg_f32_of_bits (0x7f800001u)
    } ;
    exp_stats s = { 0 } ;
    check (x, sizeof (x) / sizeof (x [0]), "special", &s) ;
    printf ("test_exp: special: %lld values, %lld hard\n", (long long) s.n,
        (long long) s.hard) ;
}

// The entries nearest the threshold, found in 2^22 consecutive floats from
// each start: the hard ones, and the easy ones within 0.05 ulp of a
// midpoint (there (float) exp ((double) x) must still be expf (x) itself)
static void test_near_midpoints (void **state)
{
    (void) state ;
    const float at [] = { 0.75f, 3.0f, 40.0f, -5.0f, -60.0f } ;
    enum { SPAN = 1 << 22 } ;
    exp_stats s = { 0 } ;
    int64_t nnear = 0, nhard = 0 ;
    for (size_t j = 0 ; j < sizeof (at) / sizeof (at [0]) ; j++)
    {
        float *hard = malloc (SPAN * sizeof (float)) ;
        float *near = malloc (SPAN * sizeof (float)) ;
        assert_non_null (hard) ;
        assert_non_null (near) ;
        int64_t nh = 0, nn = 0 ;
        for (uint32_t k = 0 ; k < SPAN ; k++)
        {
            const float x = gg_f32_of_bits (gg_f32_bits (at [j]) + k) ;
            float r ;
            const bool easy = gg_exp_fp32_easy (x, &r) ;
            if (!easy) hard [nh++] = x ;
            else if (midpoint_distance (x) >= 0 && midpoint_distance (x) < 0.05)
            {
                near [nn++] = x ;
                assert_int_equal (gg_f32_bits (r), gg_f32_bits (expf (x))) ;
            }
        }
        check (hard, nh, "hard", &s) ;
        check (near, nn, "near threshold", &s) ;
        nhard += nh ;
        nnear += nn ;
        free (hard) ;
        free (near) ;
    }
    printf ("test_exp: near midpoints: %lld hard, %lld easy within 0.05 ulp of a midpoint"
        " (of %lld consecutive floats)\n", (long long) nhard, (long long) nnear,
        (long long) SPAN * (long long) (sizeof (at) / sizeof (at [0]))) ;
    assert_true (nhard > 0) ;
    assert_true (nnear > 0) ;
    assert_true (s.worst <= 0.005) ;
}

static void test_types (void **state)
{
    (void) state ;
    double d [2] = { 0, 1 } ;
    float f [2] = { 0, 1 } ;
    assert_int_equal (host_vec_exp (GG_FP64, 2, d, d), GG_ERR_UNSUPPORTED) ;
    assert_int_equal (host_vec_exp (GG_INT32, 2, f, f), GG_ERR_UNSUPPORTED) ;
    assert_int_equal (host_vec_exp (GG_FP32, 0, NULL, NULL), GG_OK) ;
    assert_int_equal (host_vec_exp (GG_FP32, 2, f, f), GG_OK) ;
    assert_true (f [0] == 1.0f && f [1] == expf (1.0f)) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_types),
        cmocka_unit_test (test_special),
        cmocka_unit_test (test_sweeps),
        cmocka_unit_test (test_random),
        cmocka_unit_test (test_near_midpoints),
    } ;
    struct timespec t0, t1 ;
    clock_gettime (CLOCK_MONOTONIC, &t0) ;
    int rc = cmocka_run_group_tests (tests, NULL, NULL) ;
    clock_gettime (CLOCK_MONOTONIC, &t1) ;
    printf ("test_exp: %.2f s\n", (double) (t1.tv_sec - t0.tv_sec)
        + 1e-9 * (double) (t1.tv_nsec - t0.tv_nsec)) ;
    return rc ;
}
