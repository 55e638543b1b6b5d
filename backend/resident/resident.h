//------------------------------------------------------------------------------
// backend/resident/resident.h: results kept on the device (the registry)
//------------------------------------------------------------------------------

// A product whose result is fully determined by the device (no mask, no
// accumulator, C of the product's type, every entry present) may leave its
// values in a buffer of the backend instead of writing them into C.  C then
// holds its exact structure (full) with a single iso placeholder value, and
// is registered here (a vector may also hold a pattern: sparse or bitmap,
// gg_resident.pattern).  Every exported GraphBLAS function that may read or
// change a matrix / vector materialises it first (the generated wrappers
// call grbgpu_resident_touch, declared in backend/grbgpu_internal.h): the
// values come down into an array from GraphBLAS's memory functions and are
// packed into C.  GrB_free drops the device copy without a download.  The
// device path (backend/dispatch/dispatch.c) reads a resident operand in place
// and may keep its own result resident.  The registry stays within
// GRBGPU_DEVICE_MEMORY by materialising the least recently used entries.

#ifndef GG_RESIDENT_H
#define GG_RESIDENT_H

#include "backend/grbgpu_internal.h"

// What a resident object holds (a copy; the buffer stays valid while pinned).
typedef struct
{
    const gg_backend *be ;  // the backend that owns buf
    void *buf ;             // nrows*ncols values of zt, row-major (by_col:
                            // column-major)
    size_t bytes ;
    gg_type zt ;
    int64_t nrows, ncols ;
    bool by_col ;
    bool is_vector ;
    // A vector on a pattern (NULL: full): n bytes of the backend's memory
    // inside buf (after the values), pattern [i] set where the object has an
    // entry; the object holds that structure (sparse or bitmap) with a
    // placeholder value, and buf holds 0 elsewhere, which nothing reads
    const int8_t *pattern ;
    int64_t nvals ;         // entries of a vector on a pattern
    // the vector whose pattern it took (vec_pattern.c), that vector's version
    // and storage then (gg_view.storage): while they are unchanged, the
    // object's structure is still what the CPU library would give it again
    const void *src ;
    uint64_t src_version ;
    int src_storage ;
    // A matrix on a pattern (on_csr; backend/resident/resident_csr.c): nvals
    // values in buf, in the order of the entries of csr, the CSR pattern
    // (host arrays, values unread) of the matrix whose structure it took
    // (an SDDMM's mask), a cache entry (csr.cache) that the registry holds a
    // reference to while the object is resident; the object holds that
    // structure, by row, with an iso placeholder value
    bool on_csr ;
    gg_csr csr ;
    // A matrix of full and absent rows (on_rows; an SpMM's result whose
    // sparse operand, csr, has rows without entries): nrows*ncols values in
    // buf, row-major, the absent rows' unread; the rows present are those
    // where csr (a cache entry referenced as for on_csr) has entries; the
    // object holds that structure (a bitmap by row, as GraphBLAS conforms
    // it) with an iso placeholder value
    bool on_rows ;
}
gg_resident ;

// the cache entry a resident object references (on_csr, on_rows), or NULL
static inline void *grbgpu_resident_cache_ref (const gg_resident *r)
{
    return (r->on_csr || r->on_rows) ? r->csr.cache : NULL ;
}

// Is residency on, and does this backend support it?
GG_INTERNAL bool grbgpu_resident_enabled (const gg_backend *be) ;

// Inside grbgpu's device path the thread's GraphBLAS calls do not
// materialise (the path materialises what it reads itself): +1 on entry,
// -1 on exit.
GG_INTERNAL void grbgpu_resident_quiet (int delta) ;
// Is this thread inside grbgpu's device path (its GraphBLAS calls are
// grbgpu's own: they go to the CPU library, not counted as intercepted)?
GG_INTERNAL bool grbgpu_resident_is_quiet (void) ;

// When obj is resident: pin it (it is neither evicted nor freed until
// grbgpu_resident_unpin), copy its description to *r, and return true.
GG_INTERNAL bool grbgpu_resident_pin (const void *obj, gg_resident *r) ;
GG_INTERNAL void grbgpu_resident_unpin (const void *obj, void *buf) ;

// Is obj resident now (a hint: it may come down at any time)?
GG_INTERNAL bool grbgpu_resident_has (const void *obj) ;

// obj's device copy freed unread (no download; obj keeps its placeholder):
// for an output that the call overwrites whole on the host
GG_INTERNAL void grbgpu_resident_drop (const void *obj) ;
// Materialise obj if it is resident (why: for the verbose log).  Returns
// GrB_SUCCESS, or the error that left obj resident (its values unchanged).
GG_INTERNAL GrB_Info grbgpu_resident_materialise (const void *obj,
    const char *why) ;

// Room for a resident result of `bytes` on be: evicts least recently used
// entries (materialising them) to stay within the limit.  NULL: it does not
// fit or the backend is out of memory (write back as usual).
GG_INTERNAL void *grbgpu_resident_alloc (const gg_backend *be, size_t bytes) ;
GG_INTERNAL void grbgpu_resident_release (const gg_backend *be, void *buf,
    size_t bytes) ;

// Make obj hold the result in buf (from grbgpu_resident_alloc): obj gets
// its structure (full, one iso placeholder value) and is registered; a
// previous device copy of obj is freed.  On error buf is freed and obj and
// its registration are unchanged (the caller answers through the CPU
// library).
GG_INTERNAL GrB_Info grbgpu_resident_keep (GrB_Matrix obj, const gg_resident *r) ;

// As grbgpu_resident_keep for a vector that already holds its structure
// with a placeholder value (the CPU library made it, backend/dispatch/
// vec_pattern.c): sparse or bitmap with r->pattern set, or full with
// r->pattern NULL.  Registers it; packs nothing.
GG_INTERNAL GrB_Info grbgpu_resident_keep_as_is (GrB_Vector obj, const gg_resident *r) ;

// As grbgpu_resident_keep for a matrix on a pattern (r->on_csr, r->csr with
// its cache entry, r->nvals == r->csr.nnz values in r->buf: obj (by row)
// gets csr's structure) or of full and absent rows (r->on_rows: obj gets
// the bitmap of csr's rows with entries): an iso placeholder value, then
// registered (holding a reference to csr's cache entry).  On error buf is
// freed and obj is unchanged.
GG_INTERNAL GrB_Info grbgpu_resident_keep_csr (GrB_Matrix obj, const gg_resident *r) ;

// obj's values, pinned by the caller in old_buf, are replaced by buf (from
// grbgpu_resident_alloc, of the same size): old_buf goes at its last unpin.
// False (nothing changed) when obj no longer holds old_buf.
GG_INTERNAL bool grbgpu_resident_rebuf (const void *obj, void *old_buf, void *buf) ;

// Bytes held and objects registered (for tests).
GG_INTERNAL size_t grbgpu_resident_bytes (void) ;
GG_INTERNAL int grbgpu_resident_objects (void) ;

#endif
