/*
 * agents: a scripted agent harness.  It plays an episode of `replay sim`
 * with one of a few fixed policies and prints the episode's verdict in
 * one line:
 *
 *   agents REPLAY TOOLFILE SEED ARM POLICY
 *
 * ARM and POLICY may also be comma-separated lists, or "all" (every arm
 * of the test matrix, every policy): every policy then plays every arm,
 * one episode each, one line each, policies first; the tool table and
 * the tasks are then fetched once.
 *
 * It gets the task with `REPLAY tasks TOOLFILE --seeds SEED --arms ARM`,
 * finds the check read in `REPLAY tools --json TOOLFILE`, starts
 * `REPLAY sim TOOLFILE --seed SEED --arm ARM --report TMP` on two pipes
 * and plays the policy call by call: it writes a call line, reads the
 * answer line and lets the policy choose the next call from it.  When
 * the policy stops, it closes the simulator's input, waits for it, and
 * prints from the report's verdict:
 *
 *   POLICY ARM reached=R pass=P side_effects=N duplicates=N
 *       errors=code:n,code:n dials=dial:outcome,dial:outcome
 *
 * (one line; errors sorted by code, dials in the task's event order, "-"
 * for none; R and P are true or false).  Exit status 0, or 1 when the
 * episode could not be played (said on standard error), 2 on a usage
 * error.  tests/policies.sh runs the matrix of policies and arms.
 *
 * With AGENTS_TRANSCRIPT=FILE and AGENTS_RUN=R in the environment, each
 * episode is also appended to FILE as run R, episode POLICY-ARM-sSEED,
 * with AGENTS_MODEL as the run's model if set (samples/night is made so).
 *
 * The policies do no input or output: each is a function of the task, the
 * last answer and its own state that returns the next call or "stop", so
 * that they can drive the simulator in-process as well.
 */
#define _POSIX_C_SOURCE 200809L /* getline, fdopen, mkstemp, posix_spawn */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "canon.h"
#include "err.h"
#include "json_load.h"
#include "schema.h"
#include "value.h"
#include "vbuild.h"

extern char **environ;

#define MAX_STEPS 8     /* the longest chain a task has */
#define MAX_ATTEMPTS 5  /* attempts of one call, the first included */
#define MAX_CALLS 200   /* a policy that goes on longer is broken */

/* ================================================= what a policy sees */

/* One step of the task's chain. */
typedef struct agent_step {
    const char *tool;
    int takes_key;      /* the step takes the handed value (its key_arg) */
    const value *args;  /* the task's arguments for it */
} agent_step;

/* The task, as `replay tasks` and `replay tools --json` tell it. */
typedef struct agent_task {
    int depth;
    agent_step steps[MAX_STEPS];
    /* depth >= 2: the field of step 1's answer that hands the value */
    const char *hand_field;
    /* The argument the writes are keyed by: the handed argument (depth
     * >= 2), or the first argument of the target write that the check
     * read takes (depth 1).  The check read takes it too. */
    const char *key_arg;
    const value *key; /* depth 1: its value in the target's arguments */
    /* The check read: a read, not step 1's tool, taking key_arg (and no
     * other required argument). */
    const char *check_tool;
    int check_schema; /* the check read has an output schema */
} agent_task;

/* The last answer, as a policy reads it.  Errors come in the tool
 * file's idiom; every error is treated alike but a timeout, which is
 * known by its message ("no answer in time..."). */
enum reply_kind {
    REPLY_NONE,    /* no call made yet */
    REPLY_OK,      /* an answer that is not an error */
    REPLY_ERROR,   /* an error other than a timeout */
    REPLY_TIMEOUT  /* a timeout: whether the call went through is not known */
};

typedef struct reply {
    enum reply_kind kind;
    const value *v; /* the answer */
} reply;

typedef struct agent_call {
    const char *tool;
    value *args; /* an object */
} agent_call;

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
typedef struct agent_state {
    enum last_call last;
    agent_call call;        /* the last call made */
    int tries;              /* attempts of that call */
    int write_tries;        /* attempts of the write at hand */
    int step;               /* the write step at hand (1-based) */
    int reads;              /* step-1 reads answered */
    const value *read[3];   /* the values they handed */
    const value *key;       /* the value the writes are keyed by */
    value *sent;            /* the arguments of the write at hand */
} agent_state;

/* A policy: the next call in *next and 1, or 0 to stop; -1 out of
 * memory.  It makes its values in a, and keeps values of the answers it
 * is given: a and the answers must live as long as the episode. */
typedef int (*policy_fn)(const agent_task *t, const reply *last,
                         agent_state *s, arena *a, agent_call *next);

/* ============================================================ helpers */

/* The check read's arguments: {key_arg: key}. */
static value *check_args(const agent_task *t, const agent_state *s,
                         arena *a)
{
    value *o = vb_object(a);
    return vb_put(a, o, t->key_arg, (value *)s->key) == 0 ? o : NULL;
}

/* The arguments of write step k (1-based): the task's, with the key
 * value the policy holds in place of the handed one. */
static value *write_args(const agent_task *t, const agent_state *s,
                         arena *a, int k)
{
    const agent_step *st = &t->steps[k - 1];
    value *o = vb_copy_object(a, st->args);
    if (o && st->takes_key && vb_put(a, o, t->key_arg, (value *)s->key) < 0)
        return NULL;
    return o;
}

/* The same arguments with the key value's first digit plus one (mod 10);
 * NULL in *out when the value has no digit to alter. */
static int altered_args(const agent_task *t, const value *args, arena *a,
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
static int shows(const agent_task *t, const value *answer, const value *sent)
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
static int make(agent_state *s, enum last_call what, const char *tool,
                value *args, agent_call *next)
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
static int again(agent_state *s, agent_call *next)
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

static int step1(const agent_task *t, agent_state *s, arena *a,
                 agent_call *next)
{
    return make(s, LAST_STEP1, t->steps[0].tool,
                vb_copy_object(a, t->steps[0].args), next);
}

/* The write of step k, first its altered twin when the policy is
 * sloppy. */
static int begin_write(const struct traits *tr, const agent_task *t,
                       agent_state *s, arena *a, int k, agent_call *next)
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
static int write_done(const struct traits *tr, const agent_task *t,
                      agent_state *s, arena *a, int answered,
                      agent_call *next)
{
    if (s->step < t->depth)
        return begin_write(tr, t, s, a, s->step + 1, next);
    if (!answered || !tr->final_check)
        return 0; /* a check read that showed it was the last call */
    return make(s, LAST_CHECK_FINAL, t->check_tool, check_args(t, s, a),
                next);
}

/* The write at hand made once more, or stop after MAX_ATTEMPTS. */
static int write_again(const agent_task *t, agent_state *s, agent_call *next)
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

static int play(const struct traits *tr, const agent_task *t,
                const reply *last, agent_state *s, arena *a,
                agent_call *next)
{
    int ok = last->kind == REPLY_OK;
    if (last->kind != REPLY_NONE && !ok && tr->give_up)
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
        if (last->kind == REPLY_TIMEOUT && tr->check_timeouts)
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

/* careful: makes the steps in order with the task's arguments.  Reads
 * step 1 twice; if the two handed values differ, reads a third time and
 * uses the value of the latest read.  On an error answer but a timeout
 * (unavailable, rate_limited, any other) it repeats the same call, at
 * most 5 attempts per call.  On a timeout answered to a read, repeats
 * it.  On a timeout answered to a write, it first makes the check read;
 * if that answer shows the write it moves on (when the write is the
 * target, that check read ends the episode), else repeats the write (at
 * most 5 attempts of the write in all).  After the target write answers
 * ok, it makes the check read once and stops whatever it shows. */
static int careful(const agent_task *t, const reply *last, agent_state *s,
                   arena *a, agent_call *next)
{
    static const struct traits tr = {.reads = 2, .check_timeouts = 1,
                                     .final_check = 1};
    return play(&tr, t, last, s, a, next);
}

/* blind retrier: one read of step 1; on any error answer (a timeout
 * too) repeats the same call immediately, at most 5 attempts per call;
 * never makes a check read: it stops when the target write answers
 * ok. */
static int blind_retrier(const agent_task *t, const reply *last,
                         agent_state *s, arena *a, agent_call *next)
{
    static const struct traits tr = {.reads = 1};
    return play(&tr, t, last, s, a, next);
}

/* trusts the first read: as careful, but reads step 1 once and uses that
 * value. */
static int trusts_first_read(const agent_task *t, const reply *last,
                             agent_state *s, arena *a, agent_call *next)
{
    static const struct traits tr = {.reads = 1, .check_timeouts = 1,
                                     .final_check = 1};
    return play(&tr, t, last, s, a, next);
}

/* believes a lagged read: as careful, but after the target write answers
 * ok and the check read does not show it, makes the target write once
 * more, and stops whatever that answers. */
static int believes_lagged_read(const agent_task *t, const reply *last,
                                agent_state *s, arena *a, agent_call *next)
{
    static const struct traits tr = {.reads = 2, .check_timeouts = 1,
                                     .final_check = 1, .rewrite_unseen = 1};
    return play(&tr, t, last, s, a, next);
}

/* sloppy with arguments: as careful, but makes every write step first
 * with its key argument's value altered (its first digit plus one, mod
 * 10; a value without a digit is not altered and the call not made), once
 * per step and whatever that answers, then the right call. */
static int sloppy_arguments(const agent_task *t, const reply *last,
                            agent_state *s, arena *a, agent_call *next)
{
    static const struct traits tr = {.reads = 2, .check_timeouts = 1,
                                     .final_check = 1, .sloppy = 1};
    return play(&tr, t, last, s, a, next);
}

/* gives up on the first error: as careful, but stops the episode at the
 * first error answer of any kind. */
static int gives_up_on_error(const agent_task *t, const reply *last,
                             agent_state *s, arena *a, agent_call *next)
{
    static const struct traits tr = {.reads = 2, .check_timeouts = 1,
                                     .final_check = 1, .give_up = 1};
    return play(&tr, t, last, s, a, next);
}

/* The policies, by the name the command line gives. */
static const struct policy {
    const char *name;
    policy_fn play;
} policies[] = {
    {"careful", careful},
    {"blind_retrier", blind_retrier},
    {"trusts_first_read", trusts_first_read},
    {"believes_lagged_read", believes_lagged_read},
    {"sloppy_arguments", sloppy_arguments},
    {"gives_up_on_error", gives_up_on_error},
};

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

/* Fills t from the task line; a message in why on failure. */
static int read_task(agent_task *t, arena *a, const value *task,
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
        agent_step *s = &t->steps[k];
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

/* Whether tool tl (an item of `tools --json`) takes argument name and
 * needs no other. */
static int takes_only(const value *tl, const char *name, size_t len)
{
    const value *args = value_getz(tl, "arguments");
    int takes = 0;
    for (size_t i = 0; args && args->kind == V_ARRAY && i < args->u.arr.len;
         i++) {
        const value *arg = args->u.arr.items[i];
        const value *n = value_getz(arg, "name");
        const value *req = value_getz(arg, "required");
        if (n && n->kind == V_STRING && n->u.str.len == len &&
            memcmp(n->u.str.ptr, name, len) == 0)
            takes = 1;
        else if (req && req->kind == V_BOOL && req->u.b)
            return 0;
    }
    return takes;
}

/* The check read, and at depth 1 the key argument. */
static int find_check(agent_task *t, arena *a, const value *table,
                      const char **why)
{
    const value *tools = value_getz(table, "tools");
    if (!tools || tools->kind != V_ARRAY) {
        *why = "`tools --json` printed no tool table";
        return -1;
    }
    const value *target_args = t->steps[t->depth - 1].args;
    size_t nkeys = t->depth >= 2 ? 1 : target_args->u.obj.len;
    for (size_t j = 0; j < nkeys; j++) {
        const char *name;
        size_t len;
        if (t->depth >= 2) {
            name = t->key_arg;
            len = strlen(name);
        } else {
            const value *k = target_args->u.obj.items[j].key;
            name = k->u.str.ptr;
            len = k->u.str.len;
        }
        for (size_t i = 0; i < tools->u.arr.len; i++) {
            const value *tl = tools->u.arr.items[i];
            const value *tname = value_getz(tl, "name");
            if (!str_is(value_getz(tl, "kind"), "read") ||
                str_is(tname, t->steps[0].tool) ||
                !takes_only(tl, name, len))
                continue;
            const value *os = value_getz(tl, "output_schema");
            t->check_tool = text_of(a, tname);
            t->check_schema = os && os->kind != V_NULL;
            if (t->depth == 1) {
                t->key_arg = arena_memdup(a, name, len);
                t->key = target_args->u.obj.items[j].val;
            }
            if (!t->check_tool || !t->key_arg)
                return -1;
            return 0;
        }
    }
    *why = "no read tool takes the argument the writes are keyed by";
    return -1;
}

/* ============================================================ answers */

/* The answer's kind, in the idiom of format ("openai", "mcp",
 * "openapi"). */
static enum reply_kind classify(const char *format, const value *v)
{
    static const char timeout[] = "no answer in time";
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
        return REPLY_OK;
    if (msg && msg->kind == V_STRING && msg->u.str.len >= sizeof timeout - 1 &&
        memcmp(msg->u.str.ptr, timeout, sizeof timeout - 1) == 0)
        return REPLY_TIMEOUT;
    return REPLY_ERROR;
}

/* ========================================================== processes */

/* Starts argv (no shell, posix_spawn) with the descriptors in[0],
 * out[1] and log as its standard input, output and error (-1: ours), and
 * the others of in, out closed in it. */
static int spawn(pid_t *pid, char *const argv[], const int in[2],
                 const int out[2], int log)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    int rc = 0;
    if (in[0] >= 0)
        rc |= posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    rc |= posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    if (log >= 0)
        rc |= posix_spawn_file_actions_adddup2(&fa, log, STDERR_FILENO);
    const int fds[] = {in[0], in[1], out[0], out[1], log};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (fds[i] > STDERR_FILENO)
            rc |= posix_spawn_file_actions_addclose(&fa, fds[i]);
    int why = rc == 0 ? posix_spawn(pid, argv[0], &fa, NULL, argv, environ)
                      : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    if (why != 0) {
        fprintf(stderr, "agents: cannot run %s: %s\n", argv[0], strerror(why));
        return -1;
    }
    return 0;
}

/* Waits for pid; 0 when it exited 0. */
static int reap(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Runs argv with its output in out; its standard error is ours.  0 when
 * it exits 0. */
static int capture(char *const argv[], buf *out)
{
    int none[2] = {-1, -1}, fd[2];
    pid_t pid;
    if (pipe(fd) < 0)
        return -1;
    if (spawn(&pid, argv, none, fd, -1) < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    close(fd[1]);
    int rc = 0;
    char chunk[4096];
    for (;;) {
        ssize_t n = read(fd[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc |= n < 0 ? -1 : 0;
            break;
        }
        if (buf_append(out, chunk, (size_t)n) < 0) {
            rc = -1;
            break;
        }
    }
    close(fd[0]);
    return reap(pid) == 0 && rc == 0 ? 0 : -1;
}

/* The simulator, running. */
struct child {
    pid_t pid;
    FILE *to, *from;
};

/* Starts argv with its input and output on pipes, its standard error
 * in the file log. */
static int start(struct child *c, char *const argv[], int log)
{
    int in[2], out[2];
    if (pipe(in) < 0)
        return -1;
    if (pipe(out) < 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    if (spawn(&c->pid, argv, in, out, log) < 0) {
        c->pid = 0;
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -1;
    }
    close(in[0]);
    close(out[1]);
    c->to = fdopen(in[1], "w");
    c->from = fdopen(out[0], "r");
    if (!c->to || !c->from) {
        if (c->to)
            fclose(c->to);
        else
            close(in[1]);
        if (c->from)
            fclose(c->from);
        else
            close(out[0]);
        c->to = c->from = NULL;
        reap(c->pid);
        c->pid = 0;
        return -1;
    }
    return 0;
}

/* Closes the child's input and output and waits for it; 0 when it
 * exited 0. */
static int finish(struct child *c)
{
    int rc = 0;
    if (c->to && fclose(c->to) != 0)
        rc = -1;
    if (c->from)
        fclose(c->from);
    c->to = c->from = NULL;
    if (c->pid <= 0)
        return rc;
    int status = reap(c->pid);
    c->pid = 0;
    return rc == 0 && status == 0 ? 0 : -1;
}

/* ============================================================ episode */

struct run {
    const char *replay, *file, *seed;
    const char *format;      /* of the tool file */
    const value *tools;      /* `tools --json` */
    char report[64], log[64];
};

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "agents: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    return -1;
}

/* Makes the report and log files the simulator writes. */
static int make_temps(struct run *r)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > 40)
        tmp = "/tmp";
    snprintf(r->report, sizeof r->report, "%s/agents-report.XXXXXX", tmp);
    snprintf(r->log, sizeof r->log, "%s/agents-log.XXXXXX", tmp);
    int fd = mkstemp(r->report);
    if (fd < 0) {
        r->report[0] = '\0';
        return fail("cannot make a temporary file", strerror(errno));
    }
    close(fd);
    fd = mkstemp(r->log);
    if (fd < 0) {
        r->log[0] = '\0';
        return fail("cannot make a temporary file", strerror(errno));
    }
    close(fd);
    return 0;
}

/* The log, emptied, for the simulator's standard error. */
static int open_log(const struct run *r)
{
    return open(r->log, O_WRONLY | O_TRUNC);
}

/* Copies the file's text to standard error. */
static void show_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        fputs(line, stderr);
    fclose(f);
}

/* Loads the JSON text of a line (len bytes). */
static int load_text(value **out, arena *a, const char *text, size_t len,
                     const char *what)
{
    err e;
    err_clear(&e);
    if (json_load(out, a, text, len, &e) < 0)
        return fail(what, e.msg);
    return 0;
}

/* Plays the episode through child c; 0 when the policy stopped. */
static int converse(const struct policy *p, const agent_task *t,
                    const char *format, struct child *c, arena *a)
{
    agent_state s;
    reply last = {REPLY_NONE, NULL};
    buf line = BUF_INIT;
    char *answer = NULL;
    size_t cap = 0;
    int rc = 0;
    memset(&s, 0, sizeof s);
    for (int calls = 0;; calls++) {
        agent_call next;
        int go = p->play(t, &last, &s, a, &next);
        if (go < 0) {
            rc = fail("out of memory", NULL);
            break;
        }
        if (go == 0)
            break;
        if (calls == MAX_CALLS) {
            rc = fail("the policy made too many calls", p->name);
            break;
        }
        err e;
        err_clear(&e);
        value *call = vb_object(a);
        if (vb_put(a, call, "name", vb_str(a, next.tool)) < 0 ||
            vb_put(a, call, "arguments", next.args) < 0) {
            rc = fail("out of memory", NULL);
            break;
        }
        buf_reset(&line);
        if (canon_write(&line, call, &e) < 0 || buf_putc(&line, '\n') < 0) {
            rc = fail("cannot write a call", e.msg);
            break;
        }
        if (fwrite(line.data, 1, line.len, c->to) != line.len ||
            fflush(c->to) != 0) {
            rc = fail("cannot write to the simulator", strerror(errno));
            break;
        }
        ssize_t got = getline(&answer, &cap, c->from);
        if (got <= 0) {
            rc = fail("the simulator gave no answer", NULL);
            break;
        }
        size_t len = (size_t)got;
        while (len && (answer[len - 1] == '\n' || answer[len - 1] == '\r'))
            len--;
        value *v;
        if (load_text(&v, a, answer, len, "an answer is not JSON") < 0) {
            rc = -1;
            break;
        }
        last.kind = classify(format, v);
        last.v = v;
    }
    free(answer);
    buf_free(&line);
    return rc;
}

/* Prints the summary line of policy p on arm from the report's
 * verdict. */
static int summarize(const struct run *r, const char *policy,
                     const char *arm, arena *a)
{
    FILE *f = fopen(r->report, "r");
    if (!f)
        return fail("cannot read the report", strerror(errno));
    char *line = NULL, *verdict_line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0)
        if (strncmp(line, "{\"verdict\":", 11) == 0) {
            free(verdict_line);
            verdict_line = line;
            line = NULL;
            cap = 0;
        }
    free(line);
    fclose(f);
    if (!verdict_line)
        return fail("the report has no verdict", r->report);
    value *doc;
    int rc = load_text(&doc, a, verdict_line, strcspn(verdict_line, "\n"),
                       "the verdict is not JSON");
    free(verdict_line);
    if (rc < 0)
        return -1;
    const value *v = value_getz(doc, "verdict");
    const value *reached = value_getz(v, "reached");
    const value *pass = value_getz(v, "pass");
    const value *se = value_getz(v, "side_effects");
    const value *dup = value_getz(v, "duplicate_writes");
    const value *errors = value_getz(v, "errors");
    const value *dials = value_getz(v, "dials");
    if (!reached || reached->kind != V_BOOL || !pass || pass->kind != V_BOOL ||
        !se || se->kind != V_INT || !dup || dup->kind != V_INT || !errors ||
        errors->kind != V_OBJECT || !dials || dials->kind != V_ARRAY)
        return fail("the verdict lacks a member", NULL);

    buf out = BUF_INIT;
    rc = buf_printf(&out, "%s %s reached=%s pass=%s side_effects=%s "
                          "duplicates=%s errors=",
                    policy, arm, reached->u.b ? "true" : "false",
                    pass->u.b ? "true" : "false", se->u.str.ptr,
                    dup->u.str.ptr);
    /* errors sorted by code: the least code after the last one written */
    size_t n = errors->u.obj.len;
    const char *prev = NULL;
    for (size_t done = 0; done < n && rc == 0; done++) {
        const value_member *best = NULL;
        for (size_t i = 0; i < n; i++) {
            const char *k = errors->u.obj.items[i].key->u.str.ptr;
            if ((!prev || strcmp(k, prev) > 0) &&
                (!best || strcmp(k, best->key->u.str.ptr) < 0))
                best = &errors->u.obj.items[i];
        }
        if (!best || best->val->kind != V_INT) {
            buf_free(&out);
            return fail("the verdict's errors are not counts", NULL);
        }
        rc |= buf_printf(&out, "%s%s:%s", done ? "," : "",
                         best->key->u.str.ptr, best->val->u.str.ptr);
        prev = best->key->u.str.ptr;
    }
    if (n == 0)
        rc |= buf_putc(&out, '-');
    rc |= buf_puts(&out, " dials=");
    for (size_t i = 0; i < dials->u.arr.len && rc == 0; i++) {
        const value *d = dials->u.arr.items[i];
        const value *dial = value_getz(d, "dial");
        const value *outcome = value_getz(d, "outcome");
        if (!dial || dial->kind != V_STRING || !outcome ||
            outcome->kind != V_STRING) {
            buf_free(&out);
            return fail("a dial of the verdict lacks a member", NULL);
        }
        rc |= buf_printf(&out, "%s%s:%s", i ? "," : "", dial->u.str.ptr,
                         outcome->u.str.ptr);
    }
    if (dials->u.arr.len == 0)
        rc |= buf_putc(&out, '-');
    if (rc == 0)
        printf("%s\n", out.data);
    buf_free(&out);
    if (rc != 0)
        return fail("out of memory", NULL);
    return fflush(stdout) == 0 ? 0 : fail("cannot write", strerror(errno));
}

/* Plays one episode: policy p on the task line task_v of arm. */
static int episode(struct run *r, const struct policy *p, const char *arm,
                   const value *task_v, arena *a)
{
    agent_task t;
    memset(&t, 0, sizeof t);
    const char *why = NULL;
    if (read_task(&t, a, task_v, &why) < 0 ||
        find_check(&t, a, r->tools, &why) < 0)
        return fail(why ? why : "out of memory", arm);

    /* AGENTS_TRANSCRIPT and AGENTS_RUN: the simulator also appends the
     * episode (named POLICY-ARM-sSEED) to that transcript, as that run */
    char name[200];
    const char *out = getenv("AGENTS_TRANSCRIPT");
    const char *run_name = getenv("AGENTS_RUN");
    snprintf(name, sizeof name, "%s-%s-s%s", p->name, arm, r->seed);
    const char *model = getenv("AGENTS_MODEL");
    char *sim_argv[] = {(char *)r->replay, "sim", (char *)r->file, "--seed",
                        (char *)r->seed, "--arm", (char *)arm, "--report",
                        r->report, "--transcript", (char *)out, "--run",
                        (char *)run_name, "--episode", name, "--model",
                        (char *)model, NULL};
    if (!out || !run_name)
        sim_argv[9] = NULL;
    else if (!model)
        sim_argv[15] = NULL;
    int log = open_log(r);
    if (log < 0)
        return fail("cannot open the simulator's log", strerror(errno));
    struct child c = {0, NULL, NULL};
    if (start(&c, sim_argv, log) < 0) {
        close(log);
        return fail("cannot start the simulator", strerror(errno));
    }
    close(log);
    int rc = converse(p, &t, r->format, &c, a);
    if (finish(&c) < 0 && rc == 0)
        rc = fail("the simulator failed", arm);
    if (rc < 0) {
        show_file(r->log);
        return -1;
    }
    return summarize(r, p->name, arm, a);
}

/* The items of a comma-separated list (in place), or of all. */
static size_t split(char *list, char **items, size_t max, char *const *all,
                    size_t nall)
{
    size_t n = 0;
    if (strcmp(list, "all") == 0) {
        for (n = 0; n < nall && n < max; n++)
            items[n] = all[n];
        return n;
    }
    for (char *p = list; n < max;) {
        char *comma = strchr(p, ',');
        items[n++] = p;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

static char *const all_arms[] = {
    "base",          "depth:d1",      "depth:d2",      "depth:d3",
    "faults:f0",     "faults:f1",     "faults:f2",     "faults:f4",
    "timeouts:o0",   "timeouts:o1",   "timeouts:o2",   "timeouts:o4",
    "ratelimits:r0", "ratelimits:r1", "ratelimits:r2", "ratelimits:r4",
    "landed:l0",     "landed:l1",     "baddata:b0",    "baddata:b1",
    "baddata:b2",    "baddata:b3",    "lagged:g0",     "lagged:g1"};

#define MAX_LIST 64

/* Every episode of the lists, policies first; 0 when all were played. */
static int play_all(struct run *r, const struct policy **pols, size_t npols,
                    char **arms, size_t narms, char *arm_list, arena *a)
{
    buf tasks = BUF_INIT, tools = BUF_INIT;
    char *tasks_argv[] = {(char *)r->replay, "tasks", (char *)r->file,
                          "--seeds", (char *)r->seed, "--arms", arm_list,
                          NULL};
    char *tools_argv[] = {(char *)r->replay, "tools", "--json",
                          (char *)r->file, NULL};
    const value *task_of[MAX_LIST] = {NULL};
    value *tv = NULL;
    int rc = 0;
    if (capture(tools_argv, &tools) < 0 || !tools.data)
        rc = fail("`replay tools --json` failed", r->file);
    else if (capture(tasks_argv, &tasks) < 0 || !tasks.data)
        rc = fail("`replay tasks` failed", r->file);
    else if (load_text(&tv, a, tools.data, strcspn(tools.data, "\n"),
                       "the tool table is not JSON") < 0)
        rc = -1;
    r->tools = tv;
    r->format = rc == 0 ? text_of(a, value_getz(tv, "format")) : NULL;
    if (rc == 0 && !r->format)
        rc = fail("the tool table names no format", r->file);
    /* one task a line; each is matched to its arm by its "arm" */
    for (char *p = tasks.data; rc == 0 && p && *p;) {
        size_t len = strcspn(p, "\n");
        value *task;
        if (load_text(&task, a, p, len, "a task is not JSON") < 0) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < narms; i++)
            if (str_is(value_getz(task, "arm"), arms[i]) && !task_of[i])
                task_of[i] = task;
        p += len + (p[len] == '\n');
    }
    buf_free(&tasks);
    buf_free(&tools);
    for (size_t i = 0; rc == 0 && i < narms; i++)
        if (!task_of[i])
            rc = fail("`replay tasks` printed no task for the arm", arms[i]);
    for (size_t i = 0; rc == 0 && i < npols; i++)
        for (size_t j = 0; rc == 0 && j < narms; j++)
            rc = episode(r, pols[i], arms[j], task_of[j], a);
    return rc;
}

int main(int argc, char **argv)
{
    size_t npolicies = sizeof policies / sizeof policies[0];
    if (argc != 6) {
        fprintf(stderr, "usage: agents REPLAY TOOLFILE SEED ARM POLICY\n"
                        "(ARM and POLICY: one, a comma-separated list, or "
                        "all)\npolicies:");
        for (size_t i = 0; i < npolicies; i++)
            fprintf(stderr, " %s", policies[i].name);
        fputc('\n', stderr);
        return 2;
    }
    struct run r = {argv[1], argv[2], argv[3], NULL, NULL, "", ""};
    char *all_policies[sizeof policies / sizeof policies[0]];
    for (size_t i = 0; i < npolicies; i++)
        all_policies[i] = (char *)policies[i].name;
    char *names[MAX_LIST], *arms[MAX_LIST];
    const struct policy *pols[MAX_LIST];
    buf arm_list = BUF_INIT;
    size_t npols = split(argv[5], names, MAX_LIST, all_policies, npolicies);
    size_t narms = split(argv[4], arms, MAX_LIST, all_arms,
                         sizeof all_arms / sizeof all_arms[0]);
    for (size_t i = 0; i < npols; i++) {
        pols[i] = NULL;
        for (size_t j = 0; j < npolicies; j++)
            if (strcmp(names[i], policies[j].name) == 0)
                pols[i] = &policies[j];
        if (!pols[i]) {
            fprintf(stderr, "agents: no policy is named '%s'\n", names[i]);
            return 2;
        }
    }
    for (size_t i = 0; i < narms; i++) {
        if (!*arms[i]) {
            fprintf(stderr, "agents: an empty arm\n");
            buf_free(&arm_list);
            return 2;
        }
        if ((i && buf_putc(&arm_list, ',') < 0) ||
            buf_puts(&arm_list, arms[i]) < 0) {
            buf_free(&arm_list);
            fail("out of memory", NULL);
            return 1;
        }
    }
    signal(SIGPIPE, SIG_IGN); /* a simulator that died: EPIPE, said */
    arena *a = arena_new();
    int rc = a ? make_temps(&r) : fail("out of memory", NULL);
    if (rc == 0)
        rc = play_all(&r, pols, npols, arms, narms, arm_list.data, a);
    if (r.report[0])
        unlink(r.report);
    if (r.log[0])
        unlink(r.log);
    buf_free(&arm_list);
    arena_free(a);
    return rc < 0 ? 1 : 0;
}
