/* replay PATH...: the main job.  Walks the paths (files, folders in sorted
 * order, "-"), reads their lines with a bounded buffer, feeds them to the
 * night engine, shows progress on a terminal, and closes with a summary
 * that accounts for every line. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "logfeed.h"
#include "night.h"
#include "transcript.h"

#define LINE_LIMIT TRANSCRIPT_LINE_LIMIT /* bytes of one transcript line */
#define EXIT_INTERRUPTED 130 /* Ctrl-C: what was written stays */

/* Set by SIGINT (Ctrl-C): the reading stops at the next line, episodes
 * finished so far are kept, the open ones are not written.  The one piece
 * of process state this module keeps. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}
#define CHUNK (1u << 16)

/* ------------------------------------------------------------- inputs */

struct inputs {
    char **paths;
    size_t n, cap;
    unsigned long long bytes; /* of the regular files, for progress */
    unsigned long skipped;    /* entries of folders that are no file */
    unsigned long empty_folders; /* named, with no *.jsonl file */
    struct walked {
        dev_t dev;
        ino_t ino;
    } walked[64]; /* the folders being walked, outermost first */
    size_t depth;
    int has_from;         /* --from: folders give the format's files */
    enum log_format from;
};

static int add_input(struct inputs *in, const char *path)
{
    if (in->n == in->cap) {
        size_t cap = in->cap ? 2 * in->cap : 16;
        char **more = realloc(in->paths, cap * sizeof *more);
        if (!more)
            goto nomem;
        in->paths = more;
        in->cap = cap;
    }
    if (!(in->paths[in->n] = strdup(path)))
        goto nomem;
    in->n++;
    return 0;
nomem:
    say("replay: out of memory listing the transcripts (at %s)", path);
    return -1;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Whether a folder's entry is read: a transcript, or with --from a log
 * file of the format's names. */
static int wanted(const struct inputs *in, const char *path)
{
    return in->has_from ? log_name_matches(path, in->from)
                        : ends_with(path, ".jsonl");
}

/* An entry of a folder that is not read: said, counted, and the walk
 * goes on. */
static int skip(struct inputs *in, const char *path, const char *why)
{
    say("replay: %s: skipped: %s", path, why);
    in->skipped++;
    return 0;
}

/* Adds path: a file, or a folder's *.jsonl files (sorted, subfolders
 * walked in the same order).  A path named on the command line may be any
 * file (a pipe too); in a folder, only regular files are read, and what
 * cannot be (a link loop, a FIFO, a device) is skipped with one line.
 * -1 with the reason printed. */
static int collect(struct inputs *in, const char *path, int named)
{
    struct stat st;
    if (strcmp(path, "-") == 0)
        return add_input(in, path);
    if (stat(path, &st) != 0) {
        if (!named)
            return wanted(in, path) ? skip(in, path, strerror(errno)) : 0;
        int why = errno;
        say("replay: cannot read %s: %s", path, strerror(why));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (!named && !wanted(in, path))
            return 0;
        if (!named && !S_ISREG(st.st_mode))
            return skip(in, path, "not a regular file (a FIFO, a socket or a "
                                  "device)");
        in->bytes += S_ISREG(st.st_mode) ? (unsigned long long)st.st_size : 0;
        return add_input(in, path);
    }
    /* a link back to a folder being walked would walk without end */
    for (size_t i = 0; i < in->depth; i++)
        if (in->walked[i].dev == st.st_dev && in->walked[i].ino == st.st_ino)
            return skip(in, path, "a link to a folder that holds it (a loop)");
    if (in->depth == sizeof in->walked / sizeof *in->walked)
        return skip(in, path, "folders nested more than 64 deep");
    char **names;
    size_t n;
    if (folder_entries(path, &names, &n) < 0)
        return -1;
    int rc = 0;
    in->walked[in->depth++] = (struct walked){st.st_dev, st.st_ino};
    size_t had = in->n;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = collect(in, names[i], 0);
        free(names[i]);
    }
    in->depth--;
    free(names);
    if (rc == 0 && named && in->n == had) {
        say("replay: no *.jsonl files in %s (subfolders included)", path);
        in->empty_folders++;
    }
    return rc;
}

/* ------------------------------------------------------------- reading */

struct reader {
    int fd;
    char *buf;
    size_t cap, start, end;
    int eof;
    unsigned long long consumed;
};

enum { LINE_EOF, LINE_OK, LINE_LONG, LINE_ERROR };

/* Reads what there is (not waiting for a whole buffer: a pipe that
 * pauses is read up to its pause); 0 at the end, -1 on error. */
static ssize_t take(int fd, char *to, size_t room)
{
    ssize_t n;
    do
        n = read(fd, to, room);
    while (n < 0 && errno == EINTR && !interrupted);
    return n < 0 && interrupted ? 0 : n;
}

/* Whether a line of *len bytes passes the limit; then only its first
 * bytes are kept, as for a line that never fit the buffer. */
static int too_long(size_t *len)
{
    if (*len <= LINE_LIMIT)
        return 0;
    *len = 4096;
    return 1;
}

/* The next line (without its newline) in *line, *len; LINE_LONG when it
 * passes LINE_LIMIT: then *line holds its first bytes, *len how many, and
 * *full its whole length. */
static int next_line(struct reader *r, const char **line, size_t *len,
                     size_t *full)
{
    for (;;) {
        size_t have = r->end - r->start;
        char *nl = memchr(r->buf + r->start, '\n', have);
        if (nl) {
            *line = r->buf + r->start;
            *len = *full = (size_t)(nl - *line);
            r->start += *len + 1;
            r->consumed += *len + 1;
            /* A whole long line may come in one read (a file): the limit
             * holds all the same, as for a pipe's smaller reads. */
            return too_long(len) ? LINE_LONG : LINE_OK;
        }
        if (have > LINE_LIMIT) {
            /* keep the first bytes at the front, skip to the newline */
            memmove(r->buf, r->buf + r->start, 4096);
            r->start = 0;
            r->end = 4096;
            size_t total = have;
            for (;;) {
                ssize_t got = take(r->fd, r->buf + 4096, r->cap - 4096);
                if (got < 0)
                    return LINE_ERROR;
                if (got == 0) {
                    r->eof = 1;
                    r->start = r->end = 0;
                    break;
                }
                size_t n = (size_t)got;
                char *p = memchr(r->buf + 4096, '\n', n);
                if (p) {
                    size_t before = (size_t)(p - (r->buf + 4096));
                    total += before;
                    /* what follows the newline is the next line's */
                    size_t after = n - before - 1;
                    memmove(r->buf + 4096, p + 1, after);
                    r->start = 4096;
                    r->end = 4096 + after;
                    r->consumed += 1;
                    break;
                }
                total += n;
            }
            r->consumed += total;
            *line = r->buf;
            *len = 4096;
            *full = total;
            return LINE_LONG;
        }
        if (r->eof) {
            if (have == 0)
                return LINE_EOF;
            *line = r->buf + r->start; /* a last line without newline */
            *len = *full = have;
            r->start = r->end;
            r->consumed += have;
            return too_long(len) ? LINE_LONG : LINE_OK;
        }
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, have);
            r->start = 0;
            r->end = have;
        }
        if (r->end == r->cap) {
            size_t cap = r->cap * 2;
            char *more = realloc(r->buf, cap);
            if (!more) {
                errno = ENOMEM;
                return LINE_ERROR;
            }
            r->buf = more;
            r->cap = cap;
        }
        ssize_t n = take(r->fd, r->buf + r->end, r->cap - r->end);
        if (n < 0)
            return LINE_ERROR;
        if (n == 0)
            r->eof = 1;
        r->end += (size_t)n;
    }
}

/* ------------------------------------------------------------ progress */

struct progress {
    int on;
    struct timespec start, last;
    unsigned long long total_bytes, done_bytes;
};

static double seconds(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) +
           (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void show_progress(struct progress *p, const night_counts *c,
                          int final)
{
    if (!p->on)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!final && seconds(&p->last, &now) < 0.25)
        return;
    p->last = now;
    if (final) {
        fputs("\r\033[K", stderr);
        return;
    }
    double t = seconds(&p->start, &now);
    double rate = t > 0 ? (double)c->calls / t : 0;
    fprintf(stderr, "\r\033[Kreplay: %lu lines, %.0f calls/s", c->lines, rate);
    if (p->total_bytes) {
        double done = (double)p->done_bytes / (double)p->total_bytes;
        fprintf(stderr, ", %.0f%% of %.1f MB", 100 * done,
                (double)p->total_bytes / 1e6);
        if (done > 0.01) {
            long eta = (long)(t / done - t);
            fprintf(stderr, ", ETA %ld:%02ld", eta / 60, eta % 60);
        }
    }
    fflush(stderr);
}

/* --------------------------------------------------------------- main */

static const char replay_usage[] =
    "[--db results.db] [--strict | --problems-ok] [--quiet] [--batch N] "
    "[--shard I/N] [--timings] [--max-open N] [--tools-dir DIR]... "
    "[--any-tools-path] "
    "[--run R --tools FILE [--model M]] PATH...";

/* Reads "I/N" (0 <= I < N <= 100000); 0, or -1 when malformed. */
static int parse_shard(const char *text, unsigned *i, unsigned *n)
{
    char *end;
    unsigned long a = strtoul(text, &end, 10);
    if (end == text || *end != '/')
        return -1;
    const char *rest = end + 1;
    unsigned long b = strtoul(rest, &end, 10);
    if (end == rest || *end || b == 0 || b > 100000 || a >= b)
        return -1;
    *i = (unsigned)a;
    *n = (unsigned)b;
    return 0;
}

/* A number the environment gives: decimal digits only (no sign, no space,
 * nothing after), at most limit.  0, or -1 when it is not one. */
static int env_number(const char *text, unsigned long limit,
                      unsigned long *v)
{
    if (!text || text[0] < '0' || text[0] > '9' ||
        strspn(text, "0123456789") != strlen(text))
        return -1;
    errno = 0;
    unsigned long x = strtoul(text, NULL, 10);
    if (errno || x > limit)
        return -1;
    *v = x;
    return 0;
}

#define MAX_SHARDS 100000ul
#define MAX_TASK_ID 1000000000ul /* above any array Slurm makes */

/* Reads the variable name as a number (at most limit) into *v; when it is
 * not one, says why in why[] and returns -1. */
static int env_read(const char *name, unsigned long limit, unsigned long *v,
                    char *why, size_t whylen)
{
    const char *text = getenv(name);
    if (env_number(text, limit, v) == 0)
        return 0;
    snprintf(why, whylen, "%s is \"%s\", not a number from 0 to %lu", name,
             text ? text : "", limit);
    return -1;
}

/* The shard from a batch scheduler's environment, when --shard is not
 * given, first found of: TASKREPLAY_SHARD=I/N; a Slurm job array's
 * SLURM_ARRAY_TASK_ID, of TASKREPLAY_SHARDS when set (N pinned, so that a
 * task submitted again on its own keeps its shard) and else its ID minus
 * SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT; a Kubernetes indexed
 * Job's JOB_COMPLETION_INDEX, of TASKREPLAY_SHARDS.  Returns where it came
 * from, NULL when from nowhere; why[] is not empty when it cannot be read
 * (and says why).  Every number is read whole and bounded before any
 * arithmetic. */
static const char *shard_from_env(unsigned *i, unsigned *n, char *why,
                                  size_t whylen)
{
    const char *v = getenv("TASKREPLAY_SHARD");
    why[0] = '\0';
    if (v && *v) {
        if (parse_shard(v, i, n) < 0)
            snprintf(why, whylen, "TASKREPLAY_SHARD is \"%s\", not I/N "
                                  "(the shard I, from 0, of N up to %lu)",
                     v, MAX_SHARDS);
        return "TASKREPLAY_SHARD";
    }
    const char *id = getenv("SLURM_ARRAY_TASK_ID");
    const char *count = getenv("SLURM_ARRAY_TASK_COUNT");
    const char *pinned = getenv("TASKREPLAY_SHARDS");
    int has_count = count && *count, has_pinned = pinned && *pinned;
    unsigned long a = 0, b = 0, base = 0;
    const char *from;
    if (id && *id && (has_count || has_pinned)) {
        if (env_read("SLURM_ARRAY_TASK_ID", MAX_TASK_ID, &a, why, whylen))
            return "SLURM_ARRAY_TASK_ID";
        if (has_pinned) {
            from = "SLURM_ARRAY_TASK_ID and TASKREPLAY_SHARDS";
            unsigned long tasks;
            if (env_read("TASKREPLAY_SHARDS", MAX_SHARDS, &b, why, whylen))
                return from;
            if (has_count && env_number(count, MAX_TASK_ID, &tasks) == 0 &&
                tasks > b) {
                snprintf(why, whylen, "the array has %lu tasks "
                         "(SLURM_ARRAY_TASK_COUNT), more than "
                         "TASKREPLAY_SHARDS (%lu)", tasks, b);
                return from;
            }
            if (b && a >= b) {
                snprintf(why, whylen, "SLURM_ARRAY_TASK_ID is %lu, not "
                         "below TASKREPLAY_SHARDS (%lu): with "
                         "TASKREPLAY_SHARDS the array's task IDs are the "
                         "shards, 0 to %lu", a, b, b - 1);
                return from;
            }
        } else {
            from = "SLURM_ARRAY_TASK_ID";
            const char *min = getenv("SLURM_ARRAY_TASK_MIN");
            if (min && *min &&
                env_read("SLURM_ARRAY_TASK_MIN", MAX_TASK_ID, &base, why,
                         whylen))
                return from;
            if (env_read("SLURM_ARRAY_TASK_COUNT", MAX_SHARDS, &b, why,
                         whylen))
                return from;
            if (a < base || a - base >= b) {
                snprintf(why, whylen, "SLURM_ARRAY_TASK_ID (%lu) minus "
                         "SLURM_ARRAY_TASK_MIN (%lu) is not a shard of "
                         "SLURM_ARRAY_TASK_COUNT (%lu)", a, base, b);
                return from;
            }
            a -= base;
        }
    } else {
        id = getenv("JOB_COMPLETION_INDEX");
        from = "JOB_COMPLETION_INDEX";
        if (!(id && *id))
            return NULL;
        if (!has_pinned) {
            snprintf(why, whylen, "JOB_COMPLETION_INDEX is set, and not "
                                  "TASKREPLAY_SHARDS (set it to the Job's "
                                  "completions)");
            return from;
        }
        if (env_read("JOB_COMPLETION_INDEX", MAX_TASK_ID, &a, why, whylen) ||
            env_read("TASKREPLAY_SHARDS", MAX_SHARDS, &b, why, whylen))
            return from;
        if (b && a >= b) {
            snprintf(why, whylen, "JOB_COMPLETION_INDEX is %lu, not below "
                     "TASKREPLAY_SHARDS (%lu)", a, b);
            return from;
        }
    }
    if (b == 0) {
        snprintf(why, whylen, "%s is 0: a night splits into 1 shard or "
                 "more", has_pinned ? "TASKREPLAY_SHARDS"
                                    : "SLURM_ARRAY_TASK_COUNT");
        return from;
    }
    *i = (unsigned)a;
    *n = (unsigned)b;
    return from;
}

/* Under an address-space limit (ulimit -v), glibc's malloc cannot reserve
 * the 64 MiB it sets aside for each new thread's arena, and then goes to
 * the kernel for every allocation on that thread (25 times slower): all
 * threads share one arena then.  A process-wide setting, made once. */
static void fit_address_limit(void)
{
#ifdef M_ARENA_MAX
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        mallopt(M_ARENA_MAX, 1);
#endif
}

static void summary(const night_counts *c, const char *db_path)
{
    fprintf(stderr, "replay: %lu line%s: %lu used, %lu unchanged, %lu "
                    "problem%s, %lu blank",
            c->lines, c->lines == 1 ? "" : "s", c->used, c->unchanged,
            c->problems,
            c->problems == 1 ? "" : "s", c->blank);
    if (c->other_shards)
        fprintf(stderr, ", %lu for other shards", c->other_shards);
    fputc('\n', stderr);
    say("replay: %lu run%s; %lu episode%s written (%lu replaced, "
        "%lu unfinished), %lu unchanged; %lu call%s; into %s",
        c->runs, c->runs == 1 ? "" : "s", c->episodes,
        c->episodes == 1 ? "" : "s", c->replaced, c->unfinished,
        c->skipped, c->calls, c->calls == 1 ? "" : "s", db_path);
    if (c->evicted)
        say("replay: %lu episode%s written unfinished to keep at "
            "most --max-open open at once",
            c->evicted, c->evicted == 1 ? "" : "s");
}

/* --timings: where the time went, thread by thread. */
static void say_timings(const night_counts *c, const struct timespec *began)
{
    struct timespec now, cpu, zero = {0, 0};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) != 0)
        cpu = zero;
    say("replay: %.2f s; CPU seconds: %.2f reading and "
        "answering, %.2f writing the database, %.2f copying "
        "its log",
        seconds(began, &now), seconds(&zero, &cpu), c->cpu_write,
        c->cpu_copy);
}

/* What the logs read so far held for a next file of their format
 * (logfeed_finish), replayed: before a transcript is read, and at the
 * input's end.  0; 1 stopped (--strict), -1 failed: last says why. */
static int end_logs(logfeed *feed, night *n, char *last, size_t size)
{
    err e;
    err_clear(&e);
    int rc = feed ? logfeed_finish(feed, n, &e) : 0;
    if (rc < 0)
        snprintf(last, size, "replay: %s", e.msg);
    else if (rc == 1 && !interrupted)
        snprintf(last, size, "replay: stopped at the first problem "
                             "(--strict)");
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    night_opts o = {.db_path = "results.db", .diag = stderr};
    const char **tools_dirs = NULL;
    int shard_given = 0;
    int quiet = 0, timings = 0, problems_ok = 0;
    struct inputs in = {0};
    log_opts lo = {0}; /* --from's, and the logs' options */
    logfeed *feed = NULL;
    int status = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        int log_opt = log_option(&lo, argc, argv, &i);
        if (log_opt) {
            if (log_opt < 0) {
                status = EXIT_USAGE;
                goto out;
            }
            continue;
        }
        if (strcmp(a, "--from") == 0 && has) {
            if (log_format_parse(argv[++i], &in.from) < 0) {
                status = usage_error("--from takes inspect, otlp, messages "
                                     "or auto, not '%s'", argv[i]);
                goto out;
            }
            in.has_from = 1;
        } else if (strcmp(a, "--db") == 0 && has)
            o.db_path = argv[++i];
        else if (strcmp(a, "--strict") == 0)
            o.strict = 1;
        else if (strcmp(a, "--quiet") == 0)
            quiet = 1;
        else if (strcmp(a, "--problems-ok") == 0)
            problems_ok = 1;
        else if (strcmp(a, "--timings") == 0)
            timings = 1;
        else if (strcmp(a, "--run") == 0 && has)
            o.default_run = argv[++i];
        else if (strcmp(a, "--tools") == 0 && has)
            o.default_tools = argv[++i];
        else if (strcmp(a, "--model") == 0 && has)
            o.model = argv[++i];
        else if (strcmp(a, "--shard") == 0 && has) {
            if (parse_shard(argv[++i], &o.shard, &o.shards) < 0) {
                status = usage_error("--shard takes I/N, the shard I (from 0) "
                                     "of N, not '%s'", argv[i]);
                goto out;
            }
            shard_given = 1;
        } else if (strcmp(a, "--max-open") == 0 && has) {
            char *end;
            unsigned long m = strtoul(argv[++i], &end, 10);
            if (*end || m == 0 || m > 10000000 || argv[i][0] == '-') {
                status = usage_error("--max-open takes a number of episodes "
                                     "(1 to 10000000), not '%s'", argv[i]);
                goto out;
            }
            o.max_open = m;
        } else if (strcmp(a, "--tools-dir") == 0 && has) {
            const char **more =
                realloc(tools_dirs, (o.ntools_dirs + 1) * sizeof *more);
            if (!more) {
                say("replay: out of memory");
                status = EXIT_CANNOT;
                goto out;
            }
            tools_dirs = more;
            tools_dirs[o.ntools_dirs++] = argv[++i];
            o.tools_dirs = tools_dirs;
        } else if (strcmp(a, "--any-tools-path") == 0) {
            o.any_tools_path = 1;
        } else if (strcmp(a, "--batch") == 0 && has) {
            char *end;
            unsigned long b = strtoul(argv[++i], &end, 10);
            if (*end || b == 0 || b > 1000000) {
                status = usage_error("--batch takes a number of episodes "
                                     "(1 to 1000000), not '%s'", argv[i]);
                goto out;
            }
            o.batch = (unsigned)b;
        }
        else if (a[0] == '-' && a[1] != '\0') {
            status = usage_error("unknown option '%s' (usage: replay %s)", a,
                                 replay_usage);
            goto out;
        } else if (collect(&in, a, 1) < 0) {
            status = EXIT_CANNOT;
            goto out;
        }
    }
    if (in.n == 0 && in.empty_folders) {
        status = EXIT_REFUSED; /* said: nothing to replay */
        goto out;
    }
    if (in.n == 0) {
        status = usage_error("no transcript given (usage: replay %s)",
                             replay_usage);
        goto out;
    }
    if (in.has_from) {
        /* --run, --tools and --model name the logs' run and tool file */
        lo.run = o.default_run;
        lo.tools = o.default_tools;
        lo.model = o.model;
        o.default_run = o.default_tools = o.model = NULL;
    }
    if (!o.default_run != !o.default_tools) {
        status = usage_error("--run and --tools go together: they declare "
                             "a run and its tool file");
        goto out;
    }

    if (o.strict && problems_ok) {
        status = usage_error("--strict stops at the first problem and "
                             "--problems-ok goes past them: give one");
        goto out;
    }

    if (!shard_given) {
        char why[600];
        const char *from = shard_from_env(&o.shard, &o.shards, why,
                                          sizeof why);
        if (from && why[0]) {
            status = usage_error("cannot read the shard from the "
                                 "environment: %s", why);
            goto out;
        }
        /* said under --quiet too: a batch task's log must say its shard */
        if (from)
            say("replay: shard %u/%u (from %s)", o.shard, o.shards, from);
    }

    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    night *n = NULL;
    err e;
    err_clear(&e);
    fit_address_limit();
    o.progress = !quiet && isatty(STDERR_FILENO);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt; /* no SA_RESTART: a blocked read ends */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    /* The database's threads, made by night_open, inherit SIGINT blocked:
     * Ctrl-C then always reaches this thread, and ends a read it waits
     * in (a pipe that pauses), rather than a thread that does not read. */
    sigset_t intr, was;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    pthread_sigmask(SIG_BLOCK, &intr, &was);
    int opened = night_open(&n, &o, &e);
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    if (opened < 0) {
        say("replay: %s", e.msg);
        night_free(n);
        status = EXIT_CANNOT;
        goto out;
    }
    struct progress p = {0};
    p.on = o.progress;
    p.total_bytes = in.bytes;
    clock_gettime(CLOCK_MONOTONIC, &p.start);
    p.last = p.start;
    struct reader r = {0};
    r.cap = CHUNK;
    r.buf = malloc(r.cap);
    int stop = 0, fatal = 0;
    /* said once the database's thread has said its own lines */
    char last[1400] = "";
    /* a log's tool file is written beside the database */
    char db_dir[4096];
    snprintf(db_dir, sizeof db_dir, "%s", o.db_path);
    char *db_slash = strrchr(db_dir, '/');
    if (db_slash)
        *(db_slash == db_dir ? db_slash + 1 : db_slash) = '\0';
    lo.rel_dir = db_slash ? db_dir : ".";
    lo.strict = o.strict;
    for (size_t i = 0; i < in.n && !stop && !fatal && !interrupted && r.buf;
         i++) {
        const char *path = in.paths[i];
        int is_stdin = strcmp(path, "-") == 0;
        const char *shown = is_stdin ? "<stdin>" : path;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", is_stdin ? "." : path);
        char *slash = strrchr(dir, '/');
        if (is_stdin || !slash)
            snprintf(dir, sizeof dir, ".");
        else
            *(slash == dir ? slash + 1 : slash) = '\0';
        /* a log of another harness: --from's format, or recognised in a
         * file named here that is not .jsonl */
        enum log_format lf = LOG_TRANSCRIPT;
        struct stat lst;
        log_guess g;
        g.format = LOG_TRANSCRIPT;
        if (in.has_from && in.from != LOG_AUTO)
            g.format = in.from;
        else if (!is_stdin &&
                 ((in.has_from && in.from == LOG_AUTO) ||
                  (!ends_with(path, ".jsonl") && stat(path, &lst) == 0 &&
                   S_ISREG(lst.st_mode))))
            log_guess_file(&g, path);
        lf = g.format;
        if (lf == LOG_UNKNOWN && in.has_from) {
            /* --from auto: what it is, or is nearest; nothing is read */
            if (night_skip_file(n, shown, g.why, &e) < 0) {
                snprintf(last, sizeof last, "replay: %s", e.msg);
                fatal = 1;
            }
            continue;
        }
        if (lf == LOG_UNKNOWN) /* no log: a transcript, or said what it is */
            lf = LOG_TRANSCRIPT;
        if (lf != LOG_TRANSCRIPT) {
            if (!feed && !(feed = logfeed_new(&lo, &interrupted))) {
                snprintf(last, sizeof last, "replay: out of memory");
                fatal = 1;
                break;
            }
            int rc = logfeed_file(feed, n, path, shown, lf, &e);
            if (rc < 0) {
                snprintf(last, sizeof last, "replay: %s", e.msg);
                fatal = 1;
            } else if (rc == 1 && !interrupted) {
                snprintf(last, sizeof last, "replay: stopped at the first "
                                            "problem (--strict)");
            }
            stop |= rc == 1;
            continue;
        }
        int ended = end_logs(feed, n, last, sizeof last);
        if (ended) {
            fatal = ended < 0;
            stop = ended == 1;
            break;
        }
        r.fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
        if (r.fd < 0) {
            int why = errno;
            snprintf(last, sizeof last, "replay: cannot read %s: %s",
                     path, strerror(why));
            fatal = 1;
            break;
        }
        r.start = r.end = 0;
        r.eof = 0;
        unsigned long line = 0;
        int looked = 0; /* at the first line that is not blank */
        int begun = night_begin_file(n, shown, &e);
        if (begun < 0) {
            snprintf(last, sizeof last, "replay: %s", e.msg);
            fatal = 1;
            break;
        }
        if (begun == 1) { /* named twice: read once */
            if (!is_stdin)
                close(r.fd);
            continue;
        }
        for (;;) {
            const char *text;
            size_t len, full;
            int k = next_line(&r, &text, &len, &full);
            if (k == LINE_EOF)
                break;
            if (k == LINE_ERROR) {
                snprintf(last, sizeof last,
                         "replay: %s: cannot read line %lu: %s", shown,
                         line + 1, strerror(errno));
                fatal = 1;
                break;
            }
            line++;
            if (!looked && strspn(text, " \t\r") < len) {
                looked = 1;
                enum input_kind kind = input_looks(text, len);
                if (kind != LOOKS_TRANSCRIPT) {
                    if (night_skip_file(n, shown, input_not_transcript(kind),
                                        &e) < 0) {
                        snprintf(last, sizeof last, "replay: %s", e.msg);
                        fatal = 1;
                    }
                    break; /* nothing of it is read or written */
                }
            }
            int rc = k == LINE_LONG
                         ? night_long_line(n, shown, line, text, len, full, &e)
                         : night_line(n, shown, dir, line, text, len, &e);
            if (rc < 0) {
                snprintf(last, sizeof last, "replay: %s", e.msg);
                fatal = 1;
                break;
            }
            if (rc == 1) {
                snprintf(last, sizeof last, "replay: stopped at the first "
                                            "problem (--strict)");
                stop = 1;
                break;
            }
            if (interrupted) {
                stop = 1;
                break;
            }
            p.done_bytes = r.consumed;
            if ((line & 1023) == 0)
                show_progress(&p, night_get_counts(n), 0);
        }
        if (!is_stdin)
            close(r.fd);
    }
    if (!r.buf) {
        snprintf(last, sizeof last, "replay: out of memory");
        fatal = 1;
    }
    if (!stop && !fatal && !interrupted) {
        int ended = end_logs(feed, n, last, sizeof last);
        fatal = ended < 0;
        stop = ended == 1;
    }
    free(r.buf);
    show_progress(&p, night_get_counts(n), 1);
    /* cut short (--strict, Ctrl-C): the open episodes are not written,
     * not even as unfinished; the rerun reads them whole */
    if (!fatal && night_finish(n, !stop && !interrupted, &e) < 0) {
        /* the database failed: its error comes before any other */
        snprintf(last, sizeof last, "replay: %s", e.msg);
        fatal = 1;
    }
    night_counts c = *night_get_counts(n);
    night_free(n); /* the database's thread has ended */
    if (interrupted && !fatal) {
        char left[80] = "";
        if (c.left_open)
            snprintf(left, sizeof left, ", %lu open one%s not written",
                     c.left_open, c.left_open == 1 ? "" : "s");
        snprintf(last, sizeof last, "replay: interrupted: %lu episode%s "
                                    "kept%s; run the same command again to "
                                    "finish",
                 c.episodes + c.skipped, c.episodes + c.skipped == 1 ? "" : "s",
                 left);
    }
    if (last[0])
        say("%s", last); /* escaped there: it quotes paths and names */
    if (feed)
        logfeed_say(feed); /* the logs' problems, then their counts */
    if (!fatal)
        summary(&c, o.db_path);
    if (timings)
        say_timings(&c, &began);
    if (!fatal && in.skipped)
        say("replay: %lu entr%s of the folders skipped (see "
            "above)",
            in.skipped, in.skipped == 1 ? "y" : "ies");
    if (!fatal && c.skipped_files)
        say("replay: %lu file%s skipped: not transcripts (see "
            "above)",
            c.skipped_files, c.skipped_files == 1 ? "" : "s");
    /* --problems-ok: the night read to its end is a success, problems
     * and all (they are recorded and said all the same) */
    status = fatal         ? EXIT_CANNOT
             : interrupted ? EXIT_INTERRUPTED
             : (c.problems || in.skipped || c.skipped_files ||
                (feed && logfeed_problems(feed))) &&
                       !problems_ok
                 ? EXIT_REFUSED
                 : 0;
out:
    for (size_t i = 0; i < in.n; i++)
        free(in.paths[i]);
    free(in.paths);
    free(tools_dirs);
    logfeed_free(feed);
    return status;
}
