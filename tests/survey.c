/*
 * survey: the simulator's answers to a fixed script of calls, and to the
 * scripted policies, on the tasks of the seeds and arms below, for
 * tests/rules.py to hold against the rules of docs/simulator.md.
 *
 *   survey [--policies] [--seeds N] [--tools K] FILE...
 *
 * For each tool file, one line
 *   {"type":"file","file":F,"format":"openapi","root":DOC,
 *    "tools":[{"name","kind","input","output"}]}
 * (DOC: the document, its `$ref`s as the tool table resolves them;
 * "output" null for a tool without output schema); a file that is not a
 * tool file is passed over.  Then, for each seed 1..N (default 20) and
 * each arm of base, depth:d1, depth:d3, landed:l1, baddata:b1-b3 and
 * lagged:g1 whose depth the file can build, the episodes of its task,
 * one line each:
 *   {"type":"episode","file":F,"policy":"script","task":TASK,
 *    "calls":[{"tool","arguments","answer","effect","step","error"}]}
 * or, when the task cannot be made, {"type":"refused","file":F,"seed":S,
 * "arm":A,"why":...}.  The script of a task of depth D:
 *  1. step 1 with its arguments, twice (D >= 2): on a baddata arm the
 *     first answer is the wrong one;
 *  2. step 3 before step 2 (D >= 3): not ready;
 *  3. steps 2..D in order with their arguments; then the target again
 *     (a duplicate write);
 *  4. K tools of the file (default 16), taken in turn from an offset the
 *     seed moves, so that the seeds cover them all: each with arguments
 *     drawn from its input schema, and each read that takes an argument
 *     the target write was sent also with the target's values (a read
 *     that names the write).
 * With --policies, each policy of tests/policy.c then plays the task in
 * an episode of its own ("policy": its name), when it can read the task
 * (the file has a check read).  The same arguments give the same bytes.
 * Exit status 0; 1 when a call cannot be answered or the output cannot
 * be written (said on standard error); 2 on a usage error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "arm.h"
#include "buf.h"
#include "canon.h"
#include "doc.h"
#include "draw.h"
#include "err.h"
#include "generator_version.h"
#include "json_load.h"
#include "policy.h"
#include "sim.h"
#include "task.h"
#include "tools.h"
#include "vbuild.h"

static const char *const arms[] = {"base",       "depth:d1",   "depth:d3",
                                   "landed:l1",  "baddata:b1", "baddata:b2",
                                   "baddata:b3", "lagged:g1"};
#define NARMS (sizeof arms / sizeof arms[0])

struct episode {
    const toolset *ts;
    const policy_tools *pt; /* the tool table as the policies read it */
    const task *t;
    sim *s;
    arena *a;
    buf *out;
    sim_result res;
    int ncalls;
    err e;
};

static int say(const char *what, const char *detail)
{
    fprintf(stderr, "survey: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    return -1;
}

/* Appends the canonical JSON of v (null for none); a value canonical
 * JSON cannot write (NaN) as canon_append_loose writes it.  -1 out of
 * memory. */
static int put_json(buf *b, const value *v)
{
    err e;
    size_t mark = b->len;
    if (!v)
        return buf_puts(b, "null");
    if (canon_append(b, v, &e) == 0)
        return 0;
    if (e.code == ERR_NOMEM)
        return -1;
    b->len = mark; /* what the refusal left half written */
    return canon_append_loose(b, v, &e);
}

/* Makes one call of the script and appends it to the episode's line. */
static int call(struct episode *ep, const tool *tl, const value *args)
{
    if (sim_call(ep->s, tl->name, strlen(tl->name), args, NULL, &ep->res,
                 &ep->e) < 0)
        return say(tl->name, ep->e.msg);
    buf *b = ep->out;
    buf_puts(b, ep->ncalls++ ? ",{\"tool\":" : "{\"tool\":");
    canon_write_string(b, tl->name, strlen(tl->name));
    buf_puts(b, ",\"arguments\":");
    if (ep->res.arguments.len)
        buf_append(b, ep->res.arguments.data, ep->res.arguments.len);
    else
        buf_puts(b, "null");
    buf_puts(b, ",\"answer\":");
    buf_append(b, ep->res.answer.data, ep->res.answer.len);
    buf_printf(b, ",\"effect\":\"%s\",\"step\":%d,\"error\":",
               effect_name(ep->res.effect), ep->res.step);
    if (ep->res.error >= 0)
        buf_printf(b, "\"%s\"}", sim_error_code((enum sim_error)ep->res.error));
    else
        buf_puts(b, "null}");
    return b->failed ? say("out of memory", NULL) : 0;
}

/* Arguments for tl drawn from its input schema in *out, or NULL when
 * none can be (the tool is then not called).  -1 out of memory. */
static int drawn_args(struct episode *ep, const tool *tl, value **out)
{
    draw_key k;
    err e;
    *out = NULL;
    draw_key_init(&k, ep->ts->doc->file_sha256, ep->t->seed, tl->name,
                  "survey", 6);
    if (draw_value(out, ep->a, ep->ts->doc->root, tl->input_schema, &k, "$",
                   &e) < 0) {
        *out = NULL;
        return e.code == ERR_NOMEM ? say("out of memory", NULL) : 0;
    }
    if ((*out)->kind != V_OBJECT)
        *out = NULL;
    return 0;
}

/* The target write's values under the names read tl takes in *out, or
 * NULL when it takes none of them.  -1 out of memory. */
static int named_args(struct episode *ep, const tool *tl, value **out)
{
    const value *w = ep->t->steps[ep->t->depth - 1].args;
    value *o = vb_object(ep->a);
    *out = NULL;
    if (!o)
        return say("out of memory", NULL);
    for (size_t i = 0; i < tl->nargs; i++) {
        const value *v = value_getz(w, tl->args[i].name);
        if (v && vb_put(ep->a, o, tl->args[i].name, (value *)v) < 0)
            return say("out of memory", NULL);
    }
    if (o->u.obj.len)
        *out = o;
    return 0;
}

static int script(struct episode *ep, size_t ntools)
{
    const task *t = ep->t;
    int d = t->depth;
    if (d >= 2 && (call(ep, t->steps[0].tool, t->steps[0].args) < 0 ||
                   call(ep, t->steps[0].tool, t->steps[0].args) < 0))
        return -1;
    if (d >= 3 && call(ep, t->steps[2].tool, t->steps[2].args) < 0)
        return -1;
    for (int k = d >= 2 ? 1 : 0; k < d; k++)
        if (call(ep, t->steps[k].tool, t->steps[k].args) < 0)
            return -1;
    if (call(ep, t->steps[d - 1].tool, t->steps[d - 1].args) < 0)
        return -1;
    const toolset *ts = ep->ts;
    size_t n = ntools < ts->ntools ? ntools : ts->ntools;
    size_t first = (size_t)(t->seed * 7 % (ts->ntools ? ts->ntools : 1));
    for (size_t i = 0; i < n; i++) {
        const tool *tl = &ts->tools[(first + i) % ts->ntools];
        value *args;
        if (drawn_args(ep, tl, &args) < 0 || (args && call(ep, tl, args) < 0))
            return -1;
        if (tl->kind == TOOL_READ &&
            (named_args(ep, tl, &args) < 0 || (args && call(ep, tl, args) < 0)))
            return -1;
    }
    return 0;
}

/* Plays policy p on the episode's task, as an agent would: -1 when a
 * call cannot be answered; 0 also when the policy cannot read the task
 * (the file has no check read: no call is made). */
static int play(struct episode *ep, const policy *p)
{
    const char *why = NULL;
    value *tv = task_to_value(ep->a, ep->t, GENERATOR_VERSION);
    const policy_task *pt = tv ? policy_task_read(ep->a, tv, ep->pt, &why)
                               : NULL;
    policy_state *ps = policy_begin(ep->a);
    if (!tv || !ps || (!pt && !why))
        return say("out of memory", NULL);
    if (!pt)
        return 0;
    enum policy_reply kind = POLICY_NONE;
    const value *last = NULL;
    for (int n = 0; n < POLICY_MAX_CALLS; n++) {
        policy_call c;
        int go = policy_next(p, pt, kind, last, ps, ep->a, &c);
        if (go < 0)
            return say("out of memory", NULL);
        if (go == 0)
            return 0;
        const tool *tl = toolset_find(ep->ts, c.tool, strlen(c.tool));
        if (!tl)
            return say("a policy calls a tool the file lacks", c.tool);
        if (call(ep, tl, c.args) < 0)
            return -1;
        value *answer;
        if (json_load(&answer, ep->a, ep->res.answer.data, ep->res.answer.len,
                      &ep->e) < 0)
            return say("an answer is not JSON", ep->e.msg);
        kind = policy_classify(ep->pt, answer);
        last = answer;
    }
    return say("a policy makes too many calls", policy_name(p));
}

static int file_line(buf *b, const char *path, const toolset *ts)
{
    buf_reset(b);
    buf_puts(b, "{\"type\":\"file\",\"file\":");
    canon_write_string(b, path, strlen(path));
    buf_printf(b, ",\"format\":\"%s\",\"root\":", tool_format_name(ts->format));
    if (put_json(b, ts->doc->root) < 0)
        return -1;
    buf_puts(b, ",\"tools\":[");
    for (size_t i = 0; i < ts->ntools; i++) {
        const tool *tl = &ts->tools[i];
        buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
        canon_write_string(b, tl->name, strlen(tl->name));
        buf_printf(b, ",\"kind\":\"%s\",\"input\":",
                   tl->kind == TOOL_READ ? "read" : "write");
        if (put_json(b, tl->input_schema) < 0)
            return -1;
        buf_puts(b, ",\"output\":");
        if (put_json(b, tl->output_schema) < 0)
            return -1;
        buf_putc(b, '}');
    }
    buf_puts(b, "]}\n");
    return b->failed ? -1 : 0;
}

static int flush(buf *b)
{
    if (b->failed)
        return say("out of memory", NULL);
    if (fwrite(b->data, 1, b->len, stdout) != b->len)
        return say("cannot write", strerror(errno));
    return 0;
}

/* One episode of the task in ep: the script (p NULL) or policy p. */
static int episode(struct episode *ep, const char *path, const policy *p,
                   size_t ntools)
{
    buf *b = ep->out;
    int rc = 0;
    ep->ncalls = 0;
    if (sim_new(&ep->s, ep->ts, ep->t, &ep->e) < 0)
        return say("out of memory", NULL);
    buf_reset(b);
    buf_puts(b, "{\"type\":\"episode\",\"file\":");
    canon_write_string(b, path, strlen(path));
    buf_puts(b, ",\"policy\":");
    canon_write_string(b, p ? policy_name(p) : "script",
                       strlen(p ? policy_name(p) : "script"));
    buf_puts(b, ",\"task\":");
    if (task_write_json(b, ep->t, GENERATOR_VERSION, &ep->e) < 0)
        rc = say("a task", ep->e.msg);
    buf_puts(b, ",\"calls\":[");
    if (rc == 0)
        rc = p ? play(ep, p) : script(ep, ntools);
    buf_puts(b, "]}\n");
    if (rc == 0)
        rc = flush(b);
    sim_free(ep->s);
    ep->s = NULL;
    return rc;
}

static int refused(buf *b, const char *path, uint64_t seed, const char *arm,
                   const char *why)
{
    buf_reset(b);
    buf_puts(b, "{\"type\":\"refused\",\"file\":");
    canon_write_string(b, path, strlen(path));
    buf_printf(b, ",\"seed\":%llu,\"arm\":\"%s\",\"why\":",
               (unsigned long long)seed, arm);
    canon_write_string(b, why, strlen(why));
    buf_puts(b, "}\n");
    return flush(b);
}

static int survey_file(const char *path, uint64_t seeds, size_t ntools,
                       int policies, buf *b)
{
    doc *d = NULL;
    toolset *ts = NULL;
    arena *tables = NULL;
    err e;
    err_clear(&e);
    if (doc_load_file(&d, path, &e) < 0 || toolset_build(&ts, d, &e) < 0) {
        doc_free(d);
        /* not a tool file: nothing to survey */
        return e.code == ERR_NOMEM ? say("out of memory", NULL) : 0;
    }
    struct episode ep = {.ts = ts, .out = b};
    int rc = file_line(b, path, ts) < 0 ? say("out of memory", NULL) : flush(b);
    if (rc == 0 && (!(tables = arena_new()) ||
                    !(ep.pt = policy_tools_from_toolset(tables, ts))))
        rc = say("out of memory", NULL);
    for (uint64_t seed = 1; seed <= seeds && rc == 0; seed++)
        for (size_t i = 0; i < NARMS && rc == 0; i++) {
            arm arm;
            if (arm_parse(&arm, arms[i], strlen(arms[i]), &e) < 0) {
                rc = say(arms[i], e.msg);
                break;
            }
            if (task_check_depth(ts, task_depth(&arm), &e) < 0)
                continue;
            if (!(ep.a = arena_new())) {
                rc = say("out of memory", NULL);
                break;
            }
            task *t = NULL;
            if (task_make(&t, ep.a, ts, seed, &arm, &e) < 0) {
                rc = e.code == ERR_NOMEM ? say("out of memory", NULL)
                                         : refused(b, path, seed, arms[i],
                                                   e.msg);
            } else {
                ep.t = t;
                rc = episode(&ep, path, NULL, ntools);
                for (size_t k = 0; policies && k < policy_count() && rc == 0;
                     k++)
                    rc = episode(&ep, path, policy_at(k), ntools);
            }
            arena_free(ep.a);
        }
    buf_free(&ep.res.answer);
    buf_free(&ep.res.arguments);
    arena_free(tables);
    toolset_free(ts);
    doc_free(d);
    return rc;
}

static int count(const char *opt, const char *text, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || errno || v > 1000000) {
        fprintf(stderr, "survey: %s takes a number up to 1000000, not '%s'\n",
                opt, text);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long long seeds = 20, ntools = 16;
    int policies = 0;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--policies") == 0) {
            policies = 1;
            continue;
        }
        unsigned long long *to = strcmp(argv[i], "--seeds") == 0   ? &seeds
                                 : strcmp(argv[i], "--tools") == 0 ? &ntools
                                                                   : NULL;
        if (!to || i + 1 == argc) {
            fprintf(stderr, "survey: %s '%s'\n",
                    to ? "no value after" : "unknown option", argv[i]);
            return 2;
        }
        if (count(argv[i], argv[i + 1], to) < 0)
            return 2;
        i++;
    }
    if (i == argc) {
        fputs("usage: survey [--policies] [--seeds N] [--tools K] FILE...\n", stderr);
        return 2;
    }
    buf b = BUF_INIT;
    int rc = 0;
    for (; i < argc && rc == 0; i++)
        rc = survey_file(argv[i], seeds, (size_t)ntools, policies, &b);
    buf_free(&b);
    if (fflush(stdout) != 0)
        rc = say("cannot write", strerror(errno));
    return rc < 0 ? 1 : 0;
}
