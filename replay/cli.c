/* cli: see cli.h. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "json_load.h"
#include "utf8.h"

static int read_stdin(buf *b, err *e)
{
    char chunk[65536];
    ssize_t n;
    while ((n = read(0, chunk, sizeof chunk)) > 0) {
        if (b->len + (size_t)n > DOC_MAX_BYTES)
            return err_set(e, ERR_LIMIT,
                           "input is larger than the limit of %u MiB for a "
                           "tool file; split it or trim it",
                           DOC_MAX_BYTES >> 20);
        if (buf_append(b, chunk, (size_t)n) < 0)
            return err_set(e, ERR_NOMEM, "out of memory reading input");
    }
    if (n < 0)
        return err_set(e, ERR_IO, "cannot read standard input");
    return 0;
}

int load_doc(doc **d, const char *path, err *e)
{
    if (strcmp(path, "-") != 0)
        return doc_load_file(d, path, e);
    buf b = BUF_INIT;
    int rc = read_stdin(&b, e);
    if (rc == 0)
        rc = doc_parse(d, b.data ? b.data : "", b.len, e);
    buf_free(&b);
    return rc;
}

void say(const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf b = BUF_INIT;
    utf8_safe(&b, line, strlen(line));
    if (!b.failed && b.len)
        fwrite(b.data, 1, b.len, stderr);
    buf_free(&b);
    fputc('\n', stderr);
}

void say_text(void *ctx, const char *text)
{
    (void)ctx;
    say("%s", text);
}

int usage_error(const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    say("replay: %s", line);
    fputs("Try 'replay --help'.\n", stderr);
    return EXIT_USAGE;
}

const char *shown_path(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* Whether the object v is a transcript line by its own shape: a top-level
 * "type" that is one of the transcript's.  A "type" further in (a schema's
 * "type":"object", an OpenAI tool's "type":"function") says nothing. */
static int transcript_shaped(const value *v)
{
    static const char *const types[] = {"run", "episode", "call", "end"};
    const value *t = value_getz(v, "type");
    for (size_t i = 0; t && t->kind == V_STRING && i < 4; i++)
        if (strcmp(t->u.str.ptr, types[i]) == 0)
            return 1;
    return 0;
}

static int has_kind(const value *o, const char *key, value_kind kind)
{
    const value *v = value_getz(o, key);
    return v && v->kind == kind;
}

/* Whether the object v is a tool file by the members the tool reader
 * recognises one by (tools.c): an OpenAPI or Swagger document, a "tools"
 * list (bare, or a JSON-RPC tools/list response's "result"), a
 * "functions" list, one MCP tool, or one OpenAI tool. */
static int tool_file_shaped(const value *v)
{
    const value *result = value_getz(v, "result");
    const value *t = value_getz(v, "type");
    return has_kind(v, "openapi", V_STRING) ||
           has_kind(v, "swagger", V_STRING) ||
           has_kind(result ? result : v, "tools", V_ARRAY) ||
           has_kind(v, "functions", V_ARRAY) ||
           (value_getz(v, "inputSchema") && value_getz(v, "name")) ||
           (t && t->kind == V_STRING && strcmp(t->u.str.ptr, "function") == 0);
}

/* Whether the text holds s (n bytes). */
static int holds(const char *text, size_t len, const char *s, size_t n)
{
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(text + i, s, n) == 0)
            return 1;
    return 0;
}

/* A first line that is not JSON by itself: a transcript line cut short
 * (its "type" is one of the transcript's: its problem says so), or the
 * first line of a JSON document over many lines that opens with a tool
 * file's member. */
static enum input_kind looks_unparsed(const char *line, size_t len)
{
    static const char *const types[] = {"\"run\"", "\"episode\"",
                                        "\"call\"", "\"end\""};
    static const char *const tool_keys[] = {"\"openapi\"", "\"swagger\"",
                                            "\"tools\"", "\"functions\"",
                                            "\"inputSchema\""};
    for (size_t i = 0; i + 6 <= len; i++) {
        if (memcmp(line + i, "\"type\"", 6) != 0)
            continue;
        size_t j = i + 6;
        while (j < len && strchr(" \t:", line[j]))
            j++;
        for (size_t k = 0; k < 4; k++) {
            size_t n = strlen(types[k]);
            if (j + n <= len && memcmp(line + j, types[k], n) == 0)
                return LOOKS_TRANSCRIPT;
        }
    }
    for (size_t k = 0; k < sizeof tool_keys / sizeof *tool_keys; k++)
        if (holds(line, len, tool_keys[k], strlen(tool_keys[k])))
            return LOOKS_TOOL_FILE;
    return LOOKS_TRANSCRIPT;
}

enum input_kind input_looks(const char *line, size_t len)
{
    static const char sqlite_magic[] = "SQLite format 3";
    if (len >= sizeof sqlite_magic &&
        memcmp(line, sqlite_magic, sizeof sqlite_magic) == 0)
        return LOOKS_DATABASE;
    while (len && strchr(" \t\r\xef\xbb\xbf", line[0])) {
        line++; /* white space, and a byte order mark */
        len--;
    }
    while (len && strchr(" \t\r", line[len - 1]))
        len--;
    if (len && line[0] == '[')
        return LOOKS_TOOL_FILE; /* OpenAI tools, or MCP's bare array */
    if (len == 0 || line[0] != '{')
        return LOOKS_NOT_JSONL;
    if (len == 1)
        return LOOKS_TOOL_FILE; /* "{" alone: JSON over many lines */
    /* One object on the line: what its own top-level members say.  Not
     * sure (it is neither, or memory ran out): a transcript, whose lines
     * then say what is wrong with each. */
    arena *a = arena_new();
    value *v = NULL;
    err e;
    enum input_kind kind;
    if (!a)
        kind = LOOKS_TRANSCRIPT;
    else if (json_load(&v, a, line, len, &e) < 0)
        kind = e.code == ERR_NOMEM ? LOOKS_TRANSCRIPT
                                   : looks_unparsed(line, len);
    else
        kind = v->kind == V_OBJECT && !transcript_shaped(v) &&
                       tool_file_shaped(v)
                   ? LOOKS_TOOL_FILE
                   : LOOKS_TRANSCRIPT;
    arena_free(a);
    return kind;
}

const char *input_not_transcript(enum input_kind kind)
{
    switch (kind) {
    case LOOKS_TOOL_FILE:
        return "it looks like a tool file, not a transcript (replay tools "
               "FILE reads a tool file; a transcript names one in its run "
               "line)";
    case LOOKS_DATABASE:
        return "it is an SQLite database, not a transcript (card --db FILE "
               "reads a results database)";
    case LOOKS_NOT_JSONL:
        return "it is not JSON Lines: its first line does not start with "
               "\"{\" (a transcript has one JSON object a line)";
    default:
        return "";
    }
}

/* When a tool file cannot be read, whether it is a transcript given by
 * mistake: its first line that is not blank says. */
static int looks_like_transcript(const char *path)
{
    char head[4096];
    FILE *f = strcmp(path, "-") == 0 ? NULL : fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    const char *line = head + strspn(head, " \t\r\n");
    size_t len = strcspn(line, "\n");
    return len && len < (size_t)(head + n - line) && line[len] == '\n' &&
           input_looks(line, len) == LOOKS_TRANSCRIPT &&
           strstr(line, "\"type\"") && strstr(line, "\"run\"");
}

int load_tools(const char *path, doc **d, toolset **ts)
{
    err e;
    err_clear(&e);
    *d = NULL;
    *ts = NULL;
    if (load_doc(d, path, &e) < 0 || toolset_build(ts, *d, &e) < 0) {
        char line[1600];
        err_format(&e, shown_path(path), line, sizeof line);
        if (e.code == ERR_NOMEM || !looks_like_transcript(path)) {
            say("%s", line);
        } else {
            say("%s: it looks like a transcript (JSON Lines), not a tool "
                "file: replay FILE replays it",
                path);
        }
        doc_free(*d);
        *d = NULL;
        return -1;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int folder_entries(const char *path, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(path);
    if (!d) {
        int why = errno;
        say("replay: cannot read the folder %s: %s", path, strerror(why));
        return -1;
    }
    char **all = NULL;
    size_t count = 0, cap = 0, pl = strlen(path);
    const char *sep = pl && path[pl - 1] == '/' ? "" : "/";
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 32;
            char **more = realloc(all, cap * sizeof *more);
            if (!more) {
                rc = -1;
                break;
            }
            all = more;
        }
        size_t len = pl + strlen(de->d_name) + 2;
        if (!(all[count] = malloc(len)))
            rc = -1;
        else
            snprintf(all[count++], len, "%s%s%s", path, sep, de->d_name);
    }
    closedir(d);
    if (rc < 0) {
        say("replay: out of memory listing %s", path);
        while (count)
            free(all[--count]);
        free(all);
        return -1;
    }
    if (count)
        qsort(all, count, sizeof *all, by_name);
    *names = all;
    *n = count;
    return 0;
}

int parse_arms(const char *text, arm *arms, size_t max, size_t *n)
{
    *n = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        err e;
        err_clear(&e);
        if (*n == max)
            return usage_error("too many arms (at most %zu)", max);
        if (arm_parse(&arms[(*n)++], p, len, &e) < 0)
            return usage_error("%s", e.msg);
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}
