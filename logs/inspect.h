/*
 * inspect: the reader (reader.h) of Inspect AI eval logs (docs/logs.md,
 * "Inspect eval logs"), in both forms:
 *   .eval   a zip archive: header.json (or, for an eval that did not
 *           finish, _journal/start.json) and the samples folder's
 *           members, one sample a member; read with libzip, one member
 *           at a time, into memory, never unpacked to disk;
 *   .json   one EvalLog document, read piece by piece (jstream.h): its
 *           "eval" member must come before "samples", as Inspect writes
 *           it.
 * A sample is an episode: its id the task's name, its epoch the trial;
 * its calls are the assistant messages' tool calls, answered by the tool
 * messages of the same call id (an error result answered as an error);
 * attachment:// references are resolved from the sample's attachments;
 * the first scorer's score (or --score NAME) is the success and the
 * reward; the tools offered are the model events' tool lists; seed and
 * arm, when the sample's metadata gives them, make the episode one the
 * simulator replays.
 *
 * Promises: a member whose stated or actual uncompressed size passes
 * LOG_RECORD_MAX is refused (a zip bomb never fills memory); a log of a
 * version other than 1 or 2 is refused whole, with the version said; a
 * truncated archive is said, and every sample that can still be read is
 * read; memory follows one sample.
 */
#ifndef TR_INSPECT_H
#define TR_INSPECT_H

#include "reader.h"

/* Reads by path (a zip archive is read where it lies): standard input
 * is refused, in one line. */
extern const log_reader inspect_reader;

#endif
