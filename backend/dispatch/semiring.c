//------------------------------------------------------------------------------
// backend/dispatch/semiring.c: the semirings the kernels run, and their checks
//------------------------------------------------------------------------------

// A semiring is recognised by its (monoid operator, multiply operator) pair,
// not by its pointer, so that user-built semirings made of built-in operators
// are recognised; the monoid's identity and terminal value must be the
// standard ones (a user monoid PLUS with identity 1 is a different monoid).
// The library's own objects (built-in semirings, descriptors) are known by
// where they lie, so that what was asked of them once is remembered.

#include "config.h"
#include "backend/dispatch/semiring.h"
#include "backend/storage/storage.h"

#include <link.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

//------------------------------------------------------------------------------
// the library's own objects
//------------------------------------------------------------------------------

// The library's built-in objects (semirings, monoids, operators, types) are
// static: they lie in the loaded segments of the library itself (found once,
// from GrB_PLUS_TIMES_SEMIRING_FP64, by dl_iterate_phdr), never change and
// are never freed.  No object the program creates can lie there: those come
// from malloc or from the memory functions the program gave GxB_init.  When
// the library is part of the program's own image (linked statically), the
// program's memory functions could hand out memory from that image: then no
// address counts as the library's.

#define MAX_SEGMENTS 16
static uintptr_t lib_lo [MAX_SEGMENTS], lib_hi [MAX_SEGMENTS] ;
static int n_segments = 0 ;

static int find_library (struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size ;
    const uintptr_t p = (uintptr_t) data ;
    bool inside = false ;
    for (int k = 0 ; k < info->dlpi_phnum ; k++)
    {
        const ElfW (Phdr) *ph = &info->dlpi_phdr [k] ;
        uintptr_t lo = (uintptr_t) (info->dlpi_addr + ph->p_vaddr) ;
        if (ph->p_type == PT_LOAD && p >= lo && p - lo < ph->p_memsz) inside = true ;
    }
    if (!inside) return 0 ;
    if (info->dlpi_name == NULL || info->dlpi_name [0] == '\0') return 1 ;  // the program
    for (int k = 0 ; k < info->dlpi_phnum && n_segments < MAX_SEGMENTS ; k++)
    {
        const ElfW (Phdr) *ph = &info->dlpi_phdr [k] ;
        if (ph->p_type != PT_LOAD) continue ;
        lib_lo [n_segments] = (uintptr_t) (info->dlpi_addr + ph->p_vaddr) ;
        lib_hi [n_segments] = lib_lo [n_segments] + ph->p_memsz ;
        n_segments++ ;
    }
    return 1 ;
}

bool grbgpu_in_library (const void *object)
{
    const uintptr_t p = (uintptr_t) object ;
    for (int k = 0 ; k < n_segments ; k++) if (p >= lib_lo [k] && p < lib_hi [k]) return true ;
    return false ;
}

//------------------------------------------------------------------------------
// operator tables
//------------------------------------------------------------------------------

typedef struct { GrB_BinaryOp op ; int kind ; gg_type type ; } op_entry ;

#define MAX_OPS 160
static op_entry mul_table [MAX_OPS], add_table [MAX_OPS] ;
static int n_mul = 0, n_add = 0 ;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT ;
static _Atomic bool tables_built = false ;  // (spares later calls pthread_once)
static GrB_Type ztypes [GG_NTYPES] ;    // grbgpu_grb_type, looked up once

// Each table is looked up through a small open-addressing index keyed by the
// operator's address: a linear search of the ~80 entries was a fifth of the
// instructions of classifying a declined call.  The index holds each
// address's first entry, as the search did.
#define OP_INDEX_SIZE 512       // a power of 2, over twice MAX_OPS
static uint16_t mul_index [OP_INDEX_SIZE], add_index [OP_INDEX_SIZE] ;  // entry + 1; 0: empty

static inline uint32_t op_hash (GrB_BinaryOp op)
{
    // Fibonacci hashing: the top 9 bits of the address times 2^64/phi
    return (uint32_t) (((uint64_t) (uintptr_t) op * 0x9E3779B97F4A7C15ULL) >> 55) ;
}

static void build_index (const op_entry *table, int n, uint16_t *index)
{
    for (int k = 0 ; k < n ; k++)
    {
        if (table [k].op == NULL) continue ;    // (found by a search instead)
        uint32_t h = op_hash (table [k].op) ;
        while (index [h] != 0 && table [index [h] - 1].op != table [k].op)
        {
            h = (h + 1) & (OP_INDEX_SIZE - 1) ;
        }
        if (index [h] == 0) index [h] = (uint16_t) (k + 1) ;
    }
}

static void add_mul (GrB_BinaryOp op, gg_mul kind, gg_type t)
{
    if (n_mul < MAX_OPS) mul_table [n_mul++] = (op_entry) { op, (int) kind, t } ;
}
static void add_add (GrB_BinaryOp op, gg_add kind, gg_type t)
{
    if (n_add < MAX_OPS) add_table [n_add++] = (op_entry) { op, (int) kind, t } ;
}

// The multiplies and monoid operators of one non-boolean type.
#define TABLE_TYPE(T, GT)                                                   \
    add_mul (GrB_TIMES_##T, GG_MUL_TIMES, GT) ;                             \
    add_mul (GrB_FIRST_##T, GG_MUL_FIRST, GT) ;                             \
    add_mul (GrB_SECOND_##T, GG_MUL_SECOND, GT) ;                           \
    add_mul (GxB_PAIR_##T, GG_MUL_PAIR, GT) ;                               \
    add_mul (GrB_ONEB_##T, GG_MUL_PAIR, GT) ;                               \
    add_mul (GrB_PLUS_##T, GG_MUL_PLUS, GT) ;                               \
    add_mul (GrB_MIN_##T, GG_MUL_MIN, GT) ;                                 \
    add_mul (GrB_MAX_##T, GG_MUL_MAX, GT) ;                                 \
    add_mul (GxB_LAND_##T, GG_MUL_LAND, GT) ;                               \
    add_mul (GxB_LOR_##T, GG_MUL_LOR, GT) ;                                 \
    add_add (GrB_PLUS_##T, GG_ADD_PLUS, GT) ;                               \
    add_add (GrB_TIMES_##T, GG_ADD_TIMES, GT) ;                             \
    add_add (GrB_MIN_##T, GG_ADD_MIN, GT) ;                                 \
    add_add (GrB_MAX_##T, GG_ADD_MAX, GT) ;                                 \
    add_add (GxB_ANY_##T, GG_ADD_ANY, GT) ;

static void build_tables (void)
{
    TABLE_TYPE (INT32, GG_INT32)
    TABLE_TYPE (INT64, GG_INT64)
    TABLE_TYPE (UINT32, GG_UINT32)
    TABLE_TYPE (UINT64, GG_UINT64)
    TABLE_TYPE (FP32, GG_FP32)
    TABLE_TYPE (FP64, GG_FP64)
    // BOOL: GraphBLAS renames PLUS, MAX -> LOR and TIMES, MIN -> LAND
    add_mul (GrB_TIMES_BOOL, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GrB_MIN_BOOL, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GxB_LAND_BOOL, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GrB_LAND, GG_MUL_LAND, GG_BOOL) ;
    add_mul (GrB_PLUS_BOOL, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GrB_MAX_BOOL, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GxB_LOR_BOOL, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GrB_LOR, GG_MUL_LOR, GG_BOOL) ;
    add_mul (GrB_FIRST_BOOL, GG_MUL_FIRST, GG_BOOL) ;
    add_mul (GrB_SECOND_BOOL, GG_MUL_SECOND, GG_BOOL) ;
    add_mul (GxB_PAIR_BOOL, GG_MUL_PAIR, GG_BOOL) ;
    add_mul (GrB_ONEB_BOOL, GG_MUL_PAIR, GG_BOOL) ;
    add_add (GrB_PLUS_BOOL, GG_ADD_LOR, GG_BOOL) ;
    add_add (GrB_MAX_BOOL, GG_ADD_LOR, GG_BOOL) ;
    add_add (GxB_LOR_BOOL, GG_ADD_LOR, GG_BOOL) ;
    add_add (GrB_LOR, GG_ADD_LOR, GG_BOOL) ;
    add_add (GrB_TIMES_BOOL, GG_ADD_LAND, GG_BOOL) ;
    add_add (GrB_MIN_BOOL, GG_ADD_LAND, GG_BOOL) ;
    add_add (GxB_LAND_BOOL, GG_ADD_LAND, GG_BOOL) ;
    add_add (GrB_LAND, GG_ADD_LAND, GG_BOOL) ;
    add_add (GxB_ANY_BOOL, GG_ADD_ANY, GG_BOOL) ;
    build_index (mul_table, n_mul, mul_index) ;
    build_index (add_table, n_add, add_index) ;
    dl_iterate_phdr (find_library, (void *) GrB_PLUS_TIMES_SEMIRING_FP64) ;
    for (int t = 0 ; t < GG_NTYPES ; t++) ztypes [t] = grbgpu_grb_type ((gg_type) t) ;
}

static const op_entry *find_op (const op_entry *table, int n,
    const uint16_t *index, GrB_BinaryOp op)
{
    if (op == NULL)
    {
        for (int k = 0 ; k < n ; k++) if (table [k].op == op) return &table [k] ;
        return NULL ;
    }
    for (uint32_t h = op_hash (op) ; index [h] != 0 ; h = (h + 1) & (OP_INDEX_SIZE - 1))
    {
        if (table [index [h] - 1].op == op) return &table [index [h] - 1] ;
    }
    return NULL ;
}

//------------------------------------------------------------------------------
// the standard identity and terminal of a monoid, as 8 bytes
//------------------------------------------------------------------------------

typedef union { uint8_t b ; int32_t i32 ; int64_t i64 ; uint32_t u32 ;
    uint64_t u64 ; float f32 ; double f64 ; } gg_scalar ;

// identity (which == 0) or terminal (which == 1); returns false if the
// standard monoid has no terminal value.
static bool standard_value (gg_add add, gg_type t, int which, gg_scalar *v)
{
    memset (v, 0, sizeof (*v)) ;
    // value: 0 = zero, 1 = one, 2 = the type's minimum, 3 = the maximum
    int what ;
    switch (add)
    {
        case GG_ADD_PLUS:  if (which) return false ; what = 0 ; break ;
        case GG_ADD_TIMES:
            if (!which) { what = 1 ; break ; }
            if (t == GG_FP32 || t == GG_FP64) return false ;
            what = 0 ; break ;
        case GG_ADD_MIN:   what = which ? 2 : 3 ; break ;
        case GG_ADD_MAX:   what = which ? 3 : 2 ; break ;
        case GG_ADD_LOR:   what = which ? 1 : 0 ; break ;
        case GG_ADD_LAND:  what = which ? 0 : 1 ; break ;
        case GG_ADD_ANY:   return false ;   // checked separately
        default: return false ;
    }
    switch (t)
    {
        case GG_BOOL:   v->b = (what == 1 || what == 3) ; break ;
        case GG_INT32:  v->i32 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? INT32_MIN : INT32_MAX ; break ;
        case GG_INT64:  v->i64 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? INT64_MIN : INT64_MAX ; break ;
        case GG_UINT32: v->u32 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? 0 : UINT32_MAX ; break ;
        case GG_UINT64: v->u64 = what == 0 ? 0 : what == 1 ? 1 : what == 2 ? 0 : UINT64_MAX ; break ;
        case GG_FP32:   v->f32 = what == 0 ? 0.0f : what == 1 ? 1.0f : what == 2 ? -INFINITY : INFINITY ; break ;
        case GG_FP64:   v->f64 = what == 0 ? 0.0 : what == 1 ? 1.0 : what == 2 ? -INFINITY : INFINITY ; break ;
        default: return false ;
    }
    return true ;
}

//------------------------------------------------------------------------------
// the semiring
//------------------------------------------------------------------------------

// What the semiring alone decides, as a verdict: its text is the reason to
// decline.
typedef enum
{
    SR_OK = 0, SR_MUL_UNSUPPORTED, SR_MONOID_UNSUPPORTED, SR_TYPES,
    SR_IDENTITY, SR_TERMINAL, SR_INVALID, SR_MONOID_INVALID, SR_NVERDICTS
}
sr_verdict ;

static const char *const sr_why [SR_NVERDICTS] =
{
    NULL,
    "multiply operator not supported",
    "monoid not supported",
    "invalid arguments (semiring types)",
    "monoid has a non-standard identity",
    "monoid has a non-standard terminal value",
    "invalid arguments (semiring)",
    "monoid is not valid"
} ;

// Is this monoid the standard one for its operator?
static sr_verdict check_monoid (GrB_Monoid monoid, gg_add add, gg_type t)
{
    const size_t sz = gg_type_size (t) ;
    gg_scalar id, want, term ;
    memset (&id, 0, sizeof (id)) ;
    memset (&term, 0, sizeof (term)) ;
    bool has_terminal = false ;
    if (GxB_Monoid_identity (&id, monoid) != GrB_SUCCESS) return SR_MONOID_INVALID ;
    if (GxB_Monoid_terminal (&has_terminal, &term, monoid) != GrB_SUCCESS) return SR_MONOID_INVALID ;
    if (add == GG_ADD_ANY) return SR_OK ;   // any identity/terminal: any value will do
    if (standard_value (add, t, 0, &want) && memcmp (&id, &want, sz) != 0)
    {
        return SR_IDENTITY ;
    }
    if (has_terminal)
    {
        // a terminal value lets the library stop early: it must be the
        // standard one, or results would differ
        if (!standard_value (add, t, 1, &want) || memcmp (&term, &want, sz) != 0)
        {
            return SR_TERMINAL ;
        }
    }
    return SR_OK ;
}

// The semiring's operators and monoid, asked of GraphBLAS (sr is set when
// the verdict is SR_OK).
static sr_verdict check_semiring (GrB_Semiring semiring, gg_semiring *sr)
{
    GrB_Monoid monoid = NULL ;
    GrB_BinaryOp mulop = NULL, addop = NULL ;
    if (GxB_Semiring_add (&monoid, semiring) != GrB_SUCCESS
        || GxB_Semiring_multiply (&mulop, semiring) != GrB_SUCCESS
        || GxB_Monoid_operator (&addop, monoid) != GrB_SUCCESS)
    {
        return SR_INVALID ;
    }
    const op_entry *me = find_op (mul_table, n_mul, mul_index, mulop) ;
    const op_entry *ae = find_op (add_table, n_add, add_index, addop) ;
    if (me == NULL) return SR_MUL_UNSUPPORTED ;
    if (ae == NULL) return SR_MONOID_UNSUPPORTED ;
    if (ae->type != me->type) return SR_TYPES ;
    sr_verdict v = check_monoid (monoid, (gg_add) ae->kind, ae->type) ;
    if (v != SR_OK) return v ;
    sr->add = (gg_add) ae->kind ;
    sr->mul = (gg_mul) me->kind ;
    sr->type = me->type ;
    return SR_OK ;
}

//------------------------------------------------------------------------------
// the verdicts of the library's own semirings, remembered
//------------------------------------------------------------------------------

// Asking GraphBLAS about a semiring and its monoid takes five calls (two of
// them with a memory fence) on every product.  The library's built-in
// semirings are static objects that never change and are never freed, so
// their verdict is remembered, keyed by address.  A semiring the program
// made (GrB_Semiring_new) is never remembered: it may be freed and another,
// with other operators, made at the same address.
//
// One word per entry, read and written whole (no lock; a lost or overwritten
// entry is only asked again): the semiring's address << 16 | 1 << 15 | the
// verdict | add << 3 | mul << 6 | type << 10; 0 is empty.  Addresses must fit
// in 48 bits (user space on x86-64 and AArch64 with 4-level page tables;
// others are not remembered).
#define SR_MEMO 64              // a power of 2
static _Atomic uint64_t sr_memo [SR_MEMO] ;
_Static_assert (SR_NVERDICTS <= 8 && GG_NADD <= 8 && GG_NMUL <= 16 && GG_NTYPES <= 8,
    "a semiring's verdict must fit in its 15 bits") ;

static sr_verdict semiring_verdict (GrB_Semiring semiring, gg_semiring *sr)
{
    const uint64_t key = (uint64_t) (uintptr_t) semiring ;
    const uint32_t h = (uint32_t) ((key * 0x9E3779B97F4A7C15ULL) >> 58) ;
    uint64_t e = atomic_load_explicit (&sr_memo [h], memory_order_relaxed) ;
    if (e != 0 && (e >> 16) == key)
    {
        sr->add = (gg_add) ((e >> 3) & 7) ;
        sr->mul = (gg_mul) ((e >> 6) & 15) ;
        sr->type = (gg_type) ((e >> 10) & 7) ;
        return (sr_verdict) (e & 7) ;
    }
    sr_verdict v = check_semiring (semiring, sr) ;
    // (an invalid semiring or monoid is not remembered: before GrB_init every
    // query fails)
    if (v != SR_INVALID && v != SR_MONOID_INVALID && key < ((uint64_t) 1 << 48)
        && grbgpu_in_library (semiring))
    {
        e = (key << 16) | ((uint64_t) 1 << 15) | (uint64_t) v ;
        if (v == SR_OK)
        {
            e |= ((uint64_t) sr->add << 3) | ((uint64_t) sr->mul << 6) | ((uint64_t) sr->type << 10) ;
        }
        atomic_store_explicit (&sr_memo [h], e, memory_order_relaxed) ;
    }
    return v ;
}

//------------------------------------------------------------------------------
// what classify.c asks
//------------------------------------------------------------------------------

void grbgpu_semiring_init (void)
{
    if (!atomic_load_explicit (&tables_built, memory_order_acquire))
    {
        pthread_once (&tables_once, build_tables) ;
        atomic_store_explicit (&tables_built, true, memory_order_release) ;
    }
}

const char *grbgpu_semiring_check (GrB_Semiring semiring, gg_semiring *sr)
{
    sr_verdict verdict = semiring_verdict (semiring, sr) ;
    return (verdict == SR_OK) ? NULL : sr_why [verdict] ;
}

GrB_Type grbgpu_semiring_ztype (gg_type t)
{
    return ztypes [t] ;
}
