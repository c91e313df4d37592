/* task: see task.h; the rules are written out in docs/simulator.md. */
#include "task.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "canon.h"
#include "chain.h"
#include "draw.h"
#include "fmt.h"
#include "generator_version.h"
#include "schema.h"
#include "shape.h"
#include "vbuild.h"

#define TRIES 16

static int nomem(err *e)
{
    return err_set(e, ERR_NOMEM, "out of memory making a task");
}

/* ------------------------------------------------------------ the chain */

static const tool_arg *arg_named(const tool *t, const char *name)
{
    for (size_t i = 0; i < t->nargs; i++)
        if (strcmp(t->args[i].name, name) == 0)
            return &t->args[i];
    return NULL;
}

/* An id's name: "id", "order_id", "order-id", "orderId", "ORDER_ID". */
static int names_id(const char *name)
{
    size_t n = strlen(name);
    if (n < 2 || tolower((unsigned char)name[n - 2]) != 'i' ||
        tolower((unsigned char)name[n - 1]) != 'd')
        return 0;
    if (n == 2)
        return 1;
    char before = name[n - 3];
    return before == '_' || before == '-' || before == '.' ||
           (name[n - 2] == 'I' && name[n - 1] == 'd' &&
            islower((unsigned char)before)) ||
           (name[n - 2] == 'I' && name[n - 1] == 'D');
}

/* The handed names and what each can chain, the members of each tool's
 * answers and their free-string fields: worked out once per tool table
 * (chain.h). */
static const struct chains *chains_of(const toolset *ts)
{
    return ts->chains;
}

_Static_assert(CHAIN_MAX_WRITES == TASK_MAX_DEPTH,
               "a chain keeps as many writes as a task has steps");

struct longest {
    size_t depth;
    const chain_links *l;
};

static void longer(const chain_links *l, struct longest *best)
{
    size_t d = l->nreads ? 1 + l->nwrites : 0;
    if (d > TASK_MAX_DEPTH)
        d = TASK_MAX_DEPTH;
    if (d > best->depth) {
        best->depth = d;
        best->l = l;
    }
}

int task_longest(const toolset *ts, char *text, size_t size)
{
    struct longest best = {0, NULL};
    const struct chains *c = chains_of(ts);
    for (size_t i = 0; i < c->nnames; i++)
        longer(&c->names[i], &best);
    size_t n = 0;
    text[0] = '\0';
    if (best.depth >= 2) {
        const chain_links *l = best.l;
        n += (size_t)snprintf(text, size, "%s", l->reads[0]->name);
        for (size_t i = 0; i + 1 < best.depth && n < size; i++)
            n += (size_t)snprintf(text + n, size - n, ", %s",
                                  l->writes[i]->name);
        return (int)best.depth;
    }
    for (size_t i = 0; i < ts->ntools; i++)
        if (ts->tools[i].kind == TOOL_WRITE) {
            snprintf(text, size, "%s", ts->tools[i].name);
            return 1;
        }
    return 0;
}

int task_depth(const arm *a)
{
    return a->knob == KNOB_DEPTH ? a->level : TASK_DEFAULT_DEPTH;
}

int task_check_depth(const toolset *ts, int depth, err *e)
{
    char chain[512];
    int longest = task_longest(ts, chain, sizeof chain);
    if (depth <= longest)
        return 0;
    if (longest == 0)
        return err_set(e, ERR_VALUE,
                       "depth %d cannot be built from these tools: there is "
                       "no write among them, so no task can be (a task ends "
                       "with a write)",
                       depth);
    if (longest == 1) /* every arm but depth:d1 has depth 2 or more */
        return err_set(e, ERR_VALUE,
                       "depth %d cannot be built from these tools: the "
                       "longest chain is 1 step (%s); use the arm depth:d1, "
                       "the only one these tools can build",
                       depth, chain);
    return err_set(e, ERR_VALUE,
                   "depth %d cannot be built from these tools: the longest "
                   "chain is %d steps (%s); use an arm of depth %d or less "
                   "(depth:d1 to depth:d%d%s)",
                   depth, longest, chain, longest, longest,
                   longest >= TASK_DEFAULT_DEPTH ? ", or any other dial" : "");
}

/* The handed argument names that can build depth d, ids first. */
struct choices {
    int depth;
    const chain_links *names[64];
    size_t n;
    int ids; /* names[] holds only id names */
};

static void choose(const chain_links *l, struct choices *c)
{
    const char *h = l->name;
    if (l->nreads == 0 || (int)l->nwrites < c->depth - 1)
        return;
    if (names_id(h) && !c->ids) {
        c->n = 0;
        c->ids = 1;
    }
    if ((names_id(h) || !c->ids) &&
        c->n < sizeof c->names / sizeof c->names[0])
        c->names[c->n++] = l;
}

/* ---------------------------------------------------------- arguments */

struct maker {
    arena *a;
    const toolset *ts;
    task *t;
    draw_key key;
    err *e;
    int oom; /* a check ran out of memory */
    /* Tools whose arguments cannot be drawn whatever the chain: the
     * chains that hold one are not tried again. */
    const tool *bad[16];
    size_t nbad;
};

static void mark_bad(struct maker *m, const tool *t)
{
    if (m->nbad < sizeof m->bad / sizeof m->bad[0])
        m->bad[m->nbad++] = t;
}

static int is_bad(const struct maker *m, const tool *t)
{
    for (size_t i = 0; i < m->nbad; i++)
        if (m->bad[i] == t)
            return 1;
    return 0;
}

/* A value drawn for argument arg at path "$.task.<where>.<name>". */
static int draw_arg(struct maker *m, const tool_arg *arg, const char *where,
                    value **out)
{
    char path[512];
    size_t n = 0;
    fmt_cat(path, sizeof path, &n, "$.task.", 7);
    fmt_cat(path, sizeof path, &n, where, strlen(where));
    fmt_cat(path, sizeof path, &n, ".", 1);
    fmt_cat(path, sizeof path, &n, arg->name, strlen(arg->name));
    return draw_value_with(out, m->a, m->ts->doc->root, m->ts->patterns,
                           arg->schema, &m->key, path, m->e);
}

/* 0 when v fits schema; else 1 (out of memory too: it marks m->oom,
 * which task_make reports at its end).  The verdict alone: no sentence.
 * A value the check could not decide on fits, as it did before the check
 * said so: the tasks made do not change. */
static int fits(struct maker *m, const value *schema, const value *v)
{
    int r = schema_check_with(m->ts->doc->root, m->ts->patterns, schema, v,
                              "the value", NULL);
    if (r < 0)
        m->oom = 1;
    return r == 1 || r < 0;
}

static int word_byte(unsigned char c)
{
    return isalnum(c) || c >= 0x80;
}

/* An ASCII letter in lower case; any other byte as it is (tolower in the
 * C locale, which the library never leaves). */
static unsigned char ascii_lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

/* Whether text (len bytes) holds word (wlen bytes) between word
 * boundaries, ASCII letters compared without case: "marble" is in
 * "cedar marble", not in "marbled".  The first letter is compared before
 * the boundaries are looked at: most places differ there. */
static int holds_word(const char *text, size_t len, const char *word,
                      size_t wlen)
{
    if (wlen == 0 || wlen > len)
        return 0;
    unsigned char first = ascii_lower((unsigned char)word[0]);
    for (size_t i = 0; i + wlen <= len; i++) {
        if (ascii_lower((unsigned char)text[i]) != first ||
            (i > 0 && word_byte((unsigned char)text[i - 1])) ||
            (i + wlen < len && word_byte((unsigned char)text[i + wlen])))
            continue;
        size_t j = 1;
        while (j < wlen && ascii_lower((unsigned char)text[i + j]) ==
                               ascii_lower((unsigned char)word[j]))
            j++;
        if (j == wlen)
            return 1;
    }
    return 0;
}

/* Whether a string anywhere in v holds the handed value h as a word. */
static int mentions(const value *v, const value *h)
{
    if (!v || !h || h->kind != V_STRING)
        return 0;
    switch (v->kind) {
    case V_STRING:
        return holds_word(v->u.str.ptr, v->u.str.len, h->u.str.ptr,
                          h->u.str.len);
    case V_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (mentions(v->u.arr.items[i], h))
                return 1;
        return 0;
    case V_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++)
            if (mentions(v->u.obj.items[i].key, h) ||
                mentions(v->u.obj.items[i].val, h))
                return 1;
        return 0;
    default:
        return 0;
    }
}

/* The arguments a step states: the required ones (a read with none
 * required states its first argument of a scalar type), drawn, and the
 * handed one when it takes it; checked against the input schema. */
static int step_args(struct maker *m, int k, const tool *t, int handed,
                     const char *prefix, value **out)
{
    const tool_arg *first = NULL;
    int any_required = 0;
    for (size_t i = 0; i < t->nargs; i++) {
        any_required |= t->args[i].required;
        const char *ty = t->args[i].type;
        if (!first && (strncmp(ty, "string", 6) == 0 ||
                       strncmp(ty, "integer", 7) == 0 ||
                       strncmp(ty, "number", 6) == 0 ||
                       strncmp(ty, "boolean", 7) == 0 ||
                       strcmp(ty, "enum") == 0))
            first = &t->args[i];
    }
    if (t->unknown_required) {
        mark_bad(m, t);
        return err_set(m->e, ERR_VALUE,
                       "cannot draw arguments that %s accepts for a task: "
                       "its input schema requires \"%s\" and gives it no "
                       "property",
                       t->name, t->unknown_required);
    }
    for (int attempt = 0; attempt < TRIES; attempt++) {
        char where[64], num[FMT_UINT_MAX + 1];
        size_t n = 0;
        fmt_cat(where, sizeof where, &n, prefix, strlen(prefix));
        fmt_cat(where, sizeof where, &n, num, fmt_int(num, k));
        fmt_cat(where, sizeof where, &n, ".", 1);
        fmt_cat(where, sizeof where, &n, num, fmt_int(num, attempt));
        value *o = vb_object(m->a);
        if (!o)
            return nomem(m->e);
        for (size_t i = 0; i < t->nargs; i++) {
            const tool_arg *arg = &t->args[i];
            value *v = NULL;
            if (handed && strcmp(arg->name, m->t->hand_arg) == 0) {
                v = m->t->handed;
            } else if (arg->required ||
                       (t->kind == TOOL_READ && !any_required &&
                        arg == first)) {
                if (draw_arg(m, arg, where, &v) < 0) {
                    mark_bad(m, t); /* its schema, not the chain */
                    return -1;
                }
            } else {
                continue;
            }
            if (vb_put(m->a, o, arg->name, v) < 0)
                return nomem(m->e);
        }
        /* the handed value is never said in the request */
        int said = 0;
        for (size_t i = 0; m->t->handed && i < o->u.obj.len && !said; i++)
            said = !(handed && strcmp(o->u.obj.items[i].key->u.str.ptr,
                                      m->t->hand_arg) == 0) &&
                   (mentions(o->u.obj.items[i].key, m->t->handed) ||
                    mentions(o->u.obj.items[i].val, m->t->handed));
        if (said)
            continue;
        if (fits(m, t->input_schema, o) == 0) {
            *out = o;
            return 0;
        }
    }
    if (m->oom)
        return nomem(m->e);
    return err_set(m->e, ERR_VALUE,
                   "cannot draw arguments that %s accepts for a task",
                   t->name);
}

/* Whether v fits every part of sh that describes the field name. */
static int fits_field(struct maker *m, const shape *sh, const char *name,
                      const value *v)
{
    const value *defs[SHAPE_MAX];
    size_t nd = shape_field(sh, name, strlen(name), defs, SHAPE_MAX);
    for (size_t d = 0; d < nd; d++)
        if (fits(m, defs[d], v) != 0)
            return 0;
    return 1;
}

/* Whether the request would say v without the arguments: in the goal's
 * description, a tool's name, an argument's name, the handed argument's
 * or the field (field) that hands it. */
static int said_in_chain(struct maker *m, const char *field, const value *v)
{
    const task *t = m->t;
    const char *s = v->kind == V_STRING ? v->u.str.ptr : NULL;
    size_t n = s ? v->u.str.len : 0;
    if (!s)
        return 0;
    const char *desc = t->steps[t->depth - 1].tool->description;
    if (holds_word(desc, strlen(desc), s, n) ||
        holds_word(field, strlen(field), s, n) ||
        holds_word(t->hand_arg, strlen(t->hand_arg), s, n))
        return 1;
    for (int k = 0; k < t->depth; k++) {
        const tool *tl = t->steps[k].tool;
        if (holds_word(tl->name, strlen(tl->name), s, n))
            return 1;
        for (size_t i = 0; i < tl->nargs; i++)
            if (holds_word(tl->args[i].name, strlen(tl->args[i].name), s, n))
                return 1;
    }
    return 0;
}

/* Whether tool t has an argument named name. */
static int has_arg(const tool *t, const char *name)
{
    for (size_t i = 0; i < t->nargs; i++)
        if (strcmp(t->args[i].name, name) == 0)
            return 1;
    return 0;
}

/* The field of read r that hands a value v: one named as the handed
 * argument, else "id", else one whose name says id, else the first free
 * string field v fits; first among the fields not named as one of r's
 * arguments (whose echo the handed value would hide), then among all
 * (*shared set).  "id" when r has no output schema: the only field such
 * an answer has, so *shared says whether r takes an argument named id. */
static const char *hand_field(struct maker *m, const tool *r, const value *v,
                              int *shared)
{
    *shared = 0;
    if (!r->output_schema) {
        *shared = has_arg(r, "id");
        return "id";
    }
    const chain_tool *ct = chain_tool_of(m->ts, r);
    const shape *sh = &ct->out;
    for (int any = 0; any < 2; any++)
        for (int pass = 0; pass < 4; pass++)
            for (size_t i = 0; i < ct->nfree_fields; i++) {
                const value_member *f = ct->free_fields[i];
                const char *name = f->key->u.str.ptr;
                if (!any && has_arg(r, name))
                    continue;
                int take = pass == 0   ? strcmp(name, m->t->hand_arg) == 0
                           : pass == 1 ? strcmp(name, "id") == 0
                           : pass == 2 ? names_id(name)
                                       : 1;
                if (take && fits_field(m, sh, name, v)) {
                    *shared = any;
                    return name;
                }
            }
    return NULL;
}

/* Whether v fits the handed argument of every write of the chain. */
static int fits_writes(struct maker *m, const value *v)
{
    for (int k = 1; k < m->t->depth; k++) {
        const tool_arg *a = arg_named(m->t->steps[k].tool, m->t->hand_arg);
        if (fits(m, a->schema, v) != 0)
            return 0;
    }
    return 1;
}

/* Draws the handed value (label "handed") or a wrong one ("wrong"):
 * drawn for the first write's argument, fitting every write and the
 * field.  NULL with e set when no try fits. */
static value *draw_handed(struct maker *m, const char *label,
                          const value *unlike)
{
    const tool_arg *a = arg_named(m->t->steps[1].tool, m->t->hand_arg);
    for (int attempt = 0; attempt < TRIES; attempt++) {
        char where[64], num[FMT_UINT_MAX + 1];
        value *v;
        size_t n = 0;
        fmt_cat(where, sizeof where, &n, label, strlen(label));
        fmt_cat(where, sizeof where, &n, ".", 1);
        fmt_cat(where, sizeof where, &n, num, fmt_int(num, attempt));
        if (draw_arg(m, a, where, &v) < 0)
            return NULL;
        if (unlike && schema_equal(v, unlike))
            continue;
        if (!fits_writes(m, v))
            continue;
        if (!unlike) {
            int shared;
            const char *f = hand_field(m, m->t->steps[0].tool, v, &shared);
            if (!f || said_in_chain(m, f, v))
                continue;
            m->t->hand_field = f;
            m->t->hand_field_is_arg = shared;
        } else if (m->t->steps[0].tool->output_schema) {
            const chain_tool *ct = chain_tool_of(m->ts, m->t->steps[0].tool);
            if (!fits_field(m, &ct->out, m->t->hand_field, v))
                continue;
        }
        return v;
    }
    if (m->oom)
        nomem(m->e);
    else
        err_set(m->e, ERR_VALUE,
                "cannot draw a value for %s that every step of the task "
                "accepts",
                m->t->hand_arg);
    return NULL;
}

/* The handed value off by one in its last digit (or, with no digit, its
 * last letter): baddata level 3. */
static value *off_by_one(struct maker *m, const value *v)
{
    char *s = arena_memdup(m->a, v->u.str.ptr, v->u.str.len);
    if (!s) {
        m->oom = 1;
        return NULL;
    }
    for (int letters = 0; letters < 2; letters++)
        for (size_t i = v->u.str.len; i-- > 0;) {
            char c = s[i];
            if (!letters && isdigit((unsigned char)c)) {
                s[i] = c == '9' ? '8' : (char)(c + 1);
            } else if (letters && isalpha((unsigned char)c)) {
                s[i] = c == 'z' ? 'y' : c == 'Z' ? 'Y' : (char)(c + 1);
            } else {
                continue;
            }
            value *off = vb_strn(m->a, s, v->u.str.len);
            if (!off)
                m->oom = 1;
            return off;
        }
    return NULL;
}

/* The days of month mo (1-12) of year y. */
static int month_days(int y, int mo)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[mo - 1] + (mo == 2 && leap);
}

/* The number of the n digits at s, or -1 when one is not a digit. */
static int digits_at(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* Writes v in n decimal digits at p, zeros in front. */
static void put_number(char *p, int v, int n)
{
    while (n-- > 0) {
        p[n] = (char)('0' + v % 10);
        v /= 10;
    }
}

/* The handed value with the first date it holds (YYYY-MM-DD, a real day)
 * moved one day earlier, or NULL when it holds none: baddata level 3 when
 * the last digit off by one makes no date, as on a month's last day
 * (2026-03-31 would become 2026-03-32; it becomes 2026-03-30). */
static value *day_earlier(struct maker *m, const value *v)
{
    const char *s = v->u.str.ptr;
    size_t n = v->u.str.len;
    for (size_t i = 0; i + 10 <= n; i++) {
        int y = digits_at(s + i, 4), mo = digits_at(s + i + 5, 2),
            d = digits_at(s + i + 8, 2);
        if (y < 0 || s[i + 4] != '-' || s[i + 7] != '-' || mo < 1 ||
            mo > 12 || d < 1 || d > month_days(y, mo))
            continue;
        if (--d == 0) {
            if (--mo == 0) {
                mo = 12;
                y--;
            }
            d = month_days(y, mo);
        }
        if (y < 0)
            return NULL; /* 0000-01-01 has no day before it to write */
        char *out = arena_memdup(m->a, s, n);
        if (out) { /* the same width, written in place */
            put_number(out + i, y, 4);
            put_number(out + i + 5, mo, 2);
            put_number(out + i + 8, d, 2);
        }
        value *moved = out ? vb_strn(m->a, out, n) : NULL;
        if (!moved)
            m->oom = 1;
        return moved;
    }
    return NULL;
}

/* -------------------------------------------------------------- events */

static void plan_events(task *t)
{
    int level = t->arm.level;
    t->nevents = 0;
    switch (t->arm.knob) {
    case KNOB_FAULTS:
    case KNOB_TIMEOUTS:
    case KNOB_RATELIMITS:
        for (int i = 0; i < level && i < TASK_MAX_EVENTS; i++)
            t->events[t->nevents++] =
                (task_event){t->arm.knob, i % t->depth + 1, i / t->depth + 1};
        break;
    case KNOB_LANDED:
    case KNOB_LAGGED:
        if (level > 0)
            t->events[t->nevents++] = (task_event){t->arm.knob, t->depth, 1};
        break;
    case KNOB_BADDATA:
        if (level > 0 && t->depth >= 2)
            t->events[t->nevents++] = (task_event){t->arm.knob, 1, 1};
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------- request */

/* Says a step's arguments into b; appends that fail mark b (b->failed).
 * -1 only when a value cannot be written (e set). */
static int say_args(buf *b, const task *t, const task_step *s, err *e)
{
    size_t n = s->args->u.obj.len;
    if (n == 0)
        buf_puts(b, " with no arguments");
    for (size_t i = 0; i < n; i++) {
        const value_member *m = &s->args->u.obj.items[i];
        buf_puts(b, i == 0 ? " with " : i + 1 == n ? " and " : ", ");
        buf_append(b, m->key->u.str.ptr, m->key->u.str.len);
        if (s->takes_handed && strcmp(m->key->u.str.ptr, t->hand_arg) == 0) {
            buf_puts(b, " set to the value that answer gave");
            continue;
        }
        buf_putc(b, ' ');
        if (canon_append(b, m->val, e) < 0)
            return -1;
    }
    return 0;
}

static int write_request(struct maker *m)
{
    task *t = m->t;
    buf b = BUF_INIT;
    buf_reserve(&b, 1023); /* most requests fit: one allocation, no growth */
    const task_step *target = &t->steps[t->depth - 1];
    const char *desc = target->tool->description;
    size_t dl = strlen(desc);
    while (dl && (desc[dl - 1] == '.' || desc[dl - 1] == ' ' ||
                  desc[dl - 1] == '\n'))
        dl--;
    /* appends, not buf_printf: the same text, without a format to read */
    buf_puts(&b, "Goal: ");
    buf_puts(&b, target->tool->name);
    if (dl) {
        buf_puts(&b, " (");
        buf_append(&b, desc, dl);
        buf_putc(&b, ')');
    }
    buf_puts(&b, ".");
    for (int k = 0; k < t->depth; k++) {
        const task_step *s = &t->steps[k];
        buf_puts(&b, t->depth == 1         ? " Call "
                     : k == 0              ? " First call "
                     : k + 1 == t->depth ? " Last, call "
                                           : " Then call ");
        buf_puts(&b, s->tool->name);
        if (say_args(&b, t, s, m->e) < 0) {
            buf_free(&b);
            return -1;
        }
        if (k == 0 && t->depth >= 2) {
            buf_puts(&b, "; the \"");
            buf_puts(&b, t->hand_field);
            buf_puts(&b, "\" field of its answer holds the ");
            buf_puts(&b, t->hand_arg);
            buf_puts(&b, " you are not given");
        }
        buf_putc(&b, '.');
    }
    if (!b.failed)
        t->request = arena_memdup(m->a, b.data, b.len);
    buf_free(&b);
    return t->request ? 0 : nomem(m->e);
}

/* ---------------------------------------------------------------- make */

static void make_id(task *t)
{
    char arm_text[ARM_ID_MAX];
    unsigned char layout[256];
    size_t n = 0;
    static const char tag[] = "taskreplay/task/1";
    arm_id(&t->arm, arm_text);
    memcpy(layout + n, tag, sizeof tag);
    n += sizeof tag;
    memcpy(layout + n, t->file_sha256, 65);
    n += 65;
    for (int i = 0; i < 8; i++)
        layout[n++] = (unsigned char)(t->seed >> (8 * i));
    memcpy(layout + n, arm_text, strlen(arm_text));
    n += strlen(arm_text);
    t->id[0] = 't';
    t->id[1] = '-';
    fmt_hex64(t->id + 2, XXH3_64bits(layout, n));
}

/* ------------------------------------------------------------ chains */

/* Chains tried for one task before it is refused. */
#define CHAIN_TRIES 128

/* The handed argument names that can build depth d: those choose()
 * prefers first (ids, when some can), then the others. */
struct all_choices {
    int depth;
    const chain_links *names[128];
    size_t n;
};

static void choose_any(const chain_links *l, struct all_choices *c)
{
    if (l->nreads && (int)l->nwrites >= c->depth - 1 &&
        c->n < sizeof c->names / sizeof c->names[0])
        c->names[c->n++] = l;
}

/* The arguments, the handed value and the handed field of the chain in
 * t->steps: -1 with e set when they cannot be drawn. */
static int fill_chain(struct maker *m)
{
    task *t = m->t;
    t->handed = NULL;
    t->hand_field = NULL;
    t->hand_field_is_arg = 0;
    if (t->depth >= 2) {
        t->handed = draw_handed(m, "handed", NULL);
        if (!t->handed)
            return -1;
    }
    for (int k = 0; k < t->depth; k++)
        if (step_args(m, k + 1, t->steps[k].tool, t->steps[k].takes_handed,
                      "s", &t->steps[k].args) < 0)
            return -1;
    return 0;
}

/* Tries chain after chain until one can be filled.  The first is the one
 * the seed draws (handed name, read, order of the writes); then, in an
 * order the seed keys, every handed name that can build the depth, each of
 * its reads (those with arguments first) and each rotation of its writes,
 * up to CHAIN_TRIES in all.  When none can be filled, the first chain's
 * reason is said, with how many were tried. */
static int build_chain(struct maker *m, draw_stream *st)
{
    task *t = m->t;
    const struct chains *chains = chains_of(m->ts);
    struct choices c = {.depth = t->depth};
    for (size_t i = 0; i < chains->nnames; i++)
        choose(&chains->names[i], &c);
    if (c.n == 0)
        return task_check_depth(m->ts, t->depth, m->e);
    struct all_choices all = {.depth = t->depth};
    for (size_t i = 0; i < c.n; i++)
        all.names[all.n++] = c.names[i];
    struct all_choices rest = {.depth = t->depth};
    for (size_t i = 0; i < chains->nnames; i++)
        choose_any(&chains->names[i], &rest);
    for (size_t i = 0; i < rest.n && all.n < 128; i++) {
        int seen = 0;
        for (size_t j = 0; j < c.n && !seen; j++)
            seen = c.names[j] == rest.names[i];
        if (!seen)
            all.names[all.n++] = rest.names[i];
    }
    size_t h0 = (size_t)draw_below(st, c.n);
    err first;
    err_clear(&first);
    size_t tried = 0;
    for (size_t hi = 0; hi < all.n; hi++) {
        const chain_links *l = all.names[(h0 + hi) % all.n];
        const char *h = l->name;
        /* reads: with arguments first, the seed's pick leading */
        const tool *reads[CHAIN_MAX_READS];
        size_t npref = 0, nreads = 0;
        for (size_t i = 0; i < l->nreads; i++)
            if (!l->reads_with_args || l->reads[i]->nargs > 0)
                reads[npref++] = l->reads[i];
        nreads = npref;
        for (size_t i = 0; i < l->nreads; i++)
            if (l->reads_with_args && l->reads[i]->nargs == 0)
                reads[nreads++] = l->reads[i];
        draw_stream hs = *st;
        if (hi > 0) {
            char path[300];
            snprintf(path, sizeof path, "$.task.chain.%.280s", h);
            hs = draw_at(&m->key, path, strlen(path));
        }
        size_t r0 = (size_t)draw_below(&hs, npref);
        size_t nw = l->nwrites < TASK_MAX_DEPTH ? l->nwrites : TASK_MAX_DEPTH;
        const tool *writes[TASK_MAX_DEPTH];
        memcpy(writes, l->writes, nw * sizeof *writes);
        for (size_t i = nw; i > 1; i--) { /* Fisher-Yates */
            size_t j = draw_below(&hs, i);
            const tool *tmp = writes[i - 1];
            writes[i - 1] = writes[j];
            writes[j] = tmp;
        }
        for (size_t ri = 0; ri < nreads; ri++) {
            size_t r = ri < npref ? (r0 + ri) % npref : ri;
            for (size_t w = 0; w < nw; w++) {
                t->hand_arg = h;
                t->steps[0].tool = reads[r];
                t->steps[0].takes_handed = 0;
                int bad = is_bad(m, reads[r]);
                for (int k = 1; k < t->depth; k++) {
                    t->steps[k].tool = writes[(w + (size_t)k - 1) % nw];
                    t->steps[k].takes_handed = 1;
                    bad |= is_bad(m, t->steps[k].tool);
                }
                if (bad) {
                    if (++tried == CHAIN_TRIES)
                        goto none;
                    continue; /* fails as before: not drawn again */
                }
                if (fill_chain(m) == 0)
                    return 0;
                if (m->oom || m->e->code == ERR_NOMEM)
                    return -1;
                if (tried++ == 0)
                    first = *m->e;
                if (tried == CHAIN_TRIES)
                    goto none;
            }
        }
    }
none:
    *m->e = first;
    if (tried > 1) {
        size_t len = strlen(m->e->msg);
        if (tried == 2)
            snprintf(m->e->msg + len, sizeof m->e->msg - len,
                     " (nor can the other chain of depth %d)", t->depth);
        else
            snprintf(m->e->msg + len, sizeof m->e->msg - len,
                     " (nor can any of the %zu other chains of depth %d "
                     "tried)",
                     tried - 1, t->depth);
    }
    return -1;
}

/* Depth 1: the write the seed draws, else the others in turn. */
static int build_single(struct maker *m, draw_stream *st)
{
    const toolset *ts = m->ts;
    const tool *writes[256];
    size_t n = 0;
    for (size_t i = 0; i < ts->ntools && n < 256; i++)
        if (ts->tools[i].kind == TOOL_WRITE)
            writes[n++] = &ts->tools[i];
    if (n == 0)
        return task_check_depth(ts, 1, m->e);
    size_t w0 = (size_t)draw_below(st, n);
    err first;
    err_clear(&first);
    for (size_t i = 0; i < n && i < CHAIN_TRIES; i++) {
        m->t->steps[0].tool = writes[(w0 + i) % n];
        if (i > 0 && is_bad(m, m->t->steps[0].tool))
            continue;
        if (fill_chain(m) == 0)
            return 0;
        if (m->oom || m->e->code == ERR_NOMEM)
            return -1;
        if (i == 0)
            first = *m->e;
    }
    *m->e = first;
    size_t others = (n < CHAIN_TRIES ? n : CHAIN_TRIES) - 1;
    if (others) {
        size_t len = strlen(m->e->msg);
        if (others == 1)
            snprintf(m->e->msg + len, sizeof m->e->msg - len,
                     " (nor for the other write)");
        else
            snprintf(m->e->msg + len, sizeof m->e->msg - len,
                     " (nor for any of the %zu other writes)", others);
    }
    return -1;
}

static int plan_baddata(struct maker *m)
{
    task *t = m->t;
    if (t->arm.level == 3) {
        t->wrong = off_by_one(m, t->handed);
        if (t->wrong && !fits_writes(m, t->wrong))
            t->wrong = day_earlier(m, t->handed);
        if (t->wrong && !fits_writes(m, t->wrong))
            t->wrong = NULL;
    }
    if (!t->wrong) {
        t->wrong = draw_handed(m, "wrong", t->handed);
        if (!t->wrong)
            return -1;
    }
    if (t->arm.level == 1 && t->steps[0].args->u.obj.len > 0) {
        for (int attempt = 0; attempt < TRIES; attempt++) {
            value *other;
            char prefix[32];
            snprintf(prefix, sizeof prefix, "other%d.s", attempt);
            if (step_args(m, 1, t->steps[0].tool, 0, prefix, &other) < 0)
                return -1;
            if (!schema_equal(other, t->steps[0].args)) {
                t->wrong_args = other;
                break;
            }
        }
    }
    if (t->wrong_args) {
        /* the other record's own value, when it can serve: then the
         * wrong answer is what the read answers those arguments */
        value *ans = NULL;
        if (answer_draw(&ans, m->a, m->ts, t->steps[0].tool, t->wrong_args,
                        t->seed, m->e) < 0)
            return -1;
        const value *v = ans->kind == V_OBJECT
                             ? value_getz(ans, t->hand_field)
                             : NULL;
        if (v && v->kind == V_STRING && !schema_equal(v, t->handed) &&
            fits_writes(m, v))
            t->wrong = (value *)v;
    }
    return 0;
}

/* A zeroed task of file ts, seed and arm, in a; NULL out of memory. */
static task *new_task(arena *a, const toolset *ts, uint64_t seed,
                      const arm *arm)
{
    task *t = arena_alloc(a, sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->arm = *arm;
    t->seed = seed;
    memcpy(t->file_sha256, ts->doc->file_sha256, sizeof t->file_sha256);
    return t;
}

int task_make(task **out, arena *a, const toolset *ts, uint64_t seed,
              const arm *arm, err *e)
{
    task *t = new_task(a, ts, seed, arm);
    if (!t)
        return nomem(e);
    t->depth = task_depth(arm);
    make_id(t);

    struct maker m = {.a = a, .ts = ts, .t = t, .e = e};
    char what[32], num[FMT_UINT_MAX + 1];
    size_t wn = 0;
    fmt_cat(what, sizeof what, &wn, "task/d", 6); /* "task/d2" */
    fmt_cat(what, sizeof what, &wn, num, fmt_int(num, t->depth));
    draw_key_init(&m.key, ts->doc->file_sha256, seed, "", what, wn);
    draw_stream st = draw_at(&m.key, "$.task.chain", strlen("$.task.chain"));

    if ((t->depth == 1 ? build_single(&m, &st) : build_chain(&m, &st)) < 0)
        return -1;
    if (t->arm.knob == KNOB_BADDATA && t->arm.level > 0 && t->depth >= 2 &&
        plan_baddata(&m) < 0)
        return -1;
    plan_events(t);
    if (write_request(&m) < 0)
        return -1;
    if (m.oom)
        return nomem(e);
    *out = t;
    return 0;
}

/* ---------------------------------------------------------------- JSON */

value *task_to_value(arena *a, const task *t, int generator_version)
{
    char arm_text[ARM_ID_MAX];
    arm_id(&t->arm, arm_text);
    value *o = vb_object(a);
    value *seed = NULL;
    char digits[FMT_UINT_MAX];
    size_t n = fmt_uint(digits, t->seed);
    seed = value_new_text(a, V_INT, digits, n, 0, 0);
    int rc = vb_put(a, o, "id", vb_str(a, t->id));
    rc |= vb_put(a, o, "file_sha256", vb_str(a, t->file_sha256));
    rc |= vb_put(a, o, "seed", seed);
    rc |= vb_put(a, o, "arm", vb_str(a, arm_text));
    rc |= vb_put(a, o, "generator", vb_int(a, generator_version));
    rc |= vb_put(a, o, "depth", vb_int(a, t->depth));
    rc |= vb_put(a, o, "request", vb_str(a, t->request));
    value *steps = vb_array(a);
    for (int k = 0; k < t->depth && rc == 0; k++) {
        const task_step *s = &t->steps[k];
        value *so = vb_object(a);
        rc |= vb_put(a, so, "step", vb_int(a, k + 1));
        rc |= vb_put(a, so, "tool", vb_str(a, s->tool->name));
        rc |= vb_put(a, so, "kind", vb_str(a, s->tool->kind == TOOL_READ
                                                  ? "read"
                                                  : "write"));
        rc |= vb_put(a, so, "arguments", s->args);
        if (k == 0 && t->depth >= 2) {
            value *h = vb_object(a);
            rc |= vb_put(a, h, "field", vb_str(a, t->hand_field));
            rc |= vb_put(a, h, "value", t->handed);
            rc |= vb_put(a, h, "argument", vb_str(a, t->hand_arg));
            if (t->hand_field_is_arg)
                rc |= vb_put(a, h, "field_named_as_argument", vb_bool(a, 1));
            rc |= vb_put(a, so, "hands", h);
        }
        if (s->takes_handed) {
            value *h = vb_object(a);
            rc |= vb_put(a, h, "argument", vb_str(a, t->hand_arg));
            rc |= vb_put(a, h, "from_step", vb_int(a, 1));
            rc |= vb_put(a, h, "field", vb_str(a, t->hand_field));
            rc |= vb_put(a, so, "handed", h);
        }
        rc |= vb_push(a, steps, so);
    }
    rc |= vb_put(a, o, "steps", steps);
    rc |= vb_put(a, o, "target", vb_int(a, t->depth));
    value *events = vb_array(a);
    for (int i = 0; i < t->nevents && rc == 0; i++) {
        value *ev = vb_object(a);
        rc |= vb_put(a, ev, "dial", vb_str(a, knob_name(t->events[i].dial)));
        rc |= vb_put(a, ev, "step", vb_int(a, t->events[i].step));
        rc |= vb_put(a, ev, "nth", vb_int(a, t->events[i].nth));
        rc |= vb_push(a, events, ev);
    }
    rc |= vb_put(a, o, "events", events);
    if (t->wrong) {
        value *b = vb_object(a);
        rc |= vb_put(a, b, "wrong", t->wrong);
        if (t->wrong_args)
            rc |= vb_put(a, b, "arguments", t->wrong_args);
        rc |= vb_put(a, o, "baddata", b);
    }
    return rc == 0 ? o : NULL;
}

/* task_write_json's pieces: "KEY": (after a comma unless first) and a
 * string member; keys are written in canonical order by the caller.  A
 * key is a literal, given with its comma, quotes and colon by KEY(), so
 * that writing it is one append of a length known when compiling. */
#define KEY(k) ",\"" k "\":", sizeof(",\"" k "\":") - 1

static int json_key(buf *b, const char *key, size_t len, int first)
{
    return first ? buf_append(b, key + 1, len - 1) : buf_append(b, key, len);
}

static int json_str(buf *b, const char *key, size_t len, int first,
                    const char *s)
{
    return json_key(b, key, len, first) | canon_write_string(b, s, strlen(s));
}

static int json_int(buf *b, const char *key, size_t len, int first,
                    long long n)
{
    return json_key(b, key, len, first) | buf_put_int(b, n);
}

/* A drawn value: canon_append's own refusals are the caller's error. */
static int json_value(buf *b, const char *key, size_t len, int first,
                      const value *v, err *e)
{
    if (json_key(b, key, len, first) < 0)
        return nomem(e);
    return canon_append(b, v, e);
}

/* The value of "baddata" (t->wrong set). */
static int write_baddata(buf *out, const task *t, err *e)
{
    if (buf_putc(out, '{') < 0)
        return nomem(e);
    if ((t->wrong_args &&
         json_value(out, KEY("arguments"), 1, t->wrong_args, e) < 0) ||
        json_value(out, KEY("wrong"), !t->wrong_args, t->wrong, e) < 0)
        return -1;
    return buf_putc(out, '}') < 0 ? nomem(e) : 0;
}

/* The value of "events". */
static int write_events(buf *out, const task *t, err *e)
{
    int rc = buf_putc(out, '[');
    for (int i = 0; i < t->nevents; i++) {
        rc |= buf_puts(out, i ? ",{" : "{");
        rc |= json_str(out, KEY("dial"), 1, knob_name(t->events[i].dial)) |
              json_int(out, KEY("nth"), 0, t->events[i].nth) |
              json_int(out, KEY("step"), 0, t->events[i].step) |
              buf_putc(out, '}');
    }
    rc |= buf_putc(out, ']');
    return rc < 0 ? nomem(e) : 0;
}

/* The value of "steps". */
static int write_steps(buf *out, const task *t, err *e)
{
    int rc = buf_putc(out, '[');
    for (int k = 0; k < t->depth && rc == 0; k++) {
        const task_step *s = &t->steps[k];
        rc |= buf_puts(out, k ? ",{" : "{");
        if (rc < 0 || json_value(out, KEY("arguments"), 1, s->args, e) < 0)
            return rc < 0 ? nomem(e) : -1;
        if (s->takes_handed)
            rc |= json_key(out, KEY("handed"), 0) | buf_putc(out, '{') |
                  json_str(out, KEY("argument"), 1, t->hand_arg) |
                  json_str(out, KEY("field"), 0, t->hand_field) |
                  json_int(out, KEY("from_step"), 0, 1) | buf_putc(out, '}');
        if (k == 0 && t->depth >= 2) {
            rc |= json_key(out, KEY("hands"), 0) | buf_putc(out, '{') |
                  json_str(out, KEY("argument"), 1, t->hand_arg) |
                  json_str(out, KEY("field"), 0, t->hand_field);
            if (t->hand_field_is_arg)
                rc |= json_key(out, KEY("field_named_as_argument"), 0) |
                      buf_puts(out, "true");
            if (rc < 0 || json_value(out, KEY("value"), 0, t->handed, e) < 0)
                return rc < 0 ? nomem(e) : -1;
            rc |= buf_putc(out, '}');
        }
        rc |= json_str(out, KEY("kind"), 0,
                       s->tool->kind == TOOL_READ ? "read" : "write") |
              json_int(out, KEY("step"), 0, k + 1) |
              json_str(out, KEY("tool"), 0, s->tool->name) | buf_putc(out, '}');
    }
    rc |= buf_putc(out, ']');
    return rc < 0 ? nomem(e) : 0;
}

int task_write_json(buf *out, const task *t, int generator_version, err *e)
{
    char arm_text[ARM_ID_MAX];
    arm_id(&t->arm, arm_text);
    /* keys in code point order, as json.dumps(sort_keys=True) puts them */
    int rc = buf_putc(out, '{') | json_str(out, KEY("arm"), 1, arm_text);
    if (t->wrong) {
        if (rc < 0 || json_key(out, KEY("baddata"), 0) < 0)
            return nomem(e);
        if (write_baddata(out, t, e) < 0)
            return -1;
    }
    rc |= json_int(out, KEY("depth"), 0, t->depth) |
          json_key(out, KEY("events"), 0);
    if (rc < 0 || write_events(out, t, e) < 0)
        return rc < 0 ? nomem(e) : -1;
    rc |= json_str(out, KEY("file_sha256"), 0, t->file_sha256) |
          json_int(out, KEY("generator"), 0, generator_version) |
          json_str(out, KEY("id"), 0, t->id) |
          json_str(out, KEY("request"), 0, t->request) |
          json_key(out, KEY("seed"), 0) | buf_put_uint(out, t->seed) |
          json_key(out, KEY("steps"), 0);
    if (rc < 0 || write_steps(out, t, e) < 0)
        return rc < 0 ? nomem(e) : -1;
    rc |= json_int(out, KEY("target"), 0, t->depth) | buf_putc(out, '}');
    return rc < 0 ? nomem(e) : 0;
}

int task_write_parts(buf *out, const task *t, task_parts *p, err *e)
{
    p->events = out->len;
    if (write_events(out, t, e) < 0)
        return -1;
    p->nevents = out->len - p->events;
    p->steps = out->len;
    if (write_steps(out, t, e) < 0)
        return -1;
    p->nsteps = out->len - p->steps;
    p->baddata = out->len;
    if (t->wrong && write_baddata(out, t, e) < 0)
        return -1;
    p->nbaddata = out->len - p->baddata;
    return 0;
}

/* ------------------------------------------------------- reading a task */

static const value *member(const value *o, const char *key, value_kind kind)
{
    const value *v = value_getz(o, key);
    return v && v->kind == kind ? v : NULL;
}

static int small_int(const value *o, const char *key, int lo, int hi,
                     int *out)
{
    const value *v = member(o, key, V_INT);
    if (!v || v->u.str.len > 3)
        return -1;
    int n = atoi(v->u.str.ptr);
    if (n < lo || n > hi)
        return -1;
    *out = n;
    return 0;
}

static int bad_task(err *e, const char *what)
{
    return err_set(e, ERR_VALUE, "the episode's task is not one replay "
                                 "tasks prints: %s",
                   what);
}

/* The id a task's content gives it: "t-" and XXH3-64 of a tag and its
 * canonical JSON written with an empty id. */
static int content_id(const task *t, char id[TASK_ID_LEN + 1], err *e)
{
    static const char tag[] = "taskreplay/task-content/1";
    task blank = *t;
    memset(blank.id, 0, sizeof blank.id);
    buf b = BUF_INIT;
    if (buf_append(&b, tag, sizeof tag) < 0 ||
        task_write_json(&b, &blank, GENERATOR_VERSION, e) < 0) {
        buf_free(&b);
        return b.failed ? nomem(e) : -1;
    }
    id[0] = 't';
    id[1] = '-';
    fmt_hex64(id + 2, XXH3_64bits(b.data, b.len));
    id[TASK_ID_LEN] = '\0';
    buf_free(&b);
    return 0;
}

/* A task an episode line hands in keeps the id it claims only when that
 * is the id of the task replay makes for its seed and arm, with the very
 * same content, or the id its own content gives: so that no task row can
 * stand for another task. */
static int check_id(const task *t, arena *a, const toolset *ts, err *e)
{
    char mine[TASK_ID_LEN + 1];
    if (content_id(t, mine, e) < 0)
        return -1;
    if (strcmp(t->id, mine) == 0)
        return 0;
    task *made = NULL;
    err ignored;
    err_clear(&ignored);
    int rc = task_make(&made, a, ts, t->seed, &t->arm, &ignored);
    if (rc < 0 && ignored.code == ERR_NOMEM)
        return nomem(e);
    if (rc == 0 && strcmp(made->id, t->id) == 0) {
        buf x = BUF_INIT, y = BUF_INIT;
        int same = task_write_json(&x, made, GENERATOR_VERSION, e) == 0 &&
                   task_write_json(&y, t, GENERATOR_VERSION, e) == 0 &&
                   x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
        int failed = x.failed || y.failed;
        buf_free(&x);
        buf_free(&y);
        if (failed)
            return nomem(e);
        if (same)
            return 0;
        return bad_task(e, "it claims the id of the task replay makes for "
                           "this seed and arm, but differs from that task; "
                           "leave \"task\" out to use replay's own");
    }
    return err_set(e, ERR_VALUE,
                   "the episode's task has the id \"%s\", which is neither "
                   "the id of the task replay makes for this seed and arm "
                   "nor the one its content gives (\"%s\"): a task "
                   "handed in is named by what it holds",
                   t->id, mine);
}

int task_from_value(task **out, arena *a, const toolset *ts, const value *v,
                    uint64_t seed, const arm *arm, err *e)
{
    task *t = new_task(a, ts, seed, arm);
    if (!t)
        return nomem(e);
    const value *id = member(v, "id", V_STRING);
    const value *request = member(v, "request", V_STRING);
    const value *steps = member(v, "steps", V_ARRAY);
    const value *events = value_getz(v, "events");
    if (!id || id->u.str.len > TASK_ID_LEN || id->u.str.len == 0)
        return bad_task(e, "\"id\" must be a string of at most 18 characters");
    memcpy(t->id, id->u.str.ptr, id->u.str.len);
    t->request = request ? request->u.str.ptr : "";
    if (!steps || steps->u.arr.len < 1 || steps->u.arr.len > TASK_MAX_DEPTH)
        return bad_task(e, "\"steps\" must list 1 to 8 steps");
    t->depth = (int)steps->u.arr.len;
    for (int k = 0; k < t->depth; k++) {
        const value *s = steps->u.arr.items[k];
        const value *name = member(s, "tool", V_STRING);
        const value *args = member(s, "arguments", V_OBJECT);
        if (!name || !args)
            return bad_task(e, "each step needs \"tool\" and \"arguments\"");
        t->steps[k].tool = toolset_find(ts, name->u.str.ptr, name->u.str.len);
        if (!t->steps[k].tool)
            return err_set(e, ERR_VALUE, "the episode's task names a tool "
                                         "the file does not have: \"%.80s\"",
                           name->u.str.ptr);
        t->steps[k].args = (value *)args;
        const value *hands = member(s, "hands", V_OBJECT);
        const value *handed = member(s, "handed", V_OBJECT);
        if (hands) {
            const value *f = member(hands, "field", V_STRING);
            const value *arg = member(hands, "argument", V_STRING);
            const value *val = value_getz(hands, "value");
            if (k != 0 || !f || !arg || !val)
                return bad_task(e, "\"hands\" belongs to step 1 and names "
                                   "\"field\", \"argument\" and \"value\"");
            const value *shared = value_getz(hands, "field_named_as_argument");
            t->hand_field = f->u.str.ptr;
            t->hand_arg = arg->u.str.ptr;
            t->handed = (value *)val;
            t->hand_field_is_arg = shared && shared->kind == V_BOOL &&
                                   shared->u.b;
        }
        t->steps[k].takes_handed = handed != NULL;
    }
    for (int k = 0; k < t->depth; k++)
        if (t->steps[k].takes_handed && !t->handed)
            return bad_task(e, "a step takes a handed value that step 1 "
                               "does not hand");
    if (t->steps[t->depth - 1].tool->kind != TOOL_WRITE)
        return bad_task(e, "the last step must be a write");
    if (events && events->kind != V_ARRAY)
        return bad_task(e, "\"events\" must be a list");
    for (size_t i = 0; events && i < events->u.arr.len; i++) {
        const value *ev = events->u.arr.items[i];
        const value *dial = member(ev, "dial", V_STRING);
        task_event *te = &t->events[t->nevents];
        if (t->nevents == TASK_MAX_EVENTS)
            return bad_task(e, "at most 4 events");
        int found = 0;
        for (int k = KNOB_FAULTS; k <= KNOB_LAGGED && dial; k++)
            if (strcmp(dial->u.str.ptr, knob_name((enum knob)k)) == 0) {
                te->dial = (enum knob)k;
                found = 1;
            }
        if (!found || small_int(ev, "step", 1, t->depth, &te->step) < 0 ||
            small_int(ev, "nth", 1, 64, &te->nth) < 0)
            return bad_task(e, "each event names a \"dial\" (faults, "
                               "timeouts, ratelimits, landed, baddata, "
                               "lagged), a \"step\" and an \"nth\"");
        t->nevents++;
    }
    const value *bad = member(v, "baddata", V_OBJECT);
    if (bad) {
        t->wrong = (value *)value_getz(bad, "wrong");
        const value *wa = member(bad, "arguments", V_OBJECT);
        t->wrong_args = (value *)wa;
    }
    for (int i = 0; i < t->nevents; i++)
        if (t->events[i].dial == KNOB_BADDATA && (!t->wrong || !t->handed))
            return bad_task(e, "a baddata event needs \"baddata\": "
                               "{\"wrong\": ...} and a handed value");
    if (check_id(t, a, ts, e) < 0)
        return -1;
    *out = t;
    return 0;
}

int task_seed_parse(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || errno || n > TASK_SEED_MAX)
        return -1;
    *out = n;
    return 0;
}
