#ifndef NAVIGATION_HISTORY_BYTE_COUNT_H
#define NAVIGATION_HISTORY_BYTE_COUNT_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

/// How many newlines (0x0A) the `count` bytes at `p` hold.
///
/// With SSE2, 16 bytes a step, each lane counting up to 255 before the lanes are summed. Elsewhere
/// a plain loop, which compilers vectorize.
static inline size_t navigation_history_count_newlines(const uint8_t *p, size_t count) {
    size_t n = 0, i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    const __m128i newline = _mm_set1_epi8(0x0A);
    while (count - i >= 16) {
        __m128i lanes = _mm_setzero_si128();
        for (int blocks = 0; blocks < 255 && count - i >= 16; blocks++, i += 16) {
            // A match is 0xFF, -1: subtracting it adds one.
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), newline));
        }
        __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
        n += (size_t)_mm_cvtsi128_si64(sums) + (size_t)_mm_extract_epi16(sums, 4);
    }
#endif
    for (; i < count; i++) n += p[i] == 0x0A;
    return n;
}

/// The offset of the last newline among the `count` bytes at `p`, or -1 when there is none.
///
/// With SSE2, 16 bytes a step from the end.
static inline ptrdiff_t navigation_history_last_newline(const uint8_t *p, size_t count) {
    size_t end = count;
#if defined(__SSE2__) && defined(__x86_64__)
    const __m128i newline = _mm_set1_epi8(0x0A);
    while (end >= 16) {
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + end - 16)), newline));
        if (mask != 0) return (ptrdiff_t)(end - 16) + 31 - __builtin_clz(mask);
        end -= 16;
    }
#endif
    while (end > 0) {
        end--;
        if (p[end] == 0x0A) return (ptrdiff_t)end;
    }
    return -1;
}

#endif
