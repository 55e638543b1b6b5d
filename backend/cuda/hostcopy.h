//------------------------------------------------------------------------------
// backend/cuda/hostcopy.h: the host side of a staged copy (also xfer_bench's)
//------------------------------------------------------------------------------

// A copy into or out of a pinned staging buffer must keep up with the ~55 GB/s
// link: split over threads in page-aligned parts, and where the destination
// is not read again soon (a download landing in the caller's array), written
// with non-temporal stores, which skip the read for ownership (16 threads:
// ~40 GB/s with memcpy, ~60 with streaming stores on the H200 host; into a
// pinned buffer ahead of a DMA, plain stores were faster).  bench/xfer_bench
// measures these very functions.

#ifndef GG_HOSTCOPY_H
#define GG_HOSTCOPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined (__x86_64__) && defined (__SSE2__)
#include <emmintrin.h>
#endif

// One thread's part; nt: non-temporal stores (SSE2; plain memcpy elsewhere).
static inline void gg_copy_part (char *dst, const char *src, size_t len,
    bool nt)
{
#if defined (__x86_64__) && defined (__SSE2__)
    if (nt && len >= 4096)
    {
        size_t head = (16 - ((uintptr_t) dst & 15)) & 15 ;
        memcpy (dst, src, head) ;
        dst += head ; src += head ; len -= head ;
        size_t k = 0 ;
        for ( ; k + 64 <= len ; k += 64)
        {
            __m128i a = _mm_loadu_si128 ((const __m128i *) (src + k)) ;
            __m128i b = _mm_loadu_si128 ((const __m128i *) (src + k + 16)) ;
            __m128i c = _mm_loadu_si128 ((const __m128i *) (src + k + 32)) ;
            __m128i d = _mm_loadu_si128 ((const __m128i *) (src + k + 48)) ;
            _mm_stream_si128 ((__m128i *) (dst + k), a) ;
            _mm_stream_si128 ((__m128i *) (dst + k + 16), b) ;
            _mm_stream_si128 ((__m128i *) (dst + k + 32), c) ;
            _mm_stream_si128 ((__m128i *) (dst + k + 48), d) ;
        }
        _mm_sfence () ;
        memcpy (dst + k, src + k, len - k) ;
        return ;
    }
#else
    (void) nt ;
#endif
    memcpy (dst, src, len) ;
}

// dst = src, bytes, on nth OpenMP threads in page-aligned parts.
static inline void gg_copy_split (void *dst, const void *src, size_t bytes,
    int nth, bool nt)
{
    if (nth < 1) nth = 1 ;
    size_t part = (bytes + (size_t) nth - 1) / (size_t) nth ;
    part = (part + 4095) & ~(size_t) 4095 ;
    #pragma omp parallel for num_threads (nth) schedule (static) if (nth > 1)
    for (int t = 0 ; t < nth ; t++)
    {
        size_t off = (size_t) t * part ;
        if (off < bytes)
        {
            size_t len = (bytes - off < part) ? bytes - off : part ;
            gg_copy_part ((char *) dst + off, (const char *) src + off, len,
                nt) ;
        }
    }
}

#endif
