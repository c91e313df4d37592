/*
 * yaml_load: see yaml_load.h.
 *
 * Two passes, as PyYAML does them:
 *  1. compose: libyaml's events become a graph of nodes, each with its tag
 *     resolved (PyYAML's implicit resolvers, matched by hand below); an
 *     alias is the very node its anchor named, so the graph shares nodes;
 *  2. construct: nodes become values, once per node (a shared node is a
 *     shared value), with merge keys flattened first and keys folded by
 *     Python's equality.
 * The size of the document once its aliases are expanded is summed node by
 * node, so an alias bomb is refused without being expanded.
 */
#include "yaml_load.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "buf.h"
#include "path.h"
#include "pynum.h"
#include "strmap.h"

enum ytag {
    T_STR, T_NULL, T_BOOL, T_INT, T_FLOAT, T_TIMESTAMP, T_BINARY, T_SET,
    T_OMAP, T_PAIRS, T_SEQ, T_MAP,
    T_MERGE, T_VALUE, T_YAML, /* resolvable, but nothing constructs them */
    T_OTHER                   /* any other tag: refused when constructed */
};

static const struct {
    const char *name;
    enum ytag tag;
} std_tags[] = {
    {"str", T_STR},       {"null", T_NULL},   {"bool", T_BOOL},
    {"int", T_INT},       {"float", T_FLOAT}, {"timestamp", T_TIMESTAMP},
    {"binary", T_BINARY}, {"set", T_SET},     {"omap", T_OMAP},
    {"pairs", T_PAIRS},   {"seq", T_SEQ},     {"map", T_MAP},
    {"merge", T_MERGE},   {"value", T_VALUE}, {"yaml", T_YAML},
};

#define STD_PREFIX "tag:yaml.org,2002:"

enum ynode_type { YN_SCALAR, YN_SEQ, YN_MAP };
enum { ST_NEW, ST_BUSY, ST_DONE };

typedef struct ynode ynode;
struct ynode {
    uint8_t type, tag, state, flatten_state;
    const char *tagname; /* the tag as written, for messages */
    const char *text;    /* scalar */
    size_t len;
    ynode **kids; /* sequence: n items; mapping: n pairs, key then value */
    size_t n;
    uint32_t line, col;
    value *built;
    uint64_t weight; /* values once aliases are expanded (saturating) */
};

struct frame {
    ynode *node;
    ynode **items;
    size_t n, cap;
};

struct loader {
    arena *a;
    err *e;
    struct frame *stack;
    size_t depth, stack_cap;
    strmap anchors; /* anchor -> ynode * */
    ynode *root;
    int docs;
    /* What PyYAML's own scanner refuses and libyaml accepts is checked
     * against the source: tabs outside text (see check_tabs), and, in
     * flow collections, a tag that runs into ',', '[' or ']'. */
    const char *src;
    size_t srclen;
    int utf8;               /* the source is UTF-8, so char indexes map */
    int tabs;               /* the source holds a tab */
    size_t flow;            /* open flow collections */
    unsigned char *is_flow; /* per open container: flow style? */
    struct text_range *ranges;
    size_t nranges, rcap;
    size_t cur_byte, cur_char; /* a cursor for char index -> byte */
    /* Pairs merge keys have copied into mappings so far: each is a value
     * of the expanded document, and costs its copy before any value is
     * built, so they count against DOC_MAX_EXPANDED as they are made (a
     * chain of merges of merges grows tenfold a line). */
    size_t merged;
};

/* Where quoted and block scalars lie, in characters. */
struct text_range {
    size_t start, end, line;
    int block;
};

/* ------------------------------------------------------------ errors */

static int fail(struct loader *L, uint32_t line, uint32_t col,
                const path_seg *where, enum err_code code, const char *fmt,
                ...) __attribute__((format(printf, 6, 7)));

static int fail(struct loader *L, uint32_t line, uint32_t col,
                const path_seg *where, enum err_code code, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    L->e->code = code;
    vsnprintf(L->e->msg, sizeof L->e->msg, fmt, ap);
    va_end(ap);
    err_at(L->e, line, col);
    if (where || code != ERR_SYNTAX)
        path_format(where, L->e->path, sizeof L->e->path);
    return -1;
}

static int nomem(struct loader *L)
{
    return err_set(L->e, ERR_NOMEM, "out of memory reading YAML");
}

/* A short, printable excerpt of a scalar for messages. */
static void excerpt(char *out, size_t size, const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 4 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        out[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (n + 4 >= size && len > n) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
}

/* ------------------------------------------------------------ resolvers
 * PyYAML's implicit resolvers, one function per regular expression.  Each
 * takes the whole scalar and says whether the expression matches it all. */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_word(const char *s, size_t n, const char *const *words)
{
    for (; *words; words++)
        if (strlen(*words) == n && memcmp(s, *words, n) == 0)
            return 1;
    return 0;
}

static int match_bool(const char *s, size_t n)
{
    static const char *const words[] = {
        "yes",   "Yes", "YES", "no",  "No",  "NO",  "true", "True", "TRUE",
        "false", "False", "FALSE", "on", "On", "ON", "off",  "Off",  "OFF",
        NULL};
    return is_word(s, n, words);
}

static int match_null(const char *s, size_t n)
{
    static const char *const words[] = {"~", "null", "Null", "NULL", "", NULL};
    return is_word(s, n, words);
}

/* [0-9_]* from i; returns the new index. */
static size_t skip_digits_us(const char *s, size_t n, size_t i)
{
    while (i < n && (is_digit(s[i]) || s[i] == '_'))
        i++;
    return i;
}

/* (:[0-5]?[0-9])+ from i: returns the index after it, or 0 when absent. */
static size_t match_sexagesimal_tail(const char *s, size_t n, size_t i)
{
    size_t groups = 0;
    while (i < n && s[i] == ':') {
        size_t j = i + 1, d = 0;
        while (j + d < n && is_digit(s[j + d]))
            d++;
        if (d == 0 || d > 2 || (d == 2 && s[j] > '5'))
            return 0;
        i = j + d;
        groups++;
    }
    return groups ? i : 0;
}

static int match_exponent(const char *s, size_t n, size_t i)
{
    /* ([eE][-+][0-9]+)?$ */
    if (i == n)
        return 1;
    if (s[i] != 'e' && s[i] != 'E')
        return 0;
    if (++i >= n || (s[i] != '-' && s[i] != '+'))
        return 0;
    size_t start = ++i;
    while (i < n && is_digit(s[i]))
        i++;
    return i > start && i == n;
}

static int match_float(const char *s, size_t n)
{
    size_t i = 0;
    if (n == 0)
        return 0;
    if (s[0] == '.') {
        /* \.[0-9][0-9_]*(exp)? | \.(nan|NaN|NAN) | \.(inf|Inf|INF) */
        static const char *const special[] = {".nan", ".NaN", ".NAN", ".inf",
                                              ".Inf", ".INF", NULL};
        if (is_word(s, n, special))
            return 1;
        if (n < 2 || !is_digit(s[1]))
            return 0;
        return match_exponent(s, n, skip_digits_us(s, n, 2));
    }
    if (s[0] == '-' || s[0] == '+')
        i = 1;
    if (i < n && s[i] == '.') {
        static const char *const inf[] = {".inf", ".Inf", ".INF", NULL};
        return is_word(s + i, n - i, inf);
    }
    if (i >= n || !is_digit(s[i]))
        return 0;
    i = skip_digits_us(s, n, i + 1);
    if (i < n && s[i] == ':') {
        /* [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*$ */
        i = match_sexagesimal_tail(s, n, i);
        if (!i || i >= n || s[i] != '.')
            return 0;
        return skip_digits_us(s, n, i + 1) == n;
    }
    if (i >= n || s[i] != '.')
        return 0;
    return match_exponent(s, n, skip_digits_us(s, n, i + 1));
}

static int match_int(const char *s, size_t n)
{
    size_t i = 0;
    if (n && (s[0] == '-' || s[0] == '+'))
        i = 1;
    if (i >= n || !is_digit(s[i]))
        return 0;
    if (s[i] == '0') {
        if (i + 1 == n)
            return 1; /* 0 */
        char c = s[i + 1];
        size_t j = i + 2;
        if (c == 'b') {
            if (j >= n)
                return 0;
            for (; j < n; j++)
                if (s[j] != '0' && s[j] != '1' && s[j] != '_')
                    return 0;
            return 1;
        }
        if (c == 'x') {
            if (j >= n)
                return 0;
            for (; j < n; j++) {
                char h = s[j];
                if (!is_digit(h) && !(h >= 'a' && h <= 'f') &&
                    !(h >= 'A' && h <= 'F') && h != '_')
                    return 0;
            }
            return 1;
        }
        for (j = i + 1; j < n; j++) /* 0[0-7_]+ */
            if (!(s[j] >= '0' && s[j] <= '7') && s[j] != '_')
                return 0;
        return 1;
    }
    i = skip_digits_us(s, n, i + 1); /* [1-9][0-9_]* */
    if (i == n)
        return 1;
    return s[i] == ':' && match_sexagesimal_tail(s, n, i) == n;
}

struct ts {
    int year, month, day, has_time, hour, minute, second, micro;
    int has_tz, tz_minutes; /* tz_minutes signed; "Z" is +0 */
};

/* Reads k digits at s[*i] (1 <= count <= max, at least min). */
static int read_num(const char *s, size_t n, size_t *i, int min, int max,
                    int *out)
{
    int v = 0, d = 0;
    while (*i < n && d < max && is_digit(s[*i])) {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
        d++;
    }
    *out = v;
    return d >= min;
}

/* The timestamp expression; `implicit` asks for the resolver's form (a date
 * alone needs two-digit month and day), else the constructor's. */
static int parse_ts(const char *s, size_t n, int implicit, struct ts *t)
{
    size_t i = 0;
    memset(t, 0, sizeof *t);
    if (!read_num(s, n, &i, 4, 4, &t->year) || i >= n || s[i++] != '-')
        return 0;
    size_t m0 = i;
    if (!read_num(s, n, &i, 1, 2, &t->month) || i >= n || s[i++] != '-')
        return 0;
    size_t d0 = i;
    if (!read_num(s, n, &i, 1, 2, &t->day))
        return 0;
    if (i == n)
        return !implicit || (d0 - m0 == 3 && i - d0 == 2);
    if (s[i] == 'T' || s[i] == 't') {
        i++;
    } else if (s[i] == ' ' || s[i] == '\t') {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
    } else {
        return 0;
    }
    t->has_time = 1;
    if (!read_num(s, n, &i, 1, 2, &t->hour) || i >= n || s[i++] != ':' ||
        !read_num(s, n, &i, 2, 2, &t->minute) || i >= n || s[i++] != ':' ||
        !read_num(s, n, &i, 2, 2, &t->second))
        return 0;
    if (i < n && s[i] == '.') {
        int digits = 0;
        for (i++; i < n && is_digit(s[i]); i++, digits++)
            if (digits < 6)
                t->micro = t->micro * 10 + (s[i] - '0');
        for (; digits < 6; digits++)
            t->micro *= 10;
    }
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return s[n - 1] != ' ' && s[n - 1] != '\t';
    if (s[i] == 'Z') {
        t->has_tz = 1;
        return i + 1 == n;
    }
    if (s[i] != '-' && s[i] != '+')
        return 0;
    int sign = s[i++] == '-' ? -1 : 1, h = 0, m = 0;
    if (!read_num(s, n, &i, 1, 2, &h))
        return 0;
    if (i < n && s[i] == ':') {
        i++;
        if (!read_num(s, n, &i, 2, 2, &m))
            return 0;
    }
    t->has_tz = 1;
    t->tz_minutes = sign * (h * 60 + m);
    return i == n;
}

static enum ytag resolve_plain(const char *s, size_t n)
{
    if (n == 0)
        return T_NULL;
    char c = s[0];
    if (c && strchr("yYnNtTfFoO", c) && match_bool(s, n))
        return T_BOOL;
    if (c && strchr("-+0123456789.", c) && match_float(s, n))
        return T_FLOAT;
    if (c && strchr("-+0123456789", c) && match_int(s, n))
        return T_INT;
    if (n == 2 && s[0] == '<' && s[1] == '<')
        return T_MERGE;
    if (c && strchr("~nN", c) && match_null(s, n))
        return T_NULL;
    struct ts t;
    if (is_digit(c) && parse_ts(s, n, 1, &t))
        return T_TIMESTAMP;
    if (n == 1 && c == '=')
        return T_VALUE;
    if (n == 1 && (c == '!' || c == '&' || c == '*'))
        return T_YAML;
    return T_STR;
}

static enum ytag tag_of(const char *tag)
{
    size_t plen = sizeof STD_PREFIX - 1;
    if (strncmp(tag, STD_PREFIX, plen) == 0)
        for (size_t i = 0; i < sizeof std_tags / sizeof std_tags[0]; i++)
            if (strcmp(tag + plen, std_tags[i].name) == 0)
                return std_tags[i].tag;
    return T_OTHER;
}

/* ------------------------------------------------------------ compose */

static ynode *node_new(struct loader *L, enum ynode_type type,
                       const yaml_mark_t *mark)
{
    ynode *n = arena_alloc(L->a, sizeof *n);
    if (!n)
        return NULL;
    memset(n, 0, sizeof *n);
    n->type = (uint8_t)type;
    n->line = (uint32_t)mark->line + 1;
    n->col = (uint32_t)mark->column + 1;
    return n;
}

static int set_tag(struct loader *L, ynode *n, const yaml_char_t *tag,
                   enum ytag implicit)
{
    if (!tag || strcmp((const char *)tag, "!") == 0) {
        n->tag = (uint8_t)implicit;
        return 0;
    }
    n->tag = (uint8_t)tag_of((const char *)tag);
    if (n->tag == T_OTHER &&
        !(n->tagname = arena_memdup(L->a, tag, strlen((const char *)tag))))
        return nomem(L);
    return 0;
}

static int add_anchor(struct loader *L, const yaml_char_t *anchor, ynode *n,
                      const yaml_mark_t *mark)
{
    if (!anchor)
        return 0;
    size_t len = strlen((const char *)anchor);
    char *name = arena_memdup(L->a, anchor, len);
    if (!name)
        return nomem(L);
    size_t val = (size_t)(uintptr_t)n;
    int r = strmap_get_or_put(&L->anchors, name, len, &val);
    if (r < 0)
        return nomem(L);
    if (r == 1) {
        const ynode *first = (const ynode *)(uintptr_t)val;
        return fail(L, (uint32_t)mark->line + 1, (uint32_t)mark->column + 1,
                    NULL, ERR_SYNTAX,
                    "invalid YAML: anchor &%s is defined twice (first at "
                    "line %u); rename one",
                    name, first->line);
    }
    return 0;
}

static int attach(struct loader *L, ynode *n)
{
    if (L->depth == 0) {
        L->root = n;
        return 0;
    }
    struct frame *f = &L->stack[L->depth - 1];
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 8;
        ynode **items = realloc(f->items, cap * sizeof *items);
        if (!items)
            return nomem(L);
        f->items = items;
        f->cap = cap;
    }
    f->items[f->n++] = n;
    return 0;
}

static int open_container(struct loader *L, ynode *n)
{
    if (L->depth >= VALUE_MAX_DEPTH)
        return fail(L, n->line, n->col, NULL, ERR_LIMIT,
                    "nesting deeper than %d levels; this is the limit",
                    VALUE_MAX_DEPTH);
    if (L->depth == L->stack_cap) {
        size_t cap = L->stack_cap ? L->stack_cap * 2 : 16;
        struct frame *s = realloc(L->stack, cap * sizeof *s);
        if (!s)
            return nomem(L);
        L->stack = s;
        unsigned char *fl = realloc(L->is_flow, cap);
        if (!fl)
            return nomem(L);
        L->is_flow = fl;
        L->stack_cap = cap;
    }
    L->stack[L->depth++] = (struct frame){n, NULL, 0, 0};
    return 0;
}

static int close_container(struct loader *L)
{
    L->flow -= L->is_flow[L->depth - 1];
    struct frame *f = &L->stack[--L->depth];
    ynode *n = f->node;
    int rc = 0;
    if (f->n) {
        n->kids = arena_alloc(L->a, f->n * sizeof *n->kids);
        if (n->kids)
            memcpy(n->kids, f->items, f->n * sizeof *n->kids);
        else
            rc = nomem(L);
    }
    n->n = n->type == YN_MAP ? f->n / 2 : f->n;
    free(f->items);
    return rc < 0 ? rc : attach(L, n);
}

static int parse_error(struct loader *L, const yaml_parser_t *p)
{
    const char *problem = p->problem ? p->problem : "malformed input";
    if (p->error == YAML_MEMORY_ERROR)
        return nomem(L);
    if (p->error == YAML_READER_ERROR)
        return fail(L, 0, 0, NULL, ERR_SYNTAX,
                    "not YAML text: %s at byte %zu; save the file as UTF-8",
                    problem, p->problem_offset);
    return fail(L, (uint32_t)p->problem_mark.line + 1,
                (uint32_t)p->problem_mark.column + 1, NULL, ERR_SYNTAX,
                "invalid YAML: %s%s%s", problem, p->context ? " " : "",
                p->context ? p->context : "");
}

/* The byte offset of character index ci in a UTF-8 source. */
static size_t byte_at(struct loader *L, size_t ci)
{
    if (ci < L->cur_char)
        L->cur_byte = L->cur_char = 0;
    while (L->cur_char < ci && L->cur_byte < L->srclen) {
        L->cur_byte++;
        while (L->cur_byte < L->srclen &&
               ((unsigned char)L->src[L->cur_byte] & 0xC0) == 0x80)
            L->cur_byte++;
        L->cur_char++;
    }
    return L->cur_byte;
}

/* PyYAML reads ',', '[' and ']' as part of a tag even in a flow
 * collection, where libyaml ends the tag there; PyYAML then fails. */
static int check_flow_tag(struct loader *L, const yaml_mark_t *mark)
{
    if (!L->flow || !L->utf8)
        return 0;
    size_t i = byte_at(L, mark->index);
    for (int props = 0; props < 2 && i < L->srclen; props++) {
        char c = L->src[i];
        if (c != '&' && c != '!')
            break;
        size_t start = i;
        while (i < L->srclen && !strchr(" \t\r\n,[]{}", L->src[i]))
            i++;
        if (c == '!' && i < L->srclen && strchr(",[]", L->src[i]) &&
            L->src[start + 1] != '<')
            return fail(L, (uint32_t)mark->line + 1,
                        (uint32_t)mark->column + 1, NULL, ERR_SYNTAX,
                        "invalid YAML: a tag runs into '%c'; PyYAML reads it "
                        "as part of the tag: put a space after the tag",
                        L->src[i]);
        while (i < L->srclen && L->src[i] == ' ')
            i++;
    }
    return 0;
}

static int add_range(struct loader *L, const yaml_event_t *ev, int block)
{
    if (!L->tabs)
        return 0;
    if (L->nranges == L->rcap) {
        size_t cap = L->rcap ? L->rcap * 2 : 32;
        struct text_range *r = realloc(L->ranges, cap * sizeof *r);
        if (!r)
            return nomem(L);
        L->ranges = r;
        L->rcap = cap;
    }
    L->ranges[L->nranges++] = (struct text_range){
        ev->start_mark.index, ev->end_mark.index, ev->start_mark.line, block};
    return 0;
}

/* PyYAML's scanner skips only spaces between tokens and inside plain
 * scalars, so a tab anywhere but in quoted text, block scalar content or a
 * comment is an error there (libyaml is more lenient). */
static int check_tabs(struct loader *L)
{
    size_t ci = 0, line = 0, col = 0, r = 0;
    int comment = 0, prev_blank = 1;
    for (size_t i = 0; i < L->srclen;) {
        unsigned char c = (unsigned char)L->src[i];
        while (r < L->nranges && L->ranges[r].end <= ci)
            r++;
        int inside = r < L->nranges && L->ranges[r].start <= ci &&
                     (!L->ranges[r].block || line > L->ranges[r].line);
        if (c == '\n') {
            line++, col = 0, comment = 0, prev_blank = 1;
        } else {
            if (c == '#' && prev_blank && !inside)
                comment = 1;
            if (c == '\t' && !inside && !comment)
                return fail(L, (uint32_t)line + 1, (uint32_t)col + 1, NULL,
                            ERR_SYNTAX,
                            "invalid YAML: a tab outside quoted text, a block "
                            "scalar or a comment (PyYAML refuses it); use "
                            "spaces");
            prev_blank = c == ' ' || c == '\t';
            col++;
        }
        i++;
        while (i < L->srclen && ((unsigned char)L->src[i] & 0xC0) == 0x80)
            i++;
        ci++;
    }
    return 0;
}

static int on_event(struct loader *L, const yaml_event_t *ev)
{
    const yaml_mark_t *mark = &ev->start_mark;
    ynode *n;
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++L->docs > 1)
            return fail(L, (uint32_t)mark->line + 1,
                        (uint32_t)mark->column + 1, NULL, ERR_SYNTAX,
                        "a second YAML document starts here; a tool file "
                        "holds one document");
        return 0;
    case YAML_ALIAS_EVENT: {
        size_t val = 0;
        const char *name = (const char *)ev->data.alias.anchor;
        int r = strmap_get_or_put(&L->anchors, name, strlen(name), &val);
        if (r < 0)
            return nomem(L);
        if (r == 0) {
            /* Never meant to stay: the loader stops on this error. */
            return fail(L, (uint32_t)mark->line + 1,
                        (uint32_t)mark->column + 1, NULL, ERR_SYNTAX,
                        "invalid YAML: alias *%s names no anchor before it",
                        name);
        }
        return attach(L, (ynode *)(uintptr_t)val);
    }
    case YAML_SCALAR_EVENT: {
        if (!(n = node_new(L, YN_SCALAR, mark)))
            return nomem(L);
        n->len = ev->data.scalar.length;
        if (!(n->text = arena_memdup(L->a, ev->data.scalar.value, n->len)))
            return nomem(L);
        int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        const yaml_char_t *tag = ev->data.scalar.tag;
        if (!plain &&
            add_range(L, ev,
                      ev->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                          ev->data.scalar.style == YAML_FOLDED_SCALAR_STYLE) < 0)
            return -1;
        if (tag && check_flow_tag(L, mark) < 0)
            return -1;
        int implicit = (plain && !tag) ||
                       (tag && strcmp((const char *)tag, "!") == 0);
        if (set_tag(L, n, tag, implicit ? resolve_plain(n->text, n->len)
                                        : T_STR) < 0 ||
            add_anchor(L, ev->data.scalar.anchor, n, mark) < 0)
            return -1;
        return attach(L, n);
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        int seq = ev->type == YAML_SEQUENCE_START_EVENT;
        if (!(n = node_new(L, seq ? YN_SEQ : YN_MAP, mark)))
            return nomem(L);
        const yaml_char_t *tag = seq ? ev->data.sequence_start.tag
                                     : ev->data.mapping_start.tag;
        const yaml_char_t *anchor = seq ? ev->data.sequence_start.anchor
                                        : ev->data.mapping_start.anchor;
        if (set_tag(L, n, tag, seq ? T_SEQ : T_MAP) < 0 ||
            add_anchor(L, anchor, n, mark) < 0 ||
            (tag && check_flow_tag(L, mark) < 0))
            return -1;
        int flow = seq ? ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                       : ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
        if (open_container(L, n) < 0)
            return -1;
        L->is_flow[L->depth - 1] = (unsigned char)flow;
        L->flow += (size_t)flow;
        return 0;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return close_container(L);
    default:
        return 0;
    }
}

static int compose(struct loader *L, const char *bytes, size_t len)
{
    yaml_parser_t p;
    L->src = bytes;
    L->srclen = len;
    L->utf8 = !(len >= 2 && (((unsigned char)bytes[0] == 0xFF &&
                              (unsigned char)bytes[1] == 0xFE) ||
                             ((unsigned char)bytes[0] == 0xFE &&
                              (unsigned char)bytes[1] == 0xFF)));
    L->tabs = L->utf8 && memchr(bytes, '\t', len) != NULL;
    if (!yaml_parser_initialize(&p))
        return nomem(L);
    yaml_parser_set_input_string(&p, (const unsigned char *)bytes, len);
    int rc = 0, done = 0;
    while (!done && rc == 0) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            rc = parse_error(L, &p);
            break;
        }
        done = ev.type == YAML_STREAM_END_EVENT;
        rc = on_event(L, &ev);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    if (rc == 0 && L->tabs)
        rc = check_tabs(L);
    return rc;
}

/* ------------------------------------------------------------ construct */

static value *build(struct loader *L, ynode *n, const path_seg *where);

static const char *node_kind(const ynode *n)
{
    return n->type == YN_SCALAR ? "a scalar"
           : n->type == YN_SEQ  ? "a sequence"
                                : "a mapping";
}

/* The scalar a scalar-typed tag reads: the node itself, or, for a mapping,
 * the value of its '=' key (PyYAML's construct_scalar does this). */
static const ynode *scalar_of(struct loader *L, const ynode *n,
                              const path_seg *where, const char *tagname)
{
    if (n->type == YN_MAP)
        for (size_t i = 0; i < n->n; i++)
            if (n->kids[2 * i]->tag == T_VALUE)
                return scalar_of(L, n->kids[2 * i + 1], where, tagname);
    if (n->type == YN_SCALAR)
        return n;
    fail(L, n->line, n->col, where, ERR_VALUE,
         "the tag !!%s needs a scalar, but the node is %s; remove the tag",
         tagname, node_kind(n));
    return NULL;
}

/* Adds the pairs of one merged mapping m, merged at key k, to *cap, the
 * pairs n will take in; refuses past DOC_MAX_EXPANDED for the document. */
static int merge_count(struct loader *L, const ynode *k, const ynode *m,
                       const path_seg *where, size_t *cap)
{
    *cap += m->n;
    if (L->merged + *cap <= DOC_MAX_EXPANDED)
        return 0;
    return fail(L, k->line, k->col, where, ERR_LIMIT,
                "merge keys (<<) expand the document past %u values, the "
                "limit; no tool file needs that many (a merge bomb?)",
                DOC_MAX_EXPANDED);
}

static int flatten(struct loader *L, ynode *n, const path_seg *where)
{
    if (n->flatten_state == 2)
        return 0;
    if (n->flatten_state == 1)
        return fail(L, n->line, n->col, where, ERR_VALUE,
                    "a merge key (<<) merges a mapping into itself; remove "
                    "the merge");
    n->flatten_state = 1;
    ynode **merged = NULL, **own = NULL;
    size_t nmerged = 0, nown = 0, cap = 0, nmerges = 0;
    int rc = 0;
    /* Room for every pair that could come in: counted first. */
    for (size_t i = 0; i < n->n && rc == 0; i++) {
        ynode *k = n->kids[2 * i], *v = n->kids[2 * i + 1];
        if (k->tag != T_MERGE)
            continue;
        nmerges++;
        if (v->type == YN_MAP) {
            if ((rc = flatten(L, v, where)) == 0)
                rc = merge_count(L, k, v, where, &cap);
        } else if (v->type == YN_SEQ) {
            for (size_t j = 0; j < v->n && rc == 0; j++) {
                ynode *sub = v->kids[j];
                if (sub->type != YN_MAP)
                    rc = fail(L, sub->line, sub->col, where, ERR_VALUE,
                              "a merge key (<<) lists %s; it can merge "
                              "only mappings",
                              node_kind(sub));
                else if ((rc = flatten(L, sub, where)) == 0)
                    rc = merge_count(L, k, sub, where, &cap);
            }
        } else {
            rc = fail(L, v->line, v->col, where, ERR_VALUE,
                      "a merge key (<<) is given a scalar; it can merge a "
                      "mapping or a list of mappings");
        }
    }
    if (rc == 0 && nmerges == 0) {
        for (size_t i = 0; i < n->n; i++)
            if (n->kids[2 * i]->tag == T_VALUE)
                n->kids[2 * i]->tag = T_STR;
        n->flatten_state = 2;
        return 0;
    }
    if (rc == 0) {
        L->merged += cap;
        merged = malloc(2 * (cap ? cap : 1) * sizeof *merged);
        own = malloc(2 * (n->n ? n->n : 1) * sizeof *own);
        if (!merged || !own)
            rc = nomem(L);
    }
    for (size_t i = 0; i < n->n && rc == 0; i++) {
        ynode *k = n->kids[2 * i], *v = n->kids[2 * i + 1];
        if (k->tag != T_MERGE) {
            if (k->tag == T_VALUE)
                k->tag = T_STR;
            own[2 * nown] = k;
            own[2 * nown++ + 1] = v;
            continue;
        }
        if (v->type == YN_MAP) {
            if (v->n)
                memcpy(merged + 2 * nmerged, v->kids,
                       2 * v->n * sizeof *merged);
            nmerged += v->n;
            continue;
        }
        /* A list merges its mappings last first, so the first one wins. */
        for (size_t j = v->n; j-- > 0;) {
            ynode *sub = v->kids[j];
            if (sub->n)
                memcpy(merged + 2 * nmerged, sub->kids,
                       2 * sub->n * sizeof *merged);
            nmerged += sub->n;
        }
    }
    if (rc == 0) {
        size_t total = nmerged + nown;
        ynode **kids = arena_alloc(L->a, 2 * (total ? total : 1) * sizeof *kids);
        if (!kids) {
            rc = nomem(L);
        } else {
            if (nmerged)
                memcpy(kids, merged, 2 * nmerged * sizeof *kids);
            if (nown)
                memcpy(kids + 2 * nmerged, own, 2 * nown * sizeof *kids);
            n->kids = kids;
            n->n = total;
            n->flatten_state = 2;
        }
    }
    free(merged);
    free(own);
    return rc;
}

static uint64_t add_weight(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

static value *build_timestamp(struct loader *L, const ynode *n,
                              const ynode *s, const path_seg *where)
{
    struct ts t;
    char ex[64];
    excerpt(ex, sizeof ex, s->text, s->len);
    if (!parse_ts(s->text, s->len, 0, &t)) {
        fail(L, n->line, n->col, where, ERR_VALUE,
             "\"%s\" is not a timestamp; remove the !!timestamp tag", ex);
        return NULL;
    }
    const char *bad = NULL;
    if (t.year < 1)
        bad = "year 0 is out of range";
    else if (t.month < 1 || t.month > 12)
        bad = "the month is out of range";
    else if (t.day < 1 || t.day > days_in_month(t.year, t.month))
        bad = "the day is out of range for the month";
    else if (t.has_time && (t.hour > 23 || t.minute > 59 || t.second > 59))
        bad = "the time of day is out of range";
    else if (t.has_tz && (t.tz_minutes <= -1440 || t.tz_minutes >= 1440))
        bad = "the UTC offset is 24 hours or more";
    if (bad) {
        fail(L, n->line, n->col, where, ERR_VALUE,
             "\"%s\" reads as a date, but %s; quote it to keep it as text",
             ex, bad);
        return NULL;
    }
    char iso[64];
    int k = snprintf(iso, sizeof iso, "%04d-%02d-%02d", t.year, t.month,
                     t.day);
    uint8_t flags = VF_DATE;
    if (t.has_time) {
        flags = 0;
        k += snprintf(iso + k, sizeof iso - (size_t)k, "T%02d:%02d:%02d",
                      t.hour, t.minute, t.second);
        if (t.micro)
            k += snprintf(iso + k, sizeof iso - (size_t)k, ".%06d", t.micro);
        if (t.has_tz) {
            int off = t.tz_minutes < 0 ? -t.tz_minutes : t.tz_minutes;
            k += snprintf(iso + k, sizeof iso - (size_t)k, "%c%02d:%02d",
                          t.tz_minutes < 0 ? '-' : '+', off / 60, off % 60);
            flags = VF_AWARE;
        }
    }
    value *v = value_new_text(L->a, V_TIMESTAMP, iso, (size_t)k, n->line,
                              n->col);
    if (!v) {
        nomem(L);
        return NULL;
    }
    v->flags = flags;
    return v;
}

/* Python's float() on text with underscores gone and lower-cased: an
 * optional sign, digits with at most one dot, an optional exponent;
 * "inf", "infinity" and "nan"; spaces around. */
static int py_float_text(const char *text, size_t tn, double *out)
{
    buf norm = BUF_INIT;
    int r = pynum_ascii(&norm, text, tn);
    if (r < 0 || norm.len == 0 || norm.len >= 512) {
        buf_free(&norm);
        return r == PYNUM_NOMEM ? -2 : -1;
    }
    const char *s = norm.data;
    size_t n = norm.len, i = 0;
    int rc = -1;
    if (s[i] == '-' || s[i] == '+')
        i++;
    static const char *const words[] = {"inf", "infinity", "nan", NULL};
    char low[16];
    size_t k;
    for (k = 0; i + k < n && k < sizeof low - 1; k++)
        low[k] = (char)(s[i + k] >= 'A' && s[i + k] <= 'Z' ? s[i + k] + 32
                                                         : s[i + k]);
    low[k] = '\0';
    if (is_word(low, n - i, words)) {
        double v = low[0] == 'n' ? NAN : INFINITY;
        *out = s[0] == '-' ? -v : v;
        rc = 0;
    } else {
        size_t mant = 0;
        while (i < n && is_digit(s[i]))
            i++, mant++;
        if (i < n && s[i] == '.')
            for (i++; i < n && is_digit(s[i]); i++)
                mant++;
        if (mant > 0 && i < n && (s[i] == 'e' || s[i] == 'E')) {
            i++;
            if (i < n && (s[i] == '-' || s[i] == '+'))
                i++;
            size_t e0 = i;
            while (i < n && is_digit(s[i]))
                i++;
            if (i == e0)
                mant = 0;
        }
        /* Only [-+0-9.eE] reach strtod, so its locale and hex forms play
         * no part. */
        if (mant > 0 && i == n) {
            *out = strtod(s, NULL);
            rc = 0;
        }
    }
    buf_free(&norm);
    return rc;
}

static value *build_float(struct loader *L, const ynode *n, const ynode *s,
                          const path_seg *where)
{
    char clean[512], ex[64];
    size_t len = 0;
    excerpt(ex, sizeof ex, s->text, s->len);
    for (size_t i = 0; i < s->len && len + 1 < sizeof clean; i++) {
        char c = s->text[i];
        if (c == '_')
            continue;
        clean[len++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    clean[len] = '\0';
    double d = 0;
    int ok = len > 0 && len + 1 < sizeof clean, oom = 0;
    if (ok) {
        const char *p = clean;
        size_t plen = len;
        double sign = 1;
        if (p[0] == '-')
            sign = -1;
        if (p[0] == '-' || p[0] == '+')
            p++, plen--;
        if (plen == 4 && memcmp(p, ".inf", 4) == 0) {
            d = sign * INFINITY;
        } else if (plen == 4 && memcmp(p, ".nan", 4) == 0) {
            d = NAN;
        } else if (memchr(p, ':', plen)) {
            /* Base 60, least significant part first, as PyYAML sums it. */
            double base = 1, sum = 0;
            const char *end = p + plen;
            while (ok && end > p) {
                const char *colon = end;
                while (colon > p && colon[-1] != ':')
                    colon--;
                double part;
                int r = py_float_text(colon, (size_t)(end - colon), &part);
                oom |= r == -2;
                ok = r == 0;
                sum += part * base;
                base *= 60;
                end = colon > p ? colon - 1 : p;
                if (colon == p)
                    break;
            }
            d = sign * sum;
        } else {
            int r = py_float_text(p, plen, &d);
            oom |= r == -2;
            ok = r == 0;
            d *= sign;
        }
    }
    if (oom) {
        nomem(L);
        return NULL;
    }
    if (!ok) {
        fail(L, n->line, n->col, where, ERR_VALUE,
             "\"%s\" is not a number; remove the !!float tag", ex);
        return NULL;
    }
    value *v = value_new(L->a, V_FLOAT, n->line, n->col);
    if (!v)
        nomem(L);
    else
        v->u.d = d;
    return v;
}

/* Python's int(text, base) on text already free of underscores: spaces
 * around it, a sign, the base's prefix, Unicode digits.  `negate` is the
 * sign PyYAML took off before. */
static int py_int(buf *out, const char *text, size_t n, unsigned base,
                  int negate)
{
    buf a = BUF_INIT;
    int rc = pynum_ascii(&a, text, n);
    if (rc == PYNUM_OK)
        rc = PYNUM_BAD_DIGIT;
    else
        a.len = 0; /* not UTF-8, or out of memory: rc says which */
    if (a.len) {
        const char *p = a.data;
        size_t len = a.len;
        int neg = 0;
        if (p[0] == '+' || p[0] == '-') {
            neg = p[0] == '-';
            p++, len--;
        }
        char prefix = base == 16 ? 'x' : base == 8 ? 'o' : base == 2 ? 'b' : 0;
        if (prefix && len >= 2 && p[0] == '0' && (p[1] | 0x20) == prefix)
            p += 2, len -= 2;
        if (len)
            rc = pyint_from_digits(out, p, len, base, neg != negate);
    }
    buf_free(&a);
    return rc;
}

static value *build_int(struct loader *L, const ynode *n, const ynode *s,
                        const path_seg *where)
{
    char ex[64];
    excerpt(ex, sizeof ex, s->text, s->len);
    buf clean = BUF_INIT, out = BUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < s->len && rc == 0; i++)
        if (s->text[i] != '_')
            rc = buf_putc(&clean, s->text[i]);
    if (rc < 0) {
        buf_free(&clean);
        nomem(L);
        return NULL;
    }
    const char *p = clean.data ? clean.data : "";
    size_t len = clean.len;
    int negative = len && p[0] == '-';
    if (len && (p[0] == '-' || p[0] == '+'))
        p++, len--;
    if (len == 0) {
        rc = PYNUM_BAD_DIGIT;
    } else if (len == 1 && p[0] == '0') {
        rc = buf_putc(&out, '0') < 0 ? PYNUM_NOMEM : PYNUM_OK;
    } else if (len >= 2 && p[0] == '0' && p[1] == 'b') {
        rc = py_int(&out, p + 2, len - 2, 2, negative);
    } else if (len >= 2 && p[0] == '0' && p[1] == 'x') {
        rc = py_int(&out, p + 2, len - 2, 16, negative);
    } else if (p[0] == '0') {
        rc = py_int(&out, p, len, 8, negative);
    } else if (memchr(p, ':', len)) {
        const char *parts[64];
        size_t lens[64], np = 0;
        const char *q = p, *end = p + len;
        while (rc == 0) {
            const char *colon = memchr(q, ':', (size_t)(end - q));
            if (np == 64) {
                rc = PYNUM_TOO_LONG;
                break;
            }
            parts[np] = q;
            lens[np++] = (size_t)((colon ? colon : end) - q);
            if (!colon)
                break;
            q = colon + 1;
        }
        if (rc == 0)
            rc = pyint_sexagesimal(&out, parts, lens, np, negative);
    } else {
        rc = py_int(&out, p, len, 10, negative);
    }
    buf_free(&clean);
    value *v = NULL;
    if (rc == PYNUM_OK) {
        v = value_new_text(L->a, V_INT, out.data, out.len, n->line, n->col);
        if (!v)
            nomem(L);
    } else if (rc == PYNUM_NOMEM) {
        nomem(L);
    } else if (rc == PYNUM_TOO_LONG) {
        fail(L, n->line, n->col, where, ERR_LIMIT,
             "an integer of more than %d digits; Python refuses it too",
             PYINT_MAX_DIGITS);
    } else {
        fail(L, n->line, n->col, where, ERR_VALUE,
             "\"%s\" is not an integer; remove the !!int tag", ex);
    }
    buf_free(&out);
    return v;
}

static value *build_bad(struct loader *L, const ynode *n, const char *what)
{
    value *v = value_new_text(L->a, V_BAD, what, strlen(what), n->line,
                              n->col);
    if (!v)
        nomem(L);
    return v;
}

static value *build_scalar(struct loader *L, const ynode *n,
                           const path_seg *where)
{
    static const char *const names[] = {
        [T_STR] = "str",       [T_NULL] = "null",
        [T_BOOL] = "bool",     [T_INT] = "int",
        [T_FLOAT] = "float",   [T_TIMESTAMP] = "timestamp",
        [T_BINARY] = "binary"};
    const ynode *s = scalar_of(L, n, where, names[n->tag]);
    if (!s)
        return NULL;
    value *v = NULL;
    switch ((enum ytag)n->tag) {
    case T_STR:
        v = value_new_text(L->a, V_STRING, s->text, s->len, n->line, n->col);
        break;
    case T_NULL:
        v = value_new(L->a, V_NULL, n->line, n->col);
        break;
    case T_BOOL: {
        char low[8];
        size_t i;
        for (i = 0; i < s->len && i < sizeof low - 1; i++)
            low[i] = (char)(s->text[i] >= 'A' && s->text[i] <= 'Z'
                                ? s->text[i] - 'A' + 'a'
                                : s->text[i]);
        low[i] = '\0';
        static const char *const yes[] = {"yes", "true", "on", NULL};
        static const char *const no[] = {"no", "false", "off", NULL};
        int t = is_word(low, s->len, yes), f = is_word(low, s->len, no);
        if (!t && !f) {
            char ex[64];
            excerpt(ex, sizeof ex, s->text, s->len);
            fail(L, n->line, n->col, where, ERR_VALUE,
                 "\"%s\" is not a boolean; remove the !!bool tag", ex);
            return NULL;
        }
        if ((v = value_new(L->a, V_BOOL, n->line, n->col)))
            v->u.b = t;
        break;
    }
    case T_INT:
        return build_int(L, n, s, where);
    case T_FLOAT:
        return build_float(L, n, s, where);
    case T_TIMESTAMP:
        return build_timestamp(L, n, s, where);
    case T_BINARY:
        for (size_t i = 0; i < s->len; i++)
            if ((unsigned char)s->text[i] >= 0x80) {
                fail(L, n->line, n->col, where, ERR_VALUE,
                     "binary data (!!binary) holds a character that is not "
                     "base64; fix the data");
                return NULL;
            }
        return build_bad(L, n,
                         "binary data (!!binary) cannot be written as JSON; "
                         "drop the tag to keep the base64 text");
    default:
        break;
    }
    if (!v)
        nomem(L);
    return v;
}

static value *build_seq(struct loader *L, ynode *n, const path_seg *where,
                        int pairs)
{
    if (n->type != YN_SEQ) {
        fail(L, n->line, n->col, where, ERR_VALUE,
             "the tag %s needs a sequence, but the node is %s; remove the "
             "tag",
             n->tag == T_OMAP ? "!!omap" : n->tag == T_PAIRS ? "!!pairs"
                                                             : "!!seq",
             node_kind(n));
        return NULL;
    }
    value *v = value_new(L->a, V_ARRAY, n->line, n->col);
    value **items = n->n ? arena_alloc(L->a, n->n * sizeof *items) : NULL;
    if (!v || (n->n && !items)) {
        nomem(L);
        return NULL;
    }
    uint64_t weight = 1;
    for (size_t i = 0; i < n->n; i++) {
        path_seg seg = {where, NULL, 0, i};
        ynode *kid = n->kids[i];
        if (!pairs) {
            if (!(items[i] = build(L, kid, &seg)))
                return NULL;
            weight = add_weight(weight, kid->weight);
            continue;
        }
        /* !!omap and !!pairs: each item a one-pair mapping, read as the
         * list [key, value] (Python's tuple, which JSON writes as a list). */
        if (kid->type != YN_MAP || kid->n != 1) {
            fail(L, kid->line, kid->col, &seg, ERR_VALUE,
                 "an ordered map (!!omap, !!pairs) holds mappings of one "
                 "pair each; this item is not one");
            return NULL;
        }
        value *pair = value_new(L->a, V_ARRAY, kid->line, kid->col);
        value **two = arena_alloc(L->a, 2 * sizeof *two);
        if (!pair || !two) {
            nomem(L);
            return NULL;
        }
        if (!(two[0] = build(L, kid->kids[0], &seg)) ||
            !(two[1] = build(L, kid->kids[1], &seg)))
            return NULL;
        pair->u.arr.items = two;
        pair->u.arr.len = 2;
        items[i] = pair;
        weight = add_weight(weight, add_weight(1, add_weight(
                                                      kid->kids[0]->weight,
                                                      kid->kids[1]->weight)));
    }
    v->u.arr.items = items;
    v->u.arr.len = n->n;
    n->weight = weight;
    return v;
}

/* The identity of a key under Python's ==, as text: equal keys, equal
 * texts.  Numbers (bool, int, float) that are whole share one spelling. */
static int key_identity(buf *out, const value *k, size_t index)
{
    char tmp[400];
    switch ((value_kind)k->kind) {
    case V_NULL:
        return buf_puts(out, "Z");
    case V_BOOL:
        return buf_puts(out, k->u.b ? "N1" : "N0");
    case V_INT:
        return buf_putc(out, 'N') < 0
                   ? -1
                   : buf_append(out, k->u.str.ptr, k->u.str.len);
    case V_FLOAT:
        if (isnan(k->u.d))
            return buf_printf(out, "U%zu", index); /* equal to nothing */
        if (isinf(k->u.d))
            return buf_puts(out, k->u.d > 0 ? "I+" : "I-");
        if (k->u.d == floor(k->u.d)) {
            snprintf(tmp, sizeof tmp, "%.0f", k->u.d);
            return buf_printf(out, "N%s", strcmp(tmp, "-0") ? tmp : "0");
        }
        return buf_printf(out, "F%a", k->u.d);
    case V_STRING:
        return buf_putc(out, 'S') < 0
                   ? -1
                   : buf_append(out, k->u.str.ptr, k->u.str.len);
    case V_TIMESTAMP:
        if (k->flags & VF_AWARE) {
            /* Aware datetimes are equal when they name the same instant. */
            int y, mo, d, h, mi, s, oh, om, us = 0;
            char sign;
            const char *t = k->u.str.ptr;
            sscanf(t, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &s);
            if (t[19] == '.')
                sscanf(t + 20, "%6d", &us);
            const char *z = t + k->u.str.len - 6;
            sscanf(z, "%c%2d:%2d", &sign, &oh, &om);
            int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 +
                           mi * 60 + s - (sign == '-' ? -1 : 1) *
                                             (oh * 3600 + om * 60);
            return buf_printf(out, "A%lld.%06d", (long long)secs, us);
        }
        return buf_putc(out, k->flags & VF_DATE ? 'D' : 'T') < 0
                   ? -1
                   : buf_append(out, k->u.str.ptr, k->u.str.len);
    case V_BAD:
        return buf_printf(out, "B%zu", index);
    case V_ARRAY:
    case V_OBJECT:
        break;
    }
    return buf_printf(out, "U%zu", index);
}

static value *build_map(struct loader *L, ynode *n, const path_seg *where,
                        int set)
{
    if (n->type != YN_MAP) {
        fail(L, n->line, n->col, where, ERR_VALUE,
             "the tag %s needs a mapping, but the node is %s; remove the tag",
             set ? "!!set" : "!!map", node_kind(n));
        return NULL;
    }
    if (flatten(L, n, where) < 0)
        return NULL;
    size_t np = n->n;
    value_member *m = np ? arena_alloc(L->a, np * sizeof *m) : NULL;
    size_t *ids = np ? malloc(2 * np * sizeof *ids) : NULL;
    uint64_t *wts = np ? malloc(np * sizeof *wts) : NULL;
    value *v = value_new(L->a, set ? V_BAD : V_OBJECT, n->line, n->col);
    buf idtext = BUF_INIT;
    strmap seen = STRMAP_INIT;
    size_t used = 0;
    uint64_t weight = 1;
    int ok = v && (!np || (m && ids && wts));
    if (!ok)
        nomem(L);
    for (size_t i = 0; ok && i < np; i++) {
        ynode *kn = n->kids[2 * i], *vn = n->kids[2 * i + 1];
        path_seg seg = {where, NULL, 0, i};
        value *key = build(L, kn, &seg);
        if (!key) {
            ok = 0;
            break;
        }
        if (key->kind == V_STRING) {
            seg.key = key->u.str.ptr;
            seg.keylen = key->u.str.len;
        }
        if (key->kind == V_ARRAY || key->kind == V_OBJECT ||
            kn->tag == T_SET) {
            fail(L, kn->line, kn->col, where, ERR_VALUE,
                 "a key is %s, which cannot be a key; use a string key",
                 key->kind == V_ARRAY ? "a list" : "a mapping or a set");
            ok = 0;
            break;
        }
        value *val = build(L, vn, &seg);
        if (!val) {
            ok = 0;
            break;
        }
        size_t start = idtext.len;
        if (key_identity(&idtext, key, i) < 0) {
            nomem(L);
            ok = 0;
            break;
        }
        ids[2 * i] = start;
        ids[2 * i + 1] = idtext.len - start;
        m[i].key = key;
        m[i].val = val;
        wts[i] = vn->weight;
    }
    /* Fold keys that Python holds equal: first key, last value. */
    for (size_t i = 0; ok && i < np; i++) {
        size_t slot = used;
        int r = strmap_get_or_put(&seen, idtext.data + ids[2 * i],
                                  ids[2 * i + 1], &slot);
        if (r < 0) {
            nomem(L);
            ok = 0;
        } else if (r == 1) {
            m[slot].val = m[i].val;
            wts[slot] = wts[i];
        } else {
            wts[used] = wts[i];
            m[used++] = m[i];
        }
    }
    for (size_t i = 0; ok && i < used; i++)
        weight = add_weight(weight, wts[i]);
    strmap_free(&seen);
    buf_free(&idtext);
    free(ids);
    free(wts);
    if (!ok)
        return NULL;
    if (set) {
        v->u.str.ptr = "a set (!!set) cannot be written as JSON; write a "
                       "list instead";
        v->u.str.len = strlen(v->u.str.ptr);
    } else {
        v->u.obj.items = m;
        v->u.obj.len = used;
    }
    n->weight = weight;
    return v;
}

static value *build(struct loader *L, ynode *n, const path_seg *where)
{
    if (n->state == ST_DONE)
        return n->built;
    if (n->state == ST_BUSY) {
        fail(L, n->line, n->col, where, ERR_VALUE,
             "an alias refers to a node that contains it, so the document "
             "never ends; JSON cannot write it");
        return NULL;
    }
    n->state = ST_BUSY;
    n->weight = 1;
    value *v = NULL;
    switch ((enum ytag)n->tag) {
    case T_STR:
    case T_NULL:
    case T_BOOL:
    case T_INT:
    case T_FLOAT:
    case T_TIMESTAMP:
    case T_BINARY:
        v = build_scalar(L, n, where);
        break;
    case T_SEQ:
        v = build_seq(L, n, where, 0);
        break;
    case T_OMAP:
    case T_PAIRS:
        v = build_seq(L, n, where, 1);
        break;
    case T_MAP:
        v = build_map(L, n, where, 0);
        break;
    case T_SET:
        v = build_map(L, n, where, 1);
        break;
    case T_MERGE:
        fail(L, n->line, n->col, where, ERR_VALUE,
             "a bare << is a merge key and can only be a key; quote it to "
             "mean the text \"<<\"");
        break;
    case T_VALUE:
        fail(L, n->line, n->col, where, ERR_VALUE,
             "a bare = is YAML 1.1's value key, which cannot be read as a "
             "value; quote it to mean the text \"=\"");
        break;
    case T_YAML:
    case T_OTHER:
        fail(L, n->line, n->col, where, ERR_VALUE,
             "unknown tag %s; a tool file can use only YAML's standard tags "
             "(!!str, !!int, ...): remove it, or quote the value",
             n->tagname ? n->tagname : "!!yaml");
        break;
    }
    if (!v)
        return NULL;
    if (n->weight > DOC_MAX_EXPANDED) {
        fail(L, n->line, n->col, where, ERR_LIMIT,
             "aliases expand the document past %u values, the limit; "
             "no tool file needs that many (an alias bomb?)",
             DOC_MAX_EXPANDED);
        return NULL;
    }
    n->built = v;
    n->state = ST_DONE;
    return v;
}

int yaml_load(value **out, arena *a, const char *bytes, size_t len, err *e)
{
    struct loader L;
    memset(&L, 0, sizeof L);
    L.a = a;
    L.e = e;
    int rc = compose(&L, bytes, len);
    while (L.depth > 0)
        free(L.stack[--L.depth].items);
    free(L.stack);
    free(L.is_flow);
    free(L.ranges);
    strmap_free(&L.anchors);
    if (rc < 0)
        return -1;
    if (!L.root) {
        /* An empty stream is null, as yaml.safe_load returns None. */
        *out = value_new(a, V_NULL, 1, 1);
        return *out ? 0 : nomem(&L);
    }
    value *v = build(&L, L.root, NULL);
    if (!v)
        return -1;
    *out = v;
    return 0;
}
