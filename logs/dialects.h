/*
 * dialects: what the instrumentations other than the GenAI conventions
 * write in a chat span, put into the shapes the OTLP reader (otlp.h)
 * reads: messages as OpenAI's chat messages ({"role", "content",
 * "tool_calls": [{"id", "name", "arguments"}], "tool_call_id"}) and the
 * tools offered as a list of {"name", "description", "parameters"}.
 *  - OpenLLMetry flattens its messages into one attribute a field:
 *    gen_ai.prompt.N.role, gen_ai.completion.N.tool_calls.M.name, and
 *    its tools into llm.request.functions.N.name (parameters as JSON
 *    text);
 *  - OpenInference does the same under llm.input_messages.N.message.*
 *    and llm.output_messages.N.message.* (a call under
 *    tool_calls.M.tool_call.*), and gives each tool as JSON text,
 *    llm.tools.N.tool.json_schema;
 *  - Google ADK keeps the request it sent as JSON text
 *    (gcp.vertex.agent.llm_request), its tools in
 *    config.tools[].function_declarations[], their parameters in
 *    Google's schema (types in capitals, keys in snake case).
 * Pure functions of their arguments: what they make is in the arena;
 * NULL means none there (or out of memory, which the arena says).
 * Indexes past DIALECT_INDEX_MAX are left out, so that a crafted key
 * ("gen_ai.prompt.99999999.role") cannot make a list of millions.
 */
#ifndef TR_DIALECTS_H
#define TR_DIALECTS_H

#include "arena.h"
#include "value.h"

#define DIALECT_INDEX_MAX 4096

/* How the caller reads an attribute's AnyValue as a value (NULL: out of
 * memory). */
typedef value *(*dialect_decode)(void *ctx, const char *key,
                                 const value *any);

/* The attributes of attrs (OTLP KeyValues) under prefix ("gen_ai.prompt.")
 * put together as the list they flatten: each dotted part after it a
 * member, each number an index (a gap is null); the first attribute of a
 * key stands, and one that would make a value and a member of one place
 * is left out.  NULL when no attribute has the prefix. */
value *dialect_indexed(arena *a, const value *attrs, const char *prefix,
                       dialect_decode decode, void *ctx);

/* OpenInference's messages ([{"message": {..., "tool_calls":
 * [{"tool_call": {"id", "function": {"name", "arguments"}}}]}}]) as chat
 * messages. */
value *dialect_openinference_messages(arena *a, const value *list);

/* The tools offered, as {"name", "description", "parameters"}: from
 * OpenLLMetry's llm.request.functions list, OpenInference's llm.tools
 * list, or ADK's request. */
value *dialect_functions(arena *a, const value *list);
value *dialect_openinference_tools(arena *a, const value *list);
value *dialect_adk_tools(arena *a, const value *request);

#endif
