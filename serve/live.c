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
#include "transcript.h"

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

int live_episode_id(char id[LIVE_ID_SIZE], const char *tid)
{
    unsigned char raw[6];
    if (getentropy(raw, sizeof raw) < 0)
        return -1;
    int n = snprintf(id, LIVE_ID_SIZE, "%.40s-", tid);
    for (size_t i = 0; i < sizeof raw; i++)
        n += snprintf(id + n, (size_t)(LIVE_ID_SIZE - n), "%02x", raw[i]);
    return 0;
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

size_t live_call_line_size(const char *run, const char *episode,
                           size_t call_len, size_t answer_len)
{
    buf b = BUF_INIT;
    size_t n = live_call_line(&b, run, episode, "", 0, "", 0) < 0
                   ? SIZE_MAX
                   : b.len + call_len + answer_len;
    buf_free(&b);
    return n;
}

/* How deep the JSON text (len bytes) nests: its most arrays and objects
 * open at once (what is inside its strings not counted). */
static unsigned text_depth(const char *p, size_t len)
{
    unsigned depth = 0, most = 0;
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        char c = p[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '[' || c == '{') {
            if (++depth > most)
                most = depth;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return most;
}

int live_call_fits(const char *run, const char *episode, const char *call,
                   size_t len, buf *why)
{
    size_t size = live_call_line_size(run, episode, len, 0);
    if (size == SIZE_MAX)
        return -1;
    if (size > LIVE_CALL_MAX)
        return buf_printf(why,
                          "the call takes %zu bytes of its transcript line, "
                          "more than the %u MiB a call may (the line, "
                          "answer included, must stay within the %u MiB "
                          "replay reads); send smaller arguments",
                          size, LIVE_CALL_MAX >> 20,
                          TRANSCRIPT_LINE_LIMIT >> 20) < 0
                   ? -1
                   : 0;
    /* the call sits one level inside its line */
    unsigned depth = text_depth(call, len) + 1;
    if (depth > VALUE_MAX_DEPTH)
        return buf_printf(why,
                          "the call nests %u levels deep in its transcript "
                          "line, deeper than the %d replay reads; send "
                          "arguments nested less deeply",
                          depth, VALUE_MAX_DEPTH) < 0
                   ? -1
                   : 0;
    return 1;
}

#define LIVE_WRITE_CHUNK (64u << 10)

int live_writer_line(live_writer *w)
{
    if (w->b.failed) {
        errno = ENOMEM;
        return -1;
    }
    if (w->fd < 0 || w->b.len < LIVE_WRITE_CHUNK)
        return 0;
    if (write_all(w->fd, w->b.data, w->b.len) < 0)
        return -1;
    buf_reset(&w->b);
    return 0;
}

int live_append_episode(const char *path,
                        int (*make)(void *ctx, live_writer *w), void *ctx)
{
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
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    /* where the file ends, under the lock: cut back to it on failure */
    off_t before = regular ? lseek(fd, 0, SEEK_END) : -1;
    live_writer w = {BUF_INIT, fd};
    errno = 0;
    rc = make(ctx, &w);
    if (rc < 0)
        saved = errno ? errno : ENOMEM;
    if (rc == 0 && w.b.len && write_all(fd, w.b.data, w.b.len) < 0) {
        saved = errno;
        rc = -1;
    }
    /* nothing half-written: the file as it was (the lock is ours) */
    if (rc < 0 && before >= 0 && ftruncate(fd, before) < 0)
        (void)0; /* cannot be cut: said by the caller all the same */
    buf_free(&w.b);
    if (close(fd) < 0 && rc == 0) { /* the lock goes with the file */
        saved = errno;
        rc = -1;
    }
    if (rc < 0)
        errno = saved;
    return rc;
}
