/* arm: see arm.h.  The valid ids are few (29), so a mistake is matched
 * against each of them: edit distance first, then how far the level is. */
#include "arm.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "nearest.h"

static const struct {
    const char *name;
    char letter;
    const int *levels;
    size_t nlevels;
} knobs[] = {
    [KNOB_BASE] = {"base", 0, (const int[]){0}, 1},
    [KNOB_DEPTH] = {"depth", 'd', (const int[]){1, 2, 3, 4, 5, 6, 7, 8}, 8},
    [KNOB_FAULTS] = {"faults", 'f', (const int[]){0, 1, 2, 4}, 4},
    [KNOB_TIMEOUTS] = {"timeouts", 'o', (const int[]){0, 1, 2, 4}, 4},
    [KNOB_RATELIMITS] = {"ratelimits", 'r', (const int[]){0, 1, 2, 4}, 4},
    [KNOB_LANDED] = {"landed", 'l', (const int[]){0, 1}, 2},
    [KNOB_BADDATA] = {"baddata", 'b', (const int[]){0, 1, 2, 3}, 4},
    [KNOB_LAGGED] = {"lagged", 'g', (const int[]){0, 1}, 2},
};
#define NKNOBS (sizeof knobs / sizeof knobs[0])

const char *knob_name(enum knob k)
{
    return knobs[k].name;
}

void arm_id(const arm *a, char out[ARM_ID_MAX])
{
    size_t n = 0;
    if (a->knob == KNOB_BASE) {
        fmt_cat(out, ARM_ID_MAX, &n, "base", 4);
        return;
    }
    char head[2] = {':', knobs[a->knob].letter}, num[FMT_UINT_MAX + 1];
    fmt_cat(out, ARM_ID_MAX, &n, knobs[a->knob].name,
            strlen(knobs[a->knob].name));
    fmt_cat(out, ARM_ID_MAX, &n, head, 2);
    fmt_cat(out, ARM_ID_MAX, &n, num, fmt_int(num, a->level));
}


int arm_parse(arm *out, const char *id, size_t len, err *e)
{
    /* the id as written: knob, ':', letter, level digits (or "base") */
    if (len == 4 && memcmp(id, "base", 4) == 0) {
        *out = (arm){KNOB_BASE, 0};
        return 0;
    }
    for (size_t k = 1; k < NKNOBS; k++) {
        size_t kl = strlen(knobs[k].name);
        if (len != kl + 3 || memcmp(id, knobs[k].name, kl) != 0 ||
            id[kl] != ':' || id[kl + 1] != knobs[k].letter)
            continue;
        for (size_t l = 0; l < knobs[k].nlevels; l++)
            if (id[kl + 2] == '0' + knobs[k].levels[l]) {
                *out = (arm){(enum knob)k, knobs[k].levels[l]};
                return 0;
            }
    }
    /* a mistake: the nearest valid id */
    char best[ARM_ID_MAX] = "base";
    size_t best_d = (size_t)-1;
    for (size_t k = 0; k < NKNOBS; k++)
        for (size_t l = 0; l < knobs[k].nlevels; l++) {
            arm a = {(enum knob)k, knobs[k].levels[l]};
            char text[ARM_ID_MAX];
            arm_id(&a, text);
            /* ties go to the nearest level: faults:f3 -> faults:f2 */
            size_t tl = strlen(text);
            size_t d = 16 * edit_distance(id, len > 64 ? 64 : len, text, tl);
            if (len && id[len - 1] >= '0' && id[len - 1] <= '9' &&
                text[tl - 1] >= '0' && text[tl - 1] <= '9') {
                int gap = id[len - 1] - text[tl - 1];
                d += (size_t)(gap < 0 ? -gap : gap);
            }
            if (d < best_d) {
                best_d = d;
                memcpy(best, text, sizeof best);
            }
        }
    return err_set(e, ERR_USAGE, "unknown arm \"%.*s\"; did you mean %s?",
                   (int)(len > 40 ? 40 : len), id, best);
}

size_t arm_all(arm out[ARM_COUNT])
{
    size_t n = 0;
    for (size_t k = 0; k < NKNOBS; k++)
        for (size_t i = 0; i < knobs[k].nlevels; i++)
            out[n++] = (arm){(enum knob)k, knobs[k].levels[i]};
    return n;
}
