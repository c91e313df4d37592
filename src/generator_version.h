/*
 * generator_version: the version of what the simulator makes (keyed
 * draws, tasks, answers, verdicts).  It is written into every task and
 * every run, so that two runs are compared only when one generator made
 * both.  Bumped, on purpose, with any change to what is made: the
 * generator's fingerprint (generator.h) changes with it, and a test
 * pins both.
 */
#ifndef TR_GENERATOR_VERSION_H
#define TR_GENERATOR_VERSION_H

#define GENERATOR_VERSION 4

#endif
