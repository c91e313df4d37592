/* replay sim: the simulator driven live.  Reads one call a line on
 * standard input and writes, for each, one line on standard output: the
 * answer the agent receives, in the tool file's idiom.  Optionally writes
 * the transcript `replay` reads (docs/transcript.md) and a report of what
 * each call did and the episode's verdict. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "call.h"
#include "canon.h"
#include "cli.h"
#include "cmds.h"
#include "json_load.h"
#include "live.h"
#include "sim.h"
#include "task.h"
#include "transcript.h"
#include "vbuild.h"

struct session {
    const char *path; /* the tool file, as named */
    const char *run, *episode, *model;
    FILE *transcript, *report;
    const char *transcript_path, *report_path;
    const toolset *ts;
    const task *t;
    sim *sim;
    int failed_write;
    unsigned calls; /* answered so far */
    /* why the episode ended before standard input did (a call that
     * cannot be recorded once answered, or answered at all), or "" */
    char cut[600];
    unsigned long cut_line;
};

static void emit(struct session *s, FILE *f, const char *what, buf *line)
{
    if (!f || s->failed_write)
        return;
    if (buf_putc(line, '\n') < 0 || fwrite(line->data, 1, line->len, f) !=
                                         line->len ||
        fflush(f) != 0) {
        say("replay sim: cannot write the %s %s: %s", what,
            f == s->transcript ? s->transcript_path : s->report_path,
            strerror(errno));
        s->failed_write = 1;
    }
}

static void begin(struct session *s)
{
    buf b = BUF_INIT;
    if (s->transcript) {
        char *rel = live_relative_to(s->path, s->transcript_path);
        if (live_run_line(&b, s->run, rel ? rel : s->path,
                          s->ts->doc->file_sha256, s->model) == 0)
            emit(s, s->transcript, "transcript", &b);
        free(rel);
        buf_reset(&b);
        if (live_episode_line(&b, s->run, s->episode, s->t) == 0)
            emit(s, s->transcript, "transcript", &b);
    }
    buf_free(&b);
}

/* A line that is no call gets an error back, in the file's idiom, and
 * the session goes on: 0, or -1 out of memory or stdout closed. */
static int refuse_line(struct session *s, const char *msg, sim_result *r)
{
    buf_reset(&r->answer);
    if (answer_error(&r->answer, s->ts->format, SIM_INVALID_ARGUMENTS,
                     msg) < 0)
        return -1;
    fwrite(r->answer.data, 1, r->answer.len, stdout);
    putchar('\n');
    return fflush(stdout) != 0 ? -1 : 0;
}

/* Reads a line of standard input into *line (with its newline), keeping at
 * most TRANSCRIPT_LINE_LIMIT + 2 bytes of it; *full is its whole length
 * without the newline.  The length kept, or -1 at the end. */
static ssize_t read_line(FILE *in, char **line, size_t *cap, size_t *full)
{
    size_t len = 0, keep = TRANSCRIPT_LINE_LIMIT + 2;
    int c;
    *full = 0;
    while ((c = getc_unlocked(in)) != EOF) {
        if (len + 2 > *cap && len < keep) {
            size_t want = *cap ? 2 * *cap : 4096;
            char *more = realloc(*line, want > keep + 1 ? keep + 1 : want);
            if (!more)
                return -1;
            *line = more;
            *cap = want > keep + 1 ? keep + 1 : want;
        }
        if (len < keep)
            (*line)[len++] = (char)c;
        if (c == '\n')
            break;
        ++*full;
    }
    if (c == EOF && *full == 0)
        return -1;
    (*line)[len] = '\0';
    return (ssize_t)len;
}

/* Answers line number n (no newline), writing one line to stdout; -1 out
 * of memory or stdout closed, -2 when the episode ends at it (said, and
 * the reason kept in s->cut). */
static int one_line(struct session *s, const char *text, size_t len,
                    unsigned long n, sim_result *r)
{
    arena *a = arena_new();
    value *v = NULL;
    call_view c;
    err e;
    err_clear(&e);
    buf b = BUF_INIT, call = BUF_INIT, why = BUF_INIT;
    int rc = a ? 0 : -1;
    if (rc == 0 && (json_load(&v, a, text, len, &e) < 0 ||
                    call_read(&c, a, v, &e) < 0 ||
                    canon_append_loose(&call, v, &e) < 0)) {
        if (e.code == ERR_NOMEM) {
            rc = -1;
        } else {
            /* not a call: an error back, and the session goes on */
            char msg[700];
            snprintf(msg, sizeof msg, "line %lu is not a call: %s", n, e.msg);
            say("replay sim: <stdin>:%lu: %s", n, e.msg);
            rc = refuse_line(s, msg, r);
            goto done;
        }
    }
    /* The call as its transcript line holds it, written by us from the
     * values read, never the line's own bytes; a call whose line replay
     * could not read is refused before the simulator sees it, whether a
     * transcript is written or not, so that the same calls always get the
     * same answers. */
    int fits = rc == 0 ? live_call_fits(s->run, s->episode, call.data,
                                        call.len, &why)
                       : 1;
    if (fits < 0)
        rc = -1;
    if (fits == 0) {
        char msg[700];
        snprintf(msg, sizeof msg, "line %lu: %s", n, why.data);
        say("replay sim: <stdin>:%lu: %s", n, why.data);
        rc = refuse_line(s, msg, r);
        goto done;
    }
    if (rc == 0 &&
        sim_call(s->sim, c.name, c.name_len, c.args, c.bad_args, r, &e) < 0) {
        /* a schema no answer can be drawn from, or no memory: the state
         * may hold the call, which the transcript cannot */
        snprintf(s->cut, sizeof s->cut, "%s%s",
                 e.code == ERR_NOMEM ? "out of memory" : "cannot answer: ",
                 e.code == ERR_NOMEM ? "" : e.msg);
        rc = -2;
        goto done;
    }
    size_t line = rc == 0 ? live_call_line_size(s->run, s->episode, call.len,
                                                r->answer.len)
                          : 0;
    if (line == SIZE_MAX) {
        rc = -1;
    } else if (line > TRANSCRIPT_LINE_LIMIT) {
        snprintf(s->cut, sizeof s->cut,
                 "its answer of %zu bytes makes a transcript line of %zu, "
                 "longer than the %u MiB replay reads",
                 r->answer.len, line, TRANSCRIPT_LINE_LIMIT >> 20);
        rc = -2;
        goto done;
    }
    if (rc == 0)
        s->calls++;
    if (rc == 0) {
        fwrite(r->answer.data, 1, r->answer.len, stdout);
        putchar('\n');
    }
    if (rc == 0 && s->transcript) {
        rc = live_call_line(&b, s->run, s->episode, call.data, call.len,
                            r->answer.data, r->answer.len);
        if (rc == 0)
            emit(s, s->transcript, "transcript", &b);
    }
    if (rc == 0 && s->report) {
        buf_reset(&b);
        rc = live_report_call(&b, NULL, s->calls, n, s->t, r);
        if (rc == 0)
            emit(s, s->report, "report", &b);
    }
done:
    if (rc == -2) {
        s->cut_line = n;
        say("replay sim: <stdin>:%lu: %s; the episode ends here, unfinished",
            n, s->cut);
    }
    if (fflush(stdout) != 0)
        rc = -1;
    buf_free(&b);
    buf_free(&call);
    buf_free(&why);
    arena_free(a);
    return rc;
}

static void finish(struct session *s)
{
    sim_verdict v;
    sim_judge(s->sim, &v);
    buf b = BUF_INIT;
    /* an episode that ended early has no end line: unfinished, and what
     * it did after is not known, so it is no pass (as replay judges it) */
    if (s->cut[0])
        v.pass = 0;
    if (s->transcript && !s->cut[0] &&
        live_end_line(&b, s->run, s->episode, "done") == 0)
        emit(s, s->transcript, "transcript", &b);
    buf_reset(&b);
    if (s->report && live_report_verdict(&b, NULL, s->t, &v) == 0)
        emit(s, s->report, "report", &b);
    buf_reset(&b);
    if (live_verdict_summary(&b, s->t, &v) == 0 &&
        (!s->cut[0] || buf_printf(&b, "; unfinished: line %lu", s->cut_line) ==
                           0) &&
        buf_putc(&b, '\0') == 0)
        fprintf(stderr, "replay sim: %s\n", b.data);
    buf_free(&b);
}

static const char sim_usage[] =
    "sim FILE [--seed N] [--arm ARM] [--transcript OUT.jsonl "
    "[--run R] [--episode E] [--model M]] [--report OUT.jsonl]";

int cmd_sim(int argc, char **argv)
{
    struct session s = {0};
    const char *seed_text = "1", *arm_text = "base";
    char own_id[LIVE_ID_SIZE]; /* the episode id chosen here, when not
                                  given */
    s.run = "sim";
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        int has = i + 1 < argc;
        if (strcmp(o, "--seed") == 0 && has)
            seed_text = argv[++i];
        else if (strcmp(o, "--arm") == 0 && has)
            arm_text = argv[++i];
        else if (strcmp(o, "--transcript") == 0 && has)
            s.transcript_path = argv[++i];
        else if (strcmp(o, "--run") == 0 && has)
            s.run = argv[++i];
        else if (strcmp(o, "--episode") == 0 && has)
            s.episode = argv[++i];
        else if (strcmp(o, "--model") == 0 && has)
            s.model = argv[++i];
        else if (strcmp(o, "--report") == 0 && has)
            s.report_path = argv[++i];
        else if (o[0] == '-')
            return usage_error("sim: unknown option '%s' (usage: %s)", o,
                               sim_usage);
        else if (s.path)
            return usage_error("sim: one FILE at a time");
        else
            s.path = o;
    }
    if (!s.path)
        return usage_error("sim: no FILE given (usage: %s)", sim_usage);
    if (strcmp(s.path, "-") == 0)
        return usage_error("sim: the tool file cannot be standard input, "
                           "which carries the calls");
    uint64_t seed;
    if (task_seed_parse(seed_text, &seed) < 0)
        return usage_error("sim: --seed takes a number from 0 to 2^63 - 1, "
                           "not '%s'", seed_text);
    arm arm;
    size_t narms;
    if (parse_arms(arm_text, &arm, 1, &narms) != 0)
        return EXIT_USAGE;

    doc *d = NULL;
    toolset *ts = NULL;
    if (load_tools(s.path, &d, &ts) < 0)
        return EXIT_REFUSED;
    arena *a = arena_new();
    task *t = NULL;
    err e;
    err_clear(&e);
    int status = 0;
    if (!a || task_make(&t, a, ts, seed, &arm, &e) < 0 ||
        sim_new(&s.sim, ts, t, &e) < 0) {
        say("replay: %s: %s", s.path, a ? e.msg : "out of memory");
        status = EXIT_REFUSED;
        goto out;
    }
    s.ts = ts;
    s.t = t;
    if (!s.episode && live_episode_id(own_id, t->id) < 0) {
        say("replay sim: no random bytes for the episode's id: %s",
            strerror(errno));
        status = EXIT_REFUSED;
        goto out;
    }
    if (!s.episode)
        s.episode = own_id;
    if (s.transcript_path &&
        !(s.transcript = live_open_output(s.transcript_path, "a"))) {
        say("replay sim: cannot open the transcript %s: %s",
            s.transcript_path, strerror(errno));
        status = EXIT_REFUSED;
        goto out;
    }
    if (s.report_path && !(s.report = live_open_output(s.report_path, "w"))) {
        say("replay sim: cannot open the report %s: %s",
            s.report_path, strerror(errno));
        status = EXIT_REFUSED;
        goto out;
    }
    begin(&s);
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned long n = 0;
    sim_result r = {.answer = BUF_INIT, .arguments = BUF_INIT, .error = -1, .event = -1};
    size_t full;
    while ((got = read_line(stdin, &line, &cap, &full)) >= 0) {
        n++;
        size_t len = (size_t)got;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (full > TRANSCRIPT_LINE_LIMIT) {
            /* the same limit as replay's: refused, and the session goes on */
            char msg[160];
            snprintf(msg, sizeof msg,
                     "line %lu is %zu bytes, longer than the limit of %u MiB "
                     "for a line", n, full, TRANSCRIPT_LINE_LIMIT >> 20);
            say("replay sim: <stdin>:%lu: %s", n, msg);
            if (refuse_line(&s, msg, &r) < 0) {
                status = EXIT_REFUSED;
                break;
            }
            continue;
        }
        if (strspn(line, " \t") >= len)
            continue; /* a blank line is no call */
        int rc = one_line(&s, line, len, n, &r);
        if (rc < 0) {
            if (rc == -1)
                say("replay sim: <stdin>:%lu: out of memory, or "
                    "standard output is closed", n);
            status = EXIT_REFUSED;
            break;
        }
    }
    free(line);
    buf_free(&r.answer);
    buf_free(&r.arguments);
    finish(&s);
    if (s.failed_write)
        status = EXIT_REFUSED;
out:
    if (s.transcript && live_close_output(s.transcript) != 0)
        status = EXIT_REFUSED;
    if (s.report && live_close_output(s.report) != 0)
        status = EXIT_REFUSED;
    sim_free(s.sim);
    arena_free(a);
    toolset_free(ts);
    doc_free(d);
    return status;
}
