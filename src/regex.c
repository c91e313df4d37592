/*
 * regex: see regex.h.
 *
 * How it works.  The pattern is parsed into a small tree (kept in an arena
 * that lives only while compiling) and checked against the subset as it is
 * read.  The tree is then laid out as a Thompson NFA: states that consume
 * one code point of a set, states that split into several, the two
 * anchors, and one final state.  Counted repetitions are laid out copy by
 * copy, hence the size limits.  Around the pattern sit two loops of "any
 * code point", one before and one after: they make the search unanchored,
 * and generation uses them to pad a string out to a minimum length.
 *
 * Searching runs the NFA over the subject as a set of live states, one
 * code point at a time, with no backtracking: time is at most the
 * subject's length times the NFA's size, whatever the pattern, so
 * `(a*)*b` on a long run of a's costs what `ab` costs.  That product can
 * still be large (20,000 states times 4 MiB), so the search counts its
 * work, states visited and sets tested, and stops at a budget: a count,
 * not a clock, so the same search gives up at the same place on every
 * machine.  Lazy and greedy
 * quantifiers accept the same strings, so the lazy marker is read and
 * ignored.
 *
 * Generation picks the length first, then walks.  For each k up to a
 * bound it computes the "layer" of states that can reach the final state
 * consuming exactly k more code points; it picks a length the pattern can
 * have inside the requested range and walks from the start, choosing at
 * random only among moves that keep that length reachable.  So a walk
 * never dead-ends, and the string is matched by construction.  ^ can only
 * be passed before the first code point and $ only after the last, which
 * is how the anchors stay honest in both directions.
 */
#include "regex.h"
#include "utf8.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

enum {
    MAX_DEPTH = 64,     /* groups nested deeper are refused */
    MAX_COUNT = 1000,   /* the largest n or m of {n,m} */
    MAX_STATES = 20000, /* NFA states once repetitions are laid out */
    /* Tree nodes visited while laying out; bounds the time spent on
     * repetitions of things that lay out to nothing, like `((){999}){999}`. */
    MAX_WORK = 200000,
    /* Search keeps its work lists on the stack up to this many states. */
    LOCAL_STATES = 256
};

/* Generation keeps one bit per NFA state per length it considers.  This
 * bounds those bits (16 MB); a large pattern then considers fewer lengths,
 * though always at least up to its shortest match. */
#define GEN_BUDGET_BITS ((size_t)1 << 27)

/* The work, in states and moves visited, that finding the lengths a
 * pattern can have may take (a few milliseconds).  Past it no longer
 * lengths are considered; a pattern whose shortest match lies past it is
 * not generated at all. */
#define GEN_WORK ((size_t)1 << 22)

#define CP_MAX 0x10FFFFu
#define NO_MAX UINT32_MAX /* the m of {n,} */
#define FAR SIZE_MAX /* "longer than anything we count" */

/* ------------------------------------------------------------ sets */

typedef struct crange {
    uint32_t lo, hi;
} crange;

/* A set of code points: the ranges it matches, sorted and disjoint, and
 * the members generation draws from (readable ones where there are any). */
typedef struct cset {
    size_t off, n;
    size_t gen_off, gen_n;
    uint64_t gen_count;
} cset;

static const crange R_DIGIT[] = {{'0', '9'}};
static const crange R_WORD[] = {{'0', '9'}, {'A', 'Z'}, {'_', '_'},
                                {'a', 'z'}};
static const crange R_ALNUM[] = {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}};
/* ECMA-262 WhiteSpace and LineTerminator. */
static const crange R_SPACE[] = {
    {0x09, 0x0D},     {0x20, 0x20},     {0xA0, 0xA0},     {0x1680, 0x1680},
    {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
    {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
/* What `.` does not match. */
static const crange R_LINE[] = {
    {0x0A, 0x0A}, {0x0D, 0x0D}, {0x2028, 0x2029}};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ the NFA */

enum skind { S_SET, S_SPLIT, S_BOL, S_EOL, S_MATCH };

typedef struct state {
    unsigned char kind;
    unsigned char pad; /* one of the two loops around the pattern */
    uint32_t arg;      /* S_SET: its set; S_SPLIT: first edge in edges */
    uint32_t n;        /* S_SPLIT: number of edges */
    uint32_t out;      /* S_SET, S_BOL, S_EOL: the next state */
} state;

struct regex {
    state *states;
    size_t nstates, capstates;
    uint32_t *edges; /* targets of the splits */
    size_t nedges, capedges;
    cset *sets;
    size_t nsets, capsets;
    crange *ranges;
    size_t nranges, capranges;
    uint32_t start, match;
    /* Moves that consume nothing, backwards: the states leading to state
     * i are rev[rev_off[i] .. rev_off[i + 1]). */
    uint32_t *rev_off, *rev;
    size_t minlen;  /* the shortest match, in code points */
    size_t natural; /* the longest with each unbounded repeat taken n+3 times */
};

/* Grows an array to hold need elements.  Returns the (maybe moved) array,
 * or NULL when memory runs out, leaving p and *cap as they were. */
static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return NULL;
        c *= 2;
    }
    if (c > SIZE_MAX / size)
        return NULL;
    void *q = realloc(p, c * size);
    if (q)
        *cap = c;
    return q;
}

static size_t sat_add(size_t a, size_t b)
{
    return a > FAR - b ? FAR : a + b;
}

static size_t sat_mul(size_t a, size_t b)
{
    return b && a > FAR / b ? FAR : a * b;
}

/* ------------------------------------------------------------ UTF-8 */

static int utf8_append(buf *out, uint32_t cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp, n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | cp >> 6);
        b[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | cp >> 12);
        b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | cp >> 18);
        b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        b[3] = (unsigned char)(0x80 | (cp & 0x3F)), n = 4;
    }
    return buf_append(out, b, n);
}

/* A code point as it should read in a message: itself when printable
 * ASCII, else \uXXXX or \u{XXXXX}. */
static const char *cp_text(uint32_t cp, char *tmp, size_t size)
{
    if (cp >= 0x21 && cp <= 0x7E)
        snprintf(tmp, size, "%c", (int)cp);
    else if (cp <= 0xFFFF)
        snprintf(tmp, size, "\\u%04X", (unsigned)cp);
    else
        snprintf(tmp, size, "\\u{%X}", (unsigned)cp);
    return tmp;
}

/* ------------------------------------------------------------ parser */

enum nkind { N_EMPTY, N_SET, N_BOL, N_EOL, N_CAT, N_ALT, N_REPEAT };

/* A node of the parsed pattern.  The kids of a CAT are linked last first,
 * the order the NFA is laid out in (back to front). */
typedef struct node {
    enum nkind kind;
    uint32_t set;      /* N_SET */
    uint32_t min, max; /* N_REPEAT */
    struct node *kids; /* N_CAT, N_ALT; N_REPEAT: what repeats */
    struct node *next; /* the next sibling */
} node;

typedef struct parser {
    const unsigned char *p, *end;
    arena *a;
    regex *re;
    crange *tmp; /* the set being read */
    size_t ntmp, captmp;
    int depth;
    bool failed;
    char *why;
    size_t whysize;
} parser;

static void fail(parser *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Records why compiling failed; the first reason wins. */
static void fail(parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    if (ps->why && ps->whysize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->why, ps->whysize, fmt, ap);
        va_end(ap);
    }
}

static void fail_nomem(parser *ps)
{
    fail(ps, "out of memory");
}

static node *new_node(parser *ps, enum nkind kind)
{
    node *n = arena_alloc(ps->a, sizeof *n);
    if (!n) {
        fail_nomem(ps);
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return n;
}

static int tmp_add(parser *ps, uint32_t lo, uint32_t hi)
{
    crange *t = grow(ps->tmp, &ps->captmp, ps->ntmp + 1, sizeof *t);
    if (!t) {
        fail_nomem(ps);
        return -1;
    }
    ps->tmp = t;
    ps->tmp[ps->ntmp].lo = lo;
    ps->tmp[ps->ntmp].hi = hi;
    ps->ntmp++;
    return 0;
}

/* Adds the ranges r (sorted, disjoint), or everything outside them. */
static int tmp_add_ranges(parser *ps, const crange *r, size_t n, bool negate)
{
    if (!negate) {
        for (size_t i = 0; i < n; i++)
            if (tmp_add(ps, r[i].lo, r[i].hi) < 0)
                return -1;
        return 0;
    }
    uint32_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].lo > from && tmp_add(ps, from, r[i].lo - 1) < 0)
            return -1;
        from = r[i].hi + 1;
    }
    if (from <= CP_MAX && tmp_add(ps, from, CP_MAX) < 0)
        return -1;
    return 0;
}

/* The class escapes: 'd', 'D', 'w', 'W', 's', 'S'. */
static int tmp_add_class(parser *ps, int cls)
{
    bool neg = cls == 'D' || cls == 'W' || cls == 'S';
    switch (cls | 0x20) {
    case 'd':
        return tmp_add_ranges(ps, R_DIGIT, NELEM(R_DIGIT), neg);
    case 'w':
        return tmp_add_ranges(ps, R_WORD, NELEM(R_WORD), neg);
    default:
        return tmp_add_ranges(ps, R_SPACE, NELEM(R_SPACE), neg);
    }
}

static int cmp_range(const void *a, const void *b)
{
    const crange *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int pool_add(parser *ps, uint32_t lo, uint32_t hi)
{
    regex *re = ps->re;
    crange *r = grow(re->ranges, &re->capranges, re->nranges + 1, sizeof *r);
    if (!r) {
        fail_nomem(ps);
        return -1;
    }
    re->ranges = r;
    r[re->nranges].lo = lo;
    r[re->nranges].hi = hi;
    re->nranges++;
    return 0;
}

/* Appends to the pool the part of set (sorted, disjoint) inside w[0..nw)
 * (sorted, disjoint); returns how many ranges that made, or -1. */
static long pool_add_within(parser *ps, size_t off, size_t n,
                            const crange *w, size_t nw)
{
    long made = 0;
    for (size_t j = 0; j < nw; j++) {
        for (size_t i = 0; i < n; i++) {
            crange r = ps->re->ranges[off + i];
            uint32_t lo = r.lo > w[j].lo ? r.lo : w[j].lo;
            uint32_t hi = r.hi < w[j].hi ? r.hi : w[j].hi;
            if (lo > hi)
                continue;
            if (pool_add(ps, lo, hi) < 0)
                return -1;
            made++;
        }
    }
    return made;
}

/* Chooses what generation draws from: the whole set when it is all
 * printable ASCII (an explicit class like [a-z_.-]); else its ASCII
 * letters and digits (`.`, \w, [^"]...); else its other printable ASCII;
 * else its members outside the surrogates; else all of it. */
static int set_choose_gen(parser *ps, cset *s)
{
    static const crange graph[] = {{0x21, 0x7E}};
    static const crange print[] = {{0x20, 0x7E}};
    static const crange nonsur[] = {{0, 0xD7FF}, {0xE000, CP_MAX}};
    static const crange all[] = {{0, CP_MAX}};
    if (s->n == 0)
        return 0;
    const crange *choice[] = {print, R_ALNUM, graph, print, nonsur, all};
    size_t nchoice[] = {1, NELEM(R_ALNUM), 1, 1, 2, 1};
    bool printable = ps->re->ranges[s->off].lo >= 0x20
                     && ps->re->ranges[s->off + s->n - 1].hi <= 0x7E;
    for (size_t c = printable ? 0 : 1; c < NELEM(choice); c++) {
        size_t at = ps->re->nranges;
        long made = pool_add_within(ps, s->off, s->n, choice[c], nchoice[c]);
        if (made < 0)
            return -1;
        if (made > 0) {
            s->gen_off = at;
            s->gen_n = (size_t)made;
            s->gen_count = 0;
            for (size_t i = at; i < ps->re->nranges; i++)
                s->gen_count += ps->re->ranges[i].hi - ps->re->ranges[i].lo
                                + 1;
            return 0;
        }
    }
    return 0; /* not reached: a nonempty set meets `all` */
}

/* Turns the ranges read into tmp into a set (sorted, merged, complemented
 * when negate) and empties tmp.  Returns the set's index, or -1. */
static long set_from_tmp(parser *ps, bool negate)
{
    regex *re = ps->re;
    crange *t = ps->tmp;
    size_t n = ps->ntmp, m = 0;
    ps->ntmp = 0;
    if (n)
        qsort(t, n, sizeof *t, cmp_range);
    for (size_t i = 0; i < n; i++) {
        if (m && t[i].lo <= t[m - 1].hi + 1) {
            if (t[i].hi > t[m - 1].hi)
                t[m - 1].hi = t[i].hi;
        } else {
            t[m++] = t[i];
        }
    }
    cset *sets = grow(re->sets, &re->capsets, re->nsets + 1, sizeof *sets);
    if (!sets) {
        fail_nomem(ps);
        return -1;
    }
    re->sets = sets;
    cset s = {re->nranges, 0, 0, 0, 0};
    if (negate) {
        uint32_t from = 0;
        for (size_t i = 0; i < m; i++) {
            if (t[i].lo > from && pool_add(ps, from, t[i].lo - 1) < 0)
                return -1;
            from = t[i].hi + 1;
        }
        if (from <= CP_MAX && pool_add(ps, from, CP_MAX) < 0)
            return -1;
    } else {
        for (size_t i = 0; i < m; i++)
            if (pool_add(ps, t[i].lo, t[i].hi) < 0)
                return -1;
    }
    s.n = re->nranges - s.off;
    if (set_choose_gen(ps, &s) < 0)
        return -1;
    re->sets[re->nsets] = s;
    return (long)re->nsets++;
}

static node *set_node(parser *ps, bool negate)
{
    long set = set_from_tmp(ps, negate);
    if (set < 0)
        return NULL;
    node *n = new_node(ps, N_SET);
    if (n)
        n->set = (uint32_t)set;
    return n;
}

/* Reads exactly n hex digits at p into *v; false (p unmoved) if not. */
static bool read_hex(parser *ps, int n, uint32_t *v)
{
    if (ps->end - ps->p < n)
        return false;
    uint32_t x = 0;
    for (int i = 0; i < n; i++) {
        int h = hex_digit_value(ps->p[i]);
        if (h < 0)
            return false;
        x = x << 4 | (uint32_t)h;
    }
    ps->p += n;
    *v = x;
    return true;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* What an escape or a class member stands for: a code point, or one of
 * the class escapes ('d', 'D', 'w', 'W', 's', 'S'; 0 for none). */
typedef struct atom {
    int cls;
    uint32_t cp;
} atom;

/* \u: four hex digits (a surrogate pair written as two escapes is one
 * code point, as in Unicode mode) or {hex} up to U+10FFFF. */
static int parse_u_escape(parser *ps, atom *out)
{
    uint32_t v;
    if (ps->p < ps->end && *ps->p == '{') {
        const unsigned char *q = ps->p + 1;
        v = 0;
        int digits = 0;
        while (q < ps->end && hex_digit_value(*q) >= 0) {
            if (v <= CP_MAX)
                v = v << 4 | (uint32_t)hex_digit_value(*q);
            q++, digits++;
        }
        if (digits == 0 || q >= ps->end || *q != '}')
            goto bad;
        if (v > CP_MAX) {
            fail(ps, "\\u{...} is above U+10FFFF");
            return -1;
        }
        ps->p = q + 1;
        out->cp = v;
        return 0;
    }
    if (!read_hex(ps, 4, &v))
        goto bad;
    if (v >= 0xD800 && v <= 0xDBFF && ps->end - ps->p >= 6 && ps->p[0] == '\\'
        && ps->p[1] == 'u') {
        const unsigned char *save = ps->p;
        uint32_t lo;
        ps->p += 2;
        if (read_hex(ps, 4, &lo) && lo >= 0xDC00 && lo <= 0xDFFF)
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        else
            ps->p = save;
    }
    out->cp = v;
    return 0;
bad:
    fail(ps, "\\u must be followed by four hex digits or {hex}");
    return -1;
}

/* Reads an escape; ps->p is just past the backslash. */
static int parse_escape(parser *ps, bool in_class, atom *out)
{
    out->cls = 0;
    if (ps->p >= ps->end) {
        fail(ps, "pattern ends with a lone backslash");
        return -1;
    }
    int c = *ps->p;
    if (c >= 0x80) {
        int ok;
        ps->p += utf8_next(ps->p, (size_t)(ps->end - ps->p), &out->cp, &ok);
        return 0;
    }
    ps->p++;
    switch (c) {
    case 'd': case 'D': case 'w': case 'W': case 's': case 'S':
        out->cls = c;
        return 0;
    case 't': out->cp = '\t'; return 0;
    case 'n': out->cp = '\n'; return 0;
    case 'r': out->cp = '\r'; return 0;
    case 'f': out->cp = '\f'; return 0;
    case 'v': out->cp = '\v'; return 0;
    case 'b':
        if (in_class) {
            out->cp = '\b';
            return 0;
        }
        fail(ps, "word boundary \\b is not supported");
        return -1;
    case 'B':
        if (in_class)
            fail(ps, "unknown escape \\B");
        else
            fail(ps, "word boundary \\B is not supported");
        return -1;
    case '0':
        if (ps->p < ps->end && is_digit(*ps->p)) {
            fail(ps, "octal escape \\0%c is not supported", *ps->p);
            return -1;
        }
        out->cp = 0;
        return 0;
    case 'c':
        if (ps->p < ps->end && is_alpha(*ps->p)) {
            out->cp = (uint32_t)(*ps->p++ % 32);
            return 0;
        }
        fail(ps, "\\c must be followed by a letter");
        return -1;
    case 'x':
        if (read_hex(ps, 2, &out->cp))
            return 0;
        fail(ps, "\\x must be followed by two hex digits");
        return -1;
    case 'u':
        return parse_u_escape(ps, out);
    case 'k':
        fail(ps, "named backreference \\k is not supported");
        return -1;
    case 'p': case 'P':
        fail(ps, "Unicode property escape \\%c{...} is not supported", c);
        return -1;
    default:
        break;
    }
    if (is_digit(c)) {
        const unsigned char *d = ps->p - 1;
        int n = 1;
        while (d + n < ps->end && n < 8 && is_digit(d[n]))
            n++;
        if (in_class)
            fail(ps, "octal escape \\%.*s is not supported", n, d);
        else
            fail(ps, "backreference \\%.*s is not supported", n, d);
        return -1;
    }
    if (is_alpha(c)) {
        /* Annex B reads \a as "a"; other dialects give \A, \Z, \a, \e,
         * \z... meanings of their own, so refuse rather than guess. */
        fail(ps, "unknown escape \\%c", c);
        return -1;
    }
    out->cp = (uint32_t)c; /* escaped punctuation, '_', space... */
    return 0;
}

/* A braced quantifier {n}, {n,} or {n,m} at p?  If so sets *min and *max
 * (NO_MAX for {n,}; numbers past MAX_COUNT read as MAX_COUNT + 1) and
 * *after.  Anything else starting with { is a literal { (Annex B). */
static bool brace_quantifier(const unsigned char *p, const unsigned char *end,
                             uint32_t *min, uint32_t *max,
                             const unsigned char **after)
{
    uint32_t v[2] = {0, 0};
    int got = 0;
    bool comma = false;
    if (p >= end || *p != '{')
        return false;
    p++;
    for (int i = 0; i < 2; i++) {
        const unsigned char *d = p;
        while (p < end && is_digit(*p)) {
            if (v[i] <= MAX_COUNT)
                v[i] = v[i] * 10 + (uint32_t)(*p - '0');
            p++;
        }
        if (p > d)
            got |= 1 << i;
        if (v[i] > MAX_COUNT)
            v[i] = MAX_COUNT + 1;
        if (i == 0) {
            if (!(got & 1))
                return false;
            if (p < end && *p == ',') {
                comma = true;
                p++;
                continue;
            }
            break;
        }
    }
    if (p >= end || *p != '}')
        return false;
    *min = v[0];
    *max = !comma ? v[0] : (got & 2) ? v[1] : NO_MAX;
    *after = p + 1;
    return true;
}

/* Whether a quantifier starts at p; sets *qend to its end. */
static bool quantifier_at(const unsigned char *p, const unsigned char *end,
                          uint32_t *min, uint32_t *max,
                          const unsigned char **qend)
{
    if (p >= end)
        return false;
    switch (*p) {
    case '*': *min = 0, *max = NO_MAX; break;
    case '+': *min = 1, *max = NO_MAX; break;
    case '?': *min = 0, *max = 1; break;
    default:
        return brace_quantifier(p, end, min, max, qend);
    }
    *qend = p + 1;
    return true;
}

static node *parse_alt(parser *ps);

/* [...] with ps->p just past the '['. */
static node *parse_class(parser *ps)
{
    bool negate = false;
    if (ps->p < ps->end && *ps->p == '^') {
        negate = true;
        ps->p++;
    }
    while (ps->p < ps->end && *ps->p != ']') {
        atom a[2];
        int got = 0;
        for (;;) {
            atom *x = &a[got++];
            if (*ps->p == '\\') {
                ps->p++;
                if (parse_escape(ps, true, x) < 0)
                    return NULL;
            } else {
                int ok;
                x->cls = 0;
                ps->p += utf8_next(ps->p, (size_t)(ps->end - ps->p), &x->cp,
                                   &ok);
            }
            /* A '-' between two members makes a range, unless it is the
             * last thing before ']'. */
            if (got == 2 || ps->end - ps->p < 2 || ps->p[0] != '-'
                || ps->p[1] == ']')
                break;
            ps->p++;
        }
        if (got == 2 && !a[0].cls && !a[1].cls) {
            if (a[0].cp > a[1].cp) {
                char t0[16], t1[16];
                fail(ps, "character class range %s-%s is out of order",
                     cp_text(a[0].cp, t0, sizeof t0),
                     cp_text(a[1].cp, t1, sizeof t1));
                return NULL;
            }
            if (tmp_add(ps, a[0].cp, a[1].cp) < 0)
                return NULL;
            continue;
        }
        /* One member, or Annex B's [\w-.]: a class escape cannot bound a
         * range, so the '-' is itself a member. */
        for (int i = 0; i < got; i++) {
            int r = a[i].cls ? tmp_add_class(ps, a[i].cls)
                             : tmp_add(ps, a[i].cp, a[i].cp);
            if (r < 0)
                return NULL;
        }
        if (got == 2 && tmp_add(ps, '-', '-') < 0)
            return NULL;
    }
    if (ps->p >= ps->end) {
        fail(ps, "unterminated character class: missing ]");
        return NULL;
    }
    ps->p++;
    return set_node(ps, negate);
}

/* (...) with ps->p just past the '('. */
static node *parse_group(parser *ps)
{
    if (ps->p < ps->end && *ps->p == '?') {
        const unsigned char *q = ps->p + 1;
        int c = q < ps->end ? *q : -1;
        int c2 = q + 1 < ps->end ? q[1] : -1;
        if (c == ':') {
            ps->p = q + 1;
        } else if (c == '=') {
            fail(ps, "lookahead (?=...) is not supported");
        } else if (c == '!') {
            fail(ps, "negative lookahead (?!...) is not supported");
        } else if (c == '<' && c2 == '=') {
            fail(ps, "lookbehind (?<=...) is not supported");
        } else if (c == '<' && c2 == '!') {
            fail(ps, "negative lookbehind (?<!...) is not supported");
        } else if (c == '<') {
            fail(ps, "named group (?<name>...) is not supported");
        } else if (c == 'P') {
            fail(ps, "Python-style group (?P...) is not supported");
        } else if (is_alpha(c) || c == '-') {
            int n = 0;
            while (q + n < ps->end && n < 16 && (is_alpha(q[n]) || q[n] == '-'))
                n++;
            fail(ps, "inline flags (?%.*s) are not supported", n, q);
        } else if (c < 0) {
            fail(ps, "unknown group syntax (?");
        } else {
            char t[16];
            uint32_t cp;
            int ok;
            utf8_next(q, (size_t)(ps->end - q), &cp, &ok);
            fail(ps, "unknown group syntax (?%s", cp_text(cp, t, sizeof t));
        }
        if (ps->failed)
            return NULL;
    }
    if (++ps->depth > MAX_DEPTH) {
        fail(ps, "groups nested more than %d deep", MAX_DEPTH);
        return NULL;
    }
    node *n = parse_alt(ps);
    if (!n)
        return NULL;
    ps->depth--;
    if (ps->p >= ps->end || *ps->p != ')') {
        fail(ps, "unbalanced parenthesis: missing )");
        return NULL;
    }
    ps->p++;
    return n;
}

/* One atom: ., a literal, an escape, a class or a group. */
static node *parse_atom(parser *ps)
{
    int c = *ps->p;
    atom a;
    switch (c) {
    case '(':
        ps->p++;
        return parse_group(ps);
    case '[':
        ps->p++;
        return parse_class(ps);
    case '.':
        ps->p++;
        if (tmp_add_ranges(ps, R_LINE, NELEM(R_LINE), true) < 0)
            return NULL;
        return set_node(ps, false);
    case '\\':
        ps->p++;
        if (parse_escape(ps, false, &a) < 0)
            return NULL;
        break;
    default: {
        int ok;
        a.cls = 0;
        ps->p += utf8_next(ps->p, (size_t)(ps->end - ps->p), &a.cp, &ok);
        break;
    }
    }
    int r = a.cls ? tmp_add_class(ps, a.cls) : tmp_add(ps, a.cp, a.cp);
    return r < 0 ? NULL : set_node(ps, false);
}

/* An atom's quantifier, if it has one. */
static node *parse_quantified(parser *ps, node *atom_node)
{
    uint32_t min, max;
    const unsigned char *q = ps->p, *qend;
    if (!quantifier_at(q, ps->end, &min, &max, &qend))
        return atom_node;
    if (min > MAX_COUNT || (max != NO_MAX && max > MAX_COUNT)) {
        fail(ps, "repetition count above %d is not supported", MAX_COUNT);
        return NULL;
    }
    if (max < min) {
        fail(ps, "repetition %.*s is out of order", (int)(qend - q), q);
        return NULL;
    }
    ps->p = qend;
    if (ps->p < ps->end && *ps->p == '?')
        ps->p++; /* lazy: accepts the same strings */
    uint32_t m2, x2;
    const unsigned char *q2end;
    if (quantifier_at(ps->p, ps->end, &m2, &x2, &q2end)) {
        fail(ps, "nothing to repeat before %.*s", (int)(q2end - ps->p),
             ps->p);
        return NULL;
    }
    node *n = new_node(ps, N_REPEAT);
    if (!n)
        return NULL;
    n->min = min;
    n->max = max;
    n->kids = atom_node;
    return n;
}

/* A sequence of terms, up to '|', ')' or the end. */
static node *parse_seq(parser *ps)
{
    node *items = NULL;
    size_t count = 0;
    while (ps->p < ps->end && *ps->p != '|' && *ps->p != ')') {
        int c = *ps->p;
        uint32_t min, max;
        const unsigned char *qend;
        node *item;
        if (c == '^' || c == '$') {
            ps->p++;
            item = new_node(ps, c == '^' ? N_BOL : N_EOL);
        } else if (quantifier_at(ps->p, ps->end, &min, &max, &qend)) {
            fail(ps, "nothing to repeat before %.*s", (int)(qend - ps->p),
                 ps->p);
            return NULL;
        } else {
            item = parse_atom(ps);
            if (item)
                item = parse_quantified(ps, item);
        }
        if (!item)
            return NULL;
        item->next = items;
        items = item;
        count++;
    }
    if (count == 1)
        return items;
    node *n = new_node(ps, count ? N_CAT : N_EMPTY);
    if (n)
        n->kids = items;
    return n;
}

/* Alternatives, up to ')' or the end. */
static node *parse_alt(parser *ps)
{
    node *alts = NULL;
    size_t count = 0;
    for (;;) {
        node *seq = parse_seq(ps);
        if (!seq)
            return NULL;
        seq->next = alts;
        alts = seq;
        count++;
        if (ps->p < ps->end && *ps->p == '|') {
            ps->p++;
            continue;
        }
        break;
    }
    if (count == 1)
        return alts;
    node *n = new_node(ps, N_ALT);
    if (n)
        n->kids = alts;
    return n;
}

/* The longest match, with each unbounded repeat taken n+3 times: the
 * length generation aims under when the caller sets no bound. */
static size_t natural_len(const node *n)
{
    size_t len = 0;
    switch (n->kind) {
    case N_SET:
        return 1;
    case N_CAT:
        for (const node *k = n->kids; k; k = k->next)
            len = sat_add(len, natural_len(k));
        return len;
    case N_ALT:
        for (const node *k = n->kids; k; k = k->next) {
            size_t l = natural_len(k);
            if (l > len)
                len = l;
        }
        return len;
    case N_REPEAT:
        return sat_mul(natural_len(n->kids),
                       n->max == NO_MAX ? (size_t)n->min + 3 : n->max);
    default:
        return 0;
    }
}

/* ------------------------------------------------------------ layout */

typedef struct builder {
    regex *re;
    size_t work;
    bool too_large, nomem;
} builder;

static int new_state(builder *b, enum skind kind, uint32_t *idx)
{
    regex *re = b->re;
    if (re->nstates >= MAX_STATES) {
        b->too_large = true;
        return -1;
    }
    state *s = grow(re->states, &re->capstates, re->nstates + 1, sizeof *s);
    if (!s) {
        b->nomem = true;
        return -1;
    }
    re->states = s;
    memset(&s[re->nstates], 0, sizeof *s);
    s[re->nstates].kind = (unsigned char)kind;
    *idx = (uint32_t)re->nstates++;
    return 0;
}

/* A split with n edges, to be filled in by the caller. */
static int new_split(builder *b, uint32_t n, uint32_t *idx)
{
    regex *re = b->re;
    if (new_state(b, S_SPLIT, idx) < 0)
        return -1;
    uint32_t *e = grow(re->edges, &re->capedges, re->nedges + n, sizeof *e);
    if (!e) {
        b->nomem = true;
        return -1;
    }
    re->edges = e;
    re->states[*idx].arg = (uint32_t)re->nedges;
    re->states[*idx].n = n;
    re->nedges += n;
    return 0;
}

static int new_set_state(builder *b, uint32_t set, uint32_t out, bool pad,
                         uint32_t *idx)
{
    if (new_state(b, S_SET, idx) < 0)
        return -1;
    b->re->states[*idx].arg = set;
    b->re->states[*idx].out = out;
    b->re->states[*idx].pad = pad;
    return 0;
}

static void set_edge(builder *b, uint32_t split, uint32_t i, uint32_t to)
{
    b->re->edges[b->re->states[split].arg + i] = to;
}

/* Lays out n so that it continues at next; *entry is where it starts. */
static int emit(builder *b, const node *n, uint32_t next, uint32_t *entry)
{
    if (++b->work > MAX_WORK) {
        b->too_large = true;
        return -1;
    }
    uint32_t s, e, body;
    switch (n->kind) {
    case N_EMPTY:
        *entry = next;
        return 0;
    case N_SET:
        return new_set_state(b, n->set, next, false, entry);
    case N_BOL:
    case N_EOL:
        if (new_state(b, n->kind == N_BOL ? S_BOL : S_EOL, entry) < 0)
            return -1;
        b->re->states[*entry].out = next;
        return 0;
    case N_CAT:
        e = next;
        for (const node *k = n->kids; k; k = k->next)
            if (emit(b, k, e, &e) < 0)
                return -1;
        *entry = e;
        return 0;
    case N_ALT: {
        uint32_t count = 0, i = 0;
        for (const node *k = n->kids; k; k = k->next)
            count++;
        if (new_split(b, count, &s) < 0)
            return -1;
        for (const node *k = n->kids; k; k = k->next) {
            if (emit(b, k, next, &e) < 0)
                return -1;
            set_edge(b, s, i++, e);
        }
        *entry = s;
        return 0;
    }
    case N_REPEAT:
        break;
    }
    e = next;
    if (n->max == NO_MAX) {
        /* A loop: the split either goes round the body again or leaves.
         * With n > 0 the last required copy is the body of the loop. */
        if (new_split(b, 2, &s) < 0 || emit(b, n->kids, s, &body) < 0)
            return -1;
        set_edge(b, s, 0, body);
        set_edge(b, s, 1, next);
        e = n->min ? body : s;
        for (uint32_t i = 1; i < n->min; i++)
            if (emit(b, n->kids, e, &e) < 0)
                return -1;
        *entry = e;
        return 0;
    }
    /* x{n,m}: m-n nested optional copies, x(x)?)?, then n required ones. */
    for (uint32_t i = n->min; i < n->max; i++) {
        if (new_split(b, 2, &s) < 0 || emit(b, n->kids, e, &body) < 0)
            return -1;
        set_edge(b, s, 0, body);
        set_edge(b, s, 1, next);
        e = s;
    }
    for (uint32_t i = 0; i < n->min; i++)
        if (emit(b, n->kids, e, &e) < 0)
            return -1;
    *entry = e;
    return 0;
}

/* The NFA for root, between the two padding loops. */
static int layout(parser *ps, const node *root)
{
    regex *re = ps->re;
    builder b = {re, 0, false, false};
    if (tmp_add(ps, 0, CP_MAX) < 0)
        return -1;
    long any = set_from_tmp(ps, false);
    if (any < 0)
        return -1;
    uint32_t match, tail, tail_any, entry, head, head_any;
    if (new_state(&b, S_MATCH, &match) < 0
        || new_split(&b, 2, &tail) < 0
        || new_set_state(&b, (uint32_t)any, tail, true, &tail_any) < 0)
        goto fail;
    set_edge(&b, tail, 0, match);
    set_edge(&b, tail, 1, tail_any);
    if (emit(&b, root, tail, &entry) < 0 || new_split(&b, 2, &head) < 0
        || new_set_state(&b, (uint32_t)any, head, true, &head_any) < 0)
        goto fail;
    set_edge(&b, head, 0, entry);
    set_edge(&b, head, 1, head_any);
    re->start = head;
    re->match = match;
    return 0;
fail:
    if (b.nomem)
        fail_nomem(ps);
    else
        fail(ps, "pattern too large once its repetitions are expanded");
    return -1;
}

/* The moves of state s that consume nothing: a split's edges, or an
 * anchor's way on.  Returns how many, with *to pointing at them. */
static uint32_t eps_moves(const regex *re, uint32_t s, const uint32_t **to)
{
    const state *st = &re->states[s];
    if (st->kind == S_SPLIT) {
        *to = re->edges + st->arg;
        return st->n;
    }
    if (st->kind == S_BOL || st->kind == S_EOL) {
        *to = &st->out;
        return 1;
    }
    *to = NULL;
    return 0;
}

static int build_reverse(regex *re)
{
    size_t n = re->nstates, count = 0;
    re->rev_off = calloc(n + 1, sizeof *re->rev_off);
    if (!re->rev_off)
        return -1;
    const uint32_t *to;
    for (uint32_t u = 0; u < n; u++) {
        uint32_t m = eps_moves(re, u, &to);
        for (uint32_t i = 0; i < m; i++)
            re->rev_off[to[i] + 1]++;
        count += m;
    }
    for (size_t i = 0; i < n; i++)
        re->rev_off[i + 1] += re->rev_off[i];
    re->rev = malloc((count ? count : 1) * sizeof *re->rev);
    uint32_t *fill = malloc((n ? n : 1) * sizeof *fill);
    if (!re->rev || !fill) {
        free(fill);
        return -1;
    }
    memcpy(fill, re->rev_off, n * sizeof *fill);
    for (uint32_t u = 0; u < n; u++) {
        uint32_t m = eps_moves(re, u, &to);
        for (uint32_t i = 0; i < m; i++)
            re->rev[fill[to[i]]++] = u;
    }
    free(fill);
    return 0;
}

/* The shortest match, by a breadth-first search over (state, whether a
 * code point has been consumed, whether $ has been passed): ^ needs the
 * first false, and nothing may be consumed once the second is true.
 * FAR when the pattern can match nothing at all; -1 out of memory. */
static int shortest_match(const regex *re, size_t *len)
{
    size_t n = re->nstates * 4;
    size_t *dist = malloc(n * sizeof *dist);
    uint32_t *stack = malloc(n * sizeof *stack);
    uint32_t *level = malloc(n * sizeof *level);
    uint32_t *pending = malloc(n * sizeof *pending);
    if (!dist || !stack || !level || !pending) {
        free(dist), free(stack), free(level), free(pending);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        dist[i] = FAR;
    size_t nlevel = 0, d = 0;
    *len = FAR;
    dist[re->start * 4] = 0;
    level[nlevel++] = re->start * 4;
    while (nlevel && *len == FAR) {
        /* Everything reachable at this length, then one code point on. */
        size_t top = 0, npending = 0;
        for (size_t i = 0; i < nlevel; i++)
            stack[top++] = level[i];
        while (top) {
            uint32_t v = stack[--top];
            uint32_t s = v / 4, started = v & 1, ended = v & 2;
            const state *st = &re->states[s];
            if (st->kind == S_MATCH) {
                *len = d;
                break;
            }
            if (st->kind == S_SET) {
                if (!ended && re->sets[st->arg].n)
                    pending[npending++] = v;
                continue;
            }
            if (st->kind == S_BOL && started)
                continue;
            uint32_t flags = started | ended | (st->kind == S_EOL ? 2 : 0);
            const uint32_t *to;
            uint32_t m = eps_moves(re, s, &to);
            for (uint32_t i = 0; i < m; i++) {
                uint32_t w = to[i] * 4 + flags;
                if (dist[w] == FAR) {
                    dist[w] = d;
                    stack[top++] = w;
                }
            }
        }
        nlevel = 0;
        for (size_t i = 0; i < npending; i++) {
            uint32_t w = re->states[pending[i] / 4].out * 4 + 1;
            if (dist[w] == FAR) {
                dist[w] = d + 1;
                level[nlevel++] = w;
            }
        }
        d++;
    }
    free(dist), free(stack), free(level), free(pending);
    return 0;
}

/* ------------------------------------------------------------ compile */

regex *regex_compile(const char *pattern, size_t len, char *why,
                     size_t whysize)
{
    const unsigned char *pat = (const unsigned char *)pattern;
    parser ps = {pat, pat + len, NULL, NULL, NULL, 0, 0, 0, false, why,
                 whysize};
    if (why && whysize)
        why[0] = '\0';
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        int ok;
        i += utf8_next(pat + i, len - i, &cp, &ok);
        if (!ok) {
            fail(&ps, "pattern is not valid UTF-8");
            return NULL;
        }
    }
    ps.re = calloc(1, sizeof *ps.re);
    ps.a = arena_new();
    if (!ps.re || !ps.a) {
        fail_nomem(&ps);
        goto done;
    }
    node *root = parse_alt(&ps);
    if (root && ps.p < ps.end) /* parse_alt stops only at ')' */
        fail(&ps, "unbalanced parenthesis: unexpected )");
    if (ps.failed)
        goto done;
    ps.re->natural = natural_len(root);
    if (layout(&ps, root) < 0)
        goto done;
    if (build_reverse(ps.re) < 0 || shortest_match(ps.re, &ps.re->minlen) < 0)
        fail_nomem(&ps);
    else if (ps.re->minlen == FAR)
        fail(&ps, "the pattern can never match");
done:
    arena_free(ps.a);
    free(ps.tmp);
    if (ps.failed) {
        regex_free(ps.re);
        return NULL;
    }
    return ps.re;
}

void regex_free(regex *re)
{
    if (!re)
        return;
    free(re->states);
    free(re->edges);
    free(re->sets);
    free(re->ranges);
    free(re->rev_off);
    free(re->rev);
    free(re);
}

/* ------------------------------------------------------------ search */

static bool set_has(const regex *re, uint32_t set, uint32_t cp)
{
    const crange *r = re->ranges + re->sets[set].off;
    size_t lo = 0, hi = re->sets[set].n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < r[mid].lo)
            hi = mid;
        else if (cp > r[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

typedef struct sim {
    const regex *re;
    uint32_t *mark, *stack;
    uint32_t stamp;
    bool at_start, at_end;
    size_t work; /* states visited and sets tested so far */
} sim;

/* Adds to list the consuming states reachable from s without consuming;
 * true when the final state is among them. */
static bool sim_close(sim *m, uint32_t s, uint32_t *list, size_t *nlist)
{
    const regex *re = m->re;
    size_t top = 0;
    if (m->mark[s] == m->stamp)
        return false;
    m->mark[s] = m->stamp;
    m->stack[top++] = s;
    while (top) {
        uint32_t v = m->stack[--top];
        const state *st = &re->states[v];
        m->work++;
        switch (st->kind) {
        case S_MATCH:
            return true;
        case S_SET:
            list[(*nlist)++] = v;
            continue;
        case S_BOL:
            if (!m->at_start)
                continue;
            break;
        case S_EOL:
            if (!m->at_end)
                continue;
            break;
        default:
            break;
        }
        const uint32_t *to;
        uint32_t nto = eps_moves(re, v, &to);
        for (uint32_t i = 0; i < nto; i++) {
            if (m->mark[to[i]] != m->stamp) {
                m->mark[to[i]] = m->stamp;
                m->stack[top++] = to[i];
            }
        }
    }
    return false;
}

int regex_search(const regex *re, const char *s, size_t len)
{
    size_t work = REGEX_SEARCH_WORK;
    return regex_search_within(re, s, len, &work);
}

int regex_search_within(const regex *re, const char *s, size_t len,
                        size_t *work)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = re->nstates;
    uint32_t local[4 * LOCAL_STATES];
    uint32_t *work_lists = local;
    if (n > LOCAL_STATES) {
        work_lists = malloc(4 * n * sizeof *work_lists);
        if (!work_lists)
            return -1;
    }
    uint32_t *cur = work_lists, *nxt = work_lists + n;
    sim m = {re, work_lists + 2 * n, work_lists + 3 * n, 1, true, len == 0,
             0};
    memset(m.mark, 0, n * sizeof *m.mark);
    size_t ncur = 0, pos = 0;
    bool found = sim_close(&m, re->start, cur, &ncur);
    /* The budget is looked at once per code point: a step costs at most
     * a few times the NFA's size, so it is overshot by no more. */
    bool gave_up = false;
    while (!found && pos < len && !(gave_up = m.work > *work)) {
        uint32_t cp;
        int ok;
        size_t adv = utf8_next(u + pos, len - pos, &cp, &ok);
        pos += adv;
        if (++m.stamp == 0) { /* wrapped: start the marks afresh */
            memset(m.mark, 0, n * sizeof *m.mark);
            m.stamp = 1;
        }
        m.at_start = false;
        m.at_end = pos == len;
        size_t nnxt = 0;
        m.work += ncur;
        for (size_t i = 0; i < ncur && !found; i++) {
            const state *st = &re->states[cur[i]];
            if (set_has(re, st->arg, cp))
                found = sim_close(&m, st->out, nxt, &nnxt);
        }
        uint32_t *t = cur;
        cur = nxt, nxt = t;
        ncur = nnxt;
    }
    if (work_lists != local)
        free(work_lists);
    *work = m.work >= *work ? 0 : *work - m.work;
    if (found)
        return 1;
    return gave_up ? REGEX_GAVE_UP : 0;
}

/* ------------------------------------------------------------ generate */

/* A number in [0, n) from the caller's stream.  Rejection keeps it
 * uniform; the retry cap keeps a degenerate stream from spinning. */
static uint64_t pick(regex_rng *rng, uint64_t n)
{
    if (n <= 1)
        return 0;
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r = 0;
    for (int i = 0; i < 16; i++) {
        r = rng->next(rng->state);
        if (r < limit)
            break;
    }
    return r % n;
}

typedef struct gen {
    const regex *re;
    size_t words;      /* 64-bit words per state set */
    size_t tlim;       /* layers 0..tlim */
    bool pad;          /* whether the padding loops may be used */
    uint64_t *layers;  /* (tlim + 1) * words */
    uint64_t *startset;
    uint64_t *scratch; /* one state set */
    uint32_t *stack;   /* nstates */
    uint32_t *visit;   /* nstates: walk stamps */
    uint32_t *dist;    /* nstates: fallback distances */
    uint32_t *firsts;  /* consuming states reachable before anything */
    size_t nfirsts;
    /* The usable consuming states leading to state i are
     * into[into_off[i] .. into_off[i + 1]) (for the current pad). */
    uint32_t *into_off, *into;
    /* The members of layer k are pool[pool_off[k] .. pool_off[k + 1]). */
    uint32_t *pool;
    size_t npool, cappool;
    size_t *pool_off; /* tlim + 2 */
} gen;

static bool bit(const uint64_t *b, size_t i)
{
    return b[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *b, size_t i)
{
    b[i / 64] |= (uint64_t)1 << (i % 64);
}

static uint64_t *layer(const gen *g, size_t k)
{
    return g->layers + k * g->words;
}

/* Whether generation may use consuming state s. */
static bool usable(const gen *g, const state *st)
{
    return st->kind == S_SET && g->re->sets[st->arg].gen_n
           && (g->pad || !st->pad);
}

static bool eps_allowed(const state *st, bool bol, bool eol)
{
    return (st->kind != S_BOL || bol) && (st->kind != S_EOL || eol);
}

/* Grows set to every state that reaches one of its members consuming
 * nothing (passing ^ only when bol, $ only when eol). */
static void close_back(const gen *g, uint64_t *set, bool bol, bool eol)
{
    const regex *re = g->re;
    size_t top = 0;
    for (size_t w = 0; w < g->words; w++)
        for (uint64_t x = set[w]; x; x &= x - 1)
            g->stack[top++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
    while (top) {
        uint32_t v = g->stack[--top];
        for (uint32_t j = re->rev_off[v]; j < re->rev_off[v + 1]; j++) {
            uint32_t u = re->rev[j];
            if (!bit(set, u) && eps_allowed(&re->states[u], bol, eol)) {
                bit_set(set, u);
                g->stack[top++] = u;
            }
        }
    }
}

/* The goals with k code points to go, into set: the final state when k
 * is 0, else the consuming states after which k-1 code points can
 * finish (layer k-1 is built). */
static void goals(const gen *g, size_t k, uint64_t *set)
{
    memset(set, 0, g->words * sizeof *set);
    if (k == 0) {
        bit_set(set, g->re->match);
        return;
    }
    for (size_t i = g->pool_off[k - 1]; i < g->pool_off[k]; i++) {
        uint32_t v = g->pool[i];
        for (uint32_t j = g->into_off[v]; j < g->into_off[v + 1]; j++)
            bit_set(set, g->into[j]);
    }
}

/* The usable consuming states into each state, for g->pad. */
static void find_into(gen *g)
{
    const regex *re = g->re;
    size_t n = re->nstates;
    memset(g->into_off, 0, (n + 1) * sizeof *g->into_off);
    for (size_t s = 0; s < n; s++)
        if (usable(g, &re->states[s]))
            g->into_off[re->states[s].out + 1]++;
    for (size_t i = 0; i < n; i++)
        g->into_off[i + 1] += g->into_off[i];
    /* g->dist is free until the walk: it serves as the fill pointers */
    memcpy(g->dist, g->into_off, n * sizeof *g->dist);
    for (size_t s = 0; s < n; s++)
        if (usable(g, &re->states[s]))
            g->into[g->dist[re->states[s].out]++] = (uint32_t)s;
}

/* Adds state s to layer set and to the pool.  -1 out of memory. */
static int enter(gen *g, uint64_t *set, uint32_t s)
{
    uint32_t *p = grow(g->pool, &g->cappool, g->npool + 1, sizeof *p);
    if (!p)
        return -1;
    g->pool = p;
    g->pool[g->npool++] = s;
    bit_set(set, s);
    return 0;
}

/* Layer k: the states that can finish consuming exactly k code points,
 * none of them passing ^ (something has been consumed by then).  Each
 * layer's members are kept in the pool too, so the work is what the
 * layers hold and the moves into them, not the size of the pattern.
 * When the work runs past GEN_WORK, the layers end at the one it was in
 * (and g->tlim with them), or, when that is below the shortest match,
 * REGEX_TOO_LONG.  -1 out of memory. */
static int build_layers(gen *g)
{
    const regex *re = g->re;
    size_t work = 0;
    find_into(g);
    g->npool = 0;
    for (size_t k = 0; k <= g->tlim; k++) {
        uint64_t *set = layer(g, k);
        size_t head = g->npool;
        g->pool_off[k] = head;
        memset(set, 0, g->words * sizeof *set);
        if (k == 0 && enter(g, set, re->match) < 0)
            return -1;
        for (size_t i = k ? g->pool_off[k - 1] : 0; k && i < head; i++) {
            uint32_t v = g->pool[i];
            for (uint32_t j = g->into_off[v]; j < g->into_off[v + 1]; j++)
                if (enter(g, set, g->into[j]) < 0)
                    return -1;
            work += 1 + g->into_off[v + 1] - g->into_off[v];
        }
        /* the moves back from the members, the pool as the queue */
        for (size_t i = head; i < g->npool; i++) {
            uint32_t v = g->pool[i];
            for (uint32_t j = re->rev_off[v]; j < re->rev_off[v + 1]; j++) {
                uint32_t u = re->rev[j];
                if (!bit(set, u) && eps_allowed(&re->states[u], false, k == 0)
                    && enter(g, set, u) < 0)
                    return -1;
            }
            work += 1 + re->rev_off[v + 1] - re->rev_off[v];
        }
        g->pool_off[k + 1] = g->npool;
        /* clearing the set costs a little too */
        work += 1 + g->words / 8;
        if (work > GEN_WORK && k < g->tlim) {
            if (k < re->minlen)
                return REGEX_TOO_LONG;
            g->tlim = k;
        }
    }
    return 0;
}

/* The consuming states reachable from the start before consuming (through
 * ^, never $: a length of 0 is checked apart). */
static void find_firsts(gen *g)
{
    const regex *re = g->re;
    size_t top = 0;
    memset(g->visit, 0, re->nstates * sizeof *g->visit);
    g->nfirsts = 0;
    g->stack[top++] = re->start;
    g->visit[re->start] = 1;
    while (top) {
        uint32_t v = g->stack[--top];
        const state *st = &re->states[v];
        if (st->kind == S_SET) {
            if (usable(g, st))
                g->firsts[g->nfirsts++] = v;
            continue;
        }
        if (!eps_allowed(st, true, false))
            continue;
        const uint32_t *to;
        uint32_t m = eps_moves(re, v, &to);
        for (uint32_t i = 0; i < m; i++) {
            if (!g->visit[to[i]]) {
                g->visit[to[i]] = 1;
                g->stack[top++] = to[i];
            }
        }
    }
}

/* The states that can start a string of length t (before anything is
 * consumed ^ is open, and $ too when t is 0), into g->startset. */
static void start_set(gen *g, size_t t)
{
    goals(g, t, g->startset);
    close_back(g, g->startset, true, t == 0);
}

static bool feasible(gen *g, size_t t)
{
    if (t == 0) {
        start_set(g, 0);
        return bit(g->startset, g->re->start);
    }
    const uint64_t *prev = layer(g, t - 1);
    for (size_t i = 0; i < g->nfirsts; i++)
        if (bit(prev, g->re->states[g->firsts[i]].out))
            return true;
    return false;
}

/* Picks the length, into *t: uniformly among those the pattern can have
 * in [lo, hi]; failing that the nearest one (the shorter on a tie), with
 * *in_range false.  As build_layers when that fails. */
static int pick_length(gen *g, regex_rng *rng, size_t lo, size_t hi,
                       bool *in_range, size_t *t)
{
    int rc = build_layers(g);
    if (rc < 0)
        return rc;
    find_firsts(g);
    size_t top = hi < g->tlim ? hi : g->tlim, count = 0;
    for (size_t k = lo; k <= top; k++)
        count += feasible(g, k);
    if (count) {
        uint64_t r = pick(rng, count);
        *in_range = true;
        for (size_t k = lo;; k++)
            if (feasible(g, k) && r-- == 0) {
                *t = k;
                return 0;
            }
    }
    *in_range = false;
    size_t best = 0, best_dist = FAR;
    for (size_t k = 0; k <= g->tlim; k++) {
        size_t d = k < lo ? lo - k : k > hi ? k - hi : 0;
        if (d < best_dist && feasible(g, k)) {
            best = k;
            best_dist = d;
        }
    }
    *t = best;
    return 0;
}

/* Distances (moves that consume nothing) to the goals of k, through the
 * states allowed now: the way out when the random walk has boxed itself
 * in among states it already passed. */
static void fallback_dist(gen *g, size_t k, bool started)
{
    const regex *re = g->re;
    size_t n = re->nstates, head = 0, tail = 0;
    uint64_t *gl = g->scratch;
    goals(g, k, gl);
    for (size_t s = 0; s < n; s++) {
        g->dist[s] = UINT32_MAX;
        if (bit(gl, s)) {
            g->dist[s] = 0;
            g->stack[tail++] = (uint32_t)s;
        }
    }
    while (head < tail) {
        uint32_t v = g->stack[head++];
        for (uint32_t j = re->rev_off[v]; j < re->rev_off[v + 1]; j++) {
            uint32_t u = re->rev[j];
            if (g->dist[u] == UINT32_MAX
                && eps_allowed(&re->states[u], !started, k == 0)) {
                g->dist[u] = g->dist[v] + 1;
                g->stack[tail++] = u;
            }
        }
    }
}

static int draw(const regex *re, const cset *s, regex_rng *rng, buf *out)
{
    uint64_t r = pick(rng, s->gen_count);
    const crange *gr = re->ranges + s->gen_off;
    for (size_t i = 0; i < s->gen_n; i++) {
        uint64_t size = (uint64_t)gr[i].hi - gr[i].lo + 1;
        if (r < size)
            return utf8_append(out, gr[i].lo + (uint32_t)r);
        r -= size;
    }
    return -1; /* not reached: r < gen_count */
}

/* Walks from the start to the final state consuming exactly t code
 * points, appending them to out. */
static int walk(gen *g, regex_rng *rng, size_t t, buf *out)
{
    const regex *re = g->re;
    size_t k = t;
    bool started = false, boxed = false;
    uint32_t stamp = 1, cur = re->start;
    const uint64_t *viable = g->startset;
    start_set(g, t);
    memset(g->visit, 0, re->nstates * sizeof *g->visit);
    for (;;) {
        const state *st = &re->states[cur];
        g->visit[cur] = stamp;
        if (st->kind == S_MATCH)
            return 0;
        if (st->kind == S_SET) {
            if (draw(re, &re->sets[st->arg], rng, out) < 0)
                return -1;
            cur = st->out;
            k--;
            started = true;
            boxed = false;
            viable = layer(g, k);
            stamp++;
            continue;
        }
        const uint32_t *to;
        uint32_t nto = eps_moves(re, cur, &to), i;
        if (!boxed) {
            /* Uniformly among the viable moves not taken since the last
             * code point (which rules out going round an empty loop). */
            uint64_t count = 0;
            for (i = 0; i < nto; i++)
                count += bit(viable, to[i]) && g->visit[to[i]] != stamp;
            if (count) {
                uint64_t r = pick(rng, count);
                for (i = 0; i < nto; i++)
                    if (bit(viable, to[i]) && g->visit[to[i]] != stamp
                        && r-- == 0)
                        break;
                cur = to[i];
                continue;
            }
            fallback_dist(g, k, started);
            boxed = true;
        }
        /* Boxed in: straight down the distances to a goal (a neighbour
         * nearer than cur is exactly one nearer). */
        for (i = 0; i < nto; i++)
            if (g->dist[to[i]] < g->dist[cur])
                break;
        cur = to[i];
    }
}

int regex_generate(const regex *re, regex_rng *rng, size_t min_len,
                   size_t max_len, buf *out)
{
    size_t keep = out->len, n = re->nstates;
    gen g = {0};
    g.re = re;
    g.words = (n + 63) / 64;
    /* Aim under the natural length, or a little past min_len. */
    size_t hi = sat_add(min_len, 3);
    if (hi < re->natural)
        hi = re->natural;
    if (hi > max_len)
        hi = max_len;
    size_t cap = GEN_BUDGET_BITS / (g.words * 64);
    /* Some length from the shortest match on must fit in the bits. */
    if (re->minlen > cap)
        return REGEX_TOO_LONG;
    g.tlim = hi > re->minlen ? hi : re->minlen;
    if (g.tlim > cap)
        g.tlim = cap;
    int rc = -1;
    /* out->data is a string even when the match is empty and out was a
     * fresh buf (reserving alone does not terminate it). */
    if (buf_reserve(out, 0) < 0)
        return -1;
    out->data[out->len] = '\0';
    /* The work arrays, in one block: the 8-byte ones first, so that every
     * array is aligned for its type (the bounds above keep it small). */
    size_t words64 = (g.tlim + 3) * g.words, sizes = g.tlim + 2;
    size_t words32 = 6 * n + 1;
    void *block = malloc(words64 * sizeof(uint64_t) + sizes * sizeof(size_t) +
                         words32 * sizeof(uint32_t));
    if (!block)
        goto done;
    g.layers = block;
    g.startset = g.layers + (g.tlim + 1) * g.words;
    g.scratch = g.startset + g.words;
    g.pool_off = (size_t *)(g.scratch + g.words);
    g.stack = (uint32_t *)(g.pool_off + sizes);
    g.visit = g.stack + n;
    g.dist = g.visit + n;
    g.firsts = g.dist + n;
    g.into = g.firsts + n;
    g.into_off = g.into + n;
    /* Padding only when the pattern cannot reach the range by itself. */
    bool in_range;
    size_t t;
    if ((rc = pick_length(&g, rng, min_len, hi, &in_range, &t)) < 0)
        goto done;
    if (!in_range) {
        g.pad = true;
        if ((rc = pick_length(&g, rng, min_len, hi, &in_range, &t)) < 0)
            goto done;
        if (!in_range) {
            g.pad = false;
            if ((rc = pick_length(&g, rng, min_len, hi, &in_range, &t)) < 0)
                goto done;
        }
    }
    rc = walk(&g, rng, t, out);
done:
    if (rc < 0 && out->len > keep) {
        out->len = keep;
        out->data[keep] = '\0';
    }
    free(block);
    free(g.pool);
    return rc;
}
