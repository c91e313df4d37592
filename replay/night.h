/*
 * night: the replayer's engine.  Fed the lines of a night's transcripts in
 * order (whatever files they come from), it keeps the runs and the
 * episodes that are open, answers every call through the simulator, and
 * writes each episode whole into the results database when its end line
 * comes (or, without one, when the input ends: unfinished).
 *
 *  - Memory follows the episodes open at once, never the input's size;
 *    past max_open open episodes, the oldest is written as unfinished.
 *  - One (run, episode) is replayed once a night: an episode line for one
 *    seen before in the same night is a problem (the first stands).
 *  - An episode already recorded with the same content (XXH3 of its lines)
 *    is skipped; with other content it is replaced, and that is said.
 *  - Every line is counted once: used, unchanged (an episode skipped), or
 *    a problem (recorded in `problems`, and said on stderr as FILE:LINE:).
 *  - Episodes are committed in batches; a process killed at any moment
 *    leaves whole episodes only, and running again completes the job.
 *  - The database is written on a thread of its own (writer.h), while
 *    the next lines are answered; notes and problems are said from there,
 *    in input order, so a caller says its own last words after
 *    night_finish or night_free.
 *  - With shards, an episode belongs to shard XXH3-64("run\0episode")
 *    mod shards; the lines of other shards' episodes are counted apart.
 */
#ifndef TR_NIGHT_H
#define TR_NIGHT_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "value.h"

typedef struct night night;

typedef struct night_opts {
    const char *db_path;
    int strict;               /* stop at the first problem */
    const char *default_run;  /* --run: lines without "run" belong to it */
    const char *default_tools; /* --tools: declares that run's tool file */
    const char *model;        /* --model, for the declared run */
    FILE *diag;               /* problems and notes go here (stderr) */
    unsigned batch;           /* episodes per transaction (0: 4096) */
    unsigned shard, shards;   /* replay only the episodes of shard
                                 `shard` (0-based) of `shards` (0: all) */
    size_t max_open;          /* episodes open at once (0: 10000); past
                                 it the oldest is written unfinished */
    const char *const *tools_dirs; /* --tools-dir: where run lines' tool
                                      files may also be */
    size_t ntools_dirs;
    int any_tools_path;       /* --any-tools-path: run lines may name any
                                 file */
    int progress;             /* a progress line stands on diag: end it
                                 before saying anything */
} night_opts;

typedef struct night_counts {
    unsigned long lines, blank, used, unchanged, problems;
    unsigned long other_shards; /* lines of episodes of other shards */
    unsigned long runs, episodes, replaced, skipped, unfinished, calls;
    unsigned long evicted; /* written unfinished to keep max_open */
    unsigned long left_open; /* open when the input was cut short on
                                purpose (night_finish): not written */
    unsigned long skipped_files; /* not transcripts (night_skip_file) */
    double cpu_write, cpu_copy; /* the database's threads, once ended */
} night_counts;

/* Opens the database and declares the --run/--tools run, if any.
 * Errors (ERR_IO: the database; ERR_VALUE: the declared tool file) mean
 * the night cannot be replayed at all. */
int night_open(night **out, const night_opts *o, err *e);

/* One input line (no newline).  file names it in messages and the
 * database; dir is the folder tool paths are relative to.  Returns 0, 1
 * when it was a problem and --strict says stop, -1 when the database
 * failed (e set). */
int night_line(night *n, const char *file, const char *dir,
               unsigned long line, const char *text, size_t len, err *e);

/* night_line for a line whose value tree its writer has at hand (the
 * lines made from another harness's log): root is exactly the tree
 * json_load_member(text, "answer") reads (json_load.h: kinds, bytes,
 * flags, numbers, members and their order; only line and column may
 * differ), and answer_at and answer_len what it says of where the
 * answer is written (answer_len 0: not known).  The text is not parsed
 * again; it is still what is hashed, counted and quoted with a problem,
 * and everything night_line promises holds, with the same outcome and
 * the same rows.  Nothing of root is kept past the call. */
int night_record(night *n, const char *file, const char *dir,
                 unsigned long line, const char *text, size_t len,
                 const value *root, size_t answer_at, size_t answer_len,
                 err *e);

/* A file (or standard input, "<stdin>") begins: the problems an earlier
 * replay recorded for its lines are replaced by the ones this one finds.
 * A file is known by its key, the same however its path is spelled (its
 * resolved path, from the database's folder when under it), and its
 * problems are recorded under that key (those recorded under the path as
 * named are deleted too, unless that names another file).  0; 1 when
 * this night began the same file already (said: the caller skips it);
 * -1 when the database failed. */
int night_begin_file(night *n, const char *file, err *e);

/* A file that is not replayed (it is not a transcript): said, in input
 * order, as "replay: FILE: why"; nothing of it is recorded, and the
 * problems an earlier replay recorded for it are deleted. */
int night_skip_file(night *n, const char *file, const char *why, err *e);

/* A problem of a log itself, not of a line made from it (a record its
 * reader refused or could not read whole; docs/logs.md): recorded under
 * the file being read (night_begin_file) as its N-th such problem
 * (source_line -N, db.h), with where in the log it is (place: "" when
 * the problem is the whole file's), the run and episode it names (NULL:
 * none) and its message; not said (the caller says it) nor counted as a
 * line's problem.  0, or -1 when the database failed. */
int night_log_problem(night *n, const char *file, const char *place,
                      const char *run, const char *episode,
                      const char *message, err *e);

/* A line longer than the limit: a problem, with its first bytes. */
int night_long_line(night *n, const char *file, unsigned long line,
                    const char *start, size_t start_len, size_t len, err *e);

/* Ends the input: open episodes are written as unfinished (unless
 * write_open is 0: the input was cut short on purpose, by --strict or
 * Ctrl-C, and they are neither judged nor written: the rest of their lines
 * was not read, not missing), the last batch committed. */
int night_finish(night *n, int write_open, err *e);

/* The counts so far; exact after night_finish. */
const night_counts *night_get_counts(night *n);

/* The shard (0-based, of shards) an episode belongs to. */
unsigned night_shard_of(const char *run, const char *episode,
                        unsigned shards);
/* The same, of names given with their lengths (not NUL-terminated). */
unsigned night_shard_of_n(const char *run, size_t run_len,
                          const char *episode, size_t episode_len,
                          unsigned shards);

void night_free(night *n);

#endif
