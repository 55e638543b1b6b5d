//------------------------------------------------------------------------------
// formats/nm_private.h: what formats/nm.c and formats/nm_pack.c share
//------------------------------------------------------------------------------

#ifndef GG_NM_PRIVATE_H
#define GG_NM_PRIVATE_H

#include "formats/nm.h"

static inline int64_t ceil_div (int64_t a, int64_t b)
{
    return (a + b - 1) / b ;
}

// level of a group size m (2 << level == m), or -1
static inline int level_of (int m)
{
    for (int l = 0 ; l < GG_NM_NLEVELS ; l++) if ((2 << l) == m) return l ;
    return -1 ;
}

#endif
