#ifndef NAVIGATION_HISTORY_STRING_STOPS_H
#define NAVIGATION_HISTORY_STRING_STOPS_H

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The bytes among the 16 at `p` where a JSON string's scan stops — a quote, a backslash or a
/// control character (below 0x20) — as bits 0 to 15 (bit i for byte i), and the bytes above 0x7F
/// as bits 16 to 31. All 16 bytes must be readable.
///
/// With SSE2, one vector compare for each: most strings of a log line are shorter than 16 bytes,
/// so one step finds their closing quote. Elsewhere a plain loop, which compilers vectorize.
static inline uint32_t navigation_history_string_stops16(const uint8_t *p) {
#if defined(__SSE2__)
    __m128i bytes = _mm_loadu_si128((const __m128i *)p);
    __m128i quotes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x22));
    __m128i backslashes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x5C));
    // Unsigned: a byte is at most 0x1F exactly when the larger of it and 0x1F is 0x1F.
    __m128i controls = _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));
    uint32_t stops = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quotes, backslashes), controls));
    return stops | (uint32_t)_mm_movemask_epi8(bytes) << 16;
#else
    uint32_t lanes = 0;
    for (int i = 0; i < 16; i++) {
        uint8_t byte = p[i];
        if (byte == 0x22 || byte == 0x5C || byte < 0x20) lanes |= (uint32_t)1 << i;
        if (byte >= 0x80) lanes |= (uint32_t)1 << (16 + i);
    }
    return lanes;
#endif
}

#endif
