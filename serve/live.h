/* live: what a live episode of the simulator writes, shared by `replay
 * sim` and `replay serve` so that the two write the same lines:
 *  - the transcript's lines (docs/transcript.md): run, episode, call, end;
 *  - the report's lines: one a call (its effect, error and dial), and the
 *    episode's verdict;
 *  - the episode id of a new session, which no other session's shares;
 *  - whether a call can be recorded: its line must be one `replay` reads
 *    (at most TRANSCRIPT_LINE_LIMIT bytes, nested at most VALUE_MAX_DEPTH
 *    levels);
 *  - appending an episode whole to a transcript other processes may be
 *    appending to as well (under an exclusive lock on the file), written
 *    as it is made, so that writing it takes little memory.
 * Every line builder appends one JSON object, without a newline, and
 * returns 0, or -1 out of memory. */
#ifndef TR_LIVE_H
#define TR_LIVE_H

#include <stdio.h>

#include "buf.h"
#include "sim.h"
#include "task.h"

/* The file at path opened with mode, or standard output itself when path
 * is "-" or names the file standard output goes to (a second stream on it
 * would truncate it, or write over the answers). */
FILE *live_open_output(const char *path, const char *mode);

/* fclose, or fflush for standard output: 0, or EOF when what was written
 * could not be. */
int live_close_output(FILE *f);

/* path written relative to the folder of the file `from` (which may not
 * exist yet), as a run line names its tool file; NULL when either cannot
 * be resolved, or out of memory (free it). */
char *live_relative_to(const char *path, const char *from);

/* The room an episode id of live_episode_id takes, its NUL included. */
#define LIVE_ID_SIZE 64

/* The id of a new episode of task tid: tid, '-', and 12 hex digits drawn
 * from the system's random source, so that sessions of one task never
 * share an id, whatever transcripts they are written to and however many
 * processes write them (two collide with a chance of one in 2^48).  0, or
 * -1 when the system gives no random bytes (errno set). */
int live_episode_id(char id[LIVE_ID_SIZE], const char *tid);

/* {"type":"run","run":R,"tools":TOOLS,"tools_sha256":SHA[,"model":M]} */
int live_run_line(buf *b, const char *run, const char *tools,
                  const char *sha256, const char *model);

/* {"type":"episode","run":R,"episode":E,"seed":N,"arm":A} */
int live_episode_line(buf *b, const char *run, const char *episode,
                      const task *t);

/* {"type":"call","run":R,"episode":E,"call":CALL,"answer":ANSWER}: CALL
 * is the call's text as canon_append_loose writes it (call_len bytes:
 * always one line of our own writing, never the bytes a client sent, so
 * that no one can write a line of a transcript through a call); ANSWER is
 * the simulator's answer, as it wrote it. */
int live_call_line(buf *b, const char *run, const char *episode,
                   const char *call, size_t call_len, const char *answer,
                   size_t answer_len);

/* {"type":"end","run":R,"episode":E,"status":S} */
int live_end_line(buf *b, const char *run, const char *episode,
                  const char *status);

/* A call's report line: {["episode":E,]"call":N[,"line":L],"tool":T,
 * "step":S,"effect":F,"error":C,"dial":D}; episode NULL and line 0 leave
 * those out. */
int live_report_call(buf *b, const char *episode, unsigned call,
                     unsigned long line, const task *t, const sim_result *r);

/* The verdict's report line: {["episode":E,]"verdict":{...}}. */
int live_report_verdict(buf *b, const char *episode, const task *t,
                        const sim_verdict *v);

/* The one-line summary of a verdict `replay sim` prints on stderr, without
 * a newline: "3 calls; reached, a pass (0 side effects, ...)". */
int live_verdict_summary(buf *b, const task *t, const sim_verdict *v);

/* The most bytes the call itself (its text, and the line's run and
 * episode) may take of its transcript line: what is left of the line is
 * room for the answer.  A call past it is refused before it is answered
 * (live_call_fits), so that it never reaches the simulator. */
#define LIVE_CALL_MAX (1u << 20)

/* The length of the call line live_call_line writes for run, episode, a
 * call of call_len bytes and an answer of answer_len; SIZE_MAX out of
 * memory. */
size_t live_call_line_size(const char *run, const char *episode,
                           size_t call_len, size_t answer_len);

/* Whether a call (its text as canon_append_loose writes it, len bytes)
 * can be recorded in run and episode: its part of the line at most
 * LIVE_CALL_MAX bytes, and the line nested no deeper than a reader takes.
 * 1 yes; 0 no, with the reason in why (one sentence, no newline, what to
 * do said); -1 out of memory. */
int live_call_fits(const char *run, const char *episode, const char *call,
                   size_t len, buf *why);

/* An episode's lines on their way to a transcript file: make writes each
 * line into b and then calls live_writer_line, which writes what b holds
 * to the file once it passes 64 KiB, so that the episode is never whole in
 * memory.  fd -1: everything stays in b (for a caller that wants the
 * text). */
typedef struct live_writer {
    buf b;
    int fd;
} live_writer;

/* Ends a line written into w->b: 0, or -1 with errno set (ENOMEM out of
 * memory, or the write's error). */
int live_writer_line(live_writer *w);

/* Appends an episode to the transcript at path whole, under an exclusive
 * lock on the file (so that episodes appended by other processes never
 * interleave with it): make(ctx, w) writes its lines through w, each with
 * its newline.  When a write fails, the file is cut back to what it was.
 * 0, or -1 with errno set (make's failure without errno is out of memory,
 * ENOMEM). */
int live_append_episode(const char *path,
                        int (*make)(void *ctx, live_writer *w), void *ctx);

#endif
