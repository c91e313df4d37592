/* live: the lines a live episode writes (see live.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE   /* flock */
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

char *live_episode_id(const char *path, const char *run, const char *tid)
{
    unsigned long highest = 0;
    size_t tl = strlen(tid);
    struct stat st; /* a regular file: not /dev/full, nor a FIFO */
    FILE *f = path && strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
                      S_ISREG(st.st_mode)
                  ? fopen(path, "rb")
                  : NULL;
    char *line = NULL;
    size_t cap = 0;
    arena *a = f ? arena_new() : NULL;
    while (a && getline(&line, &cap, f) > 0) {
        if (!strstr(line, tid))
            continue; /* most lines: no JSON read */
        value *v;
        err e;
        arena_reset(a);
        if (json_load(&v, a, line, strcspn(line, "\n"), &e) < 0)
            continue;
        const value *type = value_getz(v, "type"), *r = value_getz(v, "run"),
                    *ep = value_getz(v, "episode");
        if (!type || type->kind != V_STRING ||
            strcmp(type->u.str.ptr, "episode") != 0 || !r ||
            r->kind != V_STRING || strcmp(r->u.str.ptr, run) != 0 || !ep ||
            ep->kind != V_STRING || strncmp(ep->u.str.ptr, tid, tl) != 0)
            continue;
        const char *rest = ep->u.str.ptr + tl;
        char *end;
        unsigned long k = 1;
        if (*rest == '.' && rest[1] >= '1' && rest[1] <= '9')
            k = strtoul(rest + 1, &end, 10);
        else if (*rest)
            continue;
        else
            end = (char *)rest;
        if (*end == '\0' && k > highest)
            highest = k;
    }
    free(line);
    arena_free(a);
    if (f)
        fclose(f);
    char *id = malloc(tl + 24);
    if (id && highest == 0)
        memcpy(id, tid, tl + 1);
    else if (id)
        snprintf(id, tl + 24, "%s.%lu", tid, highest + 1);
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
                   const value *call, const char *sent, size_t sent_len,
                   const char *answer, size_t answer_len)
{
    int rc = head(b, "call", run, episode);
    rc |= buf_puts(b, ",\"call\":");
    size_t mark = b->len;
    err e;
    if (rc == 0 && (!call || canon_append(b, call, &e) < 0)) {
        if (!call)
            return rc | buf_append(b, sent, sent_len) |
                   buf_puts(b, ",\"answer\":") |
                   buf_append(b, answer, answer_len) | buf_putc(b, '}');
        if (e.code == ERR_NOMEM)
            return -1;
        b->len = mark; /* the call as sent */
        rc = buf_append(b, sent, sent_len);
    }
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

int live_append_episode(const char *path, const char *run, const char *tid,
                        int (*make)(void *ctx, const char *id, buf *out),
                        void *ctx, char **id)
{
    *id = NULL;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
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
    if (!(*id = live_episode_id(path, run, tid)) || make(ctx, *id, &out) < 0) {
        saved = ENOMEM;
        rc = -1;
    } else {
        struct stat st;
        off_t before = fstat(fd, &st) == 0 ? st.st_size : -1;
        if (write_all(fd, out.data, out.len) < 0) {
            saved = errno;
            rc = -1;
            /* nothing half-written: the file as it was (the lock is ours) */
            if (before >= 0 && ftruncate(fd, before) < 0)
                (void)0; /* not a regular file: nothing to take back */
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
