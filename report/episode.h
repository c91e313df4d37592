/*
 * episode: one episode as `card --episode` shows it, read from the
 * results database: its run, task, verdicts and class (episode_outcomes),
 * its calls in order (what was sent, the simulator's answer, the logged
 * one where it differs, the effect, error and dial event), and its dial
 * events with their outcomes.
 */
#ifndef TR_EPISODE_H
#define TR_EPISODE_H

#include <stddef.h>

#include <sqlite3.h>

#include "buf.h"
#include "err.h"

typedef struct ep_call {
    long seq;
    long step;            /* -1: none */
    char *tool;
    char *kind;           /* NULL: the file has no such tool */
    char *arguments;      /* canonical JSON, or NULL (then arguments_raw) */
    char *arguments_raw;
    int arguments_valid;  /* -1: not checked */
    char *rule;           /* the rule they break, or NULL */
    char *answer;         /* the simulator's; NULL: observed */
    char *logged;         /* the logged answer where it differs (or, for an
                             observed call, the one logged); NULL: none */
    int diverged;         /* -1: not compared */
    char *error, *effect, *dial; /* NULL: none */
    double duration;      /* seconds; < 0: not logged */
} ep_call;

typedef struct ep_event {
    long event, step;
    char *dial, *outcome;
    long seq; /* the call that fired it; -1: never fired */
} ep_event;

typedef struct episode_view {
    char *run, *episode;
    int observed;
    long seed;             /* simulated only */
    char *arm, *task;      /* task: the task id, or the harness's name */
    char *request;         /* the task's request; NULL: observed */
    long depth;            /* -1: observed */
    int reached, pass;     /* -1: NULL */
    long side_effects, duplicate_writes, errors; /* -1: NULL */
    int unfinished;
    int success;           /* the harness's; -1: not given */
    char *status, *final;  /* NULL: not given */
    double reward;         /* has_reward */
    int has_reward;
    const char *cls;       /* its class (static), NULL: unknown */
    long cls_seq, cls_step; /* -1: none */
    char *cls_tool, *cls_error, *cls_dial; /* NULL: none */
    char *source_file;
    long source_line;
    ep_call *calls;
    size_t ncalls;
    ep_event *events;
    size_t nevents;
} episode_view;

/* The episode named name: of run when run is not NULL, else of the one
 * run that has an episode so named.  ERR_VALUE (a usage error) when no
 * run has it, or several do and run is NULL: the message names them. */
int episode_load(episode_view *v, sqlite3 *db, const char *name,
                 const char *run, err *e);
void episode_free(episode_view *v);

/* The sentence an episode page leads with, ending in a period: its class
 * in words and what it points at ("Failed: side_effect, a write the task
 * did not ask for (call 3, refund_order)."). */
void episode_headline(buf *out, const episode_view *v);

#endif
