/*
 * generator: the version and the fingerprint of what the simulator makes.
 *
 * Every run records them ("made with"), so that two runs are compared
 * only when the same generator made their tasks and answers.  The
 * fingerprint is the SHA-256 of everything the generator produces on a
 * fixed probe built into the program (a tool file of every kind of schema,
 * seeds 1 to 16, drawn arguments, answers, the write rule and the errors
 * of each idiom; then the reference page's five tools, the task of every
 * arm for seeds 1 to 4, and a scripted episode of each through the
 * simulator, with its verdict; then the tasks of depth 2, seeds 1 to 8,
 * of a file whose chains, handed fields and stated values test the
 * choices of docs/simulator.md; then the baddata:b3 tasks, seeds 1 to 64,
 * of a file that hands a date through the id of a read without output
 * schema).  Any change to what it produces changes the fingerprint;
 * GENERATOR_VERSION (generator_version.h) is bumped with it, on purpose.
 *
 * The fingerprint runs the simulator and makes tasks, so this module
 * sits above sim and task; they, and whatever records a task, take the
 * version alone from generator_version.h.
 */
#ifndef TR_GENERATOR_H
#define TR_GENERATOR_H

#include "err.h"
#include "generator_version.h"
#include "sha256.h"

/* Computes the fingerprint (lower-case hex).  0, or -1 with e set. */
int generator_fingerprint(char hex[SHA256_HEX_LEN + 1], err *e);

#endif
