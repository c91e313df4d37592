/* zipzstd: see zipzstd.h. */
#include "zipzstd.h"

#include <stdio.h>
#include <zlib.h>
#include <zstd.h>

int zipzstd_read(zip_t *z, zip_uint64_t i, const zip_stat_t *st, size_t max,
                 buf *out, char *why, size_t size)
{
    buf_reset(out);
    zip_file_t *f = zip_fopen_index(z, i, ZIP_FL_COMPRESSED);
    if (!f) {
        snprintf(why, size, "%s", zip_strerror(z));
        return 2;
    }
    ZSTD_DStream *ds = ZSTD_createDStream();
    if (!ds) {
        zip_fclose(f);
        return -1;
    }
    ZSTD_initDStream(ds);
    char in[65536], room[65536];
    zip_int64_t n;
    size_t left = 0; /* what the last frame still wants: 0 at a frame's end */
    int rc = 0, seen = 0; /* an empty member has no byte, nor frame */
    while (rc == 0 && (n = zip_fread(f, in, sizeof in)) > 0) {
        ZSTD_inBuffer src = {in, (size_t)n, 0};
        seen = 1;
        while (rc == 0 && src.pos < src.size) {
            ZSTD_outBuffer dst = {room, sizeof room, 0};
            left = ZSTD_decompressStream(ds, &dst, &src);
            if (ZSTD_isError(left)) {
                snprintf(why, size, "its Zstandard data is damaged: %s",
                         ZSTD_getErrorName(left));
                rc = 2;
            } else if (out->len + dst.pos > max) {
                rc = 1;
            } else if (buf_append(out, room, dst.pos) < 0) {
                rc = -1;
            }
        }
    }
    /* what the last input left inside the decoder: the rest of a frame
     * whose output did not fit (left 0 once a frame is whole) */
    for (int more = seen && left != 0; rc == 0 && more && n == 0;) {
        ZSTD_inBuffer src = {NULL, 0, 0};
        ZSTD_outBuffer dst = {room, sizeof room, 0};
        left = ZSTD_decompressStream(ds, &dst, &src);
        if (ZSTD_isError(left))
            break;
        more = dst.pos == sizeof room;
        if (out->len + dst.pos > max)
            rc = 1;
        else if (buf_append(out, room, dst.pos) < 0)
            rc = -1;
    }
    if (rc == 0 && n < 0) {
        snprintf(why, size, "%s (a damaged or truncated archive)",
                 zip_file_strerror(f));
        rc = 2;
    } else if (rc == 0 && left != 0) {
        snprintf(why, size, "its Zstandard data ends inside a frame (a "
                            "truncated member)");
        rc = 2;
    } else if (rc == 0 && (st->valid & ZIP_STAT_SIZE) &&
               st->size != out->len) {
        snprintf(why, size, "it holds %zu bytes where the archive says "
                            "%llu",
                 out->len, (unsigned long long)st->size);
        rc = 2;
    } else if (rc == 0 && (st->valid & ZIP_STAT_CRC) &&
               crc32(crc32(0L, Z_NULL, 0),
                     (const Bytef *)(out->data ? out->data : ""),
                     (uInt)out->len) != st->crc) {
        snprintf(why, size, "its CRC-32 is not the one the archive says");
        rc = 2;
    }
    ZSTD_freeDStream(ds);
    zip_fclose(f);
    return rc;
}
