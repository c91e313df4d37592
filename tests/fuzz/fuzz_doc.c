/*
 * fuzz_doc: the input bytes as a tool file (doc_parse: JSON, else YAML),
 * hashed.  Checks that nothing crashes, leaks or reads out of bounds, and
 * that the contract hash is stable: when the bytes hash, their canonical
 * text (canon.h) parses again to the same contract hash and the same
 * canonical text.  A difference is a real finding: abort().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    doc *d = NULL, *again = NULL;
    err e;
    err_clear(&e);
    if (doc_parse(&d, (const char *)data, size, &e) < 0)
        return 0;
    /* canonical text past the file limit cannot be read back as a file */
    if (d->contract_sha256[0] && d->canonical.len <= DOC_MAX_BYTES) {
        err_clear(&e);
        if (doc_parse(&again, d->canonical.data ? d->canonical.data : "",
                      d->canonical.len, &e) < 0)
            abort(); /* the canonical text is not a tool file */
        if (strcmp(again->contract_sha256, d->contract_sha256) != 0 ||
            again->canonical.len != d->canonical.len ||
            memcmp(again->canonical.data, d->canonical.data,
                   d->canonical.len) != 0)
            abort(); /* the contract hash moved */
    }
    doc_free(again);
    doc_free(d);
    return 0;
}
