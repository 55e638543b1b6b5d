//------------------------------------------------------------------------------
// formats/nm_layout.c: the packed N:M form as the N:M SpMM kernel reads it
//------------------------------------------------------------------------------

// See formats/nm_layout.h and kernels/nm_spmm/nm_geom.h.

#include "formats/nm_layout.h"
#include "formats/nm_private.h"

#include <stdlib.h>
#include <string.h>

// the loops below run on OpenMP threads from this many slots
#define GG_NM_PAR_MIN ((int64_t) 1 << 18)

void gg_nm_layout_free (gg_nm_layout *L)
{
    if (L == NULL) return ;
    free (L->buf) ;
    free (L) ;
}

void gg_nm_layout_bind (gg_nm_layout *L, void *dev)
{
    L->op.val = dev ;
    L->op.idx = (const uint8_t *) ((char *) dev + L->val_bytes) ;
    L->op.cols = L->op.packed ? L->op.idx + L->idx_bytes : NULL ;
}

static inline bool slot_present (const gg_nm_form *f, int64_t d)
{
    return (f->present [d >> 3] >> (d & 7)) & 1 ;
}

// col_info: per tile of bn columns and stage, the positions any of its
// slots use, ascending; idx then holds the rank of its position among them
static void pack_positions (gg_nm_layout *L, uint8_t *idx, uint8_t *cols,
    int ib)
{
    const gg_nm_spmm_geom *g = &L->op.geom ;
    const int64_t stages = L->op.stages, n_pad = L->op.n_pad ;
    const int64_t ldd = n_pad / ib, per_tile = g->bn / ib ;
    for (int64_t t = 0 ; t < n_pad / g->bn ; t++)
    {
        for (int64_t st = 0 ; st < stages ; st++)
        {
            uint64_t used = 0 ;
            for (int64_t u = st * g->ws ; u < (st + 1) * g->ws ; u++)
            {
                const uint8_t *row = idx + u * ldd + t * per_tile ;
                for (int64_t e = 0 ; e < per_tile ; e++)
                {
                    if (row [e] < g->ks) used |= 1ull << row [e] ;
                }
            }
            uint8_t *c = cols + (t * stages + st) * g->ks ;
            memset (c, 0xff, (size_t) g->ks) ;
            int r = 0 ;
            for (uint64_t bits = used ; bits != 0 ; bits &= bits - 1)
            {
                c [r++] = (uint8_t) __builtin_ctzll (bits) ;
            }
            for (int64_t u = st * g->ws ; u < (st + 1) * g->ws ; u++)
            {
                uint8_t *row = idx + u * ldd + t * per_tile ;
                for (int64_t e = 0 ; e < per_tile ; e++)
                {
                    if (row [e] < g->ks)
                    {
                        row [e] = (uint8_t) __builtin_popcountll (used
                            & ((1ull << row [e]) - 1)) ;
                    }
                }
            }
        }
    }
}

// Whether every aligned tile of 32 columns (32 / ib indices) has one
// position per slot among those of its indices that are not the zero
// column: vector-wise N:M, which the tensor-core kernel needs (it reads the
// smallest of a tile's indices; absent entries there hold -0 values).
static bool tiles_share (const uint8_t *idx, int64_t U, int64_t ldd, int ib,
    int zero_col)
{
    const int per = 32 / ib ;
    int differ = 0 ;
    #pragma omp parallel for schedule(static) if (U * ldd >= GG_NM_PAR_MIN)
    for (int64_t u = 0 ; u < U ; u++)
    {
        if (__atomic_load_n (&differ, __ATOMIC_RELAXED)) continue ;
        const uint8_t *row = idx + u * ldd ;
        for (int64_t e = 0 ; e + per <= ldd ; e += per)
        {
            int pos = zero_col ;
            for (int q = 0 ; q < per ; q++)
            {
                if (row [e + q] == zero_col) continue ;
                if (pos != zero_col && row [e + q] != pos)
                {
                    __atomic_store_n (&differ, 1, __ATOMIC_RELAXED) ;
                    break ;
                }
                pos = row [e + q] ;
            }
        }
    }
    return !differ ;
}

int gg_nm_layout_build (gg_nm_layout **out, const gg_nm_form *f, bool pack_x)
{
    *out = NULL ;
    gg_nm_spmm_geom g ;
    if (f->x == NULL || f->iso || !gg_nm_spmm_geometry (&g, f->esz, f->n, f->m))
    {
        return GG_ERR_UNSUPPORTED ;
    }
    const int n = f->n ;
    const int64_t R = f->rows, G = f->groups, V = f->v ;
    const int64_t stages = ceil_div (G, g.gs) ;
    const int64_t U = stages * g.ws ;
    const int64_t n_pad = ceil_div (R, g.bn) * g.bn ;
    const int zero_col = g.ks ;

    // shared: every thread's tn columns agree on every slot's effective
    // index (its offset where present, the zero column where absent); the
    // tiles are checked on threads, each stopping once any has disagreed
    const int64_t ntn = ceil_div (R, g.tn) ;
    int differ = 0 ;
    #pragma omp parallel for schedule(dynamic, 16) if (R * G * n >= GG_NM_PAR_MIN)
    for (int64_t tt = 0 ; tt < ntn ; tt++)
    {
        if (__atomic_load_n (&differ, __ATOMIC_RELAXED)) continue ;
        const int64_t c0 = tt * g.tn, c1 = (c0 + g.tn < R) ? c0 + g.tn : R ;
        for (int64_t u = 0 ; u < G * n ; u++)
        {
            int first = -1 ;
            bool same = true ;
            for (int64_t c = c0 ; c < c1 && same ; c++)
            {
                const int e = slot_present (f, c * G * n + u)
                    ? f->offset [(c / V) * G * n + u] : zero_col ;
                if (first < 0) first = e ;
                else same = (e == first) ;
            }
            if (!same) { __atomic_store_n (&differ, 1, __ATOMIC_RELAXED) ; break ; }
            // columns past R (padding) take the tile's index: their sums
            // are never stored
        }
    }
    const bool shared = !differ ;
    const int ib = shared ? g.tn : 1 ;
    const bool packed = pack_x && shared && g.ks == 64 ;
    const int64_t tiles = n_pad / g.bn ;

    gg_nm_layout *L = calloc (1, sizeof (gg_nm_layout)) ;
    if (L == NULL) return GG_ERR_NOMEM ;
    L->val_bytes = (size_t) (U * n_pad) * f->esz ;
    L->idx_bytes = (size_t) (U * (n_pad / ib)) ;
    L->cols_bytes = packed ? (size_t) (tiles * stages * g.ks) : 0 ;
    L->bytes = L->val_bytes + L->idx_bytes + L->cols_bytes ;
    L->buf = malloc (L->bytes > 0 ? L->bytes : 1) ;
    if (L->buf == NULL)
    {
        free (L) ;
        return GG_ERR_NOMEM ;
    }
    L->op.geom = g ;
    L->op.esz = f->esz ;
    L->op.ncols = R ;
    L->op.k = f->k ;
    L->op.n_pad = n_pad ;
    L->op.stages = stages ;
    L->op.shared = shared ;
    L->op.packed = packed ;

    // everything absent first: values -0, indices the zero column
    uint8_t *idx = (uint8_t *) L->buf + L->val_bytes ;
    memset (idx, zero_col, L->idx_bytes) ;
    const bool par = (U * n_pad >= GG_NM_PAR_MIN) ;
    if (f->esz == 4)
    {
        float *v = L->buf ;
        #pragma omp parallel for schedule(static) if (par)
        for (int64_t q = 0 ; q < U * n_pad ; q++) v [q] = -0.0f ;
    }
    else
    {
        double *v = L->buf ;
        #pragma omp parallel for schedule(static) if (par)
        for (int64_t q = 0 ; q < U * n_pad ; q++) v [q] = -0.0 ;
    }
    // each column on one thread; a shared index (ib > 1) is written by the
    // first column of its tile only (its tile's columns all agree on it, so
    // that column has the entry whenever any of them has)
    const int64_t ldd = n_pad / ib ;
    #pragma omp parallel for schedule(static) if (par)
    for (int64_t c = 0 ; c < R ; c++)
    {
        const uint8_t *off = f->offset + (c / V) * G * n ;
        const bool writes_idx = (c % ib == 0) ;
        for (int64_t u = 0 ; u < G * n ; u++)
        {
            const int64_t d = c * G * n + u ;
            if (!slot_present (f, d)) continue ;
            // slot u = g*n + s sits at row u of the layout (stage u / ws)
            const int64_t grp = u / n ;
            memcpy ((char *) L->buf + (size_t) (u * n_pad + c) * f->esz,
                (const char *) f->x + (size_t) d * f->esz, f->esz) ;
            if (writes_idx)
            {
                idx [u * ldd + c / ib] = (uint8_t) ((grp % g.gs) * f->m + off [u]) ;
            }
        }
    }
    L->op.tc32 = (f->esz == 4) && tiles_share (idx, U, ldd, ib, zero_col) ;
    if (packed)
    {
        pack_positions (L, idx, idx + L->idx_bytes, ib) ;
    }
    *out = L ;
    return GG_OK ;
}
