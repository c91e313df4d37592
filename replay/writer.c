/* writer: see writer.h.  A ring of job pointers between the engine's
 * thread and this one, under one mutex. */
#define _XOPEN_SOURCE 700
#include "writer.h"


#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "buf.h"
#include "generator_version.h"
#include "utf8.h"


enum job_kind { J_EPISODE = 1, J_PROBLEM, J_RUN };

/* The write-ahead log is copied into the database by a third thread, on
 * a connection of its own, once it holds CK_BYTES of pages, so that the
 * copy and its fsyncs overlap the writing; past CK_WAIT bytes (the copier
 * not keeping up) the writer waits for a whole copy. */
#define CK_BYTES ((uint64_t)16 << 20)
#define CK_WAIT (16 * CK_BYTES)

enum problem_mode {
    P_RECORD, /* say it and record it */
    P_FIRST,  /* the same, adding where the episode's first line is */
    P_CLEAR,  /* a file begins: forget the problems it had before */
    P_NOTE,   /* say "replay: FILE: message", in its place, and no more */
    P_QUIET,  /* record it without saying it */
    P_FORGET  /* a run is replayed: delete its problems whose message
                 begins with the job's message (its earlier refusals) */
};

struct problem_job {
    writer_job job;
    enum problem_mode mode;
    db_problem p; /* its strings follow the job */
};

struct run_job {
    writer_job job;
    const toolset *ts;
    const char *path;
    const db_run *r;
    int done, rc; /* the caller waits for done */
    err e;
};

struct writer {
    db *d;
    FILE *diag;
    int clear_line; /* a progress line may stand on diag: end it first */
    unsigned batch, in_batch;
    int in_txn;
    unsigned long say, said;

    pthread_t thread;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t wake, room, done;
    writer_job *head, *tail; /* waiting, oldest first */
    unsigned count, depth;
    unsigned wake_at;        /* jobs that wake an idle writer (see put) */
    int idle, full;          /* a thread waits on wake, on room */
    writer_episode *back;    /* written: to release on the engine's thread */
    int closing, abort, failed;
    err failure;
    writer_counts c;    /* under mu, for the engine's thread */
    writer_counts mine; /* the writer's, not yet in c */

    db *ck;            /* the copier's connection; NULL: SQLite copies */
    pthread_t ck_thread;
    int ck_started, ck_want, ck_stop;
    pthread_cond_t ck_wake;
    int ck_wait;       /* the writer's: the log is past CK_WAIT */
    buf task_json;     /* the writer's: parts of an episode's task's JSON */
};

/* ------------------------------------------------- on the writer's thread */

static int in_txn(writer *w, err *e)
{
    if (w->in_txn)
        return 0;
    if (db_begin(w->d, e) < 0)
        return -1;
    w->in_txn = 1;
    return 0;
}

static int commit(writer *w, err *e)
{
    if (w->in_txn && db_commit(w->d, e) < 0)
        return -1;
    w->in_txn = 0;
    w->in_batch = 0;
    if (w->ck_wait) {
        w->ck_wait = 0;
        return db_checkpoint(w->d, 1, e);
    }
    return 0;
}

/* A row (an episode, or a problem: a night of nothing but problems, its
 * tool files moved away, must commit as often as any other rather than
 * grow the log by every line) counts towards the batch; commits when the
 * batch is whole. */
static int row_done(writer *w, err *e)
{
    if (++w->in_batch >= w->batch)
        return commit(w, e);
    return 0;
}

/* After each commit (on the writer's thread): wakes the copier. */
static void on_log(void *ctx, uint64_t bytes)
{
    writer *w = ctx;
    if (bytes < CK_BYTES)
        return;
    w->ck_wait = bytes >= CK_WAIT;
    pthread_mutex_lock(&w->mu);
    w->ck_want = 1;
    pthread_cond_signal(&w->ck_wake);
    pthread_mutex_unlock(&w->mu);
}

/* CPU seconds the calling thread has used. */
static double thread_cpu(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return 0;
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Names the calling thread, for top -H, ps -L and perf. */
static void name_thread(const char *name)
{
#ifdef __linux__
    prctl(PR_SET_NAME, name, 0, 0, 0);
#else
    (void)name;
#endif
}

static void *copy_loop(void *arg)
{
    writer *w = arg;
    name_thread("replay-copy");
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->ck_want && !w->ck_stop)
            pthread_cond_wait(&w->ck_wake, &w->mu);
        if (!w->ck_want)
            break;
        w->ck_want = 0;
        pthread_mutex_unlock(&w->mu);
        err e;
        err_clear(&e);
        int rc = db_checkpoint(w->ck, 0, &e);
        pthread_mutex_lock(&w->mu);
        if (rc < 0 && !w->failed) {
            w->failed = 1;
            w->failure = e;
            pthread_cond_broadcast(&w->room);
        }
    }
    w->c.cpu_copy = thread_cpu();
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Adds the episode counts of add to *to. */
static void add_to(writer_counts *to, const writer_counts *add)
{
    to->used += add->used;
    to->unchanged += add->unchanged;
    to->episodes += add->episodes;
    to->skipped += add->skipped;
    to->replaced += add->replaced;
    to->unfinished += add->unfinished;
    to->calls += add->calls;
}

/* Counts are kept by the writer for a round, then handed to the engine's
 * thread at once (under w->mu), so the two do not meet per episode. */
static void count(writer *w, const writer_counts *add)
{
    add_to(&w->mine, add);
}

/* Under w->mu. */
static void add_counts(writer *w)
{
    add_to(&w->c, &w->mine);
    memset(&w->mine, 0, sizeof w->mine);
}

/* Writes a line of b to diag, ending a progress line first. */
static void say_text(writer *w, const buf *b)
{
    if (w->clear_line)
        fputs("\r\033[K", w->diag);
    fwrite(b->data, 1, b->len, w->diag);
}

static int write_episode(writer *w, writer_episode *ep, err *e)
{
    const db_episode *row = &ep->row;
    char was[17];
    writer_counts add = {0};
    if (in_txn(w, e) < 0)
        return -1;
    /* most episodes are new: written at once, looked up only when there */
    int found = db_put_episode(w->d, row, ep->calls, ep->ncalls, ep->outcomes,
                               ep->noutcomes, was, e);
    if (found < 0)
        return -1;
    if (found && strcmp(was, row->content_xxh3) == 0) {
        add.unchanged = ep->lines;
        add.skipped = 1;
        count(w, &add);
        return 0;
    }
    if (found) {
        add.replaced = 1;
        buf b = BUF_INIT;
        utf8_shown(&b, row->source_file, strlen(row->source_file), (size_t)-1);
        buf_printf(&b, ":%lu: episode \"", row->source_line);
        utf8_shown(&b, row->episode, strlen(row->episode), 200);
        buf_puts(&b, "\" of run \"");
        utf8_shown(&b, row->run, strlen(row->run), 200);
        buf_puts(&b, "\" changed since it was recorded: replaced\n");
        if (!b.failed)
            say_text(w, &b);
        buf_free(&b);
        if (db_delete_episode(w->d, row->run, row->episode, e) < 0)
            return -1;
        found = db_put_episode(w->d, row, ep->calls, ep->ncalls,
                               ep->outcomes, ep->noutcomes, was, e);
        if (found != 0) /* 1 cannot be, after the delete */
            return found < 0 ? -1
                             : err_set(e, ERR_IO, "episode \"%s\" of run "
                                                  "\"%s\" could not be "
                                                  "replaced",
                                       row->episode, row->run);
    }
    int fresh = row->task_id ? db_task_is_new(w->d, row->task_id, e) : 0;
    if (fresh < 0)
        return -1;
    if (fresh && ep->task_json) { /* the task's JSON, lent */
        if (db_put_task(w->d, row->task_id, ep->file_sha256, row->seed,
                        row->arm, ep->depth, GENERATOR_VERSION, ep->request,
                        ep->task_json, e) < 0)
            return -1;
    } else if (fresh) { /* the parts of its JSON a row keeps, written here */
        task_parts p;
        buf_reset(&w->task_json);
        if (task_write_parts(&w->task_json, ep->task, &p, e) < 0)
            return -1;
        const char *at = w->task_json.data;
        if (db_put_task_parts(w->d, row->task_id, ep->file_sha256, row->seed,
                              row->arm, ep->depth, GENERATOR_VERSION,
                              ep->request, at + p.steps, p.nsteps,
                              at + p.events, p.nevents,
                              p.nbaddata ? at + p.baddata : NULL, p.nbaddata,
                              e) < 0)
            return -1;
    }
    add.used = ep->lines;
    add.episodes = 1;
    add.calls = ep->ncalls;
    add.unfinished = (unsigned long)row->unfinished;
    count(w, &add);
    return row_done(w, e);
}

/* Says a problem on diag, while fewer than `say` were said.  The file
 * name and the message carry input (a message quotes what the line
 * holds): both are shown escaped (utf8_shown), so that a newline or an
 * escape sequence in them cannot forge a FILE:LINE: line. */
static void say_problem(writer *w, const db_problem *p)
{
    if (w->said < w->say) {
        buf b = BUF_INIT;
        w->said++;
        const char *file = p->shown_file ? p->shown_file : p->source_file;
        utf8_shown(&b, file, strlen(file), (size_t)-1);
        buf_printf(&b, ":%lu: ", p->source_line);
        utf8_shown(&b, p->message, strlen(p->message), (size_t)-1);
        buf_putc(&b, '\n');
        if (!b.failed)
            say_text(w, &b);
        buf_free(&b);
    }
}

static int clear_problems(writer *w, const char *file, err *e)
{
    if (in_txn(w, e) < 0)
        return -1;
    return db_delete_problems(w->d, file, e);
}

static int write_problem(writer *w, const db_problem *p, err *e)
{
    if (in_txn(w, e) < 0 || db_put_problem(w->d, p, e) < 0)
        return -1;
    return row_done(w, e);
}

static int write_run(writer *w, struct run_job *j)
{
    if (in_txn(w, &j->e) < 0 ||
        db_put_tool_file(w->d, j->ts, j->path, &j->e) < 0)
        return -1;
    return db_put_run(w->d, j->r, &j->e);
}

/* Does one job; -1 when the database failed (e set).  Problems are freed
 * here; episodes go back to the engine. */
static int do_job(writer *w, writer_job *j, int skip, err *e,
                  writer_episode **back)
{
    int rc = 0;
    switch (j->kind) {
    case J_EPISODE: {
        writer_episode *ep = (writer_episode *)j;
        if (!skip)
            rc = write_episode(w, ep, e);
        ep->job.next = (writer_job *)*back;
        *back = ep;
        return rc;
    }
    case J_PROBLEM: {
        struct problem_job *p = (struct problem_job *)j;
        char msg[1200], where[700];
        if (p->mode == P_NOTE) {
            buf b = BUF_INIT;
            buf_puts(&b, "replay: ");
            utf8_shown(&b, p->p.source_file, strlen(p->p.source_file),
                       (size_t)-1);
            buf_printf(&b, ": %s\n", p->p.message);
            if (!b.failed)
                say_text(w, &b);
            buf_free(&b);
            free(p);
            return 0;
        }
        if (p->mode == P_CLEAR) {
            rc = skip ? 0 : clear_problems(w, p->p.source_file, e);
            free(p);
            return rc;
        }
        if (p->mode == P_FORGET) {
            if (!skip)
                rc = in_txn(w, e) < 0 ? -1
                                      : db_delete_run_problems(
                                            w->d, p->p.run, p->p.message, e);
            free(p);
            return rc;
        }
        if (p->mode == P_FIRST && !skip &&
            (rc = db_episode_source(w->d, p->p.run, p->p.episode, where,
                                    sizeof where, e)) > 0) {
            snprintf(msg, sizeof msg, "%s; the first is at %s", p->p.message,
                     where);
            p->p.message = msg;
        }
        if (rc < 0) {
            free(p);
            return -1;
        }
        rc = 0;
        if (p->mode != P_QUIET)
            say_problem(w, &p->p); /* even when it is not recorded */
        if (!skip)
            rc = write_problem(w, &p->p, e);
        free(p);
        return rc;
    }
    default: {
        struct run_job *r = (struct run_job *)j;
        rc = skip ? -1 : write_run(w, r);
        if (rc < 0 && !skip)
            *e = r->e;
        pthread_mutex_lock(&w->mu);
        if (skip) /* the caller is told why nothing was written */
            r->e = w->failure;
        r->rc = rc;
        r->done = 1;
        pthread_cond_broadcast(&w->done);
        pthread_mutex_unlock(&w->mu);
        return rc < 0 ? -1 : 0;
    }
    }
}

/* The writer, idle, waits to be woken (put), or a tenth of a second:
 * jobs fewer than put wakes it for are then taken all the same.  Without
 * that, the last few jobs before the engine waits on its input (a pipe
 * that says nothing for a while) would wait with it, unwritten, however
 * long it waits, and a batch they complete would not be committed. */
static void idle_wait(writer *w)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += 100000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&w->wake, &w->mu, &t);
}

/* Takes every waiting job at once, so that the two threads meet rarely. */
static void *main_loop(void *arg)
{
    writer *w = arg;
    name_thread("replay-write");
    writer_episode *back = NULL;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        add_counts(w);
        if (back) { /* the last round's episodes, for the engine to free */
            writer_episode *last = back;
            while (last->job.next)
                last = (writer_episode *)last->job.next;
            last->job.next = (writer_job *)w->back;
            w->back = back;
            back = NULL;
        }
        while (!w->head && !w->closing) {
            w->idle = 1;
            idle_wait(w);
            w->idle = 0;
        }
        writer_job *j = w->head;
        if (!j) {
            pthread_mutex_unlock(&w->mu);
            break;
        }
        w->head = w->tail = NULL;
        w->count = 0;
        int skip = w->failed || w->abort;
        if (w->full)
            pthread_cond_signal(&w->room);
        pthread_mutex_unlock(&w->mu);
        while (j) {
            writer_job *next = j->next;
            err e;
            err_clear(&e);
            if (do_job(w, j, skip, &e, &back) < 0 && !skip) {
                skip = 1;
                pthread_mutex_lock(&w->mu);
                w->failed = 1;
                w->failure = e;
                pthread_cond_broadcast(&w->room);
                pthread_mutex_unlock(&w->mu);
            }
            j = next;
        }
    }
    pthread_mutex_lock(&w->mu);
    add_counts(w);
    int end_well = !w->failed && !w->abort;
    pthread_mutex_unlock(&w->mu);
    if (end_well) {
        err e;
        err_clear(&e);
        /* the lookup indexes of a new database are made here, while the
         * copier still copies (and syncs) the last of the log */
        if (commit(w, &e) < 0 || db_load_end(w->d, &e) < 0) {
            pthread_mutex_lock(&w->mu);
            w->failed = 1;
            w->failure = e;
            pthread_mutex_unlock(&w->mu);
        }
    }
    pthread_mutex_lock(&w->mu);
    w->c.cpu_write = thread_cpu();
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* --------------------------------------------- on the engine's thread */

int writer_start(writer **out, db *d, const char *path, FILE *diag,
                 unsigned batch, unsigned depth, unsigned long say, err *e)
{
    writer *w = calloc(1, sizeof *w);
    *out = w;
    if (!w)
        return err_set(e, ERR_NOMEM, "out of memory");
    w->d = d;
    w->diag = diag;
    w->batch = batch ? batch : 1;
    w->depth = depth ? depth : 1;
    w->wake_at = w->depth / 4 < w->batch ? w->depth / 4 : w->batch;
    if (w->wake_at == 0)
        w->wake_at = 1;
    w->say = say;
    pthread_mutex_init(&w->mu, NULL);
    /* wake is waited on with a timeout (idle_wait), on the clock that
     * setting the time does not move */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&w->room, NULL);
    pthread_cond_init(&w->done, NULL);
    pthread_cond_init(&w->ck_wake, NULL);
    if (db_checkpoint_open(&w->ck, path, e) < 0)
        return -1;
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc == 0) {
        /* SQLite needs little stack; a small one keeps the address space
         * (ulimit -v) small too */
        pthread_attr_setstacksize(&attr, (size_t)2 << 20);
        rc = pthread_create(&w->ck_thread, &attr, copy_loop, w);
        if (rc == 0) {
            w->ck_started = 1;
            db_wal_notify(d, on_log, w);
            rc = pthread_create(&w->thread, &attr, main_loop, w);
        }
        pthread_attr_destroy(&attr);
    }
    if (rc != 0)
        return err_set(e, ERR_NOMEM, "cannot start the database's thread: %s",
                       strerror(rc));
    w->started = 1;
    return 0;
}

static void release_all(writer_episode *ep)
{
    while (ep) {
        writer_episode *next = (writer_episode *)ep->job.next;
        ep->release(ep->owner);
        ep = next;
    }
}

/* Queues a job, waiting for room; -1 (the failure in e) once the writer
 * has failed, and the job is not queued.  Releases what came back. */
static int put(writer *w, writer_job *j, err *e)
{
    j->next = NULL;
    pthread_mutex_lock(&w->mu);
    while (w->count >= w->depth && !w->failed) {
        w->full = 1;
        pthread_cond_wait(&w->room, &w->mu);
        w->full = 0;
    }
    writer_episode *back = w->back;
    w->back = NULL;
    int failed = w->failed;
    if (failed) {
        *e = w->failure;
    } else {
        if (w->tail)
            w->tail->next = j;
        else
            w->head = j;
        w->tail = j;
        w->count++;
        /* An idle writer is woken for a handful of jobs, not for each:
         * when it keeps up, a wake per episode costs more than the
         * episode (fewer wait at most a tenth of a second: idle_wait).
         * A run's caller waits for its job: that one wakes. */
        if (w->idle && (w->count >= w->wake_at || j->kind == J_RUN))
            pthread_cond_signal(&w->wake);
    }
    pthread_mutex_unlock(&w->mu);
    release_all(back);
    return failed ? -1 : 0;
}

int writer_put_episode(writer *w, writer_episode *ep, err *e)
{
    ep->job.kind = J_EPISODE;
    if (put(w, &ep->job, e) < 0) {
        ep->release(ep->owner);
        return -1;
    }
    return 0;
}

/* A copy of s at *at, which moves past it; NULL stays NULL. */
static const char *copy_to(char **at, const char *s, size_t len)
{
    if (!s)
        return NULL;
    char *d = *at;
    memcpy(d, s, len);
    d[len] = '\0';
    *at = d + len + 1;
    return d;
}

static int put_problem(writer *w, const db_problem *p,
                       enum problem_mode mode, err *e);

int writer_put_problem(writer *w, const db_problem *p, err *e)
{
    return put_problem(w, p, P_RECORD, e);
}

int writer_put_problem_first(writer *w, const db_problem *p, err *e)
{
    return put_problem(w, p, P_FIRST, e);
}

int writer_put_problem_quiet(writer *w, const db_problem *p, err *e)
{
    return put_problem(w, p, P_QUIET, e);
}

void writer_clear_lines(writer *w)
{
    w->clear_line = 1;
}

int writer_note(writer *w, const char *file, const char *msg, err *e)
{
    db_problem p = {.source_file = file, .message = msg, .line = ""};
    return put_problem(w, &p, P_NOTE, e);
}

int writer_clear_problems(writer *w, const char *file, err *e)
{
    db_problem p = {.source_file = file, .message = "", .line = ""};
    return put_problem(w, &p, P_CLEAR, e);
}

int writer_forget_problems(writer *w, const char *run, const char *prefix,
                           err *e)
{
    db_problem p = {.source_file = "", .run = run, .message = prefix,
                    .line = ""};
    return put_problem(w, &p, P_FORGET, e);
}

static int put_problem(writer *w, const db_problem *p,
                       enum problem_mode mode, err *e)
{
    size_t lf = strlen(p->source_file), lr = p->run ? strlen(p->run) : 0,
           ls = p->shown_file ? strlen(p->shown_file) : 0,
           le = p->episode ? strlen(p->episode) : 0,
           lp = p->place ? strlen(p->place) : 0,
           lm = strlen(p->message),
           /* db_put_problem reads up to DB_PROBLEM_LINE + 1 bytes to cut
            * before a character: keep a few past it, never more than the
            * line has */
           ll = p->line_len > DB_PROBLEM_LINE + 4 ? DB_PROBLEM_LINE + 4
                                                  : p->line_len;
    struct problem_job *j =
        malloc(sizeof *j + lf + lr + le + lm + ll + ls + lp + 7);
    if (!j)
        return err_set(e, ERR_NOMEM, "out of memory");
    memset(j, 0, sizeof *j);
    j->job.kind = J_PROBLEM;
    j->mode = mode;
    char *at = (char *)(j + 1);
    j->p.source_file = copy_to(&at, p->source_file, lf);
    j->p.source_line = p->source_line;
    j->p.log_problem = p->log_problem;
    j->p.place = copy_to(&at, p->place, lp);
    j->p.run = copy_to(&at, p->run, lr);
    j->p.episode = copy_to(&at, p->episode, le);
    j->p.message = copy_to(&at, p->message, lm);
    j->p.line = copy_to(&at, p->line, ll);
    j->p.line_len = ll;
    j->p.shown_file = copy_to(&at, p->shown_file, ls);
    if (put(w, &j->job, e) < 0) {
        free(j);
        return -1;
    }
    return 0;
}

int writer_put_run(writer *w, const toolset *ts, const char *path,
                   const db_run *r, err *e)
{
    struct run_job j = {.job.kind = J_RUN, .ts = ts, .path = path, .r = r};
    err_clear(&j.e);
    if (put(w, &j.job, e) < 0)
        return -1;
    pthread_mutex_lock(&w->mu);
    while (!j.done)
        pthread_cond_wait(&w->done, &w->mu);
    pthread_mutex_unlock(&w->mu);
    if (j.rc != 0)
        *e = j.e;
    return j.rc;
}

/* Tells the thread to end once nothing waits, waits for it, and releases
 * the episodes it gave back. */
static void join(writer *w)
{
    if (w->started) {
        pthread_mutex_lock(&w->mu);
        w->closing = 1;
        pthread_cond_signal(&w->wake);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->thread, NULL);
        w->started = 0;
    }
    if (w->ck_started) {
        pthread_mutex_lock(&w->mu);
        w->ck_stop = 1;
        pthread_cond_signal(&w->ck_wake);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->ck_thread, NULL);
        w->ck_started = 0;
        db_wal_notify(w->d, NULL, NULL);
    }
    db_close(w->ck, NULL);
    w->ck = NULL;
    release_all(w->back);
    w->back = NULL;
}

int writer_finish(writer *w, err *e)
{
    join(w);
    if (w->failed) {
        *e = w->failure;
        return -1;
    }
    return 0;
}

void writer_get_counts(writer *w, writer_counts *c)
{
    pthread_mutex_lock(&w->mu);
    *c = w->c;
    pthread_mutex_unlock(&w->mu);
}

void writer_free(writer *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->abort = 1;
    pthread_mutex_unlock(&w->mu);
    join(w);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->room);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->ck_wake);
    buf_free(&w->task_json);
    free(w);
}
