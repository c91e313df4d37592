/*
 * usagepair: what two comparable runs used, task by task, where their
 * logs say it: for an episode's tokens (input and output together) and
 * its seconds, each task's mean over its episodes that give the figure,
 * in A and in B; over the tasks both runs give it for, the mean of those
 * per-task means on each side and the mean of per-task differences A - B
 * with its 95% interval, clustered by task (mean_interval, as the paired
 * compare of pass rates).  Reads episode_rows only; nothing is written.
 */
#ifndef TR_USAGEPAIR_H
#define TR_USAGEPAIR_H

#include <sqlite3.h>

#include "err.h"
#include "stats.h"

enum { USAGE_TOKENS = 0, USAGE_SECONDS = 1, USAGE_MEASURES = 2 };

extern const char *const usage_measures[USAGE_MEASURES]; /* "tokens",
                                                             "seconds" */

/* A task both runs give the measure for. */
typedef struct usage_task {
    char *task;
    char *arm;      /* NULL: observed */
    long n[2];      /* episodes that give it: A, B */
    double mean[2]; /* their mean: A, B */
} usage_task;

typedef struct usage_paired {
    long tasks;        /* both runs give it for */
    double mean[2];    /* the mean over those tasks of each side's mean */
    double diff;       /* the mean of per-task differences A - B */
    int has_ci;        /* two tasks or more: else no interval */
    interval ci;
    usage_task *v;     /* the tasks, the largest |A - B| first, then by
                          task (simulated before observed) */
} usage_paired;

typedef struct usage_pairs {
    usage_paired m[USAGE_MEASURES];
} usage_pairs;

/* The usage of runs a and b paired by task (a task as the trials view
 * names it: simulated by task id, observed by the harness's name).
 * 0, or -1 with e set (p then holds nothing). */
int usage_pairs_load(usage_pairs *p, sqlite3 *db, const char *a,
                     const char *b, err *e);
void usage_pairs_free(usage_pairs *p);

/* Whether either measure has a task both runs give it for. */
int usage_pairs_any(const usage_pairs *p);

/* A value of measure m as every card shows it, written into room:
 * tokens whole, seconds to the hundredth; with sign, "+" or "-" before
 * it (a value that rounds to zero is "0" or "0.00").  Returns room. */
#define USAGE_VALUE 48
const char *usage_value(char room[USAGE_VALUE], int m, double v, int sign);

/* How many tasks of each measure text and Markdown list unless asked
 * for all. */
#define USAGE_TASKS_SHOWN 5

#endif
