//------------------------------------------------------------------------------
// formats/nm.c: N:M detection (one early-exit pass)
//------------------------------------------------------------------------------

// Detection follows every group size M = 2, 4, 8, 16, 32 at once.  The entries
// of one 32-position window (of one row, or the union over a block of V rows)
// become a 32-bit mask; the steps of a SWAR popcount of that mask are exactly
// the entry counts of its aligned sub-windows of 2, 4, 8, 16 and 32 positions,
// so one mask gives the group counts of every level.  A level dies as soon as
// one group exceeds its cap (the most N it may have: M/2, and no more than
// its fill allows); the pass stops when every level is dead.  What remains
// says, per M, the smallest N that holds (the most entries in one group).
//
// See nm.h for the definitions (orientation, vector-wise blocks, partial last
// group, packed layout); the packed form is built in formats/nm_pack.c.

#include "formats/nm_private.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void gg_nm_opts_default (gg_nm_opts *opts)
{
    opts->orient = GG_NM_ROWS ;
    opts->v = 1 ;
    opts->min_fill = GG_NM_MIN_FILL_DEFAULT ;
}

//------------------------------------------------------------------------------
// group counts of a 32-position window
//------------------------------------------------------------------------------

// The largest field of x, fields of w bits (w divides 32).
static inline int max_field (uint32_t x, int w)
{
    const uint32_t fmask = (w == 32) ? 0xFFFFFFFFu : ((1u << w) - 1) ;
    int best = 0 ;
    for (int sh = 0 ; sh < 32 ; sh += w)
    {
        int c = (int) ((x >> sh) & fmask) ;
        if (c > best) best = c ;
    }
    return best ;
}

// Whether some w-bit field of c exceeds t (w = M = 4, 8 or 16; lo has a 1 in
// each field).  A field counts at most M <= 2^(w-1) - 1 entries and t <= M:
// adding 2^(w-1) - 1 - t (>= 0) to each field carries into its top bit
// exactly when the field is above t, and never out of the field.
static inline bool field_exceeds (uint32_t c, int w, uint32_t lo, int t)
{
    const uint32_t add = lo * (uint32_t) ((1 << (w - 1)) - 1 - t) ;
    return ((c + add) & (lo << (w - 1))) != 0 ;
}

// mx [l] = max (mx [l], the most entries in one group of 2 << l positions
// within the window whose entries are the bits of x), for the live levels.
// The exact maximum is taken only when it grows (at most M times).
static inline void window_counts (uint32_t x, int *mx, unsigned live)
{
    // c2: 2-bit fields counting pairs; c4: 4-bit fields counting quads, ...
    const uint32_t c2 = x - ((x >> 1) & 0x55555555u) ;
    const uint32_t c4 = (c2 & 0x33333333u) + ((c2 >> 2) & 0x33333333u) ;
    const uint32_t c8 = (c4 + (c4 >> 4)) & 0x0F0F0F0Fu ;
    const uint32_t c16 = (c8 + (c8 >> 8)) & 0x00FF00FFu ;
    const uint32_t c32 = (c16 + (c16 >> 16)) & 0x0000FFFFu ;
    if (live & 1u)
    {
        // a pair holds 2 exactly when its high bit of c2 is set
        int c = (c2 & 0xAAAAAAAAu) ? 2 : (x != 0) ;
        if (c > mx [0]) mx [0] = c ;
    }
    if ((live & 2u) && field_exceeds (c4, 4, 0x11111111u, mx [1]))
    {
        mx [1] = max_field (c4, 4) ;
    }
    if ((live & 4u) && field_exceeds (c8, 8, 0x01010101u, mx [2]))
    {
        mx [2] = max_field (c8, 8) ;
    }
    if ((live & 8u) && field_exceeds (c16, 16, 0x00010001u, mx [3]))
    {
        mx [3] = max_field (c16, 16) ;
    }
    if ((live & 16u) && (int) c32 > mx [4]) mx [4] = (int) c32 ;
}

// the levels whose running maximum is still within their cap
static inline unsigned live_levels (const int *mx, const int *cap)
{
    unsigned live = 0 ;
    for (int l = 0 ; l < GG_NM_NLEVELS ; l++)
    {
        if (mx [l] <= cap [l]) live |= 1u << l ;
    }
    return live ;
}

//------------------------------------------------------------------------------
// gg_nm_detect
//------------------------------------------------------------------------------

// The pass is cut into units of CSR rows: a block of V rows (GG_NM_ROWS: the
// rows whose positions are united), or 32 rows (GG_NM_COLS: one window of the
// reduction dimension).  Within a unit, each entry sets bit b of the window
// mask with key w: GG_NM_ROWS: w = column / 32, b = column % 32; GG_NM_COLS:
// w = column / V (the block of V columns), b = row % 32.  Every touched mask
// is counted when the unit ends.  GG_NM_ROWS with V = 1 needs no masks: the
// columns of a row are sorted, so its windows come one after another.

typedef struct
{
    const int32_t *p, *i ;      // the CSR
    int64_t nrows ;
    bool by_rows ;              // GG_NM_ROWS
    bool stream ;               // GG_NM_ROWS with V = 1: no masks
    int64_t v ;
    int vshift ;                // v = 2^vshift, or -1 (a division per entry)
    int64_t unit_rows ;         // V (GG_NM_ROWS) or 32 (GG_NM_COLS)
    int64_t nkeys ;             // masks a unit may touch
}
scan_plan ;

typedef struct
{
    uint32_t *mask ;            // per key
    int64_t *stamp ;            // the unit that last touched the key
    int32_t *touched ;          // keys touched in this unit
}
scan_scratch ;

static bool scratch_alloc (scan_scratch *s, const scan_plan *sp)
{
    memset (s, 0, sizeof (*s)) ;
    if (sp->stream) return true ;
    s->mask = malloc ((size_t) sp->nkeys * sizeof (uint32_t)) ;
    s->stamp = malloc ((size_t) sp->nkeys * sizeof (int64_t)) ;
    s->touched = malloc ((size_t) sp->nkeys * sizeof (int32_t)) ;
    if (s->mask == NULL || s->stamp == NULL || s->touched == NULL) return false ;
    for (int64_t w = 0 ; w < sp->nkeys ; w++) s->stamp [w] = -1 ;
    return true ;
}

static void scratch_free (scan_scratch *s)
{
    free (s->mask) ;
    free (s->stamp) ;
    free (s->touched) ;
}

// Count the groups of unit u into mx (live levels only).
static void scan_unit (const scan_plan *sp, int64_t u, scan_scratch *s,
    int *mx, unsigned live)
{
    const int32_t *Ap = sp->p, *Ai = sp->i ;
    const int64_t r0 = u * sp->unit_rows ;
    const int64_t r1 = (r0 + sp->unit_rows < sp->nrows) ? r0 + sp->unit_rows : sp->nrows ;
    if (sp->stream)
    {
        // one row: its sorted columns visit its windows in order
        uint32_t mask = 0 ;
        int64_t w = -1 ;
        for (int64_t q = Ap [r0] ; q < Ap [r0+1] ; q++)
        {
            const int64_t c = Ai [q] ;
            if ((c >> 5) != w)
            {
                if (mask) window_counts (mask, mx, live) ;
                w = c >> 5 ;
                mask = 0 ;
            }
            mask |= 1u << (c & 31) ;
        }
        if (mask) window_counts (mask, mx, live) ;
        return ;
    }
    int64_t ntouched = 0 ;
    for (int64_t r = r0 ; r < r1 ; r++)
    {
        for (int64_t q = Ap [r] ; q < Ap [r+1] ; q++)
        {
            const int64_t c = Ai [q] ;
            const int64_t w = sp->by_rows ? (c >> 5)
                : (sp->vshift >= 0 ? (c >> sp->vshift) : (c / sp->v)) ;
            const uint32_t bit = 1u << (sp->by_rows ? (c & 31) : (r & 31)) ;
            if (s->stamp [w] != u)
            {
                s->stamp [w] = u ;
                s->mask [w] = 0 ;
                s->touched [ntouched++] = (int32_t) w ;
            }
            s->mask [w] |= bit ;
        }
    }
    for (int64_t t = 0 ; t < ntouched ; t++)
    {
        window_counts (s->mask [s->touched [t]], mx, live) ;
    }
}

int gg_nm_detect (gg_nm_info *info, const gg_csr *A, const gg_nm_opts *opts)
{
    memset (info, 0, sizeof (*info)) ;
    for (int l = 0 ; l < GG_NM_NLEVELS ; l++) info->max_count [l] = -1 ;

    //--------------------------------------------------------------------------
    // check inputs
    //--------------------------------------------------------------------------

    if (A->p32 == NULL || A->i32 == NULL) return GG_ERR_UNSUPPORTED ;
    if (opts->v < 1 || opts->v > GG_NM_MAX_V || opts->min_fill < 0
        || opts->min_fill > 1) return GG_ERR_UNSUPPORTED ;
    const bool by_rows = (opts->orient == GG_NM_ROWS) ;
    const int64_t V = opts->v ;
    const int64_t R = by_rows ? A->nrows : A->ncols ;   // output positions
    const int64_t K = by_rows ? A->ncols : A->nrows ;   // reduction length
    const int64_t nnz = A->p32 [A->nrows] ;
    info->rows = R ;
    info->k = K ;

    //--------------------------------------------------------------------------
    // caps: the largest N each M may still have
    //--------------------------------------------------------------------------

    // cap [l] = min (M/2, nnz / (min_fill * R * G)) for M = 2 << l, G its
    // groups per row: no more than half of a group, and padding no more than
    // min_fill allows.  A level is excluded (cap -1) when M > K, or when even
    // that cap cannot hold nnz entries in R*G groups (too dense), or is < 1
    // (too sparse).
    int cap [GG_NM_NLEVELS] ;
    bool any = false, too_dense = false ;
    for (int l = 0 ; l < GG_NM_NLEVELS ; l++)
    {
        const int64_t M = 2 << l ;
        cap [l] = -1 ;
        if (M > K || R == 0 || nnz == 0) continue ;
        const int64_t G = ceil_div (K, M) ;
        int64_t c = M / 2 ;
        if (opts->min_fill > 0)
        {
            double fill_cap = (double) nnz / (opts->min_fill * (double) R * (double) G) ;
            if (fill_cap < (double) c) c = (int64_t) fill_cap ;
        }
        if (c < 1) continue ;
        if ((double) nnz > (double) R * (double) G * (double) c)
        {
            too_dense = true ;
            continue ;
        }
        cap [l] = (int) c ;
        any = true ;
    }
    if (!any)
    {
        info->reason = (nnz == 0 || R == 0) ? "no entries"
            : (K < 2) ? "reduction dimension shorter than 2"
            : too_dense ? "too dense: more than half of the positions hold entries"
            : "too sparse: packed groups would be mostly padding" ;
        return GG_OK ;
    }

    //--------------------------------------------------------------------------
    // the pass, abandoned when every level died
    //--------------------------------------------------------------------------

    // The first 2^20 entries are scanned by one thread: a matrix that is not
    // N:M is almost always refused there, before any thread starts.  The rest
    // is split over threads by units; a thread that sees every level die
    // stops the others.
    scan_plan sp ;
    sp.p = A->p32 ;
    sp.i = A->i32 ;
    sp.nrows = A->nrows ;
    sp.by_rows = by_rows ;
    sp.stream = by_rows && V == 1 ;
    sp.v = V ;
    sp.vshift = ((V & (V - 1)) == 0) ? __builtin_ctzll ((unsigned long long) V) : -1 ;
    sp.unit_rows = by_rows ? V : 32 ;
    sp.nkeys = by_rows ? ceil_div (K, 32) : ceil_div (A->ncols, V) ;
    const int64_t nunits = ceil_div (A->nrows, sp.unit_rows) ;
    int mx_all [GG_NM_NLEVELS] = { 0 } ;
    unsigned live_all = live_levels (mx_all, cap) ;
    int64_t u_split = 0 ;
    {
        scan_scratch s ;
        if (!scratch_alloc (&s, &sp)) { scratch_free (&s) ; return GG_ERR_NOMEM ; }
        for ( ; u_split < nunits && live_all != 0 ; u_split++)
        {
            if (A->p32 [u_split * sp.unit_rows] >= (1 << 20)) break ;
            scan_unit (&sp, u_split, &s, mx_all, live_all) ;
            live_all = live_levels (mx_all, cap) ;
        }
        scratch_free (&s) ;
    }

    if (live_all != 0 && u_split < nunits)
    {
        int nthreads = 1 ;
#ifdef _OPENMP
        if (!omp_in_parallel ()) nthreads = omp_get_max_threads () ;
#endif
        (void) nthreads ;           // (unused without OpenMP)
        atomic_int stop = 0 ;       // 1: every level died; 2: out of memory
        #pragma omp parallel num_threads (nthreads)
        {
            int mx [GG_NM_NLEVELS] ;
            memcpy (mx, mx_all, sizeof (mx)) ;
            unsigned live = live_all ;
            scan_scratch s ;
            if (!scratch_alloc (&s, &sp)) atomic_store (&stop, 2) ;
            #pragma omp for schedule (dynamic, 64)
            for (int64_t u = u_split ; u < nunits ; u++)
            {
                if (atomic_load_explicit (&stop, memory_order_relaxed)) continue ;
                scan_unit (&sp, u, &s, mx, live) ;
                live = live_levels (mx, cap) ;
                if (live == 0) atomic_store (&stop, 1) ;
            }
            scratch_free (&s) ;
            #pragma omp critical (gg_nm_detect_merge)
            for (int l = 0 ; l < GG_NM_NLEVELS ; l++)
            {
                if (mx [l] > mx_all [l]) mx_all [l] = mx [l] ;
            }
        }
        if (atomic_load (&stop) == 2) return GG_ERR_NOMEM ;
    }

    //--------------------------------------------------------------------------
    // the pair of least N/M among the levels that survived
    //--------------------------------------------------------------------------

    // (a level that survived was followed over every group: its maximum is
    // exact; a dead one is reported as -1)
    int best = -1, best_n = 0 ;
    for (int l = 0 ; l < GG_NM_NLEVELS ; l++)
    {
        if (cap [l] < 0 || mx_all [l] > cap [l]) continue ;
        const int n = mx_all [l] > 0 ? mx_all [l] : 1 ;
        info->max_count [l] = mx_all [l] ;
        // n / M < best_n / best_M, in integers; ties keep the smaller M
        if (best < 0 || (int64_t) n * (2 << best) < (int64_t) best_n * (2 << l))
        {
            best = l ;
            best_n = n ;
        }
    }
    if (best < 0)
    {
        info->reason = "a group holds more entries than any N:M allows" ;
        return GG_OK ;
    }
    const int64_t G = ceil_div (K, 2 << best) ;
    info->is_nm = true ;
    info->n = best_n ;
    info->m = 2 << best ;
    info->fill = (double) nnz / ((double) R * (double) G * (double) best_n) ;
    return GG_OK ;
}

bool gg_nm_fits (const gg_nm_info *info, int n, int m)
{
    const int l = level_of (m) ;
    if (l < 0 || n < 1 || 2 * n > m || info->max_count [l] < 0) return false ;
    return info->max_count [l] <= n ;
}
