/* cli: what replay's subcommands share, so that they speak and read
 * alike: one line on stderr, safe for a terminal (say, usage_error); a
 * tool file loaded with its one-line refusal; what a file given on the
 * command line looks like (a transcript, a tool file, a database); a
 * folder's entries in a stable order; a list of arm ids. */
#ifndef TR_CLI_H
#define TR_CLI_H

#include <stddef.h>

#include "arm.h"
#include "doc.h"
#include "err.h"
#include "tools.h"

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

/* say("%s", text), as a callback (ctx unused): for a module that hands
 * its lines to whoever prints them. */
void say_text(void *ctx, const char *text);

/* The entries of the folder path but those whose names start with '.',
 * each as "path/name", in strcmp order; the caller frees each and the
 * array.  On failure prints one line ("cannot read the folder PATH: why",
 * or out of memory) and returns -1 with nothing to free. */
int folder_entries(const char *path, char ***names, size_t *n);

/* Prints "replay: " and the message to stderr (as say does), then a hint
 * to --help. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
