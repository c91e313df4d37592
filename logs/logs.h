/*
 * logs: the front of the reading layer for logs that other harnesses
 * write (docs/logs.md): what `replay import` and `replay --from` call.
 * It recognises a log's format, opens it, and hands it to the reader of
 * that format, one module each (reader.h is the contract they keep):
 *   inspect   Inspect AI eval logs, .eval (a zip archive) and .json
 *             (inspect.h)
 *   otlp      OpenTelemetry traces in OTLP JSON, GenAI conventions
 *             (otlp.h)
 *   messages  chat message trajectories, OpenAI or Anthropic form
 *             (messages.h)
 * The reader turns the log into the transcript lines that say the same
 * (lines.h), handed to the sink: `replay import` writes them into a
 * file, `replay --from` hands them to the night engine: the same lines,
 * so the same database.
 *
 * Promises (besides each reader's, reader.h):
 *  - The format is recognised from the file's structure (detect.h),
 *    never from its name; a transcript of ours, or a file of no known
 *    format, is refused with what it is, not guessed at.
 *  - Every file read is counted under its format; logr_summary says the
 *    counts, in the order of the list above.
 *  - No global state: a logr holds everything; nothing is printed here.
 */
#ifndef TR_LOGS_H
#define TR_LOGS_H

#include "detect.h"
#include "err.h"
#include "lines.h"

/* "inspect", "otlp", "messages", "auto"; 0, or -1 for another word. */
int log_format_parse(const char *word, enum log_format *f);

/* Reads a log in format f (LOG_AUTO: recognised first; "-" is standard
 * input, which needs a format).  shown names it in messages.  0 read
 * (problems said and counted), 1 stopped (--strict, or the sink said
 * stop), -1 could not go on (e set: out of memory, a file that cannot be
 * read, a tool file that cannot be written, the sink's failure;
 * ERR_USAGE for a file of no known format). */
int logr_read(logr *r, const char *path, const char *shown,
              enum log_format f, err *e);

/* The end of the logs read one after the other: what a reader held
 * from one file for the next (OTLP's traces still open) is written now,
 * each record as the file's it was read from, then released.  Called after
 * the last logr_read, and before anything else is read into the sink
 * (another night's file); logr_read calls it itself before a file of
 * another format.  0, 1 or -1 as logr_read; after 1 or -1 from
 * logr_read, not needed (logr_free releases what is held, unwritten). */
int logr_finish(logr *r, err *e);

/* Whether a file's name is one that a folder walk takes for format f
 * (.eval and .json for inspect; .json and .jsonl otherwise). */
int log_name_matches(const char *name, enum log_format f);

#endif
