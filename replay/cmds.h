/* The subcommands of replay; each takes the arguments after its name and
 * returns the process exit status. */
#ifndef TR_CMDS_H
#define TR_CMDS_H

#include <stdio.h>

#include "arm.h"
#include "doc.h"
#include "tools.h"

#define EXIT_REFUSED 1 /* some input could not be used */
#define EXIT_USAGE 2   /* the command line is wrong */
#define EXIT_CANNOT 3  /* could not run at all (database, tool file) */

/* The longest transcript line replay reads, and replay sim takes. */
#define TRANSCRIPT_LINE_LIMIT (4u << 20)

int cmd_hash(int argc, char **argv);
int cmd_tools(int argc, char **argv);
int cmd_tasks(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_import(int argc, char **argv);

typedef struct seed_range {
    unsigned long long lo, hi;
} seed_range;

/* Reads a comma-separated list of arm ids; on a mistake, prints the usage
 * error (with the nearest id) and returns EXIT_USAGE. */
int parse_arms(const char *text, arm *arms, size_t max, size_t *n);

/* Loads a tool file and its tool table; on failure prints one line
 * (FILE:LINE:COL: PATH: what) and returns -1. */
int load_tools(const char *path, doc **d, toolset **ts);

/* Loads the tool file at path, "-" meaning standard input. */
int load_doc(doc **d, const char *path, err *e);

/* What a file looks like, from its first line that is not blank. */
enum input_kind {
    LOOKS_TRANSCRIPT, /* a JSON object a line (or not sure: the lines say) */
    LOOKS_TOOL_FILE,  /* a JSON document over many lines, an array, or an
                         object that is a tool file by its own members */
    LOOKS_DATABASE,   /* an SQLite database */
    LOOKS_NOT_JSONL   /* text whose first line does not start with '{' */
};

/* Reads the first line that is not blank (len bytes at line). */
enum input_kind input_looks(const char *line, size_t len);

/* Why a file that looks like kind (not a transcript) is not replayed. */
const char *input_not_transcript(enum input_kind kind);

/* How to name path in messages: "<stdin>" for "-". */
const char *shown_path(const char *path);

/* Prints the formatted line to stderr and a newline, made safe for a
 * terminal (utf8_safe): what it quotes from input can carry anything, and
 * what was shown already keeps its escapes as they are. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The entries of the folder path but those whose names start with '.',
 * each as "path/name", in strcmp order; the caller frees each and the
 * array.  On failure prints one line ("cannot read the folder PATH: why",
 * or out of memory) and returns -1 with nothing to free. */
int folder_entries(const char *path, char ***names, size_t *n);

/* Prints "replay: " and the message to stderr (as say does), then a hint
 * to --help. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
