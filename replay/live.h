/* live: what a live episode of the simulator writes, shared by `replay
 * sim` and `replay serve` so that the two write the same lines:
 *  - the transcript's lines (docs/transcript.md): run, episode, call, end;
 *  - the report's lines: one a call (its effect, error and dial), and the
 *    episode's verdict;
 *  - the episode id of a new session, unused in the transcript so far;
 *  - appending an episode whole to a transcript other processes may be
 *    appending to as well (an exclusive lock around the choice of the id
 *    and the write).
 * Every line builder appends one JSON object, without a newline, and
 * returns 0, or -1 out of memory. */
#ifndef TR_LIVE_H
#define TR_LIVE_H

#include <stdio.h>

#include "buf.h"
#include "keymap.h"
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

/* The episode id of a new session of task tid in run: tid itself, or,
 * when the transcript at path holds episodes of that task in that run
 * already, "TID.2", "TID.3"... after the highest there, so that trials
 * never share an id.  NULL out of memory (free it). */
char *live_episode_id(const char *path, const char *run, const char *tid);

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

/* What a long-lived writer knows of a transcript's episode ids, so that
 * each new episode reads only what was appended since the last (a server
 * that writes a night's episodes would read the file again at each one):
 * for each id of the run, with any ".N" taken off, the highest N seen
 * (1 for the id alone), and how far the file has been read.  A file that
 * shrank, or was replaced, is read again from its start. */
typedef struct live_ids {
    const char *run;
    keymap highest;
    long long read; /* bytes read, up to the end of a line */
    unsigned long long dev, ino;
} live_ids;

/* 0, or -1 out of memory (or no entropy for the map's seed). */
int live_ids_init(live_ids *ids, const char *run);
void live_ids_free(live_ids *ids);

/* The id of a new episode of task tid: tid itself, or "TID.N" after the
 * highest N known, which it becomes (free it; NULL out of memory).  An id
 * taken for an episode that is then not written is not given again. */
char *live_ids_take(live_ids *ids, const char *tid);

/* Appends an episode to the transcript at path whole, choosing its id
 * under an exclusive lock on the file: make(ctx, id, out) writes the
 * episode's lines, each ending in a newline, given the id chosen for task
 * tid in ids' run (as live_episode_id chooses it: tid, then "TID.2"...).
 * When the write fails, the file is cut back to what it was.  The id goes
 * to *id (free it).  0, or -1 with errno set (out of memory: ENOMEM;
 * make's failure is taken as out of memory). */
int live_append_episode(const char *path, live_ids *ids, const char *tid,
                        int (*make)(void *ctx, const char *id, buf *out),
                        void *ctx, char **id);

#endif
