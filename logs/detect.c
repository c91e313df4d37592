/* detect: see detect.h. */
#include "detect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LEVELS 4     /* levels whose member names are looked at */
#define NAME_KEEP 48 /* a member name's bytes kept, with its NUL */
#define PATH_KEEP 96 /* a path's: "result.tools[].inputSchema" */
#define NAMES 64     /* paths kept of each pool */

/* One open container at depth 1 to LEVELS. */
struct level {
    char open;            /* '{' or '[' */
    int first;            /* on the path of first items from the top */
    unsigned long index;  /* an array's item now (commas seen) */
    int want_name;        /* an object's: a member name comes next */
    char name[NAME_KEEP]; /* an object's member now ("" when too long) */
};

struct pool {
    char path[NAMES][PATH_KEEP];
    int n;
};

struct sniff {
    unsigned long depth;
    struct level lv[LEVELS + 1]; /* lv[1] is the top */
    char top;                    /* the first byte that is not white space */
    int in_string, escape, string_name, keep;
    char text[NAME_KEEP];
    size_t text_len;
    int text_over;
    int done;             /* the record ended: decide */
    struct pool record;   /* the record's own members: the top object's,
                             or the first item's of a top array */
    struct pool deep;     /* the levels below it, first items only */
    char type[16];        /* the record's "type", when a short string */
    enum log_format found; /* LOG_AUTO while undecided */
};

/* ----------------------------------------------------------- the rules */

static int has(const struct sniff *s, const char *path)
{
    const struct pool *p[2] = {&s->record, &s->deep};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < p[k]->n; i++)
            if (strcmp(p[k]->path[i], path) == 0)
                return 1;
    return 0;
}

/* A member of the record, whether the record is the top object or the
 * first item of a top array. */
static int rec(const struct sniff *s, const char *name)
{
    if (s->top != '[')
        return has(s, name);
    char path[PATH_KEEP];
    snprintf(path, sizeof path, "[].%s", name);
    return has(s, path);
}

/* The log a record's members prove, or LOG_AUTO: every rule needs a
 * member seen, never one missing, so it can be asked as names arrive. */
static enum log_format log_rules(const struct sniff *s)
{
    static const char *const kinds[] = {"run", "episode", "call", "end"};
    if (s->top == '{')
        for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
            if (strcmp(s->type, kinds[i]) == 0)
                return LOG_TRANSCRIPT;
    if (s->top == '{' &&
        (has(s, "resourceSpans") || has(s, "batches") ||
         /* the Collector's file of every signal: a line of logs or
          * metrics may come first */
         has(s, "resourceLogs") || has(s, "resourceMetrics") ||
         /* Tempo's API: {"trace": {...}} */
         has(s, "trace.resourceSpans") || has(s, "trace.batches") ||
         /* Jaeger v2's API v3: {"result": {"resourceSpans": [...]}} */
         has(s, "result.resourceSpans") ||
         /* Jaeger's API and UI: an envelope, or a trace */
         has(s, "data[].spans") || has(s, "data[].traceID") ||
         (has(s, "data") && (has(s, "total") || has(s, "errors") ||
                             has(s, "limit"))) ||
         (has(s, "traceID") && has(s, "spans"))))
        return LOG_OTLP;
    if (s->top == '{' &&
        (has(s, "samples") ||
         (has(s, "eval") && (has(s, "version") || has(s, "status")))))
        return LOG_INSPECT;
    if (rec(s, "messages") || rec(s, "traj") || rec(s, "trajectory") ||
        (s->top == '{' &&
         (has(s, "simulations") || has(s, "simulation_index")))) /* tau2 */
        return LOG_MESSAGES;
    return LOG_AUTO;
}

/* Member names that each format writes, for the nearest. */
struct kin {
    enum log_format f;
    const char *word;      /* its word for --from */
    const char *lacks;     /* the members that would prove it */
    const char *hint;      /* what to do */
    const char *names[14];
};

static const struct kin kins[] = {
    {LOG_MESSAGES, "messages", "messages, traj, trajectory or simulations",
     "if it is one, name it: --from messages, with --messages KEY for the "
     "member that holds its messages",
     {"messages", "traj", "trajectory", "simulations", "task_id", "reward",
      "info", "trial", "tool_calls", "role", "content", "reward_info",
      "conversation", NULL}},
    {LOG_INSPECT, "inspect", "samples, or eval with version",
     "if it is one, name it: --from inspect",
     {"eval", "plan", "results", "stats", "samples", "reductions", "version",
      "status", "scores", "events", "epoch", "model_usage", NULL}},
    {LOG_OTLP, "otlp", "resourceSpans, batches, or data[].spans",
     "if it is one, name it: --from otlp",
     {"resourceSpans", "scopeSpans", "spans", "traceId", "spanId", "traceID",
      "spanID", "processes", "references", "batches", "resource",
      "attributes", NULL}},
    {LOG_TRANSCRIPT, "transcript", "a \"type\" of run, episode, call or end",
     "docs/transcript.md says what a transcript line holds",
     {"type", "run", "episode", "call", "answer", "tools", "tools_sha256",
      NULL}},
};

static const char *leaf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

/* A name shown in a message: printable ASCII of no quote, else left out. */
static int showable(const char *name)
{
    if (!*name)
        return 0;
    for (const char *p = name; *p; p++)
        if (*p < 0x21 || *p > 0x7e || *p == '"' || *p == '\\')
            return 0;
    return 1;
}

static size_t said(char *out, size_t size, size_t at, const char *fmt,
                   const char *text)
{
    if (at < size) {
        int n = snprintf(out + at, size - at, fmt, text);
        at += n > 0 ? (size_t)n : 0;
    }
    return at < size ? at : size - 1;
}

/* What a JSON record that proves no log is, or is nearest. */
static void not_a_log(const struct sniff *s, log_guess *g)
{
    g->format = LOG_UNKNOWN;
    if (s->top == '{' && (rec(s, "openapi") || rec(s, "swagger"))) {
        snprintf(g->why, sizeof g->why,
                 "it is a tool file (OpenAPI), not a log: give it with "
                 "--tools FILE");
        return;
    }
    if (rec(s, "inputSchema") || has(s, "tools[].inputSchema") ||
        has(s, "result.tools[].inputSchema")) {
        snprintf(g->why, sizeof g->why,
                 "it is a tool file (an MCP tool list), not a log: give it "
                 "with --tools FILE");
        return;
    }
    if ((s->top == '[' && (rec(s, "function") || rec(s, "parameters"))) ||
        has(s, "tools[].function")) {
        snprintf(g->why, sizeof g->why,
                 "it is a tool file (OpenAI tools), not a log: give it with "
                 "--tools FILE");
        return;
    }
    int listing = s->top == '{' && s->record.n > 0;
    for (int i = 0; listing && i < s->record.n; i++) {
        const char *p = s->record.path[i];
        size_t n = strlen(p);
        listing = (n > 5 && strcmp(p + n - 5, ".eval") == 0) ||
                  (n > 5 && strcmp(p + n - 5, ".json") == 0) ||
                  (n > 6 && strcmp(p + n - 6, ".jsonl") == 0);
    }
    if (listing) {
        snprintf(g->why, sizeof g->why,
                 "it is a listing of log files (its members are file "
                 "names), not a log: give the files it names");
        return;
    }
    /* the nearest: the format most of whose names it has */
    int best = -1, best_hits = 0;
    for (int k = 0; k < (int)(sizeof kins / sizeof *kins); k++) {
        int hits = 0;
        for (const char *const *w = kins[k].names; *w; w++) {
            int seen = 0;
            const struct pool *p[2] = {&s->record, &s->deep};
            for (int q = 0; q < 2 && !seen; q++)
                for (int i = 0; i < p[q]->n && !seen; i++)
                    seen = strcmp(leaf(p[q]->path[i]), *w) == 0;
            hits += seen;
        }
        if (hits > best_hits) {
            best = k;
            best_hits = hits;
        }
    }
    char *o = g->why;
    size_t size = sizeof g->why, at = 0;
    at = said(o, size, at, "%s",
              "no format --from auto knows (it tried inspect, otlp, "
              "messages and transcripts)");
    if (best < 0) {
        int shown = 0;
        for (int i = 0; i < s->record.n && shown < 4; i++) {
            if (!showable(s->record.path[i]))
                continue;
            at = said(o, size, at, shown ? ", %s" : "; its members (%s",
                      s->record.path[i]);
            shown++;
        }
        if (shown && s->record.n > shown)
            at = said(o, size, at, "%s", "...");
        said(o, size, at, "%s",
             shown ? ") are none a log's; name its format with --from FORMAT"
                   : "; none of its members is a log's; name its format "
                     "with --from FORMAT");
        return;
    }
    const struct kin *k = &kins[best];
    at = said(o, size, at, "; nearest: %s", k->word);
    int shown = 0;
    for (const char *const *w = k->names; *w && shown < 4; w++)
        if (rec(s, *w)) {
            at = said(o, size, at, shown ? ", %s" : " (it has %s", *w);
            shown++;
        }
    at = said(o, size, at, "%s", shown ? ")" : " (by the names below its top)");
    at = said(o, size, at, ", but it has none of %s; ", k->lacks);
    said(o, size, at, "%s", k->hint);
}

/* ----------------------------------------------------------- the lexer */

/* 1 noted, 0 its pool is full. */
static int note_path(struct sniff *s, unsigned long d, const char *name)
{
    char path[PATH_KEEP];
    size_t at = 0;
    path[0] = '\0';
    for (unsigned long i = 1; i < d && at < sizeof path; i++) {
        int n = s->lv[i].open == '{'
                    ? snprintf(path + at, sizeof path - at, "%s%s",
                               at ? "." : "", s->lv[i].name)
                    : snprintf(path + at, sizeof path - at, "[]");
        at += n > 0 ? (size_t)n : 0;
    }
    if (at < sizeof path)
        snprintf(path + at, sizeof path - at, "%s%s", at ? "." : "", name);
    unsigned long record = s->top == '[' ? 2 : 1;
    struct pool *p = d == record ? &s->record : &s->deep;
    if (p->n == NAMES)
        return 0;
    snprintf(p->path[p->n], PATH_KEEP, "%s", path);
    p->n++;
    return 1;
}

/* A value begins at the current depth (a member's, or an item). */
static int on_first_path(const struct sniff *s)
{
    if (s->depth == 0)
        return 1;
    if (s->depth > LEVELS)
        return 0;
    const struct level *l = &s->lv[s->depth];
    return l->first && (l->open == '{' || l->index == 0);
}

static void open_container(struct sniff *s, char c)
{
    int first = on_first_path(s);
    s->depth++;
    if (s->depth <= LEVELS) {
        struct level *l = &s->lv[s->depth];
        l->open = c;
        l->first = first;
        l->index = 0;
        l->want_name = c == '{';
        l->name[0] = '\0';
    }
}

static void close_container(struct sniff *s)
{
    if (s->depth == 0)
        return;
    s->depth--;
    /* the record ends: the top object, or the first item of a top array
     * (or the array itself, when its first item was no container) */
    if (s->depth == 0 || (s->top == '[' && s->depth == 1))
        s->done = 1;
}

/* 1 when the string said something new: a path noted, or the type. */
static int end_string(struct sniff *s)
{
    if (s->depth == 0 || s->depth > LEVELS)
        return 0;
    struct level *l = &s->lv[s->depth];
    if (s->string_name) {
        const char *name = s->text_over ? "" : s->text;
        snprintf(l->name, sizeof l->name, "%s", name);
        return l->first && !s->text_over && note_path(s, s->depth, name);
    }
    /* the record's "type", when it is the top object's */
    if (s->depth == 1 && s->top == '{' && strcmp(l->name, "type") == 0 &&
        !s->text_over && s->text_len < sizeof s->type) {
        memcpy(s->type, s->text, s->text_len + 1);
        return 1;
    }
    return 0;
}

/* Looks at n more bytes; stops (done) when the record ended or a log's
 * members were seen. */
static void sniff_bytes(struct sniff *s, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n && !s->done; i++) {
        unsigned char c = p[i];
        if (s->in_string) {
            if (s->escape) {
                s->escape = 0;
                c = '?'; /* an escaped byte: no name we look for has one */
            } else if (c == '\\') {
                s->escape = 1;
                continue;
            } else if (c == '"') {
                s->in_string = 0;
                if (end_string(s) && (s->found = log_rules(s)) != LOG_AUTO)
                    s->done = 1;
                continue;
            }
            if (s->keep) {
                if (s->text_len + 1 < sizeof s->text)
                    s->text[s->text_len++] = (char)c;
                else
                    s->text_over = 1;
                s->text[s->text_len] = '\0';
            }
            continue;
        }
        struct level *l = s->depth >= 1 && s->depth <= LEVELS
                              ? &s->lv[s->depth]
                              : NULL;
        switch (c) {
        case '"':
            s->in_string = 1;
            s->string_name = l && l->open == '{' && l->want_name;
            s->keep = l != NULL;
            s->text_len = 0;
            s->text_over = 0;
            s->text[0] = '\0';
            break;
        case '{':
        case '[':
            open_container(s, (char)c);
            break;
        case '}':
        case ']':
            close_container(s);
            break;
        case ':':
            if (l && l->open == '{')
                l->want_name = 0;
            break;
        case ',':
            if (l && l->open == '{')
                l->want_name = 1;
            else if (l)
                l->index++;
            break;
        default:
            break;
        }
    }
}

/* ------------------------------------------------------- the decision */

static int starts(const unsigned char *p, size_t n, const char *magic,
                  size_t len)
{
    return n >= len && memcmp(p, magic, len) == 0;
}

const char *log_packed(const unsigned char *p, size_t n)
{
    static const struct {
        const char *magic;
        size_t len;
        const char *what;
    } packed[] = {
        {"\x1f\x8b", 2, "gzip: decompress it (gunzip -k FILE)"},
        {"\x28\xb5\x2f\xfd", 4, "Zstandard: decompress it (zstd -d FILE)"},
        {"\xfd" "7zXZ", 6, "xz: decompress it (unxz -k FILE)"},
        {"BZh", 3, "bzip2: decompress it (bunzip2 -k FILE)"},
    };
    for (size_t i = 0; i < sizeof packed / sizeof *packed; i++)
        if (starts(p, n, packed[i].magic, packed[i].len))
            return packed[i].what;
    return NULL;
}

/* What the first bytes say before any JSON: 1 decided. */
static int by_magic(log_guess *g, const unsigned char *p, size_t n)
{
    if (starts(p, n, "PK\003\004", 4) || starts(p, n, "PK\005\006", 4)) {
        g->format = LOG_INSPECT; /* a zip: an .eval log, or said why not */
        return 1;
    }
    if (starts(p, n, "SQLite format 3", 16)) {
        snprintf(g->why, sizeof g->why,
                 "it is an SQLite database, not a log (card --db FILE reads "
                 "a results database)");
        return 1;
    }
    const char *what = log_packed(p, n);
    if (what) {
        snprintf(g->why, sizeof g->why,
                 "it is compressed with %s and give the file it holds",
                 what);
        return 1;
    }
    return 0;
}

/* A first chunk that is not JSON: an OpenAPI file in YAML, or nothing
 * known. */
static void not_json(log_guess *g, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && p[i - 1] != '\n')
            continue;
        if (starts(p + i, n - i, "openapi:", 8) ||
            starts(p + i, n - i, "swagger:", 8)) {
            snprintf(g->why, sizeof g->why,
                     "it is a tool file (OpenAPI, in YAML), not a log: give "
                     "it with --tools FILE");
            return;
        }
    }
    snprintf(g->why, sizeof g->why,
             "no format --from auto knows: it is neither JSON (it starts "
             "with neither \"{\" nor \"[\") nor a zip archive");
}

#define YAML_LOOK 65536 /* bytes of a file that is no JSON looked at */

struct guessing {
    struct sniff s;
    size_t offset; /* bytes of the file before those looked at now */
    int begun;     /* past the byte order mark and white space */
};

/* 1 decided, 0 more bytes wanted. */
static int guess_more(log_guess *g, struct guessing *k,
                      const unsigned char *p, size_t n)
{
    struct sniff *s = &k->s;
    size_t offset = k->offset;
    k->offset += n;
    if (!k->begun) {
        size_t at = 0;
        if (offset == 0) {
            if (by_magic(g, p, n))
                return 1;
            at = starts(p, n, "\xef\xbb\xbf", 3) ? 3 : 0;
        }
        while (at < n && memchr(" \t\r\n", p[at], 4))
            at++;
        if (at == n)
            return 0; /* white space so far */
        if (p[at] != '{' && p[at] != '[') {
            /* the same bytes looked at, read at once or in chunks */
            size_t end = offset >= YAML_LOOK ? 0 : YAML_LOOK - offset;
            not_json(g, p + at, at < end ? (end < n ? end : n) - at : 0);
            return 1;
        }
        s->top = (char)p[at];
        k->begun = 1;
        p += at;
        n -= at;
    }
    sniff_bytes(s, p, n);
    return s->done;
}

static void guess_end(log_guess *g, struct guessing *k)
{
    if (g->format != LOG_AUTO)
        return;
    if (!k->begun) {
        if (!g->why[0])
            snprintf(g->why, sizeof g->why, "%s",
                     k->offset ? "it holds nothing but white space"
                               : "it is empty");
        g->format = LOG_UNKNOWN;
        return;
    }
    if (k->s.found != LOG_AUTO)
        g->format = k->s.found;
    else if ((g->format = log_rules(&k->s)) == LOG_AUTO)
        not_a_log(&k->s, g);
}

static void guess_begin(log_guess *g, struct guessing *k)
{
    memset(g, 0, sizeof *g);
    g->format = LOG_AUTO;
    memset(k, 0, sizeof *k);
    k->s.found = LOG_AUTO;
}

void log_guess_bytes(log_guess *g, const unsigned char *data, size_t len)
{
    struct guessing k;
    guess_begin(g, &k);
    guess_more(g, &k, data, len);
    guess_end(g, &k);
    if (g->format == LOG_AUTO)
        g->format = LOG_UNKNOWN;
}

void log_guess_file(log_guess *g, const char *path)
{
    struct guessing k;
    unsigned char chunk[65536];
    guess_begin(g, &k);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(g->why, sizeof g->why, "cannot read it: %s",
                 strerror(errno));
        g->format = LOG_UNKNOWN;
        return;
    }
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(g->why, sizeof g->why, "cannot read it: %s",
                     strerror(errno));
            close(fd);
            g->format = LOG_UNKNOWN;
            return;
        }
        if (n == 0 || guess_more(g, &k, chunk, (size_t)n))
            break;
    }
    close(fd);
    guess_end(g, &k);
    if (g->format == LOG_AUTO)
        g->format = LOG_UNKNOWN;
}
