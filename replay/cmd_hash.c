/* replay hash: the file hash and contract hash of tool files. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "doc.h"

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

static int load(doc **d, const char *path, err *e)
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

int cmd_hash(int argc, char **argv)
{
    int canonical = 0, nfiles = 0, status = 0, opts_done = 0;
    for (int i = 0; i < argc; i++) {
        if (!opts_done && strcmp(argv[i], "--") == 0)
            opts_done = 1;
        else if (!opts_done && strcmp(argv[i], "--canonical") == 0)
            canonical = 1;
        else if (!opts_done && argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("hash: unknown option '%s'", argv[i]);
        else
            nfiles++;
    }
    if (nfiles == 0)
        return usage_error("hash: no FILE given");

    opts_done = 0;
    for (int i = 0; i < argc; i++) {
        if (!opts_done && strcmp(argv[i], "--") == 0) {
            opts_done = 1;
            continue;
        }
        if (!opts_done && strcmp(argv[i], "--canonical") == 0)
            continue;
        const char *path = argv[i];
        doc *d = NULL;
        err e;
        err_clear(&e);
        if (load(&d, path, &e) < 0) {
            char line[1600];
            err_format(&e, strcmp(path, "-") == 0 ? "<stdin>" : path, line,
                       sizeof line);
            fprintf(stderr, "%s\n", line);
            status = EXIT_REFUSED;
            continue;
        }
        if (canonical) {
            fwrite(d->canonical.data, 1, d->canonical.len, stdout);
            putchar('\n');
        } else {
            printf("%s  %s  %s\n", d->file_sha256, d->contract_sha256, path);
        }
        doc_free(d);
    }
    if (fflush(stdout) != 0) {
        perror("replay: writing output");
        return EXIT_REFUSED;
    }
    return status;
}
