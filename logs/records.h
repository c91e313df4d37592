/*
 * records: a JSON input read record by record, for the readers whose
 * logs are JSON (OTLP, message trajectories, an Inspect .json log goes
 * through jstream.h itself).  The input is JSON Lines (one record a
 * line; blank lines skipped) when its first line that is not blank is a
 * JSON object by itself, else one document, read piece by piece
 * (jstream.h); a first line that runs past 1 MiB is taken for the start
 * of a document.
 *
 * Promises: a line that is not JSON, or longer than LOG_RECORD_MAX, is
 * handed over as a bad record (skipped to its newline, never read whole)
 * and the lines after it are read; a document that breaks off is a
 * problem said once, after the records before the break.  Memory: one
 * piece of the document at a time, or two batches of lines (each at
 * most 32 lines or 1 MiB of them, and the line that passes that): JSON
 * Lines are read and parsed by a thread of their own a batch ahead,
 * while fn takes the batch before (fn is called from the caller's
 * thread, in the order of the lines); a regular file of at most 1 MiB
 * is read on the caller's thread alone, the same way.
 */
#ifndef TR_RECORDS_H
#define TR_RECORDS_H

#include <stddef.h>

#include "err.h"
#include "lines.h"
#include "value.h"

/* fn gets each record: place ("line N", or NULL in a document), key and
 * index as jstream gives them (NULL and (size_t)-1 for a line), and v;
 * or, for a record that cannot be read, v NULL and bad, why (a line that
 * is not JSON, too long).  0 to go on, 1 stop, -1 (e set). */
typedef int (*lr_record_fn)(void *ctx, const char *place, const char *key,
                            size_t index, const value *v, const char *bad,
                            err *e);

/* Reads the input at fd, streamed as jstream_new takes it (the keys
 * whose arrays are handed over item by item, in a document).  0, 1 stop,
 * -1 (e set). */
int lr_read_json(logr *r, int fd, const char *const *streamed,
                 lr_record_fn fn, void *ctx, err *e);

/* lr_read_json, whose lines are read by json_load_lazy with key lazy:
 * the strings of members so named that hold an escape may come flagged
 * VF_ESCAPED (json_unescaped decodes one); a document's are decoded. */
int lr_read_json_lazy(logr *r, int fd, const char *const *streamed,
                      const char *lazy, lr_record_fn fn, void *ctx, err *e);

#endif
