/* logfeed: see logfeed.h. */
#include "logfeed.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "transcript.h"

int log_option(log_opts *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--each-agent") == 0) {
        o->each_agent = 1;
        return 1;
    }
    static const char *const names[] = {"--score", "--task", "--success",
                                        "--reward", "--messages", "--trial",
                                        "--id", "--preset", "--tools-out"};
    size_t k = 0;
    while (k < sizeof names / sizeof *names && strcmp(a, names[k]) != 0)
        k++;
    if (k == sizeof names / sizeof *names)
        return 0;
    if (*i + 1 >= argc) {
        usage_error("%s takes a value", a);
        return -1;
    }
    char *v = argv[++*i];
    switch (k) {
    case 0: o->score = v; break;
    case 1: o->task_key = v; break;
    case 2: {
        char *eq = strchr(v, '=');
        o->success_value = NULL;
        if (eq) {
            *eq = '\0';
            o->success_value = eq + 1;
        }
        o->success_key = v;
        break;
    }
    case 3: o->reward_key = v; break;
    case 4: o->messages_key = v; break;
    case 5: o->trial_key = v; break;
    case 6: o->id_key = v; break;
    case 7:
        if (strcmp(v, "tau-bench") == 0) {
            o->messages_key = "traj";
            o->task_key = "task_id";
            o->trial_key = "trial";
            o->reward_key = "reward";
            o->success_key = "reward";
            o->success_value = "1";
        } else if (strcmp(v, "tau2") == 0) { /* a results file's run, or
                                              one simulations/ID.json */
            o->messages_key = "messages";
            o->task_key = "task_id";
            o->trial_key = "trial";
            o->reward_key = "reward_info.reward";
            o->success_key = "reward_info.reward";
            o->success_value = "1";
            o->no_seed = 1;
        } else {
            usage_error("unknown preset '%s': the presets are tau-bench "
                        "and tau2",
                        v);
            return -1;
        }
        break;
    default: o->tools_out = v; break;
    }
    return 1;
}

struct logfeed {
    log_opts o;
    logr *r;
    log_sink sink;
    night *n;                     /* while a file is fed */
    volatile sig_atomic_t *stop_flag;
    char **said;                  /* problems kept, to say at the end */
    size_t nsaid;
    int failed;                   /* out of memory keeping one */
};

static int feed_line(void *ctx, const char *file, const char *dir,
                     unsigned long line, const char *text, size_t len,
                     err *e)
{
    logfeed *f = ctx;
    if (f->stop_flag && *f->stop_flag)
        return 1;
    /* the limit of a transcript line holds here too: the line `replay
     * import` writes would be read as too long */
    if (len > TRANSCRIPT_LINE_LIMIT)
        return night_long_line(f->n, file, line, text, 4096, len, e);
    return night_line(f->n, file, dir, line, text, len, e);
}

/* feed_line for a line with its tree (log_sink.record). */
static int feed_record(void *ctx, const char *file, const char *dir,
                       unsigned long line, const char *text, size_t len,
                       const value *root, size_t answer_at,
                       size_t answer_len, err *e)
{
    logfeed *f = ctx;
    if (f->stop_flag && *f->stop_flag)
        return 1;
    if (len > TRANSCRIPT_LINE_LIMIT)
        return night_long_line(f->n, file, line, text, 4096, len, e);
    return night_record(f->n, file, dir, line, text, len, root, answer_at,
                        answer_len, e);
}

/* A log's problem: recorded in the database with the night's (every one:
 * where users look), and kept to be said after them when it is among
 * those said one by one. */
static int keep_problem(void *ctx, const log_problem *p, err *e)
{
    logfeed *f = ctx;
    if (night_log_problem(f->n, p->file, p->place, p->run, NULL, p->message,
                          e) < 0)
        return -1;
    if (!p->say)
        return 0;
    char **more = realloc(f->said, (f->nsaid + 1) * sizeof *more);
    char *copy = strdup(p->text);
    if (more)
        f->said = more;
    if (!more || !copy) {
        free(copy);
        f->failed = 1;
        return 0;
    }
    f->said[f->nsaid++] = copy;
    return 0;
}

logfeed *logfeed_new(const log_opts *o, volatile sig_atomic_t *stop_flag)
{
    logfeed *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->o = *o;
    f->stop_flag = stop_flag;
    f->sink.line = feed_line;
    f->sink.record = feed_record;
    f->sink.problem = keep_problem;
    f->sink.ctx = f;
    if (!(f->r = logr_new(&f->o, &f->sink))) {
        free(f);
        return NULL;
    }
    return f;
}

int logfeed_finish(logfeed *f, night *n, err *e)
{
    f->n = n;
    int rc = logr_finish(f->r, e);
    f->n = NULL;
    return rc;
}

int logfeed_file(logfeed *f, night *n, const char *path, const char *shown,
                 enum log_format fmt, err *e)
{
    int begun = night_begin_file(n, shown, e);
    if (begun != 0)
        return begun < 0 ? -1 : 0; /* 1: named twice, read once */
    f->n = n;
    int rc = logr_read(f->r, path, shown, fmt, e);
    f->n = NULL;
    if (rc < 0 && e->code == ERR_USAGE) {
        /* what the file is not: said as replay says a file it skips */
        char why[600];
        snprintf(why, sizeof why, "%s", e->msg);
        err_clear(e);
        return night_skip_file(n, shown, why, e) < 0 ? -1 : 0;
    }
    return rc;
}

void logfeed_say(logfeed *f)
{
    for (size_t i = 0; i < f->nsaid; i++)
        say("%s", f->said[i]);
    if (f->failed)
        say("replay: out of memory keeping the logs' problems: some were "
            "not said");
    logr_summary(f->r, "replay", say_text, NULL);
}

unsigned long logfeed_problems(const logfeed *f)
{
    return logr_problems(f->r);
}

void logfeed_free(logfeed *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nsaid; i++)
        free(f->said[i]);
    free(f->said);
    logr_free(f->r);
    free(f);
}

static int walk(const char *path, enum log_format fmt, int named, int depth,
                int (*fn)(void *ctx, const char *file), void *ctx)
{
    struct stat st;
    if (strcmp(path, "-") == 0)
        return fn(ctx, path);
    if (stat(path, &st) != 0) {
        int why = errno;
        if (!named)
            return 0; /* a link that points nowhere, in a folder */
        say("replay: cannot read %s: %s", path, strerror(why));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (!named && (!S_ISREG(st.st_mode) || !log_name_matches(path, fmt)))
            return 0;
        return fn(ctx, path);
    }
    if (depth >= 64)
        return 0; /* deeper than any log folder: a link loop */
    char **names;
    size_t n;
    if (folder_entries(path, &names, &n) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = walk(names[i], fmt, 0, depth + 1, fn, ctx);
        free(names[i]);
    }
    free(names);
    return rc;
}

int logs_walk(const char *path, enum log_format fmt,
              int (*fn)(void *ctx, const char *file), void *ctx)
{
    return walk(path, fmt, 1, 0, fn, ctx);
}
