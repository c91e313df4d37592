/* inspect: see inspect.h. */
#include "inspect.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zip.h>

#include "json_load.h"
#include "jstream.h"
#include "keymap.h"
#include "vbuild.h"
#include "zipzstd.h"

struct iread {
    logr *r;
    log_counts *c;
    arena *ha;           /* the header's values, for the whole file */
    const value *eval;   /* the header's "eval" */
    const value *status;
    int version_bad;     /* the log is of a version not read: refused */
    int said_order;      /* samples before the header: said once */
    lrun *run;
    arena *a;            /* one sample's */
    lr_calls calls;
    const value *attachments;
    char scorer[128];    /* a version 1 log's one scorer (results.scorer),
                            whose score its samples keep as "score" */
    size_t expanded;     /* bytes of attachments the sample's references
                            stand for, as they are resolved */
    const char *member;  /* the zip member read, or NULL (.json) */
    char at[64];         /* the JSON path of the sample */
};

static int nomem(err *e)
{
    return err_set(e, ERR_NOMEM, "out of memory");
}

static int problem_at(struct iread *m, const char *path, const char *fmt,
                      const char *arg)
{
    char full[300];
    snprintf(full, sizeof full, "%s%s", m->at, path ? path : "");
    return lr_problem(m->r, m->member, full, fmt, arg);
}

/* Where in a sample a message (k (size_t)-1) or one of its tool calls
 * is: its JSON path is written only when a problem says it. */
struct where {
    size_t msg, call;
};

#define NO_CALL ((size_t)-1)

/* msg with this bit: the index of an event, not of a message */
#define AN_EVENT ((size_t)1 << (sizeof(size_t) * 8 - 1))

static void where_text(const struct where *w, char *out, size_t size)
{
    size_t i = w->msg & ~AN_EVENT;
    const char *in = w->msg & AN_EVENT ? "events" : "messages";
    if (w->call == NO_CALL)
        snprintf(out, size, ".%s[%zu]", in, i);
    else if (w->msg & AN_EVENT)
        snprintf(out, size, ".events[%zu].output.choices[0].message."
                            "tool_calls[%zu]",
                 i, w->call);
    else
        snprintf(out, size, ".messages[%zu].tool_calls[%zu]", i, w->call);
}

static int problem_where(struct iread *m, const struct where *w,
                         const char *fmt, const char *arg)
{
    char path[200];
    where_text(w, path, sizeof path);
    return problem_at(m, path, fmt, arg);
}

/* Where a call of m->calls is (lr_place_fn): the member, the sample's
 * path and the call's. */
static void call_place(void *ctx, const lr_call_item *it, char *out,
                       size_t size)
{
    const struct iread *m = ctx;
    struct where w = {it->at[0], it->at[1]};
    char path[200];
    where_text(&w, path, sizeof path);
    snprintf(out, size, "%s%s%s%s", m->member ? m->member : "",
             m->member ? ": " : "", m->at, path);
}

/* ------------------------------------------------------- attachments */

#define ATTACHMENT "attachment://"
#define CONTENT_REF "tc://" /* the same, in logs of the transcript layout */

/* The length of the reference's prefix v begins with, or 0. */
static size_t refers(const value *v)
{
    if (v->kind != V_STRING)
        return 0;
    if (v->u.str.len > sizeof ATTACHMENT - 1 &&
        memcmp(v->u.str.ptr, ATTACHMENT, sizeof ATTACHMENT - 1) == 0)
        return sizeof ATTACHMENT - 1;
    if (v->u.str.len > sizeof CONTENT_REF - 1 &&
        memcmp(v->u.str.ptr, CONTENT_REF, sizeof CONTENT_REF - 1) == 0)
        return sizeof CONTENT_REF - 1;
    return 0;
}

/* v with every attachment:// reference it holds replaced by the
 * attachment's content (the same node when it holds none); a reference
 * to no attachment stays as it is, and is a problem at w (or, w NULL,
 * at path).  NULL out of memory; *stop when --strict says stop. */
static const value *resolve(struct iread *m, const value *v,
                            const char *path, const struct where *w,
                            int *stop)
{
    if (refers(v)) {
        const char *hash = v->u.str.ptr + refers(v);
        const value *got = value_getz(m->attachments, hash);
        if (got && got->kind == V_STRING) {
            /* shared, not copied: but every reference is written out in
             * full, so each counts against the sample's budget */
            m->expanded += got->u.str.len;
            return got;
        }
        char at[200];
        if (w)
            where_text(w, at, sizeof at);
        if (problem_at(m, w ? at : path,
                       "a reference to the attachment \"%s\", which the "
                       "sample's attachments do not hold: the reference is "
                       "kept as text",
                       hash))
            *stop = 1;
        return v;
    }
    if (v->kind == V_ARRAY) {
        value *copy = NULL;
        for (size_t i = 0; i < v->u.arr.len; i++) {
            const value *it = resolve(m, v->u.arr.items[i], path, w, stop);
            if (!it)
                return NULL;
            if (it != v->u.arr.items[i] && !copy) {
                if (!(copy = vb_array(m->a)))
                    return NULL;
                for (size_t k = 0; k < i; k++)
                    if (vb_push(m->a, copy, (value *)v->u.arr.items[k]) < 0)
                        return NULL;
            }
            if (copy && vb_push(m->a, copy, (value *)it) < 0)
                return NULL;
        }
        return copy ? copy : v;
    }
    if (v->kind == V_OBJECT) {
        value *copy = NULL;
        for (size_t i = 0; i < v->u.obj.len; i++) {
            const value_member *mb = &v->u.obj.items[i];
            const value *it = resolve(m, mb->val, path, w, stop);
            if (!it)
                return NULL;
            if (it != mb->val && !copy) {
                if (!(copy = vb_object(m->a)))
                    return NULL;
                for (size_t k = 0; k < i; k++)
                    if (vb_putv(m->a, copy, v->u.obj.items[k].key,
                                v->u.obj.items[k].val) < 0)
                        return NULL;
            }
            if (copy && vb_putv(m->a, copy, mb->key, (value *)it) < 0)
                return NULL;
        }
        return copy ? copy : v;
    }
    return v;
}

/* ---------------------------------------------------------- a sample */

/* The tools the sample's model events offer, as OpenAI tools (the first
 * definition of a name wins), into *tools_out (NULL when none offers
 * any); a description Inspect kept as an attachment (one past 100
 * characters) is its text: 0, 1 --strict says stop, or -1 out of
 * memory. */
static int offered(struct iread *m, const value *events, value **tools_out)
{
    int stop = 0;
    value *out = NULL;
    int failed = 0;
    keymap names = KEYMAP_INIT; /* every model event offers them again */
    keymap_secret(&names);
    for (size_t i = 0; events && events->kind == V_ARRAY &&
                       i < events->u.arr.len;
         i++) {
        const value *ev = events->u.arr.items[i];
        const value *kind = value_getz(ev, "event");
        const value *tools = value_getz(ev, "tools");
        if (!kind || kind->kind != V_STRING ||
            strcmp(kind->u.str.ptr, "model") != 0 || !tools ||
            tools->kind != V_ARRAY)
            continue;
        if (!out && !(out = vb_array(m->a))) {
            failed = 1;
            break;
        }
        for (size_t k = 0; !failed && k < tools->u.arr.len; k++) {
            const value *t = tools->u.arr.items[k];
            const value *name = value_getz(t, "name");
            size_t at;
            if (!name || name->kind != V_STRING ||
                keymap_get(&names, name->u.str.ptr, name->u.str.len, &at))
                continue; /* the first definition of a name stands */
            const value *desc = value_getz(t, "description");
            char path[80];
            snprintf(path, sizeof path, ".events[%zu].tools[%zu].description",
                     i, k);
            value *o = NULL;
            if (!desc || (desc = resolve(m, desc, path, NULL, &stop)))
                o = lr_openai_tool(m->a, name, desc,
                                   value_getz(t, "parameters"));
            if (!o || vb_push(m->a, out, o) < 0 ||
                keymap_put(&names, name->u.str.ptr, name->u.str.len, 0) < 0)
                failed = 1;
        }
        if (failed)
            break;
    }
    keymap_free(&names);
    *tools_out = out;
    return failed ? -1 : stop;
}

/* A tool's result as an answer (a message's content, or a tool event's
 * result): an error ({"type", "message"}, or version 1's text of one) as
 * the OpenAI idiom's error answer; else its text (a string as it is,
 * content parts joined), or a value that is no text as it is.  NULL out
 * of memory. */
static const value *tool_answer(struct iread *m, const value *content,
                                const value *error, const struct where *w,
                                int *stop)
{
    if (error && (error->kind == V_OBJECT || error->kind == V_STRING)) {
        int obj = error->kind == V_OBJECT;
        const value *type = obj ? value_getz(error, "type") : NULL;
        const value *text = obj ? value_getz(error, "message") : error;
        value *inner = vb_object(m->a), *outer = vb_object(m->a);
        if (vb_put(m->a, inner, "code",
                   type && type->kind == V_STRING ? vb_clone(m->a, type)
                                                  : vb_str(m->a, "unknown")) <
                0 ||
            vb_put(m->a, inner, "message",
                   text && text->kind == V_STRING ? vb_clone(m->a, text)
                                                  : vb_str(m->a, "")) < 0 ||
            vb_put(m->a, outer, "error", inner) < 0)
            return NULL;
        return outer;
    }
    if (content && !(content = resolve(m, content, NULL, w, stop)))
        return NULL;
    if (content && content->kind != V_STRING && content->kind != V_ARRAY &&
        content->kind != V_OBJECT)
        return content; /* a number, a boolean: a tool event's result */
    buf t = BUF_INIT;
    /* a string's text is the string (no copy of it made) */
    int plain = content && content->kind == V_STRING && !content->flags;
    const value *one = content && content->kind == V_OBJECT ? content : NULL;
    value parts;
    if (one) { /* one content part: a list of it */
        value_init(&parts, V_ARRAY, 0, 0);
        parts.u.arr.items = (value **)&one;
        parts.u.arr.len = 1;
    }
    int rc = plain ? 0 : lr_content_text(&t, one ? &parts : content);
    value *v = plain    ? (value *)content
               : rc < 0 ? NULL
                        : vb_strn(m->a, t.data ? t.data : "", t.len);
    buf_free(&t);
    return v;
}

/* The calls of the messages and their answers, into m->calls. */
static int read_messages(struct iread *m, const value *msgs,
                         const char *episode, err *e)
{
    int stop = 0;
    for (size_t i = 0; i < msgs->u.arr.len && !stop; i++) {
        const value *msg = msgs->u.arr.items[i];
        const value *role = value_getz(msg, "role");
        const char *rl = role && role->kind == V_STRING ? role->u.str.ptr
                                                        : "";
        struct where path = {i, NO_CALL};
        if (strcmp(rl, "assistant") == 0) {
            const value *tc = value_getz(msg, "tool_calls");
            for (size_t k = 0; tc && tc->kind == V_ARRAY &&
                               k < tc->u.arr.len;
                 k++) {
                const value *c = tc->u.arr.items[k];
                const value *fn = value_getz(c, "function");
                const value *id = value_getz(c, "id");
                const value *args = value_getz(c, "arguments");
                struct where cp = {i, k};
                if (!fn || fn->kind != V_STRING) {
                    if (problem_where(m, &cp, "%s", "a tool call with no "
                                                    "function name: it is "
                                                    "skipped"))
                        return 1;
                    continue;
                }
                if (args && !(args = resolve(m, args, NULL, &cp, &stop)))
                    return nomem(e);
                value *call = vb_object(m->a);
                if (vb_put(m->a, call, "name", (value *)fn) < 0 ||
                    (args && vb_put(m->a, call, "arguments",
                                    (value *)args) < 0))
                    return nomem(e);
                /* a call whose id an earlier one has is a call all
                 * the same (callpairs.h) */
                if (lrc_add(&m->calls, call, id, i, k) < 0)
                    return nomem(e);
            }
        } else if (strcmp(rl, "tool") == 0) {
            const value *id = value_getz(msg, "tool_call_id");
            /* version 1 kept an error's text as tool_error */
            const value *error = value_getz(msg, "error");
            if (!error || error->kind == V_NULL)
                error = value_getz(msg, "tool_error");
            const value *answer = tool_answer(m, value_getz(msg, "content"),
                                              error, &path, &stop);
            if (!answer)
                return nomem(e);
            int rc = lrc_answer(&m->calls, id, answer, i, NO_CALL);
            if (rc < 0)
                return nomem(e);
            char msgtext[300];
            if (rc == 1) {
                snprintf(msgtext, sizeof msgtext,
                         "a tool message without a tool_call_id (a string) "
                         "of episode \"%.100s\" answers no call: it is "
                         "skipped",
                         episode);
                if (problem_where(m, &path, "%s", msgtext))
                    return 1;
            } else if (rc == 2) {
                snprintf(msgtext, sizeof msgtext,
                         "a second answer to call \"%.100s\" of episode "
                         "\"%.100s\": it is skipped (the first stands)",
                         id->u.str.ptr, episode);
                if (problem_where(m, &path, "%s", msgtext))
                    return 1;
            }
        }
    }
    return stop;
}

/* A call the sample's events show: where it comes in the messages' order
 * of calls (after the first `after` of them), what it is, its answer. */
struct event_call {
    size_t after;
    const value *call, *id, *answer;
    size_t at[2];
};

/* Appends the events of list to out, each followed by the events kept
 * inside it (of a tool or a subtask event: older logs keep a sub-agent's
 * own events there).  0, or -1 out of memory. */
static int flatten(arena *a, value *out, const value *list)
{
    for (size_t i = 0; i < list->u.arr.len; i++) {
        const value *ev = list->u.arr.items[i];
        const value *inner = value_getz(ev, "events");
        if (vb_push(a, out, (value *)ev) < 0 ||
            (inner && inner->kind == V_ARRAY &&
             flatten(a, out, inner) < 0))
            return -1;
    }
    return 0;
}

/* The sample's events (*out; NULL: none), as one list in the order they
 * happened: its "events", else its "transcript"'s (the layout of logs
 * before Inspect 0.3.42); the events a tool or subtask event holds
 * inside it (Inspect 0.3.25 to 0.3.93, where a tool's or a subtask's own
 * events, a sub-agent's calls among them, are kept in it rather than
 * beside it) each come after the event that holds them.  0, or -1 out
 * of memory. */
static int sample_events(struct iread *m, const value *s, const value **out)
{
    const value *events = value_getz(s, "events");
    if (!events)
        events = value_getz(value_getz(s, "transcript"), "events");
    *out = events;
    if (!events || events->kind != V_ARRAY)
        return 0;
    int nested = 0;
    for (size_t i = 0; !nested && i < events->u.arr.len; i++) {
        const value *inner = value_getz(events->u.arr.items[i], "events");
        nested = inner && inner->kind == V_ARRAY && inner->u.arr.len;
    }
    if (!nested)
        return 0;
    value *flat = vb_array(m->a);
    if (!flat || flatten(m->a, flat, events) < 0)
        return -1;
    *out = flat;
    return 0;
}

/* A tool event, in its id's queue. */
struct tool_event {
    const value *ev, *answer;
    size_t next; /* the next of its id; SIZE_MAX: none */
};

/* Puts the tool event ev (of id key, len) with its answer at the end of
 * its id's queue.  0, or -1 out of memory. */
static int queue_event(struct tool_event **tev, size_t *n, size_t *cap,
                       keymap *heads, keymap *tails, const char *key,
                       size_t len, const value *ev, const value *answer)
{
    if (*n == *cap) {
        size_t want = *cap ? 2 * *cap : 8;
        struct tool_event *grown = realloc(*tev, want * sizeof **tev);
        if (!grown)
            return -1;
        *tev = grown;
        *cap = want;
    }
    size_t last, k = (*n)++;
    (*tev)[k] = (struct tool_event){ev, answer, SIZE_MAX};
    if (keymap_get(tails, key, len, &last))
        (*tev)[last].next = k;
    else if (keymap_put(heads, key, len, k) < 0)
        return -1;
    return keymap_put(tails, key, len, k);
}

/* The calls that only the sample's events show, put among the messages'
 * in the events' order: a react() agent's final submit, taken out of its
 * messages, is in its last model event's output and in a tool event.  A
 * call is known by its id: the messages' are not added again, and their
 * answers, where the messages have none, are their tool events' results;
 * an event's call takes a tool message's answer that waited for it, else
 * its tool event's.  The calls of one id take its tool events in order,
 * the first call the first.  0, 1 stop, -1. */
static int event_calls(struct iread *m, const value *events, err *e)
{
    lr_calls *c = &m->calls;
    keymap known = KEYMAP_INIT, added = KEYMAP_INIT;
    /* the tool events of each id, in their order (ids repeat: older
     * Gemini logs give a call its function's name): id -> the first not
     * yet taken, and the last */
    keymap heads = KEYMAP_INIT, tails = KEYMAP_INIT;
    keymap_secret(&known); /* ids come from the log */
    added.seed = heads.seed = tails.seed = known.seed;
    struct tool_event *tev = NULL;
    size_t ntev = 0, tevcap = 0;
    struct event_call *more = NULL;
    size_t nmore = 0, cap = 0, after = 0, at;
    int rc = 0, stop = 0;
    for (size_t i = 0; i < c->n && rc == 0; i++)
        if (c->items[i].id &&
            keymap_put(&known, c->items[i].id->u.str.ptr,
                       c->items[i].id->u.str.len, i) < 0)
            rc = -1;
    for (size_t i = 0; rc == 0 && i < events->u.arr.len; i++) {
        const value *ev = events->u.arr.items[i];
        const value *kind = value_getz(ev, "event");
        if (!kind || kind->kind != V_STRING)
            continue;
        int tool = strcmp(kind->u.str.ptr, "tool") == 0;
        const value *list = NULL;
        if (strcmp(kind->u.str.ptr, "model") == 0) {
            const value *choices = value_getz(value_getz(ev, "output"),
                                              "choices");
            if (choices && choices->kind == V_ARRAY && choices->u.arr.len)
                list = value_getz(value_getz(choices->u.arr.items[0],
                                             "message"),
                                  "tool_calls");
            if (!list || list->kind != V_ARRAY)
                continue;
        } else if (!tool) {
            continue;
        }
        size_t n = tool ? 1 : list->u.arr.len;
        for (size_t k = 0; rc == 0 && k < n; k++) {
            const value *tc = tool ? ev : list->u.arr.items[k];
            const value *id = value_getz(tc, "id");
            const value *fn = value_getz(tc, "function");
            if (!id || id->kind != V_STRING || !fn || fn->kind != V_STRING)
                continue; /* none to know it by: the messages have it */
            const char *key = id->u.str.ptr;
            size_t len = id->u.str.len;
            struct where w = {i | AN_EVENT, tool ? NO_CALL : k};
            const value *answer = NULL;
            if (tool) {
                answer = tool_answer(m, value_getz(ev, "result"),
                                     value_getz(ev, "error"), &w, &stop);
                if (!answer || queue_event(&tev, &ntev, &tevcap, &heads,
                                           &tails, key, len, ev,
                                           answer) < 0) {
                    rc = -1;
                    break;
                }
            }
            if (keymap_get(&known, key, len, &at)) {
                after = at + 1; /* the events are at this call now */
                continue;
            }
            if (keymap_get(&added, key, len, &at)) {
                if (answer && !more[at].answer)
                    more[at].answer = answer;
                continue;
            }
            const value *args = value_getz(tc, "arguments");
            value *call = vb_object(m->a);
            if (args && !(args = resolve(m, args, NULL, &w, &stop))) {
                rc = -1;
                break;
            }
            if (nmore == cap) {
                cap = cap ? 2 * cap : 8;
                struct event_call *grown = realloc(more, cap * sizeof *more);
                if (!grown) {
                    rc = -1;
                    break;
                }
                more = grown;
            }
            if (!call || vb_put(m->a, call, "name", (value *)fn) < 0 ||
                (args && vb_put(m->a, call, "arguments", (value *)args) < 0) ||
                keymap_put(&added, key, len, nmore) < 0) {
                rc = -1;
                break;
            }
            more[nmore++] = (struct event_call){after, call, id, answer,
                                                {w.msg, w.call}};
        }
    }
    /* the events' calls: a tool message that waited for one answers it */
    for (size_t i = 0; rc == 0 && i < c->nw; i++) {
        lr_call_item *w = &c->waiting[i];
        if (!w->call && keymap_get(&added, w->id->u.str.ptr,
                                   w->id->u.str.len, &at)) {
            more[at].answer = w->answer;
            w->call = more[at].call; /* taken: not a problem */
        }
    }
    /* every call in one order: the messages', each event's after the
     * message call the events had reached */
    if (rc == 0 && nmore) {
        size_t total = c->n + nmore, j = 0, x = 0;
        lr_call_item *all = malloc(total * sizeof *all);
        if (!all)
            rc = -1;
        for (size_t i = 0; rc == 0 && i <= c->n; i++) {
            for (; x < nmore && more[x].after == i; x++)
                all[j++] = (lr_call_item){more[x].call, more[x].id,
                                          more[x].answer,
                                          {more[x].at[0], more[x].at[1]},
                                          LRC_NONE, NAN, 0};
            if (i < c->n)
                all[j++] = c->items[i];
        }
        if (rc == 0) {
            free(c->items);
            c->items = all;
            c->n = c->cap = total;
        }
    }
    /* each call, in order, takes the next tool event of its id: its
     * working time, and its result when the messages gave no answer */
    for (size_t i = 0; rc == 0 && i < c->n; i++) {
        lr_call_item *it = &c->items[i];
        if (!it->id || !keymap_get(&heads, it->id->u.str.ptr,
                                   it->id->u.str.len, &at))
            continue;
        value_amount(value_getz(tev[at].ev, "working_time"), &it->duration);
        if (!it->answer)
            it->answer = tev[at].answer;
        if (tev[at].next == SIZE_MAX)
            keymap_remove(&heads, it->id->u.str.ptr, it->id->u.str.len);
        else if (keymap_put(&heads, it->id->u.str.ptr, it->id->u.str.len,
                            tev[at].next) < 0)
            rc = -1;
    }
    keymap_free(&known);
    keymap_free(&added);
    keymap_free(&heads);
    keymap_free(&tails);
    free(tev);
    free(more);
    if (rc < 0)
        return nomem(e);
    return stop;
}

/* Adds a ModelUsage's figures to u; *no_cost set when it states no cost
 * (the sum would then be a part of the cost, given as the whole). */
static void add_usage(lr_usage *u, const value *mu, int *no_cost)
{
    int64_t n;
    double x;
    if (value_count(value_getz(mu, "input_tokens"), &n) == VFIG_OK)
        lr_add_count(&u->input_tokens, n);
    if (value_count(value_getz(mu, "output_tokens"), &n) == VFIG_OK)
        lr_add_count(&u->output_tokens, n);
    if (value_amount(value_getz(mu, "total_cost"), &x) == VFIG_OK)
        lr_add_amount(&u->cost, x);
    else
        *no_cost = 1;
}

/* What a sample used (docs/logs.md): the tokens and cost of its
 * model_usage, summed over its models (a log without it: of its model
 * events' outputs; the cost unknown when one of them states none), and
 * its working time (else its total time). */
static void sample_usage(const value *s, const value *events, lr_usage *u)
{
    lr_usage_init(u);
    int no_cost = 0;
    const value *mu = value_getz(s, "model_usage");
    if (mu && mu->kind == V_OBJECT && mu->u.obj.len) {
        for (size_t i = 0; i < mu->u.obj.len; i++)
            add_usage(u, mu->u.obj.items[i].val, &no_cost);
    } else if (events && events->kind == V_ARRAY) {
        for (size_t i = 0; i < events->u.arr.len; i++) {
            const value *ev = events->u.arr.items[i];
            const value *kind = value_getz(ev, "event");
            if (kind && kind->kind == V_STRING &&
                strcmp(kind->u.str.ptr, "model") == 0)
                add_usage(u, value_getz(value_getz(ev, "output"), "usage"),
                          &no_cost);
        }
    }
    if (no_cost)
        u->cost = NAN;
    if (value_amount(value_getz(s, "working_time"), &u->duration) != VFIG_OK)
        value_amount(value_getz(s, "total_time"), &u->duration);
}

/* The success and the reward a score's value gives (docs/logs.md). */
static void read_score(const value *v, int *success, double *reward,
                       int *has_reward, int *unread)
{
    *success = -1;
    *has_reward = 0;
    *unread = 0;
    if (!v)
        return;
    if (v->kind == V_STRING) {
        static const char *const yes[] = {"C", "correct", "yes", "true"};
        static const char *const no[] = {"I", "incorrect", "no", "false",
                                         "N"};
        for (size_t i = 0; i < 4; i++)
            if (strcasecmp(v->u.str.ptr, yes[i]) == 0 &&
                (i > 0 || strcmp(v->u.str.ptr, "C") == 0))
                *success = 1;
        for (size_t i = 0; i < 5; i++)
            if (strcasecmp(v->u.str.ptr, no[i]) == 0 &&
                (i != 0 && i != 4 ? 1 : strcmp(v->u.str.ptr, no[i]) == 0))
                *success = 0;
        if (strcmp(v->u.str.ptr, "P") == 0) {
            *reward = 0.5; /* partly correct, as Inspect counts it */
            *has_reward = 1;
        } else if (*success < 0) {
            *unread = 1;
        }
        return;
    }
    if (v->kind == V_BOOL) {
        *success = v->u.b;
        return;
    }
    if (v->kind == V_INT || v->kind == V_FLOAT) {
        /* a number past a double's range is no reward (value_reward) */
        if (value_reward(v, reward) != VFIG_OK) {
            *unread = 1;
            return;
        }
        *has_reward = 1;
        if (*reward == 1.0)
            *success = 1;
        else if (*reward == 0.0)
            *success = 0;
        return;
    }
    *unread = v->kind != V_NULL;
}

/* The run of this log: declared at its first sample. */
/* The run's name: the header's task and eval id (else run id, else the
 * file's name), as docs/logs.md says. */
static void run_name(struct iread *m, char *name, size_t size)
{
    const value *ev = m->eval;
    const value *task = value_getz(ev, "task");
    const value *id = value_getz(ev, "eval_id");
    char stem[256];
    if (!id || id->kind != V_STRING)
        id = value_getz(ev, "run_id");
    lr_stem(m->r, stem, sizeof stem);
    snprintf(name, size, "%.*s%s%.*s",
             task && task->kind == V_STRING ? (int)task->u.str.len : 0,
             task && task->kind == V_STRING ? task->u.str.ptr : "",
             task && task->kind == V_STRING ? "/" : "",
             id && id->kind == V_STRING ? (int)id->u.str.len
                                        : (int)strlen(stem),
             id && id->kind == V_STRING ? id->u.str.ptr : stem);
}

static int declare(struct iread *m, const value *tools, err *e)
{
    const value *ev = m->eval;
    const value *model = value_getz(ev, "model");
    char name[600];
    run_name(m, name, sizeof name);
    /* what the log says of itself, kept in the run's meta */
    value *meta = vb_object(m->a), *in = vb_object(m->a);
    static const char *const keep[] = {"task", "task_id", "task_version",
                                       "eval_id", "run_id", "created"};
    int bad = 0;
    for (size_t i = 0; i < sizeof keep / sizeof *keep; i++) {
        const value *v = value_getz(ev, keep[i]);
        if (v && (v->kind == V_STRING || v->kind == V_INT))
            bad |= vb_put(m->a, in, keep[i], vb_clone(m->a, v));
    }
    if (m->status && m->status->kind == V_STRING)
        bad |= vb_put(m->a, in, "status", vb_clone(m->a, m->status));
    bad |= vb_put(m->a, meta, "inspect", in);
    if (bad)
        return nomem(e);
    return lr_run(m->r, name,
                  model && model->kind == V_STRING ? model->u.str.ptr : NULL,
                  meta, tools, m->member ? m->member : m->at, &m->run, e);
}

static int read_sample(struct iread *m, const value *s, err *e)
{
    logr *r = m->r;
    m->c->records++;
    if (m->version_bad) {
        m->c->refused++;
        return 0; /* said once, for the log */
    }
    if (!m->eval) {
        m->c->refused++;
        if (m->said_order)
            return 0;
        m->said_order = 1;
        return problem_at(m, NULL, "%s",
                          "a sample before the log's \"eval\" header: "
                          "this log's samples are skipped (Inspect writes "
                          "the header first)");
    }
    const value *id = value_getz(s, "id");
    const value *epoch = value_getz(s, "epoch");
    if (s->kind != V_OBJECT || !id ||
        (id->kind != V_STRING && id->kind != V_INT)) {
        m->c->refused++;
        return problem_at(m, NULL, "%s",
                          s->kind == V_OBJECT && id
                              ? "a sample whose \"id\" is neither a string "
                                "nor an integer: it is skipped"
                              : "a sample without an \"id\" (a string or "
                                "an integer): it is skipped");
    }
    arena_reset(m->a);
    lrc_reset(&m->calls);
    m->attachments = value_getz(s, "attachments");
    if (!m->attachments) /* the transcript layout's (before 0.3.42) */
        m->attachments = value_getz(value_getz(s, "transcript"), "content");
    m->expanded = 0;
    char episode[LR_NAME_MAX + 1];
    /* an epoch of text (some writers) names the trial all the same */
    if (lr_name(episode, id, "#",
                epoch && (epoch->kind == V_INT || epoch->kind == V_STRING)
                    ? epoch
                    : NULL) < 0)
        return nomem(e);
    value *tools = NULL;
    const value *events = NULL;
    if (sample_events(m, s, &events) < 0)
        return nomem(e);
    int rc = offered(m, events, &tools);
    if (rc < 0)
        return nomem(e);
    if (rc)
        return rc;
    rc = declare(m, tools, e);
    if (rc)
        return rc;
    /* the calls and the final words are read before anything of the
     * episode is written, so that a sample refused for what its
     * references stand for writes nothing */
    const value *msgs = value_getz(s, "messages");
    if (msgs && msgs->kind == V_ARRAY) {
        rc = read_messages(m, msgs, episode, e);
        if (rc)
            return rc;
    }
    if (events && events->kind == V_ARRAY &&
        (rc = event_calls(m, events, e)))
        return rc;
    if (msgs && msgs->kind != V_ARRAY && msgs->kind != V_NULL &&
               problem_at(m, ".messages", "%s",
                          "the sample's messages are not a list: the "
                          "episode has no calls")) {
        return 1;
    }
    const value *out = value_getz(s, "output");
    const value *completion = value_getz(out, "completion");
    const char *cpath = ".output.completion";
    const value *choices = value_getz(out, "choices");
    if (!completion && choices && choices->kind == V_ARRAY &&
        choices->u.arr.len) {
        /* early Inspect wrote no completion (a property of the output,
         * never kept): it is the first choice's text */
        const value *content =
            value_getz(value_getz(choices->u.arr.items[0], "message"),
                       "content");
        buf t = BUF_INIT;
        int trc = content ? lr_content_text(&t, content) : 1;
        if (trc == 0 &&
            !(completion = vb_strn(m->a, t.data ? t.data : "", t.len)))
            trc = -1;
        buf_free(&t);
        if (trc < 0)
            return nomem(e);
        cpath = ".output.choices[0].message.content";
    }
    char *final = NULL;
    if (completion && completion->kind == V_STRING &&
        completion->u.str.len) {
        int stop = 0;
        const value *c = resolve(m, completion, cpath, NULL, &stop);
        if (!c)
            return nomem(e);
        final = (char *)c->u.str.ptr;
        if (stop)
            return 1;
    }
    if (m->expanded > LOG_RECORD_MAX) {
        char text[300];
        snprintf(text, sizeof text,
                 "the sample's attachment references stand for %zu MiB of "
                 "text, more than the limit of %u MiB a record: it is "
                 "skipped",
                 m->expanded >> 20, LOG_RECORD_MAX >> 20);
        m->c->refused++;
        return problem_at(m, NULL, "%s", text);
    }
    const value *meta = value_getz(s, "metadata");
    char meta_at[300];
    snprintf(meta_at, sizeof meta_at, "%s.metadata", m->at);
    rc = lr_episode(r, m->run, episode, value_getz(meta, "seed"),
                    value_getz(meta, "arm"), id, m->member, meta_at, e);
    if (rc == 0)
        rc = lrc_emit(r, m->run, episode, &m->calls, e);
    if (rc)
        return rc;
    /* the score: --score NAME's, or the first scorer's */
    const value *scores = value_getz(s, "scores");
    const char *want = lr_opts(r)->score;
    const value *score = NULL;
    const value *single = value_getz(s, "score"); /* version 1's */
    if (!scores && single && (!want || strcmp(want, m->scorer) == 0))
        score = single;
    else if (want)
        score = value_getz(scores, want);
    else if (scores && scores->kind == V_OBJECT && scores->u.obj.len)
        score = scores->u.obj.items[0].val;
    if (want && !score &&
        problem_at(m, ".scores", "the sample has no score of the scorer "
                                 "\"%s\": success and reward are left "
                                 "unknown",
                   want))
        return 1;
    int success, has_reward, unread;
    double reward = 0;
    const value *sv = value_getz(score, "value");
    read_score(sv, &success, &reward, &has_reward, &unread);
    /* a scorer that gave nothing (no value, null, or no Score object) */
    if (score && (!sv || sv->kind == V_NULL) &&
        problem_at(m, ".scores", "%s",
                   "the score has no value: success and reward are left "
                   "unknown"))
        return 1;
    if (unread &&
        problem_at(m, ".scores", "%s",
                   "the score's value is none that is read (C, I, P, N, "
                   "correct, incorrect, yes, no, true, false, a finite "
                   "number): "
                   "success and reward are left unknown"))
        return 1;
    const value *err_v = value_getz(s, "error");
    lr_usage used;
    sample_usage(s, events, &used);
    rc = lr_end(r, m->run, episode,
                err_v && err_v->kind != V_NULL ? "error" : "done", final,
                success, has_reward ? &reward : NULL, &used, e);
    if (rc == 0)
        m->c->read++;
    return rc;
}

/* The header: the version is checked, "eval" kept for the file. */
static int read_header_member(struct iread *m, const char *key,
                              const value *v, err *e)
{
    if (strcmp(key, "version") == 0) {
        /* 3: a log with chunked samples (read_chunked) */
        if (v->kind == V_INT && (strcmp(v->u.str.ptr, "1") == 0 ||
                                 strcmp(v->u.str.ptr, "2") == 0 ||
                                 strcmp(v->u.str.ptr, "3") == 0))
            return 0;
        /* another version is read by its structure, as far as it is the
         * one known: what is not found there is said where it is missed */
        char text[64];
        if (v->kind == V_INT)
            snprintf(text, sizeof text, "%.20s", v->u.str.ptr);
        else
            snprintf(text, sizeof text, "%s", value_kind_phrase(v->kind));
        return lr_problem(m->r, m->member, "$.version",
                          "an Inspect log of version %s, which this reader "
                          "has not seen (it knows versions 1, 2 and 3): it "
                          "is read by its structure, and what is not where "
                          "those keep it is said",
                          text);
    }
    if (strcmp(key, "results") == 0) { /* version 1: its one scorer */
        const value *n = value_getz(value_getz(v, "scorer"), "name");
        if (n && n->kind == V_STRING)
            snprintf(m->scorer, sizeof m->scorer, "%.*s",
                     (int)(n->u.str.len < 127 ? n->u.str.len : 127),
                     n->u.str.ptr);
        return 0;
    }
    if (strcmp(key, "eval") == 0 || strcmp(key, "status") == 0) {
        value *copy = vb_clone(m->ha, v);
        if (!copy)
            return nomem(e);
        if (strcmp(key, "eval") == 0) {
            m->eval = copy;
            /* the samples' problems are the run's from here on */
            char name[600];
            run_name(m, name, sizeof name);
            if (lr_problem_run(m->r, name) < 0)
                return nomem(e);
        } else {
            m->status = copy;
        }
    }
    return 0;
}

/* ---------------------------------------------------------- .json */

static int on_piece(void *ctx, const char *key, size_t index,
                    const value *v, err *e)
{
    struct iread *m = ctx;
    if (!key)
        return 0;
    if (index == (size_t)-1 && !v) {
        char path[128];
        snprintf(path, sizeof path, "$.%.100s", key);
        int rc = lr_problem(m->r, NULL, path, "its value tree is larger "
                                              "than the limit of %u MiB a "
                                              "record: it is not read",
                            LOG_RECORD_MAX >> 20);
        return rc ? (err_set(e, ERR_USAGE, "stopped"), -1) : 0;
    }
    if (index == (size_t)-1) {
        int rc = read_header_member(m, key, v, e);
        return rc ? -1 : 0;
    }
    if (strcmp(key, "samples") != 0)
        return 0;
    snprintf(m->at, sizeof m->at, "$.samples[%zu]", index);
    if (!v) {
        m->c->records++;
        m->c->refused++;
        char text[160];
        snprintf(text, sizeof text, "its value tree is larger than the "
                                    "limit of %u MiB a record: it is "
                                    "skipped",
                 LOG_RECORD_MAX >> 20);
        int rc = problem_at(m, NULL, "%s", text);
        return rc ? (err_set(e, ERR_USAGE, "stopped"), -1) : 0;
    }
    int rc = read_sample(m, v, e);
    return rc ? (rc < 0 ? -1 : (err_set(e, ERR_USAGE, "stopped"), -1)) : 0;
}

static int read_json(struct iread *m, const char *path, err *e)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return err_set(e, ERR_IO, "cannot read %s: %s", path,
                       strerror(errno));
    static const char *const streamed[] = {"samples", NULL};
    jstream *s = jstream_new(streamed, LOG_RECORD_MAX, on_piece, m);
    if (!s) {
        close(fd);
        return nomem(e);
    }
    char chunk[65536];
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = read(fd, chunk, sizeof chunk)) > 0)
        rc = jstream_feed(s, chunk, (size_t)n, e);
    if (rc == 0)
        rc = n < 0 ? err_set(e, ERR_IO, "cannot read %s: %s", path,
                             strerror(errno))
                   : jstream_finish(s, e);
    int top = jstream_top(s);
    jstream_free(s);
    close(fd);
    if (rc == 0 && top != '{') {
        m->at[0] = '\0';
        return lr_problem(m->r, NULL, NULL,
                          "not an Inspect log: an EvalLog is a JSON object");
    }
    if (rc < 0 && e->code == ERR_USAGE)
        return 1; /* stopped */
    if (rc < 0 && e->code != ERR_NOMEM && e->code != ERR_IO) {
        char why[600];
        snprintf(why, sizeof why, "%s", e->msg);
        err_clear(e);
        return lr_problem(m->r, NULL, NULL,
                          "%s; the samples before it were read, the rest "
                          "is not",
                          why);
    }
    return rc;
}

/* ---------------------------------------------------------- .eval */

/* The archive's bytes, as libzip asks for them: through a window of
 * ARCHIVE_WINDOW bytes read with pread, so that reading its headers and
 * members in order costs a system call a window.  libzip's own source
 * reads a file through stdio, and seeks before every header and every
 * member: more system calls than members, four a member or more. */
#define ARCHIVE_WINDOW (64u << 10)

struct archive {
    int fd;
    zip_uint64_t size, at;     /* the file's size; the reading position */
    zip_uint64_t start, len;   /* the bytes of the file the window holds */
    time_t mtime;
    unsigned char *window;
    zip_error_t error;
};

/* Up to n bytes from a->at into out: from the window, refilled when it
 * does not hold them, or straight into out when they are many. */
static zip_int64_t archive_read(struct archive *a, unsigned char *out,
                                zip_uint64_t n)
{
    if (a->at >= a->size || n == 0)
        return 0;
    if (n > a->size - a->at)
        n = a->size - a->at;
    if (a->at < a->start || a->at >= a->start + a->len) {
        if (n >= ARCHIVE_WINDOW) { /* no use keeping them */
            ssize_t got = pread(a->fd, out, n, (off_t)a->at);
            if (got < 0) {
                zip_error_set(&a->error, ZIP_ER_READ, errno);
                return -1;
            }
            a->at += (zip_uint64_t)got;
            return got;
        }
        ssize_t got = pread(a->fd, a->window, ARCHIVE_WINDOW, (off_t)a->at);
        if (got < 0) {
            zip_error_set(&a->error, ZIP_ER_READ, errno);
            return -1;
        }
        a->start = a->at;
        a->len = (zip_uint64_t)got;
        if (got == 0)
            return 0; /* the file is shorter than it was */
    }
    zip_uint64_t have = a->start + a->len - a->at;
    if (n > have)
        n = have;
    memcpy(out, a->window + (a->at - a->start), n);
    a->at += n;
    return (zip_int64_t)n;
}

static zip_int64_t archive_op(void *ud, void *data, zip_uint64_t len,
                              zip_source_cmd_t cmd)
{
    struct archive *a = ud;
    switch (cmd) {
    case ZIP_SOURCE_OPEN:
        a->at = 0;
        return 0;
    case ZIP_SOURCE_READ:
        return archive_read(a, data, len);
    case ZIP_SOURCE_CLOSE:
        return 0;
    case ZIP_SOURCE_STAT: {
        zip_stat_t *st = ZIP_SOURCE_GET_ARGS(zip_stat_t, data, len,
                                             &a->error);
        if (!st)
            return -1;
        zip_stat_init(st);
        st->size = a->size;
        st->mtime = a->mtime;
        st->valid |= ZIP_STAT_SIZE | ZIP_STAT_MTIME;
        return sizeof *st;
    }
    case ZIP_SOURCE_ERROR:
        return zip_error_to_data(&a->error, data, len);
    case ZIP_SOURCE_FREE:
        close(a->fd);
        free(a->window);
        zip_error_fini(&a->error);
        free(a);
        return 0;
    case ZIP_SOURCE_SEEK: {
        zip_int64_t to = zip_source_seek_compute_offset(a->at, a->size, data,
                                                        len, &a->error);
        if (to < 0)
            return -1;
        a->at = (zip_uint64_t)to;
        return 0;
    }
    case ZIP_SOURCE_TELL:
        return (zip_int64_t)a->at;
    case ZIP_SOURCE_SUPPORTS:
        return ZIP_SOURCE_SUPPORTS_SEEKABLE;
    default:
        zip_error_set(&a->error, ZIP_ER_OPNOTSUPP, 0);
        return -1;
    }
}

/* The archive at path, opened as zip_open opens it (flags, and *code
 * when it cannot be); NULL with *code ZIP_ER_MEMORY out of memory. */
static zip_t *archive_open(const char *path, int flags, int *code)
{
    struct archive *a = calloc(1, sizeof *a);
    unsigned char *w = malloc(ARCHIVE_WINDOW);
    struct stat st;
    *code = ZIP_ER_MEMORY;
    if (!a || !w) {
        free(a);
        free(w);
        return NULL;
    }
    a->window = w;
    zip_error_init(&a->error);
    if ((a->fd = open(path, O_RDONLY)) < 0 || fstat(a->fd, &st) != 0) {
        *code = ZIP_ER_OPEN;
        if (a->fd >= 0)
            close(a->fd);
        zip_error_fini(&a->error);
        free(w);
        free(a);
        return NULL;
    }
    a->size = (zip_uint64_t)st.st_size;
    a->mtime = st.st_mtime;
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_function_create(archive_op, a, &ze);
    if (!src) { /* a is not the source's: freed here */
        close(a->fd);
        zip_error_fini(&a->error);
        free(w);
        free(a);
        zip_error_fini(&ze);
        return NULL;
    }
    zip_t *z = zip_open_from_source(src, flags, &ze);
    if (!z) {
        *code = zip_error_code_zip(&ze);
        zip_source_free(src); /* and a, with it */
    }
    zip_error_fini(&ze);
    return z;
}

/* The bytes of member i into b; 0, 1 when it cannot be read (said as a
 * problem, or stop), -1 out of memory. */
static int read_member(struct iread *m, zip_t *z, zip_uint64_t i,
                       const char *name, buf *b, err *e)
{
    zip_stat_t st;
    buf_reset(b);
    m->member = name;
    m->at[0] = '\0';
    if (zip_stat_index(z, i, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE) &&
        st.size > LOG_RECORD_MAX) {
        char text[200];
        snprintf(text, sizeof text,
                 "the member says it holds %llu bytes, past the limit of %u "
                 "MiB a member (a zip bomb, or a sample too large): it is "
                 "skipped",
                 (unsigned long long)st.size, LOG_RECORD_MAX >> 20);
        return lr_problem(m->r, name, NULL, "%s", text) ? 2 : 1;
    }
    if (zip_stat_index(z, i, 0, &st) == 0 &&
        (st.valid & ZIP_STAT_COMP_METHOD) &&
        st.comp_method == ZIP_METHOD_ZSTD) {
        /* Inspect's own since 0.3.206, which this libzip may not know */
        char why[200], text[300];
        int rc = zipzstd_read(z, i, &st, LOG_RECORD_MAX, b, why, sizeof why);
        if (rc < 0)
            return nomem(e);
        if (rc == 1)
            snprintf(text, sizeof text,
                     "the member holds more than the limit of %u MiB a "
                     "member (more than its header says: a zip bomb): it "
                     "is skipped",
                     LOG_RECORD_MAX >> 20);
        else
            snprintf(text, sizeof text, "cannot be read whole: %s; it is "
                                        "skipped",
                     why);
        return rc == 0 ? 0 : lr_problem(m->r, name, NULL, "%s", text) ? 2 : 1;
    }
    zip_file_t *f = zip_fopen_index(z, i, 0);
    if (!f) {
        char text[300];
        snprintf(text, sizeof text, "cannot be read: %s; it is skipped",
                 zip_strerror(z));
        return lr_problem(m->r, name, NULL, "%s", text) ? 2 : 1;
    }
    char chunk[65536];
    zip_int64_t n;
    while ((n = zip_fread(f, chunk, sizeof chunk)) > 0) {
        if (b->len + (size_t)n > LOG_RECORD_MAX) {
            zip_fclose(f);
            char text[200];
            snprintf(text, sizeof text,
                     "the member holds more than the limit of %u MiB a "
                     "member (more than its header says: a zip bomb): it "
                     "is skipped",
                     LOG_RECORD_MAX >> 20);
            return lr_problem(m->r, name, NULL, "%s", text) ? 2 : 1;
        }
        if (buf_append(b, chunk, (size_t)n) < 0) {
            zip_fclose(f);
            return nomem(e);
        }
    }
    if (n < 0) {
        char text[300];
        snprintf(text, sizeof text,
                 "cannot be read whole: %s (a damaged or truncated "
                 "archive); it is skipped",
                 zip_file_strerror(f));
        zip_fclose(f);
        return lr_problem(m->r, name, NULL, "%s", text) ? 2 : 1;
    }
    zip_fclose(f);
    return 0;
}

/* Parses the member's bytes into v (in a); 0, 1 not JSON (said), 2 stop,
 * -1 out of memory. */
static int parse_member(struct iread *m, arena *a, buf *b, value **v,
                        err *e)
{
    err le;
    if (json_load(v, a, b->data ? b->data : "", b->len, &le) == 0)
        return 0;
    if (le.code == ERR_NOMEM && arena_over(a))
        return lr_problem(m->r, m->member, NULL,
                          "its value tree is larger than the limit of %u "
                          "MiB a record: it is skipped",
                          LOG_RECORD_MAX >> 20)
                   ? 2
                   : 1;
    if (le.code == ERR_NOMEM)
        return nomem(e);
    char text[700];
    snprintf(text, sizeof text, "not JSON: %s; it is skipped", le.msg);
    return lr_problem(m->r, m->member, le.path[0] ? le.path : NULL, "%s",
                      text)
               ? 2
               : 1;
}

static int starts_with(const char *s, const char *head)
{
    return strncmp(s, head, strlen(head)) == 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* ------------------------------------------------ the chunked layout */

/* Inspect's converter can write a sample as members of its own
 * (docs/logs.md, "Inspect eval logs"): its shell P/sample.json, its
 * metadata P/metadata.json, and its sequences P/SEQ/START.json, each a
 * list, START the number of items before it; the shell's message_refs
 * ([start, end) ranges into the messages) give its conversation, and
 * "attachment://N" refers to item N of the attachments. */

/* Whether a member's name ends as a part of a chunked sample does (not
 * its shell): then the length of its prefix P, else 0. */
static size_t chunk_part(const char *name)
{
    static const char *const own[] = {"/metadata.json", "/skeleton.json",
                                      "/events/stats.json",
                                      "/events/uuids.json"};
    static const char *const seqs[] = {"/messages/", "/events/", "/calls/",
                                       "/attachments/"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        if (ends_with(name, own[i]))
            return n - strlen(own[i]);
    if (n < 6 || strcmp(name + n - 5, ".json") != 0)
        return 0;
    size_t d = n - 5; /* the stem: digits, or digits-digits (eval2's) */
    while (d > 0 && (isdigit((unsigned char)name[d - 1]) ||
                     name[d - 1] == '-'))
        d--;
    if (d == n - 5)
        return 0;
    for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++) {
        size_t k = strlen(seqs[i]);
        if (d >= k && memcmp(name + d - k, seqs[i], k) == 0)
            return d - k;
    }
    return 0;
}

/* The name P/tail (p: plen bytes) into out; 0 when it does not fit. */
static int part_name(char *out, size_t size, const char *p, size_t plen,
                     const char *tail)
{
    int n = snprintf(out, size, "%.*s%s", (int)plen, p, tail);
    return n > 0 && (size_t)n < size;
}

/* What reading a chunked sample holds. */
struct chunked {
    zip_t *z;
    const keymap *last; /* name -> its entry */
    arena *pa;
    buf *b;
    const char *p;      /* the sample's prefix, plen bytes */
    size_t plen;
    size_t bytes;       /* read for the sample so far */
};

/* The sample's trees past the limit of a record: said; 2 stop, or 1. */
static int parse_over(struct iread *m)
{
    return lr_problem(m->r, m->member, NULL,
                      "the sample's value tree is larger than the limit of "
                      "%u MiB a record: it is skipped",
                      LOG_RECORD_MAX >> 20)
               ? 2
               : 1;
}

/* A member of the sample (name) read and parsed into *v: 0; 1 a problem
 * said (the sample is skipped); 2 stop; -1.  *v is NULL when there is no
 * such member. */
static int chunk_member(struct iread *m, struct chunked *k, const char *name,
                        value **v, err *e)
{
    size_t at;
    *v = NULL;
    if (!keymap_get(k->last, name, strlen(name), &at))
        return 0;
    const char *kept = zip_get_name(k->z, (zip_uint64_t)at, 0);
    int rc = read_member(m, k->z, (zip_uint64_t)at, kept ? kept : name, k->b,
                         e);
    if (rc)
        return rc;
    k->bytes += k->b->len;
    if (k->bytes > LOG_RECORD_MAX)
        return lr_problem(m->r, m->member, NULL,
                          "the sample's members hold more than the limit of "
                          "%u MiB a record: it is skipped",
                          LOG_RECORD_MAX >> 20)
                   ? 2
                   : 1;
    return parse_member(m, k->pa, k->b, v, e);
}

/* The items of sequence seq ("messages"), chunk after chunk, into *out
 * (an array made in k->pa): 0, 1, 2 or -1 as chunk_member; a chunk that
 * is not a list is a problem of the sample. */
static int read_sequence(struct iread *m, struct chunked *k, const char *seq,
                         value **out, size_t *chunks, err *e)
{
    char name[1100], tail[64];
    size_t n = 0;
    if (!(*out = vb_array(k->pa)))
        return nomem(e);
    for (;;) {
        snprintf(tail, sizeof tail, "/%s/%zu.json", seq, n);
        value *v;
        if (!part_name(name, sizeof name, k->p, k->plen, tail))
            return 0;
        int rc = chunk_member(m, k, name, &v, e);
        if (rc || !v)
            return rc;
        if (v->kind != V_ARRAY || v->u.arr.len == 0)
            return lr_problem(m->r, m->member, NULL,
                              "a chunk of the sample's %s that is not a list "
                              "of them: the sample is skipped",
                              seq)
                       ? 2
                       : 1;
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (vb_push(k->pa, *out, v->u.arr.items[i]) < 0)
                return arena_over(k->pa) ? parse_over(m) : nomem(e);
        n += v->u.arr.len;
        ++*chunks;
    }
}

/* A chunked sample whose shell is the member shell (its prefix plen
 * bytes of it), put together as Inspect's whole sample and read:
 * 0, 1 stop, -1. */
static int read_chunked(struct iread *m, zip_t *z, const keymap *last,
                        const keymap *parts, const keymap *ranged,
                        const char *shell, arena *pa, buf *b, err *e)
{
    struct chunked k = {z, last, pa, b, shell, strlen(shell) - 12, 0};
    value *sh = NULL, *meta = NULL, *seq[3] = {NULL, NULL, NULL};
    static const char *const names[3] = {"messages", "events",
                                         "attachments"};
    size_t chunks = 0, want = 0;
    char name[1100];
    arena_reset(pa);
    m->member = shell;
    snprintf(m->at, sizeof m->at, "$");
    size_t any;
    int rc = keymap_get(ranged, shell, k.plen, &any)
                 ? (lr_problem(m->r, shell, NULL, "%s",
                               "a sample whose chunks are named by their "
                               "range (the first form of Inspect's eval2 "
                               "layout), which this reader does not read: "
                               "it is skipped")
                        ? 2
                        : 1)
                 : chunk_member(m, &k, shell, &sh, e);
    if (rc == 0 && sh->kind != V_OBJECT)
        rc = lr_problem(m->r, shell, NULL, "%s",
                        "the sample's shell is not a JSON object: the "
                        "sample is skipped")
                 ? 2
                 : 1;
    if (rc == 0 && part_name(name, sizeof name, shell, k.plen,
                             "/metadata.json"))
        rc = chunk_member(m, &k, name, &meta, e);
    for (int i = 0; rc == 0 && i < 3; i++)
        rc = read_sequence(m, &k, names[i], &seq[i], &chunks, e);
    m->member = shell;
    /* a chunk that does not follow the ones before it (a gap) */
    if (rc == 0 && keymap_get(parts, shell, k.plen, &want) &&
        want != chunks)
        rc = lr_problem(m->r, shell, NULL,
                        "%zu of the sample's chunks do not follow the ones "
                        "before them (a chunk is missing): the sample is "
                        "skipped",
                        want - chunks)
                 ? 2
                 : 1;
    value *s = rc == 0 ? vb_copy_object(pa, sh) : NULL;
    value *msgs = s ? vb_array(pa) : NULL, *atts = NULL;
    if (rc == 0 && !msgs)
        rc = arena_over(pa) ? parse_over(m) : nomem(e);
    /* the conversation: message_refs over the messages */
    const value *refs = rc == 0 ? value_getz(sh, "message_refs") : NULL;
    for (size_t i = 0; rc == 0 && refs && refs->kind == V_ARRAY &&
                       i < refs->u.arr.len;
         i++) {
        const value *r = refs->u.arr.items[i];
        int64_t from, to;
        if (r->kind != V_ARRAY || r->u.arr.len != 2 ||
            value_count(r->u.arr.items[0], &from) != VFIG_OK ||
            value_count(r->u.arr.items[1], &to) != VFIG_OK || from > to ||
            (size_t)to > seq[0]->u.arr.len) {
            rc = lr_problem(m->r, shell, NULL,
                            "$.message_refs[%zu] is not a range of the "
                            "sample's %zu messages: the sample is skipped",
                            i, seq[0]->u.arr.len)
                     ? 2
                     : 1;
            break;
        }
        for (int64_t j = from; rc == 0 && j < to; j++)
            if (vb_push(pa, msgs, seq[0]->u.arr.items[j]) < 0)
                rc = arena_over(pa) ? parse_over(m) : nomem(e);
    }
    /* the attachments, by their index */
    if (rc == 0 && seq[2]->u.arr.len) {
        atts = value_new(pa, V_OBJECT, 0, 0);
        value_member *items = atts ? arena_alloc(pa, seq[2]->u.arr.len *
                                                         sizeof *items)
                                   : NULL;
        for (size_t i = 0; items && i < seq[2]->u.arr.len; i++) {
            char digits[24];
            int len = snprintf(digits, sizeof digits, "%zu", i);
            value *key = vb_strn(pa, digits, (size_t)len);
            if (!key) {
                items = NULL;
                break;
            }
            items[i] = (value_member){key, seq[2]->u.arr.items[i]};
        }
        if (!items)
            rc = arena_over(pa) ? parse_over(m) : nomem(e);
        else {
            atts->u.obj.items = items;
            atts->u.obj.len = seq[2]->u.arr.len;
        }
    }
    if (rc == 0 && (vb_put(pa, s, "messages", msgs) < 0 ||
                    vb_put(pa, s, "events", seq[1]) < 0 ||
                    (meta && vb_put(pa, s, "metadata", meta) < 0) ||
                    (atts && vb_put(pa, s, "attachments", atts) < 0)))
        rc = arena_over(pa) ? parse_over(m) : nomem(e);
    if (rc > 0) {
        m->c->records++;
        m->c->refused++;
        return rc == 2 ? 1 : 0;
    }
    if (rc < 0)
        return rc;
    m->member = shell;
    snprintf(m->at, sizeof m->at, "$");
    return read_sample(m, s, e);
}

static int read_eval(struct iread *m, const char *path, err *e)
{
    int code = 0;
    /* not ZIP_CHECKCONS: it refuses a directory that names a member twice,
     * which Inspect writes; each member's own bytes are checked as read */
    zip_t *z = archive_open(path, ZIP_RDONLY, &code);
    if (!z) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, code);
        char text[400];
        snprintf(text, sizeof text,
                 "not a zip archive that can be read: %s (a truncated or "
                 "damaged .eval log: its list of members, at its end, is "
                 "needed); nothing of it is read",
                 zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return lr_problem(m->r, NULL, NULL, "%s", text);
    }
    buf b = BUF_INIT;
    arena *pa = arena_new(); /* the parsed member */
    int rc = pa ? 0 : nomem(e);
    if (pa) /* a member's tree is held to a record's limit, as a .json
             * log's sample is (jstream) */
        arena_limit(pa, LOG_RECORD_MAX);
    zip_int64_t count = zip_get_num_entries(z, 0);
    /* a member written again (a sample requeued, a header rewritten) is in
     * the directory twice: its last entry is the one that stands, as
     * Inspect reads it */
    keymap last = KEYMAP_INIT;
    keymap_secret(&last);
    for (zip_int64_t i = 0; rc == 0 && i < count; i++) {
        const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
        if (name && keymap_put(&last, name, strlen(name), (size_t)i) < 0)
            rc = nomem(e);
    }
    size_t at;
    /* the chunks of each chunked sample, by its prefix: a chunk that the
     * reading does not reach is one past a gap */
    keymap parts = KEYMAP_INIT, ranged = KEYMAP_INIT;
    parts.seed = ranged.seed = last.seed;
    for (zip_int64_t i = 0; rc == 0 && i < count; i++) {
        const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
        size_t plen = name ? chunk_part(name) : 0, n = 0;
        if (!plen || keymap_get(&last, name, strlen(name), &at) == 0 ||
            at != (size_t)i)
            continue;
        const char *stem = strrchr(name, '/');
        if (stem && strchr(stem, '-')) { /* eval2's range names */
            if (keymap_put(&ranged, name, plen, 1) < 0)
                rc = nomem(e);
            continue;
        }
        if (strncmp(name + plen, "/calls/", 7) == 0 || !stem ||
            !isdigit((unsigned char)stem[1]))
            continue; /* not read */
        if (strncmp(name + plen, "/messages/", 10) != 0 &&
            strncmp(name + plen, "/events/", 8) != 0 &&
            strncmp(name + plen, "/attachments/", 13) != 0)
            continue;
        keymap_get(&parts, name, plen, &n);
        if (keymap_put(&parts, name, plen, n + 1) < 0)
            rc = nomem(e);
    }
    zip_int64_t head = -1;
    if (keymap_get(&last, "header.json", 11, &at) ||
        keymap_get(&last, "_journal/start.json", 19, &at))
        head = (zip_int64_t)at;
    if (rc == 0 && head < 0) {
        rc = lr_problem(m->r, NULL, NULL,
                        "not an Inspect log: the archive has neither "
                        "header.json nor _journal/start.json");
        m->version_bad = 1;
    } else if (rc == 0) {
        const char *name = zip_get_name(z, (zip_uint64_t)head, 0);
        value *v = NULL;
        rc = read_member(m, z, (zip_uint64_t)head, name, &b, e);
        if (rc == 0)
            rc = parse_member(m, pa, &b, &v, e);
        if (rc == 0 && v->kind != V_OBJECT) {
            m->version_bad = 1;
            rc = lr_problem(m->r, name, NULL, "the header is not a JSON "
                                              "object: not an Inspect log; "
                                              "nothing of it is read")
                     ? 2
                     : 0;
        } else if (rc == 0) {
            const value *ver = value_getz(v, "version");
            if (ver) {
                rc = read_header_member(m, "version", ver, e);
            } else {
                m->version_bad = 1;
                rc = lr_problem(m->r, name, NULL,
                                "the header has no \"version\": not an "
                                "Inspect log this reads; its samples are "
                                "skipped")
                         ? 2
                         : 0;
            }
            for (size_t i = 0; rc == 0 && i < v->u.obj.len; i++) {
                const value_member *mb = &v->u.obj.items[i];
                if (mb->key->kind == V_STRING &&
                    strcmp(mb->key->u.str.ptr, "version") != 0)
                    rc = read_header_member(m, mb->key->u.str.ptr, mb->val,
                                            e);
            }
        } else if (rc == 1) {
            m->version_bad = 1; /* no header: nothing to read it with */
            rc = 0;
        }
        rc = rc == 2 ? 1 : rc;
    }
    for (zip_int64_t i = 0; rc == 0 && i < count; i++) {
        const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
        if (!name || !starts_with(name, "samples/") ||
            !ends_with(name, ".json") ||
            (keymap_get(&last, name, strlen(name), &at) &&
             at != (size_t)i))
            continue;
        /* a part of a chunked sample (its shell P/sample.json is there):
         * read with its shell; else a whole sample, whose id may hold a
         * slash (Inspect does not escape one) */
        size_t plen = chunk_part(name);
        char shell[1100];
        if (plen && part_name(shell, sizeof shell, name, plen,
                              "/sample.json") &&
            keymap_get(&last, shell, strlen(shell), &at))
            continue;
        if (ends_with(name, "/sample.json") && !m->version_bad) {
            rc = read_chunked(m, z, &last, &parts, &ranged, name, pa, &b, e);
            continue;
        }
        if (m->version_bad) {
            m->c->records++;
            m->c->refused++;
            continue;
        }
        value *v = NULL;
        arena_reset(pa);
        int got = read_member(m, z, (zip_uint64_t)i, name, &b, e);
        if (got == 0)
            got = parse_member(m, pa, &b, &v, e);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got > 0) {
            m->c->records++;
            m->c->refused++;
            rc = got == 2 ? 1 : 0;
            continue;
        }
        m->member = name;
        snprintf(m->at, sizeof m->at, "$");
        rc = read_sample(m, v, e);
    }
    m->member = NULL;
    keymap_free(&last);
    keymap_free(&parts);
    keymap_free(&ranged);
    buf_free(&b);
    arena_free(pa);
    zip_discard(z); /* read only: nothing to write back */
    return rc;
}

static int inspect_read(logr *r, const log_input *in, err *e)
{
    const char *path = in->path, *shown = in->shown;
    struct iread m;
    memset(&m, 0, sizeof m);
    m.r = r;
    m.c = lr_counts(r);
    m.calls.place = call_place;
    m.calls.place_ctx = &m;
    m.ha = arena_new();
    m.a = arena_new();
    int rc;
    if (!m.ha || !m.a) {
        rc = nomem(e);
    } else if (strcmp(path, "-") == 0) {
        rc = err_set(e, ERR_USAGE, "an Inspect log is read from a file, "
                                   "not from standard input");
    } else {
        unsigned char magic[4] = {0};
        int fd = open(path, O_RDONLY);
        ssize_t n = fd < 0 ? -1 : read(fd, magic, sizeof magic);
        if (fd >= 0)
            close(fd);
        if (n < 0)
            rc = err_set(e, ERR_IO, "cannot read %s: %s", shown,
                         strerror(errno));
        else if (n == 4 && memcmp(magic, "PK", 2) == 0)
            rc = read_eval(&m, path, e);
        else
            rc = read_json(&m, path, e);
    }
    lrc_free(&m.calls);
    arena_free(m.a);
    arena_free(m.ha);
    return rc;
}

const log_reader inspect_reader = {"inspect", "sample", "samples", 0,
                                   inspect_read, NULL};
