/*
 * rates: a run's rate (the pass of its simulated episodes, the harness's
 * success of its observed ones) with its 95% interval, as every card
 * format and the trend give it: Wilson's over the episodes when each task
 * has one trial; when some task has several, clustered by task
 * (clustered_rate in stats.h), since a task's trials are not independent.
 * The view run_interval of sql/schema.sql gives the same figures.
 */
#ifndef TR_RATES_H
#define TR_RATES_H

#include <sqlite3.h>

#include "buf.h"
#include "err.h"
#include "stats.h"

typedef struct card_rate {
    long x, n;     /* passed (successes), of the episodes measured */
    long tasks;    /* the tasks they fall in (an episode with no task
                      name is a task alone) */
    long most;     /* the most trials of one task */
    int clustered; /* most > 1: ci is clustered by task */
    double n_eff;  /* clustered: the effective sample size used */
    interval ci;
} card_rate;

/* x of n with Wilson's interval (episodes taken as independent). */
card_rate card_rate_plain(long x, long n);

/* The run's rates: [0] pass of its simulated episodes, [1] the harness's
 * success of its observed ones (n 0 and the interval 0 to 1 where there
 * are none).  0, or -1 with e set. */
int card_rates_load(sqlite3 *db, const char *run, card_rate rate[2], err *e);

/* "95% CI 31.6-53.2%" and, clustered, ", clustered by 50 tasks". */
void card_rate_ci_text(buf *out, const card_rate *r);

#endif
