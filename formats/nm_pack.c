//------------------------------------------------------------------------------
// formats/nm_pack.c: the packed N:M form, its col_info, and unpacking
//------------------------------------------------------------------------------

// See nm.h for the layout; detection (which pair holds) is formats/nm.c.

#include "formats/nm_private.h"
#include "formats/convert.h"

#include <stdlib.h>
#include <string.h>

static inline void copy_value (void *dst, int64_t d, const void *src,
    int64_t q, size_t esz)
{
    switch (esz)
    {
        case 4: ((uint32_t *) dst) [d] = ((const uint32_t *) src) [q] ; break ;
        case 8: ((uint64_t *) dst) [d] = ((const uint64_t *) src) [q] ; break ;
        default:
            memcpy ((char *) dst + (size_t) d * esz,
                (const char *) src + (size_t) q * esz, esz) ;
    }
}

//------------------------------------------------------------------------------
// transposing a 32-bit CSR (for GG_NM_COLS): formats/csr_t.c's counting sort
//------------------------------------------------------------------------------

// Rows are walked in order, so each output row's columns come out sorted;
// transposing twice gives back the same arrays.  An iso x (one value) stays
// one value.
static int csr_transpose (gg_nm_csr **out, int64_t nrows, int64_t ncols,
    const int32_t *p, const int32_t *i, const void *x, size_t esz, bool iso)
{
    *out = NULL ;
    const bool values = (x != NULL && esz > 0) ;
    const bool each = values && !iso ;
    gg_nm_csr *t = calloc (1, sizeof (gg_nm_csr)) ;
    if (t == NULL) return GG_ERR_NOMEM ;
    void *tx = NULL ;
    int rc = gg_csr32_transpose (nrows, ncols, p [nrows], p, i, each ? x : NULL,
        esz, &t->p, &t->i, each ? &tx : NULL) ;
    t->x = tx ;
    if (rc == GG_OK && values && iso)
    {
        t->x = malloc (esz) ;
        if (t->x == NULL) rc = GG_ERR_NOMEM ;
        else memcpy (t->x, x, esz) ;
    }
    if (rc != GG_OK)
    {
        gg_nm_csr_free (t) ;
        return rc ;
    }
    t->nrows = ncols ;
    t->ncols = nrows ;
    t->nnz = p [nrows] ;
    t->iso = iso && values ;
    *out = t ;
    return GG_OK ;
}

void gg_nm_csr_free (gg_nm_csr *c)
{
    if (c == NULL) return ;
    free (c->p) ;
    free (c->i) ;
    free (c->x) ;
    free (c) ;
}

//------------------------------------------------------------------------------
// gg_nm_pack
//------------------------------------------------------------------------------

void gg_nm_form_free (gg_nm_form *f)
{
    if (f == NULL) return ;
    free (f->offset) ;
    free (f->present) ;
    free (f->x) ;
    free (f) ;
}

// The N slots of a group: the positions used (bits of used), then the lowest
// unused positions until there are n (m >= 2n, so there always are).
static inline uint32_t group_slots (uint32_t used, int n)
{
    // (~used & (used + 1): the lowest position not used)
    for (int have = __builtin_popcount (used) ; have < n ; have++)
    {
        used |= ~used & (used + 1) ;
    }
    return used ;
}

// pack a GG_NM_ROWS CSR (R x K, arrays p, i, x)
static int pack_rows (gg_nm_form *f, const int32_t *p, const int32_t *i,
    const void *x)
{
    const int n = f->n, m = f->m ;
    const int64_t R = f->rows, G = f->groups, V = f->v ;
    const size_t esz = f->esz ;
    const int64_t nslots = R * G * n ;
    const bool copy_each = (x != NULL && esz > 0 && !f->iso) ;
    const int lg = __builtin_ctz ((unsigned) m) ;     // m = 2^lg
    f->offset = malloc ((size_t) (f->blocks * G * n > 0 ? f->blocks * G * n : 1)) ;
    f->present = calloc ((size_t) (nslots + 7) / 8 + 1, 1) ;
    if (x != NULL && esz > 0)
    {
        f->x = f->iso ? malloc (esz)
            : calloc ((size_t) (nslots > 0 ? nslots : 1), esz) ;
    }
    if (f->offset == NULL || f->present == NULL
        || (x != NULL && esz > 0 && f->x == NULL))
    {
        return GG_ERR_NOMEM ;
    }
    if (x != NULL && esz > 0 && f->iso) memcpy (f->x, x, esz) ;
    f->bytes = (size_t) (f->blocks * G * n) + (size_t) (nslots + 7) / 8
        + (x == NULL || esz == 0 ? 0 : (f->iso ? esz : (size_t) nslots * esz)) ;

    // blocks on threads (each with its own slots [G]); a present bit whose
    // byte two blocks share is set with an atomic or; any group holding
    // more than n entries makes the whole pack unsupported
    int too_many = 0, nomem = 0 ;
    #pragma omp parallel if (p [R] >= ((int64_t) 1 << 18))
    {
        uint32_t *sl = malloc ((size_t) (G > 0 ? G : 1) * sizeof (uint32_t)) ;
        if (sl == NULL) __atomic_store_n (&nomem, 1, __ATOMIC_RELAXED) ;
        #pragma omp for schedule(dynamic, 64)
        for (int64_t b = 0 ; b < f->blocks ; b++)
        {
            if (sl == NULL || __atomic_load_n (&too_many, __ATOMIC_RELAXED)) continue ;
            const int64_t r0 = b * V, r1 = (r0 + V < R) ? r0 + V : R ;
            // sl [g] = the positions the block uses in group g, padded to n
            memset (sl, 0, (size_t) G * sizeof (uint32_t)) ;
            for (int64_t q = p [r0] ; q < p [r1] ; q++)
            {
                sl [i [q] >> lg] |= 1u << (i [q] & (m - 1)) ;
            }
            uint8_t *off = f->offset + b * G * n ;
            bool ok = true ;
            for (int64_t g = 0 ; g < G && ok ; g++)
            {
                if (__builtin_popcount (sl [g]) > n) { ok = false ; break ; }
                sl [g] = group_slots (sl [g], n) ;
                int s = 0 ;
                for (uint32_t bits = sl [g] ; bits != 0 ; bits &= bits - 1)
                {
                    off [g * n + s++] = (uint8_t) __builtin_ctz (bits) ;
                }
            }
            if (!ok) { __atomic_store_n (&too_many, 1, __ATOMIC_RELAXED) ; continue ; }
            // each entry goes to its slot: the rank of its position in the group
            for (int64_t r = r0 ; r < r1 ; r++)
            {
                for (int64_t q = p [r] ; q < p [r+1] ; q++)
                {
                    const int64_t g = i [q] >> lg ;
                    const int o = i [q] & (m - 1) ;
                    const int s = __builtin_popcount (sl [g] & ((1u << o) - 1)) ;
                    const int64_t d = (r * G + g) * n + s ;
                    __atomic_fetch_or (&f->present [d >> 3], (uint8_t) (1u << (d & 7)),
                        __ATOMIC_RELAXED) ;
                    if (copy_each)
                    {
                        copy_value (f->x, d, x, q, esz) ;
                    }
                }
            }
        }
        free (sl) ;
    }
    if (nomem) return GG_ERR_NOMEM ;
    return too_many ? GG_ERR_UNSUPPORTED : GG_OK ;
}

int gg_nm_pack (gg_nm_form **out, const gg_csr *A, size_t esz, int n, int m,
    int v, gg_nm_orient orient)
{
    *out = NULL ;
    if (A->p32 == NULL || A->i32 == NULL || level_of (m) < 0 || n < 1
        || 2 * n > m || v < 1 || v > GG_NM_MAX_V)
    {
        return GG_ERR_UNSUPPORTED ;
    }
    const bool by_rows = (orient == GG_NM_ROWS) ;
    gg_nm_form *f = calloc (1, sizeof (gg_nm_form)) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->n = n ;
    f->m = m ;
    f->v = v ;
    f->orient = orient ;
    f->rows = by_rows ? A->nrows : A->ncols ;
    f->k = by_rows ? A->ncols : A->nrows ;
    f->groups = ceil_div (f->k, m) ;
    f->blocks = ceil_div (f->rows, v) ;
    f->nnz = A->p32 [A->nrows] ;
    f->esz = (A->x == NULL) ? 0 : esz ;
    f->iso = A->iso && f->esz > 0 ;

    int rc ;
    if (by_rows)
    {
        rc = pack_rows (f, A->p32, A->i32, f->esz ? A->x : NULL) ;
    }
    else
    {
        // W (k x n) -> W' (n x k), whose rows are packed
        gg_nm_csr *t ;
        rc = csr_transpose (&t, A->nrows, A->ncols, A->p32, A->i32,
            f->esz ? A->x : NULL, f->esz, f->iso) ;
        if (rc == GG_OK)
        {
            rc = pack_rows (f, t->p, t->i, t->x) ;
            gg_nm_csr_free (t) ;
        }
    }
    if (rc != GG_OK)
    {
        gg_nm_form_free (f) ;
        return rc ;
    }
    *out = f ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// gg_nm_col_info_build
//------------------------------------------------------------------------------

void gg_nm_col_info_free (gg_nm_col_info *c)
{
    if (c == NULL) return ;
    free (c->used) ;
    free (c->rank) ;
    free (c) ;
}

int gg_nm_col_info_build (gg_nm_col_info **out, const gg_nm_form *f, int qs)
{
    *out = NULL ;
    if (qs < 1) return GG_ERR_UNSUPPORTED ;
    const int n = f->n ;
    const int64_t G = f->groups, B = f->blocks ;
    gg_nm_col_info *c = calloc (1, sizeof (gg_nm_col_info)) ;
    if (c == NULL) return GG_ERR_NOMEM ;
    c->qs = qs ;
    c->groups = G ;
    c->tiles = ceil_div (B, qs) ;
    c->used = calloc ((size_t) (c->tiles * G > 0 ? c->tiles * G : 1), sizeof (uint32_t)) ;
    c->rank = malloc ((size_t) (B * G * n > 0 ? B * G * n : 1)) ;
    if (c->used == NULL || c->rank == NULL)
    {
        gg_nm_col_info_free (c) ;
        return GG_ERR_NOMEM ;
    }
    c->bytes = (size_t) (c->tiles * G) * sizeof (uint32_t) + (size_t) (B * G * n) ;
    // used: the union of the offsets of the tile's blocks
    for (int64_t b = 0 ; b < B ; b++)
    {
        uint32_t *used = c->used + (b / qs) * G ;
        const uint8_t *off = f->offset + b * G * n ;
        for (int64_t g = 0 ; g < G ; g++)
        {
            for (int s = 0 ; s < n ; s++) used [g] |= 1u << off [g * n + s] ;
        }
    }
    // rank: the offsets below this one in the tile's set
    for (int64_t b = 0 ; b < B ; b++)
    {
        const uint32_t *used = c->used + (b / qs) * G ;
        const uint8_t *off = f->offset + b * G * n ;
        uint8_t *rank = c->rank + b * G * n ;
        for (int64_t g = 0 ; g < G ; g++)
        {
            for (int s = 0 ; s < n ; s++)
            {
                const uint32_t below = (1u << off [g * n + s]) - 1 ;
                rank [g * n + s] = (uint8_t) __builtin_popcount (used [g] & below) ;
            }
        }
    }
    *out = c ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// gg_nm_unpack
//------------------------------------------------------------------------------

int gg_nm_unpack (gg_nm_csr **out, const gg_nm_form *f)
{
    *out = NULL ;
    const int n = f->n, m = f->m ;
    const int64_t R = f->rows, G = f->groups, V = f->v ;
    const bool values = (f->x != NULL && f->esz > 0) ;
    gg_nm_csr *c = calloc (1, sizeof (gg_nm_csr)) ;
    if (c == NULL) return GG_ERR_NOMEM ;
    c->nrows = R ;
    c->ncols = f->k ;
    c->nnz = f->nnz ;
    c->iso = f->iso ;
    c->p = malloc ((size_t) (R + 1) * sizeof (int32_t)) ;
    c->i = malloc ((size_t) (f->nnz > 0 ? f->nnz : 1) * sizeof (int32_t)) ;
    if (values)
    {
        c->x = malloc (f->iso ? f->esz : (size_t) (f->nnz > 0 ? f->nnz : 1) * f->esz) ;
    }
    if (c->p == NULL || c->i == NULL || (values && c->x == NULL))
    {
        gg_nm_csr_free (c) ;
        return GG_ERR_NOMEM ;
    }
    if (values && f->iso) memcpy (c->x, f->x, f->esz) ;

    // slots in order (groups ascending, offsets ascending within a group)
    // are columns in order
    int64_t q = 0 ;
    c->p [0] = 0 ;
    for (int64_t r = 0 ; r < R ; r++)
    {
        const uint8_t *off = f->offset + (r / V) * G * n ;
        for (int64_t g = 0 ; g < G ; g++)
        {
            for (int s = 0 ; s < n ; s++)
            {
                const int64_t d = (r * G + g) * n + s ;
                if (!(f->present [d >> 3] & (1u << (d & 7)))) continue ;
                c->i [q] = (int32_t) (g * m + off [g * n + s]) ;
                if (values && !f->iso)
                {
                    copy_value (c->x, q, f->x, d, f->esz) ;
                }
                q++ ;
            }
        }
        c->p [r+1] = (int32_t) q ;
    }

    if (f->orient == GG_NM_COLS)
    {
        // back from W' to W
        gg_nm_csr *w ;
        int rc = csr_transpose (&w, c->nrows, c->ncols, c->p, c->i, c->x,
            f->esz, c->iso) ;
        gg_nm_csr_free (c) ;
        if (rc != GG_OK) return rc ;
        c = w ;
    }
    *out = c ;
    return GG_OK ;
}
