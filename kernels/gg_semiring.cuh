//------------------------------------------------------------------------------
// kernels/gg_semiring.cuh: semiring arithmetic, atomics and tile helpers
//------------------------------------------------------------------------------

// Shared by every family in kernels/<family>/.  Kernels are templated on
// the value type (and a vector width); the monoid and the multiply are runtime
// codes.  Every lane of a launch sees the same codes, so the switches below are
// uniform branches (no divergence), resolved once per nonzero and amortised
// over the VEC (or tile) values a lane combines at a time.
//
// The launcher first canonicalises the semiring (gg_canon_semiring):
//  - BOOL is stored as uint8_t holding 0 or 1.  Its monoids become MIN (LAND,
//    TIMES, MIN) or MAX (LOR, PLUS, MAX, ANY), and its multiplies LAND (TIMES,
//    MIN) or LOR (PLUS, MAX): on 0/1 values these are exactly GraphBLAS's
//    boolean operators.
//  - ANY becomes MAX: the result is then always one of the candidates (any
//    candidate is allowed), and lanes that saw no entry hold MAX's identity,
//    which any real candidate replaces.  (A "keep the first" ANY would need a
//    "have a value" flag in every reduction.)
// What is left: monoids PLUS, TIMES, MIN, MAX with an identity each, and the
// nine multiplies.  Integers wrap (computed in the unsigned type); FP MIN and
// MAX are fmin / fmax (a NaN loses against a number), as in SuiteSparse
// (GraphBLAS 2.3 and later: C11's fmin / fmax, "omitnan").  Reductions start
// from a value neutral for every operand, non-finite ones included
// (gg_identity), so that an absent term never changes a result.

#ifndef GG_SEMIRING_CUH
#define GG_SEMIRING_CUH

#include <cstdint>
#include <cfloat>
#include <climits>
#include <type_traits>
#include <cuda_runtime.h>
#include "kernels/gg_kernels.h"

//------------------------------------------------------------------------------
// canonical codes
//------------------------------------------------------------------------------

enum gg_mon { GG_MON_PLUS = 0, GG_MON_TIMES, GG_MON_MIN, GG_MON_MAX } ;

// How a kernel obtains the sparse operand's value s of an entry.
enum gg_smode { GG_S_NONE = 0, GG_S_ISO, GG_S_ARRAY } ;

typedef struct
{
    int mon ;       // gg_mon
    int mul ;       // gg_mul (BOOL: TIMES/MIN -> LAND, PLUS/MAX -> LOR)
    bool plus_times ;   // PLUS_TIMES on a non-boolean type (fast paths)
}
gg_canon ;

// Returns false for a combination no kernel supports (LOR / LAND monoids on a
// non-boolean type, codes out of range).
static inline bool gg_canon_semiring (const gg_semiring *sr, gg_canon *c)
{
    if (sr == NULL || (int) sr->type < 0 || sr->type >= GG_NTYPES
        || (int) sr->add < 0 || sr->add >= GG_NADD
        || (int) sr->mul < 0 || sr->mul >= GG_NMUL) return false ;
    bool isbool = (sr->type == GG_BOOL) ;
    int mon ;
    switch (sr->add)
    {
        case GG_ADD_PLUS:  mon = isbool ? GG_MON_MAX : GG_MON_PLUS ; break ;
        case GG_ADD_TIMES: mon = isbool ? GG_MON_MIN : GG_MON_TIMES ; break ;
        case GG_ADD_MIN:   mon = GG_MON_MIN ; break ;
        case GG_ADD_MAX:   mon = GG_MON_MAX ; break ;
        case GG_ADD_ANY:   mon = GG_MON_MAX ; break ;
        case GG_ADD_LOR:   if (!isbool) return false ; mon = GG_MON_MAX ; break ;
        case GG_ADD_LAND:  if (!isbool) return false ; mon = GG_MON_MIN ; break ;
        default: return false ;
    }
    int mul = sr->mul ;
    if (isbool)
    {
        if (mul == GG_MUL_TIMES || mul == GG_MUL_MIN) mul = GG_MUL_LAND ;
        if (mul == GG_MUL_PLUS  || mul == GG_MUL_MAX) mul = GG_MUL_LOR ;
    }
    c->mon = mon ;
    c->mul = mul ;
    c->plus_times = (!isbool && sr->add == GG_ADD_PLUS
                     && sr->mul == GG_MUL_TIMES) ;
    return true ;
}

// Which operands a multiply reads: FIRST ignores x, SECOND ignores s, PAIR
// both.  A kernel must not touch an array its multiply ignores.
static inline bool gg_mul_reads_s (int mul)
{
    return mul != GG_MUL_SECOND && mul != GG_MUL_PAIR ;
}
static inline bool gg_mul_reads_x (int mul)
{
    return mul != GG_MUL_FIRST && mul != GG_MUL_PAIR ;
}

//------------------------------------------------------------------------------
// type traits
//------------------------------------------------------------------------------

template <typename T> struct gg_traits ;
#define GG_TRAITS(T, U, LO, HI, FP)                                     \
template <> struct gg_traits<T>                                          \
{                                                                        \
    typedef U uint_t ;                                                   \
    static constexpr bool is_fp = FP ;                                   \
    __host__ __device__ static T lowest (void) { return LO ; }           \
    __host__ __device__ static T highest (void) { return HI ; }          \
} ;
GG_TRAITS (uint8_t,  uint8_t,  0, 1, false)          // BOOL as 0 / 1
GG_TRAITS (int32_t,  uint32_t, INT32_MIN, INT32_MAX, false)
GG_TRAITS (int64_t,  uint64_t, INT64_MIN, INT64_MAX, false)
GG_TRAITS (uint32_t, uint32_t, 0, UINT32_MAX, false)
GG_TRAITS (uint64_t, uint64_t, 0, UINT64_MAX, false)
GG_TRAITS (float,    uint32_t, -INFINITY, INFINITY, true)
GG_TRAITS (double,   uint64_t, -(double) INFINITY, (double) INFINITY, true)
#undef GG_TRAITS

//------------------------------------------------------------------------------
// scalar operators
//------------------------------------------------------------------------------

// The value a reduction starts from: x (+) gg_identity = x for EVERY value
// x of the type, non-finite ones included.  The kernels start every
// accumulator, every lane without entries and every cut row here, so that a
// result is exactly the one of the CPU library, which starts from the first
// term.  For the FP types this is not the monoid's GraphBLAS identity:
//  - PLUS starts from -0: -0 + x = x for x = -0 too (+0 + -0 = +0 would turn
//    a sum of -0 terms into +0);
//  - MIN / MAX start from NaN: fmin (NaN, x) = x for every x, NaN included,
//    whereas fmin (+INF, NaN) = +INF would turn a reduction whose terms are
//    all NaN (the CPU library: NaN) into +INF.
// A reduction over no terms (inner dimension 0) is the monoid's identity,
// gg_empty_value.
template <typename T> __device__ __forceinline__ T gg_identity (int mon)
{
    if constexpr (gg_traits<T>::is_fp)
    {
        switch (mon)
        {
            case GG_MON_PLUS:  return -T (0) ;
            case GG_MON_TIMES: return T (1) ;
            default:                                   // MIN, MAX: NaN
                if constexpr (sizeof (T) == 4) return (T) __int_as_float (0x7fffffff) ;
                else return (T) __longlong_as_double (0x7fffffffffffffffll) ;
        }
    }
    else
    {
        switch (mon)
        {
            case GG_MON_PLUS:  return T (0) ;
            case GG_MON_TIMES: return T (1) ;
            case GG_MON_MIN:   return gg_traits<T>::highest () ;
            default:           return gg_traits<T>::lowest () ;
        }
    }
}

// The monoid's identity as GraphBLAS defines it: the value of a reduction
// over no terms (0, 1, +INF / the type's maximum, -INF / its minimum).
template <typename T> __device__ __forceinline__ T gg_empty_value (int mon)
{
    switch (mon)
    {
        case GG_MON_PLUS:  return T (0) ;
        case GG_MON_TIMES: return T (1) ;
        case GG_MON_MIN:   return gg_traits<T>::highest () ;
        default:           return gg_traits<T>::lowest () ;
    }
}

template <typename T> __device__ __forceinline__ T gg_min (T a, T b)
{
    if constexpr (gg_traits<T>::is_fp) return fmin (a, b) ;
    else return (b < a) ? b : a ;
}
template <typename T> __device__ __forceinline__ T gg_max (T a, T b)
{
    if constexpr (gg_traits<T>::is_fp) return fmax (a, b) ;
    else return (b > a) ? b : a ;
}
// wrapping integer + and * (signed overflow is undefined in C++)
template <typename T> __device__ __forceinline__ T gg_plus (T a, T b)
{
    if constexpr (gg_traits<T>::is_fp) return a + b ;
    else
    {
        typedef typename gg_traits<T>::uint_t U ;
        return (T) (U) ((U) a + (U) b) ;
    }
}
template <typename T> __device__ __forceinline__ T gg_times (T a, T b)
{
    if constexpr (gg_traits<T>::is_fp) return a * b ;
    else
    {
        typedef typename gg_traits<T>::uint_t U ;
        return (T) (U) ((U) a * (U) b) ;
    }
}

template <typename T> __device__ __forceinline__ T gg_monoid (int mon, T a, T b)
{
    switch (mon)
    {
        case GG_MON_PLUS:  return gg_plus (a, b) ;
        case GG_MON_TIMES: return gg_times (a, b) ;
        case GG_MON_MIN:   return gg_min (a, b) ;
        default:           return gg_max (a, b) ;
    }
}

template <typename T> __device__ __forceinline__ T gg_multiply (int mul, T s, T x)
{
    switch (mul)
    {
        case GG_MUL_TIMES:  return gg_times (s, x) ;
        case GG_MUL_FIRST:  return s ;
        case GG_MUL_SECOND: return x ;
        case GG_MUL_PAIR:   return T (1) ;
        case GG_MUL_PLUS:   return gg_plus (s, x) ;
        case GG_MUL_MIN:    return gg_min (s, x) ;
        case GG_MUL_MAX:    return gg_max (s, x) ;
        case GG_MUL_LAND:   return T ((s != T (0)) && (x != T (0))) ;
        default:            return T ((s != T (0)) || (x != T (0))) ;
    }
}

//------------------------------------------------------------------------------
// compile-time semiring codes (fast paths)
//------------------------------------------------------------------------------

// A kernel is templated on OP: GG_OP_GENERIC takes the monoid and the multiply
// from its runtime codes; the others fix one or both at compile time, so the
// switches below fold away (no per-nonzero branch).  OP = 1 is PLUS_TIMES, so
// callers that still pass a bool (false / true) get GENERIC / PLUS_TIMES.
enum gg_op
{
    GG_OP_GENERIC = 0,
    GG_OP_PLUS_TIMES = 1,
    GG_OP_MIN,              // MIN monoid (shortest paths, BFS parents),
                            // runtime multiply
    GG_OP_MAX,              // MAX monoid, runtime multiply
} ;

// the monoid / multiply of OP, -1 where it is a runtime code
template <int OP> struct gg_opinfo { static constexpr int mon = -1, mul = -1 ; } ;
template <> struct gg_opinfo<GG_OP_PLUS_TIMES> { static constexpr int mon = GG_MON_PLUS, mul = GG_MUL_TIMES ; } ;
template <> struct gg_opinfo<GG_OP_MIN>        { static constexpr int mon = GG_MON_MIN,  mul = -1 ; } ;
template <> struct gg_opinfo<GG_OP_MAX>        { static constexpr int mon = GG_MON_MAX,  mul = -1 ; } ;

template <int OP> __host__ __device__ __forceinline__ int gg_op_mon (int mon)
{
    return (gg_opinfo<OP>::mon >= 0) ? gg_opinfo<OP>::mon : mon ;
}
template <int OP> __host__ __device__ __forceinline__ int gg_op_mul (int mul)
{
    return (gg_opinfo<OP>::mul >= 0) ? gg_opinfo<OP>::mul : mul ;
}

// The fast path for a canonical semiring on type T (GENERIC where none): FP32
// PLUS_TIMES, MIN and MAX, FP64 PLUS_TIMES.  Every OP costs a set of kernel
// instantiations (compile time), so integers (whose MIN / MAX are one
// instruction in the generic form too) and FP64 MIN / MAX have none.  The
// multiply of MIN / MAX stays a runtime switch: uniform, once per nonzero
// and VEC values.
template <typename T>
static inline int gg_pick_op (int mon, int mul, bool plus_times)
{
    if (std::is_same<T, float>::value || std::is_same<T, double>::value)
    {
        if (plus_times) return GG_OP_PLUS_TIMES ;
        if (!std::is_same<T, float>::value) return GG_OP_GENERIC ;
        if (mon == GG_MON_MIN) return GG_OP_MIN ;
        if (mon == GG_MON_MAX) return GG_OP_MAX ;
    }
    return GG_OP_GENERIC ;
}

// acc [v] = acc [v] (+) (s (*) x [v]) for v < VEC.  With a runtime code the
// switch is taken once for the VEC values; a compile-time one folds it away
// (OP = PLUS_TIMES: plain multiply-adds).
template <typename T, int VEC, int OP>
__device__ __forceinline__ void gg_fma_vec (int mon_rt, int mul_rt, T (&acc) [VEC],
    T s, const T (&x) [VEC])
{
    const int mon = gg_op_mon<OP> (mon_rt), mul = gg_op_mul<OP> (mul_rt) ;
    T z [VEC] ;
    switch (mul)
    {
        case GG_MUL_TIMES:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) z [v] = gg_times (s, x [v]) ;
            break ;
        case GG_MUL_FIRST:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) z [v] = s ;
            break ;
        case GG_MUL_SECOND:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) z [v] = x [v] ;
            break ;
        case GG_MUL_PLUS:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) z [v] = gg_plus (s, x [v]) ;
            break ;
        default:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) z [v] = gg_multiply (mul, s, x [v]) ;
            break ;
    }
    switch (mon)
    {
        case GG_MON_PLUS:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) acc [v] = gg_plus (acc [v], z [v]) ;
            break ;
        case GG_MON_TIMES:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) acc [v] = gg_times (acc [v], z [v]) ;
            break ;
        case GG_MON_MIN:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) acc [v] = gg_min (acc [v], z [v]) ;
            break ;
        default:
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) acc [v] = gg_max (acc [v], z [v]) ;
            break ;
    }
}

template <typename T, int VEC, int OP>
__device__ __forceinline__ void gg_combine_vec (int mon_rt, T (&acc) [VEC],
    const T (&b) [VEC])
{
    const int mon = gg_op_mon<OP> (mon_rt) ;
    #pragma unroll
    for (int v = 0 ; v < VEC ; v++) acc [v] = gg_monoid (mon, acc [v], b [v]) ;
}

//------------------------------------------------------------------------------
// warp shuffles of any value type (8-bit values travel as 32-bit)
//------------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ T gg_shfl_xor (T v, int off, int width = 32)
{
    if constexpr (sizeof (T) == 1)
        return (T) __shfl_xor_sync (0xffffffffu, (unsigned) v, off, width) ;
    else return __shfl_xor_sync (0xffffffffu, v, off, width) ;
}
template <typename T>
__device__ __forceinline__ T gg_shfl_up (T v, int off)
{
    if constexpr (sizeof (T) == 1)
        return (T) __shfl_up_sync (0xffffffffu, (unsigned) v, off) ;
    else return __shfl_up_sync (0xffffffffu, v, off) ;
}

//------------------------------------------------------------------------------
// vector loads and stores of VEC consecutive values (aligned to VEC values)
//------------------------------------------------------------------------------

// The widest native access for VEC values of T, in 16-byte pieces at most.
template <int BYTES> struct gg_chunk ;
template <> struct gg_chunk<1>  { typedef uint8_t  type ; } ;
template <> struct gg_chunk<2>  { typedef uint16_t type ; } ;
template <> struct gg_chunk<4>  { typedef uint32_t type ; } ;
template <> struct gg_chunk<8>  { typedef uint2    type ; } ;
template <> struct gg_chunk<16> { typedef uint4    type ; } ;

// One load of a chunk: read-only cached (__ldg), or streaming (__ldcs:
// evict-first, for data read once so that L1 / L2 keep what is reused).
// 1- and 2-byte chunks are plain loads (no __ldg overload in every CUDA).
template <bool STREAM, typename C>
__device__ __forceinline__ C gg_ld (const C *q)
{
    if constexpr (sizeof (C) < 4) return *q ;
    else if constexpr (STREAM) return __ldcs (q) ;
    else return __ldg (q) ;
}

// VEC consecutive values of T from p (aligned to min (16, VEC * size)).
template <typename T, int VEC, bool STREAM = false>
__device__ __forceinline__ void gg_load_vec (T (&v) [VEC], const T *p)
{
    static_assert (VEC == 1 || VEC == 2 || VEC == 4 || VEC == 8 || VEC == 16,
        "VEC must be 1, 2, 4, 8 or 16") ;
    constexpr int BYTES = (int) sizeof (T) * VEC ;
    constexpr int PIECE = BYTES > 16 ? 16 : BYTES ;
    constexpr int NP = BYTES / PIECE ;
    typedef typename gg_chunk<PIECE>::type C ;
    union { C c [NP] ; T t [VEC] ; } u ;
    #pragma unroll
    for (int k = 0 ; k < NP ; k++) u.c [k] = gg_ld<STREAM> (((const C *) p) + k) ;
    #pragma unroll
    for (int k = 0 ; k < VEC ; k++) v [k] = u.t [k] ;
}

template <typename T, int VEC>
__device__ __forceinline__ void gg_store_vec (T *p, const T (&v) [VEC])
{
    constexpr int BYTES = (int) sizeof (T) * VEC ;
    constexpr int PIECE = BYTES > 16 ? 16 : BYTES ;
    constexpr int NP = BYTES / PIECE ;
    typedef typename gg_chunk<PIECE>::type C ;
    union { C c [NP] ; T t [VEC] ; } u ;
    #pragma unroll
    for (int k = 0 ; k < VEC ; k++) u.t [k] = v [k] ;
    #pragma unroll
    for (int k = 0 ; k < NP ; k++) ((C *) p) [k] = u.c [k] ;
}

// The widest VEC in {4, 2, 1} such that n % VEC == 0 and every pointer given
// is aligned to VEC values (row starts are then aligned too).
static inline int gg_pick_vec (int64_t n, size_t tsize, const void *a,
    const void *b)
{
    for (int vec = 4 ; vec > 1 ; vec /= 2)
    {
        size_t al = tsize * (size_t) vec ;
        if (n % vec == 0 && ((uintptr_t) a % al) == 0 && ((uintptr_t) b % al) == 0)
            return vec ;
    }
    return 1 ;
}

//------------------------------------------------------------------------------
// the sparse operand's value of entry e
//------------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ T gg_sval (int smode, const T *sx, int64_t e)
{
    if (smode == GG_S_ARRAY) return sx [e] ;
    if (smode == GG_S_ISO) return sx [0] ;
    return T (0) ;
}

//------------------------------------------------------------------------------
// monoid-aware atomics: *addr = *addr (+) v
//------------------------------------------------------------------------------

// Native where one exists (PLUS on all integer and FP types: INT64 through
// the unsigned 64-bit add, which wraps identically; MIN / MAX on integers,
// and on FP through the integer order of the bits, gg_atomic_fminmax),
// otherwise a compare-and-swap loop on the value's bits (TIMES).  BOOL bytes live inside a 32-bit word: MIN (LAND) clears the byte
// with atomicAnd, MAX (LOR) sets it with atomicOr.
template <typename T>
__device__ __forceinline__ void gg_atomic_cas_op (int mon, T *addr, T v)
{
    typedef typename std::conditional<sizeof (T) == 8, unsigned long long,
        unsigned int>::type W ;
    W *wp = (W *) addr ;
    W old = *((volatile W *) wp), assumed ;
    do
    {
        assumed = old ;
        T cur ;
        memcpy (&cur, &assumed, sizeof (T)) ;
        T nxt = gg_monoid (mon, cur, v) ;
        W nw ;
        memcpy (&nw, &nxt, sizeof (T)) ;
        if (nw == assumed) break ;
        old = atomicCAS (wp, assumed, nw) ;
    }
    while (old != assumed) ;
}

// FP MIN / MAX without a compare-and-swap loop.  IEEE values without NaN are
// ordered like their bits read as sign-magnitude integers: for v >= +0 (sign
// clear) min is a signed-integer atomicMin on the bits (every negative value,
// sign set, reads as a negative integer and stays), for v with the sign set
// it is an unsigned atomicMax (a larger magnitude is a smaller value, and
// every value with the sign clear reads smaller and is replaced).  MAX is the
// mirror image.  fmin / fmax semantics: a NaN candidate loses, so it is not
// applied at all, and a NaN in *addr (the kernels' start value, gg_identity,
// or a part whose terms were all NaN, stored plainly) loses to any
// candidate: it is replaced by a compare-and-swap first (its bits, of either
// sign, are not ordered like a value).  Nothing writes a NaN into *addr while
// these atomics run, so once it holds a number the integer atomics apply.
// -0 and +0 compare as -0 < +0 here; fmin may return either, and the two are
// equal as values.
template <typename T>
__device__ __forceinline__ void gg_atomic_fminmax (int mon, T *addr, T v)
{
    if (v != v) return ;                    // NaN loses
    typedef typename std::conditional<sizeof (T) == 8, long long, int>::type S ;
    typedef typename std::conditional<sizeof (T) == 8, unsigned long long,
        unsigned int>::type U ;
    S bits ;
    memcpy (&bits, &v, sizeof (T)) ;
    {
        // a NaN in *addr: replace it by v
        U cur = *((volatile U *) addr) ;
        for (;;)
        {
            T c ;
            memcpy (&c, &cur, sizeof (T)) ;
            if (c == c) break ;             // a number: the integer atomics
            const U old = atomicCAS ((U *) addr, cur, (U) bits) ;
            if (old == cur) return ;        // v replaced the NaN
            cur = old ;
        }
    }
    const bool neg = (bits < 0) ;
    if (mon == GG_MON_MIN)
    {
        if (!neg) atomicMin ((S *) addr, bits) ;
        else atomicMax ((U *) addr, (U) bits) ;
    }
    else
    {
        if (!neg) atomicMax ((S *) addr, bits) ;
        else atomicMin ((U *) addr, (U) bits) ;
    }
}

template <typename T>
__device__ __forceinline__ void gg_atomic (int mon, T *addr, T v)
{
    if constexpr (sizeof (T) == 1)
    {
        // BOOL (0/1): MIN = LAND, MAX = LOR (PLUS and TIMES never reach here)
        unsigned int *w = (unsigned int *) ((uintptr_t) addr & ~(uintptr_t) 3) ;
        unsigned int sh = 8u * (unsigned int) ((uintptr_t) addr & 3) ;
        if (mon == GG_MON_MIN) { if (!v) atomicAnd (w, ~(0xffu << sh)) ; }
        else { if (v) atomicOr (w, 1u << sh) ; }
    }
    else if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value)
    {
        if (mon == GG_MON_PLUS) atomicAdd (addr, v) ;
        else if (mon == GG_MON_MIN || mon == GG_MON_MAX) gg_atomic_fminmax (mon, addr, v) ;
        else gg_atomic_cas_op (mon, addr, v) ;
    }
    else
    {
        // integers: map to the native types of the atomics
        typedef typename std::conditional<sizeof (T) == 8,
            typename std::conditional<std::is_signed<T>::value, long long,
                unsigned long long>::type,
            typename std::conditional<std::is_signed<T>::value, int,
                unsigned int>::type>::type N ;
        N *a = (N *) addr ;
        switch (mon)
        {
            case GG_MON_PLUS:
                if constexpr (sizeof (T) == 8)
                    atomicAdd ((unsigned long long *) addr, (unsigned long long) v) ;
                else atomicAdd (a, (N) v) ;
                break ;
            case GG_MON_MIN: atomicMin (a, (N) v) ; break ;
            case GG_MON_MAX: atomicMax (a, (N) v) ; break ;
            default: gg_atomic_cas_op (mon, addr, v) ; break ;
        }
    }
}

//------------------------------------------------------------------------------
// row search in a CSR row pointer
//------------------------------------------------------------------------------

// The row r in [lo, hi) with p [r] <= e < p [r+1], for p [lo] <= e < p [hi]
// (with empty rows, the last r with p [r] <= e: the one that holds e).
// Whole warp, 32-ary: each round probes 31 pointers at once, so a search over
// 4M rows takes 5 rounds of one (mostly cached) load each.  All lanes must
// call it with the same e, lo, hi.
__device__ __forceinline__ int64_t gg_warp_find_row (const int32_t *p,
    int64_t lo, int64_t hi, int64_t e)
{
    const int lane = threadIdx.x & 31 ;
    while (hi - lo > 1)
    {
        int64_t step = (hi - lo + 31) / 32 ;
        int64_t q = lo + (int64_t) (lane + 1) * step ;
        bool le = (lane < 31) && (q < hi) && ((int64_t) p [q] <= e) ;
        int cnt = __popc (__ballot_sync (0xffffffffu, le)) ;
        lo = lo + (int64_t) cnt * step ;
        hi = (lo + step < hi) ? lo + step : hi ;
    }
    return lo ;
}

// The same for one thread (binary search), for short ranges.
__device__ __forceinline__ int64_t gg_find_row (const int32_t *p, int64_t lo,
    int64_t hi, int64_t e)
{
    while (hi - lo > 1)
    {
        int64_t mid = (lo + hi) / 2 ;
        if ((int64_t) p [mid] <= e) lo = mid ; else hi = mid ;
    }
    return lo ;
}

// map gg_type to its storage type
template <int TYPE> struct gg_ctype ;
template <> struct gg_ctype<GG_BOOL>   { typedef uint8_t  type ; } ;
template <> struct gg_ctype<GG_INT32>  { typedef int32_t  type ; } ;
template <> struct gg_ctype<GG_INT64>  { typedef int64_t  type ; } ;
template <> struct gg_ctype<GG_UINT32> { typedef uint32_t type ; } ;
template <> struct gg_ctype<GG_UINT64> { typedef uint64_t type ; } ;
template <> struct gg_ctype<GG_FP32>   { typedef float    type ; } ;
template <> struct gg_ctype<GG_FP64>   { typedef double   type ; } ;

// Call F::template run<T> (args...) with T the storage type of t.
#define GG_TYPE_DISPATCH(t, F, ...)                                         \
    switch (t)                                                              \
    {                                                                       \
        case GG_BOOL:   return F::template run<uint8_t>  (__VA_ARGS__) ;    \
        case GG_INT32:  return F::template run<int32_t>  (__VA_ARGS__) ;    \
        case GG_INT64:  return F::template run<int64_t>  (__VA_ARGS__) ;    \
        case GG_UINT32: return F::template run<uint32_t> (__VA_ARGS__) ;    \
        case GG_UINT64: return F::template run<uint64_t> (__VA_ARGS__) ;    \
        case GG_FP32:   return F::template run<float>    (__VA_ARGS__) ;    \
        case GG_FP64:   return F::template run<double>   (__VA_ARGS__) ;    \
        default:        return GG_ERR_UNSUPPORTED ;                         \
    }

// The kernels' scratch pool (kernels/gg_device.cu): a device memory pool that
// keeps its memory between calls, so a launcher neither synchronises nor
// pays cudaMalloc for its scratch.  NULL if it cannot be made.
cudaMemPool_t gg_kernel_pool (void) ;

// *ws = bytes of scratch from that pool, stream-ordered on stream (the caller
// frees it with cudaFreeAsync on the same stream): GG_OK, GG_ERR_DEVICE (no
// pool) or GG_ERR_DEVMEM (the allocation failed; the error is cleared).
int gg_kernel_scratch (void **ws, size_t bytes, cudaStream_t stream) ;

// The current device's number of SMs, asked once per device
// (kernels/gg_device.cu; 0 if unknown).
int gg_device_sms (void) ;

static inline int gg_launch_status (void)
{
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

#endif
