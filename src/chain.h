/*
 * chain: what the tools of one tool table can chain into a task, worked
 * out once when the table is built (toolset_build keeps it in the
 * toolset, in the toolset's arena) instead of for every task made.  The
 * rules are the task's (task.h, docs/simulator.md); this module only
 * answers them ahead of time.  What is kept:
 *
 *  - per tool, the members of its answers as drawing merges them (allOf;
 *    no oneOf branch, none being drawn yet; empty without an output
 *    schema), and those of them that take free strings (a type that
 *    admits a string, narrowed by no enum or const), in that order;
 *  - the handed names: every name an argument of a write may have when
 *    it carries a handed value (a free string), each once, in the order of
 *    the tool table (the first write naming it, its arguments in order);
 *    a name some earlier write already has is not listed again;
 *  - for each handed name, its links: the writes with a free-string
 *    argument of that name (the first CHAIN_MAX_WRITES kept, all
 *    counted), and the reads without an argument of that name that can
 *    hand a value (no output schema, or a free-string field), at most
 *    CHAIN_MAX_READS.
 *
 * Nothing here changes after toolset_build: threads may read it at once.
 */
#ifndef TR_CHAIN_H
#define TR_CHAIN_H

#include <stddef.h>

#include "shape.h"
#include "toolset.h"
#include "value.h"

#define CHAIN_MAX_WRITES 8 /* TASK_MAX_DEPTH */
#define CHAIN_MAX_READS 64

typedef struct chain_tool {
    shape out; /* the members of its answers (out.n 0: none) */
    const value_member **free_fields; /* out's free-string members, in
                                         shape_next order */
    size_t nfree_fields;
} chain_tool;

typedef struct chain_links {
    const char *name; /* the handed argument's name */
    const tool *writes[CHAIN_MAX_WRITES];
    size_t nwrites; /* counted past CHAIN_MAX_WRITES, kept up to it */
    const tool *reads[CHAIN_MAX_READS];
    size_t nreads;
    int reads_with_args; /* some of the reads take arguments */
} chain_links;

struct chains {
    const chain_tool *tools; /* one per ts->tools[i], in that order */
    const chain_links *names; /* the handed names, in order */
    size_t nnames;
};

/* Works out ts's chains into ts->arena and sets ts->chains.  0, or -1
 * out of memory. */
int chain_analyse(toolset *ts);

/* What is kept for tool t of ts. */
const chain_tool *chain_tool_of(const toolset *ts, const tool *t);

#endif
