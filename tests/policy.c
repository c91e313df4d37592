/* policy: see policy.h.  The policies are defined in words below, with
 * the frame they share; then the readers of the task and the tool table,
 * and of answers. */
#include "policy.h"

#include <string.h>

#include "schema.h"
#include "vbuild.h"

#define MAX_STEPS 8    /* the longest chain a task has */
#define MAX_ATTEMPTS 5 /* attempts of one call, the first included */

const char *const policy_arms[POLICY_NARMS] = {
    "base",          "depth:d1",      "depth:d2",      "depth:d3",
    "faults:f0",     "faults:f1",     "faults:f2",     "faults:f4",
    "timeouts:o0",   "timeouts:o1",   "timeouts:o2",   "timeouts:o4",
    "ratelimits:r0", "ratelimits:r1", "ratelimits:r2", "ratelimits:r4",
    "landed:l0",     "landed:l1",     "baddata:b0",    "baddata:b1",
    "baddata:b2",    "baddata:b3",    "lagged:g0",     "lagged:g1"};

/* ================================================= what a policy sees */

/* One tool of the table: what finding the check read needs. */
struct policy_arg {
    const char *name; /* NULL when the table gives none */
    size_t len;
    int required;
};

struct policy_tool {
    const char *name;
    int read;       /* a read tool */
    int has_schema; /* it has an output schema */
    struct policy_arg *args;
    size_t nargs;
};

struct policy_tools {
    const char *format; /* "openai", "mcp", "openapi" */
    struct policy_tool *tools;
    size_t ntools;
};

/* One step of the task's chain. */
typedef struct policy_step {
    const char *tool;
    int takes_key;      /* the step takes the handed value (its key_arg) */
    const value *args;  /* the task's arguments for it */
} policy_step;

/* The task, as `replay tasks` and the tool table tell it. */
struct policy_task {
    int depth;
    policy_step steps[MAX_STEPS];
    /* depth >= 2: the field of step 1's answer that hands the value */
    const char *hand_field;
    /* The argument the writes are keyed by: the handed argument (depth
     * >= 2), or the first argument of the target write (in the order of
     * their names' bytes) that the check read takes (depth 1).  The check
     * read takes it too. */
    const char *key_arg;
    const value *key; /* depth 1: its value in the target's arguments */
    /* The check read: a read, not step 1's tool, taking key_arg (and no
     * other required argument). */
    const char *check_tool;
    int check_schema; /* the check read has an output schema */
};

/* The last answer, as a policy reads it. */
typedef struct reply {
    enum policy_reply kind;
    const value *v; /* the answer */
} reply;

/* What the last call was, in a policy's plan. */
enum last_call {
    LAST_NONE,
    LAST_STEP1,         /* a read of step 1 */
    LAST_SLOPPY,        /* a write with its key value altered */
    LAST_WRITE,         /* the write of step `step` */
    LAST_CHECK_TIMEOUT, /* the check read after that write timed out */
    LAST_CHECK_FINAL,   /* the check read after the target write */
    LAST_REWRITE        /* the target write made once more */
};

/* A policy's own state; zeroed at the start of an episode. */
struct policy_state {
    enum last_call last;
    policy_call call;       /* the last call made */
    int tries;              /* attempts of that call */
    int write_tries;        /* attempts of the write at hand */
    int step;               /* the write step at hand (1-based) */
    int reads;              /* step-1 reads answered */
    const value *read[3];   /* the values they handed */
    const value *key;       /* the value the writes are keyed by */
    value *sent;            /* the arguments of the write at hand */
};

/* ============================================================ helpers */

/* The check read's arguments: {key_arg: key}. */
static value *check_args(const policy_task *t, const policy_state *s,
                         arena *a)
{
    value *o = vb_object(a);
    return vb_put(a, o, t->key_arg, (value *)s->key) == 0 ? o : NULL;
}

/* The arguments of write step k (1-based): the task's, with the key
 * value the policy holds in place of the handed one. */
static value *write_args(const policy_task *t, const policy_state *s,
                         arena *a, int k)
{
    const policy_step *st = &t->steps[k - 1];
    value *o = vb_copy_object(a, st->args);
    if (o && st->takes_key && vb_put(a, o, t->key_arg, (value *)s->key) < 0)
        return NULL;
    return o;
}

/* The same arguments with the key value's first digit plus one (mod 10);
 * NULL in *out when the value has no digit to alter. */
static int altered_args(const policy_task *t, const value *args, arena *a,
                        value **out)
{
    const value *k = value_getz(args, t->key_arg);
    *out = NULL;
    if (!k || k->kind != V_STRING)
        return 0;
    char *s = arena_memdup(a, k->u.str.ptr, k->u.str.len);
    if (!s)
        return -1;
    size_t i = 0;
    while (i < k->u.str.len && (s[i] < '0' || s[i] > '9'))
        i++;
    if (i == k->u.str.len)
        return 0;
    s[i] = s[i] == '9' ? '0' : (char)(s[i] + 1);
    value *o = vb_copy_object(a, args);
    if (!o || vb_put(a, o, t->key_arg, vb_strn(a, s, k->u.str.len)) < 0)
        return -1;
    *out = o;
    return 0;
}

/*
 * Whether the check read's answer shows the write that was sent `sent`.
 * The check read's own argument tells nothing: on some arms every read
 * says what it was asked.  So:
 *  - a check read without an output schema answers {"ok", "id"} and the
 *    arguments of the writes that name its record: it shows the write
 *    when every argument of the write but the check read's own is a field
 *    of the answer holding the value sent (and there is at least one);
 *  - a check read with an output schema draws every field it has, and a
 *    write lays the values it was sent over the fields of their names: it
 *    shows the write when every argument of the write that is a field of
 *    the answer holds the value sent, its own argument included (the
 *    only evidence such an answer may carry), and at least one is.
 * Values are compared by JSON equality (numbers by value).
 */
static int shows(const policy_task *t, const value *answer, const value *sent)
{
    size_t compared = 0;
    if (!answer || answer->kind != V_OBJECT)
        return 0;
    for (size_t i = 0; i < sent->u.obj.len; i++) {
        const value *k = sent->u.obj.items[i].key;
        const value *v = sent->u.obj.items[i].val;
        int own = k->u.str.len == strlen(t->key_arg) &&
                  memcmp(k->u.str.ptr, t->key_arg, k->u.str.len) == 0;
        if (own && !t->check_schema)
            continue;
        const value *got = value_get(answer, k->u.str.ptr, k->u.str.len);
        if (!got) {
            if (!t->check_schema)
                return 0;
            continue;
        }
        if (!schema_equal(got, v))
            return 0;
        compared++;
    }
    return compared > 0;
}

/* Makes a new call (its first attempt). */
static int make(policy_state *s, enum last_call what, const char *tool,
                value *args, policy_call *next)
{
    if (!args)
        return -1;
    s->last = what;
    s->call.tool = tool;
    s->call.args = args;
    s->tries = 1;
    *next = s->call;
    return 1;
}

/* Repeats the last call, or stops after MAX_ATTEMPTS attempts. */
static int again(policy_state *s, policy_call *next)
{
    if (s->tries >= MAX_ATTEMPTS)
        return 0;
    s->tries++;
    *next = s->call;
    return 1;
}

/* ================================== the frame the policies share */

/* What sets the policies that are "as careful, but ..." apart. */
struct traits {
    int reads;          /* step-1 reads: 2 (and a third when they differ),
                           or 1 */
    int check_timeouts; /* a write that timed out: the check read decides */
    int final_check;    /* the check read once after the target write */
    int rewrite_unseen; /* the target write once more when that check
                           read does not show it */
    int sloppy;         /* every write first with its key value altered */
    int give_up;        /* stop at the first error answer */
};

static int step1(const policy_task *t, policy_state *s, arena *a,
                 policy_call *next)
{
    return make(s, LAST_STEP1, t->steps[0].tool,
                vb_copy_object(a, t->steps[0].args), next);
}

/* The write of step k, first its altered twin when the policy is
 * sloppy. */
static int begin_write(const struct traits *tr, const policy_task *t,
                       policy_state *s, arena *a, int k, policy_call *next)
{
    s->step = k;
    s->sent = write_args(t, s, a, k);
    if (!s->sent)
        return -1;
    s->write_tries = 1;
    if (tr->sloppy) {
        value *bad;
        if (altered_args(t, s->sent, a, &bad) < 0)
            return -1;
        if (bad)
            return make(s, LAST_SLOPPY, t->steps[k - 1].tool, bad, next);
    }
    return make(s, LAST_WRITE, t->steps[k - 1].tool, s->sent, next);
}

/* The write at hand is done: answered ok (answered), or shown by the
 * check read after a timeout. */
static int write_done(const struct traits *tr, const policy_task *t,
                      policy_state *s, arena *a, int answered,
                      policy_call *next)
{
    if (s->step < t->depth)
        return begin_write(tr, t, s, a, s->step + 1, next);
    if (!answered || !tr->final_check)
        return 0; /* a check read that showed it was the last call */
    return make(s, LAST_CHECK_FINAL, t->check_tool, check_args(t, s, a),
                next);
}

/* The write at hand made once more, or stop after MAX_ATTEMPTS. */
static int write_again(const policy_task *t, policy_state *s, policy_call *next)
{
    if (s->write_tries >= MAX_ATTEMPTS)
        return 0;
    s->write_tries++;
    s->last = LAST_WRITE;
    s->call.tool = t->steps[s->step - 1].tool;
    s->call.args = s->sent;
    *next = s->call;
    return 1;
}

static int play(const struct traits *tr, const policy_task *t,
                const reply *last, policy_state *s, arena *a,
                policy_call *next)
{
    int ok = last->kind == POLICY_OK;
    if (last->kind != POLICY_NONE && !ok && tr->give_up)
        return 0;
    switch (s->last) {
    case LAST_NONE:
        if (t->depth >= 2)
            return step1(t, s, a, next);
        s->key = t->key;
        return begin_write(tr, t, s, a, 1, next);
    case LAST_STEP1: {
        if (!ok)
            return again(s, next);
        const value *h = value_getz(last->v, t->hand_field);
        if (!h)
            return 0; /* nothing handed: nothing to go on */
        s->read[s->reads++] = h;
        int need = tr->reads;
        if (need == 2 && s->reads >= 2 && !schema_equal(s->read[0], s->read[1]))
            need = 3;
        if (s->reads < need)
            return step1(t, s, a, next);
        s->key = h; /* the latest read's value */
        return begin_write(tr, t, s, a, 2, next);
    }
    case LAST_SLOPPY: /* whatever it answered: now the right call */
        return make(s, LAST_WRITE, t->steps[s->step - 1].tool, s->sent,
                    next);
    case LAST_WRITE:
        if (ok)
            return write_done(tr, t, s, a, 1, next);
        if (last->kind == POLICY_TIMEOUT && tr->check_timeouts)
            return make(s, LAST_CHECK_TIMEOUT, t->check_tool,
                        check_args(t, s, a), next);
        return write_again(t, s, next);
    case LAST_CHECK_TIMEOUT:
        if (!ok)
            return again(s, next);
        if (shows(t, last->v, s->sent))
            return write_done(tr, t, s, a, 0, next);
        return write_again(t, s, next);
    case LAST_CHECK_FINAL:
        if (!ok)
            return again(s, next);
        if (tr->rewrite_unseen && !shows(t, last->v, s->sent)) {
            s->last = LAST_REWRITE;
            s->call.tool = t->steps[s->step - 1].tool;
            s->call.args = s->sent;
            *next = s->call;
            return 1;
        }
        return 0;
    case LAST_REWRITE:
        return 0;
    }
    return 0;
}

/* ========================================================= the policies
 *
 * Words the definitions use:
 *  - the key argument: the handed argument; at depth 1 (no handed value)
 *    the target write's argument that a check read takes (order_id on
 *    the shop files);
 *  - the check read: a read tool (not step 1's) that takes the key
 *    argument and needs no other (get_order on the shop files), called
 *    with the key argument alone, set to the value the policy holds;
 *  - "shows the write": see shows() above;
 *  - an attempt: one call; "at most 5 attempts per call" stops the
 *    episode when the fifth attempt of one call answers an error;
 *  - an error other than a timeout is treated as unavailable and
 *    rate_limited are (the MCP idiom carries no code);
 *  - at depth 1 there is no step 1 read: the policy starts with the
 *    target write, its key value stated by the task;
 *  - a step-1 answer without the field that hands the value ends the
 *    episode.
 */


struct policy {
    const char *name;
    struct traits tr;
};

static const struct policy policies[] = {
    /* careful: makes the steps in order with the task's arguments.
     * Reads step 1 twice; if the two handed values differ, reads a third
     * time and uses the value of the latest read.  On an error answer but
     * a timeout (unavailable, rate_limited, any other) it repeats the same
     * call, at most 5 attempts per call.  On a timeout answered to a read,
     * repeats it.  On a timeout answered to a write, it first makes the
     * check read; if that answer shows the write it moves on (when the
     * write is the target, that check read ends the episode), else
     * repeats the write (at most 5 attempts of the write in all).  After
     * the target write answers ok, it makes the check read once and stops
     * whatever it shows. */
    {"careful", {.reads = 2, .check_timeouts = 1, .final_check = 1}},
    /* blind retrier: one read of step 1; on any error answer (a timeout
     * too) repeats the same call immediately, at most 5 attempts per
     * call; never makes a check read: it stops when the target write
     * answers ok. */
    {"blind_retrier", {.reads = 1}},
    /* trusts the first read: as careful, but reads step 1 once and uses
     * that value. */
    {"trusts_first_read", {.reads = 1, .check_timeouts = 1, .final_check = 1}},
    /* believes a lagged read: as careful, but after the target write
     * answers ok and the check read does not show it, makes the target
     * write once more, and stops whatever that answers. */
    {"believes_lagged_read",
     {.reads = 2, .check_timeouts = 1, .final_check = 1, .rewrite_unseen = 1}},
    /* sloppy with arguments: as careful, but makes every write step first
     * with its key argument's value altered (its first digit plus one,
     * mod 10; a value without a digit is not altered and the call not
     * made), once per step and whatever that answers, then the right
     * call. */
    {"sloppy_arguments",
     {.reads = 2, .check_timeouts = 1, .final_check = 1, .sloppy = 1}},
    /* gives up on the first error: as careful, but stops the episode at
     * the first error answer of any kind. */
    {"gives_up_on_error",
     {.reads = 2, .check_timeouts = 1, .final_check = 1, .give_up = 1}},
};

size_t policy_count(void)
{
    return sizeof policies / sizeof policies[0];
}

const policy *policy_at(size_t i)
{
    return i < policy_count() ? &policies[i] : NULL;
}

const policy *policy_named(const char *name)
{
    for (size_t i = 0; i < policy_count(); i++)
        if (strcmp(name, policies[i].name) == 0)
            return &policies[i];
    return NULL;
}

const char *policy_name(const policy *p)
{
    return p->name;
}

policy_state *policy_begin(arena *a)
{
    policy_state *s = arena_alloc(a, sizeof *s);
    if (s)
        memset(s, 0, sizeof *s);
    return s;
}

int policy_next(const policy *p, const policy_task *t, enum policy_reply kind,
                const value *answer, policy_state *s, arena *a,
                policy_call *next)
{
    const reply last = {kind, answer};
    return play(&p->tr, t, &last, s, a, next);
}

/* ============================================= reading the task, tools */

static int str_is(const value *v, const char *s)
{
    return v && v->kind == V_STRING && v->u.str.len == strlen(s) &&
           memcmp(v->u.str.ptr, s, v->u.str.len) == 0;
}

/* A NUL-terminated copy of string v, or NULL. */
static const char *text_of(arena *a, const value *v)
{
    if (!v || v->kind != V_STRING)
        return NULL;
    return arena_memdup(a, v->u.str.ptr, v->u.str.len);
}

/* A table of n tools, zeroed. */
static policy_tools *new_table(arena *a, size_t n)
{
    policy_tools *tt = arena_alloc(a, sizeof *tt);
    if (!tt)
        return NULL;
    tt->ntools = n;
    tt->tools = arena_alloc(a, (n ? n : 1) * sizeof *tt->tools);
    if (!tt->tools)
        return NULL;
    memset(tt->tools, 0, (n ? n : 1) * sizeof *tt->tools);
    return tt;
}

policy_tools *policy_tools_from_json(arena *a, const value *table,
                                     const char **why)
{
    const value *tools = value_getz(table, "tools");
    *why = NULL;
    if (!tools || tools->kind != V_ARRAY) {
        *why = "`tools --json` printed no tool table";
        return NULL;
    }
    policy_tools *tt = new_table(a, tools->u.arr.len);
    if (!tt)
        return NULL;
    const value *format = value_getz(table, "format");
    if (!format || format->kind != V_STRING) {
        *why = "the tool table names no format";
        return NULL;
    }
    if (!(tt->format = text_of(a, format)))
        return NULL;
    for (size_t i = 0; i < tt->ntools; i++) {
        const value *tl = tools->u.arr.items[i];
        struct policy_tool *pt = &tt->tools[i];
        const value *name = value_getz(tl, "name");
        const value *args = value_getz(tl, "arguments");
        const value *os = value_getz(tl, "output_schema");
        if (!name || name->kind != V_STRING) {
            *why = "a tool of the tool table has no name";
            return NULL;
        }
        if (!(pt->name = text_of(a, name)))
            return NULL;
        pt->read = str_is(value_getz(tl, "kind"), "read");
        pt->has_schema = os && os->kind != V_NULL;
        if (!args || args->kind != V_ARRAY)
            continue;
        pt->nargs = args->u.arr.len;
        pt->args = arena_alloc(a, (pt->nargs ? pt->nargs : 1) *
                                      sizeof *pt->args);
        if (!pt->args)
            return NULL;
        for (size_t j = 0; j < pt->nargs; j++) {
            const value *n = value_getz(args->u.arr.items[j], "name");
            const value *req = value_getz(args->u.arr.items[j], "required");
            struct policy_arg *pa = &pt->args[j];
            pa->name = n && n->kind == V_STRING ? n->u.str.ptr : NULL;
            pa->len = pa->name ? n->u.str.len : 0;
            pa->required = req && req->kind == V_BOOL && req->u.b;
        }
    }
    return tt;
}

policy_tools *policy_tools_from_toolset(arena *a, const toolset *ts)
{
    policy_tools *tt = new_table(a, ts->ntools);
    if (!tt)
        return NULL;
    tt->format = tool_format_name(ts->format);
    for (size_t i = 0; i < ts->ntools; i++) {
        const tool *tl = &ts->tools[i];
        struct policy_tool *pt = &tt->tools[i];
        pt->name = tl->name;
        pt->read = tl->kind == TOOL_READ;
        pt->has_schema = tl->output_schema != NULL;
        pt->nargs = tl->nargs;
        pt->args = arena_alloc(a, (pt->nargs ? pt->nargs : 1) *
                                      sizeof *pt->args);
        if (!pt->args)
            return NULL;
        for (size_t j = 0; j < pt->nargs; j++) {
            pt->args[j].name = tl->args[j].name;
            pt->args[j].len = strlen(tl->args[j].name);
            pt->args[j].required = tl->args[j].required;
        }
    }
    return tt;
}

/* Fills t from the task; a message in why on failure. */
static int read_task(policy_task *t, arena *a, const value *task,
                     const char **why)
{
    const value *steps = value_getz(task, "steps");
    if (!steps || steps->kind != V_ARRAY || steps->u.arr.len == 0 ||
        steps->u.arr.len > MAX_STEPS) {
        *why = "the task has no steps, or too many";
        return -1;
    }
    t->depth = (int)steps->u.arr.len;
    for (int k = 0; k < t->depth; k++) {
        const value *st = steps->u.arr.items[k];
        policy_step *s = &t->steps[k];
        s->tool = text_of(a, value_getz(st, "tool"));
        s->takes_key = value_getz(st, "handed") != NULL;
        s->args = value_getz(st, "arguments");
        if (!s->tool || !s->args || s->args->kind != V_OBJECT) {
            *why = "a step of the task has no tool or arguments";
            return -1;
        }
        const value *hands = value_getz(st, "hands");
        if (k == 0 && hands) {
            t->hand_field = text_of(a, value_getz(hands, "field"));
            t->key_arg = text_of(a, value_getz(hands, "argument"));
        }
    }
    if (t->depth >= 2 && (!t->hand_field || !t->key_arg)) {
        *why = "the task does not say which field hands the value";
        return -1;
    }
    return 0;
}

/* Whether tool tl takes argument name and needs no other. */
static int takes_only(const struct policy_tool *tl, const char *name,
                      size_t len)
{
    int takes = 0;
    for (size_t i = 0; i < tl->nargs; i++) {
        const struct policy_arg *arg = &tl->args[i];
        if (arg->name && arg->len == len && memcmp(arg->name, name, len) == 0)
            takes = 1;
        else if (arg->required)
            return 0;
    }
    return takes;
}

/* Whether key x sorts before key y (by their bytes, as canonical JSON
 * orders them). */
static int key_before(const value *x, const value *y)
{
    size_t n = x->u.str.len < y->u.str.len ? x->u.str.len : y->u.str.len;
    int c = memcmp(x->u.str.ptr, y->u.str.ptr, n);
    return c < 0 || (c == 0 && x->u.str.len < y->u.str.len);
}

/* The check read, and at depth 1 the key argument. */
static int find_check(policy_task *t, arena *a, const policy_tools *tt,
                      const char **why)
{
    const value *target_args = t->steps[t->depth - 1].args;
    size_t nkeys = t->depth >= 2 ? 1 : target_args->u.obj.len;
    const value_member *prev = NULL;
    for (size_t j = 0; j < nkeys; j++) {
        const char *name;
        size_t len;
        const value_member *m = NULL;
        if (t->depth >= 2) {
            name = t->key_arg;
            len = strlen(name);
        } else { /* the least key after the last one tried */
            for (size_t i = 0; i < target_args->u.obj.len; i++) {
                const value_member *c = &target_args->u.obj.items[i];
                if ((!prev || key_before(prev->key, c->key)) &&
                    (!m || key_before(c->key, m->key)))
                    m = c;
            }
            if (!m || m->key->kind != V_STRING)
                break;
            prev = m;
            name = m->key->u.str.ptr;
            len = m->key->u.str.len;
        }
        for (size_t i = 0; i < tt->ntools; i++) {
            const struct policy_tool *tl = &tt->tools[i];
            if (!tl->read || strcmp(tl->name, t->steps[0].tool) == 0 ||
                !takes_only(tl, name, len))
                continue;
            t->check_tool = tl->name;
            t->check_schema = tl->has_schema;
            if (t->depth == 1) {
                t->key_arg = arena_memdup(a, name, len);
                t->key = m->val;
            }
            return t->key_arg ? 0 : -1;
        }
    }
    *why = "no read tool takes the argument the writes are keyed by";
    return -1;
}

policy_task *policy_task_read(arena *a, const value *task,
                              const policy_tools *tt, const char **why)
{
    policy_task *t = arena_alloc(a, sizeof *t);
    *why = NULL;
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    if (read_task(t, a, task, why) < 0 || find_check(t, a, tt, why) < 0)
        return NULL;
    return t;
}

/* ============================================================ answers */

enum policy_reply policy_classify(const policy_tools *tt, const value *v)
{
    static const char timeout[] = "no answer in time";
    const char *format = tt->format;
    const value *msg = NULL;
    int error = 0;
    if (strcmp(format, "openai") == 0) {
        const value *e = value_getz(v, "error");
        if (e && e->kind == V_OBJECT) {
            error = 1;
            msg = value_getz(e, "message");
        }
    } else if (strcmp(format, "mcp") == 0) {
        const value *ie = value_getz(v, "isError");
        if (ie && ie->kind == V_BOOL && ie->u.b) {
            const value *c = value_getz(v, "content");
            error = 1;
            if (c && c->kind == V_ARRAY && c->u.arr.len > 0)
                msg = value_getz(c->u.arr.items[0], "text");
        }
    } else {
        const value *st = value_getz(v, "status");
        msg = value_getz(v, "detail");
        error = st && st->kind == V_INT && msg && msg->kind == V_STRING;
    }
    if (!error)
        return POLICY_OK;
    if (msg && msg->kind == V_STRING && msg->u.str.len >= sizeof timeout - 1 &&
        memcmp(msg->u.str.ptr, timeout, sizeof timeout - 1) == 0)
        return POLICY_TIMEOUT;
    return POLICY_ERROR;
}
