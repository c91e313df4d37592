/*
 * lines: the layer under every log reader (reader.h).  What a reader
 * finds in a log is written here as the transcript lines that say the
 * same (docs/transcript.md): run, episode, call and end lines, made one
 * at a time from the values the reader parsed (never a piece of the
 * log's own text) and handed to the sink.  Here too are the problems
 * the readers find and the counts they keep.  The dispatcher (logs.h)
 * makes the logr, and says which reader reads which file (lr_begin).
 *
 * Promises:
 *  - A run's tools are written once per content, as an OpenAI tool file
 *    named by its hash (tools-HASH16.json), through a temporary file
 *    renamed, so that no one reads half of it; the run line names it.
 *    --tools FILE names the user's own instead.  A tool offered later
 *    that the file lacks, or defines otherwise, is a problem once per run
 *    and tool.
 *  - A problem is one line, FILE: PLACE: PATH: what, made safe for a
 *    terminal (what it quotes of the log can hold anything); the first
 *    LOG_PROBLEMS_SAID are handed to the sink, the rest counted.
 *  - Memory: the line being written (and its tree, for a sink that takes
 *    one), and per run the names of its tools.
 *  - It never prints and keeps no global state: a logr holds everything.
 */
#ifndef TR_LINES_H
#define TR_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "value.h"

/* Limits (docs/logs.md, "Limits"). */
#define LOG_RECORD_MAX (256u << 20) /* bytes of one record: a zip member,
                                       a line, a sample's tree */
#define LOG_PROBLEMS_SAID 100       /* problems said one by one */
#define LOG_READERS_MAX 8           /* formats counted apart */

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
    int no_seed;            /* a record's seed is its harness's own, never
                               the simulator's (tau2-bench's) */
    int each_agent;         /* otlp: every invoke_agent span an episode,
                               a nested one too (else the outermost) */
    int strict;             /* stop at the first problem */
} log_opts;

/* A problem a reader found: every one is handed to the sink, the first
 * LOG_PROBLEMS_SAID with say set and their line to say. */
typedef struct log_problem {
    const char *file;    /* the log, as named */
    const char *place;   /* where in it: "PLACE: PATH" (a zip member, a
                            line, a span; a JSON path), or NULL: the file */
    const char *message;
    const char *run;     /* the run it belongs to, when known, or NULL */
    int say;             /* among the first LOG_PROBLEMS_SAID */
    const char *text;    /* when say: the line to say, FILE: PLACE: PATH:
                            message (FILE:N for a line), safe for a
                            terminal; else NULL */
} log_problem;

/* Where the lines go.  line: one transcript line (no newline), its file
 * (the log, as named) and number in it, and dir, the folder its run
 * line's tool path is relative to; 0 to go on, 1 to stop (--strict),
 * -1 on failure (e set).  problem: a problem (above); 0, or -1 on
 * failure (e set: it ends the read).  record
 * (NULL: none): the same line with the value tree its text reads as,
 * made beside the text, which then need not be parsed again (for the
 * night: night_record, and its promises of root, answer_at and
 * answer_len); a line whose tree would cost more to be sure of than to
 * read goes to line instead.  The tree lives until the call returns. */
typedef struct log_sink {
    int (*line)(void *ctx, const char *file, const char *dir,
                unsigned long line, const char *text, size_t len, err *e);
    int (*problem)(void *ctx, const log_problem *p, err *e);
    void *ctx;
    int (*record)(void *ctx, const char *file, const char *dir,
                  unsigned long line, const char *text, size_t len,
                  const value *root, size_t answer_at, size_t answer_len,
                  err *e);
} log_sink;

typedef struct logr logr;
typedef struct lrun lrun;

/* The counts of one format. */
typedef struct log_counts {
    const char *format;        /* "inspect", "otlp", "messages" */
    const char *unit, *units;  /* "sample" and "samples", "span"... */
    unsigned long files, records, read, skipped, refused;
    unsigned long episodes, calls, problems, lines;
} log_counts;

/* NULL out of memory.  The options and the sink must outlive it. */
logr *logr_new(const log_opts *o, const log_sink *sink);

void logr_free(logr *r);

/* Hands each format's counts to say, one line each, prefixed
 * ("replay"), in the order of their slots (lr_begin); then a line of the
 * problems not said one by one, if any. */
void logr_summary(const logr *r, const char *prefix,
                  void (*say)(void *ctx, const char *text), void *ctx);

unsigned long logr_problems(const logr *r);
unsigned long logr_lines(const logr *r);

/* For the dispatcher: a file of format (named so, a record of it called
 * unit, more than one units) begins, named shown in messages; its counts
 * are kept in slot (below LOG_READERS_MAX), the format's place in the
 * dispatcher's list. */
void lr_begin(logr *r, int slot, const char *format, const char *unit,
              const char *units, const char *shown);

/* Whether --strict met a problem in the file begun last. */
int lr_stopped(const logr *r);

/* What a reader keeps from one file to the next of its format (OTLP's
 * traces still open, which the next file may go on with): state, owned
 * by owner (the reader), freed by free_fn when released (lr_release, a
 * hold of another state, logr_free).  lr_held is the owner's state, or
 * NULL; lr_holder the owner of what is held, or NULL. */
void lr_hold(logr *r, const void *owner, void *state,
             void (*free_fn)(void *));
void *lr_held(const logr *r, const void *owner);
const void *lr_holder(const logr *r);
void lr_release(logr *r);

/* ---------------------------------------------------------------- for
 * the readers.  Each of these is -1 only when reading cannot go on (e
 * set), 1 when the sink said stop (or --strict). */

/* The counts of the format being read, for its reader to add to. */
log_counts *lr_counts(logr *r);

/* The options. */
const log_opts *lr_opts(const logr *r);

/* The file being read, as messages name it. */
const char *lr_file(const logr *r);

/* The number of the file being read among those this logr began (0, 1,
 * ...; (size_t)-1 when its name could not be kept), for a reader that
 * holds a record from it (lr_hold) to write later: lr_as_file(r, no)
 * makes the lines and problems from then on that file's, numbered on
 * from its last line, until lr_as_file(r, lr_file_no(r)) makes them the
 * file being read's again.  The files' names are kept: a name each. */
size_t lr_file_no(const logr *r);
void lr_as_file(logr *r, size_t no);

/* A problem at place (a zip member, "line N", or NULL) and path (a JSON
 * path, or NULL): handed to the sink (said as "FILE: PLACE: PATH:
 * message") and counted.  0, or 1 to stop: --strict, or the sink failed
 * (lr_failed says so, and why). */
int lr_problem(logr *r, const char *place, const char *path,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* For the dispatcher: whether the sink failed on a problem since the
 * file began; then e says why. */
int lr_failed(const logr *r, err *e);

/* The run the problems said from now on belong to (NULL: none known),
 * until the next lr_run, lr_problem_run or file: a reader sets it when it
 * knows the run of a record before it writes the run's line (lr_run sets
 * it too).  --run's name, when given, is every problem's.  0, or -1 out
 * of memory. */
int lr_problem_run(logr *r, const char *run);

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
 * observed), task_name a string or an integer (or NULL).  Never a line
 * the engine refuses, which would lose the episode and its calls: a
 * seed without an arm (or an arm without a seed), or either of a kind
 * or value an episode line cannot hold, leaves both out (the episode is
 * observed), and such a task_name is left out, each a problem of the
 * record at place and path (lr_problem).  An episode of a run that this
 * read has written before (a record given twice) is a problem there,
 * and the record is left out: its lines (lr_call, lr_end) and its other
 * problems are not written, until its lr_end, the next lr_run or
 * lr_episode, or the next file.  0, 1 stop, -1. */
int lr_episode(logr *r, lrun *run, const char *episode, const value *seed,
               const value *arm, const value *task_name, const char *place,
               const char *path, err *e);

/* Whether the last episode line (lr_episode) is of an observed episode
 * (no seed and arm): its calls are counted, not replayed. */
int lr_observed(const logr *r);

/* A call line: the call in one of the transcript's shapes, the answer
 * the agent saw (NULL: none logged), and the seconds the tool took (NAN:
 * not logged). */
int lr_call(logr *r, lrun *run, const char *episode, const value *call,
            const value *answer, double duration, err *e);

/* What an episode used, as its log says: the model's tokens (-1: not
 * logged), its cost in US dollars and its seconds (NAN: not logged). */
typedef struct lr_usage {
    int64_t input_tokens, output_tokens;
    double cost, duration;
} lr_usage;

/* Nothing logged. */
void lr_usage_init(lr_usage *u);

/* An end line: status and final may be NULL, success -1 when not known,
 * reward NULL when not known, usage NULL when nothing is logged. */
int lr_end(logr *r, lrun *run, const char *episode, const char *status,
           const char *final, int success, const double *reward,
           const lr_usage *usage, err *e);

#endif
