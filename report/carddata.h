/*
 * carddata: what a card shows, read from the results database through the
 * documented views and tables (docs/card.md gives the query behind every
 * figure), and the comparison of two runs.
 */
#ifndef TR_CARDDATA_H
#define TR_CARDDATA_H

#include <sqlite3.h>

#include "buf.h"
#include "classes.h"
#include "rates.h"
#include "err.h"
#include "stats.h"
#include "usagepair.h"

#define CARD_CODES 6 /* error codes, in the simulator's order */

typedef struct card_arm {
    char *arm;
    long episodes, reached, pass, side_effects, duplicates, errors;
} card_arm;

typedef struct card_dial {
    char *dial;
    long events, fired;
    /* outcomes in a fixed order: retried, gave_up, checked, duplicated,
     * left, caught, fooled, stalled, trusted, not_reached */
    long outcomes[10];
} card_dial;

typedef struct card_problem {
    char *file, *message;
    long line;   /* negative for a log's own problem */
    char *place; /* a log's own problem: where in the log; else NULL */
} card_problem;

/* A tool called in the run's observed episodes. */
typedef struct card_tool {
    char *tool;
    char *kind;      /* as recorded: "read", "write"; NULL: the file has no
                        such tool (kind_ok says whether it is either) */
    int kind_ok;
    const char *kind_from; /* what said it: "name" (a guess from the
                              name), "hint" (readOnlyHint), "method" (HTTP),
                              or NULL when the contract does not say */
    long calls;
    long errors;          /* calls whose logged answer is an error
                             (calls.error: observe_error's idioms) */
    long args_checked;    /* calls whose arguments were checked */
    long invalid;         /* of those, the ones that break the input schema */
    long answers_checked; /* logged answers checked against an output
                             schema (0: the tool has none, or none logged) */
    long off_schema;      /* of those, the ones that break it */
    char *rule;      /* the commonest rule broken, or NULL */
    long rule_calls; /* how many calls broke it */
} card_tool;

/* pass^k (simulated episodes) or success^k (observed ones), averaged over
 * the tasks with k trials or more. */
typedef struct card_passk {
    long k, tasks;
    double rate;
    interval ci; /* mean_rate_interval over the tasks */
} card_passk;

/* What the harness said of the episodes of one kind (end lines'
 * "success" and "reward"). */
typedef struct card_harness {
    long judged, successes, rewarded;
    double mean_reward;
    long unfinished; /* of this kind */
} card_harness;

/* What the run's episodes used, as their logs say (the episodes and
 * calls columns input_tokens, output_tokens, cost, duration): each sum or
 * mean is over the episodes (calls) that give it, counted beside it. */
typedef struct card_usage {
    long tokened;        /* episodes that give tokens (either count) */
    double input_tokens, output_tokens; /* sums (SQLite's total(): no sum
                                           overflows; exact to 2^53) */
    long costed;         /* episodes that give a cost */
    double cost;         /* US dollars */
    long timed;          /* episodes that give a time */
    double mean_seconds;
    long timed_calls;    /* calls that give a time */
    double mean_call_seconds;
    /* nearest-rank percentiles (the value at rank ceil(p n) of the n
     * sorted): an episode's time (of the timed), and its tokens, input
     * plus output (of the tokened) */
    double median_seconds, p95_seconds;
    double median_tokens, p95_tokens;
} card_usage;

/* How many calls the run's simulated episodes made against what their
 * tasks need (each step once), and where the rest went. */
typedef struct card_efficiency {
    long calls;          /* made */
    long steps;          /* the tasks' steps, summed over the episodes */
    long repeated_reads; /* a read made again with the same arguments
                            after it had answered without an error */
    long retries;        /* a call made again, same tool and arguments,
                            right after it answered an error */
    long planned_errors; /* calls answered by a fault, timeout or rate
                            limit the arm planned */
} card_efficiency;

/* Whether a run's logs gave any figure of usage (the card shows it). */
int card_usage_any(const card_usage *u);

/* pass^k rows shown: k = 1, 2, 3, 4, then the powers of two, and the
 * largest k (the pass_hat_k view has every k). */
int card_passk_shown(long k, long largest);

typedef struct card {
    char *run, *model;
    char *tools_path; /* the tool file as the run line named it */
    char *tools_found; /* where replay read it, when not where the run line
                          says (found in a folder the user named); NULL:
                          there */
    char *file_sha256, *contract_sha256;
    char *fingerprint, *replayed_at;
    int generator_version;
    long episodes, reached, pass, side_effects, duplicates, errors;
    long by_code[CARD_CODES];
    long unfinished, diverged_episodes, diverged_calls, problems;
    long compared_episodes; /* simulated episodes with a call whose
                               logged answer was compared (diverged is
                               measured on these only) */
    long compared_calls;  /* calls whose logged answer was compared */
    long unlogged_calls;  /* replayed calls with no answer logged */
    long problems_no_run; /* in the whole database: lines that named no
                             run (a cut line, a line that is not JSON) */
    long simulated, observed; /* episodes of each kind */
    card_harness harness[2];  /* [0] simulated episodes, [1] observed */
    card_usage usage;
    card_efficiency efficiency; /* of the simulated episodes */
    long observed_calls;
    long observed_errors;     /* of those, answered an error (as logged) */
    int no_schema;            /* the run's tool file has no tool (a log
                                 that offers no definitions): every
                                 called tool is in tools, unchecked */
    card_tool *tools;         /* observed episodes' known tools, by name */
    size_t ntools;
    card_tool *unknown;       /* and names the file has not, commonest first */
    size_t nunknown;
    card_rate rate[2];        /* [0] pass of the simulated episodes, [1]
                                 the harness's success of the observed */
    card_passk *passk[2];     /* [0] pass^k, [1] success^k: the k that
                                 card_passk_shown keeps */
    size_t npassk[2];         /* shown when the largest k is 2 or more */
    long passk_largest[2];    /* the largest k */
    long trial_tasks;         /* tasks of several trials (observed: judged) */
    long flaky_tasks;         /* of those, some passed and some failed */
    card_arm *arms;
    size_t narms;
    card_class *classes;      /* why its episodes ended as they did */
    size_t nclasses;
    card_dial *dials;
    size_t ndials;
    card_problem first_problems[5];
    size_t nfirst;
} card;

extern const char *const card_codes[CARD_CODES];
extern const char *const card_outcomes[10];

/* Appends d's outcomes that happened, as every card says them:
 * "retried 28, gave_up 3". */
void card_outcomes_text(buf *b, const card_dial *d);

/* Opens the database read-only, and reads its schema version.  ERR_IO
 * with one line on failure: SQLite's reason when the file cannot be read
 * (with what a database in WAL mode needs, when that is why); "is not a
 * results database replay wrote" only when it reads fine but records no
 * schema version of this card's.  A database of an older schema version
 * is migrated first (db_open), and *migrated (when not NULL) gets the
 * version it had; else 0. */
int card_db_open(sqlite3 **out, const char *path, int *migrated, err *e);

/* The run a name given on the command line means, into *full (free()
 * it): the run of that name, else the one run whose name begins with it
 * (Inspect's "task/ID" found by "task").  ERR_VALUE when none does (the
 * message lists the runs there are and the nearest name) or several do
 * (the message names them). */
int card_run_named(sqlite3 *db, const char *name, char **full, err *e);

/* The run's card.  ERR_VALUE when no run has that name: the message lists
 * the runs there are and the nearest name. */
int card_load(card *c, sqlite3 *db, const char *run, err *e);

/* The name of the latest run (by replay time), or NULL when there is none
 * (e untouched) or the database cannot be read (e set). */
char *card_latest(sqlite3 *db, err *e);

void card_free(card *c);

/* Where a problem is, as every format says it (each escaping it as it
 * escapes text): "FILE:LINE" for a line, "FILE: PLACE" (or "FILE") for a
 * log's own problem. */
void card_problem_where(buf *out, const card_problem *p);

/* How many problems of the database name no run: 0, or -1 (e set). */
int card_problems_no_run(sqlite3 *db, long *n, err *e);

/* How two runs compare (SPEC 5). */
enum compare_case {
    COMPARE_SAME = 0,        /* same file and generator: side by side */
    COMPARE_REFORMATTED = 4, /* same contract, other file bytes */
    COMPARE_CONTRACTS = 5,   /* other contracts */
    COMPARE_GENERATORS = 6   /* same file, other generators */
};

typedef struct contract_diff {
    char **added, **removed, **changed; /* tool names */
    size_t nadded, nremoved, nchanged;
} contract_diff;

/* Runs of observed episodes only pair by the harness's task ids, not by
 * tasks drawn from the file's bytes: for them, two files of one contract
 * are comparable, and so are runs of which either recorded no contract
 * (its log offered no tool definitions). */
enum compare_case card_compare_case(const card *a, const card *b);

/* What two comparable runs' contracts were found to be. */
enum contract_basis {
    CONTRACT_CHECKED,   /* one contract (and, with simulated episodes, one
                           file) */
    CONTRACT_LAYOUT,    /* observed: one contract, files of other layout */
    CONTRACT_UNCHECKED, /* observed: either run recorded no contract */
    CONTRACT_ACROSS     /* observed: other contracts, compared because the
                           user asked (--across-contracts) */
};

/* A row of two comparable runs side by side: "all", then each arm of a,
 * then each arm only b has (an arm one run lacks counts 0 of 0 there),
 * with the difference of pass rates A - B and its 95% interval
 * (Newcombe's hybrid score). */
typedef struct card_row {
    const char *arm; /* a's or b's, alive as long as they are */
    long xa, na, xb, nb; /* pass and episodes in a, in b */
    int measured;      /* both runs have episodes of the arm: else no
                          difference is shown (diff and ci are 0) */
    double diff;
    interval ci;
    int excludes_zero; /* measured, and ci excludes 0 */
} card_row;

/* The rows of a and b (free() them), *n set; NULL out of memory. */
card_row *card_compare_rows(const card *a, const card *b, size_t *n);

/* Two runs paired by task: for one measure (pass, on simulated episodes;
 * success, the harness's, where both runs judged the task) and one arm
 * ("all", then each arm), the tasks both runs have (and those only one
 * has), and the difference A - B with its 95% interval: with one trial per
 * task on each side, Tango's interval; with more, the mean of per-task
 * differences (each task's rate in A minus its rate in B), its interval
 * clustered by task (mean_interval).  The pairs by outcome, and McNemar's
 * exact p, are of one trial per task: the only one, or else each task's
 * first (so that the pairs stay independent). */
typedef struct card_pairs {
    long n, both, a_only, b_only, neither;
    double diff;
    interval ci; /* Tango's */
    double p;    /* McNemar's exact */
} card_pairs;

typedef struct card_paired {
    const char *measure; /* "pass" or "success" */
    char *arm;           /* "all", or an arm */
    long shared, only_a, only_b;
    int one_trial;       /* every shared task: one trial on each side */
    double diff;
    interval ci;
    card_pairs pairs;    /* one_trial: all; else the first trials */
} card_paired;

/* The paired rows of a and b (card_paired_free), *n set; -1 with e set. */
int card_compare_paired(sqlite3 *db, const card *a, const card *b,
                        card_paired **out, size_t *n, err *e);
void card_paired_free(card_paired *p, size_t n);

/* Why two runs of case k (not COMPARE_SAME) are set apart, as one
 * sentence ending in a period, names as they are (each format shows it
 * its own way): "a and b were made with different generators (version 3
 * and 1), so ...". */
void card_refusal(buf *out, const card *a, const card *b, enum compare_case k);

/* What a compare's headline says: the paired difference of the measure
 * both runs have on shared tasks (pass, else the harness's success),
 * which is the more sensitive; else the unpaired difference of pass
 * rates over all episodes; else nothing (no measure in both runs). */
enum verdict_basis {
    VERDICT_REFUSED,  /* not comparable: the refusal says why */
    VERDICT_NOTHING,  /* comparable, but no rate was measured in both */
    VERDICT_PAIRED,   /* the paired "all" row of the measure */
    VERDICT_UNPAIRED  /* the unpaired "all" row (no shared task) */
};

typedef struct card_verdict {
    enum verdict_basis basis;
    const char *measure; /* "pass" or "success"; NULL with no figure */
    double diff;         /* A - B, a fraction */
    interval ci;
    int excludes_zero;
    long tasks;    /* paired: the tasks both runs have; unpaired: the
                      episodes of the smaller run */
    int one_trial; /* paired: one trial of each task on each side */
    long pairs;    /* paired: the pairs McNemar's test is of (0: no p) */
    double p;      /* McNemar's exact p, when pairs > 0 */
    int thin;      /* too little data to tell: the interval holds zero,
                      and rests on fewer than CARD_THIN_TASKS tasks (for
                      an unpaired verdict, episodes of either run) or is
                      wider than CARD_THIN_WIDTH */
} card_verdict;

#define CARD_THIN_TASKS 10
#define CARD_THIN_WIDTH 0.5 /* 50 percentage points */

/* Two runs compared: every figure any format shows of it. */
typedef struct card_compared {
    const card *a, *b;
    enum compare_case k;
    enum contract_basis contract; /* COMPARE_SAME: on what it rests */
    contract_diff d;     /* COMPARE_CONTRACTS, CONTRACT_ACROSS: the tools
                            that differ */
    card_row *rows;      /* COMPARE_SAME, when either run has simulated
                            episodes: unpaired, per arm */
    size_t nrows;
    card_paired *paired; /* COMPARE_SAME: paired by task */
    size_t npaired;
    card_verdict verdict; /* from the above (card_compare_verdict) */
    card_flips flips;    /* COMPARE_SAME: the tasks whose outcome differs */
    size_t flips_shown;  /* how many of them text and Markdown list
                            (card_compare sets CARD_FLIPS_SHOWN) */
    usage_pairs usage;   /* COMPARE_SAME: tokens and seconds by task */
    size_t usage_shown;  /* how many tasks of each measure text and
                            Markdown list (USAGE_TASKS_SHOWN) */
} card_compared;

/* Sets x->verdict from x's case, rows and paired rows (card_compare does;
 * so must whoever fills a card_compared by hand). */
void card_compare_verdict(card_compared *x);

/* The sentence a compare leads with, names as they are (each format
 * shows it its own way), ending in a period: for comparable runs which
 * run is ahead and by how much, with the interval, on how many shared
 * tasks, and what McNemar's test finds, with p ("careful is ahead of
 * sloppy by 100.0 percentage points of pass rate (95% CI +92.3 to
 * +100.0), paired on 96 shared tasks; McNemar's test finds a difference
 * (p = 2.5e-29)."); for runs that are not, the refusal (card_refusal). */
void card_verdict_text(buf *out, const card_compared *x);

/* A run's headline figure: the pass rate of its episodes replayed
 * against tasks; for a run of observed episodes only, the harness's
 * success over them; else none (measure NULL). */
typedef struct card_figure {
    const char *measure; /* "pass", "success", or NULL */
    long x, n;
    interval ci; /* the run's (card_rate) */
} card_figure;

void card_headline_figure(const card *c, card_figure *f);

/* The sentence a card leads with, ending in a period: the headline
 * figure with its interval, and what went wrong in words (side effects,
 * duplicate writes, diverged episodes, unfinished ones; for observed
 * episodes, calls that broke their tool's input schema), or that
 * nothing did: "Passed 0 of 96 episodes (0.0%, 95% CI 0.0-3.8%); 100
 * side effects, none a duplicate write; no episode diverged."  It quotes
 * no text from the database. */
void card_headline(buf *out, const card *c);

/* A p-value as people read it: 0.125, 0.0031, 2.5e-29. */
void card_p_text(buf *out, double p);

/* Compares a and b (both outlive x): 0, or -1 with e set.  across: runs
 * of observed episodes only on other contracts are compared anyway
 * (CONTRACT_ACROSS); simulated runs keep their refusal. */
int card_compare(card_compared *x, sqlite3 *db, const card *a, const card *b,
                 int across, err *e);

/* What the runs of a comparable compare are paired on, as every format
 * says it: "same tool file and generator: the same tasks, side by side",
 * "no contract could be checked: A's log recorded no tool definitions;
 * observed episodes, paired by the harness's names of their tasks".
 * sentence: begun with a capital and ended with a period.  It names the
 * runs A and B only. */
void card_pairing_text(buf *out, const card_compared *x, int sentence);
void card_compared_free(card_compared *x);

/* The runs of a database, for card --list. */
typedef struct card_listed {
    char *run, *model, *replayed_at; /* model "" when the run names none */
    long episodes;
    long pass; /* -1: not measured (no episode replayed against a task) */
    long success; /* the harness's successes; -1: it judged none */
} card_listed;

typedef struct card_listing {
    card_listed *runs; /* by replay time, then name */
    size_t n;
    long no_run; /* problems in the database that name no run */
} card_listing;

int card_list(card_listing *l, sqlite3 *db, err *e);
void card_listing_free(card_listing *l);

/* Where to look for the problems that name no run. */
extern const char card_no_run_query[];

/* x of n in percent (0 when n is 0). */
double card_pct(long x, long n);

/* What a refusal for other contracts adds when no tool differs. */
extern const char card_same_tools[];

/* The tools added, removed and changed from a's contract to b's, read
 * from the stored canonical contracts. */
int card_contract_diff(contract_diff *d, sqlite3 *db, const card *a,
                       const card *b, err *e);
void contract_diff_free(contract_diff *d);

#endif
