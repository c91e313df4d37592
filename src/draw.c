/*
 * draw: see draw.h.
 *
 * One recursive walk over the schema, following $refs.  Each value draws
 * from its own stream, keyed by its path, so adding a property to a schema
 * does not change the values drawn for the others.
 */
#include "draw.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "canon.h"
#include "regex.h"
#include "schema.h"
#include "shape.h"
#include "utf8.h"
#include "vbuild.h"

#define DEEP 3      /* past this depth, only required members are drawn */
#define TOO_DEEP 24 /* a schema that needs itself deeper has no end */
#define CHAIN_MAX 32 /* schemas entered at one place ($ref, allOf, a branch) */

/* The path of the value being drawn ("$.lines[2].sku"), NUL-terminated:
 * in its own bytes while it is short, as nearly every path is, so that a
 * draw costs no allocation for it; on the heap past that. */
#define PATH_SMALL 256
struct dpath {
    char *data; /* small, or the heap */
    size_t len, cap;
    char small[PATH_SMALL];
};

struct dctx {
    arena *a;
    const value *root;
    const patterns *patterns; /* compiled patterns of root's document */
    const draw_key *k;
    err *e;
    struct dpath path; /* never copied: data may point into it */
    buf text;          /* the string being drawn (draw_string) */
    /* The schemas entered since the path last grew: one entered twice
     * refers to itself without drawing anything, and has no end. */
    const value *chain[CHAIN_MAX];
    size_t nchain;
    size_t values, bytes; /* drawn so far, against DRAW_MAX_* */
    int hard;             /* out of memory or over budget: no retry */
};

static void path_init(struct dpath *p)
{
    p->data = p->small;
    p->len = 0;
    p->cap = sizeof p->small;
    p->small[0] = '\0';
}

/* Appends n bytes: 0, or -1 out of memory (p unchanged). */
static int path_add(struct dpath *p, const char *s, size_t n)
{
    if (n >= p->cap - p->len) {
        if (n > SIZE_MAX / 2 - p->len)
            return -1;
        size_t cap = 2 * (p->len + n + 1);
        char *d = p->data == p->small ? malloc(cap) : realloc(p->data, cap);
        if (!d)
            return -1;
        if (p->data == p->small)
            memcpy(d, p->small, p->len + 1);
        p->data = d;
        p->cap = cap;
    }
    memcpy(p->data + p->len, s, n);
    p->len += n;
    p->data[p->len] = '\0';
    return 0;
}

/* Cuts the path back to its first len bytes. */
static void path_cut(struct dpath *p, size_t len)
{
    p->len = len;
    p->data[len] = '\0';
}

static void path_free(struct dpath *p)
{
    if (p->data != p->small)
        free(p->data);
}

void draw_key_init(draw_key *k, const char *file_sha256, uint64_t seed,
                   const char *tool, const char *args_canonical,
                   size_t args_len)
{
    static const char tag[] = "taskreplay/draw/1";
    unsigned char le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(seed >> (8 * i));
    size_t sha_len = strlen(file_sha256) + 1, tool_len = strlen(tool) + 1;
    XXH3_64bits_reset(&k->state);
    /* The layout in one piece when it is short, as it nearly always is:
     * one update costs less than six, and hashes the same bytes. */
    unsigned char one[512];
    size_t fixed = sizeof tag + sha_len + sizeof le + tool_len;
    if (fixed < sizeof one && args_len < sizeof one - fixed) {
        size_t n = 0;
        memcpy(one + n, tag, sizeof tag); /* with its NUL */
        n += sizeof tag;
        memcpy(one + n, file_sha256, sha_len);
        n += sha_len;
        memcpy(one + n, le, sizeof le);
        n += sizeof le;
        memcpy(one + n, tool, tool_len);
        n += tool_len;
        if (args_len)
            memcpy(one + n, args_canonical, args_len);
        n += args_len;
        one[n++] = '\0';
        XXH3_64bits_update(&k->state, one, n);
        return;
    }
    XXH3_64bits_update(&k->state, tag, sizeof tag);
    XXH3_64bits_update(&k->state, file_sha256, sha_len);
    XXH3_64bits_update(&k->state, le, sizeof le);
    XXH3_64bits_update(&k->state, tool, tool_len);
    XXH3_64bits_update(&k->state, args_canonical, args_len);
    XXH3_64bits_update(&k->state, "", 1);
}

draw_stream draw_at(const draw_key *k, const char *path, size_t len)
{
    XXH3_state_t st;
    XXH3_copyState(&st, &k->state);
    XXH3_64bits_update(&st, path, len);
    draw_stream s = {XXH3_64bits_digest(&st)};
    return s;
}

uint64_t draw_next(draw_stream *s)
{
    uint64_t z = (s->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t draw_below(draw_stream *s, uint64_t n)
{
    /* Rejection keeps every outcome equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = draw_next(s);
    while (x >= limit);
    return x % n;
}

static draw_stream stream_here(const struct dctx *c)
{
    return draw_at(c->k, c->path.data, c->path.len);
}

/* 1 when schema accepts v, 0 when not, -1 out of memory.  A value the
 * check could not decide on (2) is accepted, as it was before the check
 * said so: what the generator draws does not change. */
static int accepts(const struct dctx *c, const value *schema, const value *v)
{
    int rc = schema_check_with(c->root, c->patterns, schema, v, "the value",
                               NULL);
    return rc < 0 ? -1 : rc == 0 || rc == 2;
}

static value *nomem(struct dctx *c)
{
    c->hard = 1;
    err_set(c->e, ERR_NOMEM, "out of memory drawing a value");
    return NULL;
}

static value *over_budget(struct dctx *c)
{
    c->hard = 1;
    err_set(c->e, ERR_VALUE,
            "no value can be drawn at %s: the schema needs more than %u "
            "values or %u MiB of text in one answer",
            c->path.data, (unsigned)DRAW_MAX_VALUES,
            (unsigned)(DRAW_MAX_BYTES >> 20));
    return NULL;
}

static value *cannot(struct dctx *c, const char *why)
{
    err_set(c->e, ERR_VALUE, "no value can be drawn at %s: %s",
            c->path.data, why);
    return NULL;
}

/* ------------------------------------------------------------ numbers */

static int num_of(const value *v, double *out)
{
    if (!v)
        return 0;
    if (v->kind == V_FLOAT) {
        *out = v->u.d;
        return isfinite(v->u.d);
    }
    if (v->kind == V_INT) {
        /* Up to 15 digits the value is a double exactly, which is what
         * strtod gives too. */
        const char *t = v->u.str.ptr;
        size_t n = v->u.str.len, neg = t[0] == '-';
        if (n - neg <= 15) {
            int64_t i = 0;
            for (size_t k = neg; k < n; k++)
                i = i * 10 + (t[k] - '0');
            *out = (double)(neg ? -i : i);
            return 1;
        }
        *out = strtod(t, NULL);
        return 1;
    }
    return 0;
}

/* The bounds a schema sets: [lo, hi], with exclusive ends flagged. */
struct bounds {
    double lo, hi;
    int has_lo, has_hi, ex_lo, ex_hi;
};

static struct bounds bounds_of(const schema_keywords *K)
{
    struct bounds b = {0, 0, 0, 0, 0, 0};
    double x;
    b.has_lo = num_of(schema_keyword(K, SK_MINIMUM), &b.lo);
    b.has_hi = num_of(schema_keyword(K, SK_MAXIMUM), &b.hi);
    const value *exlo = schema_keyword(K, SK_EXCLUSIVE_MINIMUM);
    const value *exhi = schema_keyword(K, SK_EXCLUSIVE_MAXIMUM);
    if (exlo && exlo->kind == V_BOOL)
        b.ex_lo = exlo->u.b && b.has_lo;
    else if (num_of(exlo, &x) && (!b.has_lo || x >= b.lo))
        b.lo = x, b.has_lo = 1, b.ex_lo = 1;
    if (exhi && exhi->kind == V_BOOL)
        b.ex_hi = exhi->u.b && b.has_hi;
    else if (num_of(exhi, &x) && (!b.has_hi || x <= b.hi))
        b.hi = x, b.has_hi = 1, b.ex_hi = 1;
    return b;
}

/* The range of an integer format people write (int8 ... int64, uint8 ...
 * uint64) in [*lo, *hi]: 1, or 0 for any other format. */
static int format_range(const value *fmt, double *lo, double *hi)
{
    if (!fmt || fmt->kind != V_STRING)
        return 0;
    static const char *const names[] = {"int8",  "int16",  "int32",  "int64",
                                        "uint8", "uint16", "uint32", "uint64"};
    for (int i = 0; i < 8; i++)
        if (fmt->u.str.len == strlen(names[i]) &&
            memcmp(fmt->u.str.ptr, names[i], fmt->u.str.len) == 0) {
            int sign = i < 4;
            double span = ldexp(1, 8 << (i % 4)); /* 2^bits */
            *lo = sign ? -span / 2 : 0;
            *hi = sign ? span / 2 - 1 : span - 1;
            return 1;
        }
    return 0;
}

static value *draw_integer(struct dctx *c, const schema_keywords *K)
{
    struct bounds b = bounds_of(K);
    /* an integer format narrows the bounds, never the default 1 to 1000
     * where it holds them: a uint8 is at most 255, a uint32 never
     * negative */
    double flo, fhi;
    int ranged = format_range(schema_keyword(K, SK_FORMAT), &flo, &fhi);
    double lo = b.has_lo ? (b.ex_lo ? floor(b.lo) + 1 : ceil(b.lo)) : 1;
    if (ranged && lo < flo)
        lo = flo;
    double hi = b.has_hi ? (b.ex_hi ? ceil(b.hi) - 1 : floor(b.hi)) : lo + 999;
    if (ranged && hi > fhi)
        hi = fhi;
    if (!b.has_lo && b.has_hi && hi < lo)
        lo = hi - 999;
    if (ranged && lo < flo)
        lo = flo;
    double step = 1, m;
    if (num_of(schema_keyword(K, SK_MULTIPLE_OF), &m) && m > 0 && m == floor(m))
        step = m;
    lo = ceil(lo / step) * step;
    hi = floor(hi / step) * step;
    if (lo > hi)
        return cannot(c, "no integer lies within its bounds");
    if (lo < -9e15)
        lo = -9e15;
    if (hi > 9e15)
        hi = 9e15;
    draw_stream st = stream_here(c);
    uint64_t span = (uint64_t)((hi - lo) / step) + 1;
    long long v = (long long)(lo + (double)draw_below(&st, span) * step);
    value *out = vb_int(c->a, v);
    return out ? out : nomem(c);
}

static value *draw_number(struct dctx *c, const schema_keywords *K)
{
    struct bounds b = bounds_of(K);
    double lo = b.has_lo ? b.lo : (b.has_hi && b.hi < 1 ? b.hi - 1000 : 1);
    double hi = b.has_hi ? b.hi : lo + 999;
    double m, v;
    draw_stream st = stream_here(c);
    if (num_of(schema_keyword(K, SK_MULTIPLE_OF), &m) && m > 0) {
        double k0 = ceil(lo / m), k1 = floor(hi / m);
        if (b.ex_lo && k0 * m <= lo)
            k0++;
        if (b.ex_hi && k1 * m >= hi)
            k1--;
        if (k0 > k1)
            return cannot(c, "no multiple of multipleOf lies within its bounds");
        v = (k0 + (double)draw_below(&st, (uint64_t)(k1 - k0) + 1)) * m;
    } else {
        if (lo > hi || (lo == hi && (b.ex_lo || b.ex_hi)))
            return cannot(c, "no number lies within its bounds");
        /* cents: readable, and well inside exclusive ends */
        v = lo + (hi - lo) * ((double)draw_below(&st, 1000000) / 1e6);
        v = round(v * 100) / 100;
        if (v < lo || (b.ex_lo && v <= lo) || v > hi || (b.ex_hi && v >= hi))
            v = lo + (hi - lo) / 2;
    }
    value *out = value_new(c->a, V_FLOAT, 0, 0);
    if (!out)
        return nomem(c);
    out->u.d = v;
    return out;
}

/* ------------------------------------------------------------ strings */

static const char *const words[] = {
    "amber", "harbor", "maple", "cedar", "orbit", "river", "signal",
    "copper", "meadow", "lantern", "summit", "willow", "canyon", "ember",
    "falcon", "granite", "juniper", "kestrel", "lumen", "marble"};
static const char *const first_names[] = {"Maria", "Amir", "Lena",  "Kofi",
                                          "Yuki",  "Diego", "Priya", "Tomas"};
static const char *const last_names[] = {"Lopez", "Haddad", "Novak", "Mensah",
                                         "Tanaka", "Silva", "Rao",  "Berg"};

/* A property's name, lower-cased once for the tests below; a name of 64
 * bytes or more is like no word at all. */
typedef struct lowered {
    const char *name;
    size_t n;
    int ok;
    char low[64];
} lowered;

static void lower(lowered *l, const char *name)
{
    l->name = name;
    l->n = strlen(name);
    l->ok = l->n < sizeof l->low;
    if (l->ok)
        for (size_t i = 0; i <= l->n; i++)
            l->low[i] = (char)tolower((unsigned char)name[i]);
}

static int name_is(const lowered *l, const char *word)
{
    size_t n = l->n, w = strlen(word);
    if (!l->ok)
        return 0;
    if (strcmp(l->low, word) == 0)
        return 1;
    /* a suffix after a separator or a case change: order_id, orderId */
    return n > w && strcmp(l->low + n - w, word) == 0 &&
           (l->name[n - w - 1] == '_' || l->name[n - w - 1] == '-' ||
            isupper((unsigned char)l->name[n - w]));
}

static int name_has(const lowered *l, const char *word)
{
    return l->ok && strstr(l->low, word) != NULL;
}

/* Appends v (not negative) in decimal, zero-padded to width digits. */
static void put_padded(buf *b, long v, int width)
{
    char digits[24];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n < width)
        digits[n++] = '0';
    while (n > 0)
        buf_putc(b, digits[--n]);
}

static void put_digits(buf *b, draw_stream *st, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf_putc(b, (char)('0' + draw_below(st, 10)));
}

/* An id: a capital letter, a dash, digits ("A-3317"), as long as asked. */
static void make_id(buf *b, draw_stream *st, size_t len)
{
    if (len < 3) {
        put_digits(b, st, len);
        return;
    }
    buf_putc(b, (char)('A' + draw_below(st, 26)));
    buf_putc(b, '-');
    put_digits(b, st, len - 2);
}

static void make_datetime(buf *b, draw_stream *st, int date, int time)
{
    /* DRAW_CLOCK minus up to a year */
    long days = (long)draw_below(st, 365);
    long secs = (long)draw_below(st, 86400);
    /* 2026-10-26 is day 20752 since 1970-01-01 */
    long z = 20752 - days + 719468;
    long era = z / 146097, doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long d = doy - (153 * mp + 2) / 5 + 1;
    long m = mp < 10 ? mp + 3 : mp - 9;
    long y = yoe + era * 400 + (m <= 2);
    if (date) { /* YYYY-MM-DD */
        put_padded(b, y, 4);
        buf_putc(b, '-');
        put_padded(b, m, 2);
        buf_putc(b, '-');
        put_padded(b, d, 2);
    }
    if (date && time)
        buf_putc(b, 'T');
    if (time) { /* HH:MM:SSZ */
        put_padded(b, secs / 3600, 2);
        buf_putc(b, ':');
        put_padded(b, secs / 60 % 60, 2);
        buf_putc(b, ':');
        put_padded(b, secs % 60, 2);
        buf_putc(b, 'Z');
    }
}

/* Fits s into [min, max] characters (ASCII): pads with letters, cuts. */
static void fit(buf *b, draw_stream *st, size_t min, size_t max)
{
    while (b->len < min)
        buf_putc(b, (char)('a' + draw_below(st, 26)));
    if (b->len > max) {
        b->len = max;
        b->data[max] = '\0';
    }
}

/* Appends the base64 of n bytes at p (RFC 4648, with padding). */
static void put_base64(buf *b, const char *p, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t x = (uint32_t)(unsigned char)p[i] << 16;
        if (i + 1 < n)
            x |= (uint32_t)(unsigned char)p[i + 1] << 8;
        if (i + 2 < n)
            x |= (unsigned char)p[i + 2];
        buf_putc(b, digits[x >> 18 & 63]);
        buf_putc(b, digits[x >> 12 & 63]);
        buf_putc(b, i + 1 < n ? digits[x >> 6 & 63] : '=');
        buf_putc(b, i + 2 < n ? digits[x & 63] : '=');
    }
}

/* A value of the string format fmt into b: 1, or 0 for a format not
 * known here.  Besides the formats JSON Schema names, those people write
 * in OpenAPI files are drawn as what they say: "dateTime" (a date-time),
 * "url" and "uriref" (a uri), "ip-address" (an IPv4 address), "cidr" and
 * "CIDR" (an IPv4 network), "byte" and "base64" (base64 text). */
static int format_string(buf *b, draw_stream *st, const char *fmt)
{
    static const char hex[] = "0123456789abcdef";
    if (strcmp(fmt, "date-time") == 0 || strcmp(fmt, "dateTime") == 0) {
        make_datetime(b, st, 1, 1);
    } else if (strcmp(fmt, "date") == 0) {
        make_datetime(b, st, 1, 0);
    } else if (strcmp(fmt, "time") == 0) {
        make_datetime(b, st, 0, 1);
    } else if (strcmp(fmt, "email") == 0) {
        const char *f = first_names[draw_below(st, 8)];
        const char *l = last_names[draw_below(st, 8)];
        for (const char *p = f; *p; p++)
            buf_putc(b, (char)tolower((unsigned char)*p));
        buf_putc(b, '.');
        for (const char *p = l; *p; p++)
            buf_putc(b, (char)tolower((unsigned char)*p));
        buf_puts(b, "@example.com");
    } else if (strcmp(fmt, "uri") == 0 || strcmp(fmt, "url") == 0 ||
               strcmp(fmt, "uri-reference") == 0 ||
               strcmp(fmt, "uriref") == 0) {
        buf_puts(b, "https://example.com/");
        buf_puts(b, words[draw_below(st, sizeof words / sizeof *words)]);
        buf_putc(b, '/');
        put_digits(b, st, 4);
    } else if (strcmp(fmt, "uuid") == 0) {
        for (int i = 0; i < 32; i++) {
            if (i == 8 || i == 12 || i == 16 || i == 20)
                buf_putc(b, '-');
            unsigned x = (unsigned)draw_below(st, 16);
            if (i == 12)
                x = 4; /* version 4 */
            if (i == 16)
                x = 8 + (x & 3); /* variant 10xx */
            buf_putc(b, hex[x]);
        }
    } else if (strcmp(fmt, "hostname") == 0) {
        buf_printf(b, "%s-%u.example.com",
                   words[draw_below(st, sizeof words / sizeof *words)],
                   (unsigned)draw_below(st, 10));
    } else if (strcmp(fmt, "ipv4") == 0 || strcmp(fmt, "ip-address") == 0) {
        buf_puts(b, "192.0.2.");
        put_padded(b, (long)(1 + draw_below(st, 254)), 1);
    } else if (strcmp(fmt, "ipv6") == 0) {
        buf_printf(b, "2001:db8::%x", (unsigned)(1 + draw_below(st, 0xfffe)));
    } else if (strcmp(fmt, "cidr") == 0 || strcmp(fmt, "CIDR") == 0) {
        /* the networks set aside for documentation (RFC 5737) */
        static const char *const nets[] = {"192.0.2.0/24", "198.51.100.0/24",
                                           "203.0.113.0/24"};
        buf_puts(b, nets[draw_below(st, 3)]);
    } else if (strcmp(fmt, "byte") == 0 || strcmp(fmt, "base64") == 0) {
        const char *w = words[draw_below(st, sizeof words / sizeof *words)];
        put_base64(b, w, strlen(w));
    } else {
        return 0;
    }
    return 1;
}

static size_t count_kw(const value *kw, size_t dflt)
{
    double x;
    if (!num_of(kw, &x) || x < 0)
        return dflt;
    return x > 1e6 ? 1000000 : (size_t)x;
}

static uint64_t rng_next(void *state)
{
    return draw_next(state);
}

/* A string for the keywords; *from_pattern tells whether the pattern's
 * regex wrote it. */
static value *draw_string(struct dctx *c, const schema_keywords *K,
                          const char *name, int *from_pattern)
{
    size_t min = count_kw(schema_keyword(K, SK_MIN_LENGTH), 0);
    size_t max = count_kw(schema_keyword(K, SK_MAX_LENGTH), SIZE_MAX);
    if (min > max)
        return cannot(c, "minLength is above maxLength");
    draw_stream st = stream_here(c);
    buf *b = &c->text; /* the draw's own, emptied for each string */
    buf_reset(b);
    const value *fmt = schema_keyword(K, SK_FORMAT);
    const value *pat = schema_keyword(K, SK_PATTERN);
    int done = 0;
    const regex *re = NULL;
    regex *owned = NULL; /* re, when compiled here for this draw */
    if (pat && pat->kind == V_STRING) {
        int oom;
        re = patterns_regex(c->patterns, pat, &owned, &oom);
        if (oom)
            return nomem(c);
    }
    /* A known format first (a date is a date); the pattern when the
     * format's value does not match it. */
    if (fmt && fmt->kind == V_STRING) {
        done = format_string(b, &st, fmt->u.str.ptr);
        if (done && re && regex_search(re, b->data, b->len) != 1) {
            buf_reset(b);
            done = 0;
        }
    }
    if (!done && re) {
        regex_rng rng = {rng_next, &st};
        int rc = regex_generate(re, &rng, min, max, b);
        if (rc < 0) {
            regex_free(owned);
            return rc == REGEX_TOO_LONG
                       ? cannot(c, "the pattern's shortest match is too "
                                   "long to generate")
                       : nomem(c);
        }
        done = 1;
        *from_pattern = 1;
    }
    regex_free(owned);
    if (!done) {
        size_t want = min > 6 ? min : (max < 6 ? max : 6);
        lowered l = {NULL, 0, 0, {0}};
        if (name)
            lower(&l, name);
        if (name && (name_is(&l, "id") || name_is(&l, "key") ||
                     name_is(&l, "code") || name_is(&l, "sku"))) {
            make_id(b, &st, want);
        } else if (name && name_has(&l, "email")) {
            format_string(b, &st, "email");
        } else if (name && (name_has(&l, "url") || name_has(&l, "uri") ||
                            name_has(&l, "link"))) {
            format_string(b, &st, "uri");
        } else if (name && name_is(&l, "name")) {
            buf_printf(b, "%s %s", first_names[draw_below(&st, 8)],
                       last_names[draw_below(&st, 8)]);
        } else if (name && name_has(&l, "phone")) {
            buf_puts(b, "+1-555-01");
            put_digits(b, &st, 2);
        } else {
            size_t n = 1 + draw_below(&st, 3);
            for (size_t i = 0; i < n; i++) {
                if (i)
                    buf_putc(b, ' ');
                buf_puts(b,
                         words[draw_below(&st, sizeof words / sizeof *words)]);
            }
        }
        fit(b, &st, min, max);
    }
    if ((!b->data && buf_reserve(b, 0) < 0) || b->failed)
        return nomem(c);
    if ((c->bytes += b->len) > DRAW_MAX_BYTES)
        return over_budget(c);
    value *out = value_new_text(c->a, V_STRING, b->data, b->len, 0, 0);
    return out ? out : nomem(c);
}

/* A length keyword that draw_string() and the check read as the same
 * count: absent, or a non-negative integer below the draw's cap. */
static int plain_count(const value *kw, size_t *n)
{
    if (!kw)
        return 1;
    if (kw->kind != V_INT || kw->u.str.ptr[0] == '-' || kw->u.str.len > 6)
        return 0;
    size_t count = 0;
    for (size_t i = 0; i < kw->u.str.len; i++)
        count = count * 10 + (size_t)(kw->u.str.ptr[i] - '0');
    *n = count;
    return 1;
}

/* Whether schema_check() is sure to accept the string v that
 * draw_string() drew for the keywords, so that asking it can be spared.
 * For a string the check reads type, const, enum, minLength, maxLength,
 * pattern, format and the combinators; this asks for {"type": "string"},
 * lengths read alike, no const, enum, format or combinator, and either
 * no pattern (the draw is then ASCII, so code points are bytes, and fit()
 * put its length within the bounds) or a draw written by the pattern's
 * regex (which always matches it, see regex.h) whose length is within
 * the bounds. */
static int sure_to_pass(const schema_keywords *K, const value *v,
                        int from_pattern)
{
    const uint32_t read = (uint32_t)1 << SK_CONST | (uint32_t)1 << SK_ENUM |
                          (uint32_t)1 << SK_FORMAT | (uint32_t)1 << SK_ALL_OF |
                          (uint32_t)1 << SK_ANY_OF | (uint32_t)1 << SK_ONE_OF;
    const value *t = schema_keyword(K, SK_TYPE);
    size_t min = 0, max = SIZE_MAX;
    if ((K->present & read) || !t || t->kind != V_STRING ||
        t->u.str.len != 6 || memcmp(t->u.str.ptr, "string", 6) != 0 ||
        !plain_count(schema_keyword(K, SK_MIN_LENGTH), &min) ||
        !plain_count(schema_keyword(K, SK_MAX_LENGTH), &max))
        return 0;
    if (!schema_keyword(K, SK_PATTERN))
        return 1;
    if (!from_pattern)
        return 0;
    size_t points = utf8_count(v->u.str.ptr, v->u.str.len);
    return points >= min && points <= max;
}

/* A string that the whole schema accepts: a pattern's optional parts or a
 * format beside a pattern may need another try, each from its own stream
 * ("$.when", then "$.when#1"...). */
static value *draw_string_checked(struct dctx *c, const value *s,
                                  const schema_keywords *K, const char *name)
{
    size_t mark = c->path.len;
    value *v = NULL;
    for (int attempt = 0; attempt < 8; attempt++) {
        char mark_text[2] = {'#', (char)('0' + attempt)};
        if (attempt && path_add(&c->path, mark_text, 2) < 0)
            return nomem(c);
        int from_pattern = 0;
        v = draw_string(c, K, name, &from_pattern);
        path_cut(&c->path, mark);
        if (!v)
            return NULL;
        if (sure_to_pass(K, v, from_pattern))
            return v;
        int ok = accepts(c, s, v);
        if (ok < 0)
            return nomem(c);
        if (ok)
            return v;
    }
    return cannot(c, "no string drawn meets all of its keywords (its "
                     "format and pattern may exclude each other)");
}

/* ------------------------------------------------------------ the walk */

static value *gen(struct dctx *c, const value *schema, const char *name,
                  unsigned depth);

static value *gen_at(struct dctx *c, const value *schema, const char *name,
                     const char *key, size_t index, unsigned depth)
{
    size_t mark = c->path.len;
    int rc;
    if (key) {
        rc = path_add(&c->path, ".", 1) < 0 ||
             path_add(&c->path, key, strlen(key)) < 0;
    } else {
        char digits[24];
        size_t n = sizeof digits;
        digits[--n] = ']';
        do
            digits[--n] = (char)('0' + index % 10);
        while ((index /= 10) != 0);
        digits[--n] = '[';
        rc = path_add(&c->path, digits + n, sizeof digits - n) < 0;
    }
    if (rc) {
        path_cut(&c->path, mark);
        return nomem(c);
    }
    size_t nchain = c->nchain;
    c->nchain = 0; /* a new place: its schemas may be entered again */
    value *v = gen(c, schema, key ? key : name, depth + 1);
    c->nchain = nchain;
    path_cut(&c->path, mark);
    return v;
}

static int listed(const value *arr, const char *s, size_t len)
{
    if (!arr || arr->kind != V_ARRAY)
        return 0;
    for (size_t i = 0; i < arr->u.arr.len; i++) {
        const value *x = arr->u.arr.items[i];
        if (x->kind == V_STRING && x->u.str.len == len &&
            memcmp(x->u.str.ptr, s, len) == 0)
            return 1;
    }
    return 0;
}

/* An object from one or more object schemas (allOf merges them): every
 * property, or only the required ones once deep. */
static value *gen_object(struct dctx *c, const value *const *parts,
                         size_t nparts, unsigned depth, int minimal)
{
    /* Each part's properties and required, looked up once. */
    const value *props_of[SHAPE_MAX], *req_of[SHAPE_MAX];
    size_t cap = 0;
    if (nparts > SHAPE_MAX)
        nparts = SHAPE_MAX;
    for (size_t p = 0; p < nparts; p++) {
        const value *props = props_of[p] = schema_kw(parts[p], "properties");
        const value *req = req_of[p] = schema_kw(parts[p], "required");
        cap += (props && props->kind == V_OBJECT ? props->u.obj.len : 0) +
               (req && req->kind == V_ARRAY ? req->u.arr.len : 0);
    }
    value *o = value_new(c->a, V_OBJECT, 0, 0);
    value_member *m = cap ? arena_alloc(c->a, cap * sizeof *m) : NULL;
    if (!o || (cap && !m))
        return nomem(c);
    size_t n = 0;
    for (size_t p = 0; p < nparts; p++) {
        const value *props = props_of[p];
        if (!props || props->kind != V_OBJECT)
            continue;
        for (size_t i = 0; i < props->u.obj.len; i++) {
            const value *k = props->u.obj.items[i].key;
            if (k->kind != V_STRING)
                continue;
            int required = 0, seen = 0;
            for (size_t q = 0; q < nparts; q++)
                required |= listed(req_of[q], k->u.str.ptr, k->u.str.len);
            for (size_t j = 0; j < n; j++)
                seen |= m[j].key == k ||
                        (m[j].key->u.str.len == k->u.str.len &&
                         memcmp(m[j].key->u.str.ptr, k->u.str.ptr,
                                k->u.str.len) == 0);
            if (seen || (!required && (depth > DEEP || minimal)))
                continue;
            /* Parts may each describe the property (a oneOf branch narrows
             * an enum): draw from the last that does, and keep a value all
             * of them accept, trying the earlier ones in turn. */
            const value *defs[SHAPE_MAX];
            size_t nd = 0;
            for (size_t q = 0; q < nparts && nd < SHAPE_MAX; q++) {
                const value *d =
                    value_get(props_of[q], k->u.str.ptr, k->u.str.len);
                if (d)
                    defs[nd++] = d;
            }
            value *v = NULL;
            for (size_t q = nd; q-- > 0;) {
                v = gen_at(c, defs[q], NULL, k->u.str.ptr, 0, depth);
                if (!v)
                    return NULL;
                /* The last try stands whatever the check says. */
                int ok = 1;
                for (size_t r = 0; r < nd && ok && q > 0; r++) {
                    ok = accepts(c, defs[r], v);
                    if (ok < 0)
                        return nomem(c);
                }
                if (ok)
                    break;
            }
            m[n].key = (value *)k;
            m[n++].val = v;
        }
    }
    /* required names that no properties describe: strings */
    for (size_t p = 0; p < nparts; p++) {
        const value *req = req_of[p];
        if (!req || req->kind != V_ARRAY)
            continue;
        for (size_t i = 0; i < req->u.arr.len; i++) {
            value *k = req->u.arr.items[i];
            int seen = 0;
            if (k->kind != V_STRING)
                continue;
            for (size_t j = 0; j < n; j++)
                seen |= m[j].key->u.str.len == k->u.str.len &&
                        memcmp(m[j].key->u.str.ptr, k->u.str.ptr,
                               k->u.str.len) == 0;
            if (seen)
                continue;
            static const value any = {V_OBJECT, 0, 0, 0, {0}};
            value *v = gen_at(c, &any, NULL, k->u.str.ptr, 0, depth);
            if (!v)
                return NULL;
            m[n].key = k;
            m[n++].val = v;
        }
    }
    o->u.obj.items = m;
    o->u.obj.len = n;
    return o;
}

static value *gen_array(struct dctx *c, const schema_keywords *K,
                        const char *name, unsigned depth)
{
    size_t min = count_kw(schema_keyword(K, SK_MIN_ITEMS), 0);
    size_t max = count_kw(schema_keyword(K, SK_MAX_ITEMS), SIZE_MAX);
    if (min > max)
        return cannot(c, "minItems is above maxItems");
    size_t lo = depth > DEEP ? min : (min ? min : 1);
    size_t hi = depth > DEEP ? min : lo + 2;
    if (hi > max)
        hi = max;
    if (lo > hi)
        lo = hi;
    draw_stream st = stream_here(c);
    size_t n = lo + (size_t)draw_below(&st, hi - lo + 1);
    value *arr = value_new(c->a, V_ARRAY, 0, 0);
    value **items = n ? arena_alloc(c->a, n * sizeof *items) : NULL;
    if (!arr || (n && !items))
        return nomem(c);
    static const value any = {V_OBJECT, 0, 0, 0, {0}};
    const value *is = schema_keyword(K, SK_ITEMS);
    if (!is || is->kind != V_OBJECT)
        is = &any;
    const value *uniq = schema_keyword(K, SK_UNIQUE_ITEMS);
    int unique = uniq && uniq->kind == V_BOOL && uniq->u.b;
    size_t got = 0;
    /* With uniqueItems, a duplicate is drawn again at the next index, a
     * few times, and the array ends shorter when the items run out. */
    for (size_t i = 0, tries = 0; got < n && tries < n + 16; i++, tries++) {
        value *v = gen_at(c, is, name, NULL, i, depth);
        if (!v)
            return NULL;
        int dup = 0;
        for (size_t j = 0; unique && j < got && !dup; j++) {
            buf x = BUF_INIT, y = BUF_INIT;
            err e;
            dup = canon_write(&x, v, &e) == 0 && canon_write(&y, items[j], &e) == 0 &&
                  x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
            buf_free(&x);
            buf_free(&y);
        }
        if (!dup)
            items[got++] = v;
    }
    if (got < min)
        return cannot(c, "uniqueItems leaves fewer items than minItems");
    arr->u.arr.items = items;
    arr->u.arr.len = got;
    return arr;
}

/* The type to draw: the schema's, one of a list's (not null when another
 * is allowed), or what the keywords suggest. */
static const char *pick_type(const struct dctx *c, const schema_keywords *K)
{
    const value *t = schema_keyword(K, SK_TYPE);
    if (t && t->kind == V_STRING)
        return t->u.str.ptr;
    if (t && t->kind == V_ARRAY && t->u.arr.len) {
        const char *types[16];
        size_t n = 0;
        for (size_t i = 0; i < t->u.arr.len && n < 16; i++) {
            const value *x = t->u.arr.items[i];
            if (x->kind == V_STRING && strcmp(x->u.str.ptr, "null") != 0)
                types[n++] = x->u.str.ptr;
        }
        if (n == 0)
            return "null";
        draw_stream st = stream_here(c);
        return types[draw_below(&st, n)];
    }
    if (schema_keyword(K, SK_PROPERTIES) || schema_keyword(K, SK_REQUIRED))
        return "object";
    if (schema_keyword(K, SK_ITEMS))
        return "array";
    if (schema_keyword(K, SK_MINIMUM) || schema_keyword(K, SK_MAXIMUM) ||
        schema_keyword(K, SK_MULTIPLE_OF))
        return "number";
    return "string";
}

/* What a type name draws; a name is read up to its first NUL, as strcmp
 * reads it, and an unknown one draws a string. */
enum draw_type {
    DT_OBJECT, DT_ARRAY, DT_INTEGER, DT_NUMBER, DT_BOOLEAN, DT_NULL, DT_STRING
};

static enum draw_type draw_type_of(const char *name)
{
    switch (strlen(name)) {
    case 4:
        return memcmp(name, "null", 4) == 0 ? DT_NULL : DT_STRING;
    case 5:
        return memcmp(name, "array", 5) == 0 ? DT_ARRAY : DT_STRING;
    case 6:
        return memcmp(name, "object", 6) == 0   ? DT_OBJECT
               : memcmp(name, "number", 6) == 0 ? DT_NUMBER
                                                : DT_STRING;
    case 7:
        return memcmp(name, "integer", 7) == 0   ? DT_INTEGER
               : memcmp(name, "boolean", 7) == 0 ? DT_BOOLEAN
                                                 : DT_STRING;
    default:
        return DT_STRING;
    }
}

static value *gen_in(struct dctx *c, const value *s, schema_keywords *K,
                     const char *name, unsigned depth);

static value *gen(struct dctx *c, const value *schema, const char *name,
                  unsigned depth)
{
    if (depth > TOO_DEEP)
        return cannot(c, "its schema needs itself without end");
    if (++c->values > DRAW_MAX_VALUES)
        return over_budget(c);
    err e;
    /* The keywords of the schema, or of its $ref's target (a schema with
     * a $ref is its target). */
    schema_keywords keys, *K = &keys;
    const value *s = schema;
    schema_keywords_read(K, s);
    const value *ref = schema_keyword(K, SK_REF);
    if (!s || (ref && ref->kind == V_STRING)) {
        s = schema_deref(c->root, schema, &e);
        if (!s && e.code == ERR_NOMEM)
            return nomem(c);
        if (!s) {
            err_set(c->e, ERR_VALUE, "no value can be drawn at %s: %s",
                    c->path.data, e.msg);
            return NULL;
        }
        schema_keywords_read(K, s);
    }
    /* Entered again at the same place (a branch or allOf that names its
     * own schema): that way never draws anything. */
    for (size_t i = 0; i < c->nchain; i++)
        if (c->chain[i] == s)
            return cannot(c, "its schema needs itself without end");
    if (c->nchain == CHAIN_MAX)
        return cannot(c, "its schema names schemas too many levels deep");
    c->chain[c->nchain++] = s;
    value *v = gen_in(c, s, K, name, depth);
    c->nchain--;
    return v;
}

/* gen, once s is the schema itself (its $ref followed). */
static value *gen_in(struct dctx *c, const value *s, schema_keywords *K,
                     const char *name, unsigned depth)
{
    err e;
    if (s->kind == V_BOOL) {
        if (!s->u.b)
            return cannot(c, "its schema is false");
        static const value any = {V_OBJECT, 0, 0, 0, {0}};
        s = &any;
    }
    if (s->kind != V_OBJECT)
        return cannot(c, "its schema is not an object");

    const value *cv = schema_keyword(K, SK_CONST);
    if (cv)
        return (value *)cv;
    const value *en = schema_keyword(K, SK_ENUM);
    if (en && en->kind == V_ARRAY && en->u.arr.len) {
        /* the first value from a drawn start that the schema accepts (an
         * enum may list null where the type does not allow it) */
        draw_stream st = stream_here(c);
        size_t n = en->u.arr.len, first = (size_t)draw_below(&st, n);
        for (size_t i = 0; i < n; i++) {
            value *v = en->u.arr.items[(first + i) % n];
            int ok = accepts(c, s, v);
            if (ok < 0)
                return nomem(c);
            if (ok)
                return v;
        }
        return en->u.arr.items[first];
    }
    const value *all = schema_keyword(K, SK_ALL_OF);
    if (all && all->kind == V_ARRAY && all->u.arr.len) {
        shape sh = {.n = 0};
        int object = 0;
        shape_add(&sh, c->root, s);
        for (size_t i = 0; i < sh.n; i++)
            object |= shape_objectish(sh.parts[i]);
        if (object)
            return gen_object(c, sh.parts, sh.n, depth, 0);
        return gen(c, all->u.arr.items[0], name, depth);
    }
    const value *alt = schema_keyword(K, SK_ONE_OF);
    if (!alt)
        alt = schema_keyword(K, SK_ANY_OF);
    if (alt && alt->kind == V_ARRAY && alt->u.arr.len) {
        /* A branch drawn by the key; the first that the whole schema
         * accepts wins (oneOf branches may overlap). */
        draw_stream st = stream_here(c);
        size_t n = alt->u.arr.len, first = (size_t)draw_below(&st, n);
        int object = shape_objectish(s);
        value *fallback = NULL;
        for (size_t i = 0; i < n; i++) {
            const value *branch = alt->u.arr.items[(first + i) % n];
            value *v;
            if (object) {
                /* properties beside oneOf: the branch adds to them */
                shape sh = {.n = 0};
                shape_add(&sh, c->root, s);
                shape_add(&sh, c->root, schema_deref(c->root, branch, &e));
                v = gen_object(c, sh.parts, sh.n, depth, 1);
            } else {
                v = gen(c, branch, name, depth);
            }
            if (!v && (c->hard || (fallback == NULL && i + 1 == n)))
                return NULL;
            if (!v) /* this branch cannot be drawn: the next may */
                continue;
            if (n == 1)
                return v; /* the only branch: taken whatever the check */
            int ok = accepts(c, s, v);
            if (ok < 0)
                return nomem(c);
            if (ok)
                return v;
            if (!fallback)
                fallback = v;
        }
        return fallback;
    }

    switch (draw_type_of(pick_type(c, K))) {
    case DT_OBJECT:
        return gen_object(c, &s, 1, depth, 0);
    case DT_ARRAY:
        return gen_array(c, K, name, depth);
    case DT_INTEGER:
        return draw_integer(c, K);
    case DT_NUMBER:
        return draw_number(c, K);
    case DT_BOOLEAN: {
        value *v = value_new(c->a, V_BOOL, 0, 0);
        if (!v)
            return nomem(c);
        draw_stream st = stream_here(c);
        v->u.b = (int)draw_below(&st, 2);
        return v;
    }
    case DT_NULL: {
        value *v = value_new(c->a, V_NULL, 0, 0);
        return v ? v : nomem(c);
    }
    default:
        return draw_string_checked(c, s, K, name);
    }
}

int draw_value(value **out, arena *a, const value *root, const value *schema,
               const draw_key *k, const char *path, err *e)
{
    return draw_value_with(out, a, root, NULL, schema, k, path, e);
}

int draw_value_with(value **out, arena *a, const value *root,
                    const patterns *pt, const value *schema,
                    const draw_key *k, const char *path, err *e)
{
    struct dctx c = {.a = a, .root = root, .patterns = pt, .k = k, .e = e,
                     .text = BUF_INIT};
    path_init(&c.path);
    if (path_add(&c.path, path, strlen(path)) < 0) {
        err_set(e, ERR_NOMEM, "out of memory drawing a value");
        return -1;
    }
    const char *name = strrchr(path, '.');
    *out = gen(&c, schema, name ? name + 1 : NULL, 0);
    path_free(&c.path);
    buf_free(&c.text);
    return *out ? 0 : -1;
}
