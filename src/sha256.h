/*
 * sha256: SHA-256 through OpenSSL's EVP interface.  The digest is fetched
 * from the default provider once per process (guarded by pthread_once, the
 * module's only state) and reused.
 */
#ifndef TR_SHA256_H
#define TR_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

/* Writes the lower-case hex digest of data into hex (65 bytes with NUL).
 * Returns 0, or -1 when OpenSSL fails. */
int sha256_hex(char hex[SHA256_HEX_LEN + 1], const void *data, size_t len);

#endif
