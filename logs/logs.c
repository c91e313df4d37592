/* logs: see logs.h. */
#include "logs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "inspect.h"
#include "messages.h"
#include "otlp.h"

/* The readers, in the order of enum log_format from LOG_INSPECT: a
 * reader's place here is its slot in the counts (lr_begin). */
static const log_reader *const readers[] = {&inspect_reader, &otlp_reader,
                                            &messages_reader};
#define NREADERS (sizeof readers / sizeof *readers)
_Static_assert(NREADERS == LOG_MESSAGES - LOG_INSPECT + 1,
               "one reader for each format of enum log_format");
_Static_assert(NREADERS <= LOG_READERS_MAX, "a slot for each reader");

int log_format_parse(const char *word, enum log_format *f)
{
    if (strcmp(word, "auto") == 0) {
        *f = LOG_AUTO;
        return 0;
    }
    for (size_t i = 0; i < NREADERS; i++)
        if (strcmp(word, readers[i]->name) == 0) {
            *f = (enum log_format)(LOG_INSPECT + (int)i);
            return 0;
        }
    return -1;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

int log_name_matches(const char *name, enum log_format f)
{
    switch (f) {
    case LOG_INSPECT:
        return ends_with(name, ".eval") || ends_with(name, ".json");
    case LOG_AUTO:
        return ends_with(name, ".eval") || ends_with(name, ".json") ||
               ends_with(name, ".jsonl");
    default:
        return ends_with(name, ".json") || ends_with(name, ".jsonl");
    }
}

/* ------------------------------------------------------------ reading */

int logr_read(logr *r, const char *path, const char *shown,
              enum log_format f, err *e)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (f == LOG_AUTO) {
        if (is_stdin)
            return err_set(e, ERR_USAGE, "standard input needs its format "
                                         "named: --from inspect, otlp or "
                                         "messages");
        log_guess g;
        log_guess_file(&g, path);
        if (g.format == LOG_TRANSCRIPT)
            return err_set(e, ERR_USAGE, "it is a transcript, not a log: "
                                         "replay reads it as it is");
        if (g.format == LOG_UNKNOWN)
            return err_set(e, ERR_USAGE, "%s", g.why);
        f = g.format;
    }
    if (f < LOG_INSPECT || f > LOG_MESSAGES)
        return err_set(e, ERR_USAGE, "not a log of a known format");
    int slot = f - LOG_INSPECT;
    const log_reader *rd = readers[slot];
    if (lr_holder(r) && lr_holder(r) != rd) {
        /* what the reader before held is written first, its file's */
        int rc = logr_finish(r, e);
        if (rc)
            return rc;
    }
    lr_begin(r, slot, rd->name, rd->unit, rd->units, shown);
    log_input in = {path, shown, -1};
    if (rd->streams) {
        in.fd = is_stdin ? 0 : open(path, O_RDONLY);
        if (in.fd < 0)
            return err_set(e, ERR_IO, "cannot read %s: %s", shown,
                           strerror(errno));
    }
    int rc = rd->read(r, &in, e);
    if (rd->streams && !is_stdin)
        close(in.fd);
    if (rc >= 0 && lr_failed(r, e)) /* a problem could not be kept */
        rc = -1;
    else if (rc == 0 && lr_stopped(r))
        rc = 1;
    return rc;
}

int logr_finish(logr *r, err *e)
{
    const log_reader *rd = lr_holder(r);
    if (!rd)
        return 0;
    int rc = rd->finish ? rd->finish(r, e) : 0;
    lr_release(r);
    if (rc >= 0 && lr_failed(r, e))
        rc = -1;
    else if (rc == 0 && lr_stopped(r))
        rc = 1;
    return rc;
}
