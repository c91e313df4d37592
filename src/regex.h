/*
 * regex: the part of ECMA-262 regular expressions that JSON Schema
 * `pattern`s in tool files use, compiled once, then matched or generated.
 *
 * Supported: literals and escapes (\. \- \/ \\ and other escaped
 * punctuation, \t \n \r \f \v \0, \cA..\cZ, \xHH, \uXXXX, \u{X...}),
 * `.`, classes `[a-z0-9_]` and negated `[^...]` (with \d \w \s \b \- \]
 * inside, `-` literal at either end, `[]` matching nothing and `[^]`
 * anything), `\d \D \w \W \s \S`, anchors `^ $`, groups `( )` and
 * `(?: )`, alternation `|`, quantifiers `* + ? {n} {n,} {n,m}` (n, m at
 * most 1000) and their lazy forms.
 * Meanings: \d is [0-9], \w [A-Za-z0-9_], \s the ECMA white space and
 * line terminators (tab..CR, space, U+00A0, U+1680, U+2000..U+200A,
 * U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF); `.` is any code point
 * but \n \r U+2028 U+2029; ^ and $ match only at the ends of the string
 * (no multiline: "a\n" does not match ^a$).  As in ECMA's Annex B, a `{`
 * that does not start {n}, {n,} or {n,m} is a literal (`a{,5}` is four
 * literals), so are `]` and `}`, and in a class `[\w-.]` the `-` next to a
 * class escape is a literal.  As in Unicode mode, the unit is the code
 * point: \uD83D\uDE00 written as two escapes is one code point, and `.`
 * matches an emoji.
 * Refused at compile time, with a one-line reason that names the
 * construct, so a caller can say plainly that a pattern is outside the
 * subset: backreferences \1 \k<name>, lookahead and lookbehind, named
 * groups (?<name>...), Python's (?P...), inline flags (?i), \p{...},
 * word boundaries \b \B, octal escapes, unknown letter escapes (\A \z
 * \a..., which other dialects read differently); malformed patterns
 * (unbalanced parentheses, unterminated class, range z-a, {2,1}, a
 * quantifier with nothing to repeat, bad \x \u \c escapes, invalid
 * UTF-8); groups nested more than 64 deep; patterns that grow past 20000
 * NFA states once counted repetitions are written out; and patterns that
 * can match no string at all (`a^b`, `[]`), for which nothing could be
 * generated.
 *
 * Matching follows JSON Schema: the pattern is searched anywhere in the
 * string (not anchored) unless it says ^ or $.  Text is UTF-8; `.` and
 * classes match whole code points, and a byte that is not valid UTF-8 is
 * read as one U+FFFD.  The search simulates the automaton over all live
 * states at once (no backtracking), so its time is bounded by the string's
 * length times the pattern's size: `(a*)*b` cannot blow up.  That product
 * can still be large (a pattern of 20,000 states against a string of
 * 4 MiB), so a search also has a budget of work, counted in states visited
 * and sets tested (REGEX_SEARCH_WORK: 2^27, about 134 million, some
 * tenths of a second); past it, it stops and says it could not decide.
 * The count does not depend on the machine or its load: the same search
 * gives up, or not, everywhere.  `^[A-Za-z0-9+/]*={0,2}$` against 4 MiB
 * (the longest line a transcript may have) takes a third of the budget;
 * `(a{0,999}){9}x` (18,000 states, most of them live) gives up after a
 * few thousand a's.
 *
 * Generation writes a string the pattern matches, choosing alternatives,
 * characters and repetition counts with a caller's random stream; the same
 * stream gives the same string.  With no bounds the string stays short:
 * at most the pattern's length when each unbounded quantifier repeats n+3
 * times (or 3, if that is more).
 * Characters are readable: an explicit class of printable ASCII draws from
 * all its members, a wider set (`.`, \w, [^"]...) from its ASCII letters
 * and digits, else its other printable ASCII, else anything in it.
 */
#ifndef TR_REGEX_H
#define TR_REGEX_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef struct regex regex;

/* A caller's source of random numbers for generation. */
typedef struct regex_rng {
    uint64_t (*next)(void *state);
    void *state;
} regex_rng;

/* Compiles pattern (len bytes, UTF-8).  On failure returns NULL and writes
 * a one-line reason into why (e.g. "lookahead (?=...) is not supported");
 * when memory ran out, the reason is exactly REGEX_NOMEM. */
#define REGEX_NOMEM "out of memory"
regex *regex_compile(const char *pattern, size_t len, char *why, size_t whysize);

/* 1 when the pattern matches somewhere in s, 0 when not, -1 when memory
 * runs out (possible only for patterns of more than 256 NFA states),
 * REGEX_GAVE_UP when the search passed REGEX_SEARCH_WORK without an
 * answer (the string may match or not). */
#define REGEX_GAVE_UP (-3)
#define REGEX_SEARCH_WORK ((size_t)1 << 27)
int regex_search(const regex *re, const char *s, size_t len);

/* regex_search, spending from *work, the budget left to a caller that
 * makes several searches (one schema check): *work is lowered by what
 * this search took (to 0 when it gave up), and REGEX_GAVE_UP comes back
 * when it ran out before an answer. */
int regex_search_within(const regex *re, const char *s, size_t len,
                        size_t *work);

/* Appends to out a string the pattern matches (as a search: what is outside
 * ^...$ may be left empty), of code points between min_len and max_len
 * when the pattern allows it (max_len SIZE_MAX: no bound).  When the
 * pattern alone cannot reach that length but is not anchored, the string
 * is padded with letters and digits before or after the match; when no
 * length in range is possible at all, the nearest possible length is
 * used (the shorter on a tie).  The string always matches.  Lengths are
 * exact, not best effort, up to a bound of 2^27 / (NFA states) code
 * points (6700 for the largest patterns) and within a bound of work
 * (about 4 million states and moves visited while finding the possible
 * lengths), past which the longest length within the bounds is used.
 * Returns 0; REGEX_TOO_LONG, out as it was, when the pattern's shortest
 * match lies past those bounds (thousands of code points, none of them
 * optional, as in `^(x{1000}){12}$`); -1 out of memory (out as it was). */
#define REGEX_TOO_LONG (-2)
int regex_generate(const regex *re, regex_rng *rng, size_t min_len,
                   size_t max_len, buf *out);

void regex_free(regex *re);

#endif
