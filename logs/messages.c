/* messages: see messages.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "messages.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_load.h"
#include "vbuild.h"

struct mread {
    logr *r;
    log_counts *c;
    arena *a;     /* what is made for one record */
    lr_calls calls;
    char stem[256];
    /* a document's members, kept to be one record at its end, unless it
     * holds tau2-bench's simulations (then each is a record, and the rest
     * the run's own: its model) */
    arena *da;
    value *whole;
    int tau2;
    char model[256];
    const char *place, *at; /* of the record being read, and of its
                               messages (for the calls' places) */
    char mat[96];           /* the path of the record's messages */
};

/* Where in a record a message is (part (size_t)-1), or a part of it:
 * its path is written only when a problem says it. */
enum part_kind { WHOLE, TOOL_CALL, FUNCTION_CALL, CONTENT };

/* The path of message i of the messages at `at`, and of its part k. */
static void where_text(const char *at, size_t i, enum part_kind kind,
                       size_t k, char *out, size_t size)
{
    char where[160];
    snprintf(where, sizeof where, "%s[%zu]", at, i);
    switch (kind) {
    case WHOLE:
        snprintf(out, size, "%s", where);
        break;
    case TOOL_CALL:
        snprintf(out, size, "%s.tool_calls[%zu]", where, k);
        break;
    case FUNCTION_CALL:
        snprintf(out, size, "%s.function_call", where);
        break;
    case CONTENT:
        snprintf(out, size, "%s.content[%zu]", where, k);
        break;
    }
}

/* Where a call of m->calls is (lr_place_fn): at[0] the message, at[1]
 * its part (a kind and an index: kind + 4 * k). */
static void call_place(void *ctx, const lr_call_item *it, char *out,
                       size_t size)
{
    const struct mread *m = ctx;
    char cw[200];
    where_text(m->at, it->at[0], (enum part_kind)(it->at[1] % 4),
               it->at[1] / 4, cw, sizeof cw);
    snprintf(out, size, "%s%s%s", m->place ? m->place : "",
             m->place ? ": " : "", cw);
}

static int is_name(const value *v)
{
    return v && (v->kind == V_STRING || v->kind == V_INT);
}

/* The record's value at the option's path, or at the first default that
 * holds one. */
static const value *field(const value *rec, const char *opt,
                          const char *const *defaults)
{
    if (opt)
        return lr_path(rec, opt);
    for (size_t i = 0; defaults[i]; i++) {
        const value *v = lr_path(rec, defaults[i]);
        if (v)
            return v;
    }
    return NULL;
}

/* A tool definition in any of the forms a request carries, as an OpenAI
 * tool; NULL when it is none. */
static value *as_openai_tool(arena *a, const value *t)
{
    const value *f = value_getz(t, "function");
    if (f && f->kind == V_OBJECT && is_name(value_getz(f, "name")) &&
        value_getz(f, "name")->kind == V_STRING)
        return lr_openai_tool(a, value_getz(f, "name"),
                              value_getz(f, "description"),
                              value_getz(f, "parameters"));
    const value *n = value_getz(t, "name");
    if (!n || n->kind != V_STRING)
        return NULL;
    const value *p = value_getz(t, "parameters");
    if (!p)
        p = value_getz(t, "input_schema"); /* Anthropic */
    return lr_openai_tool(a, n, value_getz(t, "description"), p);
}

static const value *offered_tools(struct mread *m, const value *rec)
{
    const value *tools = value_getz(rec, "tools");
    if (!tools || tools->kind != V_ARRAY)
        return NULL;
    value *out = vb_array(m->a);
    for (size_t i = 0; out && i < tools->u.arr.len; i++) {
        value *t = as_openai_tool(m->a, tools->u.arr.items[i]);
        if (t && vb_push(m->a, out, t) < 0)
            return NULL;
    }
    return out;
}

/* An answer from a tool result: its text, or, marked an error, the
 * OpenAI idiom's error object around it. */
/* Whether a tool call, or a tool's answer, is tau2-bench's user
 * simulator's (requestor "user"), not the agent's. */
static int by_user(const value *v)
{
    const value *who = value_getz(v, "requestor");
    return who && who->kind == V_STRING && strcmp(who->u.str.ptr, "user") == 0;
}

static const value *answer_of(struct mread *m, const value *content,
                              int is_error)
{
    buf t = BUF_INIT;
    /* a string's text is the string (no copy of it made) */
    int plain = content && content->kind == V_STRING && !content->flags;
    int rc = plain ? 0 : lr_content_text(&t, content);
    value *v = plain ? (value *)content : NULL;
    if (rc >= 0 && !plain) {
        if (rc == 1 && content && content->kind != V_ARRAY &&
            content->kind != V_NULL)
            v = (value *)content; /* an object, a number: as it is */
        else
            v = vb_strn(m->a, t.data ? t.data : "", t.len);
    }
    buf_free(&t);
    if (v && is_error) {
        value *err_obj = vb_object(m->a), *outer = vb_object(m->a);
        if (vb_put(m->a, err_obj, "code", vb_str(m->a, "error")) < 0 ||
            vb_put(m->a, err_obj, "message", v) < 0 ||
            vb_put(m->a, outer, "error", err_obj) < 0)
            return NULL;
        v = outer;
    }
    return v;
}

/* Adds a call read at message i, part kind k-th (a call whose id an
 * earlier one has is a call all the same: callpairs.h): 0, or -1. */
static int add_call(struct mread *m, const value *call, const value *id,
                    size_t i, enum part_kind kind, size_t k, err *e)
{
    if (!call || lrc_add(&m->calls, call, id, i, kind + 4 * k) < 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    return 0;
}

/* tau-bench's ReAct and Act agents write their calls as text: an
 * assistant message that begins "Thought:" or "Action:" and whose text
 * after its last "Action:" is JSON, {"name", "arguments"} (the name
 * "respond": words to the user, in arguments.content; text that is no
 * such JSON: words to the user too, as the agent takes it), answered by
 * the next user message, "API output: " and the tool's text.  Whether
 * the n bytes at t are such a message; *act and *len: what follows its
 * last "Action:", white space stripped. */
static int react_text(const char *t, size_t n, const char **act,
                      size_t *len)
{
    static const char space[] = " \t\n\r\f\v";
    size_t lead = 0;
    while (lead < n && memchr(space, t[lead], sizeof space - 1))
        lead++;
    if (n - lead < 7 || (strncmp(t + lead, "Thought:", 8) != 0 &&
                         strncmp(t + lead, "Action:", 7) != 0))
        return 0;
    const char *last = NULL;
    for (const char *p = t; (p = strstr(p, "Action:")) != NULL; p++)
        last = p;
    if (!last)
        return 0;
    const char *a = last + 7;
    size_t k = n - (size_t)(a - t);
    while (k && memchr(space, *a, sizeof space - 1))
        a++, k--;
    while (k && memchr(space, a[k - 1], sizeof space - 1))
        k--;
    *act = a;
    *len = k;
    return 1;
}

/* The action of such a message as the agent reads it: an object with a
 * name (a string) and arguments (an object), or NULL (*nomem set when
 * out of memory). */
static const value *react_action(struct mread *m, const char *act,
                                 size_t len, int *nomem)
{
    value *v = NULL;
    err le;
    err_clear(&le);
    *nomem = 0;
    if (!len || *act != '{' || json_load(&v, m->a, act, len, &le) < 0) {
        *nomem = le.code == ERR_NOMEM;
        return NULL;
    }
    const value *name = value_getz(v, "name");
    const value *args = value_getz(v, "arguments");
    return name && name->kind == V_STRING && args && args->kind == V_OBJECT
               ? v
               : NULL;
}

/* The call a message's text holds (react_text), or NULL: none, or out of
 * memory (*nomem set). */
static value *text_action(struct mread *m, const value *content, int *nomem)
{
    *nomem = 0;
    buf t = BUF_INIT;
    int rc = lr_content_text(&t, content);
    const char *act;
    size_t len;
    value *call = NULL;
    if (rc < 0 || t.failed) {
        *nomem = 1;
    } else if (rc == 0 && react_text(t.data, t.len, &act, &len)) {
        const value *v = react_action(m, act, len, nomem);
        const value *name = value_getz(v, "name");
        if (v && strcmp(name->u.str.ptr, "respond") != 0) {
            call = vb_object(m->a);
            if (!call || vb_put(m->a, call, "name", (value *)name) < 0 ||
                vb_put(m->a, call, "arguments",
                       (value *)value_getz(v, "arguments")) < 0) {
                call = NULL;
                *nomem = 1;
            }
        }
    }
    buf_free(&t);
    return call;
}

/* The calls and answers of the messages, into m->calls.  0, 1 stop, -1. */
static int read_messages(struct mread *m, const char *place, const char *at,
                         const value *msgs, const char *episode, err *e)
{
    logr *r = m->r;
    char where[160], cw[200];
    m->place = place;
    m->at = at;
    for (size_t i = 0; i < msgs->u.arr.len; i++) {
        const value *msg = msgs->u.arr.items[i];
        const value *role = value_getz(msg, "role");
        const value *content = value_getz(msg, "content");
        const char *rl = role && role->kind == V_STRING ? role->u.str.ptr
                                                        : "";
        if (strcmp(rl, "assistant") == 0) {
            size_t calls_before = m->calls.n;
            const value *tc = value_getz(msg, "tool_calls");
            for (size_t k = 0; tc && tc->kind == V_ARRAY && k < tc->u.arr.len;
                 k++) {
                const value *c = tc->u.arr.items[k];
                const value *f = value_getz(c, "function");
                const value *n = value_getz(f, "name");
                /* a call of tau2-bench's user simulator (telecom's) is
                 * not the agent's */
                if (by_user(c))
                    continue;
                if (!f && (n = value_getz(c, "name")) && n->kind == V_STRING) {
                    /* tau2-bench's flat {id, name, arguments} */
                    value *call = vb_object(m->a);
                    const value *id = value_getz(c, "id");
                    const value *args = value_getz(c, "arguments");
                    if (!call || vb_put(m->a, call, "name", (value *)n) < 0 ||
                        (args && vb_put(m->a, call, "arguments",
                                        (value *)args) < 0) ||
                        add_call(m, call, id, i, TOOL_CALL, k, e) < 0)
                        return err_set(e, ERR_NOMEM, "out of memory");
                    continue;
                }
                if (!n || n->kind != V_STRING) {
                    where_text(at, i, TOOL_CALL, k, cw, sizeof cw);
                    if (lr_problem(r, place, cw, "a tool call with no tool "
                                                 "name: it is skipped"))
                        return 1;
                    continue;
                }
                /* the call as the transcript's OpenAI shape, from the
                 * members read */
                value *call = vb_object(m->a), *fn = vb_object(m->a);
                const value *id = value_getz(c, "id");
                const value *args = value_getz(f, "arguments");
                int bad = 0;
                /* the record's values themselves: it outlives the
                 * episode's lines */
                if (id && id->kind == V_STRING)
                    bad |= vb_put(m->a, call, "id", (value *)id);
                bad |= vb_put(m->a, call, "type", vb_str(m->a, "function"));
                bad |= vb_put(m->a, fn, "name", (value *)n);
                if (args)
                    bad |= vb_put(m->a, fn, "arguments", (value *)args);
                bad |= vb_put(m->a, call, "function", fn);
                if (add_call(m, bad ? NULL : call, id, i, TOOL_CALL, k,
                             e) < 0)
                    return -1;
            }
            const value *fc = value_getz(msg, "function_call");
            const value *fname = value_getz(fc, "name");
            if (fname && fname->kind == V_STRING) {
                value *call = vb_object(m->a);
                const value *args = value_getz(fc, "arguments");
                if (vb_put(m->a, call, "name", (value *)fname) < 0 ||
                    (args &&
                     vb_put(m->a, call, "arguments", (value *)args) < 0))
                    return err_set(e, ERR_NOMEM, "out of memory");
                if (lrc_add(&m->calls, call, NULL, i, FUNCTION_CALL) < 0)
                    return err_set(e, ERR_NOMEM, "out of memory");
            }
            for (size_t k = 0; content && content->kind == V_ARRAY &&
                               k < content->u.arr.len;
                 k++) {
                const value *b = content->u.arr.items[k];
                const value *t = value_getz(b, "type");
                if (!t || t->kind != V_STRING ||
                    strcmp(t->u.str.ptr, "tool_use") != 0)
                    continue;
                const value *n = value_getz(b, "name");
                const value *id = value_getz(b, "id");
                if (!n || n->kind != V_STRING) {
                    where_text(at, i, CONTENT, k, cw, sizeof cw);
                    if (lr_problem(r, place, cw, "a tool_use block with no "
                                                 "tool name: it is skipped"))
                        return 1;
                    continue;
                }
                value *call = vb_object(m->a);
                const value *input = value_getz(b, "input");
                int bad = vb_put(m->a, call, "type", vb_str(m->a, "tool_use"));
                if (id && id->kind == V_STRING)
                    bad |= vb_put(m->a, call, "id", (value *)id);
                bad |= vb_put(m->a, call, "name", (value *)n);
                if (input)
                    bad |= vb_put(m->a, call, "input", (value *)input);
                if (add_call(m, bad ? NULL : call, id, i, CONTENT, k, e) < 0)
                    return -1;
            }
            if (m->calls.n == calls_before) { /* no call but in its text? */
                int nomem;
                value *call = text_action(m, content, &nomem);
                if (nomem)
                    return err_set(e, ERR_NOMEM, "out of memory");
                if (call && lrc_add(&m->calls, call, NULL, i, WHOLE) < 0)
                    return err_set(e, ERR_NOMEM, "out of memory");
            }
        } else if (strcmp(rl, "user") == 0 && content &&
                   content->kind == V_STRING &&
                   strncmp(content->u.str.ptr, "API output: ", 12) == 0) {
            /* a text action's answer (text_action) */
            const value *out = vb_strn(m->a, content->u.str.ptr + 12,
                                       content->u.str.len - 12);
            const value *ans = out ? answer_of(m, out, 0) : NULL;
            if (!ans)
                return err_set(e, ERR_NOMEM, "out of memory");
            if (lrc_answer_next(&m->calls, ans) == 1) {
                where_text(at, i, WHOLE, 0, where, sizeof where);
                if (lr_problem(r, place, where,
                               "an \"API output: \" message that answers "
                               "no call (no \"Action:\" call waits for "
                               "one): it is skipped"))
                    return 1;
            }
        } else if ((strcmp(rl, "tool") == 0 ||
                    strcmp(rl, "function") == 0) && !by_user(msg)) {
            /* tau2-bench names the call it answers "id", and flags an
             * error ("Error: ..." as its content) */
            const value *id = value_getz(msg, "tool_call_id");
            const value *flag = value_getz(msg, "error");
            if (!id && strcmp(rl, "tool") == 0)
                id = value_getz(msg, "id");
            const value *ans = answer_of(m, content,
                                         flag && flag->kind == V_BOOL &&
                                             flag->u.b);
            if (!ans)
                return err_set(e, ERR_NOMEM, "out of memory");
            int rc = id ? lrc_answer(&m->calls, id, ans, i, WHOLE)
                        : lrc_answer_next(&m->calls, ans);
            if (rc < 0)
                return err_set(e, ERR_NOMEM, "out of memory");
            if (rc)
                where_text(at, i, WHOLE, 0, where, sizeof where);
            if (rc == 1 &&
                lr_problem(r, place, where,
                           "a %s message that answers no call (%s): it is "
                           "skipped",
                           rl, id ? "its tool_call_id is not a string"
                                  : "no call without an id waits for one"))
                return 1;
            if (rc == 2 &&
                lr_problem(r, place, where,
                           "a second answer to call \"%s\" of episode "
                           "\"%s\": it is skipped (the first stands)",
                           id->u.str.ptr, episode))
                return 1;
        } else if (strcmp(rl, "user") == 0 && content &&
                   content->kind == V_ARRAY) {
            for (size_t k = 0; k < content->u.arr.len; k++) {
                const value *b = content->u.arr.items[k];
                const value *t = value_getz(b, "type");
                if (!t || t->kind != V_STRING ||
                    strcmp(t->u.str.ptr, "tool_result") != 0)
                    continue;
                const value *id = value_getz(b, "tool_use_id");
                const value *is_err = value_getz(b, "is_error");
                const value *ans =
                    answer_of(m, value_getz(b, "content"),
                              is_err && is_err->kind == V_BOOL && is_err->u.b);
                if (!ans)
                    return err_set(e, ERR_NOMEM, "out of memory");
                int rc = lrc_answer(&m->calls, id, ans, i,
                                    CONTENT + 4 * k);
                if (rc < 0)
                    return err_set(e, ERR_NOMEM, "out of memory");
                if (rc)
                    where_text(at, i, CONTENT, k, cw, sizeof cw);
                if (rc == 1 &&
                    lr_problem(r, place, cw,
                               "a tool_result block without a tool_use_id "
                               "(a string) of episode \"%s\" answers no "
                               "call: it is skipped",
                               episode))
                    return 1;
                if (rc == 2 &&
                    lr_problem(r, place, cw,
                               "a second tool_result for call \"%s\" of "
                               "episode \"%s\": it is skipped (the first "
                               "stands)",
                               id->u.str.ptr, episode))
                    return 1;
            }
        }
    }
    return 0;
}

/* The agent's last words: the text of the last assistant message. */
static char *final_words(struct mread *m, const value *msgs)
{
    for (size_t i = msgs->u.arr.len; i-- > 0;) {
        const value *msg = msgs->u.arr.items[i];
        const value *role = value_getz(msg, "role");
        if (!role || role->kind != V_STRING ||
            strcmp(role->u.str.ptr, "assistant") != 0)
            continue;
        buf t = BUF_INIT;
        int rc = lr_content_text(&t, value_getz(msg, "content"));
        const char *act;
        size_t len;
        if (rc == 0 && !t.failed && react_text(t.data, t.len, &act, &len)) {
            /* a ReAct agent's: the words its action says to the user */
            int nomem;
            const value *v = react_action(m, act, len, &nomem);
            const value *said = value_getz(value_getz(v, "arguments"),
                                           "content");
            if (!v || (strcmp(value_getz(v, "name")->u.str.ptr,
                              "respond") == 0 &&
                       said && said->kind == V_STRING)) {
                char *words = v ? strndup(said->u.str.ptr, said->u.str.len)
                                : strndup(act, len);
                buf_free(&t);
                return words;
            }
        }
        if (rc == 0 && !t.failed)
            return t.data; /* the caller frees it */
        buf_free(&t);
        return NULL;
    }
    return NULL;
}

/* success from the record: -1 unknown, 0, 1; *bad set when the value is
 * there and cannot be read. */
static int read_success(const log_opts *o, const value *rec, int *bad)
{
    static const char *const def[] = {"success", NULL};
    const value *v = field(rec, o->success_key, def);
    *bad = 0;
    if (!v)
        return -1;
    if (o->success_value) {
        char *end;
        double want = strtod(o->success_value, &end);
        int number = *end == '\0' && end != o->success_value;
        double x = v->kind == V_FLOAT ? v->u.d
                   : v->kind == V_INT ? strtod(v->u.str.ptr, NULL)
                                      : NAN;
        if (number && isfinite(x))
            return x == want;
        if (number) { /* text, a boolean, NaN or an infinity is no number
                         to compare */
            *bad = 1;
            return -1;
        }
        if (v->kind == V_STRING || v->kind == V_INT)
            return strcmp(v->u.str.ptr, o->success_value) == 0;
        if (v->kind == V_BOOL)
            return strcmp(v->u.b ? "true" : "false", o->success_value) == 0;
        *bad = 1;
        return -1;
    }
    if (v->kind == V_BOOL)
        return v->u.b;
    if (v->kind == V_INT && (strcmp(v->u.str.ptr, "0") == 0 ||
                             strcmp(v->u.str.ptr, "1") == 0))
        return v->u.str.ptr[0] == '1';
    *bad = 1;
    return -1;
}

/* How the record says its episode ended (docs/logs.md): tau2-bench's
 * termination_reason, as written, unless it is one of the two ends of a
 * conversation ("done"); "error" for a reason that is no such word, and
 * for tau-bench's info.error; else "done".  *placeholder set for the
 * reasons tau2-bench keeps out of its metrics: the simulation did not
 * run, and its duration of 0 is no time it took. */
static const char *record_status(const value *rec, int *placeholder)
{
    *placeholder = 0;
    const value *why = value_getz(rec, "termination_reason");
    if (why && why->kind == V_STRING) {
        const char *w = why->u.str.ptr;
        size_t n = why->u.str.len;
        if (n == 0 || n > 64 || strspn(w, "abcdefghijklmnopqrstuvwxyz_") != n)
            return "error";
        if (strcmp(w, "agent_stop") == 0 || strcmp(w, "user_stop") == 0)
            return "done";
        *placeholder = strcmp(w, "infrastructure_error") == 0 ||
                       strcmp(w, "context_window_exceeded") == 0;
        return w;
    }
    const value *err = lr_path(rec, "info.error");
    if (err && err->kind != V_NULL && !(err->kind == V_BOOL && !err->u.b))
        return "error";
    return "done";
}

/* The run's model of tau2-bench's results: their info.agent_info.llm,
 * when it is text. */
static void results_model(struct mread *m, const value *info)
{
    const value *llm = lr_path(info, "agent_info.llm");
    if (llm && llm->kind == V_STRING)
        snprintf(m->model, sizeof m->model, "%.*s",
                 (int)(llm->u.str.len < 255 ? llm->u.str.len : 255),
                 llm->u.str.ptr);
}

/* What is said of a tau2-bench results.json of the "dir" format. */
static const char dir_results[] =
    "a tau2-bench results.json of the \"dir\" format: it holds only an "
    "index; its simulations are the files of simulations/ beside it: give "
    "that folder (each file is read as a simulation, all of one run named "
    "after this folder)";

/* A member of a document that is an object (one record, or tau2-bench's
 * results): kept, to be the record at the end, but for its simulations;
 * the run's model is its info.agent_info.llm.  0, 1 stop, -1. */
static int keep_member(struct mread *m, const char *key, const value *v,
                       const char *bad, err *e)
{
    if (!v)
        return lr_problem(m->r, NULL, NULL, "$.%.100s: %s", key, bad);
    if (strcmp(key, "info") == 0)
        results_model(m, v);
    if (!m->whole && !(m->whole = vb_object(m->da)))
        return arena_over(m->da) ? 0 : err_set(e, ERR_NOMEM, "out of memory");
    value *k = vb_str(m->da, key), *copy = vb_clone(m->da, v);
    if (!k || !copy || vb_putv(m->da, m->whole, k, copy) < 0)
        return arena_over(m->da) ? 0 : err_set(e, ERR_NOMEM, "out of memory");
    return 0;
}

/* What a record says its episode used (docs/logs.md): the tokens of its
 * assistant messages' usage (prompt_tokens and completion_tokens, or
 * input_tokens and output_tokens), the agent's cost (tau2-bench's
 * agent_cost, else a number "cost") and its "duration" in seconds. */
static void record_usage(const value *rec, const value *msgs, lr_usage *u)
{
    lr_usage_init(u);
    for (size_t i = 0; msgs && msgs->kind == V_ARRAY && i < msgs->u.arr.len;
         i++) {
        const value *msg = msgs->u.arr.items[i];
        const value *role = value_getz(msg, "role");
        const value *use = value_getz(msg, "usage");
        int64_t n;
        if (!role || role->kind != V_STRING ||
            strcmp(role->u.str.ptr, "assistant") != 0 || !use)
            continue;
        if (value_count(value_getz(use, "prompt_tokens"), &n) == VFIG_OK ||
            value_count(value_getz(use, "input_tokens"), &n) == VFIG_OK)
            lr_add_count(&u->input_tokens, n);
        if (value_count(value_getz(use, "completion_tokens"), &n) == VFIG_OK ||
            value_count(value_getz(use, "output_tokens"), &n) == VFIG_OK)
            lr_add_count(&u->output_tokens, n);
    }
    if (value_amount(value_getz(rec, "agent_cost"), &u->cost) != VFIG_OK)
        value_amount(value_getz(rec, "cost"), &u->cost);
    value_amount(value_getz(rec, "duration"), &u->duration);
}

/* Where a record keeps its messages, unless --messages names it. */
static const char *const msg_keys[] = {"messages", "traj", "trajectory",
                                       NULL};

static int on_record(void *ctx, const char *place, const char *key,
                     size_t index, const value *rec, const char *bad,
                     err *e);

/* Whether rec is a tau2-bench simulation by itself: its messages, why it
 * ended, and its reward_info (null for one that never ran). */
static int tau2_simulation(const value *rec)
{
    const value *why = value_getz(rec, "termination_reason");
    const value *msgs = value_getz(rec, "messages");
    return why && why->kind == V_STRING && msgs && msgs->kind == V_ARRAY &&
           value_getz(rec, "reward_info") && value_getz(rec, "task_id");
}

/* The run of a file in a folder named "simulations" (tau2-bench's "dir"
 * format keeps each simulation in a file of its own there): the folder
 * above it, the results folder, as its results.json is a run.  Else the
 * file's own name (lr_stem). */
static void run_stem(const logr *r, char *out, size_t size)
{
    lr_stem(r, out, size);
    char real[PATH_MAX];
    if (size == 0 || !realpath(lr_file(r), real))
        return;
    char *slash = strrchr(real, '/');
    if (!slash)
        return;
    *slash = '\0'; /* its folder */
    char *folder = strrchr(real, '/');
    if (!folder || strcmp(folder + 1, "simulations") != 0 || folder == real)
        return;
    *folder = '\0'; /* the folder above */
    char *above = strrchr(real, '/');
    const char *name = above ? above + 1 : real;
    size_t n = strlen(name);
    if (n >= size) /* a run's name is cut there, as lr_stem cuts it */
        n = size - 1;
    memcpy(out, name, n);
    out[n] = '\0';
}

/* A line of JSON Lines that holds a whole tau2-bench results.json (the
 * document written on one line, as json.dumps or jq -c leave it), not a
 * record: its simulations are the records, as in the document, and one
 * of the "dir" format is said as there.  0, 1 stop, -1; 2 it is no such
 * line. */
static int results_line(struct mread *m, const char *place,
                        const value *rec, err *e)
{
    if (field(rec, lr_opts(m->r)->messages_key, msg_keys))
        return 2;
    const value *sims = value_getz(rec, "simulations");
    if (sims && sims->kind == V_ARRAY) {
        results_model(m, value_getz(rec, "info"));
        for (size_t i = 0; i < sims->u.arr.len; i++) {
            int rc = on_record(m, place, "simulations", i,
                               sims->u.arr.items[i], NULL, e);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (!value_getz(rec, "simulation_index"))
        return 2;
    m->c->records++;
    m->c->refused++;
    return lr_problem(m->r, place, "$", "%s", dir_results);
}

static int on_record(void *ctx, const char *place, const char *key,
                     size_t index, const value *rec, const char *bad,
                     err *e)
{
    struct mread *m = ctx;
    logr *r = m->r;
    if (key && index == (size_t)-1)
        return keep_member(m, key, rec, bad, e);
    if (!key && place && rec && rec->kind == V_OBJECT) {
        int rc = results_line(m, place, rec, e);
        if (rc != 2)
            return rc;
    }
    /* tau2-bench's simulations (of a results file, or one by itself: a
     * file of its "dir" format): what is not named is where tau2 keeps
     * it, and a simulation's seed is tau2's own, never the simulator's */
    log_opts tau2 = *lr_opts(r);
    int in_results = key && strcmp(key, "simulations") == 0;
    if (in_results || tau2_simulation(rec)) {
        if (in_results)
            m->tau2 = 1;
        if (!tau2.reward_key)
            tau2.reward_key = "reward_info.reward";
        if (!tau2.success_key) {
            tau2.success_key = "reward_info.reward";
            tau2.success_value = "1";
        }
        tau2.no_seed = 1;
    } else if (!tau2.success_key && value_getz(rec, "traj") &&
               value_getz(rec, "reward") && !value_getz(rec, "success")) {
        /* tau-bench's record ({"task_id", "trial", "reward", "info",
         * "traj"}) read as --preset tau-bench reads it: a success is a
         * reward of 1 */
        tau2.success_key = "reward";
        tau2.success_value = "1";
    }
    const log_opts *o = &tau2;
    char at[48];
    m->c->records++;
    if (key && index != (size_t)-1)
        snprintf(at, sizeof at, "$.%.20s[%zu]", key, index);
    else if (!place && index != (size_t)-1)
        snprintf(at, sizeof at, "$[%zu]", index);
    else
        snprintf(at, sizeof at, "$");
    if (!rec) {
        m->c->refused++;
        return lr_problem(r, place, NULL, "%s", bad);
    }
    const value *msgs = field(rec, o->messages_key, msg_keys);
    if (rec->kind != V_OBJECT || !msgs || msgs->kind != V_ARRAY) {
        m->c->refused++;
        return lr_problem(r, place, at,
                          "a record with no list of messages (at %s): it is "
                          "skipped; name where they are with --messages KEY",
                          o->messages_key ? o->messages_key
                                          : "\"messages\", \"traj\" or "
                                            "\"trajectory\"");
    }
    arena_reset(m->a);
    lrc_reset(&m->calls);
    static const char *const task_keys[] = {"task_id", "task", NULL};
    static const char *const trial_keys[] = {"trial", "epoch", NULL};
    static const char *const id_keys[] = {"id", NULL};
    static const char *const reward_keys[] = {"reward", NULL};
    static const char *const seed_keys[] = {"seed", "metadata.seed", NULL};
    static const char *const arm_keys[] = {"arm", "metadata.arm", NULL};
    const value *task = field(rec, o->task_key, task_keys);
    const value *trial = field(rec, o->trial_key, trial_keys);
    const value *id = field(rec, o->id_key, id_keys);
    if (!is_name(task))
        task = NULL;
    char episode[LR_NAME_MAX + 1];
    if ((is_name(id) && lr_name(episode, id, "", NULL) < 0) ||
        (!is_name(id) && task && is_name(trial) &&
         lr_name(episode, task, "#", trial) < 0))
        return err_set(e, ERR_NOMEM, "out of memory");
    if (!is_name(id) && !(task && is_name(trial)))
        snprintf(episode, sizeof episode, "record-%lu", m->c->records);
    const value *model = value_getz(rec, "model");
    lrun *run;
    int rc = lr_run(r, m->stem, model && model->kind == V_STRING
                                    ? model->u.str.ptr
                                : m->model[0] ? m->model
                                              : NULL,
                    NULL, offered_tools(m, rec), place, &run, e);
    if (rc)
        return rc;
    rc = lr_episode(r, run, episode,
                    o->no_seed ? NULL : field(rec, NULL, seed_keys),
                    o->no_seed ? NULL : field(rec, NULL, arm_keys), task,
                    place, at, e);
    if (rc)
        return rc;
    char *mat = m->mat;
    snprintf(m->mat, sizeof m->mat, "%s.%s", at,
             o->messages_key ? o->messages_key
                             : value_getz(rec, "messages")     ? "messages"
                               : value_getz(rec, "traj") ? "traj"
                                                         : "trajectory");
    rc = read_messages(m, place, mat, msgs, episode, e);
    if (rc == 0)
        rc = lrc_emit(r, run, episode, &m->calls, e);
    if (rc)
        return rc;
    const value *rw = field(rec, o->reward_key, reward_keys);
    double reward = 0;
    value_figure rf = value_reward(rw, &reward);
    const char *reward_at = o->reward_key ? o->reward_key : "reward";
    int badsucc;
    int success = read_success(o, rec, &badsucc);
    /* a success read from the reward (tau-bench's and tau2's: a reward of
     * 1) that is no number is said once, as the reward's problem */
    if (badsucc && o->success_key && strcmp(o->success_key, reward_at) == 0 &&
        rf != VFIG_OK)
        badsucc = 0;
    if (badsucc &&
        lr_problem(r, place, at,
                   "the record's success (at %s) is neither true nor false%s: "
                   "the episode's success is left unknown",
                   o->success_key ? o->success_key : "success",
                   o->success_value ? " nor comparable with the value given"
                                    : ""))
        return 1;
    int has_reward = rf == VFIG_OK;
    if (rf != VFIG_OK && rf != VFIG_NONE &&
        lr_problem(r, place, at,
                   "the record's reward (at %s) is not a %snumber: the "
                   "episode's reward is left unknown",
                   reward_at,
                   rf == VFIG_HUGE ? "finite " : ""))
        return 1;
    char *final = final_words(m, msgs);
    lr_usage used;
    record_usage(rec, msgs, &used);
    int placeholder;
    const char *status = record_status(rec, &placeholder);
    if (placeholder)
        used.duration = NAN;
    rc = lr_end(r, run, episode, status, final, success,
                has_reward ? &reward : NULL, &used, e);
    free(final);
    if (rc == 0)
        m->c->read++;
    return rc;
}

/* The members of a document kept (keep_member) as its one record; a
 * tau2-bench results.json of the "dir" format (its simulations in files
 * of their own) is said as such.  0, 1 stop, -1. */
static int whole_record(struct mread *m, err *e)
{
    if (arena_over(m->da)) {
        m->c->records++;
        m->c->refused++;
        return lr_problem(m->r, NULL, "$",
                          "a record whose value tree is larger than the "
                          "limit of %u MiB a record: it is skipped",
                          LOG_RECORD_MAX >> 20);
    }
    if (value_getz(m->whole, "simulation_index") &&
        !value_getz(m->whole, "messages")) {
        m->c->records++;
        m->c->refused++;
        return lr_problem(m->r, NULL, "$", "%s", dir_results);
    }
    return on_record(m, NULL, NULL, (size_t)-1, m->whole, NULL, e);
}

static int messages_read(logr *r, const log_input *in, err *e)
{
    struct mread m;
    memset(&m, 0, sizeof m);
    m.r = r;
    m.c = lr_counts(r);
    m.calls.place = call_place;
    m.calls.place_ctx = &m;
    m.a = arena_new();
    m.da = arena_new();
    int rc = 0;
    if (!m.a || !m.da)
        rc = err_set(e, ERR_NOMEM, "out of memory");
    run_stem(r, m.stem, sizeof m.stem);
    /* every record is of the run named after the file (or --run's) */
    if (rc == 0 && lr_problem_run(r, m.stem) < 0)
        rc = err_set(e, ERR_NOMEM, "out of memory");
    if (rc == 0) {
        /* a document's members are one record, held to a record's limit */
        arena_limit(m.da, LOG_RECORD_MAX);
        static const char *const streamed[] = {"simulations", NULL};
        rc = lr_read_json(r, in->fd, streamed, on_record, &m, e);
    }
    if (rc == 0 && m.whole && !m.tau2)
        rc = whole_record(&m, e);
    else if (rc == 0 && !m.whole && arena_over(m.da))
        rc = whole_record(&m, e);
    lrc_free(&m.calls);
    arena_free(m.a);
    arena_free(m.da);
    return rc;
}

const log_reader messages_reader = {"messages", "record", "records", 1,
                                    messages_read, NULL};
