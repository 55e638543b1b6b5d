//------------------------------------------------------------------------------
// tests/conformance_util.h: helpers of the conformance suite
//------------------------------------------------------------------------------

// The conformance suite runs every call twice, once through the CPU library
// (GRBGPU_DEVICE=cpu: the reference) and once forced onto the host emulation
// backend (DEVICE=host, MIN_WORK=0), and compares the two outputs entry by
// entry.  This header holds what the cases share: a seeded generator, random
// operands of a given type / shape / storage, the semiring and operator
// tables (tests/conformance_util.c), the two-sided runner and the comparison
// (tests/conformance_compare.c).

#ifndef CONFORMANCE_UTIL_H
#define CONFORMANCE_UTIL_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stdint.h>

//------------------------------------------------------------------------------
// random numbers (splitmix64: small, seedable, same on every machine)
//------------------------------------------------------------------------------

typedef struct { uint64_t s ; } cu_rng ;

uint64_t cu_next (cu_rng *r) ;
double cu_unif (cu_rng *r) ;                  // [0,1)
int64_t cu_int (cu_rng *r, int64_t lo, int64_t hi) ;    // [lo,hi]
cu_rng cu_rng_for (uint64_t seed, const char *name) ;   // per-case stream

//------------------------------------------------------------------------------
// the semiring types and pieces grbgpu supports
//------------------------------------------------------------------------------

typedef enum
{
    CU_BOOL = 0, CU_INT32, CU_INT64, CU_UINT32, CU_UINT64, CU_FP32, CU_FP64,
    CU_NT,
    // operand-only types (not semiring types of the offload)
    CU_INT8 = CU_NT, CU_UINT16, CU_NTALL
}
cu_tcode ;

typedef enum
{
    CU_ADD_PLUS = 0, CU_ADD_TIMES, CU_ADD_MIN, CU_ADD_MAX, CU_ADD_ANY,
    CU_ADD_LOR, CU_ADD_LAND, CU_NADD
}
cu_add ;

typedef enum
{
    CU_MUL_TIMES = 0, CU_MUL_FIRST, CU_MUL_SECOND, CU_MUL_PAIR, CU_MUL_PLUS,
    CU_MUL_MIN, CU_MUL_MAX, CU_MUL_LAND, CU_MUL_LOR, CU_MUL_ONEB, CU_NMUL
}
cu_mul ;

typedef enum
{
    CU_ACC_NONE = 0, CU_ACC_PLUS, CU_ACC_MINUS, CU_ACC_MIN, CU_ACC_MAX,
    CU_ACC_SECOND, CU_ACC_FIRST, CU_ACC_TIMES, CU_NACC
}
cu_acc ;

GrB_Type cu_type (int t) ;
const char *cu_type_name (int t) ;
bool cu_type_signed (int t) ;
bool cu_type_float (int t) ;
const char *cu_add_name (int a) ;
const char *cu_mul_name (int m) ;
const char *cu_acc_name (int a) ;
GrB_Monoid cu_monoid (int add, int t) ;       // NULL when it does not exist
GrB_BinaryOp cu_mulop (int mul, int t) ;
GrB_BinaryOp cu_accop (int acc, int t) ;      // NULL for CU_ACC_NONE
// GrB_Semiring_new (monoid, multiply) of built-in pieces; owned by the
// table (freed by cu_finalize).  NULL when the monoid does not exist.
GrB_Semiring cu_semiring (int add, int mul, int t) ;
void cu_finalize (void) ;

//------------------------------------------------------------------------------
// random operands
//------------------------------------------------------------------------------

typedef enum
{
    CU_V_INT = 0,   // small integers: -4..4 (0..6 for unsigned), exact sums
    CU_V_POW2,      // +-0.5, +-1, +-2 (ints: +-1, +-2; unsigned 1, 2)
    CU_V_REAL,      // uniform reals in (-1,1) (needs a tolerance)
    CU_V_CAST,      // fractions, negatives and values out of int32 range
    CU_V_ONE,       // all ones
    CU_V_POS,       // 1..9
    CU_V_FRAC,      // moderate fractions and negatives (-3.7, 2.9, 100.25 ...)
    CU_V_HUGE,      // integers over the whole range of the type (built from
                    // INT64 / UINT64, so beyond 2^53: no trip through double)
    CU_V_NONFINITE, // +INF, -INF, NaN, -0, +0 (one in 20 each) among small
                    // integers: every sum, product, min and max of them is
                    // the same in any order
    CU_V_EXTREME    // non-negative: the type's largest finite value, its
                    // smallest subnormal (and 3 of it), its smallest normal,
                    // -0, 0.5, 1..3 (sums overflow, or not, in any order;
                    // compare with a tolerance: subnormals round)
}
cu_vals ;

typedef enum { CU_VARY_ENTRY = 0, CU_VARY_ROW, CU_VARY_COL } cu_vary ;

typedef struct
{
    int vals ;          // cu_vals
    int vary ;          // value depends on the entry, its row only, its column only
    double zeros ;      // fraction of entries made explicit zeros
    int empty_rows ;    // every empty_rows-th row has no entry (0: none)
    int empty_cols ;    // every empty_cols-th column has no entry (0: none)
    bool iso ;          // all entries the same value, built iso
    double iso_value ;
}
cu_gen ;

// A random nrows x ncols matrix of type t: each entry present with
// probability density (>= 1: every entry present, empty_* then ignored).
GrB_Matrix cu_matrix (cu_rng *r, int t, uint64_t nrows, uint64_t ncols,
    double density, const cu_gen *g) ;
GrB_Vector cu_vector (cu_rng *r, int t, uint64_t n, double density,
    const cu_gen *g) ;

// Storage: sparsity GxB_SPARSE / GxB_HYPERSPARSE / GxB_BITMAP / GxB_FULL
// (0: leave as is), format GxB_BY_ROW / GxB_BY_COL (-1: leave as is).
void cu_storage (GrB_Matrix A, int sparsity, int format) ;
void cu_vstorage (GrB_Vector v, int sparsity) ;
const char *cu_sparsity_name (int s) ;

//------------------------------------------------------------------------------
// the two-sided runner
//------------------------------------------------------------------------------

typedef enum { CU_MXM = 0, CU_MXV, CU_VXM } cu_op ;
// which input the output is (the runner passes the output's own handle)
typedef enum { CU_ALIAS_NONE = 0, CU_ALIAS_A, CU_ALIAS_B, CU_ALIAS_M, CU_ALIAS_AB } cu_alias ;
typedef enum
{
    CU_EXPECT_OFFLOAD = 0,  // grbgpu_last_decision () == "host"
    CU_EXPECT_DECLINE,      // "declined: ..."
    CU_EXPECT_ANY           // either; the answer is still compared
}
cu_expect ;

// One call.  For CU_MXM the objects are matrices (C, M, A, B); for CU_MXV
// C, M and B are vectors (w, mask, u) and A the matrix; for CU_VXM C, M, A
// are vectors and B the matrix.  The runner never frees them.
typedef struct
{
    const char *name ;
    int op ;
    void *C0 ;          // initial output (duplicated for each side); NULL: pass NULL
    void *M, *A, *B ;
    GrB_BinaryOp accum ;
    GrB_Semiring s ;
    GrB_Descriptor d ;
    int alias ;         // the output (a dup of C0) is passed as this input too
    int expect ;
    double rtol ;       // 0: exact
    void *mag ;         // FP64 magnitudes sum |terms| (same kind as C), or NULL
    bool check_stats ;  // check the counters moved (default on through cu_call_init)
    bool offload_first ;    // run the offload side first (it then meets the
                            // inputs' pending work, which the reference finishes)
    void (*prepare_out) (void *out) ;   // applied to each side's copy of C
                            // before the call (e.g. to leave pending work in it)
}
cu_call ;

void cu_call_init (cu_call *c, const char *name, int op) ;

// Runs the call on both sides and compares; prints every problem found.
// Returns the number of problems (0: the case passes).
int cu_run (const cu_call *c) ;

// Compare two matrices (or vectors): type, dims, nvals, pattern, values.
// Returns the number of problems, printing the first few under name.
int cu_compare_matrix (const char *name, GrB_Matrix ref, GrB_Matrix got,
    double rtol, GrB_Matrix mag, GrB_Matrix cold) ;
int cu_compare_vector (const char *name, GrB_Vector ref, GrB_Vector got,
    double rtol, GrB_Vector mag, GrB_Vector cold) ;

// Run under the CPU library only (for magnitudes and helpers).
void cu_device_cpu (void) ;
void cu_device_host (void) ;        // the offload side: GRBGPU_TEST_DEVICE or host
const char *cu_offload_device (void) ;

// When GRBGPU_TEST_SELFCHECK is set both sides use the CPU library and the
// decision checks are skipped: a check of the test itself.
extern bool cu_selfcheck ;
extern uint64_t cu_seed ;

// Abort the test binary with a message when a GraphBLAS set-up call fails
// (a broken test, not a finding).
#define CU_OK(call)                                                         \
    do {                                                                    \
        GrB_Info cu_info_ = (call) ;                                        \
        if (cu_info_ != GrB_SUCCESS)                                        \
            cu_die (__FILE__, __LINE__, #call, cu_info_) ;                  \
    } while (0)
void cu_die (const char *file, int line, const char *what, int info)
    __attribute__ ((noreturn)) ;

#endif
