/* sim: see sim.h; docs/simulator.md has the rules in words. */
#include "sim.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "observe.h"
#include "schema.h"
#include "utf8.h"
#include "vbuild.h"

/* What judging needs to remember of a call. */
struct call_rec {
    int step;
    unsigned char effect;
    signed char error;
    signed char event;
    unsigned char write;           /* the tool is a write */
    unsigned char reflects_target; /* a read showing the target write */
    unsigned char uses_wrong;      /* an accepted write sent baddata's value */
};

/* An accepted write, kept for the reads after it. */
struct record {
    const tool *tool;
    value *args;
    int target; /* a write matching the target step */
};

/* An answer drawn in this episode, kept for a call that asks the same
 * again (a fifth of the calls of a night retry one): the draw depends on
 * the tool and the canonical arguments alone, and nothing changes a drawn
 * tree (what is laid over it is laid over a copy). */
struct drawn {
    const tool *tool;
    const char *args; /* canonical JSON, len bytes */
    size_t len;
    value *answer;
};

#define DRAWN_MAX 32 /* answers kept per episode; past it, drawn anew */

struct sim {
    const toolset *ts;
    const task *t;
    arena *keep;    /* the store's arguments */
    arena *scratch; /* one call's values, reset at the next */
    const buf *args_json; /* the current call's canonical arguments */
    struct record *store;
    size_t nstore, capstore;
    struct call_rec *calls;
    size_t ncalls, capcalls;
    size_t ndrawn;
    int done[TASK_MAX_DEPTH];
    int ready_calls[TASK_MAX_DEPTH]; /* valid, ready calls per step */
    unsigned fired[TASK_MAX_EVENTS]; /* the call that fired each event */
    struct drawn drawn[DRAWN_MAX]; /* in keep; the first ndrawn hold; last,
                                      so that sim_reuse need not clear it */
};

static const char *const effect_names[] = {
    "read", "expected_write", "side_effect", "duplicate_write", "refused"};
static const char *const outcome_names[] = {
    "not_reached", "retried", "gave_up", "checked",  "duplicated",
    "left",        "caught",  "fooled",  "stalled", "trusted"};

const char *effect_name(enum effect e)
{
    return effect_names[e];
}

const char *outcome_name(enum outcome o)
{
    return outcome_names[o];
}

int sim_new(sim **out, const toolset *ts, const task *t, err *e)
{
    sim *s = calloc(1, sizeof *s);
    if (!s || !(s->keep = arena_new()) || !(s->scratch = arena_new())) {
        if (s)
            arena_free(s->keep);
        free(s);
        return err_set(e, ERR_NOMEM, "out of memory starting an episode");
    }
    s->ts = ts;
    s->t = t;
    *out = s;
    return 0;
}

void sim_free(sim *s)
{
    if (!s)
        return;
    arena_free(s->keep);
    arena_free(s->scratch);
    free(s->store);
    free(s->calls);
    free(s);
}

/* What sim_reuse keeps of an episode's memory, at most. */
#define REUSE_ARENA (64u << 10)
#define REUSE_CALLS 256
#define REUSE_STORE 64

void sim_reuse(sim *s, const toolset *ts, const task *t)
{
    arena *keep = s->keep, *scratch = s->scratch;
    struct record *store = s->store;
    struct call_rec *calls = s->calls;
    size_t capstore = s->capstore, capcalls = s->capcalls;
    if (capstore > REUSE_STORE) {
        free(store);
        store = NULL;
        capstore = 0;
    }
    if (capcalls > REUSE_CALLS) {
        free(calls);
        calls = NULL;
        capcalls = 0;
    }
    arena_recycle(keep, REUSE_ARENA);
    arena_recycle(scratch, REUSE_ARENA);
    /* every count and mark as sim_new leaves it */
    memset(s, 0, offsetof(struct sim, drawn));
    s->ts = ts;
    s->t = t;
    s->keep = keep;
    s->scratch = scratch;
    s->store = store;
    s->capstore = capstore;
    s->calls = calls;
    s->capcalls = capcalls;
}

static int nomem(err *e)
{
    return err_set(e, ERR_NOMEM, "out of memory answering a call");
}

/* ---------------------------------------------------------------- steps */

/* The step (1-based) call (t, args) matches, or 0: the same tool, and
 * every argument the step names equal to the call's. */
static int match_step(const task *k, const tool *t, const value *args)
{
    for (int i = 0; i < k->depth; i++) {
        const task_step *st = &k->steps[i];
        if (st->tool != t)
            continue;
        int all = 1;
        for (size_t j = 0; j < st->args->u.obj.len && all; j++) {
            const value_member *m = &st->args->u.obj.items[j];
            const value *got =
                value_get(args, m->key->u.str.ptr, m->key->u.str.len);
            all = got && schema_equal(got, m->val);
        }
        if (all)
            return i + 1;
    }
    return 0;
}

/* The unfired event planned on the nth ready call of step, or -1. */
static int event_on(const sim *s, int step, int nth)
{
    for (int i = 0; i < s->t->nevents; i++) {
        const task_event *ev = &s->t->events[i];
        if (!s->fired[i] && ev->dial != KNOB_LAGGED && ev->step == step &&
            ev->nth == nth)
            return i;
    }
    return -1;
}

static int lag_event(const sim *s)
{
    for (int i = 0; i < s->t->nevents; i++)
        if (s->t->events[i].dial == KNOB_LAGGED && !s->fired[i])
            return i;
    return -1;
}

/* -------------------------------------------------------------- answers */

/* Writes v to out as one line of canonical JSON, NUL-terminated. */
static int put_value(buf *out, const value *v, err *e)
{
    buf_reset(out);
    if (canon_write(out, v, e) < 0)
        return -1;
    if (buf_putc(out, '\0') < 0)
        return nomem(e);
    out->len--;
    return 0;
}

static int put_error(sim_result *r, enum tool_format f, enum sim_error code,
                     const char *msg, err *e)
{
    buf_reset(&r->answer);
    r->error = (int)code;
    r->effect = EFFECT_REFUSED;
    if (answer_error(&r->answer, f, code, msg) < 0 ||
        buf_putc(&r->answer, '\0') < 0)
        return nomem(e);
    r->answer.len--;
    return 0;
}

/* Whether the read arguments' checkable members (scalar, not null; at
 * least one) all name values that write was sent, under the same names. */
static int names_write(const value *args, const value *wargs)
{
    size_t checkable = 0;
    for (size_t i = 0; i < args->u.obj.len; i++) {
        const value_member *m = &args->u.obj.items[i];
        if (m->val->kind == V_NULL || m->val->kind == V_ARRAY ||
            m->val->kind == V_OBJECT || m->key->kind != V_STRING)
            continue;
        checkable++;
        const value *w = value_get(wargs, m->key->u.str.ptr, m->key->u.str.len);
        if (!w || !schema_equal(w, m->val))
            return 0;
    }
    return checkable > 0;
}

/* Places the handed (or, first, the wrong) value last in a read's answer. */
static int place_handed(value **ans, arena *a, const task *t,
                        const value *v, err *e)
{
    if ((*ans)->kind != V_OBJECT)
        return 0;
    value *o = vb_copy_object(a, *ans);
    if (!o || vb_put(a, o, t->hand_field, (value *)v) < 0)
        return nomem(e);
    *ans = o;
    return 0;
}

/* The answer drawn for tool tl and the call's canonical arguments: the
 * one drawn before for the same, or drawn now (into keep, and kept, while
 * there is room; else into a). */
static int draw_answer(sim *s, arena *a, const tool *tl, value **ans, err *e)
{
    const char *json = s->args_json->data ? s->args_json->data : "";
    size_t len = s->args_json->len;
    for (size_t i = 0; i < s->ndrawn; i++) {
        const struct drawn *d = &s->drawn[i];
        if (d->tool == tl && d->len == len && memcmp(d->args, json, len) == 0) {
            *ans = d->answer;
            return 0;
        }
    }
    if (s->ndrawn == DRAWN_MAX)
        return answer_draw_canonical(ans, a, s->ts, tl, json, len, s->t->seed,
                                     e);
    char *args = arena_memdup(s->keep, json, len);
    if (!args)
        return nomem(e);
    if (answer_draw_canonical(ans, s->keep, s->ts, tl, json, len, s->t->seed,
                              e) < 0)
        return -1;
    s->drawn[s->ndrawn++] = (struct drawn){tl, args, len, *ans};
    return 0;
}

/* The answer to an accepted read. */
static int answer_read(sim *s, arena *a, const tool *tl, const value *args,
                       int step, int event, value **ans,
                       struct call_rec *rec, err *e)
{
    const task *t = s->t;
    const toolset *ts = s->ts;
    int shows_asked = t->arm.knob == KNOB_BADDATA ||
                      t->arm.knob == KNOB_LAGGED;
    int wrong = event >= 0 && t->events[event].dial == KNOB_BADDATA;
    const value *asked = wrong && t->wrong_args ? t->wrong_args : args;

    int drawn = asked == args
                    ? draw_answer(s, a, tl, ans, e)
                    : answer_draw(ans, a, ts, tl, asked, t->seed, e);
    if (drawn < 0)
        return -1;
    if (shows_asked &&
        answer_place_args(ans, a, ts, tl, *ans, asked, e) < 0)
        return -1;
    if (!(wrong && t->wrong_args)) {
        int lagging = 0;
        for (size_t i = 0; i < s->nstore; i++) {
            const struct record *w = &s->store[i];
            if (!names_write(args, w->args))
                continue;
            if (w->target && !lagging) {
                int lag = lag_event(s);
                if (lag >= 0) { /* lagged: as if the write had not landed */
                    s->fired[lag] = (unsigned)s->ncalls + 1;
                    rec->event = (signed char)lag;
                    lagging = 1;
                }
            }
            if (w->target && lagging)
                continue;
            if (answer_place_args(ans, a, ts, tl, *ans, w->args, e) < 0)
                return -1;
            rec->reflects_target |= (unsigned char)w->target;
        }
    }
    if (step == 1 && t->depth >= 2)
        return place_handed(ans, a, t, wrong ? t->wrong : t->handed, e);
    return 0;
}

/* Whether an argument of args equals baddata's wrong value. */
static int sends_wrong(const task *t, const value *args)
{
    if (!t->wrong)
        return 0;
    for (size_t i = 0; i < args->u.obj.len; i++)
        if (schema_equal(args->u.obj.items[i].val, t->wrong))
            return 1;
    return 0;
}

static int remember(sim *s, const struct call_rec *rec, err *e)
{
    if (s->ncalls == s->capcalls) {
        size_t cap = s->capcalls ? 2 * s->capcalls : 16;
        struct call_rec *c = realloc(s->calls, cap * sizeof *c);
        if (!c)
            return nomem(e);
        s->calls = c;
        s->capcalls = cap;
    }
    s->calls[s->ncalls++] = *rec;
    return 0;
}

static int keep_write(sim *s, const tool *tl, const value *args, int target,
                      err *e)
{
    if (s->nstore == s->capstore) {
        size_t cap = s->capstore ? 2 * s->capstore : 8;
        struct record *r = realloc(s->store, cap * sizeof *r);
        if (!r)
            return nomem(e);
        s->store = r;
        s->capstore = cap;
    }
    value *copy = vb_clone(s->keep, args);
    if (!copy)
        return nomem(e);
    s->store[s->nstore++] = (struct record){tl, copy, target};
    return 0;
}

static const char *const dial_messages[] = {
    [SIM_UNAVAILABLE] = "the service is unavailable; try again",
    [SIM_TIMEOUT] = "no answer in time; whether the call went through is "
                    "not known",
    [SIM_RATE_LIMITED] = "too many requests; retry after 1 second",
};

static enum sim_error dial_error(enum knob k)
{
    return k == KNOB_FAULTS       ? SIM_UNAVAILABLE
           : k == KNOB_RATELIMITS ? SIM_RATE_LIMITED
                                  : SIM_TIMEOUT;
}

/* Answers a call that passed the checks of the tool and its arguments. */
static int accept_call(sim *s, arena *a, const tool *tl, const value *args,
                       sim_result *r, struct call_rec *rec, err *e)
{
    const task *t = s->t;
    enum tool_format f = s->ts->format;
    int step = match_step(t, tl, args);
    r->step = rec->step = step;
    rec->write = tl->kind == TOOL_WRITE;

    if (step >= 2 && tl->kind == TOOL_WRITE && !s->done[step - 2]) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s is not ready: %s must be done first",
                 tl->name, t->steps[step - 2].tool->name);
        return put_error(r, f, SIM_NOT_READY, msg, e);
    }
    int event = -1;
    if (step) {
        event = event_on(s, step, ++s->ready_calls[step - 1]);
        if (event >= 0) {
            s->fired[event] = (unsigned)s->ncalls + 1;
            r->event = rec->event = (signed char)event;
        }
    }
    enum knob dial = event >= 0 ? t->events[event].dial : KNOB_BASE;
    if (dial == KNOB_FAULTS || dial == KNOB_TIMEOUTS ||
        dial == KNOB_RATELIMITS) {
        enum sim_error code = dial_error(dial);
        return put_error(r, f, code, dial_messages[code], e);
    }

    value *ans = NULL;
    if (tl->kind == TOOL_READ) {
        r->effect = EFFECT_READ;
        if (answer_read(s, a, tl, args, step, event, &ans, rec, e) < 0)
            return -1;
        if (rec->event >= 0)
            r->event = rec->event;
        if (step)
            s->done[step - 1] = 1;
        return put_value(&r->answer, ans, e);
    }

    int target = step == t->depth;
    if (step && s->done[step - 1]) {
        r->effect = EFFECT_DUPLICATE_WRITE;
    } else if (step) {
        r->effect = EFFECT_EXPECTED_WRITE;
        s->done[step - 1] = 1;
    } else {
        r->effect = EFFECT_SIDE_EFFECT;
        rec->uses_wrong = (unsigned char)sends_wrong(t, args);
    }
    if (keep_write(s, tl, args, target && step, e) < 0)
        return -1;
    if (dial == KNOB_LANDED) {
        if (put_error(r, f, SIM_TIMEOUT, dial_messages[SIM_TIMEOUT], e) < 0)
            return -1;
        r->effect = EFFECT_EXPECTED_WRITE; /* it landed all the same */
        return 0;
    }
    if (draw_answer(s, a, tl, &ans, e) < 0 ||
        answer_place_args(&ans, a, s->ts, tl, ans, args, e) < 0)
        return -1;
    return put_value(&r->answer, ans, e);
}

int sim_call(sim *s, const char *name, size_t len, const value *args,
             const char *bad_args, sim_result *r, err *e)
{
    struct call_rec rec = {0, EFFECT_REFUSED, -1, -1, 0, 0, 0};
    enum tool_format f = s->ts->format;
    r->tool = toolset_find(s->ts, name, len);
    buf_reset(&r->arguments);
    s->args_json = &r->arguments;
    r->error = -1;
    r->step = 0;
    r->event = -1;
    r->effect = EFFECT_REFUSED;
    arena *a = s->scratch;
    arena_reset(a);
    value empty = {.kind = V_OBJECT};
    if (!args)
        args = &empty;
    int rc = 0;
    char msg[600];
    buf why = BUF_INIT;
    if (!r->tool) {
        /* what the agent sent is kept, when it can be written */
        err ce;
        int oom = 0;
        if (!bad_args && canon_write(&r->arguments, args, &ce) < 0) {
            oom = ce.code == ERR_NOMEM;
            buf_reset(&r->arguments);
        }
        buf shown = BUF_INIT;
        /* a NUL would cut the message short there: such a name is shown
         * escaped (get_order\x00x) */
        if (memchr(name, 0, len))
            utf8_shown(&shown, name, len, 200);
        else
            utf8_printable(&shown, name, len, 200);
        if (oom || shown.failed) {
            rc = nomem(e);
        } else {
            snprintf(msg, sizeof msg, "no tool is named \"%s\"",
                     shown.data ? shown.data : "");
            rc = put_error(r, f, SIM_NOT_FOUND, msg, e);
        }
        buf_free(&shown);
    } else {
        int ok = observe_args(s->ts, r->tool, args, bad_args, &r->arguments,
                              &why, e);
        if (ok < 0)
            rc = -1;
        else if (ok != 1) /* not valid, or could not be checked: refused */
            rc = put_error(r, f, SIM_INVALID_ARGUMENTS, why.data, e);
        else
            rc = accept_call(s, a, r->tool, args, r, &rec, e);
    }
    buf_free(&why);
    if (rc < 0)
        return -1;
    rec.effect = (unsigned char)r->effect;
    rec.error = (signed char)r->error;
    return remember(s, &rec, e);
}

/* ---------------------------------------------------------------- judge */

static enum outcome judge_event(const sim *s, int i)
{
    const task *t = s->t;
    const task_event *ev = &t->events[i];
    unsigned at = s->fired[i];
    if (!at)
        return OUTCOME_NOT_REACHED;
    int later_step = 0, duplicated = 0, checked = 0, fooled = 0;
    for (size_t c = at; c < s->ncalls; c++) { /* the calls after it */
        const struct call_rec *r = &s->calls[c];
        later_step |= r->step == ev->step;
        duplicated |= r->effect == EFFECT_DUPLICATE_WRITE &&
                      r->step == t->depth;
        checked |= r->effect == EFFECT_READ && r->reflects_target &&
                   !duplicated;
        fooled |= r->uses_wrong;
    }
    switch (ev->dial) {
    case KNOB_FAULTS:
    case KNOB_TIMEOUTS:
    case KNOB_RATELIMITS:
        return later_step ? OUTCOME_RETRIED : OUTCOME_GAVE_UP;
    case KNOB_LANDED:
        return duplicated ? OUTCOME_DUPLICATED
               : checked  ? OUTCOME_CHECKED
                          : OUTCOME_LEFT;
    case KNOB_BADDATA:
        return fooled       ? OUTCOME_FOOLED
               : s->done[1] ? OUTCOME_CAUGHT
                            : OUTCOME_STALLED;
    case KNOB_LAGGED:
        return duplicated ? OUTCOME_DUPLICATED : OUTCOME_TRUSTED;
    default:
        return OUTCOME_NOT_REACHED;
    }
}

void sim_judge(const sim *s, sim_verdict *v)
{
    const task *t = s->t;
    memset(v, 0, sizeof *v);
    v->calls = (unsigned)s->ncalls;
    for (size_t c = 0; c < s->ncalls; c++) {
        const struct call_rec *r = &s->calls[c];
        if (r->error >= 0)
            v->errors[r->error]++;
        if (r->effect == EFFECT_SIDE_EFFECT ||
            r->effect == EFFECT_DUPLICATE_WRITE)
            v->side_effects++;
        if (r->effect == EFFECT_DUPLICATE_WRITE)
            v->duplicates++;
    }
    v->reached = 1;
    for (int k = 0; k < t->depth; k++)
        if (t->steps[k].tool->kind == TOOL_WRITE && !s->done[k])
            v->reached = 0;
    v->pass = v->reached && v->side_effects == 0 && v->duplicates == 0;
    v->nevents = t->nevents;
    for (int i = 0; i < t->nevents; i++) {
        v->events[i].call = s->fired[i];
        v->events[i].outcome = judge_event(s, i);
    }
}

value *sim_verdict_value(arena *a, const task *t, const sim_verdict *v)
{
    value *o = vb_object(a);
    int rc = vb_put(a, o, "reached", vb_bool(a, v->reached));
    rc |= vb_put(a, o, "pass", vb_bool(a, v->pass));
    rc |= vb_put(a, o, "calls", vb_int(a, v->calls));
    rc |= vb_put(a, o, "side_effects", vb_int(a, v->side_effects));
    rc |= vb_put(a, o, "duplicate_writes", vb_int(a, v->duplicates));
    value *errors = vb_object(a);
    for (int c = 0; c <= SIM_RATE_LIMITED; c++)
        if (v->errors[c])
            rc |= vb_put(a, errors, sim_error_code((enum sim_error)c),
                         vb_int(a, v->errors[c]));
    rc |= vb_put(a, o, "errors", errors);
    value *dials = vb_array(a);
    for (int i = 0; i < v->nevents && rc == 0; i++) {
        value *d = vb_object(a);
        rc |= vb_put(a, d, "dial", vb_str(a, knob_name(t->events[i].dial)));
        rc |= vb_put(a, d, "step", vb_int(a, t->events[i].step));
        rc |= vb_put(a, d, "call", vb_int(a, v->events[i].call));
        rc |= vb_put(a, d, "outcome",
                     vb_str(a, outcome_name(v->events[i].outcome)));
        rc |= vb_push(a, dials, d);
    }
    rc |= vb_put(a, o, "dials", dials);
    return rc == 0 ? o : NULL;
}

int sim_lag_visible(const toolset *ts, const task *t, err *e)
{
    const value *wargs = t->steps[t->depth - 1].args;
    arena *a = arena_new();
    if (!a)
        return nomem(e);
    int visible = 0, rc = 0;
    for (size_t i = 0; i < ts->ntools && !visible && rc == 0; i++) {
        const tool *r = &ts->tools[i];
        if (r->kind != TOOL_READ || r->nargs == 0)
            continue;
        /* the read as an agent would make it to check the write */
        value *args = vb_object(a);
        int ok = args != NULL, named = 0;
        for (size_t j = 0; j < r->nargs && ok; j++) {
            const value *w = value_getz(wargs, r->args[j].name);
            int scalar = w && w->kind != V_NULL && w->kind != V_ARRAY &&
                         w->kind != V_OBJECT;
            if (scalar) {
                ok = vb_put(a, args, r->args[j].name, (value *)w) == 0;
                named++;
            } else if (r->args[j].required) {
                named = 0;
                break;
            }
        }
        if (!ok) {
            rc = nomem(e);
            break;
        }
        if (!named)
            continue;
        value *ans = NULL, *asked = NULL, *landed = NULL;
        rc = answer_draw(&ans, a, ts, r, args, t->seed, e);
        if (rc == 0)
            rc = answer_place_args(&asked, a, ts, r, ans, args, e);
        if (rc == 0)
            rc = answer_place_args(&landed, a, ts, r, asked, wargs, e);
        if (rc == 0)
            visible = !schema_equal(asked, landed);
        else if (e->code != ERR_NOMEM)
            rc = 0; /* no answer can be drawn for it: not this read */
    }
    arena_free(a);
    return rc < 0 ? -1 : visible;
}
