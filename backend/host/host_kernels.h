//------------------------------------------------------------------------------
// backend/host/host_kernels.h: the host backend's row kernels, one value type
//------------------------------------------------------------------------------

// A generator header: backend/host/host_backend.c includes it once per value
// type, with these macros defined (and undefined again here at the end):
//
//  GG_TN        the type's token (INT32, FP64, ...), used in function names
//  GG_T         the C type of a value
//  GG_U         the unsigned type integer arithmetic wraps in (GG_T for FP)
//  GG_KIND      HOST_KIND_BOOL, HOST_KIND_INT or HOST_KIND_FP
//  GG_TMIN      the identity of MAX: -INFINITY or the type's minimum
//  GG_TMAX      the identity of MIN: +INFINITY or the type's maximum
//  GG_FMIN, GG_FMAX   fminf / fmaxf or fmin / fmax (FP only)
//
// Every function here takes the monoid and the multiply as arguments and is
// always inlined; host_backend.c calls them with constant (add, mul) from one
// small function per semiring, so the switches below fold away and each
// semiring gets its own inner loop (for PLUS_TIMES FP32: y [j] += s * x [j],
// vectorised).  Products are accumulated in a fixed order: the first term
// initialises the accumulator and the others follow in index order, as in
// SuiteSparse's own kernels (so MIN/MAX over NaN and -0 sums match too).

#define GG_FN(name) HOST_CAT (name, GG_TN)

//------------------------------------------------------------------------------
// the binary operators of this type
//------------------------------------------------------------------------------

// Integer PLUS / TIMES wrap modulo 2^bits: computed in the unsigned type (no
// undefined behaviour), then converted back (gcc and clang convert modulo 2^bits).
#if GG_KIND == HOST_KIND_FP
#define GG_OP_PLUS(a, b)    ((a) + (b))
#define GG_OP_TIMES(a, b)   ((a) * (b))
#define GG_OP_MIN(a, b)     GG_FMIN (a, b)
#define GG_OP_MAX(a, b)     GG_FMAX (a, b)
#elif GG_KIND == HOST_KIND_INT
#define GG_OP_PLUS(a, b)    ((GG_T) ((GG_U) (a) + (GG_U) (b)))
#define GG_OP_TIMES(a, b)   ((GG_T) ((GG_U) (a) * (GG_U) (b)))
#define GG_OP_MIN(a, b)     ((b) < (a) ? (b) : (a))
#define GG_OP_MAX(a, b)     ((b) > (a) ? (b) : (a))
#else
// BOOL: PLUS and MAX are LOR, TIMES and MIN are LAND (as in GraphBLAS).
#define GG_OP_PLUS(a, b)    ((GG_T) ((a) || (b)))
#define GG_OP_TIMES(a, b)   ((GG_T) ((a) && (b)))
#define GG_OP_MIN(a, b)     ((GG_T) ((a) && (b)))
#define GG_OP_MAX(a, b)     ((GG_T) ((a) || (b)))
#endif
#define GG_OP_LAND(a, b)    ((GG_T) (((a) != 0) && ((b) != 0)))
#define GG_OP_LOR(a, b)     ((GG_T) (((a) != 0) || ((b) != 0)))

// z = mul (s, x)
static HOST_INLINE GG_T GG_FN (host_mul) (gg_mul mul, GG_T s, GG_T x)
{
    switch (mul)
    {
        case GG_MUL_TIMES:  return GG_OP_TIMES (s, x) ;
        case GG_MUL_FIRST:  return s ;
        case GG_MUL_SECOND: return x ;
        case GG_MUL_PAIR:   return (GG_T) 1 ;
        case GG_MUL_PLUS:   return GG_OP_PLUS (s, x) ;
        case GG_MUL_MIN:    return GG_OP_MIN (s, x) ;
        case GG_MUL_MAX:    return GG_OP_MAX (s, x) ;
        case GG_MUL_LAND:   return GG_OP_LAND (s, x) ;
        case GG_MUL_LOR:    return GG_OP_LOR (s, x) ;
        default:            return (GG_T) 0 ;      // not reached
    }
}

// z = a (+) b.  ANY keeps a: the callers stop after the first term anyway.
static HOST_INLINE GG_T GG_FN (host_add) (gg_add add, GG_T a, GG_T b)
{
    switch (add)
    {
        case GG_ADD_PLUS:   return GG_OP_PLUS (a, b) ;
        case GG_ADD_TIMES:  return GG_OP_TIMES (a, b) ;
        case GG_ADD_MIN:    return GG_OP_MIN (a, b) ;
        case GG_ADD_MAX:    return GG_OP_MAX (a, b) ;
        case GG_ADD_LOR:    return GG_OP_LOR (a, b) ;
        case GG_ADD_LAND:   return GG_OP_LAND (a, b) ;
        default:            return a ;              // ANY
    }
}

// The monoid's identity (used only for an empty sum: inner dimension 0).
static HOST_INLINE GG_T GG_FN (host_identity) (gg_add add)
{
    switch (add)
    {
        case GG_ADD_TIMES:  return (GG_T) 1 ;
        case GG_ADD_MIN:    return GG_TMAX ;
        case GG_ADD_MAX:    return GG_TMIN ;
        case GG_ADD_LAND:   return (GG_T) 1 ;
        default:            return (GG_T) 0 ;      // PLUS, ANY, LOR
    }
}

//------------------------------------------------------------------------------
// SpMM: Y (i,:) = (+) over entries q of row i of S of mul (S (i,q), X (col,:))
//------------------------------------------------------------------------------

// Rows i0 to i1-1.  wide: 64-bit indices.  Rows without entries are not
// written.  n == 1 (SpMV) keeps one scalar accumulator; otherwise the row of Y
// is the accumulator, in slices of HOST_SPMM_COLS columns that stay in L1.
static HOST_INLINE void GG_FN (host_spmm_rows) (gg_add add, gg_mul mul,
    bool wide, const host_args *a, int64_t i0, int64_t i1)
{
    const gg_csr *S = a->S ;
    const bool rs = host_mul_reads_s (mul), rx = host_mul_reads_x (mul) ;
    const GG_T *restrict Sx = rs ? (const GG_T *) S->x : NULL ;
    const GG_T *restrict Xx = rx ? (const GG_T *) a->X->x : NULL ;
    GG_T *restrict Y = (GG_T *) a->Y ;
    const int64_t n = a->X->ncols ;
    const int64_t sq = S->iso ? 0 : 1 ;     // iso: every entry's value is Sx [0]

    #define GG_COL(q) (wide ? S->i64 [q] : (int64_t) S->i32 [q])
    #define GG_S(q)   (rs ? Sx [(q) * sq] : (GG_T) 0)

    for (int64_t i = i0 ; i < i1 ; i++)
    {
        const int64_t p0 = wide ? S->p64 [i] : S->p32 [i] ;
        int64_t p1 = wide ? S->p64 [i+1] : S->p32 [i+1] ;
        if (p0 >= p1) continue ;
        if (add == GG_ADD_ANY) p1 = p0 + 1 ;    // any term will do: the first

        if (n == 1)
        {
            // y (i) = mul (s_p0, x (col_p0)) (+) ... in entry order
            GG_T acc = GG_FN (host_mul) (mul, GG_S (p0),
                rx ? Xx [GG_COL (p0)] : (GG_T) 0) ;
            for (int64_t q = p0 + 1 ; q < p1 ; q++)
            {
                acc = GG_FN (host_add) (add, acc, GG_FN (host_mul) (mul,
                    GG_S (q), rx ? Xx [GG_COL (q)] : (GG_T) 0)) ;
            }
            Y [i] = acc ;
            continue ;
        }

        for (int64_t j0 = 0 ; j0 < n ; j0 += HOST_SPMM_COLS)
        {
            const int64_t w = (n - j0 < HOST_SPMM_COLS) ? n - j0 : HOST_SPMM_COLS ;
            GG_T *restrict y = Y + i * n + j0 ;

            // y = mul (s_p0, X (col_p0, j0:j0+w-1))
            {
                const GG_T s = GG_S (p0) ;
                const GG_T *restrict x = rx ? Xx + GG_COL (p0) * n + j0 : NULL ;
                for (int64_t j = 0 ; j < w ; j++)
                {
                    y [j] = GG_FN (host_mul) (mul, s, rx ? x [j] : (GG_T) 0) ;
                }
            }

            // y = y (+) mul (s_q, X (col_q, j0:j0+w-1)) for the other entries
            for (int64_t q = p0 + 1 ; q < p1 ; q++)
            {
                const GG_T s = GG_S (q) ;
                const GG_T *restrict x = rx ? Xx + GG_COL (q) * n + j0 : NULL ;
                for (int64_t j = 0 ; j < w ; j++)
                {
                    y [j] = GG_FN (host_add) (add, y [j],
                        GG_FN (host_mul) (mul, s, rx ? x [j] : (GG_T) 0)) ;
                }
            }
        }
    }
    #undef GG_COL
    #undef GG_S
}

//------------------------------------------------------------------------------
// SDDMM: y [q] = (+) over t of mul (A (i,t), B (j,t)) for each entry q = (i,j) of M
//------------------------------------------------------------------------------

// Mask rows i0 to i1-1.  The entries of a row are taken HOST_SDDMM_LANES at a
// time with one accumulator each: independent dependency chains for the
// processor, while every dot product still adds its terms in order t = 0..k-1.
static HOST_INLINE void GG_FN (host_sddmm_rows) (gg_add add, gg_mul mul,
    bool wide, const host_args *a, int64_t i0, int64_t i1)
{
    const gg_csr *M = a->S ;
    const bool ra = host_mul_reads_s (mul), rb = host_mul_reads_x (mul) ;
    const GG_T *restrict Ax = ra ? (const GG_T *) a->A->x : NULL ;
    const GG_T *restrict Bx = rb ? (const GG_T *) a->B->x : NULL ;
    GG_T *restrict y = (GG_T *) a->Y ;
    const int64_t k = a->A->ncols ;
    const int64_t tend = (add == GG_ADD_ANY && k > 0) ? 1 : k ;
    const GG_T id = GG_FN (host_identity) (add) ;

    #define GG_COL(q) (wide ? M->i64 [q] : (int64_t) M->i32 [q])
    #define GG_B(r, t) (rb ? (r) [t] : (GG_T) 0)

    for (int64_t i = i0 ; i < i1 ; i++)
    {
        const int64_t p0 = wide ? M->p64 [i] : M->p32 [i] ;
        const int64_t p1 = wide ? M->p64 [i+1] : M->p32 [i+1] ;
        const GG_T *restrict arow = ra ? Ax + i * k : NULL ;
        #define GG_A(t) (ra ? arow [t] : (GG_T) 0)
        int64_t q = p0 ;

        if (k == 0)
        {
            for ( ; q < p1 ; q++) y [q] = id ;
            continue ;
        }

        // four entries at a time
        for ( ; q + HOST_SDDMM_LANES <= p1 ; q += HOST_SDDMM_LANES)
        {
            const GG_T *b [HOST_SDDMM_LANES] ;
            GG_T acc [HOST_SDDMM_LANES] ;
            for (int l = 0 ; l < HOST_SDDMM_LANES ; l++)
            {
                b [l] = rb ? Bx + GG_COL (q + l) * k : NULL ;
                acc [l] = GG_FN (host_mul) (mul, GG_A (0), GG_B (b [l], 0)) ;
            }
            for (int64_t t = 1 ; t < tend ; t++)
            {
                const GG_T s = GG_A (t) ;
                for (int l = 0 ; l < HOST_SDDMM_LANES ; l++)
                {
                    acc [l] = GG_FN (host_add) (add, acc [l],
                        GG_FN (host_mul) (mul, s, GG_B (b [l], t))) ;
                }
            }
            for (int l = 0 ; l < HOST_SDDMM_LANES ; l++) y [q + l] = acc [l] ;
        }

        // the rest one at a time
        for ( ; q < p1 ; q++)
        {
            const GG_T *restrict brow = rb ? Bx + GG_COL (q) * k : NULL ;
            GG_T acc = GG_FN (host_mul) (mul, GG_A (0), GG_B (brow, 0)) ;
            for (int64_t t = 1 ; t < tend ; t++)
            {
                acc = GG_FN (host_add) (add, acc,
                    GG_FN (host_mul) (mul, GG_A (t), GG_B (brow, t))) ;
            }
            y [q] = acc ;
        }
        #undef GG_A
    }
    #undef GG_COL
    #undef GG_B
}

//------------------------------------------------------------------------------
// GEMM: Y (i,j) = (+) over t of mul (A (i,t), B (j,t)), with Bt = B' (k x n)
//------------------------------------------------------------------------------

// Rows i0 to i1-1, in blocks of HOST_GEMM_ROWS rows x HOST_GEMM_COLS columns
// of Y (an L1-sized accumulator block): for each t, the slice Bt (t, cols) is
// loaded once for all rows of the block, and each Y (i,j) still takes its
// terms in order t = 0..k-1 (so the result is that of the plain dot product).
// a->Bt is NULL when the multiply does not read B.
static HOST_INLINE void GG_FN (host_gemm_rows) (gg_add add, gg_mul mul,
    const host_args *a, int64_t i0, int64_t i1)
{
    const bool ra = host_mul_reads_s (mul), rb = host_mul_reads_x (mul) ;
    const GG_T *restrict Ax = ra ? (const GG_T *) a->A->x : NULL ;
    const GG_T *restrict Bt = rb ? (const GG_T *) a->Bt : NULL ;
    GG_T *restrict Y = (GG_T *) a->Y ;
    const int64_t k = a->A->ncols, n = a->B->nrows ;
    const int64_t tend = (add == GG_ADD_ANY && k > 0) ? 1 : k ;
    const GG_T id = GG_FN (host_identity) (add) ;

    for (int64_t ib = i0 ; ib < i1 ; ib += HOST_GEMM_ROWS)
    {
        const int64_t ie = (i1 - ib < HOST_GEMM_ROWS) ? i1 : ib + HOST_GEMM_ROWS ;
        for (int64_t j0 = 0 ; j0 < n ; j0 += HOST_GEMM_COLS)
        {
            const int64_t w = (n - j0 < HOST_GEMM_COLS) ? n - j0 : HOST_GEMM_COLS ;
            if (k == 0)
            {
                for (int64_t i = ib ; i < ie ; i++)
                {
                    for (int64_t j = 0 ; j < w ; j++) Y [i * n + j0 + j] = id ;
                }
                continue ;
            }

            // Y (i, cols) = mul (A (i,0), Bt (0, cols))
            for (int64_t i = ib ; i < ie ; i++)
            {
                const GG_T s = ra ? Ax [i * k] : (GG_T) 0 ;
                const GG_T *restrict b = rb ? Bt + j0 : NULL ;
                GG_T *restrict y = Y + i * n + j0 ;
                for (int64_t j = 0 ; j < w ; j++)
                {
                    y [j] = GG_FN (host_mul) (mul, s, rb ? b [j] : (GG_T) 0) ;
                }
            }

            // Y (i, cols) = Y (i, cols) (+) mul (A (i,t), Bt (t, cols)) for
            // four t at a time (each y [j] in a register across the four, its
            // terms still in order), then one at a time
            int64_t t = 1 ;
            for ( ; t + 4 <= tend ; t += 4)
            {
                const GG_T *restrict b0 = rb ? Bt + t * n + j0 : NULL ;
                const GG_T *restrict b1 = rb ? b0 + n : NULL ;
                const GG_T *restrict b2 = rb ? b1 + n : NULL ;
                const GG_T *restrict b3 = rb ? b2 + n : NULL ;
                for (int64_t i = ib ; i < ie ; i++)
                {
                    const GG_T *restrict ai = ra ? Ax + i * k + t : NULL ;
                    const GG_T s0 = ra ? ai [0] : (GG_T) 0 ;
                    const GG_T s1 = ra ? ai [1] : (GG_T) 0 ;
                    const GG_T s2 = ra ? ai [2] : (GG_T) 0 ;
                    const GG_T s3 = ra ? ai [3] : (GG_T) 0 ;
                    GG_T *restrict y = Y + i * n + j0 ;
                    for (int64_t j = 0 ; j < w ; j++)
                    {
                        GG_T v = y [j] ;
                        v = GG_FN (host_add) (add, v, GG_FN (host_mul) (mul, s0,
                            rb ? b0 [j] : (GG_T) 0)) ;
                        v = GG_FN (host_add) (add, v, GG_FN (host_mul) (mul, s1,
                            rb ? b1 [j] : (GG_T) 0)) ;
                        v = GG_FN (host_add) (add, v, GG_FN (host_mul) (mul, s2,
                            rb ? b2 [j] : (GG_T) 0)) ;
                        v = GG_FN (host_add) (add, v, GG_FN (host_mul) (mul, s3,
                            rb ? b3 [j] : (GG_T) 0)) ;
                        y [j] = v ;
                    }
                }
            }
            for ( ; t < tend ; t++)
            {
                const GG_T *restrict b = rb ? Bt + t * n + j0 : NULL ;
                for (int64_t i = ib ; i < ie ; i++)
                {
                    const GG_T s = ra ? Ax [i * k + t] : (GG_T) 0 ;
                    GG_T *restrict y = Y + i * n + j0 ;
                    for (int64_t j = 0 ; j < w ; j++)
                    {
                        y [j] = GG_FN (host_add) (add, y [j],
                            GG_FN (host_mul) (mul, s, rb ? b [j] : (GG_T) 0)) ;
                    }
                }
            }
        }
    }
}

#undef GG_OP_PLUS
#undef GG_OP_TIMES
#undef GG_OP_MIN
#undef GG_OP_MAX
#undef GG_OP_LAND
#undef GG_OP_LOR
#undef GG_FN
#undef GG_TN
#undef GG_T
#undef GG_U
#undef GG_KIND
#undef GG_TMIN
#undef GG_TMAX
#undef GG_FMIN
#undef GG_FMAX
