/*
 * wordscan: finding, 8 bytes of text at a time, the bytes a JSON string
 * cannot hold as they are: the controls (below 0x20), '"' and '\\'.  The
 * JSON writer (canon) stops at them to escape them, the JSON reader
 * (json_load) to decode.  Zero-byte tests on the whole word; a borrow can
 * only flag a byte after one rightly flagged, so the lowest flag is
 * always the first such byte.
 */
#ifndef TR_WORDSCAN_H
#define TR_WORDSCAN_H

#include <stdint.h>

#define WORDSCAN_HIGHS 0x8080808080808080u

/* The bytes of x (8 bytes of text, the first in the lowest bits) that are
 * controls, '"' or '\\', as their top bits. */
static inline uint64_t wordscan_escapes(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t quote = x ^ (ones * '"'), backslash = x ^ (ones * '\\');
    uint64_t has_quote = (quote - ones) & ~quote;
    uint64_t has_backslash = (backslash - ones) & ~backslash;
    uint64_t has_control = (x - ones * 0x20) & ~x;
    return (has_quote | has_backslash | has_control) & WORDSCAN_HIGHS;
}

#endif
