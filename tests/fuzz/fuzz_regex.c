/*
 * fuzz_regex: the regex generator (regex.h) against its own search.  The
 * input is a header of 10 bytes, then a pattern:
 *   byte 0     the shortest length asked for: byte % 40 code points;
 *   byte 1     the longest: 255 is no bound, else the shortest + byte % 60;
 *   bytes 2-9  the seed of the random stream (little-endian);
 *   the rest   the pattern's text.
 * A pattern regex_compile refuses ends the input (with a reason, never an
 * empty one).  Otherwise each string regex_generate writes must be UTF-8
 * (a lone surrogate, which a pattern of nothing else makes, as WTF-8:
 * regex.h) and be matched by the same pattern's search, and the same seed
 * must give the same bytes again; the pattern is also searched for in
 * the input's own bytes.  Any of these that fails is a real finding:
 * abort().  So is an "out of memory" from either: what one pattern takes
 * (20,000 states, a 16 MB table) is far inside libFuzzer's limit, so it
 * is never real.  A search that gives up at its budget (REGEX_GAVE_UP,
 * possible for the longest strings of the largest patterns) decides
 * nothing and is not counted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "regex.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* splitmix64: the stream the generator draws from. */
static uint64_t next(void *state)
{
    uint64_t *s = state;
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* A string generated with seed into out: 0, or REGEX_TOO_LONG. */
static int generate(const regex *re, uint64_t seed, size_t lo, size_t hi,
                    buf *out)
{
    uint64_t state = seed;
    regex_rng rng = {next, &state};
    buf_reset(out);
    int rc = regex_generate(re, &rng, lo, hi, out);
    if (rc == -1 || out->failed)
        abort(); /* out of memory, which cannot be real here */
    if (rc != 0 && rc != REGEX_TOO_LONG)
        abort(); /* no such answer */
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 10)
        return 0;
    size_t lo = data[0] % 40;
    size_t hi = data[1] == 255 ? SIZE_MAX : lo + data[1] % 60;
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++)
        seed |= (uint64_t)data[2 + i] << (8 * i);
    const char *pattern = (const char *)data + 10;
    size_t len = size - 10;

    char why[256];
    why[0] = '\0';
    regex *re = regex_compile(pattern, len, why, sizeof why);
    if (!re) {
        if (!why[0] || strcmp(why, REGEX_NOMEM) == 0)
            abort(); /* no reason, or out of memory */
        return 0;
    }
    buf one = BUF_INIT, two = BUF_INIT;
    if (generate(re, seed, lo, hi, &one) == 0) {
        utf8_report r;
        if (utf8_check((const unsigned char *)one.data, one.len,
                       UTF8_SURROGATEPASS, &r) != UTF8_OK)
            abort(); /* not text */
        int found = regex_search(re, one.data, one.len);
        if (found == -1 || found == 0)
            abort(); /* the pattern does not match what it made */
        if (generate(re, seed, lo, hi, &two) != 0 || two.len != one.len ||
            (one.len && memcmp(one.data, two.data, one.len) != 0))
            abort(); /* the same seed made another string */
    }
    if (regex_search(re, (const char *)data, size) == -1)
        abort();
    buf_free(&one);
    buf_free(&two);
    regex_free(re);
    return 0;
}
