/* replay hash: the file hash and contract hash of tool files. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "doc.h"

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
        if (load_doc(&d, path, &e) < 0) {
            char line[1600];
            err_format(&e, shown_path(path), line, sizeof line);
            say("%s", line);
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
