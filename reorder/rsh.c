//------------------------------------------------------------------------------
// reorder/rsh.c: RSH-style row reordering (gg_reorder_rsh)
//------------------------------------------------------------------------------

// See reorder.h for the contract and the stages.  Parallel parts (OpenMP):
// signatures, band sorts, the kNN search and refinement windows; each writes
// only its own rows' slots, so the answer does not depend on the thread
// count.  Kruskal and the DFS are serial (O(E log E) sort done as a radix
// sort, then near-linear).

#include "reorder/reorder_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// weighted Jaccard similarity of two rows
//------------------------------------------------------------------------------

// sim = sum_{S_r & S_u} w / (W_r + W_u - sum_{S_r & S_u} w), with W_r the
// row's weight sum; a merge of the two sorted column lists
static float wjaccard (const int32_t *p, const int32_t *i, const float *w,
    const double *rw, int32_t r, int32_t u)
{
    int64_t a = p [r], ae = p [r+1], b = p [u], be = p [u+1] ;
    double inter = 0 ;
    while (a < ae && b < be)
    {
        const int32_t ca = i [a], cb = i [b] ;
        if (ca == cb) { inter += w [ca] ; a++ ; b++ ; }
        else if (ca < cb) a++ ;
        else b++ ;
    }
    const double uni = rw [r] + rw [u] - inter ;
    return (uni > 0) ? (float) (inter / uni) : 0.0f ;
}

//------------------------------------------------------------------------------
// LSH band items
//------------------------------------------------------------------------------

typedef struct
{
    uint64_t key ;      // hash of the band's min-hashes
    uint32_t key2 ;     // hash of the next band's: similar rows sit together
    int32_t t ;         // index of the row among the non-empty rows
}
band_item ;

static int band_cmp (const void *x, const void *y)
{
    const band_item *a = x, *b = y ;
    if (a->key != b->key) return (a->key < b->key) ? -1 : 1 ;
    if (a->key2 != b->key2) return (a->key2 < b->key2) ? -1 : 1 ;
    return (a->t < b->t) ? -1 : (a->t > b->t) ;
}

static uint64_t band_hash (const uint32_t *sig, int band, int band_rows,
    uint64_t seed)
{
    uint64_t h = mix64 (seed ^ (0x9E3779B97F4A7C15ull * (uint64_t) (band + 1))) ;
    for (int q = 0 ; q < band_rows ; q++)
    {
        h = mix64 (h ^ sig [band * band_rows + q]) ;
    }
    return h ;
}

//------------------------------------------------------------------------------
// 2-opt in one window of positions [s, e) of order[0..n)
//------------------------------------------------------------------------------

// Positions s-1 and e (when they exist) stay fixed; a reversal of local
// positions a..b (1 <= a < b <= len) changes the edges (a-1, a) and (b, b+1)
// into (a-1, b) and (a, b+1).  dist (an (len+2)^2 scratch) holds 1 - sim,
// 0 towards a missing end.
static int64_t two_opt_window (const int32_t *p, const int32_t *i,
    const float *w, const double *rw, int32_t *order, int64_t n, int64_t s,
    int64_t e, float *dist, int32_t *v, int32_t *loc)
{
    const int len = (int) (e - s) ;
    if (len < 2) return 0 ;
    const int np = len + 2 ;
    v [0] = (s > 0) ? order [s-1] : -1 ;
    for (int q = 0 ; q < len ; q++) v [q+1] = order [s+q] ;
    v [len+1] = (e < n) ? order [e] : -1 ;
    for (int a = 0 ; a < np ; a++)
    {
        dist [a*np + a] = 0 ;
        for (int b = a + 1 ; b < np ; b++)
        {
            float d = 0 ;
            if (v [a] >= 0 && v [b] >= 0)
            {
                d = 1.0f - wjaccard (p, i, w, rw, v [a], v [b]) ;
            }
            dist [a*np + b] = dist [b*np + a] = d ;
        }
    }
    for (int q = 0 ; q < np ; q++) loc [q] = q ;
    int64_t swaps = 0 ;
    for (int sweep = 0 ; sweep < 8 ; sweep++)
    {
        bool improved = false ;
        for (int a = 1 ; a < len ; a++)
        {
            for (int b = a + 1 ; b <= len ; b++)
            {
                const int pa = loc [a-1], xa = loc [a], xb = loc [b],
                    nb = loc [b+1] ;
                const float delta = dist [pa*np + xb] + dist [xa*np + nb]
                    - dist [pa*np + xa] - dist [xb*np + nb] ;
                if (delta < -1e-6f)
                {
                    // reverse loc [a..b]
                    for (int x = a, y = b ; x < y ; x++, y--)
                    {
                        const int tmp = loc [x] ; loc [x] = loc [y] ; loc [y] = tmp ;
                    }
                    swaps++ ;
                    improved = true ;
                }
            }
        }
        if (!improved) break ;
    }
    for (int q = 0 ; q < len ; q++) order [s+q] = v [loc [q+1]] ;
    return swaps ;
}

//------------------------------------------------------------------------------
// gg_reorder_rsh
//------------------------------------------------------------------------------

static int32_t uf_find (int32_t *parent, int32_t x)
{
    while (parent [x] != x)
    {
        parent [x] = parent [parent [x]] ;     // path halving
        x = parent [x] ;
    }
    return x ;
}

#define FREE_ALL                                                            \
{                                                                           \
    free (order) ; free (rows) ; free (deg) ; free (w) ; free (rw) ;        \
    free (sig) ; free (items) ; free (pos) ; free (nb) ; free (ns) ;        \
    free (ncnt) ; free (ea) ; free (eb) ; free (es) ; free (ekey) ;         \
    free (idx) ; free (tmp) ; free (parent) ; free (usize) ; free (fa) ;    \
    free (fb) ; free (fptr) ; free (fadj) ; free (visited) ;                \
    free (stack) ; free (stack_it) ;                                        \
}

#define CHECK(ptr) { if ((ptr) == NULL) { status = GG_ERR_NOMEM ; goto done ; } }

int gg_reorder_rsh (const int32_t *p, const int32_t *i, int64_t m, int64_t k,
    const gg_reorder_options *opt, int32_t *perm, int32_t *iperm,
    gg_reorder_info *info)
{

    //--------------------------------------------------------------------------
    // check inputs
    //--------------------------------------------------------------------------

    gg_reorder_options o ;
    if (opt != NULL) o = *opt ; else gg_reorder_options_default (&o) ;
    if ((o.linear != GG_REORDER_DFS && o.linear != GG_REORDER_CHAINS) || m < 0 || m >= INT32_MAX || k < 0 || k >= INT32_MAX
        || o.nbands < 1 || o.nbands > 64 || o.band_rows < 1 || o.band_rows > 8
        || o.ring < 1 || o.ring > 64 || o.knn < 1 || o.knn > 64
        || o.alpha < 0 || o.refine_window < 0 || o.refine_window > 256)
    {
        return GG_ERR_UNSUPPORTED ;
    }
    gg_reorder_info inf ;
    memset (&inf, 0, sizeof (inf)) ;
    const double t0 = now_s () ;
    const double deadline = (o.budget_s > 0) ? t0 + o.budget_s : INFINITY ;
    int status = GG_OK ;
    int stop = 0 ;

    int32_t *order = NULL, *rows = NULL, *deg = NULL, *pos = NULL, *nb = NULL,
        *ncnt = NULL, *ea = NULL, *eb = NULL, *parent = NULL, *usize = NULL,
        *fa = NULL, *fb = NULL, *fptr = NULL, *fadj = NULL, *stack = NULL,
        *stack_it = NULL ;
    int64_t *idx = NULL, *tmp = NULL ;
    uint32_t *sig = NULL, *ekey = NULL ;
    float *w = NULL, *ns = NULL, *es = NULL ;
    double *rw = NULL ;
    band_item *items = NULL ;
    uint8_t *visited = NULL ;

    //--------------------------------------------------------------------------
    // initializations: non-empty rows, column weights w_j = d_j^-alpha
    //--------------------------------------------------------------------------

    order = malloc ((size_t) (m + 1) * sizeof (int32_t)) ; CHECK (order) ;
    rows = malloc ((size_t) (m + 1) * sizeof (int32_t)) ; CHECK (rows) ;
    int64_t ne = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        if (p [r+1] > p [r]) rows [ne++] = (int32_t) r ;
    }
    inf.nonempty = ne ;
    const int64_t nnz = (m > 0) ? p [m] : 0 ;
    deg = calloc ((size_t) (k + 1), sizeof (int32_t)) ; CHECK (deg) ;
    w = malloc ((size_t) (k + 1) * sizeof (float)) ; CHECK (w) ;
    rw = malloc ((size_t) (m + 1) * sizeof (double)) ; CHECK (rw) ;
    for (int64_t e = 0 ; e < nnz ; e++) deg [i [e]]++ ;
    #pragma omp parallel for schedule(static) if (k > 100000)
    for (int64_t j = 0 ; j < k ; j++)
    {
        w [j] = (deg [j] > 0) ? (float) pow ((double) deg [j], -o.alpha) : 0.0f ;
    }
    // W_r = sum_{j in S_r} w_j
    #pragma omp parallel for schedule(static) if (m > 100000)
    for (int64_t r = 0 ; r < m ; r++)
    {
        double s = 0 ;
        for (int64_t e = p [r] ; e < p [r+1] ; e++) s += w [i [e]] ;
        rw [r] = s ;
    }

    //--------------------------------------------------------------------------
    // min-hash signatures: sig [t][h] = min_{j in S_r} hash_h (j)
    //--------------------------------------------------------------------------

    const int H = o.nbands * o.band_rows ;
    sig = malloc ((size_t) (ne * H + 1) * sizeof (uint32_t)) ; CHECK (sig) ;
    #pragma omp parallel for schedule(dynamic, 256)
    for (int64_t t = 0 ; t < ne ; t++)
    {
        uint32_t *s = sig + t * H ;
        for (int h = 0 ; h < H ; h++) s [h] = UINT32_MAX ;
        const int32_t r = rows [t] ;
        for (int64_t e = p [r] ; e < p [r+1] ; e++)
        {
            const uint64_t base = mix64 (o.seed ^ ((uint64_t) i [e] << 20)) ;
            for (int h = 0 ; h < H ; h++)
            {
                // hash_h (j): the 32 high bits of an independent mix
                const uint32_t x = (uint32_t) (mix64 (base + 0x9E3779B97F4A7C15ull
                    * (uint64_t) (h + 1)) >> 32) ;
                if (x < s [h]) s [h] = x ;
            }
        }
    }
    double t1 = now_s () ;
    inf.t_sig = t1 - t0 ;
    if (t1 > deadline) { stop = 1 ; goto fallback ; }

    //--------------------------------------------------------------------------
    // LSH: each band's rows sorted by (band hash, next band's hash, row)
    //--------------------------------------------------------------------------

    const int nbands = o.nbands ;
    items = malloc ((size_t) (nbands * ne + 1) * sizeof (band_item)) ; CHECK (items) ;
    pos = malloc ((size_t) (nbands * ne + 1) * sizeof (int32_t)) ; CHECK (pos) ;
    #pragma omp parallel for schedule(dynamic, 1)
    for (int b = 0 ; b < nbands ; b++)
    {
        band_item *it = items + (int64_t) b * ne ;
        const int b2 = (b + 1) % nbands ;
        for (int64_t t = 0 ; t < ne ; t++)
        {
            it [t].key = band_hash (sig + t * H, b, o.band_rows, o.seed) ;
            it [t].key2 = (uint32_t) band_hash (sig + t * H, b2, o.band_rows,
                ~o.seed) ;
            it [t].t = (int32_t) t ;
        }
        qsort (it, (size_t) ne, sizeof (band_item), band_cmp) ;
        for (int64_t q = 0 ; q < ne ; q++) pos [(int64_t) b * ne + it [q].t] = (int32_t) q ;
    }
    free (sig) ; sig = NULL ;
    double t2 = now_s () ;
    inf.t_lsh = t2 - t1 ;
    if (t2 > deadline) { stop = 1 ; goto fallback ; }

    //--------------------------------------------------------------------------
    // kNN: the knn most similar of each row's bucket neighbours
    //--------------------------------------------------------------------------

    const int knn = o.knn, ring = o.ring ;
    nb = malloc ((size_t) (ne * knn + 1) * sizeof (int32_t)) ; CHECK (nb) ;
    ns = malloc ((size_t) (ne * knn + 1) * sizeof (float)) ; CHECK (ns) ;
    ncnt = calloc ((size_t) (ne + 1), sizeof (int32_t)) ; CHECK (ncnt) ;
    #pragma omp parallel for schedule(dynamic, 256)
    for (int64_t t = 0 ; t < ne ; t++)
    {
        int halt ;
        #pragma omp atomic read
        halt = stop ;
        if (halt) continue ;
        if ((t & 255) == 0 && now_s () > deadline)
        {
            #pragma omp atomic write
            stop = 1 ;
            continue ;
        }
        int32_t *tn = nb + t * knn ;
        float *ts = ns + t * knn ;
        int cnt = 0 ;
        for (int b = 0 ; b < nbands ; b++)
        {
            const band_item *it = items + (int64_t) b * ne ;
            const int64_t q = pos [(int64_t) b * ne + t] ;
            for (int d = -ring ; d <= ring ; d++)
            {
                const int64_t q2 = q + d ;
                if (d == 0 || q2 < 0 || q2 >= ne || it [q2].key != it [q].key)
                {
                    continue ;
                }
                const int32_t u = it [q2].t ;
                bool seen = false ;
                for (int x = 0 ; x < cnt ; x++) seen = seen || (tn [x] == u) ;
                if (seen) continue ;
                const float s = wjaccard (p, i, w, rw, rows [t], rows [u]) ;
                if (s <= 0) continue ;
                // insert into the top-k, ordered by (sim desc, u asc)
                if (cnt == knn && !(s > ts [cnt-1]
                    || (s == ts [cnt-1] && u < tn [cnt-1]))) continue ;
                int x = (cnt < knn) ? cnt++ : knn - 1 ;
                while (x > 0 && (s > ts [x-1] || (s == ts [x-1] && u < tn [x-1])))
                {
                    tn [x] = tn [x-1] ; ts [x] = ts [x-1] ; x-- ;
                }
                tn [x] = u ; ts [x] = s ;
            }
        }
        ncnt [t] = cnt ;
    }
    free (items) ; items = NULL ;
    free (pos) ; pos = NULL ;
    double t3 = now_s () ;
    inf.t_knn = t3 - t2 ;
    if (stop || t3 > deadline) { stop = 1 ; goto fallback ; }

    //--------------------------------------------------------------------------
    // maximum spanning forest of the kNN graph (Kruskal)
    //--------------------------------------------------------------------------

    int64_t E = 0 ;
    for (int64_t t = 0 ; t < ne ; t++) E += ncnt [t] ;
    inf.edges = E ;
    ea = malloc ((size_t) (E + 1) * sizeof (int32_t)) ; CHECK (ea) ;
    eb = malloc ((size_t) (E + 1) * sizeof (int32_t)) ; CHECK (eb) ;
    es = malloc ((size_t) (E + 1) * sizeof (float)) ; CHECK (es) ;
    ekey = malloc ((size_t) (E + 1) * sizeof (uint32_t)) ; CHECK (ekey) ;
    idx = malloc ((size_t) (E + 1) * sizeof (int64_t)) ; CHECK (idx) ;
    tmp = malloc ((size_t) (E + 1) * sizeof (int64_t)) ; CHECK (tmp) ;
    E = 0 ;
    for (int64_t t = 0 ; t < ne ; t++)
    {
        for (int x = 0 ; x < ncnt [t] ; x++)
        {
            ea [E] = (int32_t) t ;
            eb [E] = nb [t * knn + x] ;
            es [E] = ns [t * knn + x] ;
            // sim in (0, 1]: its float bits grow with it, so the complement
            // sorts by decreasing similarity
            uint32_t bits ;
            memcpy (&bits, &es [E], sizeof (bits)) ;
            ekey [E] = UINT32_MAX - bits ;
            idx [E] = E ;
            E++ ;
        }
    }
    // stable LSD radix sort of the edges by key (ties stay in (row, rank)
    // order: deterministic)
    for (int shift = 0 ; shift < 32 ; shift += 8)
    {
        int64_t count [257] = { 0 } ;
        for (int64_t e = 0 ; e < E ; e++) count [((ekey [idx [e]] >> shift) & 255) + 1]++ ;
        for (int d = 0 ; d < 256 ; d++) count [d+1] += count [d] ;
        for (int64_t e = 0 ; e < E ; e++) tmp [count [(ekey [idx [e]] >> shift) & 255]++] = idx [e] ;
        int64_t *swap = idx ; idx = tmp ; tmp = swap ;
    }
    parent = malloc ((size_t) (ne + 1) * sizeof (int32_t)) ; CHECK (parent) ;
    usize = malloc ((size_t) (ne + 1) * sizeof (int32_t)) ; CHECK (usize) ;
    fa = malloc ((size_t) (ne + 1) * sizeof (int32_t)) ; CHECK (fa) ;
    fb = malloc ((size_t) (ne + 1) * sizeof (int32_t)) ; CHECK (fb) ;
    for (int64_t t = 0 ; t < ne ; t++) { parent [t] = (int32_t) t ; usize [t] = 1 ; }
    int64_t nf = 0 ;
    for (int64_t x = 0 ; x < E && nf < ne - 1 ; x++)
    {
        const int64_t e = idx [x] ;
        int32_t ra = uf_find (parent, ea [e]), rb = uf_find (parent, eb [e]) ;
        if (ra == rb) continue ;
        // union by size
        if (usize [ra] < usize [rb]) { int32_t s = ra ; ra = rb ; rb = s ; }
        parent [rb] = ra ;
        usize [ra] += usize [rb] ;
        fa [nf] = ea [e] ; fb [nf] = eb [e] ; nf++ ;
    }
    inf.tree_edges = nf ;

    //--------------------------------------------------------------------------
    // GG_REORDER_CHAINS: the forest's edges replayed as path merges
    //--------------------------------------------------------------------------

    // Each cluster of Kruskal's union-find is kept as a path (a chain of
    // rows); accepting an edge joins the two clusters' paths end to end, at
    // the pair of ends (one of each) that is most similar.  Every cluster of
    // the merge hierarchy is then contiguous in the final order, which a DFS
    // of the tree does not give (it leaves a subtree to follow a weak edge
    // and comes back).  The path edges replace the tree edges in fa/fb, and
    // the DFS below, entering each path at an end, walks it.
    stack = malloc ((size_t) (ne + 1) * sizeof (int32_t)) ; CHECK (stack) ;
    stack_it = malloc ((size_t) (ne + 1) * sizeof (int32_t)) ; CHECK (stack_it) ;
    if (o.linear == GG_REORDER_CHAINS && nf > 0)
    {
        // a path's ends, at its root (the DFS stack's room, not yet in use)
        int32_t *e1 = stack, *e2 = stack_it ;
        for (int64_t t = 0 ; t < ne ; t++)
        {
            parent [t] = (int32_t) t ; usize [t] = 1 ;
            e1 [t] = e2 [t] = (int32_t) t ;
        }
        for (int64_t x = 0 ; x < nf ; x++)
        {
            int32_t ra = uf_find (parent, fa [x]), rb = uf_find (parent, fb [x]) ;
            const int32_t ends_a [2] = { e1 [ra], e2 [ra] },
                ends_b [2] = { e1 [rb], e2 [rb] } ;
            int best_a = 0, best_b = 0 ;
            float best = -1 ;
            for (int qa = 0 ; qa < 2 ; qa++)
            {
                if (qa == 1 && ends_a [1] == ends_a [0]) break ;
                for (int qb = 0 ; qb < 2 ; qb++)
                {
                    if (qb == 1 && ends_b [1] == ends_b [0]) break ;
                    const float sm = wjaccard (p, i, w, rw, rows [ends_a [qa]],
                        rows [ends_b [qb]]) ;
                    if (sm > best) { best = sm ; best_a = qa ; best_b = qb ; }
                }
            }
            // path edge: ends_a [best_a] -- ends_b [best_b]; the new
            // path's ends are the two other ends
            fa [x] = ends_a [best_a] ;
            fb [x] = ends_b [best_b] ;
            const int32_t other_a = ends_a [1 - best_a], other_b = ends_b [1 - best_b] ;
            if (usize [ra] < usize [rb]) { int32_t sw = ra ; ra = rb ; rb = sw ; }
            parent [rb] = ra ;
            usize [ra] += usize [rb] ;
            e1 [ra] = other_a ; e2 [ra] = other_b ;
        }
    }

    //--------------------------------------------------------------------------
    // DFS order of the forest (or walk of the paths), from a leaf, most
    // similar child first
    //--------------------------------------------------------------------------

    // forest adjacency; edges were accepted by decreasing similarity, so
    // each list comes out most similar first
    fptr = calloc ((size_t) (ne + 2), sizeof (int32_t)) ; CHECK (fptr) ;
    fadj = malloc ((size_t) (2 * nf + 1) * sizeof (int32_t)) ; CHECK (fadj) ;
    for (int64_t x = 0 ; x < nf ; x++) { fptr [fa [x] + 2]++ ; fptr [fb [x] + 2]++ ; }
    for (int64_t t = 0 ; t < ne ; t++) fptr [t+2] += fptr [t+1] ;
    for (int64_t x = 0 ; x < nf ; x++)
    {
        fadj [fptr [fa [x] + 1]++] = fb [x] ;
        fadj [fptr [fb [x] + 1]++] = fa [x] ;
    }
    visited = calloc ((size_t) (ne + 1), 1) ; CHECK (visited) ;
    int64_t no = 0 ;
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        for (int64_t t0r = 0 ; t0r < ne ; t0r++)
        {
            const int32_t fdeg = fptr [t0r+1] - fptr [t0r] ;
            // first pass: trees entered at a leaf (in row order); the
            // second catches nothing unless a tree had no leaf
            if (visited [t0r] || fdeg == 0 || (pass == 0 && fdeg != 1)) continue ;
            int64_t sp = 0 ;
            stack [sp] = (int32_t) t0r ; stack_it [sp] = fptr [t0r] ; sp++ ;
            visited [t0r] = 1 ;
            order [no++] = rows [t0r] ;
            while (sp > 0)
            {
                const int32_t x = stack [sp-1] ;
                if (stack_it [sp-1] == fptr [x+1]) { sp-- ; continue ; }
                const int32_t y = fadj [stack_it [sp-1]++] ;
                if (visited [y]) continue ;
                visited [y] = 1 ;
                order [no++] = rows [y] ;
                stack [sp] = y ; stack_it [sp] = fptr [y] ; sp++ ;
            }
        }
    }
    // isolated rows (no neighbour found), by first column
    const int64_t nconnected = no ;
    for (int64_t t = 0 ; t < ne ; t++)
    {
        if (!visited [t]) order [no++] = rows [t] ;
    }
    inf.isolated = ne - nconnected ;
    status = gg_reorder_sort_first_column (p, i, order + nconnected, ne - nconnected) ;
    if (status != GG_OK) goto done ;
    double t4 = now_s () ;
    inf.t_forest = t4 - t3 ;

    //--------------------------------------------------------------------------
    // 2-opt refinement in windows (two staggered passes; even windows, then
    // odd ones, so that the fixed ends of a window are not being moved)
    //--------------------------------------------------------------------------

    if (o.refine_window >= 2 && t4 <= deadline)
    {
        const int R = o.refine_window ;
        int64_t swaps = 0 ;
        for (int pass = 0 ; pass < 4 ; pass++)
        {
            const int64_t shift = (pass < 2) ? 0 : R / 2 ;
            const int parity = pass & 1 ;
            const int64_t nwin = (ne + shift + R - 1) / R ;
            #pragma omp parallel reduction(+:swaps)
            {
                float *dist = malloc ((size_t) (R + 2) * (R + 2) * sizeof (float)) ;
                int32_t *v = malloc ((size_t) (R + 2) * sizeof (int32_t)) ;
                int32_t *loc = malloc ((size_t) (R + 2) * sizeof (int32_t)) ;
                const bool ok = (dist != NULL && v != NULL && loc != NULL) ;
                #pragma omp for schedule(dynamic, 16)
                for (int64_t wi = parity ; wi < nwin ; wi += 2)
                {
                    int halt ;
                    #pragma omp atomic read
                    halt = stop ;
                    if (!ok || halt) continue ;
                    if (now_s () > deadline)
                    {
                        #pragma omp atomic write
                        stop = 1 ;
                        continue ;
                    }
                    int64_t s = wi * R - shift, e = s + R ;
                    if (s < 0) s = 0 ;
                    if (e > ne) e = ne ;
                    swaps += two_opt_window (p, i, w, rw, order, ne, s, e,
                        dist, v, loc) ;
                }
                free (dist) ; free (v) ; free (loc) ;
            }
        }
        inf.swaps = swaps ;
    }
    inf.t_refine = now_s () - t4 ;
    inf.budget_hit = (stop != 0) ;

    // the empty rows, last
    for (int64_t r = 0 ; r < m ; r++)
    {
        if (p [r+1] == p [r]) order [no++] = (int32_t) r ;
    }
    gg_reorder_emit (order, m, perm, iperm) ;
    goto done ;

    //--------------------------------------------------------------------------
    // budget reached before the forest order: the first-column order
    //--------------------------------------------------------------------------

fallback:
    inf.budget_hit = true ;
    inf.fallback = true ;
    status = gg_reorder_first_column_order (p, i, m, order) ;
    if (status == GG_OK) gg_reorder_emit (order, m, perm, iperm) ;

done:
    FREE_ALL ;
    inf.t_total = now_s () - t0 ;
    if (info != NULL) *info = inf ;
    return status ;
}
