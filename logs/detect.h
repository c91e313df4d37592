/*
 * detect: which format a file is, by its structure (docs/logs.md,
 * "Recognising a format"), never by its name.
 *
 * Promises:
 *  - It reads the file from its start as far as it needs and no further:
 *    the magic bytes of a zip or a compressor, or the member names of a
 *    JSON document's first four levels (of the first document, for JSON
 *    Lines; of the first item, for an array), until a log's own members
 *    are seen or that document ends.  A log's members may come after
 *    megabytes of others (tau2-bench writes its tasks before its
 *    simulations): no fixed window cuts them off.
 *  - Constant memory, whatever the file holds: member names are looked at
 *    as they pass (the first 64 of a level, each up to 47 bytes), values
 *    are skipped byte by byte, nothing is kept.  The JSON is not checked:
 *    the reader checks it, record by record.
 *  - A file that is no log is said as what it is, when that is known (a
 *    tool file, a results database, a compressed file, a listing of
 *    files), else with the nearest format and what it lacks; in one
 *    clause, safe to print (names of no printable ASCII are left out).
 */
#ifndef TR_DETECT_H
#define TR_DETECT_H

#include <stddef.h>

enum log_format {
    LOG_AUTO,       /* recognised from the content */
    LOG_INSPECT,
    LOG_OTLP,
    LOG_MESSAGES,
    LOG_TRANSCRIPT, /* found by LOG_AUTO: our own JSONL */
    LOG_UNKNOWN     /* found by LOG_AUTO: none of them */
};

typedef struct log_guess {
    enum log_format format; /* a log's, LOG_TRANSCRIPT or LOG_UNKNOWN */
    char why[600];          /* LOG_UNKNOWN: what it is, or is nearest, and
                               what to do: "FILE: why" is the line */
} log_guess;

/* The format of the file at path (LOG_UNKNOWN when it cannot be read:
 * why says so). */
void log_guess_file(log_guess *g, const char *path);

/* The same, for bytes already in memory (what the file would hold); for
 * tests and fuzzing. */
void log_guess_bytes(log_guess *g, const unsigned char *data, size_t len);

/* The compressor whose magic bytes data begins with, and what to do, as
 * "gzip: decompress it (gunzip -k FILE)"; NULL when none. */
const char *log_packed(const unsigned char *data, size_t len);

#endif
