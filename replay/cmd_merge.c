/* replay merge OUT.db SHARD.db...: the shards of a night, replayed apart
 * (replay --shard I/N), into one database, as one replay would have
 * written it; merging again, or a shard twice, changes nothing.
 *
 * A new OUT is built as OUT.partial, without SQLite's journal (each page
 * written once instead of twice), synced, and renamed to OUT once every
 * shard is in: a merge that fails or is killed leaves no OUT, and running
 * it again starts afresh.  Into an OUT that exists, each shard is merged
 * in a transaction of its own.
 *
 * A shard is trusted for its rows only (db.h, db_check_shard): before
 * anything is created or written, every shard is opened read-only and
 * checked to be a results database exactly as this replay makes it; one
 * that is missing, unreadable or anything else refuses the whole merge,
 * in one line that names it.
 *
 * Files are told apart by what they are (device and inode), not by how
 * they are named: OUT named again as a shard (./OUT, a link to it) is the
 * output, skipped as such; a shard that is OUT.partial, where a new OUT
 * is built and which is removed first, is refused. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "db.h"

/* Removes the database at path and SQLite's files beside it. */
static void remove_db(const char *path)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    size_t n = strlen(path);
    char *name = malloc(n + sizeof "-journal");
    if (!name)
        return;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        memcpy(name, path, n);
        strcpy(name + n, ext[i]);
        unlink(name);
    }
    free(name);
}

/* Syncs a file, or a folder's entries, to disk; -1 with e set. */
static int sync_path(const char *path, err *e)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        int why = errno;
        if (fd >= 0)
            close(fd);
        return err_set(e, ERR_IO, "%s: cannot sync it to disk: %s", path,
                       strerror(why));
    }
    close(fd);
    return 0;
}

/* Puts the finished path in place as out, durably; -1 with e set. */
static int put_in_place(const char *path, const char *out, err *e)
{
    if (sync_path(path, e) < 0)
        return -1;
    if (rename(path, out) != 0)
        return err_set(e, ERR_IO, "%s: cannot rename it to %s: %s", path, out,
                       strerror(errno));
    char *dir = strdup(out);
    if (!dir)
        return err_set(e, ERR_NOMEM, "out of memory");
    char *slash = strrchr(dir, '/');
    const char *folder = slash ? (slash == dir ? "/" : dir) : ".";
    if (slash && slash != dir)
        *slash = '\0';
    int rc = sync_path(folder, e);
    free(dir);
    return rc;
}

/* Whether path names the file that st describes (have_st: there is one). */
static int same_file(const char *path, const struct stat *st, int have_st)
{
    struct stat other;
    return have_st && stat(path, &other) == 0 && other.st_dev == st->st_dev &&
           other.st_ino == st->st_ino;
}

/* The shards' checks (db_check_shard), made by as many threads as the
 * machine has cores, up to one a shard: each reads its shard whole. */
struct checks {
    pthread_mutex_t lock;
    int next, end;    /* the next argument to check; past the last */
    char **argv;
    const char *skip; /* nonzero for the arguments not to check */
    err *errs;        /* each argument's error; code 0 when it passed */
};

static void *check_some(void *arg)
{
    struct checks *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int i = c->next < c->end ? c->next++ : -1;
        pthread_mutex_unlock(&c->lock);
        if (i < 0)
            return NULL;
        if (!c->skip[i])
            db_check_shard(c->argv[i], &c->errs[i]);
    }
}

/* Checks argv[first..argc) but those skip marks, in threads; the first
 * in their order that fails is said and -1 returned; else 0. */
static int check_shards(int argc, char **argv, int first, const char *skip)
{
    struct checks c = {.next = first, .end = argc, .argv = argv,
                       .skip = skip};
    c.errs = calloc((size_t)argc, sizeof *c.errs);
    if (!c.errs || pthread_mutex_init(&c.lock, NULL) != 0) {
        free(c.errs);
        say("replay: out of memory");
        return -1;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int want = (int)(cores < 1 ? 1 : cores > 16 ? 16 : cores);
    if (want > argc - first)
        want = argc - first;
    pthread_t t[16];
    int started = 0;
    while (started < want - 1 &&
           pthread_create(&t[started], NULL, check_some, &c) == 0)
        started++;
    check_some(&c); /* this thread too, and alone if none could start */
    for (int k = 0; k < started; k++)
        pthread_join(t[k], NULL);
    pthread_mutex_destroy(&c.lock);
    int rc = 0;
    for (int i = first; i < argc && rc == 0; i++)
        if (c.errs[i].code) {
            say("replay merge: %s", c.errs[i].msg);
            rc = -1;
        }
    free(c.errs);
    return rc;
}

/* Opens the database being merged into: path; fresh, built as new. */
static int open_out(db **d, const char *path, int fresh, err *e)
{
    if (db_open_merge(d, path, e) < 0)
        return -1;
    if (fresh && db_build_begin(*d, e) < 0) {
        db_close(*d, NULL);
        *d = NULL;
        return -1;
    }
    return 0;
}

int cmd_merge(int argc, char **argv)
{
    int quiet = 0, first = 0;
    while (first < argc && argv[first][0] == '-' && argv[first][1]) {
        if (strcmp(argv[first], "--quiet") != 0)
            return usage_error("merge: unknown option '%s'", argv[first]);
        quiet = 1;
        first++;
    }
    if (argc - first < 2)
        return usage_error("merge: give the database to write and the "
                           "shards to merge into it: replay merge OUT.db "
                           "SHARD.db...");
    const char *out = argv[first];
    err e;
    err_clear(&e);
    struct stat out_st, partial_st;
    int have_out = stat(out, &out_st) == 0;
    char *partial = malloc(strlen(out) + sizeof ".partial");
    if (!partial) {
        say("replay: out of memory");
        return EXIT_CANNOT;
    }
    strcpy(partial, out);
    strcat(partial, ".partial");
    int have_partial = stat(partial, &partial_st) == 0;
    /* the output, as named or as another name for the same file */
    char *is_out = calloc((size_t)argc, 1);
    if (!is_out) {
        free(partial);
        say("replay: out of memory");
        return EXIT_CANNOT;
    }
    for (int i = first + 1; i < argc; i++)
        is_out[i] = strcmp(argv[i], out) == 0 ||
                    same_file(argv[i], &out_st, have_out);
    for (int i = first + 1; i < argc; i++) {
        if (is_out[i])
            continue;
        if (strcmp(argv[i], partial) == 0 ||
            same_file(argv[i], &partial_st, have_partial)) {
            say("replay merge: %s: it is where a merge into %s is built, "
                "and is removed first; rename it to merge it",
                argv[i], out);
            free(is_out);
            free(partial);
            return EXIT_CANNOT;
        }
    }
    if (check_shards(argc, argv, first + 1, is_out) < 0) {
        free(is_out);
        free(partial);
        return EXIT_CANNOT;
    }
    int fresh = access(out, F_OK) != 0 && errno == ENOENT;
    if (fresh)
        remove_db(partial); /* a merge killed before */
    const char *path = fresh ? partial : out;
    db *d = NULL;
    int status = 0;
    if (open_out(&d, path, fresh, &e) < 0) {
        say("replay: %s", e.msg);
        status = EXIT_CANNOT;
        goto end;
    }
    db_merge_counts all = {0};
    int merged = 0;
    for (int i = first + 1; i < argc; i++) {
        db_merge_counts c;
        if (is_out[i]) {
            say("replay: merge: %s is the output; skipped", argv[i]);
            continue;
        }
        int copy = db_is_empty(d);
        if (copy) { /* an empty database: the shard copied whole */
            if (db_copy_from(d, argv[i], &e) < 0) {
                say("replay: %s", e.msg);
                status = EXIT_CANNOT;
                break;
            }
            db_close(d, NULL);
            if (open_out(&d, path, fresh, &e) < 0) {
                say("replay: %s", e.msg);
                status = EXIT_CANNOT;
                goto end;
            }
            c = (db_merge_counts){0};
            c.episodes = c.added = db_count_episodes(d);
        } else if (db_merge(d, argv[i], &c, &e) < 0) {
            say("replay: %s", e.msg);
            status = EXIT_CANNOT;
            break;
        }
        if (!quiet)
            say("replay: merged %s: %lu episodes (%lu new, %lu "
                "replaced, %lu unchanged)",
                argv[i], c.episodes, c.added, c.replaced, c.unchanged);
        all.episodes += c.episodes;
        all.added += c.added;
        all.replaced += c.replaced;
        all.unchanged += c.unchanged;
        merged++;
    }
    if (status == 0 && fresh && db_build_end(d, &e) < 0) {
        say("replay: %s", e.msg);
        status = EXIT_CANNOT;
    }
    if (db_close(d, &e) < 0 && status == 0) {
        say("replay: %s", e.msg);
        status = EXIT_CANNOT;
    }
    d = NULL;
    if (status == 0 && fresh && put_in_place(partial, out, &e) < 0) {
        say("replay: %s", e.msg);
        status = EXIT_CANNOT;
    }
    if (status == 0 && !quiet)
        say("replay: %d shard%s into %s: %lu episodes (%lu new, "
            "%lu replaced, %lu unchanged)",
            merged, merged == 1 ? "" : "s", out,
            all.episodes, all.added, all.replaced, all.unchanged);
end:
    db_close(d, NULL);
    if (status != 0 && fresh)
        remove_db(partial); /* no OUT, rather than part of one */
    free(partial);
    free(is_out);
    return status;
}
