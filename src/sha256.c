/* sha256: see sha256.h. */
#include "sha256.h"

#include <openssl/evp.h>
#include <pthread.h>

static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;
static EVP_MD *sha256_md; /* set once by fetch_digest, never changed after */

static void fetch_digest(void)
{
    sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

int sha256_hex(char hex[SHA256_HEX_LEN + 1], const void *data, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;

    if (pthread_once(&fetch_once, fetch_digest) != 0 || !sha256_md)
        return -1;
    if (!EVP_Digest(data, len, md, &mdlen, sha256_md, NULL) || mdlen != 32)
        return -1;
    for (unsigned i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[SHA256_HEX_LEN] = '\0';
    return 0;
}
