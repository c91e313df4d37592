/* replay import FORMAT PATH... [-o OUT.jsonl]: the logs other harnesses
 * write, as transcript JSONL (docs/logs.md).  The output is written
 * whole or not at all: into a file of import's own making beside it
 * (OUT.partial), renamed over OUT at the end (which replaces a symbolic
 * link named OUT, never follows it); standard output when no -o is
 * given. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "logfeed.h"
#include "logs.h"

static const char import_usage[] =
    "import inspect|otlp|messages|auto PATH... [-o OUT.jsonl] "
    "[--tools FILE | --tools-out DIR] [--run R] [--model M] [--strict] "
    "[--score NAME] [--preset tau-bench|tau2] [--task KEY] "
    "[--success KEY[=VALUE]] [--reward KEY] [--messages KEY] [--trial KEY] "
    "[--id KEY] [--each-agent]";

struct importer {
    FILE *out;
    const char *out_name;
    logr *r;
    enum log_format fmt;
    int failed; /* writing the output failed */
    int stopped;
    err e;
};

static int write_line(void *ctx, const char *file, const char *dir,
                      unsigned long line, const char *text, size_t len,
                      err *e)
{
    struct importer *im = ctx;
    (void)file;
    (void)dir;
    (void)line;
    if (fwrite(text, 1, len, im->out) != len || putc('\n', im->out) == EOF)
        return err_set(e, ERR_IO, "cannot write %s: %s", im->out_name,
                       strerror(errno));
    return 0;
}

/* A log's problem: said, when it is among those said one by one. */
static int say_problem(void *ctx, const log_problem *p, err *e)
{
    (void)ctx;
    (void)e;
    if (p->say)
        say("%s", p->text);
    return 0;
}

static int import_one(void *ctx, const char *path)
{
    struct importer *im = ctx;
    if (im->failed || im->stopped)
        return 0;
    const char *shown = shown_path(path);
    err_clear(&im->e);
    int rc = logr_read(im->r, path, shown, im->fmt, &im->e);
    if (rc < 0 && im->e.code == ERR_USAGE) {
        say("replay import: %s: skipped: %s", shown, im->e.msg);
        return 0;
    }
    if (rc < 0) {
        say("replay import: %s", im->e.msg);
        im->failed = 1;
    } else if (rc == 1) {
        say("replay import: stopped at the first problem (--strict)");
        im->stopped = 1;
    }
    return 0;
}

int cmd_import(int argc, char **argv)
{
    log_opts o;
    memset(&o, 0, sizeof o);
    enum log_format fmt;
    const char *out_path = NULL;
    char **paths = NULL;
    size_t npaths = 0;
    int status = 0;
    if (argc < 1 || log_format_parse(argv[0], &fmt) < 0)
        return usage_error("import takes a format first: inspect, otlp, "
                           "messages or auto (usage: replay %s)",
                           import_usage);
    if (!(paths = calloc((size_t)argc, sizeof *paths))) {
        say("replay import: out of memory");
        return EXIT_CANNOT;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        int got = log_option(&o, argc, argv, &i);
        if (got < 0) {
            status = EXIT_USAGE;
            goto out;
        }
        if (got)
            continue;
        if (strcmp(a, "-o") == 0 && has)
            out_path = argv[++i];
        else if (strcmp(a, "--tools") == 0 && has)
            o.tools = argv[++i];
        else if (strcmp(a, "--run") == 0 && has)
            o.run = argv[++i];
        else if (strcmp(a, "--model") == 0 && has)
            o.model = argv[++i];
        else if (strcmp(a, "--strict") == 0)
            o.strict = 1;
        else if (a[0] == '-' && a[1] != '\0') {
            status = usage_error("unknown option '%s' (usage: replay %s)", a,
                                 import_usage);
            goto out;
        } else
            paths[npaths++] = argv[i];
    }
    if (npaths == 0) {
        status = usage_error("no log given (usage: replay %s)", import_usage);
        goto out;
    }
    if (o.tools && o.tools_out) {
        status = usage_error("--tools names your tool file and --tools-out "
                             "where the logs' are written: give one");
        goto out;
    }
    /* the output's folder: where a tool file written beside it is named
     * from */
    char dir[PATH_MAX], tmp[PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s", out_path ? out_path : ".");
    char *slash = strrchr(dir, '/');
    if (!out_path || !slash)
        snprintf(dir, sizeof dir, ".");
    else
        *(slash == dir ? slash + 1 : slash) = '\0';
    o.rel_dir = dir;

    struct importer im;
    memset(&im, 0, sizeof im);
    im.fmt = fmt;
    im.out = stdout;
    im.out_name = "standard output";
    if (out_path) {
        /* OUT.partial is a name of import's own: what is there by that
         * name (left by an import that was killed) is removed, a symbolic
         * link as a link, never followed; then the file is made anew, so
         * that no write goes through a link or into another's file */
        snprintf(tmp, sizeof tmp, "%s.partial", out_path);
        unlink(tmp);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                               O_CLOEXEC, 0666);
        if (fd < 0 || !(im.out = fdopen(fd, "wb"))) {
            say("replay import: cannot write %s: %s", tmp, strerror(errno));
            if (fd >= 0)
                close(fd);
            status = EXIT_CANNOT;
            goto out;
        }
        im.out_name = out_path;
    }
    log_sink sink = {write_line, say_problem, &im, NULL};
    if (!(im.r = logr_new(&o, &sink))) {
        say("replay import: out of memory");
        status = EXIT_CANNOT;
    }
    for (size_t i = 0; status == 0 && i < npaths && !im.failed &&
                       !im.stopped;
         i++)
        if (logs_walk(paths[i], fmt, import_one, &im) < 0)
            im.failed = 1;
    if (status == 0 && !im.failed && !im.stopped) {
        /* what a reader held for a next file (logr_finish) */
        err_clear(&im.e);
        int rc = logr_finish(im.r, &im.e);
        if (rc < 0) {
            say("replay import: %s", im.e.msg);
            im.failed = 1;
        } else if (rc == 1) {
            say("replay import: stopped at the first problem (--strict)");
            im.stopped = 1;
        }
    }
    if (im.out != stdout && fclose(im.out) != 0 && !im.failed) {
        say("replay import: cannot write %s: %s", out_path, strerror(errno));
        im.failed = 1;
    } else if (im.out == stdout && fflush(stdout) != 0 && !im.failed) {
        say("replay import: cannot write standard output: %s",
            strerror(errno));
        im.failed = 1;
    }
    if (out_path && (im.failed || im.stopped || status)) {
        unlink(tmp); /* nothing half-written */
    } else if (out_path && rename(tmp, out_path) != 0) {
        say("replay import: cannot write %s: %s", out_path, strerror(errno));
        unlink(tmp);
        im.failed = 1;
    }
    if (im.r && !im.failed) {
        logr_summary(im.r, "replay import", say_text, NULL);
        if (out_path)
            say("replay import: %lu transcript lines into %s",
                logr_lines(im.r), out_path);
    }
    if (!status)
        status = im.failed              ? EXIT_CANNOT
                 : im.stopped || logr_problems(im.r) ? EXIT_REFUSED
                                                     : 0;
    logr_free(im.r);
out:
    free(paths);
    return status;
}
