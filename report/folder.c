/* folder: see folder.h. */
#include "folder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "html.h"
#include "sha256.h"

/* dir/name (and suffix) in out; -1 when it does not fit. */
static int path_of(char *out, size_t size, const char *dir, const char *name,
                   const char *suffix)
{
    int n = snprintf(out, size, "%s/%s%s", dir, name, suffix);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int folder_make(const char *dir, err *e)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        return err_set(e, ERR_IO, "%s: is not a folder", dir);
    }
    if (errno != ENOENT || mkdir(dir, 0777) != 0)
        return err_set(e, ERR_IO, "%s: cannot make the folder: %s", dir,
                       strerror(errno));
    return 0;
}

/* Whether the regular file at path begins as card's pages do. */
static int begins_as_page(const char *path, int *there)
{
    static const char start[] = HTML_PAGE_START;
    char head[sizeof start];
    struct stat st;
    *there = lstat(path, &st) == 0;
    if (!*there || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof start - 1, f);
    fclose(f);
    return n == sizeof start - 1 && memcmp(head, start, n) == 0;
}

int folder_is_page(const char *dir, const char *name, int *there)
{
    char path[4200];
    *there = 0;
    if (path_of(path, sizeof path, dir, name, "") < 0)
        return 0;
    return begins_as_page(path, there);
}

/* The part of a name a file name keeps: letters, digits, "-" and "_",
 * anything else a "-", runs of "-" one, none at either end, at most max
 * bytes; "x" when nothing is left. */
static void slug(buf *out, const char *name, size_t max)
{
    size_t start = out->len, n = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && n < max;
         p++) {
        int keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                   (*p >= '0' && *p <= '9') || *p == '_';
        char c = keep ? (char)*p : '-';
        if (c == '-' && (n == 0 || out->data[out->len - 1] == '-'))
            continue;
        buf_putc(out, c);
        n++;
    }
    while (out->len > start && out->data[out->len - 1] == '-')
        out->data[--out->len] = '\0';
    if (out->len == start)
        buf_putc(out, 'x');
}

void folder_page_name(buf *out, const char *prefix, const char *a,
                      const char *b)
{
    buf names = BUF_INIT;
    char hex[SHA256_HEX_LEN + 1];
    buf_append(&names, a, strlen(a) + 1);
    if (b)
        buf_append(&names, b, strlen(b) + 1);
    buf_printf(out, "%s-", prefix);
    slug(out, a, 40);
    if (b) {
        buf_puts(out, strcmp(prefix, "compare") == 0 ? "-vs-" : "-");
        slug(out, b, 40);
    }
    if (names.failed || sha256_hex(hex, names.data, names.len) < 0)
        out->failed = 1;
    else
        buf_printf(out, "-%.10s.html", hex);
    buf_free(&names);
}

struct named {
    const buf *name;
    size_t at; /* its place in the array */
};

static int by_name_then_place(const void *x, const void *y)
{
    const struct named *a = x, *b = y;
    int c = strcmp(a->name->data, b->name->data);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

int folder_names_distinct(buf *names, size_t n)
{
    struct named *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (names[i].len)
            v[k++] = (struct named){&names[i], i};
    qsort(v, k, sizeof *v, by_name_then_place);
    int rc = 0;
    /* the first of equal names keeps it (and is never changed, so the
     * names after it are compared with it); each later one a suffix */
    for (size_t i = 1, first = 0, same = 1; i < k; i++) {
        if (strcmp(v[i].name->data, v[first].name->data) != 0) {
            first = i;
            same = 1;
            continue;
        }
        buf *b = &names[v[i].at];
        size_t stem = b->len - strlen(".html");
        char tail[32];
        snprintf(tail, sizeof tail, "-%zu.html", ++same);
        b->len = stem;
        b->data[stem] = '\0';
        if (buf_puts(b, tail) < 0)
            rc = -1;
    }
    free(v);
    return rc;
}

int folder_write(const char *dir, const char *name, const buf *page, err *e)
{
    char path[4200], tmp[4210];
    if (path_of(path, sizeof path, dir, name, "") < 0 ||
        path_of(tmp, sizeof tmp, dir, name, ".tmp") < 0)
        return err_set(e, ERR_IO, "%s: the path is too long", dir);
    if (page->failed)
        return err_set(e, ERR_NOMEM, "out of memory");
    /* made afresh, never through a link someone left with its name */
    if (unlink(tmp) != 0 && errno != ENOENT)
        return err_set(e, ERR_IO, "cannot write %s: %s", path,
                       strerror(errno));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    int ok = f && fwrite(page->data, 1, page->len, f) == page->len;
    int saved = errno;
    if (f && fclose(f) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = 0;
        saved = errno;
    }
    if (!ok) {
        if (fd >= 0)
            remove(tmp);
        return err_set(e, ERR_IO, "cannot write %s: %s", path,
                       strerror(saved));
    }
    return 0;
}

/* Whether name is one a page of card's may have: index.html,
 * run-*.html, compare-*.html, episode-*.html, or one of those and
 * ".tmp". */
static int page_name(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".tmp") == 0)
        n -= 4;
    if (n < 5 || strncmp(name + n - 5, ".html", 5) != 0)
        return 0;
    return (n == 10 && strncmp(name, "index", 5) == 0) ||
           strncmp(name, "run-", 4) == 0 ||
           strncmp(name, "compare-", 8) == 0 ||
           strncmp(name, "episode-", 8) == 0;
}

int folder_sweep(const char *dir, char *const *keep, size_t nkeep,
                 size_t *removed, err *e)
{
    *removed = 0;
    DIR *d = opendir(dir);
    if (!d)
        return err_set(e, ERR_IO, "%s: cannot read the folder: %s", dir,
                       strerror(errno));
    int rc = 0;
    struct dirent *ent;
    errno = 0;
    while ((ent = readdir(d))) {
        const char *name = ent->d_name;
        if (!page_name(name))
            continue;
        int kept = 0;
        for (size_t i = 0; i < nkeep && !kept; i++)
            kept = strcmp(keep[i], name) == 0;
        int there;
        if (kept || !folder_is_page(dir, name, &there))
            continue;
        char path[4200];
        if (path_of(path, sizeof path, dir, name, "") < 0)
            continue;
        if (unlink(path) != 0) {
            rc = err_set(e, ERR_IO, "cannot remove %s: %s", path,
                         strerror(errno));
            break;
        }
        if (strcmp(name + strlen(name) - 5, ".html") == 0)
            (*removed)++;
        errno = 0;
    }
    if (rc == 0 && errno != 0)
        rc = err_set(e, ERR_IO, "%s: cannot read the folder: %s", dir,
                     strerror(errno));
    closedir(d);
    return rc;
}
