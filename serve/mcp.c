/* mcp: the Model Context Protocol of `replay serve` (see mcp.h). */
#include "mcp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "canon.h"
#include "json_load.h"
#include "live.h"
#include "schema.h"
#include "task.h"
#include "transcript.h"
#include "utf8.h"
#include "vbuild.h"

/* The revisions spoken, newest first: a client asking for one of them
 * gets it; asking for another, the newest, and decides.  2025-03-26 has
 * no output schemas and no structured content: a session of it gets
 * neither. */
static const char *const revisions[] = {"2025-11-25", "2025-06-18",
                                        "2025-03-26"};
#define REV_2025_03_26 2 /* its index */

/* The levels logging/setLevel takes (RFC 5424's, as MCP names them). */
static const char *const log_levels[] = {"debug",    "info",  "notice",
                                         "warning",  "error", "critical",
                                         "alert",    "emergency"};

struct mcp_server {
    const toolset *ts;
    unsigned long long seed;
    arm arm;
    char *run, *model, *tools_name, *version;
    buf tools;      /* the tools/list result: {"tools":[...]} */
    buf tools_old;  /* the same, as 2025-03-26 has it: no outputSchema */
    size_t ntools;
};

/* A call as the transcript and the report keep it. */
struct call_rec {
    size_t call_off, call_len, answer_off, answer_len; /* in log */
    const tool *tool;
    enum effect effect;
    int error, step, event;
};

enum state { NEW, STARTED };

struct mcp_session {
    const mcp_server *srv;
    enum state state;
    int rev;        /* the revision agreed (index in revisions) */
    unsigned long long seed;
    arm arm;
    arena *task_arena; /* the task's */
    task *t;
    sim *sim;
    sim_result r;
    char id[LIVE_ID_SIZE]; /* the episode's, from initialize on */
    buf log; /* the calls' and answers' JSON, back to back */
    struct call_rec *calls;
    size_t ncalls, cap;
    /* why the episode ended before the session did (a call that cannot
     * be recorded, whose effect on the simulator's state the transcript
     * then cannot show), or "" while it goes on */
    char broken[400];
};

/* ------------------------------------------------------------ tools/list */

/* Rewrites a tool's schema so that it stands alone, as an MCP client
 * reads it: every local $ref of the file ("#/components/schemas/Order",
 * or a place in another tool) points into the schema's own "$defs",
 * where the schema it names is copied once (named by the ref's last
 * segment, made unique). */
struct bundle {
    arena *a;
    const value *root;
    value *defs; /* the $defs made, in the order first named */
    const char **refs; /* the ref each def was made for */
    size_t n, cap;
    int failed; /* out of memory */
};

static value *bundle_copy(struct bundle *b, const value *v, unsigned depth);

/* The name of the def made for ref (text of len bytes), making it. */
static const char *def_for(struct bundle *b, const value *refnode,
                           const value *target)
{
    const char *ref = refnode->u.str.ptr;
    for (size_t i = 0; i < b->n; i++)
        if (strcmp(b->refs[i], ref) == 0)
            return b->defs->u.obj.items[i].key->u.str.ptr;
    /* a name from the ref's last segment: letters, digits, - _ . */
    const char *last = strrchr(ref, '/');
    last = last ? last + 1 : ref;
    char name[80];
    size_t k = 0;
    for (const char *p = last; *p && k < 60; p++)
        name[k++] = (char)((*p >= 'a' && *p <= 'z') ||
                                   (*p >= 'A' && *p <= 'Z') ||
                                   (*p >= '0' && *p <= '9') || *p == '-' ||
                                   *p == '_' || *p == '.'
                               ? *p
                               : '_');
    if (k == 0)
        name[k++] = 'd';
    name[k] = '\0';
    for (unsigned tries = 2;; tries++) {
        int taken = 0;
        for (size_t i = 0; i < b->n && !taken; i++)
            taken = strcmp(b->defs->u.obj.items[i].key->u.str.ptr, name) == 0;
        if (!taken)
            break;
        snprintf(name + k, sizeof name - k, "_%u", tries);
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        const char **more = realloc(b->refs, cap * sizeof *more);
        if (!more) {
            b->failed = 1;
            return NULL;
        }
        b->refs = more;
        b->cap = cap;
    }
    /* named before its copy is made, so that a schema naming itself
     * finds its def */
    b->refs[b->n++] = ref;
    if (vb_put(b->a, b->defs, name, vb_object(b->a)) < 0) {
        b->failed = 1;
        return NULL;
    }
    size_t at = b->n - 1;
    value *copy = bundle_copy(b, target, 1);
    if (!copy) {
        b->failed = 1;
        return NULL;
    }
    b->defs->u.obj.items[at].val = copy;
    return b->defs->u.obj.items[at].key->u.str.ptr;
}

static value *bundle_copy(struct bundle *b, const value *v, unsigned depth)
{
    if (b->failed || depth > VALUE_MAX_DEPTH)
        return NULL;
    if (v->kind == V_ARRAY) {
        value *arr = vb_array(b->a);
        for (size_t i = 0; arr && i < v->u.arr.len; i++)
            if (vb_push(b->a, arr, bundle_copy(b, v->u.arr.items[i],
                                               depth + 1)) < 0)
                arr = NULL;
        return arr;
    }
    if (v->kind != V_OBJECT)
        return (value *)v; /* shared: the copy is written, never changed */
    const value *ref = value_getz(v, "$ref");
    if (ref && ref->kind == V_STRING && ref->u.str.ptr[0] == '#') {
        err e;
        const value *target = schema_deref(b->root, v, &e);
        if (target) {
            const char *name = def_for(b, ref, target);
            if (!name)
                return NULL;
            value *o = vb_object(b->a);
            char text[100];
            snprintf(text, sizeof text, "#/$defs/%s", name);
            if (vb_put(b->a, o, "$ref", vb_str(b->a, text)) < 0)
                return NULL;
            return o;
        }
    }
    value *o = vb_object(b->a);
    for (size_t i = 0; o && i < v->u.obj.len; i++)
        if (vb_putv(b->a, o, v->u.obj.items[i].key,
                    bundle_copy(b, v->u.obj.items[i].val, depth + 1)) < 0)
            o = NULL;
    return o;
}

/* The schema, standing alone, with "type":"object" at its top (what MCP
 * asks of inputSchema and outputSchema); NULL when it is not an object's
 * schema (only for output), or out of memory (b->failed). */
static value *mcp_schema(struct bundle *b, const value *schema, int input)
{
    err e;
    const value *top = schema ? schema_deref(b->root, schema, &e) : NULL;
    if (!top || top->kind != V_OBJECT) {
        if (!input)
            return NULL;
        /* a tool that takes no arguments (an MCP tool without
         * inputSchema): an object with none */
        value *none = vb_object(b->a);
        if (vb_put(b->a, none, "type", vb_str(b->a, "object")) < 0)
            b->failed = 1;
        return b->failed ? NULL : none;
    }
    const value *type = value_getz(top, "type");
    int object = type ? type->kind == V_STRING &&
                            strcmp(type->u.str.ptr, "object") == 0
                      : value_getz(top, "properties") != NULL;
    if (!object && !input)
        return NULL;
    b->n = 0;
    b->defs = vb_object(b->a);
    value *copy = b->defs ? bundle_copy(b, top, 0) : NULL;
    if (!copy || vb_put(b->a, copy, "type", vb_str(b->a, "object")) < 0) {
        b->failed = 1;
        return NULL;
    }
    if (b->defs->u.obj.len) {
        /* the schema's own $defs (copied, its refs rewritten) come first */
        const value *own = value_getz(copy, "$defs");
        value *all = vb_object(b->a);
        for (size_t i = 0; all && own && own->kind == V_OBJECT &&
                           i < own->u.obj.len;
             i++)
            if (vb_putv(b->a, all, own->u.obj.items[i].key,
                        own->u.obj.items[i].val) < 0)
                all = NULL;
        for (size_t i = 0; all && i < b->defs->u.obj.len; i++)
            if (vb_putv(b->a, all, b->defs->u.obj.items[i].key,
                        b->defs->u.obj.items[i].val) < 0)
                all = NULL;
        if (vb_put(b->a, copy, "$defs", all) < 0) {
            b->failed = 1;
            return NULL;
        }
    }
    return copy;
}

/* Appends tool t in MCP form to out, or nothing (with a note) when its
 * schemas cannot be written as JSON.  0, or -1 out of memory. */
static int put_tool(buf *out, const toolset *ts, const tool *t, int first,
                    int with_output, buf *notes)
{
    struct bundle b = {.root = ts->doc->root, .a = arena_new()};
    value *o = b.a ? vb_object(b.a) : NULL;
    value *in = o ? mcp_schema(&b, t->input_schema, 1) : NULL;
    value *outs = in && t->output_schema && with_output
                      ? mcp_schema(&b, t->output_schema, 0)
                      : NULL;
    value *ann = in ? vb_object(b.a) : NULL;
    int rc = !o || !in || !ann || b.failed ? -1 : 0;
    if (rc == 0) {
        rc |= vb_put(b.a, o, "name", vb_str(b.a, t->name));
        /* clients show the description to the model, and some require
         * one: a tool without gets its operation ("POST /orders"), or its
         * name */
        char said[300];
        if (!t->description[0])
            snprintf(said, sizeof said, "%s%s%s", t->method ? t->method : "",
                     t->method ? " " : "", t->method ? t->path : t->name);
        rc |= vb_put(b.a, o, "description",
                     vb_str(b.a, t->description[0] ? t->description : said));
        rc |= vb_put(b.a, o, "inputSchema", in);
        if (outs)
            rc |= vb_put(b.a, o, "outputSchema", outs);
        rc |= vb_put(b.a, ann, "readOnlyHint",
                     vb_bool(b.a, t->kind == TOOL_READ));
        rc |= vb_put(b.a, o, "annotations", ann);
    }
    err e;
    err_clear(&e);
    size_t mark = out->len;
    if (rc == 0 && ((!first && buf_putc(out, ',') < 0) ||
                    canon_append(out, o, &e) < 0)) {
        out->len = mark;
        if (e.code == ERR_NOMEM || e.code == ERR_NONE)
            rc = -1;
        else
            rc = buf_printf(notes, "tool '%s' left out: %s\n", t->name,
                            e.msg) < 0
                     ? -1
                     : 1;
    }
    free(b.refs);
    arena_free(b.a);
    return rc;
}

static char *dup_or_null(const char *s, int *failed)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        *failed = 1;
    return d;
}

int mcp_server_new(mcp_server **out, const mcp_options *o, buf *notes)
{
    mcp_server *srv = calloc(1, sizeof *srv);
    *out = NULL;
    if (!srv)
        return -1;
    int failed = 0;
    srv->ts = o->ts;
    srv->seed = o->seed;
    srv->arm = o->arm;
    srv->run = dup_or_null(o->run, &failed);
    srv->model = dup_or_null(o->model, &failed);
    srv->tools_name = dup_or_null(o->tools_name, &failed);
    srv->version = dup_or_null(o->version, &failed);
    srv->tools = (buf)BUF_INIT;
    srv->tools_old = (buf)BUF_INIT;
    failed |= buf_puts(&srv->tools, "{\"tools\":[") < 0;
    failed |= buf_puts(&srv->tools_old, "{\"tools\":[") < 0;
    size_t nold = 0;
    buf unsaid = BUF_INIT; /* the notes are the newest form's */
    for (size_t i = 0; !failed && i < o->ts->ntools; i++) {
        int rc = put_tool(&srv->tools, o->ts, &o->ts->tools[i],
                          srv->ntools == 0, 1, notes);
        int old = put_tool(&srv->tools_old, o->ts, &o->ts->tools[i],
                           nold == 0, 0, &unsaid);
        if (rc < 0 || old < 0)
            failed = 1;
        if (rc == 0)
            srv->ntools++;
        if (old == 0)
            nold++;
    }
    buf_free(&unsaid);
    failed |= buf_puts(&srv->tools, "]}") < 0;
    failed |= buf_puts(&srv->tools_old, "]}") < 0;
    if (failed) {
        mcp_server_free(srv);
        return -1;
    }
    *out = srv;
    return 0;
}

void mcp_server_free(mcp_server *srv)
{
    if (!srv)
        return;
    free(srv->run);
    free(srv->model);
    free(srv->tools_name);
    free(srv->version);
    buf_free(&srv->tools);
    buf_free(&srv->tools_old);
    free(srv);
}

/* -------------------------------------------------------------- sessions */

mcp_session *mcp_session_new(const mcp_server *srv)
{
    mcp_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->srv = srv;
    s->seed = srv->seed;
    s->arm = srv->arm;
    s->log = (buf)BUF_INIT;
    s->r.answer = (buf)BUF_INIT;
    s->r.arguments = (buf)BUF_INIT;
    s->r.error = s->r.event = -1;
    return s;
}

void mcp_session_free(mcp_session *s)
{
    if (!s)
        return;
    sim_free(s->sim);
    arena_free(s->task_arena);
    buf_free(&s->log);
    buf_free(&s->r.answer);
    buf_free(&s->r.arguments);
    free(s->calls);
    free(s);
}

static int parse_seed(const char *text, unsigned long long *seed, err *e)
{
    uint64_t n;
    if (task_seed_parse(text, &n) < 0)
        return err_set(e, ERR_USAGE,
                       "the seed is a number from 0 to 2^63 - 1, not '%.40s'",
                       text);
    *seed = n;
    return 0;
}

int mcp_session_choose(mcp_session *s, const char *seed, const char *arm_text,
                       err *e)
{
    if (s->state != NEW)
        return err_set(e, ERR_USAGE, "the session has its task already");
    if (seed && parse_seed(seed, &s->seed, e) < 0)
        return -1;
    if (arm_text && arm_parse(&s->arm, arm_text, strlen(arm_text), e) < 0)
        return -1;
    return 0;
}

int mcp_session_started(const mcp_session *s)
{
    return s->state == STARTED;
}

const char *mcp_session_task_id(const mcp_session *s)
{
    return s->t ? s->t->id : NULL;
}

const char *mcp_session_episode_id(const mcp_session *s)
{
    return s->state == STARTED ? s->id : NULL;
}

const char *mcp_session_broken(const mcp_session *s)
{
    return s->broken[0] ? s->broken : NULL;
}

/* ------------------------------------------------------------- responses */

/* {"jsonrpc":"2.0","id":ID, */
static int envelope(buf *out, const char *id, size_t id_len)
{
    return buf_puts(out, "{\"id\":") | buf_append(out, id, id_len) |
           buf_puts(out, ",\"jsonrpc\":\"2.0\",");
}

static int error_response(buf *out, const char *id, size_t id_len, int code,
                          const char *message, mcp_info *info)
{
    if (info)
        info->error = code;
    int rc = envelope(out, id, id_len);
    rc |= buf_printf(out, "\"error\":{\"code\":%d,\"message\":", code);
    /* a message may quote the client (a tool's name, an arm): what is not
     * UTF-8 in it becomes U+FFFD, so that the response stays JSON */
    size_t len = strlen(message);
    utf8_report report;
    if (utf8_check((const unsigned char *)message, len, 0, &report) ==
        UTF8_OK) {
        rc |= canon_write_string(out, message, len);
    } else {
        buf clean = BUF_INIT;
        rc |= utf8_printable(&clean, message, len, len * 3 + 3);
        rc |= canon_write_string(out, clean.data ? clean.data : "",
                                 clean.len);
        buf_free(&clean);
    }
    return rc | buf_puts(out, "}}");
}

int mcp_is_initialize(const char *msg, size_t len)
{
    arena *a = arena_new();
    value *v = NULL;
    err e;
    int yes = a && json_load(&v, a, msg, len, &e) == 0;
    const value *m = yes ? value_getz(v, "method") : NULL;
    yes = m && m->kind == V_STRING && m->u.str.len == 10 &&
          memcmp(m->u.str.ptr, "initialize", 10) == 0 &&
          value_getz(v, "id");
    arena_free(a);
    return yes;
}

int mcp_refuse(buf *out, int code, const char *message)
{
    return error_response(out, "null", 4, code, message, NULL);
}

/* The message of an error answer in the file's idiom: OpenAI's
 * error.message, OpenAPI's detail, MCP's first text block. */
static int error_message(const char *answer, size_t len, buf *msg)
{
    arena *a = arena_new();
    value *v = NULL;
    err e;
    if (!a || json_load(&v, a, answer, len, &e) < 0) {
        arena_free(a);
        return -1;
    }
    const value *m = NULL, *x;
    if ((x = value_getz(v, "error")) && x->kind == V_OBJECT)
        m = value_getz(x, "message");
    else if ((x = value_getz(v, "detail")))
        m = x;
    else if ((x = value_getz(v, "content")) && x->kind == V_ARRAY &&
             x->u.arr.len)
        m = value_getz(x->u.arr.items[0], "text");
    int rc = m && m->kind == V_STRING
                 ? buf_append(msg, m->u.str.ptr, m->u.str.len)
                 : buf_append(msg, answer, len);
    arena_free(a);
    return rc;
}

/* ------------------------------------------------------------- methods */

static int initialize(mcp_session *s, const value *params, buf *result,
                      int *code, buf *why)
{
    if (s->state != NEW) {
        *code = MCP_INVALID_REQUEST;
        return buf_puts(why, "the session is initialized already");
    }
    const value *pv = params ? value_getz(params, "protocolVersion") : NULL;
    if (!pv || pv->kind != V_STRING) {
        *code = MCP_INVALID_PARAMS;
        return buf_puts(why, "initialize needs params.protocolVersion, a "
                             "string");
    }
    int rev = 0;
    for (size_t i = 0; i < sizeof revisions / sizeof revisions[0]; i++)
        if (strcmp(pv->u.str.ptr, revisions[i]) == 0)
            rev = (int)i;
    /* _meta may choose the task: {"taskreplay/seed": 7,
     * "taskreplay/arm": "landed:l1"} */
    const value *meta = value_getz(params, "_meta");
    const value *mseed = meta ? value_getz(meta, "taskreplay/seed") : NULL;
    const value *marm = meta ? value_getz(meta, "taskreplay/arm") : NULL;
    err e;
    err_clear(&e);
    /* the session's choice changes only with a task made of it: a failed
     * initialize leaves the next one as it found it */
    unsigned long long seed = s->seed;
    arm arm = s->arm;
    if ((mseed && (mseed->kind != V_INT ||
                   parse_seed(mseed->u.str.ptr, &seed, &e) < 0)) ||
        (marm && (marm->kind != V_STRING ||
                  arm_parse(&arm, marm->u.str.ptr, marm->u.str.len, &e) <
                      0))) {
        *code = MCP_INVALID_PARAMS;
        return buf_printf(why, "_meta: %s",
                          e.code ? e.msg
                                 : "taskreplay/seed is a number and "
                                   "taskreplay/arm an arm id");
    }
    s->task_arena = arena_new();
    if (!s->task_arena ||
        task_make(&s->t, s->task_arena, s->srv->ts, seed, &arm, &e) < 0 ||
        sim_new(&s->sim, s->srv->ts, s->t, &e) < 0) {
        if (!s->task_arena || e.code == ERR_NOMEM)
            return -1;
        arena_free(s->task_arena);
        s->task_arena = NULL;
        s->t = NULL;
        *code = MCP_INVALID_PARAMS;
        return buf_printf(why, "no task: %s", e.msg);
    }
    if (live_episode_id(s->id, s->t->id) < 0) {
        sim_free(s->sim);
        s->sim = NULL;
        arena_free(s->task_arena);
        s->task_arena = NULL;
        s->t = NULL;
        *code = MCP_INTERNAL_ERROR;
        return buf_printf(why, "no random bytes for the episode's id: %s",
                          strerror(errno));
    }
    s->state = STARTED;
    s->rev = rev;
    s->seed = seed;
    s->arm = arm;
    /* nothing of the task's seed or arm: the agent under test must not
     * learn which dial it is tested on */
    static const char instructions[] =
        "The prompt 'task' holds the request to carry out with these tools.";
    int rc = buf_puts(result, "{\"capabilities\":{\"logging\":{},\"prompts\":"
                              "{\"listChanged\":false},\"tools\":"
                              "{\"listChanged\":false}},\"instructions\":");
    rc |= canon_write_string(result, instructions, strlen(instructions));
    rc |= buf_printf(result, ",\"protocolVersion\":\"%s\",\"serverInfo\":"
                             "{\"name\":\"taskreplay\",\"version\":",
                     revisions[rev]);
    rc |= canon_write_string(result, s->srv->version,
                             strlen(s->srv->version));
    return rc | buf_puts(result, "}}");
}

/* Ends the episode before the session: the call being answered cannot
 * be recorded, and the simulator's state may hold its effect already, so
 * that no later call could be replayed as it is answered.  The calls
 * before it stay; the episode is written unfinished.  The client is told
 * why (-32603). */
static int break_episode(mcp_session *s, size_t mark, int *code, buf *why,
                         const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int break_episode(mcp_session *s, size_t mark, int *code, buf *why,
                         const char *fmt, ...)
{
    s->log.len = mark; /* nothing of the call is kept */
    if (s->log.data)
        s->log.data[mark] = '\0';
    char reason[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(s->broken, sizeof s->broken, "call %zu: %s", s->ncalls + 1,
             reason);
    *code = MCP_INTERNAL_ERROR;
    return buf_printf(why, "%s: the episode ends here, unfinished (the "
                           "calls before this one are kept); end the "
                           "session, and begin another",
                      reason);
}

static int tools_call(mcp_session *s, arena *a, const value *params,
                      buf *result, int *code, buf *why)
{
    const value *name = params ? value_getz(params, "name") : NULL;
    if (!name || name->kind != V_STRING) {
        *code = MCP_INVALID_PARAMS;
        return buf_puts(why, "tools/call needs params.name, a string");
    }
    if (s->broken[0]) {
        *code = MCP_INVALID_REQUEST;
        return buf_printf(why, "the episode ended at %s; end the session, "
                               "and begin another",
                          s->broken);
    }
    if (s->ncalls >= MCP_MAX_CALLS) {
        *code = MCP_INVALID_REQUEST;
        return buf_printf(why, "the episode has %u calls, the most a session "
                               "takes: end the session, and begin another",
                          MCP_MAX_CALLS);
    }
    if (s->log.len >= MCP_MAX_KEPT) {
        *code = MCP_INVALID_REQUEST;
        return buf_printf(why, "the episode holds %zu MiB of calls and "
                               "answers, the most a session keeps (%u MiB): "
                               "end the session, and begin another",
                          s->log.len >> 20, MCP_MAX_KEPT >> 20);
    }
    /* the call as replay reads it: {"name", "arguments"} */
    value *cv = vb_object(a);
    const value *args = value_getz(params, "arguments");
    if (!cv || vb_put(a, cv, "name", (value *)name) < 0 ||
        (args && vb_put(a, cv, "arguments", (value *)args) < 0))
        return -1;
    call_view c;
    err e;
    err_clear(&e);
    if (call_read(&c, a, cv, &e) < 0) {
        if (e.code == ERR_NOMEM)
            return -1;
        *code = MCP_INVALID_PARAMS;
        return buf_printf(why, "tools/call: %s", e.msg);
    }
    if (s->ncalls == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct call_rec *more = realloc(s->calls, cap * sizeof *more);
        if (!more)
            return -1;
        s->calls = more;
        s->cap = cap;
    }
    /* The call as the transcript will hold it, written by us from the
     * values read (NaN, an infinity or a lone surrogate too), never the
     * request's bytes; checked before the simulator sees it, so that a
     * call that cannot be recorded changes nothing. */
    size_t mark = s->log.len;
    if (canon_append_loose(&s->log, cv, &e) < 0) {
        if (e.code == ERR_NOMEM)
            return -1;
        *code = MCP_INVALID_PARAMS;
        return buf_printf(why, "tools/call: the call cannot be recorded: %s",
                          e.msg);
    }
    size_t call_len = s->log.len - mark;
    buf fits_why = BUF_INIT;
    int fits = live_call_fits(s->srv->run, s->id, s->log.data + mark,
                              call_len, &fits_why);
    if (fits <= 0) {
        s->log.len = mark;
        s->log.data[mark] = '\0';
        int rc = fits < 0 ? -1 : 0;
        if (fits == 0) {
            *code = MCP_INVALID_PARAMS;
            rc = buf_printf(why, "tools/call: %s",
                            fits_why.data ? fits_why.data : "");
        }
        buf_free(&fits_why);
        return rc;
    }
    buf_free(&fits_why);
    if (sim_call(s->sim, c.name, c.name_len, c.args, c.bad_args, &s->r, &e) <
        0)
        return e.code == ERR_NOMEM
                   ? break_episode(s, mark, code, why,
                                   "the server ran out of memory")
                   : break_episode(s, mark, code, why,
                                   "the simulator cannot answer it: %s",
                                   e.msg);
    const char *ans = s->r.answer.data;
    size_t alen = s->r.answer.len;
    size_t line = live_call_line_size(s->srv->run, s->id, call_len, alen);
    if (line > TRANSCRIPT_LINE_LIMIT)
        return line == SIZE_MAX
                   ? break_episode(s, mark, code, why,
                                   "the server ran out of memory")
                   : break_episode(s, mark, code, why,
                                   "its answer of %zu bytes makes a "
                                   "transcript line of %zu, longer than the "
                                   "%u MiB replay reads",
                                   alen, line, TRANSCRIPT_LINE_LIMIT >> 20);
    if (buf_append(&s->log, ans, alen) < 0)
        return break_episode(s, mark, code, why,
                             "the server ran out of memory");
    struct call_rec *rec = &s->calls[s->ncalls++];
    rec->call_off = mark;
    rec->call_len = call_len;
    rec->answer_off = mark + call_len;
    rec->answer_len = alen;
    rec->tool = s->r.tool;
    rec->effect = s->r.effect;
    rec->error = s->r.error;
    rec->step = s->r.step;
    rec->event = s->r.event;
    int rc = buf_puts(result, "{\"content\":[{\"text\":");
    if (s->r.error >= 0) {
        buf m = BUF_INIT;
        rc |= error_message(ans, alen, &m);
        rc |= canon_write_string(result, m.data ? m.data : "", m.len);
        buf_free(&m);
        return rc | buf_puts(result, ",\"type\":\"text\"}],\"isError\":true}");
    }
    rc |= canon_write_string(result, ans, alen);
    rc |= buf_puts(result, ",\"type\":\"text\"}]");
    if (alen && ans[0] == '{' && s->rev != REV_2025_03_26) {
        rc |= buf_puts(result, ",\"structuredContent\":");
        rc |= buf_append(result, ans, alen);
    }
    return rc | buf_putc(result, '}');
}

/* logging/setLevel: a level is taken, and nothing more is done with it:
 * no message is ever sent at any level, since none could keep from saying
 * what the agent must not learn (its dial, its task). */
static int set_level(const value *params, buf *result, int *code, buf *why)
{
    const value *lv = params ? value_getz(params, "level") : NULL;
    for (size_t i = 0; lv && lv->kind == V_STRING &&
                       i < sizeof log_levels / sizeof *log_levels; i++)
        if (strcmp(lv->u.str.ptr, log_levels[i]) == 0)
            return buf_puts(result, "{}");
    *code = MCP_INVALID_PARAMS;
    return buf_puts(why, "logging/setLevel needs params.level, one of "
                         "debug, info, notice, warning, error, critical, "
                         "alert, emergency");
}

static const char prompt_description[] =
    "The task's request: what the agent is asked to do with these tools.";

static int prompts_get(mcp_session *s, const value *params, buf *result,
                       int *code, buf *why)
{
    const value *name = params ? value_getz(params, "name") : NULL;
    if (!name || name->kind != V_STRING || name->u.str.len != 4 ||
        memcmp(name->u.str.ptr, "task", 4) != 0) {
        *code = MCP_INVALID_PARAMS;
        return buf_puts(why, "the one prompt is 'task'");
    }
    int rc = buf_puts(result, "{\"description\":");
    rc |= canon_write_string(result, prompt_description,
                             strlen(prompt_description));
    rc |= buf_puts(result, ",\"messages\":[{\"content\":{\"text\":");
    rc |= canon_write_string(result, s->t->request, strlen(s->t->request));
    return rc | buf_puts(result, ",\"type\":\"text\"},\"role\":\"user\"}]}");
}

/* A cursor, when given, must be one we gave: we give none. */
static int no_cursor(const value *params, int *code, buf *why)
{
    const value *cur = params ? value_getz(params, "cursor") : NULL;
    if (cur && cur->kind != V_NULL) {
        *code = MCP_INVALID_PARAMS;
        return buf_puts(why, "unknown cursor: the list has one page") < 0
                   ? -1
                   : 1;
    }
    return 0;
}

int mcp_handle(mcp_session *s, const char *msg, size_t len, buf *out,
               mcp_info *info)
{
    memset(info, 0, sizeof *info);
    arena *a = arena_new();
    if (!a)
        return -1;
    value *v = NULL;
    err e;
    err_clear(&e);
    buf id = BUF_INIT, result = BUF_INIT, why = BUF_INIT;
    int rc = 0, code = 0;
    if (json_load(&v, a, msg, len, &e) < 0) {
        if (e.code == ERR_NOMEM)
            goto nomem;
        info->request = 1;
        char text[600];
        snprintf(text, sizeof text, "Parse error: %s", e.msg);
        rc = error_response(out, "null", 4, MCP_PARSE_ERROR, text, info);
        goto done;
    }
    if (v->kind != V_OBJECT) {
        info->request = 1;
        rc = error_response(out, "null", 4, MCP_INVALID_REQUEST,
                            v->kind == V_ARRAY
                                ? "Invalid Request: batches are not "
                                  "supported; send one message at a time"
                                : "Invalid Request: a message is a JSON "
                                  "object",
                            info);
        goto done;
    }
    const value *idv = value_getz(v, "id"), *method = value_getz(v, "method"),
                *params = value_getz(v, "params"),
                *jsonrpc = value_getz(v, "jsonrpc");
    if (!method && (value_getz(v, "result") || value_getz(v, "error")))
        goto done; /* a response: we send no requests, so nothing waits */
    /* an id is echoed in the response: a string holding a lone surrogate
     * cannot be (UTF-8 cannot carry it), so it is no id */
    int id_ok = idv && ((idv->kind == V_STRING &&
                         !(idv->flags & VF_UNENCODABLE)) ||
                        idv->kind == V_INT);
    if (!method || method->kind != V_STRING || !jsonrpc ||
        jsonrpc->kind != V_STRING || strcmp(jsonrpc->u.str.ptr, "2.0") != 0 ||
        (idv && !id_ok) ||
        (params && params->kind != V_OBJECT && params->kind != V_NULL)) {
        info->request = 1;
        if (id_ok && canon_write(&id, idv, &e) < 0)
            goto nomem;
        rc = error_response(
            out, id_ok ? id.data : "null", id_ok ? id.len : 4,
            MCP_INVALID_REQUEST,
            !jsonrpc || jsonrpc->kind != V_STRING ||
                    strcmp(jsonrpc->u.str.ptr, "2.0") != 0
                ? "Invalid Request: \"jsonrpc\" must be \"2.0\""
            : !method || method->kind != V_STRING
                ? "Invalid Request: \"method\" must be a string"
            : params && params->kind != V_OBJECT && params->kind != V_NULL
                ? "Invalid Request: \"params\" must be an object"
            : idv->kind == V_STRING
                ? "Invalid Request: \"id\" holds a lone surrogate, which "
                  "cannot be sent back; use whole characters or an integer"
                : "Invalid Request: \"id\" must be a string or an integer",
            info);
        goto done;
    }
    /* a method holding a NUL is none of ours, not the part before it */
    const char *m = strlen(method->u.str.ptr) == method->u.str.len
                        ? method->u.str.ptr
                        : "";
    if (params && params->kind == V_NULL)
        params = NULL;
    if (!idv)
        goto done; /* a notification: initialized, cancelled, ... */
    info->request = 1;
    if (canon_write(&id, idv, &e) < 0)
        goto nomem;
    if (strcmp(m, "initialize") == 0) {
        info->initialize = 1;
        rc = initialize(s, params, &result, &code, &why);
    } else if (strcmp(m, "ping") == 0) {
        rc = buf_puts(&result, "{}");
    } else if (s->state != STARTED) {
        code = MCP_INVALID_REQUEST;
        rc = buf_printf(&why, "%s before initialize: send initialize first",
                        strcmp(m, "tools/call") == 0 ||
                                strcmp(m, "tools/list") == 0 ||
                                strcmp(m, "prompts/list") == 0 ||
                                strcmp(m, "prompts/get") == 0
                            ? m
                            : "a request");
    } else if (strcmp(m, "tools/list") == 0) {
        const buf *tl = s->rev == REV_2025_03_26 ? &s->srv->tools_old
                                                 : &s->srv->tools;
        rc = no_cursor(params, &code, &why);
        if (rc == 0)
            rc = buf_append(&result, tl->data, tl->len);
    } else if (strcmp(m, "logging/setLevel") == 0) {
        rc = set_level(params, &result, &code, &why);
    } else if (strcmp(m, "tools/call") == 0) {
        rc = tools_call(s, a, params, &result, &code, &why);
    } else if (strcmp(m, "prompts/list") == 0) {
        rc = no_cursor(params, &code, &why);
        if (rc == 0) {
            rc = buf_puts(&result, "{\"prompts\":[{\"description\":");
            rc |= canon_write_string(&result, prompt_description,
                                     strlen(prompt_description));
            rc |= buf_puts(&result, ",\"name\":\"task\"}]}");
        }
    } else if (strcmp(m, "prompts/get") == 0) {
        rc = prompts_get(s, params, &result, &code, &why);
    } else {
        code = MCP_METHOD_NOT_FOUND;
        rc = buf_puts(&why, "Method not found: ");
        rc |= utf8_shown(&why, method->u.str.ptr, method->u.str.len, 200);
    }
    if (rc < 0)
        goto nomem;
    rc = 0;
    if (code) {
        if (buf_putc(&why, '\0') < 0)
            goto nomem;
        rc = error_response(out, id.data, id.len, code, why.data, info);
    } else {
        rc = envelope(out, id.data, id.len);
        rc |= buf_puts(out, "\"result\":");
        rc |= buf_append(out, result.data, result.len);
        rc |= buf_putc(out, '}');
    }
done:
    buf_free(&id);
    buf_free(&result);
    buf_free(&why);
    arena_free(a);
    return rc < 0 ? -1 : 0;
nomem:
    rc = -1;
    goto done;
}

/* ------------------------------------------------------------- episodes */

int mcp_session_transcript(const mcp_session *s, const char *status,
                           live_writer *w)
{
    const mcp_server *srv = s->srv;
    const char *id = s->id;
    buf *out = &w->b;
    int rc = live_run_line(out, srv->run, srv->tools_name,
                           srv->ts->doc->file_sha256, srv->model);
    rc |= buf_putc(out, '\n');
    rc |= live_episode_line(out, srv->run, id, s->t);
    rc |= buf_putc(out, '\n');
    rc = rc < 0 ? -1 : live_writer_line(w);
    for (size_t i = 0; rc == 0 && i < s->ncalls; i++) {
        const struct call_rec *c = &s->calls[i];
        rc |= live_call_line(out, srv->run, id, s->log.data + c->call_off,
                             c->call_len, s->log.data + c->answer_off,
                             c->answer_len);
        rc |= buf_putc(out, '\n');
        rc = rc < 0 ? -1 : live_writer_line(w);
    }
    if (rc == 0 && status && !s->broken[0]) {
        rc |= live_end_line(out, srv->run, id, status);
        rc |= buf_putc(out, '\n');
        rc = rc < 0 ? -1 : live_writer_line(w);
    }
    return rc;
}

int mcp_session_report(const mcp_session *s, int unfinished, buf *out,
                       buf *summary)
{
    const char *id = s->id;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->ncalls; i++) {
        const struct call_rec *c = &s->calls[i];
        sim_result r = {.tool = c->tool,
                        .effect = c->effect,
                        .error = c->error,
                        .step = c->step,
                        .event = c->event};
        rc |= live_report_call(out, id, (unsigned)i + 1, 0, s->t, &r);
        rc |= buf_putc(out, '\n');
    }
    sim_verdict v;
    sim_judge(s->sim, &v);
    /* what it did after its last line is not known: as replay judges it */
    if (unfinished)
        v.pass = 0;
    rc |= live_report_verdict(out, id, s->t, &v);
    rc |= buf_putc(out, '\n');
    return rc | live_verdict_summary(summary, s->t, &v);
}
