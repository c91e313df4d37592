/*
 * reader: the contract every log reader implements (inspect.h, otlp.h,
 * messages.h), and all a reader includes.  A reader knows one format of
 * another harness's log and nothing else: it never opens the file it
 * was not given, never prints, never writes a transcript line itself,
 * and keeps no global state.  The dispatcher (logs.h) recognises the
 * format, opens the input, begins its counts, runs the reader's read,
 * and closes the input; a reader never includes the dispatcher.
 *
 * How a reader reads: its read walks the input record by record (a
 * sample, a span, a trajectory), in the input's order, and says what
 * each record holds through the layer below it:
 *   lines.h      a run (lr_run), an episode, its calls and its end
 *                (lr_episode, lr_call, lr_end), and problems
 *                (lr_problem); the counts (lr_counts) and options;
 *   callpairs.h  calls matched with their answers by id or order;
 *   records.h    a JSON input as JSON Lines or one document;
 *   logvalue.h   dotted paths, a message's text, an OpenAI tool;
 *   jstream.h    one JSON document read piece by piece.
 * The reader drives, because the records arrive as the input is read: a
 * zip's members, a document's pieces, a stream's lines; nothing asks for
 * "the next record" of a file that has not yet been read that far.
 *
 * What every reader promises:
 *  - Every record is counted once in lr_counts(r): records, and exactly
 *    one of read, skipped (a record the format does not make an episode
 *    of, such as a span of no GenAI operation) or refused.  A refused
 *    record is a problem that says why, with its place (a zip member, a
 *    line, a JSON path) and what to do.
 *  - One bad record costs that record: the records after it are read,
 *    and an input that breaks off is said once, after the records before
 *    the break.  Only out of memory, an unwritable tool file or the
 *    sink's failure ends the read (-1); --strict ends it at the first
 *    problem (1).
 *  - Memory follows the record being read (at most LOG_RECORD_MAX bytes
 *    of it, whatever the input claims), plus what the reader's header
 *    says it keeps open across records (and files: lr_hold), with its
 *    bound.
 *  - What the lines say comes from the log's values, call for call: a
 *    call the log holds is written once, with the answer the log gives
 *    it (none: written all the same, and a problem).
 */
#ifndef TR_READER_H
#define TR_READER_H

#include "callpairs.h"
#include "err.h"
#include "jstream.h"
#include "lines.h"
#include "logvalue.h"
#include "records.h"

/* The input a reader is given. */
typedef struct log_input {
    const char *path;  /* as named on the command line; "-" is standard
                          input */
    const char *shown; /* how messages name it */
    int fd;            /* open at its start, for a reader that streams;
                          -1 for one that reads by path */
} log_input;

typedef struct log_reader {
    const char *name; /* its word for --from: "inspect" */
    const char *unit;  /* what a record is, in the counts: "sample" */
    const char *units; /* and more than one: "samples" */
    int streams;      /* 1: reads in->fd from its start to its end, so
                         standard input too; 0: reads in->path itself (an
                         archive is read where it lies) */
    /* Reads the whole input: 0 read (problems said and counted), 1
     * stopped (--strict, or the sink said stop), -1 could not go on (e
     * set). */
    int (*read)(logr *r, const log_input *in, err *e);
    /* NULL for a reader that keeps nothing from one file to the next;
     * else what it keeps (lines.h, lr_hold) is written once no more
     * files of its format come next: 0, 1 stopped, -1 as read.  The
     * dispatcher calls it (logr_finish) before a file of another format
     * and after the last one; the caller releases what was held. */
    int (*finish)(logr *r, err *e);
} log_reader;

#endif
