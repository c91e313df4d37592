/*
 * tools: one tool table for a tool file, whatever its format.
 *
 * Recognised (docs/tool-files.md has the details):
 *  - OpenAI tools: an array of {"type":"function","function":{...}} or of
 *    the flat {"type":"function","name":...}; a chat request's "tools";
 *    the legacy "functions" list;
 *  - MCP: {"tools":[...]}, a JSON-RPC response whose "result" holds it, a
 *    bare array of MCP tools, or one MCP tool object;
 *  - OpenAPI 3.0/3.1 ("openapi" + "paths") and Swagger 2.0: one tool per
 *    operation; path, query and header parameters and the JSON request
 *    body's properties are its arguments; the first 2xx JSON response's
 *    schema is its output schema.
 * Every tool is a read or a write, with the reason.  A tool that cannot be
 * used (no name, a duplicate name, parameters that are not an object
 * schema, a $ref that names nothing...) is refused with a one-line reason
 * and kept out of the table; the file still loads.
 * Schemas are the document's own subtrees (borrowed from the doc, which
 * must outlive the toolset), except the input schema of an OpenAPI
 * operation, which is built from its parameters and body.  The table's
 * types are in toolset.h, below this module and chain.h, which
 * toolset_build runs.
 */
#ifndef TR_TOOLS_H
#define TR_TOOLS_H

#include <stddef.h>

#include "doc.h"
#include "err.h"
#include "toolset.h"
#include "value.h"

/* Builds the tool table of a parsed tool file.  Fails (ERR_VALUE) only
 * when the document is none of the formats.  A `$ref` in an MCP or OpenAI
 * tool's schema that names a place in that schema (its own `$defs`, as
 * JSON Schema resolves it) is rewritten in d, once, to the same place
 * written from the document's root, so that every later lookup against
 * the root finds it; the hashes, taken when d was parsed, do not move. */
int toolset_build(toolset **out, const doc *d, err *e);

void toolset_free(toolset *t);

/* The tool named name (len bytes), or NULL. */
const tool *toolset_find(const toolset *t, const char *name, size_t len);

/* "openai", "mcp", "openapi". */
const char *tool_format_name(enum tool_format f);

/* Whether a tool named so is a read by its name alone (SPEC 2.2): the
 * first word (split at '_', '-', '.', and lower-to-upper case changes),
 * lower-cased, is a read verb.  Writes that word into word (size bytes). */
int tool_name_reads(const char *name, char *word, size_t size);

#endif
