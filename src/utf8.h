/*
 * utf8: text bytes checked and decoded the way Python decodes them.
 *
 *  - utf8_detect_json() names the encoding of a JSON text from its first
 *    bytes, as Python's json.detect_encoding() does, and says how many
 *    bytes of byte order mark to skip.
 *  - utf8_check() validates UTF-8 exactly as Python's decoder does: no
 *    overlong forms, nothing past U+10FFFF, no stray or missing
 *    continuation bytes.  A surrogate (ED A0..BF xx) is an error, or with
 *    UTF8_SURROGATEPASS a lone surrogate kept as is (errors='surrogatepass').
 *  - utf8_transcode() decodes UTF-16 or UTF-32 with 'surrogatepass' into
 *    UTF-8: a surrogate pair becomes its code point, an unpaired surrogate
 *    its 3-byte form (so the output is WTF-8-like, and the same bytes as a
 *    UTF-8 input holding the same code points would have).
 *  - utf8_printable() and utf8_shown() write text from input for a
 *    message: the first as valid UTF-8, the second also with every
 *    control and bidirectional override escaped, for a terminal.
 * On failure the report says where (byte offset in the input) and why, in
 * a few words fit for an error message.
 */
#ifndef TR_UTF8_H
#define TR_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef enum utf8_encoding {
    UTF8_ENC_UTF8,
    UTF8_ENC_UTF16LE,
    UTF8_ENC_UTF16BE,
    UTF8_ENC_UTF32LE,
    UTF8_ENC_UTF32BE
} utf8_encoding;

/* Flags of utf8_check(). */
enum { UTF8_SURROGATEPASS = 1 };

/* Results of utf8_check() and utf8_transcode(). */
enum { UTF8_OK = 0, UTF8_INVALID = -1, UTF8_NOMEM = -2 };

typedef struct utf8_report {
    size_t bad_at;      /* UTF8_INVALID: offset of the first bad byte */
    const char *why;    /* UTF8_INVALID: what is wrong there */
    size_t surrogates;  /* lone surrogates passed through */
} utf8_report;

/* The encoding json.detect_encoding(b) names for the len bytes at b, in
 * *enc; returns the length of the byte order mark that the decoder drops
 * (0, 2, 3 or 4). */
size_t utf8_detect_json(const unsigned char *b, size_t len,
                        utf8_encoding *enc);

/* Whether the len bytes at s are valid UTF-8 (UTF8_OK or UTF8_INVALID);
 * flags: 0 or UTF8_SURROGATEPASS. */
int utf8_check(const unsigned char *s, size_t len, int flags,
               utf8_report *r);

/* Appends to out the UTF-8 form of the len bytes at s, decoded from enc
 * with 'surrogatepass' (UTF-8 is checked as utf8_check() does, then
 * copied).  Returns UTF8_OK, UTF8_INVALID (out then holds the text decoded
 * before the bad unit, except for UTF-8, where it is unchanged) or
 * UTF8_NOMEM. */
int utf8_transcode(buf *out, const unsigned char *s, size_t len,
                   utf8_encoding enc, utf8_report *r);

/* Appends the UTF-8 form of code point cp (< 0x110000; a surrogate gets
 * its 3-byte form) to out; 0, or -1 when memory runs out. */
int utf8_put(buf *out, unsigned long cp);

/* The value of an ASCII hex digit (0-9, a-f, A-F), or -1. */
int hex_digit_value(int c);

/* Decodes the code point at s (n > 0 bytes), accepting the 3-byte form of
 * a lone surrogate as the loaders pass them on.  Returns the bytes used;
 * a byte that starts no valid sequence counts as one byte of U+FFFD, with
 * *ok 0. */
size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp, int *ok);

/* The code points of UTF-8 text s (len bytes): its bytes that do not
 * continue a sequence. */
size_t utf8_count(const char *s, size_t len);

/* Appends the len bytes at s as valid UTF-8 for a message: a byte that
 * starts no valid sequence, and a lone surrogate, become U+FFFD; past max
 * bytes the text is cut before a character and "..." follows.  0, or -1
 * out of memory. */
int utf8_printable(buf *out, const char *s, size_t len, size_t max);

/* Appends the len bytes at s as text for a terminal, so that text from
 * input can neither forge a line nor move or recolour what follows:
 * valid UTF-8 is kept, except what is escaped, visibly and in ASCII:
 *   - a backslash is doubled, so that no escape can be forged;
 *   - C0 controls and DEL become \n, \t, \r or \xNN (\x1b for ESC);
 *   - C1 controls (U+0080-U+009F), the bidirectional embeddings,
 *     overrides and isolates (U+202A-U+202E, U+2066-U+2069), the line
 *     and paragraph separators (U+2028, U+2029) and lone surrogates
 *     become \u{NN} (\u{202e}), in lowercase hex;
 *   - a byte that starts no valid sequence becomes \xNN.
 * When the output would pass max bytes, it is cut before the character
 * (or escape) that would pass it and "..." follows ((size_t)-1: no
 * limit).  0, or -1 out of memory. */
int utf8_shown(buf *out, const char *s, size_t len, size_t max);

/* As utf8_shown without a limit, except that a backslash is kept as it
 * is: for a message whose parts from input may have been shown already
 * (its escapes stay readable, not doubled), so that whatever else it
 * quotes still cannot reach a terminal raw.  utf8_shown's output comes
 * through unchanged.  0, or -1 out of memory. */
int utf8_safe(buf *out, const char *s, size_t len);

#endif
