/*
 * zipzstd: a zip member compressed with Zstandard (zip method 93), as
 * Inspect writes its .eval logs since 0.3.206.  libzip before 1.8 (Debian
 * 12 has 1.7.3) cannot inflate that method, so the member's raw bytes are
 * read through libzip (ZIP_FL_COMPRESSED) and decompressed here with
 * libzstd, streaming: a member of several frames (Inspect starts one every
 * 200 MiB), frames without a content size, and an empty member of no byte
 * at all are read.
 *
 * Promises: the output never passes max bytes, whatever the member claims
 * or the frames expand to (a bomb stops there); what comes out is checked
 * against the member's size and CRC-32 from the central directory; memory
 * is the output, a window of the input and libzstd's own state.
 */
#ifndef TR_ZIPZSTD_H
#define TR_ZIPZSTD_H

#include <stddef.h>
#include <zip.h>

#include "buf.h"

#define ZIP_METHOD_ZSTD 93

/* Reads member i of z (st: its central-directory entry, size and CRC
 * among what it holds) into out (reset first).  0 read; 1 it would pass
 * max bytes; 2 it cannot be read (why: what, in a few words, size
 * bytes); -1 out of memory. */
int zipzstd_read(zip_t *z, zip_uint64_t i, const zip_stat_t *st, size_t max,
                 buf *out, char *why, size_t size);

#endif
