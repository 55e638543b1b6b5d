//------------------------------------------------------------------------------
// tests/test_tc_round.c: the tensor-core kernels' TF32 rounding and split, on the CPU
//------------------------------------------------------------------------------

// kernels/tc_spmm/tc_round.h is what the FP32 tensor-core kernels (SpMM,
// SDDMM, N:M) compile; this test runs it on the host, so that every build
// checks it, against a reference that does not use its bit trick:
//  - gg_tc_tf32 against round-to-nearest, ties away from zero, at TF32's
//    precision (10 fraction bits; spacing 2^-136 below 2^-126; infinity from
//    2^128 on), computed in double arithmetic: every sign and exponent, every
//    pattern of the low 14 fraction bits (the rounded-off 13 and the kept
//    one above), and the high fraction bits all zero, all one, and 6 drawn
//    fresh each run (seed: GRBGPU_TEST_SEED, else the time; printed);
//  - gg_tc_split with three parts, on the same values from |a| = 2^-103 up
//    to where a's rounding overflows: every part a TF32 value (low 13 bits
//    zero) and a1 + a2 + a3 == a exactly (in double), the claim behind the
//    unrounded third part; with two parts, |a - a1 - a2| <= 2^-22 |a| (the
//    left-out part of exact3 / exact4) on the same values.  (Below 2^-103
//    neither holds everywhere: just above 2^-126 the two-way split leaves
//    more than 2^-22 of a, since a2 is rounded at TF32's subnormal spacing,
//    2^-136; the FP32 tensor-core rows take magnitudes from 2^-51 only.)
// (tests/test_tc_spmm.cu compares the rounding with the hardware's
// cvt.rna.tf32.f32 on all 2^32 patterns, on a GPU.)

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>
#include "kernels/tc_spmm/tc_round.h"

static uint64_t state ;

static uint64_t next (void)
{
    state ^= state << 13 ; state ^= state >> 7 ; state ^= state << 17 ;
    return state ;
}

// round-to-nearest-away of finite a to TF32, as a float (reference)
static float ref_tf32 (float a)
{
    const double x = fabs ((double) a) ;
    if (x == 0) return a ;
    int e ;
    (void) frexp (x, &e) ;                  // x in [2^(e-1), 2^e)
    const int E = (e - 1 < -126) ? -126 : e - 1 ;
    const double ulp = ldexp (1.0, E - 10) ;
    const double q = x / ulp ;              // exact: x has <= 24 bits
    double r = floor (q) ;
    if (q - r >= 0.5) r += 1 ;
    const double y = r * ulp ;
    const float f = (y >= ldexp (1.0, 128)) ? INFINITY : (float) y ;
    return (a < 0) ? -f : f ;
}

// the patterns: sign s, exponent field ex, high fraction bits hi (9), low lo (14)
static uint32_t pattern (uint32_t s, uint32_t ex, uint32_t hi, uint32_t lo)
{
    return (s << 31) | (ex << 23) | ((hi & 0x1ff) << 14) | (lo & 0x3fff) ;
}

static void test_rounding_and_split (void **unused)
{
    (void) unused ;
    uint32_t his [8] = { 0, 0x1ff, 0, 0, 0, 0, 0, 0 } ;
    for (int h = 2 ; h < 8 ; h++) his [h] = (uint32_t) (next () & 0x1ff) ;
    int64_t checked = 0, bad_round = 0, split3 = 0, bad_split3 = 0, split2 = 0, bad_split2 = 0 ;
    uint32_t first_bad = 0 ;
    for (uint32_t s = 0 ; s < 2 ; s++)
    for (uint32_t ex = 0 ; ex < 255 ; ex++)         // (255: Inf and NaN, not taken)
    for (int h = 0 ; h < 8 ; h++)
    for (uint32_t lo = 0 ; lo < (1u << 14) ; lo++)
    {
        const uint32_t bits = pattern (s, ex, his [h], lo) ;
        const float a = gg_f32_of_bits (bits) ;
        checked++ ;
        const uint32_t got = gg_tc_tf32 (a) ;
        if (got != gg_f32_bits (ref_tf32 (a)))
        {
            if (bad_round++ == 0) first_bad = bits ;
            continue ;
        }
        const float a1 = gg_f32_of_bits (got) ;
        if (isinf (a1)) continue ;
        uint32_t p [3] ;
        if (fabsf (a) >= 0x1p-103f)
        {
            gg_tc_split (a, 3, p) ;
            split3++ ;
            const double sum = (double) gg_f32_of_bits (p [0]) + (double) gg_f32_of_bits (p [1])
                + (double) gg_f32_of_bits (p [2]) ;
            if ((p [0] & 0x1fff) || (p [1] & 0x1fff) || (p [2] & 0x1fff) || sum != (double) a)
            {
                if (bad_split3++ == 0) print_message ("split3 wrong at 0x%08x\n", bits) ;
            }
        }
        if (fabsf (a) >= 0x1p-103f)
        {
            gg_tc_split (a, 2, p) ;
            split2++ ;
            const double left = (double) a - (double) gg_f32_of_bits (p [0]) - (double) gg_f32_of_bits (p [1]) ;
            if (fabs (left) > ldexp (fabs ((double) a), -22))
            {
                if (bad_split2++ == 0) print_message ("split2 left %g of %g at 0x%08x\n",
                    left, (double) a, bits) ;
            }
        }
    }
    print_message ("rounding: %lld values, %lld differ from the reference (first 0x%08x); "
        "split3 %lld checked, %lld wrong; split2 %lld checked, %lld over 2^-22\n",
        (long long) checked, (long long) bad_round, first_bad, (long long) split3,
        (long long) bad_split3, (long long) split2, (long long) bad_split2) ;
    assert_int_equal (checked, 2 * 255 * 8 * (1 << 14)) ;
    assert_true (split3 > checked / 2) ;
    assert_int_equal (bad_round, 0) ;
    assert_int_equal (bad_split3, 0) ;
    assert_int_equal (bad_split2, 0) ;
}

// hand-picked values: ties (away from zero), the carry into the exponent,
// the largest values (infinity past the largest TF32), subnormals
static void test_rounding_cases (void **unused)
{
    (void) unused ;
    const struct { uint32_t in, out ; } c [] = {
        { 0x3f800000u, 0x3f800000u },   // 1
        { 0x3f800fffu, 0x3f800000u },   // just below half a unit: down
        { 0x3f801000u, 0x3f802000u },   // a tie: away from zero
        { 0xbf801000u, 0xbf802000u },   // negative tie: away from zero
        { 0x3fffffffu, 0x40000000u },   // carry into the exponent
        { 0x7f7fefffu, 0x7f7fe000u },   // the largest TF32 value
        { 0x7f7ff000u, 0x7f800000u },   // past it: infinity
        { 0x00000001u, 0x00000000u },   // the smallest subnormal: 0
        { 0x00001000u, 0x00002000u },   // a subnormal tie
        { 0x80000000u, 0x80000000u },   // -0
    } ;
    for (size_t q = 0 ; q < sizeof c / sizeof c [0] ; q++)
    {
        const float a = gg_f32_of_bits (c [q].in) ;
        assert_int_equal (gg_tc_tf32 (a), c [q].out) ;
        assert_int_equal (gg_f32_bits (ref_tf32 (a)), c [q].out) ;
    }
}

int main (void)
{
    const char *env = getenv ("GRBGPU_TEST_SEED") ;
    state = env ? strtoull (env, NULL, 10) : (uint64_t) time (NULL) ;
    if (state == 0) state = 1 ;
    printf ("seed %llu\n", (unsigned long long) state) ;
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_rounding_cases),
        cmocka_unit_test (test_rounding_and_split),
    } ;
    return cmocka_run_group_tests (tests, NULL, NULL) ;
}
