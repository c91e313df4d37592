/*
 * carddata: what a card shows, read from the results database through the
 * documented views and tables (docs/card.md gives the query behind every
 * figure), and the comparison of two runs.
 */
#ifndef TR_CARDDATA_H
#define TR_CARDDATA_H

#include <sqlite3.h>

#include "buf.h"
#include "err.h"
#include "stats.h"

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
    long line;
} card_problem;

typedef struct card {
    char *run, *model, *tools_path, *file_sha256, *contract_sha256;
    char *fingerprint, *replayed_at;
    int generator_version;
    long episodes, reached, pass, side_effects, duplicates, errors;
    long by_code[CARD_CODES];
    long unfinished, diverged_episodes, diverged_calls, problems;
    long compared_calls;  /* calls whose logged answer was compared */
    long unlogged_calls;  /* calls with no answer logged */
    long problems_no_run; /* in the whole database: lines that named no
                             run (a cut line, a line that is not JSON) */
    card_arm *arms;
    size_t narms;
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

/* The run's card.  ERR_VALUE when no run has that name: the message lists
 * the runs there are and the nearest name. */
int card_load(card *c, sqlite3 *db, const char *run, err *e);

/* The name of the latest run (by replay time), or NULL when there is none
 * (e untouched) or the database cannot be read (e set). */
char *card_latest(sqlite3 *db, err *e);

void card_free(card *c);

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

enum compare_case card_compare_case(const card *a, const card *b);

/* A row of two comparable runs side by side: "all", then each arm of a,
 * then each arm only b has (an arm one run lacks counts 0 of 0 there). */
typedef struct card_row {
    const char *arm; /* a's or b's, alive as long as they are */
    long xa, na, xb, nb; /* pass and episodes in a, in b */
} card_row;

/* The rows of a and b (free() them), *n set; NULL out of memory. */
card_row *card_compare_rows(const card *a, const card *b, size_t *n);

/* Why two runs of case k (not COMPARE_SAME) are set apart, as one
 * sentence ending in a period, names as they are (each format shows it
 * its own way): "a and b were made with different generators (version 3
 * and 1), so ...". */
void card_refusal(buf *out, const card *a, const card *b, enum compare_case k);

/* What a refusal for other contracts adds when no tool differs. */
extern const char card_same_tools[];

/* The tools added, removed and changed from a's contract to b's, read
 * from the stored canonical contracts. */
int card_contract_diff(contract_diff *d, sqlite3 *db, const card *a,
                       const card *b, err *e);
void contract_diff_free(contract_diff *d);

#endif
