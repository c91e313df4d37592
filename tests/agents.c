/*
 * agents: a scripted agent harness.  It plays an episode of `replay sim`
 * with one of a few fixed policies and prints the episode's verdict in
 * one line:
 *
 *   agents REPLAY TOOLFILE SEED ARM POLICY
 *
 * ARM and POLICY may also be comma-separated lists, or "all" (every arm
 * of the test matrix, every policy): every policy then plays every arm,
 * one episode each, one line each, policies first; the tool table and
 * the tasks are then fetched once.
 *
 * It gets the task with `REPLAY tasks TOOLFILE --seeds SEED --arms ARM`,
 * finds the check read in `REPLAY tools --json TOOLFILE`, starts
 * `REPLAY sim TOOLFILE --seed SEED --arm ARM --report TMP` on two pipes
 * and plays the policy call by call: it writes a call line, reads the
 * answer line and lets the policy choose the next call from it.  When
 * the policy stops, it closes the simulator's input, waits for it, and
 * prints from the report's verdict:
 *
 *   POLICY ARM reached=R pass=P side_effects=N duplicates=N
 *       errors=code:n,code:n dials=dial:outcome,dial:outcome
 *
 * (one line; errors sorted by code, dials in the task's event order, "-"
 * for none; R and P are true or false).  Exit status 0, or 1 when the
 * episode could not be played (said on standard error), 2 on a usage
 * error.  tests/policies.sh runs the matrix of policies and arms.
 *
 * With AGENTS_TRANSCRIPT=FILE and AGENTS_RUN=R in the environment, each
 * episode is also appended to FILE as run R, episode POLICY-ARM-sSEED,
 * with AGENTS_MODEL as the run's model if set (samples/night is made so).
 *
 * The policies are those of tests/policy.c, which do no input or output
 * (tests/nightgen drives the simulator with them in process).
 */
#define _POSIX_C_SOURCE 200809L /* getline, fdopen, mkstemp, posix_spawn */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "canon.h"
#include "err.h"
#include "json_load.h"
#include "policy.h"
#include "value.h"
#include "vbuild.h"

extern char **environ;

static int str_is(const value *v, const char *s)
{
    return v && v->kind == V_STRING && v->u.str.len == strlen(s) &&
           memcmp(v->u.str.ptr, s, v->u.str.len) == 0;
}

/* ========================================================== processes */

/* Starts argv (no shell, posix_spawn) with the descriptors in[0],
 * out[1] and log as its standard input, output and error (-1: ours), and
 * the others of in, out closed in it. */
static int spawn(pid_t *pid, char *const argv[], const int in[2],
                 const int out[2], int log)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    int rc = 0;
    if (in[0] >= 0)
        rc |= posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    rc |= posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    if (log >= 0)
        rc |= posix_spawn_file_actions_adddup2(&fa, log, STDERR_FILENO);
    const int fds[] = {in[0], in[1], out[0], out[1], log};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (fds[i] > STDERR_FILENO)
            rc |= posix_spawn_file_actions_addclose(&fa, fds[i]);
    int why = rc == 0 ? posix_spawn(pid, argv[0], &fa, NULL, argv, environ)
                      : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    if (why != 0) {
        fprintf(stderr, "agents: cannot run %s: %s\n", argv[0], strerror(why));
        return -1;
    }
    return 0;
}

/* Waits for pid; 0 when it exited 0. */
static int reap(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Runs argv with its output in out; its standard error is ours.  0 when
 * it exits 0. */
static int capture(char *const argv[], buf *out)
{
    int none[2] = {-1, -1}, fd[2];
    pid_t pid;
    if (pipe(fd) < 0)
        return -1;
    if (spawn(&pid, argv, none, fd, -1) < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    close(fd[1]);
    int rc = 0;
    char chunk[4096];
    for (;;) {
        ssize_t n = read(fd[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc |= n < 0 ? -1 : 0;
            break;
        }
        if (buf_append(out, chunk, (size_t)n) < 0) {
            rc = -1;
            break;
        }
    }
    close(fd[0]);
    return reap(pid) == 0 && rc == 0 ? 0 : -1;
}

/* The simulator, running. */
struct child {
    pid_t pid;
    FILE *to, *from;
};

/* Starts argv with its input and output on pipes, its standard error
 * in the file log. */
static int start(struct child *c, char *const argv[], int log)
{
    int in[2], out[2];
    if (pipe(in) < 0)
        return -1;
    if (pipe(out) < 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    if (spawn(&c->pid, argv, in, out, log) < 0) {
        c->pid = 0;
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -1;
    }
    close(in[0]);
    close(out[1]);
    c->to = fdopen(in[1], "w");
    c->from = fdopen(out[0], "r");
    if (!c->to || !c->from) {
        if (c->to)
            fclose(c->to);
        else
            close(in[1]);
        if (c->from)
            fclose(c->from);
        else
            close(out[0]);
        c->to = c->from = NULL;
        reap(c->pid);
        c->pid = 0;
        return -1;
    }
    return 0;
}

/* Closes the child's input and output and waits for it; 0 when it
 * exited 0. */
static int finish(struct child *c)
{
    int rc = 0;
    if (c->to && fclose(c->to) != 0)
        rc = -1;
    if (c->from)
        fclose(c->from);
    c->to = c->from = NULL;
    if (c->pid <= 0)
        return rc;
    int status = reap(c->pid);
    c->pid = 0;
    return rc == 0 && status == 0 ? 0 : -1;
}

/* ============================================================ episode */

struct run {
    const char *replay, *file, *seed;
    const policy_tools *tools; /* `tools --json` */
    char report[64], log[64];
};

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "agents: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    return -1;
}

/* Makes the report and log files the simulator writes. */
static int make_temps(struct run *r)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > 40)
        tmp = "/tmp";
    snprintf(r->report, sizeof r->report, "%s/agents-report.XXXXXX", tmp);
    snprintf(r->log, sizeof r->log, "%s/agents-log.XXXXXX", tmp);
    int fd = mkstemp(r->report);
    if (fd < 0) {
        r->report[0] = '\0';
        return fail("cannot make a temporary file", strerror(errno));
    }
    close(fd);
    fd = mkstemp(r->log);
    if (fd < 0) {
        r->log[0] = '\0';
        return fail("cannot make a temporary file", strerror(errno));
    }
    close(fd);
    return 0;
}

/* The log, emptied, for the simulator's standard error. */
static int open_log(const struct run *r)
{
    return open(r->log, O_WRONLY | O_TRUNC);
}

/* Copies the file's text to standard error. */
static void show_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        fputs(line, stderr);
    fclose(f);
}

/* Loads the JSON text of a line (len bytes). */
static int load_text(value **out, arena *a, const char *text, size_t len,
                     const char *what)
{
    err e;
    err_clear(&e);
    if (json_load(out, a, text, len, &e) < 0)
        return fail(what, e.msg);
    return 0;
}

/* Plays the episode through child c; 0 when the policy stopped. */
static int converse(const policy *p, const policy_task *t,
                    const policy_tools *tt, struct child *c, arena *a)
{
    policy_state *s = policy_begin(a);
    enum policy_reply kind = POLICY_NONE;
    const value *last = NULL;
    buf line = BUF_INIT;
    char *answer = NULL;
    size_t cap = 0;
    int rc = s ? 0 : fail("out of memory", NULL);
    for (int calls = 0; rc == 0; calls++) {
        policy_call next;
        int go = policy_next(p, t, kind, last, s, a, &next);
        if (go < 0) {
            rc = fail("out of memory", NULL);
            break;
        }
        if (go == 0)
            break;
        if (calls == POLICY_MAX_CALLS) {
            rc = fail("the policy made too many calls", policy_name(p));
            break;
        }
        err e;
        err_clear(&e);
        value *call = vb_object(a);
        if (vb_put(a, call, "name", vb_str(a, next.tool)) < 0 ||
            vb_put(a, call, "arguments", next.args) < 0) {
            rc = fail("out of memory", NULL);
            break;
        }
        buf_reset(&line);
        if (canon_write(&line, call, &e) < 0 || buf_putc(&line, '\n') < 0) {
            rc = fail("cannot write a call", e.msg);
            break;
        }
        if (fwrite(line.data, 1, line.len, c->to) != line.len ||
            fflush(c->to) != 0) {
            rc = fail("cannot write to the simulator", strerror(errno));
            break;
        }
        ssize_t got = getline(&answer, &cap, c->from);
        if (got <= 0) {
            rc = fail("the simulator gave no answer", NULL);
            break;
        }
        size_t len = (size_t)got;
        while (len && (answer[len - 1] == '\n' || answer[len - 1] == '\r'))
            len--;
        value *v;
        if (load_text(&v, a, answer, len, "an answer is not JSON") < 0) {
            rc = -1;
            break;
        }
        kind = policy_classify(tt, v);
        last = v;
    }
    free(answer);
    buf_free(&line);
    return rc;
}

/* Prints the summary line of policy p on arm from the report's
 * verdict. */
static int summarize(const struct run *r, const char *policy,
                     const char *arm, arena *a)
{
    FILE *f = fopen(r->report, "r");
    if (!f)
        return fail("cannot read the report", strerror(errno));
    char *line = NULL, *verdict_line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0)
        if (strncmp(line, "{\"verdict\":", 11) == 0) {
            free(verdict_line);
            verdict_line = line;
            line = NULL;
            cap = 0;
        }
    free(line);
    fclose(f);
    if (!verdict_line)
        return fail("the report has no verdict", r->report);
    value *doc;
    int rc = load_text(&doc, a, verdict_line, strcspn(verdict_line, "\n"),
                       "the verdict is not JSON");
    free(verdict_line);
    if (rc < 0)
        return -1;
    const value *v = value_getz(doc, "verdict");
    const value *reached = value_getz(v, "reached");
    const value *pass = value_getz(v, "pass");
    const value *se = value_getz(v, "side_effects");
    const value *dup = value_getz(v, "duplicate_writes");
    const value *errors = value_getz(v, "errors");
    const value *dials = value_getz(v, "dials");
    if (!reached || reached->kind != V_BOOL || !pass || pass->kind != V_BOOL ||
        !se || se->kind != V_INT || !dup || dup->kind != V_INT || !errors ||
        errors->kind != V_OBJECT || !dials || dials->kind != V_ARRAY)
        return fail("the verdict lacks a member", NULL);

    buf out = BUF_INIT;
    rc = buf_printf(&out, "%s %s reached=%s pass=%s side_effects=%s "
                          "duplicates=%s errors=",
                    policy, arm, reached->u.b ? "true" : "false",
                    pass->u.b ? "true" : "false", se->u.str.ptr,
                    dup->u.str.ptr);
    /* errors sorted by code: the least code after the last one written */
    size_t n = errors->u.obj.len;
    const char *prev = NULL;
    for (size_t done = 0; done < n && rc == 0; done++) {
        const value_member *best = NULL;
        for (size_t i = 0; i < n; i++) {
            const char *k = errors->u.obj.items[i].key->u.str.ptr;
            if ((!prev || strcmp(k, prev) > 0) &&
                (!best || strcmp(k, best->key->u.str.ptr) < 0))
                best = &errors->u.obj.items[i];
        }
        if (!best || best->val->kind != V_INT) {
            buf_free(&out);
            return fail("the verdict's errors are not counts", NULL);
        }
        rc |= buf_printf(&out, "%s%s:%s", done ? "," : "",
                         best->key->u.str.ptr, best->val->u.str.ptr);
        prev = best->key->u.str.ptr;
    }
    if (n == 0)
        rc |= buf_putc(&out, '-');
    rc |= buf_puts(&out, " dials=");
    for (size_t i = 0; i < dials->u.arr.len && rc == 0; i++) {
        const value *d = dials->u.arr.items[i];
        const value *dial = value_getz(d, "dial");
        const value *outcome = value_getz(d, "outcome");
        if (!dial || dial->kind != V_STRING || !outcome ||
            outcome->kind != V_STRING) {
            buf_free(&out);
            return fail("a dial of the verdict lacks a member", NULL);
        }
        rc |= buf_printf(&out, "%s%s:%s", i ? "," : "", dial->u.str.ptr,
                         outcome->u.str.ptr);
    }
    if (dials->u.arr.len == 0)
        rc |= buf_putc(&out, '-');
    if (rc == 0)
        printf("%s\n", out.data);
    buf_free(&out);
    if (rc != 0)
        return fail("out of memory", NULL);
    return fflush(stdout) == 0 ? 0 : fail("cannot write", strerror(errno));
}

/* Plays one episode: policy p on the task line task_v of arm. */
static int episode(struct run *r, const policy *p, const char *arm,
                   const value *task_v, arena *a)
{
    const char *why;
    const policy_task *t = policy_task_read(a, task_v, r->tools, &why);
    if (!t)
        return fail(why ? why : "out of memory", arm);

    /* AGENTS_TRANSCRIPT and AGENTS_RUN: the simulator also appends the
     * episode (named POLICY-ARM-sSEED) to that transcript, as that run */
    char name[200];
    const char *out = getenv("AGENTS_TRANSCRIPT");
    const char *run_name = getenv("AGENTS_RUN");
    snprintf(name, sizeof name, "%s-%s-s%s", policy_name(p), arm, r->seed);
    const char *model = getenv("AGENTS_MODEL");
    char *sim_argv[] = {(char *)r->replay, "sim", (char *)r->file, "--seed",
                        (char *)r->seed, "--arm", (char *)arm, "--report",
                        r->report, "--transcript", (char *)out, "--run",
                        (char *)run_name, "--episode", name, "--model",
                        (char *)model, NULL};
    if (!out || !run_name)
        sim_argv[9] = NULL;
    else if (!model)
        sim_argv[15] = NULL;
    int log = open_log(r);
    if (log < 0)
        return fail("cannot open the simulator's log", strerror(errno));
    struct child c = {0, NULL, NULL};
    if (start(&c, sim_argv, log) < 0) {
        close(log);
        return fail("cannot start the simulator", strerror(errno));
    }
    close(log);
    int rc = converse(p, t, r->tools, &c, a);
    if (finish(&c) < 0 && rc == 0)
        rc = fail("the simulator failed", arm);
    if (rc < 0) {
        show_file(r->log);
        return -1;
    }
    return summarize(r, policy_name(p), arm, a);
}

/* The items of a comma-separated list (in place), or of all. */
static size_t split(char *list, const char **items, size_t max,
                    const char *const *all, size_t nall)
{
    size_t n = 0;
    if (strcmp(list, "all") == 0) {
        for (n = 0; n < nall && n < max; n++)
            items[n] = all[n];
        return n;
    }
    for (char *p = list; n < max;) {
        char *comma = strchr(p, ',');
        items[n++] = p;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

#define MAX_LIST 64

/* Every episode of the lists, policies first; 0 when all were played. */
static int play_all(struct run *r, const policy **pols, size_t npols,
                    const char **arms, size_t narms, char *arm_list,
                    arena *a)
{
    buf tasks = BUF_INIT, tools = BUF_INIT;
    char *tasks_argv[] = {(char *)r->replay, "tasks", (char *)r->file,
                          "--seeds", (char *)r->seed, "--arms", arm_list,
                          NULL};
    char *tools_argv[] = {(char *)r->replay, "tools", "--json",
                          (char *)r->file, NULL};
    const value *task_of[MAX_LIST] = {NULL};
    value *tv = NULL;
    int rc = 0;
    if (capture(tools_argv, &tools) < 0 || !tools.data)
        rc = fail("`replay tools --json` failed", r->file);
    else if (capture(tasks_argv, &tasks) < 0 || !tasks.data)
        rc = fail("`replay tasks` failed", r->file);
    else if (load_text(&tv, a, tools.data, strcspn(tools.data, "\n"),
                       "the tool table is not JSON") < 0)
        rc = -1;
    if (rc == 0) {
        const char *why;
        r->tools = policy_tools_from_json(a, tv, &why);
        if (!r->tools)
            rc = fail(why ? why : "out of memory", r->file);
    }
    /* one task a line; each is matched to its arm by its "arm" */
    for (char *p = tasks.data; rc == 0 && p && *p;) {
        size_t len = strcspn(p, "\n");
        value *task;
        if (load_text(&task, a, p, len, "a task is not JSON") < 0) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < narms; i++)
            if (str_is(value_getz(task, "arm"), arms[i]) && !task_of[i])
                task_of[i] = task;
        p += len + (p[len] == '\n');
    }
    buf_free(&tasks);
    buf_free(&tools);
    for (size_t i = 0; rc == 0 && i < narms; i++)
        if (!task_of[i])
            rc = fail("`replay tasks` printed no task for the arm", arms[i]);
    for (size_t i = 0; rc == 0 && i < npols; i++)
        for (size_t j = 0; rc == 0 && j < narms; j++)
            rc = episode(r, pols[i], arms[j], task_of[j], a);
    return rc;
}

int main(int argc, char **argv)
{
    size_t npolicies = policy_count();
    if (argc != 6) {
        fprintf(stderr, "usage: agents REPLAY TOOLFILE SEED ARM POLICY\n"
                        "(ARM and POLICY: one, a comma-separated list, or "
                        "all)\npolicies:");
        for (size_t i = 0; i < npolicies; i++)
            fprintf(stderr, " %s", policy_name(policy_at(i)));
        fputc('\n', stderr);
        return 2;
    }
    struct run r = {argv[1], argv[2], argv[3], NULL, "", ""};
    const char *all_policies[MAX_LIST];
    for (size_t i = 0; i < npolicies && i < MAX_LIST; i++)
        all_policies[i] = policy_name(policy_at(i));
    const char *names[MAX_LIST], *arms[MAX_LIST];
    const policy *pols[MAX_LIST];
    buf arm_list = BUF_INIT;
    size_t npols = split(argv[5], names, MAX_LIST, all_policies, npolicies);
    size_t narms = split(argv[4], arms, MAX_LIST, policy_arms, POLICY_NARMS);
    for (size_t i = 0; i < npols; i++) {
        pols[i] = policy_named(names[i]);
        if (!pols[i]) {
            fprintf(stderr, "agents: no policy is named '%s'\n", names[i]);
            return 2;
        }
    }
    for (size_t i = 0; i < narms; i++) {
        if (!*arms[i]) {
            fprintf(stderr, "agents: an empty arm\n");
            buf_free(&arm_list);
            return 2;
        }
        if ((i && buf_putc(&arm_list, ',') < 0) ||
            buf_puts(&arm_list, arms[i]) < 0) {
            buf_free(&arm_list);
            fail("out of memory", NULL);
            return 1;
        }
    }
    signal(SIGPIPE, SIG_IGN); /* a simulator that died: EPIPE, said */
    arena *a = arena_new();
    int rc = a ? make_temps(&r) : fail("out of memory", NULL);
    if (rc == 0)
        rc = play_all(&r, pols, npols, arms, narms, arm_list.data, a);
    if (r.report[0])
        unlink(r.report);
    if (r.log[0])
        unlink(r.log);
    buf_free(&arm_list);
    arena_free(a);
    return rc < 0 ? 1 : 0;
}
