/* lines: see lines.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE   /* getentropy */
#include "lines.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "canon.h"
#include "doc.h"
#include "idset.h"
#include "keymap.h"
#include "pynum.h"
#include "sha256.h"
#include "transcript.h"
#include "utf8.h"
#include "vbuild.h"

struct tool_seen {
    unsigned long long hash; /* of its canonical JSON */
    int said;                /* a problem about it was said */
};

/* A run, and the tools offered in it: names (each a key of tools_by_name,
 * its value the tool's place in tools) found in one probe, whatever
 * number a log offers. */
struct lrun {
    char *name;
    keymap tools_by_name;
    struct tool_seen *tools;
    size_t ntools, cap;
    int check;     /* tools offered later are checked against the file */
};

#define NO_FILE ((size_t)-1)

struct logr {
    const log_opts *o;
    const log_sink *sink;
    struct lrun **runs;
    size_t nruns, cap;
    keymap runs_by_name; /* a run's name to its place in runs */
    uint64_t seed;       /* of the maps' hashes: names come from input */
    log_counts counts[LOG_READERS_MAX];
    log_counts none;      /* counts of no format, before a file begins */
    log_counts *cur;      /* of the file being read */
    const char *file;     /* its name as shown */
    unsigned long lineno; /* lines made from it */
    /* every file begun, by its number (lr_file_no): its name, kept (a
     * caller's name may not outlive its read), and the lines made from
     * it so far; lines are made as files[as]'s (lr_as_file), the file
     * being read's (reading) unless a record held from another is
     * written; NO_FILE: a name that could not be kept */
    struct lfile {
        char *name;
        unsigned long lineno;
    } *files;
    size_t nfiles, files_cap;
    size_t reading, as;
    /* what a reader keeps from one file to the next (lr_hold) */
    const void *held_by;
    void *held;
    void (*held_free)(void *);
    const char *dir;      /* the current run's tool folder */
    char *dirs[2];        /* owned: rel_dir, or the tools' folder */
    buf line;
    /* the line's value tree, for a sink that takes it (log_sink.record):
     * NULL when the text is to be read instead */
    arena *ta;
    value *root;
    size_t answer_at, answer_len; /* where the answer is in the line */
    unsigned long problems, unsaid;
    int stop;             /* --strict met a problem */
    int failed;           /* the sink failed on a problem: why */
    err why;
    buf prun;             /* the run problems belong to (lr_problem_run) */
    int has_prun;
    int observed;         /* the last episode line had no seed and arm */
    idset seen;           /* every (run, episode) written, hashed */
    int repeated;         /* the episode being read was written before:
                             its lines and problems are left out */
};

/* --------------------------------------------------------------- logr */

logr *logr_new(const log_opts *o, const log_sink *sink)
{
    logr *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->o = o;
    r->sink = sink;
    if (sink->record && !(r->ta = arena_new())) {
        free(r);
        return NULL;
    }
    r->cur = &r->none;
    r->file = "";
    r->reading = r->as = NO_FILE;
    /* names come from the log: hashed with a seed of the process's own,
     * so that no crafted names can make the maps' probes long */
    keymap_secret(&r->runs_by_name);
    r->seed = r->runs_by_name.seed;
    return r;
}

static void free_run(struct lrun *run)
{
    keymap_free(&run->tools_by_name);
    free(run->tools);
    free(run->name);
    free(run);
}

void logr_free(logr *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nruns; i++)
        free_run(r->runs[i]);
    free(r->runs);
    keymap_free(&r->runs_by_name);
    idset_free(&r->seen);
    free(r->dirs[0]);
    free(r->dirs[1]);
    buf_free(&r->line);
    buf_free(&r->prun);
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i].name);
    free(r->files);
    lr_release(r);
    arena_free(r->ta);
    free(r);
}

void lr_begin(logr *r, int slot, const char *format, const char *unit,
              const char *units, const char *shown)
{
    r->cur = slot >= 0 && slot < LOG_READERS_MAX ? &r->counts[slot]
                                                 : &r->none;
    r->cur->format = format;
    r->cur->unit = unit;
    r->cur->units = units;
    r->cur->files++;
    /* the file read before keeps its count of lines, for a record held
     * from it (lr_as_file) */
    lr_as_file(r, r->reading);
    if (r->as < r->nfiles)
        r->files[r->as].lineno = r->lineno;
    r->lineno = 0;
    r->stop = 0;
    r->failed = 0;
    r->has_prun = 0;
    r->repeated = 0;
    /* the file joins those begun; one whose name cannot be kept is read
     * all the same, and the read ends out of memory (lr_failed) */
    r->reading = r->as = NO_FILE;
    r->file = shown;
    char *name = strdup(shown);
    if (name && r->nfiles == r->files_cap) {
        size_t cap = r->files_cap ? 2 * r->files_cap : 8;
        struct lfile *more = realloc(r->files, cap * sizeof *more);
        if (more) {
            r->files = more;
            r->files_cap = cap;
        }
    }
    if (name && r->nfiles < r->files_cap) {
        r->files[r->nfiles] = (struct lfile){name, 0};
        r->reading = r->as = r->nfiles++;
        r->file = name;
    } else {
        free(name);
        r->failed = 1;
        err_set(&r->why, ERR_NOMEM, "out of memory");
    }
}

int lr_failed(const logr *r, err *e)
{
    if (r->failed)
        *e = r->why;
    return r->failed;
}

int lr_problem_run(logr *r, const char *run)
{
    if (run && r->has_prun && strcmp(r->prun.data, run) == 0)
        return 0; /* the same run: as it is */
    r->has_prun = 0;
    if (!run)
        return 0;
    buf_reset(&r->prun);
    if (buf_puts(&r->prun, run) < 0)
        return -1;
    r->has_prun = 1;
    return 0;
}

int lr_stopped(const logr *r)
{
    return r->stop;
}

log_counts *lr_counts(logr *r)
{
    return r->cur;
}

size_t lr_file_no(const logr *r)
{
    return r->reading;
}

void lr_as_file(logr *r, size_t no)
{
    if (no == r->as || no >= r->nfiles || r->as >= r->nfiles)
        return;
    r->files[r->as].lineno = r->lineno;
    r->as = no;
    r->lineno = r->files[no].lineno;
    r->file = r->files[no].name;
}

void *lr_held(const logr *r, const void *owner)
{
    return r->held && r->held_by == owner ? r->held : NULL;
}

const void *lr_holder(const logr *r)
{
    return r->held ? r->held_by : NULL;
}

void lr_hold(logr *r, const void *owner, void *state,
             void (*free_fn)(void *))
{
    if (r->held != state)
        lr_release(r);
    r->held_by = owner;
    r->held = state;
    r->held_free = free_fn;
}

void lr_release(logr *r)
{
    if (r->held && r->held_free)
        r->held_free(r->held);
    r->held = NULL;
    r->held_by = NULL;
    r->held_free = NULL;
}

const char *lr_file(const logr *r)
{
    return r->file;
}

const log_opts *lr_opts(const logr *r)
{
    return r->o;
}

unsigned long logr_problems(const logr *r)
{
    return r->problems;
}

unsigned long logr_lines(const logr *r)
{
    unsigned long n = 0;
    for (int i = 0; i < LOG_READERS_MAX; i++)
        n += r->counts[i].lines;
    return n;
}

int lr_problem(logr *r, const char *place, const char *path,
               const char *fmt, ...)
{
    char msg[1024], where[700], text[2048];
    if (r->repeated) /* of a record left out, said once already */
        return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->problems++;
    r->cur->problems++;
    snprintf(where, sizeof where, "%s%s%s", place ? place : "",
             place && path ? ": " : "", path ? path : "");
    log_problem p = {r->file, where[0] ? where : NULL, msg,
                     r->o->run ? r->o->run
                     : r->has_prun ? r->prun.data
                                   : NULL,
                     r->problems <= LOG_PROBLEMS_SAID, NULL};
    buf safe = BUF_INIT;
    if (p.say) {
        /* a line number joins the file as FILE:N, as replay says lines */
        int is_line = place && strncmp(place, "line ", 5) == 0;
        snprintf(text, sizeof text, "%s%s%s%s%s: %s", r->file,
                 place ? (is_line ? ":" : ": ") : "",
                 place ? (is_line ? place + 5 : place) : "",
                 path ? ": " : "", path ? path : "", msg);
        /* what it quotes of the input (an id, a name) may hold a newline
         * or an escape: one line, safe for a terminal, whoever says it */
        p.text = utf8_safe(&safe, text, strlen(text)) == 0 && !safe.failed
                     ? (safe.data ? safe.data : "")
                     : "(a problem, out of memory)";
    } else {
        r->unsaid++;
    }
    if (!r->failed && r->sink->problem(r->sink->ctx, &p, &r->why) < 0)
        r->failed = 1;
    buf_free(&safe);
    if (r->o->strict || r->failed) {
        r->stop = 1;
        return 1;
    }
    return 0;
}

void logr_summary(const logr *r, const char *prefix,
                  void (*say)(void *ctx, const char *text), void *ctx)
{
    char text[1024];
    for (int i = 0; i < LOG_READERS_MAX; i++) {
        const log_counts *c = &r->counts[i];
        if (!c->files)
            continue;
        snprintf(text, sizeof text,
                 "%s: %s: %lu file%s, %lu %s: %lu read, %lu skipped, %lu "
                 "refused; %lu episode%s, %lu call%s; %lu problem%s; %lu "
                 "transcript line%s",
                 prefix, c->format, c->files, c->files == 1 ? "" : "s",
                 c->records, c->records == 1 ? c->unit : c->units, c->read,
                 c->skipped, c->refused,
                 c->episodes, c->episodes == 1 ? "" : "s", c->calls,
                 c->calls == 1 ? "" : "s", c->problems,
                 c->problems == 1 ? "" : "s", c->lines,
                 c->lines == 1 ? "" : "s");
        say(ctx, text);
    }
    if (r->unsaid) {
        snprintf(text, sizeof text,
                 "%s: %lu more problem%s of the logs not said one by one",
                 prefix, r->unsaid, r->unsaid == 1 ? "" : "s");
        say(ctx, text);
    }
}

/* ------------------------------------------------------------ writing */

/* The line's tree (log_sink.record) is made beside its text: the tree
 * json_load reads the text as, so that the night need not read it.  A
 * value is written by canon_append_loose, which sorts the members of
 * objects, and is read back as the same value in every other respect
 * but where the text cannot say so cheaply; there the tree is given up
 * and the text is read, as for any line. */

/* Members of a line, at most (an end line's eleven). */
#define LINE_MEMBERS 12
/* Nesting past which the text is read: json_load's limit counts the
 * line's own object and the members around a value. */
#define TREE_DEPTH (VALUE_MAX_DEPTH - 8)

/* Whether json_load reads the string that canon writes for v back as v:
 * valid UTF-8, not flagged (a lone surrogate is written as an escape,
 * and two of them may be read back as one character). */
static int plain_string(const value *v)
{
    if (v->flags)
        return 0;
    /* ASCII, as most is, needs no more look */
    const unsigned char *p = (const unsigned char *)v->u.str.ptr;
    const unsigned char *end = p + v->u.str.len;
    uint64_t w;
    while (end - p >= 8 && (memcpy(&w, p, 8), !(w & 0x8080808080808080u)))
        p += 8;
    while (p < end && *p < 0x80)
        p++;
    utf8_report rep;
    return p == end ||
           utf8_check(p, (size_t)(end - p), 0, &rep) == UTF8_OK;
}

/* Whether json_load reads the digits of the integer v back as they are:
 * no leading zero, no "-0" (read as "0"), not too long to be read. */
static int plain_int(const value *v)
{
    const char *p = v->u.str.ptr;
    size_t n = v->u.str.len;
    if (n && p[0] == '-') {
        p++;
        n--;
        if (n == 1 && p[0] == '0')
            return 0;
    }
    if (n == 0 || n > PYINT_MAX_DIGITS || (n > 1 && p[0] == '0'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return 0;
    return 1;
}

/* canon's order of keys: their bytes, then the shorter first. */
static int key_cmp(const value *x, const value *y)
{
    size_t n = x->u.str.len < y->u.str.len ? x->u.str.len : y->u.str.len;
    int c = memcmp(x->u.str.ptr, y->u.str.ptr, n);
    if (c)
        return c;
    return x->u.str.len < y->u.str.len ? -1 : x->u.str.len > y->u.str.len;
}

static int member_cmp(const void *x, const void *y)
{
    return key_cmp(((const value_member *)x)->key,
                   ((const value_member *)y)->key);
}

/* The tree json_load reads canon_append_loose's text of v as (line and
 * column apart): v itself where it is that already, else a copy in a
 * with the members of its objects in canon's order, sharing what has
 * not changed.  NULL when the text is to be read instead (see above; or
 * out of memory). */
static const value *as_read(arena *a, const value *v, unsigned depth)
{
    if (v->flags || depth > TREE_DEPTH)
        return NULL;
    switch ((value_kind)v->kind) {
    case V_NULL:
    case V_BOOL:
        return v;
    case V_INT:
        return plain_int(v) ? v : NULL;
    case V_FLOAT: /* written as the shortest text that reads back as it */
        return isfinite(v->u.d) ? v : NULL;
    case V_STRING:
        return plain_string(v) ? v : NULL;
    case V_ARRAY: {
        value **items = NULL;
        size_t n = v->u.arr.len;
        for (size_t i = 0; i < n; i++) {
            const value *it = as_read(a, v->u.arr.items[i], depth + 1);
            if (!it)
                return NULL;
            if (it != v->u.arr.items[i] && !items) {
                if (!(items = arena_alloc(a, n * sizeof *items)))
                    return NULL;
                memcpy(items, v->u.arr.items, n * sizeof *items);
            }
            if (items)
                items[i] = (value *)it;
        }
        if (!items)
            return v;
        value *c = value_new(a, V_ARRAY, 0, 0);
        if (c) {
            c->u.arr.items = items;
            c->u.arr.len = n;
        }
        return c;
    }
    case V_OBJECT: {
        size_t n = v->u.obj.len;
        const value_member *m = v->u.obj.items;
        value_member *copy = NULL;
        int sorted = 1;
        for (size_t i = 0; i < n; i++) {
            if (m[i].key->kind != V_STRING || !plain_string(m[i].key))
                return NULL;
            if (i && key_cmp(m[i - 1].key, m[i].key) >= 0)
                sorted = 0;
        }
        if (!sorted) {
            if (!(copy = arena_alloc(a, n * sizeof *copy)))
                return NULL;
            memcpy(copy, m, n * sizeof *copy);
            if (n > 16) {
                qsort(copy, n, sizeof *copy, member_cmp);
            } else { /* a few members: by insertion, without the calls */
                for (size_t i = 1; i < n; i++) {
                    value_member k = copy[i];
                    size_t j = i;
                    for (; j > 0 && key_cmp(copy[j - 1].key, k.key) > 0; j--)
                        copy[j] = copy[j - 1];
                    copy[j] = k;
                }
            }
            m = copy;
        }
        for (size_t i = 0; i < n; i++) {
            const value *val = as_read(a, m[i].val, depth + 1);
            if (!val)
                return NULL;
            if (val != m[i].val && !copy) {
                if (!(copy = arena_alloc(a, n * sizeof *copy)))
                    return NULL;
                memcpy(copy, m, n * sizeof *copy);
                m = copy;
            }
            if (copy)
                copy[i].val = (value *)val;
        }
        if (!copy)
            return v;
        value *c = value_new(a, V_OBJECT, 0, 0);
        if (c) {
            c->u.obj.items = copy;
            c->u.obj.len = n;
        }
        return c;
    }
    default: /* a date, binary data: not what JSON reads */
        return NULL;
    }
}

/* A member of the line's tree; v NULL gives the tree up. */
static void tree_put(logr *r, const char *key, const value *v)
{
    if (!r->root)
        return;
    value *k = value_new(r->ta, V_STRING, 0, 0);
    if (!v || !k || r->root->u.obj.len == LINE_MEMBERS) {
        r->root = NULL;
        return;
    }
    k->u.str.ptr = key;
    k->u.str.len = strlen(key);
    r->root->u.obj.items[r->root->u.obj.len++] = (value_member){k, (value *)v};
}

/* A string member of the line's tree: s, which outlives the line. */
static void tree_str(logr *r, const char *key, const char *s)
{
    if (!r->root)
        return;
    value *v = value_new(r->ta, V_STRING, 0, 0);
    if (v) {
        v->u.str.ptr = s;
        v->u.str.len = strlen(s);
    }
    tree_put(r, key, v && plain_string(v) ? v : NULL);
}

/* ,"key": (a key of ours, which needs no escape) */
static void put_key(buf *b, const char *key)
{
    buf_puts(b, ",\"");
    buf_puts(b, key);
    buf_puts(b, "\":");
}

/* ,"key":"s" */
static void put_str(logr *r, const char *key, const char *s)
{
    put_key(&r->line, key);
    canon_write_string(&r->line, s, strlen(s));
    tree_str(r, key, s);
}

/* {"type":"KIND","run":R[,"episode":E], and the tree begun */
static void head(logr *r, const char *kind, const char *run,
                 const char *episode)
{
    buf *b = &r->line;
    buf_reset(b);
    r->root = NULL;
    r->answer_len = 0;
    if (r->sink->record) {
        arena_reset(r->ta);
        value *o = value_new(r->ta, V_OBJECT, 0, 0);
        value_member *m = arena_alloc(r->ta, LINE_MEMBERS * sizeof *m);
        if (o && m) {
            o->u.obj.items = m;
            r->root = o;
        }
    }
    buf_puts(b, "{\"type\":\"");
    buf_puts(b, kind);
    buf_putc(b, '"');
    tree_str(r, "type", kind);
    put_str(r, "run", run);
    if (episode)
        put_str(r, "episode", episode);
}

/* ,"key":V (a value written loose: what JSON can carry, as JSON reads
 * it back) */
static int put_value(logr *r, const char *key, const value *v, err *e)
{
    buf *b = &r->line;
    put_key(b, key);
    size_t at = b->len;
    if (canon_append_loose(b, v, e) < 0)
        return -1;
    if (r->root)
        tree_put(r, key, as_read(r->ta, v, 2));
    if (strcmp(key, "answer") == 0) {
        r->answer_at = at;
        r->answer_len = b->len - at;
    }
    return 0;
}

static int emit(logr *r, err *e)
{
    if (buf_putc(&r->line, '}') < 0 || r->line.failed)
        return err_set(e, ERR_NOMEM, "out of memory writing a transcript "
                                     "line");
    r->cur->lines++;
    if (r->root)
        return r->sink->record(r->sink->ctx, r->file, r->dir, ++r->lineno,
                               r->line.data, r->line.len, r->root,
                               r->answer_at, r->answer_len, e);
    return r->sink->line(r->sink->ctx, r->file, r->dir, ++r->lineno,
                         r->line.data, r->line.len, e);
}

int lr_observed(const logr *r)
{
    return r->observed;
}

void lr_stem(const logr *r, char *out, size_t size)
{
    const char *base = strrchr(r->file, '/');
    base = base ? base + 1 : r->file;
    if (strcmp(r->file, "<stdin>") == 0)
        base = "stdin";
    snprintf(out, size, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

static unsigned long long tool_hash(const value *tool, err *e, int *ok)
{
    buf b = BUF_INIT;
    *ok = canon_append_loose(&b, tool, e) == 0;
    unsigned long long h = *ok ? XXH3_64bits(b.data, b.len) : 0;
    buf_free(&b);
    return h;
}

static const value *tool_name(const value *tool)
{
    const value *f = value_getz(tool, "function");
    const value *n = value_getz(f ? f : tool, "name");
    return n && n->kind == V_STRING ? n : NULL;
}

/* Adds the tools of the array to the run's list (first of a name
 * wins), into keep (an array) when given; checks them when the run has
 * its file already.  0, 1 stop, -1 out of memory. */
static int note_tools(logr *r, struct lrun *run, const value *tools,
                      value *keep, arena *a, const char *place, err *e)
{
    for (size_t i = 0; tools && tools->kind == V_ARRAY &&
                       i < tools->u.arr.len;
         i++) {
        const value *t = tools->u.arr.items[i];
        const value *name = tool_name(t);
        if (!name)
            continue;
        int ok;
        unsigned long long h = tool_hash(t, e, &ok);
        if (!ok)
            return -1;
        size_t k;
        if (keymap_get(&run->tools_by_name, name->u.str.ptr,
                       name->u.str.len, &k)) {
            if (run->check && run->tools[k].hash != h &&
                !run->tools[k].said) {
                run->tools[k].said = 1;
                if (lr_problem(r, place, NULL,
                               "tool \"%s\" is defined otherwise than in "
                               "run \"%s\"'s tool file (made from its "
                               "first record); its calls are checked "
                               "against the first definition",
                               name->u.str.ptr, run->name))
                    return 1;
            }
            continue;
        }
        if (run->ntools == run->cap) {
            size_t cap = run->cap ? 2 * run->cap : 16;
            struct tool_seen *more =
                realloc(run->tools, cap * sizeof *more);
            if (!more)
                return err_set(e, ERR_NOMEM, "out of memory");
            run->tools = more;
            run->cap = cap;
        }
        if (keymap_put(&run->tools_by_name, name->u.str.ptr,
                       name->u.str.len, run->ntools) < 0)
            return err_set(e, ERR_NOMEM, "out of memory");
        struct tool_seen *s = &run->tools[run->ntools];
        s->hash = h;
        s->said = run->check;
        run->ntools++;
        if (keep && vb_push(a, keep, vb_clone(a, t)) < 0)
            return err_set(e, ERR_NOMEM, "out of memory");
        if (run->check &&
            lr_problem(r, place, NULL,
                       "tool \"%s\" is offered here but not in run \"%s\"'s "
                       "tool file (made from its first record); its calls "
                       "are checked as calls of a tool the file does not "
                       "have; to check them, give a tool file with --tools",
                       name->u.str.ptr, run->name))
            return 1;
    }
    return 0;
}

/* Whether the regular file at path holds exactly the len bytes of text
 * (read without following a symbolic link). */
static int holds(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char chunk[65536];
    size_t at = 0;
    ssize_t n;
    int same = 1;
    while (same && (n = read(fd, chunk, sizeof chunk)) > 0) {
        same = at + (size_t)n <= len &&
               memcmp(chunk, text + at, (size_t)n) == 0;
        at += (size_t)n;
    }
    if (n < 0)
        same = 0;
    close(fd);
    return same && at == len;
}

/* Writes text into folder/name unless a file of that content is there:
 * through a temporary file of its own making (O_EXCL, never through a
 * symbolic link), renamed, so that no reader sees half of it.  A name
 * that is there as anything but a regular file (a symbolic link, a
 * folder) is left alone, and said. */
static int write_tool_file(const char *folder, const char *name,
                           const char *text, size_t len, err *e)
{
    char path[PATH_MAX], tmp[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", folder, name) >=
        sizeof path)
        return err_set(e, ERR_IO, "the tool folder's path is too long");
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return err_set(e, ERR_IO,
                           "cannot write the tool file %s: it is there as "
                           "%s, which is left alone; remove it, or name "
                           "another folder with --tools-out",
                           path, S_ISLNK(st.st_mode) ? "a symbolic link"
                                                     : "something other "
                                                       "than a file");
        if ((size_t)st.st_size == len && holds(path, text, len))
            return 0;
    }
    int fd = -1;
    for (unsigned tries = 0; fd < 0 && tries < 100; tries++) {
        unsigned char r8[4] = {0};
        if (getentropy(r8, sizeof r8) != 0)
            memset(r8, (int)tries, sizeof r8);
        if ((size_t)snprintf(tmp, sizeof tmp,
                             "%s/.%s.%ld.%02x%02x%02x%02x.tmp", folder, name,
                             (long)getpid(), r8[0], r8[1], r8[2],
                             r8[3]) >= sizeof tmp)
            return err_set(e, ERR_IO, "the tool folder's path is too long");
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return err_set(e, ERR_IO, "cannot write the tool file %s: %s", tmp,
                       strerror(errno));
    int why = 0;
    for (size_t at = 0; !why && at < len;) {
        ssize_t n = write(fd, text + at, len - at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            why = n < 0 ? errno : EIO;
        else
            at += (size_t)n;
    }
    if (close(fd) != 0 && !why)
        why = errno;
    if (!why && rename(tmp, path) != 0)
        why = errno;
    if (why) {
        unlink(tmp);
        return err_set(e, ERR_IO, "cannot write the tool file %s: %s", path,
                       strerror(why));
    }
    return 0;
}

/* The SHA-256 of the file at path, in hex; -1 when it cannot be read. */
static int file_sha(const char *path, char hex[SHA256_HEX_LEN + 1])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    buf b = BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 &&
           b.len <= DOC_MAX_BYTES)
        buf_append(&b, chunk, n);
    int bad = ferror(f) || b.failed;
    fclose(f);
    if (!bad)
        sha256_hex(hex, b.data ? b.data : "", b.len);
    buf_free(&b);
    return bad ? -1 : 0;
}

/* r->dirs[slot] = a copy of dir; r->dir points at it. */
static int set_dir(logr *r, int slot, const char *dir, err *e)
{
    char *copy = strdup(dir);
    if (!copy)
        return err_set(e, ERR_NOMEM, "out of memory");
    free(r->dirs[slot]);
    r->dirs[slot] = copy;
    r->dir = copy;
    return 0;
}

int lr_run(logr *r, const char *name, const char *model, const value *meta,
           const value *tools, const char *place, lrun **out, err *e)
{
    const log_opts *o = r->o;
    r->repeated = 0; /* a record begins */
    if (o->run)
        name = o->run;
    if (lr_problem_run(r, name) < 0) /* what is said from now on */
        return err_set(e, ERR_NOMEM, "out of memory");
    size_t at;
    if (keymap_get(&r->runs_by_name, name, strlen(name), &at)) {
        *out = r->runs[at];
        if (o->tools)
            return 0;
        return note_tools(r, r->runs[at], tools, NULL, NULL, place, e);
    }
    if (r->nruns == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 8;
        struct lrun **more = realloc(r->runs, cap * sizeof *more);
        if (!more)
            return err_set(e, ERR_NOMEM, "out of memory");
        r->runs = more;
        r->cap = cap;
    }
    struct lrun *run = calloc(1, sizeof *run);
    if (!run || !(run->name = strdup(name)) ||
        keymap_put(&r->runs_by_name, name, strlen(name), r->nruns) < 0) {
        if (run)
            free(run->name);
        free(run);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    run->tools_by_name.seed = r->seed;
    r->runs[r->nruns++] = run;
    *out = run;

    char sha[SHA256_HEX_LEN + 1], tools_path[PATH_MAX + 64];
    int rc = 0;
    if (o->tools) {
        char real[PATH_MAX];
        const char *p = realpath(o->tools, real) ? real : o->tools;
        if (file_sha(p, sha) < 0)
            return err_set(e, ERR_IO, "cannot read the tool file %s: %s",
                           o->tools, strerror(errno));
        snprintf(tools_path, sizeof tools_path, "%s", p);
        char *slash = strrchr(real, '/');
        if (slash)
            *(slash == real ? slash + 1 : slash) = '\0';
        if (set_dir(r, 1, slash ? real : ".", e) < 0)
            return -1;
    } else {
        arena *a = arena_new();
        value *keep = a ? vb_array(a) : NULL;
        buf text = BUF_INIT;
        if (!keep) {
            arena_free(a);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        /* no definitions: an empty tool file, whose runs' cards say "no
         * schema" (docs/logs.md): not a problem of the log */
        rc = note_tools(r, run, tools, keep, a, place, e);
        if (rc >= 0 && (canon_append_loose(&text, keep, e) < 0 ||
                        buf_putc(&text, '\n') < 0))
            rc = err_set(e, ERR_NOMEM, "out of memory");
        char fname[64];
        if (rc >= 0) {
            sha256_hex(sha, text.data, text.len);
            snprintf(fname, sizeof fname, "tools-%.16s.json", sha);
            const char *folder = o->tools_out ? o->tools_out : o->rel_dir;
            if (write_tool_file(folder, fname, text.data, text.len, e) < 0)
                rc = -1;
            else if (o->tools_out) {
                char real[PATH_MAX];
                const char *f = realpath(folder, real) ? real : folder;
                snprintf(tools_path, sizeof tools_path, "%s/%s", f, fname);
                rc = set_dir(r, 1, f, e) < 0 ? -1 : rc;
            } else {
                snprintf(tools_path, sizeof tools_path, "%s", fname);
                rc = set_dir(r, 0, o->rel_dir, e) < 0 ? -1 : rc;
            }
        }
        buf_free(&text);
        arena_free(a);
        if (rc < 0)
            return -1;
        run->check = 1;
    }
    head(r, "run", name, NULL);
    put_str(r, "tools", tools_path);
    put_str(r, "tools_sha256", sha);
    const value *m = NULL;
    value mv;
    if (o->model || model) {
        const char *text = model ? model : o->model;
        if (o->model && !model)
            text = o->model;
        value_init(&mv, V_STRING, 0, 0);
        mv.u.str.ptr = text;
        mv.u.str.len = strlen(text);
        m = &mv;
    }
    if (m && put_value(r, "model", m, e) < 0)
        return -1;
    if (meta && put_value(r, "meta", meta, e) < 0)
        return -1;
    int sent = emit(r, e);
    return sent ? sent : rc;
}

int lr_episode(logr *r, lrun *run, const char *episode, const value *seed,
               const value *arm, const value *task_name, const char *place,
               const char *path, err *e)
{
    err why;
    /* a record given twice (a results file copied into another, two
     * files of one --run): the first stands, as the night keeps the first
     * of an episode; the second is said here, where it is in the log */
    r->repeated = 0;
    buf key = BUF_INIT;
    buf_puts(&key, run->name);
    buf_putc(&key, '\0');
    buf_puts(&key, episode);
    int fresh = key.failed ? -1
                           : idset_add(&r->seen, XXH3_64bits_withSeed(
                                                     key.data, key.len,
                                                     r->seed));
    buf_free(&key);
    if (fresh < 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    if (!fresh) {
        int rc = lr_problem(r, place, path,
                            "episode \"%s\" of run \"%s\" is given a "
                            "second time: this record is left out (the "
                            "first stands)",
                            episode, run->name);
        r->repeated = 1;
        return rc;
    }
    if (tline_seed_arm(seed, arm, &why) < 0) {
        int has_seed = seed && seed->kind != V_NULL;
        int has_arm = arm && arm->kind != V_NULL;
        seed = arm = NULL;
        int rc = has_seed != has_arm
                     ? lr_problem(r, place, path,
                                  "the episode has %s: it is read as "
                                  "observed (its calls counted, not "
                                  "replayed); a log that gives both a seed "
                                  "and an arm is replayed by the simulator",
                                  has_seed ? "a seed but no arm"
                                           : "an arm but no seed")
                     : lr_problem(r, place, path,
                                  "the episode's seed and arm are none the "
                                  "simulator takes (%s): it is read as "
                                  "observed (its calls counted, not "
                                  "replayed)",
                                  why.msg);
        if (rc)
            return rc;
    }
    if (task_name && tline_task_name(task_name, &why) < 0) {
        task_name = NULL;
        int rc = lr_problem(r, place, path,
                            "the episode's task name is none a transcript "
                            "holds (%s): it is left out",
                            why.msg);
        if (rc)
            return rc;
    }
    r->observed = !seed || seed->kind == V_NULL;
    head(r, "episode", run->name, episode);
    if ((seed && put_value(r, "seed", seed, e) < 0) ||
        (arm && put_value(r, "arm", arm, e) < 0) ||
        (task_name && put_value(r, "task_name", task_name, e) < 0))
        return -1;
    r->cur->episodes++;
    return emit(r, e);
}

/* A number member: an amount (NAN: none, nothing written), or a count
 * (n < 0: none).  For a sink that takes the line's tree, the value lives
 * in the tree's arena, as long as the tree. */
static int put_amount(logr *r, const char *key, double x, err *e)
{
    if (isnan(x))
        return 0;
    value local, *v = r->root ? value_new(r->ta, V_FLOAT, 0, 0) : &local;
    if (!v)
        return err_set(e, ERR_NOMEM, "out of memory");
    if (v == &local)
        value_init(v, V_FLOAT, 0, 0);
    v->u.d = x;
    return put_value(r, key, v, e);
}

static int put_count(logr *r, const char *key, long long n, err *e)
{
    if (n < 0)
        return 0;
    char digits[24];
    size_t len = (size_t)snprintf(digits, sizeof digits, "%lld", n);
    value local, *v = r->root ? value_new(r->ta, V_INT, 0, 0) : &local;
    const char *text = r->root ? arena_memdup(r->ta, digits, len) : digits;
    if (!v || !text)
        return err_set(e, ERR_NOMEM, "out of memory");
    if (v == &local)
        value_init(v, V_INT, 0, 0);
    v->u.str.ptr = text;
    v->u.str.len = len;
    return put_value(r, key, v, e);
}

int lr_call(logr *r, lrun *run, const char *episode, const value *call,
            const value *answer, double duration, err *e)
{
    if (r->repeated)
        return 0;
    head(r, "call", run->name, episode);
    if (put_value(r, "call", call, e) < 0 ||
        (answer && put_value(r, "answer", answer, e) < 0) ||
        put_amount(r, "duration", duration, e) < 0)
        return -1;
    r->cur->calls++;
    return emit(r, e);
}

void lr_usage_init(lr_usage *u)
{
    u->input_tokens = u->output_tokens = -1;
    u->cost = u->duration = NAN;
}

int lr_end(logr *r, lrun *run, const char *episode, const char *status,
           const char *final, int success, const double *reward,
           const lr_usage *u, err *e)
{
    if (r->repeated) {
        r->repeated = 0;
        return 0;
    }
    head(r, "end", run->name, episode);
    if (status)
        put_str(r, "status", status);
    if (final)
        put_str(r, "final", final);
    value sv, rv;
    if (success >= 0) {
        value_init(&sv, V_BOOL, 0, 0);
        sv.u.b = success;
        if (put_value(r, "success", &sv, e) < 0)
            return -1;
    }
    if (reward) {
        value_init(&rv, V_FLOAT, 0, 0);
        rv.u.d = *reward;
        if (put_value(r, "reward", &rv, e) < 0)
            return -1;
    }
    if (u && (put_count(r, "input_tokens", u->input_tokens, e) < 0 ||
              put_count(r, "output_tokens", u->output_tokens, e) < 0 ||
              put_amount(r, "cost", u->cost, e) < 0 ||
              put_amount(r, "duration", u->duration, e) < 0))
        return -1;
    return emit(r, e);
}
