//------------------------------------------------------------------------------
// tests/nm_test.h: what tests/test_nm's files share
//------------------------------------------------------------------------------

// tests/test_nm is one program: random patterns, their CSR and the detector
// called on them (tests/nm_test_util.c); the detection and packing tests and
// main (tests/test_nm.c).

#ifndef GG_TESTS_NM_TEST_H
#define GG_TESTS_NM_TEST_H

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

#include "formats/nm.h"

typedef struct
{
    int64_t R, K ;
    uint8_t *pat ;              // R x K, pat [r*K + c]
}
pattern ;

typedef struct
{
    gg_csr csr ;
    int32_t *p, *i ;
    uint8_t *x ;
    size_t esz ;
}
test_csr ;

// tests/nm_test_util.c
extern uint64_t rng_state ;
int64_t rnd_below (int64_t n) ;
pattern pattern_new (int64_t R, int64_t K) ;
pattern nm_pattern (int64_t R, int64_t K, int n, int m, int v) ;
test_csr csr_of (const pattern *P, gg_nm_orient orient, size_t esz) ;
void csr_free (test_csr *T) ;
gg_nm_info detect (const pattern *P, gg_nm_orient orient, int v) ;
void check_levels (const gg_nm_info *info, const pattern *P, int v) ;

#endif
