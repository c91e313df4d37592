/*
 * logfeed: what `replay import` and `replay --from` share: the logs'
 * options on the command line, the walk of folders for log files, and
 * the sink that hands a log's transcript lines to the night engine (for
 * --from), so that a log is replayed line for line as its import would
 * be.
 *
 * Promises: a log fed to the night is one file of it (night_begin_file
 * with the log's name), each of its lines numbered as `replay import`
 * numbers them within that log, a line past the transcript's limit
 * handed over as a long line; the logs' problems are kept (the first
 * LOG_PROBLEMS_SAID; the rest counted) and said by logfeed_say, after
 * the night's own, so that stderr keeps one order whatever the timing of
 * the night's threads.
 */
#ifndef TR_LOGFEED_H
#define TR_LOGFEED_H

#include <signal.h>

#include "logs.h"
#include "night.h"

/* Reads the option at argv[*i] when it is one of the logs' (--score,
 * --task, --success, --reward, --messages, --trial, --id, --preset,
 * --tools-out, and --each-agent, which takes no value): 1 and *i moved
 * past it and its value, 0 when it is none of them, -1 after a usage
 * error was said. */
int log_option(log_opts *o, int argc, char **argv, int *i);

typedef struct logfeed logfeed;

/* stop_flag: when it becomes non-zero (Ctrl-C), reading stops at the next
 * line.  NULL out of memory. */
logfeed *logfeed_new(const log_opts *o, volatile sig_atomic_t *stop_flag);

/* Replays the log at path (format fmt, LOG_AUTO recognised) into n:
 * 0 read, 1 stopped (--strict, Ctrl-C), -1 the night failed or reading
 * cannot go on (e set). */
int logfeed_file(logfeed *f, night *n, const char *path, const char *shown,
                 enum log_format fmt, err *e);

/* The end of the logs fed one after the other (logr_finish): what a
 * log's reader held for the next file of its format is replayed into n,
 * each record as its own file's.  Called after the last log, and before
 * a file that is not a log is read into n (before a log of another
 * format, logr_read calls it itself, logs.h).  0, 1 or -1 as
 * logfeed_file. */
int logfeed_finish(logfeed *f, night *n, err *e);

/* Says the problems kept, then the counts (prefix "replay"). */
void logfeed_say(logfeed *f);

unsigned long logfeed_problems(const logfeed *f);

void logfeed_free(logfeed *f);

/* The log files a PATH names: the file itself, or a folder's files whose
 * names match fmt (log_name_matches), subfolders included, in sorted
 * order.  Each is handed to fn (0 to go on).  -1 with the reason said
 * ("replay import: cannot read ..."). */
int logs_walk(const char *path, enum log_format fmt,
              int (*fn)(void *ctx, const char *file), void *ctx);

#endif
