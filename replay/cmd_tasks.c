/* replay tasks: the tasks of a tool file for seeds and arms, one JSON
 * object a line (docs/simulator.md), seeds in the outer loop; or, with
 * --request, only each task's request, the text an agent is given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>

#include "arm.h"
#include "canon.h"
#include "cli.h"
#include "cmds.h"
#include "generator_version.h"
#include "sim.h"
#include "task.h"
#include "utf8.h"

/* Reads "1-50", "7" or "1,3,10-12" into ranges; 0, or -1 when malformed. */
typedef struct seed_range {
    unsigned long long lo, hi;
} seed_range;

static int parse_seeds(const char *text, seed_range *r, size_t max, size_t *n)
{
    const char *p = text;
    *n = 0;
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9' || *n == max)
            return -1;
        errno = 0;
        unsigned long long lo = strtoull(p, &end, 10), hi = lo;
        p = end;
        if (*p == '-') {
            if (p[1] < '0' || p[1] > '9')
                return -1;
            hi = strtoull(p + 1, &end, 10);
            p = end;
        }
        if (hi < lo || errno || hi > TASK_SEED_MAX)
            return -1;
        r[(*n)++] = (seed_range){lo, hi};
        if (*p == '\0')
            return 0;
        if (*p++ != ',')
            return -1;
    }
}

int cmd_tasks(int argc, char **argv)
{
    const char *path = NULL, *seeds = "1", *arms_text = "base";
    int request = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--request") == 0)
            request = 1;
        else if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
            seeds = argv[++i];
        else if (strcmp(argv[i], "--arms") == 0 && i + 1 < argc)
            arms_text = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("tasks: unknown option '%s'", argv[i]);
        else if (path)
            return usage_error("tasks: one FILE at a time");
        else
            path = argv[i];
    }
    if (!path)
        return usage_error("tasks: no FILE given");
    seed_range ranges[64];
    size_t nranges;
    if (parse_seeds(seeds, ranges, 64, &nranges) < 0)
        return usage_error("tasks: --seeds takes numbers and ranges such as "
                           "1-50 or 1,3,10-12 (below 2^63), not '%s'",
                           seeds);
    arm arms[64];
    size_t narms;
    if (parse_arms(arms_text, arms, 64, &narms) != 0)
        return EXIT_USAGE;

    doc *d = NULL;
    toolset *ts = NULL;
    if (load_tools(path, &d, &ts) < 0)
        return EXIT_REFUSED;
    int status = 0;
    err e;
    err_clear(&e);
    for (size_t i = 0; i < narms && status == 0; i++)
        if (task_check_depth(ts, task_depth(&arms[i]), &e) < 0) {
            say("replay: %s: %s", shown_path(path), e.msg);
            status = EXIT_REFUSED;
        }
    /* A seed whose task cannot be made is said, and the others go on;
     * running out of memory ends it all. */
    buf line = BUF_INIT;
    unsigned long refused = 0, made = 0;
    /* per arm: tasks made, and (lagged) those whose dial cannot be seen */
    unsigned long arm_made[64] = {0}, unseen[64] = {0};
    int stop = status != 0;
    for (size_t r = 0; r < nranges && !stop; r++)
        for (unsigned long long seed = ranges[r].lo; !stop; seed++) {
            for (size_t i = 0; i < narms && !stop; i++) {
                arena *a = arena_new();
                task *t = NULL;
                int vis = 1;
                buf_reset(&line);
                err_clear(&e);
                /* a request shown on one line: a newline or a control
                 * from a tool file's description is escaped */
                if (!a || task_make(&t, a, ts, seed, &arms[i], &e) < 0 ||
                    (request ? utf8_shown(&line, t->request,
                                          strlen(t->request), (size_t)-1)
                             : task_write_json(&line, t, GENERATOR_VERSION,
                                               &e)) < 0) {
                    char arm_text[ARM_ID_MAX];
                    arm_id(&arms[i], arm_text);
                    if (!a || e.code == ERR_NONE)
                        err_set(&e, ERR_NOMEM, "out of memory");
                    say("replay: %s: seed %llu, arm %s: %s", shown_path(path),
                        seed, arm_text, e.msg);
                    status = EXIT_REFUSED;
                    refused++;
                    stop = e.code == ERR_NOMEM;
                } else if (arms[i].knob == KNOB_LAGGED &&
                           arms[i].level > 0 &&
                           (vis = sim_lag_visible(ts, t, &e)) < 0) {
                    say("replay: %s: out of memory", shown_path(path));
                    status = EXIT_REFUSED;
                    stop = 1;
                } else {
                    arm_made[i]++;
                    unseen[i] += vis == 0;
                    made++;
                    fwrite(line.data, 1, line.len, stdout);
                    putchar('\n');
                }
                arena_free(a);
            }
            if (seed == ranges[r].hi)
                break;
        }
    buf_free(&line);
    toolset_free(ts);
    doc_free(d);
    for (size_t i = 0; i < narms && !stop; i++)
        if (unseen[i]) {
            char arm_text[ARM_ID_MAX];
            arm_id(&arms[i], arm_text);
            say("replay: %s: arm %s: its dial cannot be seen in %lu of %lu "
                "tasks: no read that can check the target write answers "
                "otherwise once the write has landed, so a lagged read says "
                "what the next one says (see docs/simulator.md)",
                shown_path(path), arm_text, unseen[i], arm_made[i]);
        }
    if (refused > 1 && !stop && made)
        say("replay: %lu of %lu tasks could not be made; the other %lu were "
            "written", refused, refused + made, made);
    else if (refused > 1 && !stop)
        say("replay: none of the %lu tasks could be made", refused);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        say("replay: cannot write the tasks to standard output");
        return EXIT_REFUSED;
    }
    return status;
}
