/* input: a tool file named on the command line, "-" being standard input. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "utf8.h"

static int read_stdin(buf *b, err *e)
{
    char chunk[65536];
    ssize_t n;
    while ((n = read(0, chunk, sizeof chunk)) > 0) {
        if (b->len + (size_t)n > DOC_MAX_BYTES)
            return err_set(e, ERR_LIMIT,
                           "input is larger than the limit of %u MiB for a "
                           "tool file; split it or trim it",
                           DOC_MAX_BYTES >> 20);
        if (buf_append(b, chunk, (size_t)n) < 0)
            return err_set(e, ERR_NOMEM, "out of memory reading input");
    }
    if (n < 0)
        return err_set(e, ERR_IO, "cannot read standard input");
    return 0;
}

int load_doc(doc **d, const char *path, err *e)
{
    if (strcmp(path, "-") != 0)
        return doc_load_file(d, path, e);
    buf b = BUF_INIT;
    int rc = read_stdin(&b, e);
    if (rc == 0)
        rc = doc_parse(d, b.data ? b.data : "", b.len, e);
    buf_free(&b);
    return rc;
}

void fput_shown(FILE *f, const char *text)
{
    buf b = BUF_INIT;
    utf8_shown(&b, text, strlen(text), (size_t)-1);
    if (!b.failed && b.len)
        fwrite(b.data, 1, b.len, f);
    buf_free(&b);
}

const char *shown_path(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

int load_tools(const char *path, doc **d, toolset **ts)
{
    err e;
    err_clear(&e);
    *d = NULL;
    *ts = NULL;
    if (load_doc(d, path, &e) < 0 || toolset_build(ts, *d, &e) < 0) {
        char line[1600];
        err_format(&e, shown_path(path), line, sizeof line);
        fprintf(stderr, "%s\n", line);
        doc_free(*d);
        *d = NULL;
        return -1;
    }
    return 0;
}
