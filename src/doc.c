/* doc: see doc.h. */
#include "doc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canon.h"
#include "json_load.h"
#include "yaml_load.h"

void doc_free(doc *d)
{
    if (!d)
        return;
    arena_free(d->arena);
    buf_free(&d->canonical);
    free(d);
}

/* Whether the text starts like JSON: '{' or '[' after whitespace (and
 * after a UTF-8 byte order mark).  Decides which error to show when the
 * bytes are neither JSON nor YAML. */
static int looks_like_json(const char *p, size_t len)
{
    size_t i = 0;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
                       p[i] == '\r'))
        i++;
    return i < len && (p[i] == '{' || p[i] == '[');
}

int doc_parse(doc **out, const char *bytes, size_t len, err *e)
{
    *out = NULL;
    if (len > DOC_MAX_BYTES)
        return err_set(e, ERR_LIMIT,
                       "file is larger than the limit of %u MiB for a tool "
                       "file; split it or trim it",
                       DOC_MAX_BYTES >> 20);
    doc *d = calloc(1, sizeof *d);
    if (!d || !(d->arena = arena_new())) {
        free(d);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    if (sha256_hex(d->file_sha256, bytes, len) < 0) {
        doc_free(d);
        return err_set(e, ERR_NOMEM, "SHA-256 is not available from OpenSSL");
    }

    err json_err;
    err_clear(&json_err);
    if (json_load(&d->root, d->arena, bytes, len, &json_err) == 0) {
        d->syntax = DOC_JSON;
    } else if (json_err.code == ERR_NOMEM) {
        *e = json_err;
        doc_free(d);
        return -1;
    } else {
        /* A fresh arena: what the JSON attempt built is of no use. */
        arena_free(d->arena);
        if (!(d->arena = arena_new())) {
            free(d);
            return err_set(e, ERR_NOMEM, "out of memory");
        }
        err yaml_err;
        err_clear(&yaml_err);
        if (yaml_load(&d->root, d->arena, bytes, len, &yaml_err) < 0) {
            int json_first = looks_like_json(bytes, len) &&
                             yaml_err.code != ERR_NOMEM &&
                             json_err.code == ERR_SYNTAX;
            *e = json_first ? json_err : yaml_err;
            doc_free(d);
            return -1;
        }
        d->syntax = DOC_YAML;
    }

    if (canon_write(&d->canonical, d->root, e) < 0) {
        doc_free(d);
        return -1;
    }
    /* Large objects ($defs, components) are looked up by key from here
     * on, every $ref a lookup: indexed once, not scanned each time. */
    if (value_index(d->root, d->arena) < 0) {
        doc_free(d);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    if (sha256_hex(d->contract_sha256, d->canonical.data,
                   d->canonical.len) < 0) {
        doc_free(d);
        return err_set(e, ERR_NOMEM, "SHA-256 is not available from OpenSSL");
    }
    *out = d;
    return 0;
}

static int load(doc **out, const char *path, int regular, err *e)
{
    *out = NULL;
    /* not blocking on a FIFO while its kind is looked at */
    int fd = open(path, O_RDONLY | O_CLOEXEC | (regular ? O_NONBLOCK : 0));
    if (fd < 0)
        return err_set(e, ERR_IO, "cannot open: %s", strerror(errno));
    struct stat st;
    if (regular && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        return err_set(e, ERR_IO, "is not a regular file (a folder, a FIFO "
                                  "or a device); name the tool file itself");
    }
    if (regular)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return err_set(e, ERR_NOMEM, "out of memory opening the file");
    }
    buf b = BUF_INIT;
    char chunk[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + n > DOC_MAX_BYTES) {
            rc = err_set(e, ERR_LIMIT,
                         "file is larger than the limit of %u MiB for a tool "
                         "file; split it or trim it",
                         DOC_MAX_BYTES >> 20);
            break;
        }
        if (buf_append(&b, chunk, n) < 0) {
            rc = err_set(e, ERR_NOMEM, "out of memory reading the file");
            break;
        }
    }
    if (rc == 0 && ferror(f))
        rc = err_set(e, ERR_IO, "cannot read: %s", strerror(errno));
    fclose(f);
    if (rc == 0)
        rc = doc_parse(out, b.data ? b.data : "", b.len, e);
    buf_free(&b);
    return rc;
}

int doc_load_file(doc **out, const char *path, err *e)
{
    return load(out, path, 0, e);
}

int doc_load_regular_file(doc **out, const char *path, err *e)
{
    return load(out, path, 1, e);
}
