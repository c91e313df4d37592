/*
 * logs: the reading layer for logs that other harnesses write (docs/logs.md).
 * One reader per format, each in a module of its own:
 *   inspect   Inspect AI eval logs, .eval (a zip archive) and .json
 *             (log_inspect.h)
 *   otlp      OpenTelemetry traces in OTLP JSON, GenAI conventions
 *             (log_otlp.h)
 *   messages  chat message trajectories, OpenAI or Anthropic form
 *             (log_messages.h)
 * Each turns a log into the transcript lines (docs/transcript.md) that
 * say the same: run, episode, call and end lines, written here, one at a
 * time, from the values the reader parsed (never a piece of the log's
 * own text), and handed to the sink.  `replay import` writes them into a
 * file; `replay --from` hands them to the night engine: the same lines,
 * so the same database.
 *
 * Promises:
 *  - Every record of the input (a sample, a span, a trajectory) is
 *    counted once: read, skipped (a span of no GenAI operation) or
 *    refused (a problem said why); logr_summary says the counts.
 *  - A problem is one line, FILE: PLACE: what, and what to do, where
 *    PLACE is a zip member and a JSON path, or a line and a JSON path;
 *    the rest of the input is read.
 *  - Memory follows one record at a time (a sample, a trajectory), and
 *    for OTLP the traces kept open (log_otlp.h); a run's tool names.
 *  - The tool definitions a log carries are written once per content, as
 *    an OpenAI tool file named by its hash (tools-HASH16.json), and the
 *    run line names it; --tools FILE names the user's own instead.
 *  - No global state: a logr holds everything.
 */
#ifndef TR_LOGS_H
#define TR_LOGS_H

#include <stddef.h>

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "strmap.h"
#include "value.h"

enum log_format {
    LOG_AUTO,       /* recognised from the content */
    LOG_INSPECT,
    LOG_OTLP,
    LOG_MESSAGES,
    LOG_TRANSCRIPT, /* found by LOG_AUTO: our own JSONL */
    LOG_UNKNOWN     /* found by LOG_AUTO: none of them */
};
#define LOG_FORMATS 3 /* inspect, otlp, messages */

/* Limits (docs/logs.md, "Limits"). */
#define LOG_RECORD_MAX (256u << 20) /* bytes of one record: a zip member,
                                       a line, a sample's tree */
#define LOG_PROBLEMS_SAID 100       /* problems said one by one */

/* "inspect", "otlp", "messages", "auto"; 0, or -1 for another word. */
int log_format_parse(const char *word, enum log_format *f);

/* The options of import and --from. */
typedef struct log_opts {
    const char *run;        /* every episode into this run */
    const char *model;      /* the runs' model, when the log has none */
    const char *tools;      /* the user's tool file: used for every run */
    const char *tools_out;  /* where the logs' tool files are written
                               (NULL: rel_dir) */
    const char *rel_dir;    /* the folder the lines are read from: a tool
                               file written there is named by its name */
    const char *score;      /* inspect: the scorer whose score is read */
    const char *task_key;   /* messages: dotted paths in a record */
    const char *success_key, *success_value;
    const char *reward_key;
    const char *messages_key;
    const char *trial_key;
    const char *id_key;
    int strict;             /* stop at the first problem */
} log_opts;

/* Reads the option at argv[*i] when it is one of the logs' (--score,
 * --task, --success, --reward, --messages, --trial, --id, --preset,
 * --tools-out): 1 and *i moved past its value, 0 when it is none of
 * them, -1 after a usage error was said. */
int log_option(log_opts *o, int argc, char **argv, int *i);

/* Where the lines go.  line: one transcript line (no newline), its file
 * (the log, as named) and number in it, and dir, the folder its run
 * line's tool path is relative to; 0 to go on, 1 to stop (--strict),
 * -1 on failure (e set).  problem: a formatted problem line.  record
 * (NULL: none): the same line with the value tree its text reads as,
 * made beside the text, which then need not be parsed again (for the
 * night: night_record, and its promises of root, answer_at and
 * answer_len); a line whose tree would cost more to be sure of than to
 * read goes to line instead.  The tree lives until the call returns. */
typedef struct log_sink {
    int (*line)(void *ctx, const char *file, const char *dir,
                unsigned long line, const char *text, size_t len, err *e);
    void (*problem)(void *ctx, const char *text);
    void *ctx;
    int (*record)(void *ctx, const char *file, const char *dir,
                  unsigned long line, const char *text, size_t len,
                  const value *root, size_t answer_at, size_t answer_len,
                  err *e);
} log_sink;

typedef struct logr logr;

/* NULL out of memory.  The options and the sink must outlive it. */
logr *logr_new(const log_opts *o, const log_sink *sink);

/* Reads a log in format f (LOG_AUTO: recognised first; "-" is standard
 * input, which needs a format).  shown names it in messages.  0 read
 * (problems said and counted), 1 stopped (--strict, or the sink said
 * stop), -1 could not go on (e set: out of memory, a tool file that
 * cannot be written, the sink's failure). */
int logr_read(logr *r, const char *path, const char *shown,
              enum log_format f, err *e);

/* The format of the file at path, from its first bytes: LOG_TRANSCRIPT,
 * LOG_UNKNOWN (or when it cannot be read), or a log's. */
enum log_format log_detect(const char *path);

/* Whether a file's name is one that a folder walk takes for format f
 * (.eval and .json for inspect; .json and .jsonl otherwise). */
int log_name_matches(const char *name, enum log_format f);

/* Says each format's counts, one line each, prefixed ("replay"). */
void logr_summary(const logr *r, const char *prefix);

unsigned long logr_problems(const logr *r);
unsigned long logr_lines(const logr *r);

void logr_free(logr *r);

/* ---------------------------------------------------------------- for
 * the readers.  A reader reads its input with the helpers below, and
 * says what it found with lr_*; each is -1 only when reading cannot go
 * on (e set), 1 when the sink said stop. */

typedef struct lrun lrun;

/* The counts of one format. */
typedef struct log_counts {
    const char *unit;          /* "samples", "spans", "records" */
    unsigned long files, records, read, skipped, refused;
    unsigned long episodes, calls, problems, lines;
} log_counts;

/* The counts of format f, for a reader to add to. */
log_counts *lr_counts(logr *r, enum log_format f);

/* The options. */
const log_opts *lr_opts(const logr *r);

/* A problem at place (a zip member, "line N", or NULL) and path (a JSON
 * path, or NULL): said as "FILE: PLACE: PATH: message" and counted.
 * 0, or 1 when --strict says stop. */
int lr_problem(logr *r, const char *place, const char *path,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The run name (NULL: --run's, which wins anyway), its model (NULL:
 * --model's), meta (an object or NULL) and the tools offered (an array
 * of OpenAI tools {"type":"function","function":{...}}, or NULL: none
 * known).  The first call for a name writes its tool file and its run
 * line; a later one checks the tools offered against that file: a tool
 * it lacks, or defines otherwise, is a problem once per run and tool.
 * *out is the run. */
int lr_run(logr *r, const char *name, const char *model, const value *meta,
           const value *tools, const char *place, lrun **out, err *e);

/* The name of the file being read, without its folder and extension
 * ("stdin" for standard input): a run's name when the log has none. */
void lr_stem(const logr *r, char *out, size_t size);

/* An episode line.  seed and arm as the log gives them (NULL: none:
 * observed), task_name a string or an integer (or NULL). */
int lr_episode(logr *r, lrun *run, const char *episode, const value *seed,
               const value *arm, const value *task_name, err *e);

/* A call line: the call in one of the transcript's shapes, and the
 * answer the agent saw (NULL: none logged). */
int lr_call(logr *r, lrun *run, const char *episode, const value *call,
            const value *answer, err *e);

/* An end line: status and final may be NULL, success -1 when not known,
 * reward NULL when not known. */
int lr_end(logr *r, lrun *run, const char *episode, const char *status,
           const char *final, int success, const double *reward, err *e);

/* An OpenAI tool {"type":"function","function":{name, description,
 * parameters}} made from a name, a description (may be NULL) and a
 * parameters schema (NULL: an object schema with no properties). */
value *lr_openai_tool(arena *a, const value *name, const value *description,
                      const value *parameters);

/* The value at a dotted path ("info.reward", "a.0.b": an index into an
 * array) under v, or NULL. */
const value *lr_path(const value *v, const char *dotted);

/* Appends the text of a message's content: a string as it is; a list of
 * parts, the text of each text part ("text" member), joined by "\n".
 * 0 when there is any text, 1 when there is none, -1 out of memory. */
int lr_content_text(buf *out, const value *content);

/* The calls of one episode, matched with their answers by call id. */
typedef struct lr_call_item {
    const value *call;   /* in one of the transcript's shapes */
    const value *id;     /* a string, or NULL */
    const value *answer; /* NULL until answered */
    size_t at[2];        /* where the call is, in its reader's terms */
} lr_call_item;

/* Writes where a call is (from its at) into out, size bytes, for a
 * problem: a place is written only when a problem names it, never for
 * the calls that are in order. */
typedef void (*lr_place_fn)(void *ctx, const lr_call_item *it, char *out,
                            size_t size);

typedef struct lr_calls {
    lr_call_item *items;
    size_t n, cap;
    strmap ids;
    lr_place_fn place; /* NULL: no place is said */
    void *place_ctx;   /* as the reader set them */
} lr_calls;

/* Adds a call (its id a string, or NULL) at (at0, at1) as c->place reads
 * them; the values must outlive c.  0, 1 when the id was given to
 * another call already (not added), -1 out of memory. */
int lrc_add(lr_calls *c, const value *call, const value *id, size_t at0,
            size_t at1);

/* Answers the call of that id: 0; 1 no call has it; 2 it was answered
 * already; -1 out of memory. */
int lrc_answer(lr_calls *c, const value *id, const value *answer);

/* Answers the oldest call without an id and without an answer: 0, or 1
 * when there is none. */
int lrc_answer_next(lr_calls *c, const value *answer);

/* Writes the calls in order; a call without an answer is written all
 * the same, and is a problem (file, its place, at most 159 bytes of it).
 * 0, 1 stop, -1. */
int lrc_emit(logr *r, lrun *run, const char *episode, lr_calls *c,
             err *e);

/* Forgets the calls (keeps the memory, and the place function, for the
 * next episode). */
void lrc_reset(lr_calls *c);
void lrc_free(lr_calls *c);

/* A JSON input read record by record: JSON Lines (one record a line;
 * blank lines skipped) when its first line that is not blank is a JSON
 * value by itself, else one document, read piece by piece (jstream.h,
 * with streamed as there).  fn gets each record: place ("line N", or
 * NULL in a document), key and index as jstream gives them (NULL and
 * (size_t)-1 for a line), and v; or, for a record that cannot be read,
 * v NULL and bad, why (a line that is not JSON, too long).  A document
 * that breaks off is said as a problem once, after the records before
 * the break.  0, 1 stop, -1 (e set). */
typedef int (*lr_record_fn)(void *ctx, const char *place, const char *key,
                            size_t index, const value *v, const char *bad,
                            err *e);
int lr_read_json(logr *r, int fd, const char *const *streamed,
                 lr_record_fn fn, void *ctx, err *e);

#endif
