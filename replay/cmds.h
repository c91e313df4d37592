/* The subcommands of replay; each takes the arguments after its name and
 * returns the process exit status. */
#ifndef TR_CMDS_H
#define TR_CMDS_H

#include <stdio.h>

#include "doc.h"

#define EXIT_REFUSED 1 /* some input could not be used */
#define EXIT_USAGE 2   /* the command line is wrong */

int cmd_hash(int argc, char **argv);
int cmd_tools(int argc, char **argv);

/* Loads the tool file at path, "-" meaning standard input. */
int load_doc(doc **d, const char *path, err *e);

/* How to name path in messages: "<stdin>" for "-". */
const char *shown_path(const char *path);

/* Prints "replay: " and the message to stderr, then a hint to --help. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
