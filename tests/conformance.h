//------------------------------------------------------------------------------
// tests/conformance.h: what the conformance suite's files share
//------------------------------------------------------------------------------

// tests/test_conformance is one program made of several files, one (or a
// few) groups of cases each; tests/test_conformance.c (main) registers the
// groups in a fixed order.  The cases are declared as specs (below), run by
// tests/conformance_run.c on top of tests/conformance_util.c.

#ifndef GG_TESTS_CONFORMANCE_H
#define GG_TESTS_CONFORMANCE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "grbgpu.h"
#include "tests/conformance_util.h"

//------------------------------------------------------------------------------
// a case, declaratively
//------------------------------------------------------------------------------

typedef enum
{
    MASK_NONE = 0, MASK_VALUED, MASK_STRUCT, MASK_COMP, MASK_STRUCT_COMP,
    MASK_NKINDS
}
mask_kind ;

extern const char *mask_name [MASK_NKINDS] ;

typedef struct spec spec ;
struct spec
{
    char name [112] ;
    int op ;                    // CU_MXM, CU_MXV, CU_VXM
    int add, mul, st ;          // semiring from built-in pieces, of type st
    GrB_Semiring *builtin ;     // or a predefined semiring (st still its type)
    uint64_t m, k, n ;          // op(A) is m x k, op(B) is k x n
    double dA, dB ;             // densities (>= 1: dense)
    int tA, tB, tC ;            // operand types (-1: the semiring's)
    cu_gen gA, gB, gC ;
    bool trA, trB ;             // GrB_INP0 / GrB_INP1 = GrB_TRAN
    int mask ;
    double dM ;
    int tM ;
    cu_gen gM ;
    bool replace ;
    int acc ;                   // cu_acc, on C's type
    double dC ;                 // density of the initial C (0: empty)
    int sA, fA, sB, fB, sC, fC, sM, fM ;    // storage: sparsity / format
    int alias ;                 // cu_alias
    bool B_is_A ;               // the same handle for both inputs
    bool M_is_A ;               // the mask is input A
    int expect ;                // cu_expect
    double rtol ;               // 0: exact
    bool mag ;                  // tolerance relative to sum |terms|
    int (*custom) (const spec *) ;  // a case that builds its own call
    const char *file ;          // real-matrix cases: the file
    const char *kernel ;        // GRBGPU_KERNEL for the offload side (NULL:
                                // the chooser)
    int nm_n, nm_m ;            // nm_m > 0: op(B) is N:M down its columns
    bool nm_extra ;             // (nm_matrix) with one entry too many
    int nm_v ;                  // > 1: blocks of nm_v columns share their
                                // positions (vector-wise N:M)
} ;

#define MAX_SPECS 8192
extern spec specs [MAX_SPECS] ;
extern int nspecs ;

// tests/conformance_run.c: declaring and running a spec
spec spec_default (void) ;
spec *add_spec (const spec *s, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3))) ;
void *magnitude (int op, int mul, void *A, void *B, bool trA, bool trB,
    uint64_t m, uint64_t n) ;
void free_obj (int isvec, void **X) ;
void test_spec (void **state) ;

// tests/conformance_products.c: the shapes, used by the other groups too
typedef struct { int add, mul, t ; GrB_Semiring *builtin ; const char *name ; } sr_pick ;

typedef enum
{
    SH_SPMM = 0, SH_DXS, SH_MXV, SH_VXM, SH_SDDMM_T, SH_SDDMM, SH_GEMM,
    SH_NSHAPES
}
shape_kind ;

extern const char *shape_name [SH_NSHAPES] ;
void set_shape (spec *s, int shape) ;
void shape_values (spec *s, int shape, int add) ;

// the groups, in the order main registers them
void group_grid (void) ;                // tests/conformance_products.c
void group_shapes (void) ;
void group_mixed (void) ;
void group_masks (void) ;
void group_accum (void) ;
void group_transpose (void) ;
void group_storage (void) ;             // tests/conformance_storage.c
void group_iso_structure (void) ;
void group_alias (void) ;
void group_dense (void) ;
void group_values (void) ;
void group_nonfinite (void) ;           // tests/conformance_nonfinite.c
void group_nonfinite_kernels (void) ;
void group_nm (void) ;
void group_alias2 (void) ;
void group_sequence (void) ;            // tests/conformance_calls.c
void group_pending (void) ;
void group_monoids (void) ;             // tests/conformance_declines.c
void group_declines (void) ;
void group_invalid (void) ;
void group_real (void) ;                // tests/test_conformance.c

#endif
