/*
 * nightgen: a night of transcripts at any size, made in process by the
 * scripted policies (tests/policy.c) playing the simulator (src/sim.h):
 *
 *   nightgen [--seed S] [--episodes N] [--runs R] [--interleave K]
 *            [--files F] [--same-tasks] OUT_DIR TOOLFILE...
 *
 * It writes OUT_DIR/night-00.jsonl ... (F files; existing files of those
 * names are replaced, others left alone; OUT_DIR is made if missing):
 *  - R runs (default 6): run i is named "rII-POLICY" (II: i with at least
 *    two digits), is played by policy i mod 6 (careful, blind_retrier,
 *    trusts_first_read, believes_lagged_read, sloppy_arguments,
 *    gives_up_on_error) on TOOLFILE i mod (their number), and declares
 *    "model":"scripted-POLICY" and its tool file relative to OUT_DIR with
 *    its SHA-256;
 *  - N episodes in all (default 10000): episode n (0-based, named
 *    "eNNNNNN") belongs to run n mod R; a run's m-th episode plays arm
 *    m mod 24 of the test matrix (policy_arms) with the seed of its round
 *    m / 24, a number below 2^31 drawn from (S, run, round): a run plays
 *    every arm on each of its seeds; with --same-tasks, drawn from (S,
 *    round) alone, so that the runs on one tool file play the same tasks
 *    (card --compare pairs them, and lists the tasks that flipped);
 *  - each episode is an episode line, one call line per call (the call in
 *    one of four shapes in turn: plain, an OpenAI tool_call with its
 *    arguments as JSON text, an Anthropic tool_use, an MCP tools/call;
 *    with the answer the policy received) and an end line with
 *    "status":"done";
 *  - K episodes (default 8) are open at once; each turn writes the next
 *    line of each open episode in turn, and an episode that ended gives
 *    its place to the next one, so that the lines of K episodes
 *    interleave;
 *  - episode n goes to file (a hash of S and n) mod F (default 1), whole;
 *    a run's run line comes before its first episode line in each file
 *    that holds its episodes.
 * The same arguments give the same bytes.  Memory follows K, never N.
 * On standard output: a line per run with its episodes, calls and
 * verdicts (reached, pass) as the simulator judged them, then a total.
 * Exit status 0; 1 when the night could not be made (said on standard
 * error); 2 on a usage error.
 *
 * Limits: R <= 10000, K <= 10000, F <= 256.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "arena.h"
#include "arm.h"
#include "buf.h"
#include "call.h"
#include "canon.h"
#include "doc.h"
#include "err.h"
#include "generator_version.h"
#include "json_load.h"
#include "policy.h"
#include "sim.h"
#include "task.h"
#include "tools.h"
#include "value.h"

#define MAX_RUNS 10000
#define MAX_OPEN 10000
#define MAX_FILES 256
#define OUT_BUFFER (256 * 1024)

/* ====================================================== deterministic */

/* splitmix64's finalizer: a bijection of 64-bit numbers that mixes well. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* The seed of round `round` of run `run`. */
static uint64_t seed_of(uint64_t s, size_t run, uint64_t round)
{
    return mix(mix(mix(s) ^ (uint64_t)run) ^ round) >> 33;
}

/* The file of episode n. */
static size_t file_of(uint64_t s, uint64_t n, size_t nfiles)
{
    return (size_t)(mix(mix(s ^ 0x6e69676874u) ^ n) % nfiles);
}

/* ========================================================= the night */

struct toolfile {
    const char *path;
    doc *d;
    toolset *ts;
    arena *a;               /* its policy table */
    const policy_tools *pt;
    char *rel;              /* its path relative to OUT_DIR */
};

struct run {
    char name[48];
    const policy *p;
    const struct toolfile *tf;
    unsigned long long episodes, calls, reached, pass;
};

struct outfile {
    char *path;
    FILE *f;
    unsigned char *declared; /* per run: its run line is written */
};

/* An open episode, one place of the K. */
struct episode {
    int open;
    uint64_t n;
    struct run *run;
    struct outfile *out;
    char name[24];
    arena *a; /* the task, the policy's values, the calls and answers */
    task *t;
    sim *sim;
    const policy_task *pt;
    policy_state *ps;
    enum policy_reply kind; /* the last answer's */
    const value *last;
    unsigned calls;
};

struct night {
    uint64_t seed, nepisodes;
    size_t nruns, nopen, nfiles, ntools;
    int same_tasks; /* every run's round r: the same seed */
    struct toolfile *tools;
    struct run *runs;
    struct outfile *outs;
    struct episode *eps;
    arm arms[POLICY_NARMS];
    uint64_t next; /* the next episode to begin */
    buf line, call;
    sim_result res;
};

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "nightgen: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    return -1;
}

static int nomem(void)
{
    return fail("out of memory", NULL);
}

/* Writes the line in n->line (a newline added) to out. */
static int emit(struct night *n, struct outfile *out)
{
    if (buf_putc(&n->line, '\n') < 0)
        return nomem();
    if (fwrite(n->line.data, 1, n->line.len, out->f) != n->line.len)
        return fail(out->path, strerror(errno));
    return 0;
}

/* {"type":"KIND","run":R,"episode":E  into n->line (E: NULL for none) */
static int head(struct night *n, const char *kind, const struct run *r,
                const char *episode)
{
    buf *b = &n->line;
    buf_reset(b);
    buf_printf(b, "{\"type\":\"%s\",\"run\":", kind);
    canon_write_string(b, r->name, strlen(r->name));
    if (episode) {
        buf_puts(b, ",\"episode\":");
        canon_write_string(b, episode, strlen(episode));
    }
    return b->failed ? nomem() : 0;
}

/* The run line of r, unless out has it already. */
static int declare(struct night *n, struct run *r, struct outfile *out)
{
    size_t i = (size_t)(r - n->runs);
    if (out->declared[i])
        return 0;
    out->declared[i] = 1;
    if (head(n, "run", r, NULL) < 0)
        return -1;
    buf *b = &n->line;
    buf_puts(b, ",\"tools\":");
    canon_write_string(b, r->tf->rel, strlen(r->tf->rel));
    buf_printf(b, ",\"tools_sha256\":\"%s\",\"model\":\"scripted-%s\"}",
               r->tf->d->file_sha256, policy_name(r->p));
    return b->failed ? nomem() : emit(n, out);
}

static void close_episode(struct episode *ep)
{
    sim_free(ep->sim);
    arena_free(ep->a);
    ep->sim = NULL;
    ep->a = NULL;
    ep->open = 0;
}

/* Begins episode n->next in ep: its run line if due, its episode line. */
static int begin(struct night *n, struct episode *ep)
{
    uint64_t k = n->next++;
    struct run *r = &n->runs[k % n->nruns];
    uint64_t m = k / n->nruns; /* the run's m-th episode */
    const arm *arm = &n->arms[m % POLICY_NARMS];
    uint64_t seed = seed_of(n->seed, n->same_tasks ? 0 : (size_t)(r - n->runs),
                            m / POLICY_NARMS);
    err e;
    err_clear(&e);
    memset(ep, 0, sizeof *ep);
    ep->n = k;
    ep->run = r;
    ep->out = &n->outs[file_of(n->seed, k, n->nfiles)];
    snprintf(ep->name, sizeof ep->name, "e%06llu", (unsigned long long)k);
    if (!(ep->a = arena_new()))
        return nomem();
    ep->open = 1;
    value *tv;
    const char *why = NULL;
    if (task_make(&ep->t, ep->a, r->tf->ts, seed, arm, &e) < 0 ||
        sim_new(&ep->sim, r->tf->ts, ep->t, &e) < 0)
        return fail(r->tf->path, e.msg);
    if (!(tv = task_to_value(ep->a, ep->t, GENERATOR_VERSION)))
        return nomem();
    if (!(ep->pt = policy_task_read(ep->a, tv, r->tf->pt, &why)))
        return why ? fail(r->tf->path, why) : nomem();
    if (!(ep->ps = policy_begin(ep->a)))
        return nomem();
    ep->kind = POLICY_NONE;
    if (declare(n, r, ep->out) < 0 || head(n, "episode", r, ep->name) < 0)
        return -1;
    char arm_text[ARM_ID_MAX];
    arm_id(arm, arm_text);
    if (buf_printf(&n->line, ",\"seed\":%llu,\"arm\":\"%s\"}",
                   (unsigned long long)seed, arm_text) < 0)
        return nomem();
    return emit(n, ep->out);
}

/* The call in one of the four shapes, into n->call.  The arguments are
 * canonical JSON (as text for OpenAI); ids count the episode's calls. */
static int shape_call(struct night *n, const struct episode *ep,
                      const policy_call *c, err *e)
{
    buf args = BUF_INIT;
    buf *b = &n->call;
    unsigned id = ep->calls + 1;
    buf_reset(b);
    if (canon_write(&args, c->args, e) < 0) {
        buf_free(&args);
        return fail("cannot write a call", e->msg);
    }
    switch ((ep->n + ep->calls) % 4) {
    case 0: /* plain */
        buf_puts(b, "{\"name\":");
        canon_write_string(b, c->tool, strlen(c->tool));
        buf_puts(b, ",\"arguments\":");
        buf_append(b, args.data, args.len);
        buf_putc(b, '}');
        break;
    case 1: /* an OpenAI tool_call */
        buf_printf(b, "{\"id\":\"call_%u\",\"type\":\"function\","
                      "\"function\":{\"name\":", id);
        canon_write_string(b, c->tool, strlen(c->tool));
        buf_puts(b, ",\"arguments\":");
        canon_write_string(b, args.data, args.len);
        buf_puts(b, "}}");
        break;
    case 2: /* an Anthropic tool_use */
        buf_printf(b, "{\"type\":\"tool_use\",\"id\":\"toolu_%u\","
                      "\"name\":", id);
        canon_write_string(b, c->tool, strlen(c->tool));
        buf_puts(b, ",\"input\":");
        buf_append(b, args.data, args.len);
        buf_putc(b, '}');
        break;
    default: /* an MCP tools/call */
        buf_printf(b, "{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":"
                      "\"tools/call\",\"params\":{\"name\":", id);
        canon_write_string(b, c->tool, strlen(c->tool));
        buf_puts(b, ",\"arguments\":");
        buf_append(b, args.data, args.len);
        buf_puts(b, "}}");
        break;
    }
    int failed = args.failed || b->failed;
    buf_free(&args);
    return failed ? nomem() : 0;
}

/* Writes the next line of the open episode ep: a call, or its end. */
static int step(struct night *n, struct episode *ep)
{
    struct run *r = ep->run;
    policy_call c;
    err e;
    err_clear(&e);
    int go = policy_next(r->p, ep->pt, ep->kind, ep->last, ep->ps, ep->a, &c);
    if (go < 0)
        return nomem();
    if (go == 0) { /* the end */
        sim_verdict v;
        sim_judge(ep->sim, &v);
        r->episodes++;
        r->calls += v.calls;
        r->reached += v.reached != 0;
        r->pass += v.pass != 0;
        if (head(n, "end", r, ep->name) < 0)
            return -1;
        if (buf_puts(&n->line, ",\"status\":\"done\"}") < 0)
            return nomem();
        int rc = emit(n, ep->out);
        close_episode(ep);
        return rc;
    }
    if (ep->calls == POLICY_MAX_CALLS)
        return fail("the policy made too many calls", policy_name(r->p));

    /* The simulator answers the call as the replayer will read it. */
    value *cv, *answer;
    call_view view;
    if (shape_call(n, ep, &c, &e) < 0)
        return -1;
    if (json_load(&cv, ep->a, n->call.data, n->call.len, &e) < 0 ||
        call_read(&view, ep->a, cv, &e) < 0 ||
        sim_call(ep->sim, view.name, view.name_len, view.args, view.bad_args,
                 &n->res, &e) < 0)
        return e.code == ERR_NOMEM ? nomem() : fail("a call", e.msg);
    if (json_load(&answer, ep->a, n->res.answer.data, n->res.answer.len,
                  &e) < 0)
        return e.code == ERR_NOMEM ? nomem()
                                   : fail("an answer is not JSON", e.msg);
    ep->kind = policy_classify(r->tf->pt, answer);
    ep->last = answer;
    ep->calls++;

    if (head(n, "call", r, ep->name) < 0)
        return -1;
    buf *b = &n->line;
    buf_puts(b, ",\"call\":");
    buf_append(b, n->call.data, n->call.len);
    buf_puts(b, ",\"answer\":");
    buf_append(b, n->res.answer.data, n->res.answer.len);
    buf_putc(b, '}');
    return b->failed ? nomem() : emit(n, ep->out);
}

/* Plays the night: each turn, a line of each place in turn. */
static int play(struct night *n)
{
    for (;;) {
        int any = 0;
        for (size_t i = 0; i < n->nopen; i++) {
            struct episode *ep = &n->eps[i];
            int rc = 0;
            if (ep->open)
                rc = step(n, ep);
            else if (n->next < n->nepisodes)
                rc = begin(n, ep);
            else
                continue;
            if (rc < 0)
                return -1;
            any = 1;
        }
        if (!any)
            return 0;
    }
}

/* ============================================================ set up */

/* The path of target (absolute, canonical) from folder dir (the same). */
static char *relative(const char *target, const char *dir)
{
    size_t common = 0; /* the length of their common folders */
    for (size_t i = 0;; i++) {
        int tend = target[i] == '/' || target[i] == '\0';
        int dend = dir[i] == '/' || dir[i] == '\0';
        if (tend && dend)
            common = i;
        if (target[i] != dir[i] || !target[i] || !dir[i])
            break;
    }
    buf b = BUF_INIT;
    for (const char *p = dir + common; *p; p++)
        if (*p == '/' && p[1])
            buf_puts(&b, "../");
    buf_puts(&b, target + common + (target[common] == '/'));
    if (b.failed || !b.data) {
        buf_free(&b);
        return NULL;
    }
    return b.data;
}

static int load_tool(struct toolfile *tf, const char *out_abs)
{
    err e;
    err_clear(&e);
    if (doc_load_file(&tf->d, tf->path, &e) < 0 ||
        toolset_build(&tf->ts, tf->d, &e) < 0) {
        char line[1600];
        err_format(&e, tf->path, line, sizeof line);
        fprintf(stderr, "nightgen: %s\n", line);
        return -1;
    }
    for (int depth = 1; depth <= 3; depth++)
        if (task_check_depth(tf->ts, depth, &e) < 0)
            return fail(tf->path, e.msg);
    if (!(tf->a = arena_new()) ||
        !(tf->pt = policy_tools_from_toolset(tf->a, tf->ts)))
        return nomem();
    char *abs = realpath(tf->path, NULL);
    if (!abs)
        return fail(tf->path, strerror(errno));
    tf->rel = relative(abs, out_abs);
    free(abs);
    return tf->rel ? 0 : nomem();
}

static int open_outs(struct night *n, const char *dir)
{
    int width = n->nfiles > 100 ? 3 : 2;
    for (size_t j = 0; j < n->nfiles; j++) {
        struct outfile *o = &n->outs[j];
        buf p = BUF_INIT;
        if (buf_printf(&p, "%s/night-%0*zu.jsonl", dir, width, j) < 0) {
            buf_free(&p);
            return nomem();
        }
        o->path = p.data;
        if (!(o->declared = calloc(n->nruns, 1)))
            return nomem();
        if (!(o->f = fopen(o->path, "w")))
            return fail(o->path, strerror(errno));
        if (setvbuf(o->f, NULL, _IOFBF, OUT_BUFFER) != 0)
            return fail(o->path, "cannot set its buffer");
    }
    return 0;
}

/* Closes the files; -1 when one could not be written. */
static int close_outs(struct night *n)
{
    int rc = 0;
    for (size_t j = 0; n->outs && j < n->nfiles; j++) {
        struct outfile *o = &n->outs[j];
        if (o->f && fclose(o->f) != 0 && rc == 0)
            rc = fail(o->path, strerror(errno));
        o->f = NULL;
    }
    return rc;
}

static void night_free(struct night *n)
{
    for (size_t i = 0; n->eps && i < n->nopen; i++)
        close_episode(&n->eps[i]);
    free(n->eps);
    close_outs(n);
    for (size_t j = 0; n->outs && j < n->nfiles; j++) {
        free(n->outs[j].path);
        free(n->outs[j].declared);
    }
    free(n->outs);
    for (size_t i = 0; n->tools && i < n->ntools; i++) {
        struct toolfile *tf = &n->tools[i];
        free(tf->rel);
        arena_free(tf->a);
        toolset_free(tf->ts);
        doc_free(tf->d);
    }
    free(n->tools);
    free(n->runs);
    buf_free(&n->line);
    buf_free(&n->call);
    buf_free(&n->res.answer);
    buf_free(&n->res.arguments);
}

static void summary(const struct night *n)
{
    unsigned long long e = 0, c = 0, re = 0, pa = 0;
    for (size_t i = 0; i < n->nruns; i++) {
        const struct run *r = &n->runs[i];
        printf("%s %s: %llu episodes, %llu calls, %llu reached, %llu pass\n",
               r->name, r->tf->path, r->episodes, r->calls, r->reached,
               r->pass);
        e += r->episodes;
        c += r->calls;
        re += r->reached;
        pa += r->pass;
    }
    printf("total: %llu episodes, %llu calls, %llu reached, %llu pass; "
           "%zu file%s\n",
           e, c, re, pa, n->nfiles, n->nfiles == 1 ? "" : "s");
}

static const char usage[] =
    "usage: nightgen [--seed S] [--episodes N] [--runs R] [--interleave K] "
    "[--files F] [--same-tasks] OUT_DIR TOOLFILE...\n";

/* A number of the command line in [lo, hi]. */
static int number(const char *opt, const char *text, unsigned long long lo,
                  unsigned long long hi, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "nightgen: %s takes a number from %llu to %llu, "
                        "not '%s'\n%s",
                opt, lo, hi, text, usage);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long long seed = 1, episodes = 10000, runs = 6, open = 8,
                       files = 1;
    int same_tasks = 0;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--same-tasks") == 0) {
            same_tasks = 1;
            continue;
        }
        unsigned long long *to = strcmp(o, "--seed") == 0         ? &seed
                                 : strcmp(o, "--episodes") == 0   ? &episodes
                                 : strcmp(o, "--runs") == 0       ? &runs
                                 : strcmp(o, "--interleave") == 0 ? &open
                                 : strcmp(o, "--files") == 0      ? &files
                                                                  : NULL;
        if (strcmp(o, "--") == 0) {
            i++;
            break;
        }
        if (!to || i + 1 == argc) {
            fprintf(stderr, "nightgen: %s '%s'\n%s",
                    to ? "no value after" : "unknown option", o, usage);
            return 2;
        }
        unsigned long long lo = to == &seed || to == &episodes ? 0 : 1;
        unsigned long long hi = to == &runs    ? MAX_RUNS
                                : to == &open  ? MAX_OPEN
                                : to == &files ? MAX_FILES
                                               : UINT64_MAX;
        if (number(o, argv[i + 1], lo, hi, to) < 0)
            return 2;
        i++;
    }
    if (argc - i < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *dir = argv[i++];

    struct night n;
    memset(&n, 0, sizeof n);
    n.seed = seed;
    n.same_tasks = same_tasks;
    n.nepisodes = episodes;
    n.nruns = (size_t)runs;
    n.nopen = (size_t)open;
    n.nfiles = (size_t)files;
    n.ntools = (size_t)(argc - i);
    n.res.error = -1;
    n.res.event = -1;
    for (size_t k = 0; k < POLICY_NARMS; k++) {
        err e;
        err_clear(&e);
        if (arm_parse(&n.arms[k], policy_arms[k], strlen(policy_arms[k]),
                      &e) < 0) {
            fail("a bad arm in the matrix", e.msg);
            return 1;
        }
    }

    int rc = 0;
    char *out_abs = NULL;
    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        rc = fail(dir, strerror(errno));
    else if (!(out_abs = realpath(dir, NULL)))
        rc = fail(dir, strerror(errno));
    if (rc == 0 && (!(n.tools = calloc(n.ntools, sizeof *n.tools)) ||
                    !(n.runs = calloc(n.nruns, sizeof *n.runs)) ||
                    !(n.outs = calloc(n.nfiles, sizeof *n.outs)) ||
                    !(n.eps = calloc(n.nopen, sizeof *n.eps))))
        rc = nomem();
    for (size_t k = 0; rc == 0 && k < n.ntools; k++) {
        n.tools[k].path = argv[i + (int)k];
        rc = load_tool(&n.tools[k], out_abs);
    }
    free(out_abs);
    for (size_t k = 0; rc == 0 && k < n.nruns; k++) {
        struct run *r = &n.runs[k];
        r->p = policy_at(k % policy_count());
        r->tf = &n.tools[k % n.ntools];
        snprintf(r->name, sizeof r->name, "r%02zu-%s", k, policy_name(r->p));
    }
    if (rc == 0)
        rc = open_outs(&n, dir);
    if (rc == 0)
        rc = play(&n);
    if (close_outs(&n) < 0)
        rc = -1;
    if (rc == 0) {
        summary(&n);
        if (fflush(stdout) != 0)
            rc = fail("cannot write to standard output", strerror(errno));
    }
    night_free(&n);
    return rc < 0 ? 1 : 0;
}
