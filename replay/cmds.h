/* cmds: the subcommands of replay (main.c dispatches to them) and the
 * exit statuses they share (replay(1), EXIT STATUS).  Each takes the
 * arguments after its name and returns the process exit status; what
 * they share besides is in cli.h. */
#ifndef TR_CMDS_H
#define TR_CMDS_H

#define EXIT_REFUSED 1 /* some input could not be used */
#define EXIT_USAGE 2   /* the command line is wrong */
#define EXIT_CANNOT 3  /* could not run at all (database, tool file) */

int cmd_hash(int argc, char **argv);
int cmd_tools(int argc, char **argv);
int cmd_tasks(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif
