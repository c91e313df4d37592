/*
 * arm: the arms of SPEC 3.7, by id.  An arm is "base", or one knob at one
 * level, written knob:<letter><level>:
 *
 *   depth:d1..d8            steps in the task's chain (default 2)
 *   faults:f0,1,2,4         step calls that answer "unavailable" first
 *   timeouts:o0,1,2,4       step calls that answer "timeout" first
 *   ratelimits:r0,1,2,4     step calls that answer "rate_limited" first
 *   landed:l0,1             the target write lands but answers "timeout"
 *   baddata:b0..b3          the named read answers wrongly once
 *   lagged:g0,1             the first read after the target write lags
 *
 * A mistyped id is refused with the nearest valid one (edit distance;
 * among equals, the nearest level, then the first in the order above):
 * did you mean depth:d3?
 */
#ifndef TR_ARM_H
#define TR_ARM_H

#include <stddef.h>

#include "err.h"

enum knob {
    KNOB_BASE, KNOB_DEPTH, KNOB_FAULTS, KNOB_TIMEOUTS, KNOB_RATELIMITS,
    KNOB_LANDED, KNOB_BADDATA, KNOB_LAGGED
};

typedef struct arm {
    enum knob knob;
    int level; /* 0 for base */
} arm;

#define ARM_ID_MAX 16 /* bytes of the longest id, with the NUL */
#define ARM_COUNT 29  /* valid ids */

/* Reads an arm id (len bytes).  On a mistake: ERR_USAGE and a message
 * naming the nearest valid id. */
int arm_parse(arm *out, const char *id, size_t len, err *e);

/* The id of an arm: "base", "depth:d3". */
void arm_id(const arm *a, char out[ARM_ID_MAX]);

/* Every valid arm, in the order above; returns ARM_COUNT. */
size_t arm_all(arm out[ARM_COUNT]);

/* "base", "depth", "faults", ... */
const char *knob_name(enum knob k);

#endif
