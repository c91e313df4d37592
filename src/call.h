/*
 * call: the tool name and arguments of a call, whatever shape an agent
 * harness logged it in (SPEC 4.1, docs/transcript.md):
 *   plain       {"name": "get_order", "arguments": {...} or "JSON text"}
 *   OpenAI      {"type": "function", "function": {"name": ...,
 *               "arguments": "JSON text"}}   (a tool_call)
 *   Anthropic   {"type": "tool_use", "name": ..., "input": {...}}
 *   MCP         {"method": "tools/call", "params": {"name": ...,
 *               "arguments": {...}}}          (a JSON-RPC request)
 * Arguments absent or null are no arguments.  Arguments given as JSON
 * text are parsed as Python's json.loads would; text that does not parse
 * is not an error of the call's shape: the call is answered
 * invalid_arguments, with the reason in bad_args.
 */
#ifndef TR_CALL_H
#define TR_CALL_H

#include <stddef.h>

#include "arena.h"
#include "err.h"
#include "value.h"

enum call_shape { CALL_PLAIN, CALL_OPENAI, CALL_ANTHROPIC, CALL_MCP };

typedef struct call_view {
    enum call_shape shape;
    const char *name;
    size_t name_len;
    const value *args;    /* NULL: no arguments */
    const char *bad_args; /* set when the arguments' JSON text is broken */
    const char *raw_args; /* that text, as given (when bad_args is set) */
    size_t raw_args_len;
} call_view;

/* Reads a call.  Fails (ERR_VALUE, one line) when v is none of the shapes
 * or its tool name is not a string. */
int call_read(call_view *out, arena *a, const value *v, err *e);

/* "plain", "openai", "anthropic", "mcp" */
const char *call_shape_name(enum call_shape s);

#endif
