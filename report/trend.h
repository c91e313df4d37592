/*
 * trend: runs over time, for a database that holds many nights: each
 * run's headline figure (pass rate, or for observed episodes only the
 * harness's success) with its 95% Wilson interval, in the order the runs
 * were replayed; the series broken where the tool contract, the file's
 * bytes or the generator changed (a simulated task is drawn from the
 * file's bytes by the generator: across such a change no task is the
 * same), or what the figure measures; and, in the last series, each task that fails in its latest
 * night with the night its failing began.  A task passes a night when
 * every trial of it the night measured passed.  Reads run_summary and
 * trials; prints nothing.
 */
#ifndef TR_TREND_H
#define TR_TREND_H

#include <stddef.h>

#include <sqlite3.h>

#include "buf.h"
#include "err.h"
#include "stats.h"

/* Why a series starts again at a night (bits). */
enum {
    TREND_CONTRACT = 1,  /* other tools, or tools changed */
    TREND_FILE = 2,      /* the same contract, the file's bytes other */
    TREND_GENERATOR = 4, /* another generator */
    TREND_MEASURE = 8    /* pass, then the harness's success (or back) */
};

typedef struct trend_night {
    char *run, *model, *replayed_at;
    char *file_sha256, *contract_sha256, *fingerprint;
    int generator_version;
    const char *measure; /* "pass", "success", or NULL (none measured) */
    long x, n;
    interval ci;         /* 95% Wilson */
    int breaks;          /* 0, or why the series starts again here */
} trend_night;

typedef struct trend_failing {
    char *task;
    char *arm;         /* NULL: observed */
    size_t since;      /* the night (index) its failing began */
    long nights;       /* the nights of the series it failed since */
    int passed_before; /* it passed a night of the series before */
} trend_failing;

typedef struct trend {
    trend_night *v;   /* in the order replayed, then by name */
    size_t n;
    size_t series;    /* the last series' first night */
    trend_failing *f; /* the earliest failing first, then by task */
    size_t nf;
} trend;

/* The runs whose names match pattern (SQLite's GLOB; NULL: every run)
 * and, when model is not NULL, that declare that model.  0, or -1 with
 * e set. */
int trend_load(trend *t, sqlite3 *db, const char *pattern, const char *model,
               err *e);
void trend_free(trend *t);

/* A task's outcome in one night: passed when every trial of it the night
 * judged passed. */
typedef struct trend_outcome {
    int observed;
    char *task, *arm;  /* arm NULL: observed */
    size_t night;      /* an index of t's nights */
    size_t series;     /* the first night of the night's series */
    long trials, passed; /* judged and passed that night */
} trend_outcome;

/* Every task's outcome in each of t's nights from night from on, by
 * series, then task (trials' order), then night.  0, or -1 with e set
 * (*out then holds nothing). */
int trend_outcomes(const trend *t, sqlite3 *db, size_t from,
                   trend_outcome **out, size_t *n, err *e);
void trend_outcomes_free(trend_outcome *o, size_t n);

/* Whether a and b are one task of one series. */
int trend_same_task(const trend_outcome *a, const trend_outcome *b);

/* Why a series starts again, as every format says it, the reasons
 * joined by ", ": "another tool contract", "the tool file's bytes
 * changed (the same contract)", "another generator", "another
 * measure". */
void trend_break_words(buf *b, int breaks);

/* How many failing tasks text and the night's index list unless asked
 * for all. */
#define TREND_FAILING_SHOWN 20

#endif
