/*
 * driver: runs a fuzz harness without libFuzzer.  Each file named on the
 * command line is read whole into a buffer of its exact size and handed
 * to LLVMFuzzerTestOneInput, as libFuzzer does; a crash or abort() ends
 * the program (the sanitizers say where).  Exit status 0 when every file
 * was run, 2 when one could not be read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t len = 0, cap = 4096;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *more = realloc(data, cap *= 2);
            if (!more)
                free(data);
            data = more;
        }
    }
    int bad = ferror(f) || !data;
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: cannot read it\n", path);
        free(data);
        return -1;
    }
    /* exactly len bytes, so that a read past the end is caught */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(data);
        return -1;
    }
    memcpy(exact, data, len);
    free(data);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    int status = 0;
    for (int i = 1; i < argc; i++)
        if (run_file(argv[i]) < 0)
            status = 2;
    return status;
}
