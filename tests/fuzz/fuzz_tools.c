/*
 * fuzz_tools: the input bytes as a tool file read into the tool model
 * (toolset_build), then, for two seeds and six arms, the task made
 * (task_make) and an episode played by the simulator (sim.h): the target
 * write first (too early), each step's expected call, a call with empty
 * arguments to every tool, an unknown tool, the verdict, and on the lagged
 * arm whether its dial can be seen (sim_lag_visible).  Checks that
 * nothing crashes, leaks or reads out of bounds, and that a task's JSON
 * written straight (task_write_json) is the canonical text of its value
 * (task_to_value): abort() when they differ.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arm.h"
#include "canon.h"
#include "doc.h"
#include "sim.h"
#include "task.h"
#include "tools.h"
#include "vbuild.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const arms[] = {"base",       "depth:d1",  "depth:d3",
                                   "baddata:b1", "landed:l1", "lagged:g1"};
static const uint64_t seeds[] = {1, 7};

static void call(sim *s, const char *name, const value *args)
{
    sim_result r = {.answer = BUF_INIT, .arguments = BUF_INIT, .error = -1,
                    .event = -1};
    err e;
    err_clear(&e);
    sim_call(s, name, strlen(name), args, NULL, &r, &e);
    buf_free(&r.answer);
    buf_free(&r.arguments);
}

/* The task's two JSON texts must be the same bytes. */
static void check_task_json(arena *a, const task *t)
{
    buf direct = BUF_INIT, tree = BUF_INIT;
    err e1, e2;
    err_clear(&e1);
    err_clear(&e2);
    int rc1 = task_write_json(&direct, t, 2, &e1);
    value *v = task_to_value(a, t, 2);
    int rc2 = v ? canon_write(&tree, v, &e2) : -1;
    if (rc1 == 0 && rc2 == 0 &&
        (direct.len != tree.len || memcmp(direct.data, tree.data, tree.len)))
        abort();
    buf_free(&direct);
    buf_free(&tree);
}

static void episode(const toolset *ts, uint64_t seed, const char *arm_id)
{
    arm arm;
    task *t = NULL;
    sim *s = NULL;
    err e;
    err_clear(&e);
    arena *a = arena_new();
    if (!a || arm_parse(&arm, arm_id, strlen(arm_id), &e) < 0 ||
        task_make(&t, a, ts, seed, &arm, &e) < 0)
        goto out;
    check_task_json(a, t);
    if (sim_new(&s, ts, t, &e) < 0)
        goto out;
    const task_step *last = &t->steps[t->depth - 1];
    call(s, last->tool->name, last->args);
    for (int k = 0; k < t->depth; k++)
        call(s, t->steps[k].tool->name, t->steps[k].args);
    value *empty = vb_object(a);
    for (size_t i = 0; empty && i < ts->ntools; i++)
        call(s, ts->tools[i].name, empty);
    call(s, "no_such_tool", NULL);
    sim_verdict v;
    sim_judge(s, &v);
    sim_verdict_value(a, t, &v);
    if (t->arm.knob == KNOB_LAGGED)
        sim_lag_visible(ts, t, &e);
out:
    sim_free(s);
    arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    doc *d = NULL;
    toolset *ts = NULL;
    err e;
    err_clear(&e);
    if (doc_parse(&d, (const char *)data, size, &e) == 0 &&
        toolset_build(&ts, d, &e) == 0)
        for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++)
            for (size_t j = 0; j < sizeof arms / sizeof *arms; j++)
                episode(ts, seeds[i], arms[j]);
    toolset_free(ts);
    doc_free(d);
    return 0;
}
