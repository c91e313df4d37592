/* live: the lines a live episode writes (see live.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE   /* flock, getentropy */
#include "live.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canon.h"
#include "json_load.h"

FILE *live_open_output(const char *path, const char *mode)
{
    struct stat a, b;
    if (strcmp(path, "-") == 0 ||
        (stat(path, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 &&
         a.st_dev == b.st_dev && a.st_ino == b.st_ino))
        return stdout;
    return fopen(path, mode);
}

int live_close_output(FILE *f)
{
    return f == stdout ? fflush(f) : fclose(f);
}

char *live_relative_to(const char *path, const char *from)
{
    char target[PATH_MAX], base[PATH_MAX], dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", from);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    if (!realpath(path, target) || !realpath(dir, base))
        return NULL;
    size_t common = 0, i = 0;
    for (; target[i] && target[i] == base[i]; i++)
        if (target[i] == '/')
            common = i;
    if (base[i] == '\0' && target[i] == '/')
        common = i;
    else if (base[i] == '\0' && strcmp(base, "/") == 0)
        common = 0;
    buf out = BUF_INIT;
    /* one ".." for each folder of base past the common part */
    for (const char *p = base + common; *p; p++)
        if (*p == '/' && p[1])
            buf_puts(&out, "../");
    buf_puts(&out, target + common + 1);
    if (buf_putc(&out, '\0') < 0) {
        buf_free(&out);
        return NULL;
    }
    return out.data;
}

static int note_new_lines(live_ids *ids, int fd);

char *live_episode_id(const char *path, const char *run, const char *tid)
{
    live_ids ids;
    if (live_ids_init(&ids, run) < 0)
        return NULL;
    struct stat st; /* a regular file: not /dev/full, nor a FIFO */
    int fd = path && strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
                     S_ISREG(st.st_mode)
                 ? open(path, O_RDONLY | O_CLOEXEC)
                 : -1;
    char *id = fd < 0 || note_new_lines(&ids, fd) == 0
                   ? live_ids_take(&ids, tid)
                   : NULL;
    if (fd >= 0)
        close(fd);
    live_ids_free(&ids);
    return id;
}

static int put_str(buf *b, const char *s)
{
    return canon_write_string(b, s, strlen(s));
}

/* {"type":"KIND","run":R[,"episode":E] */
static int head(buf *b, const char *kind, const char *run,
                const char *episode)
{
    int rc = buf_printf(b, "{\"type\":\"%s\",\"run\":", kind);
    rc |= put_str(b, run);
    if (episode) {
        rc |= buf_puts(b, ",\"episode\":");
        rc |= put_str(b, episode);
    }
    return rc;
}

int live_run_line(buf *b, const char *run, const char *tools,
                  const char *sha256, const char *model)
{
    int rc = head(b, "run", run, NULL);
    rc |= buf_puts(b, ",\"tools\":");
    rc |= put_str(b, tools);
    rc |= buf_printf(b, ",\"tools_sha256\":\"%s\"", sha256);
    if (model) {
        rc |= buf_puts(b, ",\"model\":");
        rc |= put_str(b, model);
    }
    return rc | buf_putc(b, '}');
}

int live_episode_line(buf *b, const char *run, const char *episode,
                      const task *t)
{
    char arm_text[ARM_ID_MAX];
    arm_id(&t->arm, arm_text);
    int rc = head(b, "episode", run, episode);
    return rc | buf_printf(b, ",\"seed\":%llu,\"arm\":\"%s\"}",
                           (unsigned long long)t->seed, arm_text);
}

int live_call_line(buf *b, const char *run, const char *episode,
                   const char *call, size_t call_len, const char *answer,
                   size_t answer_len)
{
    int rc = head(b, "call", run, episode);
    rc |= buf_puts(b, ",\"call\":");
    rc |= buf_append(b, call, call_len);
    rc |= buf_puts(b, ",\"answer\":");
    rc |= buf_append(b, answer, answer_len);
    return rc | buf_putc(b, '}');
}

int live_end_line(buf *b, const char *run, const char *episode,
                  const char *status)
{
    int rc = head(b, "end", run, episode);
    rc |= buf_puts(b, ",\"status\":");
    rc |= put_str(b, status);
    return rc | buf_putc(b, '}');
}

int live_report_call(buf *b, const char *episode, unsigned call,
                     unsigned long line, const task *t, const sim_result *r)
{
    int rc = buf_putc(b, '{');
    if (episode) {
        rc |= buf_puts(b, "\"episode\":");
        rc |= put_str(b, episode);
        rc |= buf_putc(b, ',');
    }
    rc |= buf_printf(b, "\"call\":%u", call);
    if (line)
        rc |= buf_printf(b, ",\"line\":%lu", line);
    rc |= buf_puts(b, ",\"tool\":");
    rc |= r->tool ? put_str(b, r->tool->name) : buf_puts(b, "null");
    rc |= buf_printf(b, ",\"step\":%d,\"effect\":\"%s\",\"error\":", r->step,
                     effect_name(r->effect));
    rc |= r->error >= 0
              ? buf_printf(b, "\"%s\"",
                           sim_error_code((enum sim_error)r->error))
              : buf_puts(b, "null");
    rc |= buf_puts(b, ",\"dial\":");
    rc |= r->event >= 0
              ? buf_printf(b, "\"%s\"", knob_name(t->events[r->event].dial))
              : buf_puts(b, "null");
    return rc | buf_putc(b, '}');
}

int live_report_verdict(buf *b, const char *episode, const task *t,
                        const sim_verdict *v)
{
    arena *a = arena_new();
    value *jv = a ? sim_verdict_value(a, t, v) : NULL;
    err e;
    int rc = jv ? buf_putc(b, '{') : -1;
    if (rc == 0 && episode) {
        rc |= buf_puts(b, "\"episode\":");
        rc |= put_str(b, episode);
        rc |= buf_putc(b, ',');
    }
    if (rc == 0)
        rc = buf_puts(b, "\"verdict\":") | canon_append(b, jv, &e) |
             buf_putc(b, '}');
    arena_free(a);
    return rc;
}

int live_verdict_summary(buf *b, const task *t, const sim_verdict *v)
{
    int rc = buf_printf(
        b, "%u call%s; %s, %s (%u side effect%s, %u duplicate write%s)",
        v->calls, v->calls == 1 ? "" : "s",
        v->reached ? "reached" : "not reached",
        v->pass ? "a pass" : "not a pass", v->side_effects,
        v->side_effects == 1 ? "" : "s", v->duplicates,
        v->duplicates == 1 ? "" : "s");
    for (int i = 0; i < v->nevents; i++)
        rc |= buf_printf(b, "%s %s %s", i ? "," : ";",
                         knob_name(t->events[i].dial),
                         outcome_name(v->events[i].outcome));
    return rc;
}

/* Writes all len bytes at p to fd: 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int live_ids_init(live_ids *ids, const char *run)
{
    memset(ids, 0, sizeof *ids);
    ids->run = run;
    /* ids come from a file anyone may write: a secret seed for the map */
    return getentropy(&ids->highest.seed, sizeof ids->highest.seed);
}

void live_ids_free(live_ids *ids)
{
    keymap_free(&ids->highest);
}

char *live_ids_take(live_ids *ids, const char *tid)
{
    size_t tl = strlen(tid), highest = 0;
    keymap_get(&ids->highest, tid, tl, &highest);
    char *id = malloc(tl + 24);
    if (id && highest == 0)
        memcpy(id, tid, tl + 1);
    else if (id)
        snprintf(id, tl + 24, "%s.%lu", tid, (unsigned long)highest + 1);
    if (id && keymap_put(&ids->highest, tid, tl, highest + 1) < 0) {
        free(id);
        id = NULL;
    }
    return id;
}

/* Notes the episode id of one transcript line (len bytes, then a NUL),
 * when it is an episode line of ids' run: 0, or -1 out of memory. */
static int note_line(live_ids *ids, arena *a, const char *line, size_t len)
{
    value *v;
    err e;
    err_clear(&e);
    arena_reset(a);
    if (!strstr(line, "episode") ||
        json_load(&v, a, line, len, &e) < 0)
        return e.code == ERR_NOMEM ? -1 : 0;
    const value *type = value_getz(v, "type"), *r = value_getz(v, "run"),
                *ep = value_getz(v, "episode");
    if (!type || type->kind != V_STRING ||
        strcmp(type->u.str.ptr, "episode") != 0 || !r ||
        r->kind != V_STRING || strcmp(r->u.str.ptr, ids->run) != 0 || !ep ||
        ep->kind != V_STRING)
        return 0;
    const char *id = ep->u.str.ptr, *dot = strrchr(id, '.');
    size_t base = ep->u.str.len;
    unsigned long n = 1;
    if (dot && dot[1] >= '1' && dot[1] <= '9' &&
        strspn(dot + 1, "0123456789") == strlen(dot + 1) &&
        strlen(dot + 1) < 10) {
        n = strtoul(dot + 1, NULL, 10);
        base = (size_t)(dot - id);
    }
    size_t had;
    if (keymap_get(&ids->highest, id, base, &had) && had >= n)
        return 0;
    return keymap_put(&ids->highest, id, base, n);
}

/* Reads what fd holds past ids->read, noting its episode ids; a file that
 * shrank or is another file is read from its start.  0, or -1. */
static int note_new_lines(live_ids *ids, int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -1;
    if ((unsigned long long)st.st_dev != ids->dev ||
        (unsigned long long)st.st_ino != ids->ino || st.st_size < ids->read) {
        keymap_free(&ids->highest);
        uint64_t seed = ids->highest.seed;
        memset(&ids->highest, 0, sizeof ids->highest);
        ids->highest.seed = seed;
        ids->read = 0;
        ids->dev = (unsigned long long)st.st_dev;
        ids->ino = (unsigned long long)st.st_ino;
    }
    arena *a = arena_new();
    buf line = BUF_INIT;
    char chunk[65536];
    long long at = ids->read;
    int rc = a ? 0 : -1;
    while (rc == 0 && at < st.st_size) {
        ssize_t n = pread(fd, chunk, sizeof chunk, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (ssize_t i = 0; rc == 0 && i < n;) {
            const char *nl = memchr(chunk + i, '\n', (size_t)(n - i));
            size_t part = nl ? (size_t)(nl - (chunk + i)) : (size_t)(n - i);
            rc = buf_append(&line, chunk + i, part);
            i += (ssize_t)part;
            if (!nl || rc < 0)
                continue;
            i++; /* the newline: the line is whole */
            rc = buf_putc(&line, '\0');
            if (rc == 0)
                rc = note_line(ids, a, line.data, line.len - 1);
            ids->read = at + i;
            buf_reset(&line);
        }
        at += n;
    }
    buf_free(&line);
    arena_free(a);
    return rc;
}

int live_append_episode(const char *path, live_ids *ids, const char *tid,
                        int (*make)(void *ctx, const char *id, buf *out),
                        void *ctx, char **id)
{
    *id = NULL;
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EACCES) /* a file to append to, not to read */
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    int rc = 0, saved = 0;
    while ((rc = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
        ;
    if (rc < 0 && errno != ENOLCK && errno != EOPNOTSUPP &&
        errno != EINVAL) {
        saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    buf out = BUF_INIT;
    rc = 0;
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if ((regular && note_new_lines(ids, fd) < 0) ||
        !(*id = live_ids_take(ids, tid)) || make(ctx, *id, &out) < 0)
        saved = ENOMEM, rc = -1;
    if (rc == 0) {
        off_t before = regular ? lseek(fd, 0, SEEK_END) : -1;
        if (write_all(fd, out.data, out.len) < 0) {
            saved = errno;
            rc = -1;
            /* nothing half-written: the file as it was (the lock is ours) */
            if (before >= 0 && ftruncate(fd, before) < 0)
                (void)0; /* cannot be cut: said by the caller all the same */
        }
    }
    buf_free(&out);
    if (close(fd) < 0 && rc == 0) { /* the lock goes with the file */
        saved = errno;
        rc = -1;
    }
    if (rc < 0) {
        free(*id);
        *id = NULL;
        errno = saved;
    }
    return rc;
}
