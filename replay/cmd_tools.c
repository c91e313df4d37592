/* replay tools: the tool table of a tool file, for people or (--json) for
 * scripts.  The JSON shape is documented in docs/tool-files.md. */
#include <stdio.h>
#include <string.h>

#include "canon.h"
#include "cli.h"
#include "cmds.h"
#include "schema.h"
#include "tools.h"
#include "utf8.h"

static int put_str(buf *b, const char *s)
{
    return canon_write_string(b, s, strlen(s));
}

/* Text from the tool file, for a terminal: controls, bidirectional
 * overrides and invalid bytes escaped (utf8_shown), so that a name or a
 * reason cannot forge a line of the table. */
static void put_shown(buf *b, const char *s)
{
    utf8_shown(b, s, strlen(s), (size_t)-1);
}

/* The output schema in one short line: "object {id, status, total}";
 * arrays of arrays are followed a few levels down ("array of array of
 * ..."), so a schema whose items name itself ends. */
static void summary(const toolset *ts, const value *schema, buf *out,
                    unsigned depth)
{
    if (depth == 4) {
        buf_puts(out, "...");
        return;
    }
    err e;
    const value *s = schema_deref(ts->doc->root, schema, &e);
    const value *t = s ? value_getz(s, "type") : NULL;
    const value *props = s ? value_getz(s, "properties") : NULL;
    const value *items = s ? value_getz(s, "items") : NULL;
    if (t && t->kind == V_STRING)
        utf8_shown(out, t->u.str.ptr, t->u.str.len, (size_t)-1);
    else
        buf_puts(out, props ? "object" : "any");
    if (props && props->kind == V_OBJECT) {
        buf_puts(out, " {");
        for (size_t i = 0; i < props->u.obj.len; i++) {
            if (i == 8) {
                buf_printf(out, ", ... %zu more", props->u.obj.len - 8);
                break;
            }
            const value *k = props->u.obj.items[i].key;
            buf_puts(out, i ? ", " : "");
            if (k->kind == V_STRING)
                utf8_shown(out, k->u.str.ptr, k->u.str.len, (size_t)-1);
            else
                buf_putc(out, '?');
        }
        buf_puts(out, "}");
    } else if (items) {
        buf_puts(out, " of ");
        summary(ts, items, out, depth + 1);
    }
}

/* The text form; every string from the file goes through put_shown.
 * -1 when memory ran out (nothing printed). */
static int print_text(const char *path, const toolset *ts)
{
    static const char *const formats[] = {"OpenAI tools", "MCP tools",
                                          "OpenAPI"};
    buf line = BUF_INIT;
    put_shown(&line, path);
    buf_printf(&line, ": %s, %zu tool%s, %zu refused\n", formats[ts->format],
               ts->ntools, ts->ntools == 1 ? "" : "s", ts->nrefused);
    buf_printf(&line, "  file hash      %s\n  contract hash  %s\n",
               ts->doc->file_sha256, ts->doc->contract_sha256);
    for (size_t i = 0; i < ts->ntools; i++) {
        const tool *t = &ts->tools[i];
        buf_putc(&line, '\n');
        put_shown(&line, t->name);
        buf_printf(&line, "  %s (", t->kind == TOOL_READ ? "read" : "write");
        put_shown(&line, t->kind_reason);
        buf_puts(&line, ")\n  arguments: ");
        for (size_t a = 0; a < t->nargs; a++) {
            buf_puts(&line, a ? ", " : "");
            put_shown(&line, t->args[a].name);
            buf_puts(&line, t->args[a].required ? "* " : " ");
            put_shown(&line, t->args[a].type);
        }
        buf_printf(&line, "%s\n  output: ", t->nargs ? "" : "none");
        if (t->output_schema)
            summary(ts, t->output_schema, &line, 0);
        buf_puts(&line, t->output_schema ? "\n" : "none\n");
        for (size_t n = 0; n < t->nnotes; n++) {
            buf_puts(&line, "  note: ");
            put_shown(&line, t->notes[n]);
            buf_putc(&line, '\n');
        }
    }
    if (ts->nrefused)
        buf_puts(&line, "\nrefused:\n");
    for (size_t i = 0; i < ts->nrefused; i++) {
        const tool_refusal *r = &ts->refused[i];
        buf_puts(&line, "  ");
        put_shown(&line, r->name[0] ? r->name : "(no name)");
        buf_printf(&line, " (line %u): ", r->line);
        put_shown(&line, r->reason);
        buf_putc(&line, '\n');
    }
    int rc = line.failed ? -1 : 0;
    if (rc == 0)
        fwrite(line.data, 1, line.len, stdout);
    buf_free(&line);
    return rc;
}

static int print_json(const char *path, const toolset *ts)
{
    buf b = BUF_INIT;
    err e;
    int rc = 0;
    buf_puts(&b, "{\"file\":");
    put_str(&b, path);
    buf_printf(&b, ",\"format\":\"%s\",\"file_sha256\":\"%s\","
                   "\"contract_sha256\":\"%s\",\"tools\":[",
               tool_format_name(ts->format), ts->doc->file_sha256,
               ts->doc->contract_sha256);
    buf schema = BUF_INIT;
    for (size_t i = 0; i < ts->ntools && rc == 0; i++) {
        const tool *t = &ts->tools[i];
        buf_puts(&b, i ? ",{\"name\":" : "{\"name\":");
        put_str(&b, t->name);
        buf_printf(&b, ",\"kind\":\"%s\",\"kind_reason\":",
                   t->kind == TOOL_READ ? "read" : "write");
        put_str(&b, t->kind_reason);
        buf_puts(&b, ",\"description\":");
        put_str(&b, t->description);
        buf_puts(&b, ",\"arguments\":[");
        for (size_t a = 0; a < t->nargs; a++) {
            buf_puts(&b, a ? ",{\"name\":" : "{\"name\":");
            put_str(&b, t->args[a].name);
            buf_puts(&b, ",\"type\":");
            put_str(&b, t->args[a].type);
            buf_printf(&b, ",\"required\":%s",
                       t->args[a].required ? "true" : "false");
            if (t->args[a].in) {
                buf_puts(&b, ",\"in\":");
                put_str(&b, t->args[a].in);
            }
            buf_puts(&b, "}");
        }
        buf_puts(&b, "],\"notes\":[");
        for (size_t n = 0; n < t->nnotes; n++) {
            if (n)
                buf_putc(&b, ',');
            put_str(&b, t->notes[n]);
        }
        buf_puts(&b, "],\"output_schema\":");
        if (!t->output_schema) {
            buf_puts(&b, "null");
        } else if (canon_write(&schema, t->output_schema, &e) < 0) {
            rc = -1;
        } else {
            buf_append(&b, schema.data, schema.len);
        }
        buf_puts(&b, "}");
    }
    buf_puts(&b, "],\"refused\":[");
    for (size_t i = 0; i < ts->nrefused && rc == 0; i++) {
        buf_puts(&b, i ? ",{\"name\":" : "{\"name\":");
        put_str(&b, ts->refused[i].name);
        buf_puts(&b, ",\"reason\":");
        put_str(&b, ts->refused[i].reason);
        buf_printf(&b, ",\"line\":%u}", ts->refused[i].line);
    }
    buf_puts(&b, "]}\n");
    if (rc == 0)
        fwrite(b.data, 1, b.len, stdout);
    buf_free(&b);
    buf_free(&schema);
    return rc;
}

int cmd_tools(int argc, char **argv)
{
    int json = 0;
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("tools: unknown option '%s'", argv[i]);
        else if (path)
            return usage_error("tools: one FILE at a time");
        else
            path = argv[i];
    }
    if (!path)
        return usage_error("tools: no FILE given");

    doc *d = NULL;
    toolset *ts = NULL;
    if (load_tools(path, &d, &ts) < 0)
        return EXIT_REFUSED;
    int rc = 0;
    if (json)
        rc = print_json(shown_path(path), ts);
    else
        rc = print_text(shown_path(path), ts);
    toolset_free(ts);
    doc_free(d);
    if (rc < 0 || fflush(stdout) != 0) {
        say("replay: tools: cannot write the output");
        return EXIT_REFUSED;
    }
    return 0;
}
