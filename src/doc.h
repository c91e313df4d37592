/*
 * doc: a tool file's bytes to its value tree and its two hashes.
 *
 * The bytes are read as JSON (json_load) and, when that fails, as YAML
 * (yaml_load), as the contract hash rule says.  When both fail, the error
 * reported is the JSON one if the text starts like JSON ('{' or '[' after
 * whitespace), else the YAML one.
 */
#ifndef TR_DOC_H
#define TR_DOC_H

#include <stddef.h>

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "sha256.h"
#include "value.h"

enum doc_syntax { DOC_JSON, DOC_YAML };

typedef struct doc {
    arena *arena;
    value *root;
    enum doc_syntax syntax;
    char file_sha256[SHA256_HEX_LEN + 1];
    char contract_sha256[SHA256_HEX_LEN + 1];
    buf canonical; /* the canonical JSON the contract hash is taken of */
} doc;

/* Parses and hashes bytes.  On success *out is a new doc (doc_free it). */
int doc_parse(doc **out, const char *bytes, size_t len, err *e);

/* Reads the file at path (at most DOC_MAX_BYTES) and parses it. */
int doc_load_file(doc **out, const char *path, err *e);

/* The same for a file that must be a regular one (a transcript names
 * it): a folder, a FIFO or a device is refused without waiting on it. */
int doc_load_regular_file(doc **out, const char *path, err *e);

void doc_free(doc *d);

#endif
