/*
 * toolset: the tool table's types, whatever the tool file's format: each
 * tool with its kind and schemas, the tools refused, and what is worked
 * out once for the whole table.  Types only: tools.h builds a table from
 * a tool file (and runs chain.h's analysis on it), chain.h and the rest
 * read it.  A toolset never changes once built, so threads may share it.
 */
#ifndef TR_TOOLSET_H
#define TR_TOOLSET_H

#include <stddef.h>

#include "doc.h"
#include "value.h"

enum tool_format { TOOLS_OPENAI, TOOLS_MCP, TOOLS_OPENAPI };
enum tool_kind { TOOL_READ, TOOL_WRITE };
/* What said the kind: the name's first word (a guess), an MCP tool's
 * annotations.readOnlyHint, or an OpenAPI operation's HTTP method. */
enum tool_kind_source { KIND_FROM_NAME, KIND_FROM_HINT, KIND_FROM_METHOD };

typedef struct tool_arg {
    const char *name;
    const value *schema; /* as written; may hold a $ref */
    const char *type;    /* "string", "integer|null", "object", "any"... */
    int required;
    const char *in; /* OpenAPI: "path", "query", "header", "body"; else NULL */
} tool_arg;

typedef struct tool {
    const char *name;
    const char *description; /* "" when none */
    enum tool_kind kind;
    enum tool_kind_source kind_source;
    const char *kind_reason;
    const value *input_schema;  /* an object schema */
    const value *output_schema; /* NULL when the tool has none */
    tool_arg *args;             /* the input schema's properties, in order */
    size_t nargs;
    const char *method, *path; /* OpenAPI operations; else NULL */
    const char **notes;        /* what a user should know (patterns
                                  outside the supported subset) */
    const char *unknown_required; /* a name the input schema requires and
                                     gives no property, or NULL: drawing
                                     can never give it */
    size_t nnotes;
    unsigned line, col;
} tool;

typedef struct tool_refusal {
    const char *name; /* "" when the tool has none */
    const char *reason;
    unsigned line, col;
} tool_refusal;

typedef struct toolset {
    const doc *doc;
    arena *arena;
    enum tool_format format;
    tool *tools;
    size_t ntools;
    tool_refusal *refused;
    size_t nrefused;
    /* What the tools can chain into a task, worked out once by
     * toolset_build (chain.h): each tool's answer members and free-string
     * fields, the handed names and, for each, the writes that take it
     * and the reads that can hand it.  In the arena; never changed. */
    const struct chains *chains;
    /* The document's `pattern`s compiled once (patterns.h), for the draw
     * and the check: schema_check_with, draw_value_with.  Never changed. */
    const struct patterns *patterns;
} toolset;

#endif
