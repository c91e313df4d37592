/*
 * fuzz_logs.h: the body of the three log readers' harnesses (fuzz_inspect,
 * fuzz_otlp, fuzz_messages): the input bytes as a log of FUZZ_FORMAT,
 * read by logs/logs.c from a memory file (memfd: the Inspect reader
 * opens it by its /proc path, as a file named on the command line).
 * Every line a reader makes must be a transcript line that
 * src/transcript.c reads (a run, episode, call or end line: never a line
 * the engine would refuse, seeds, arms and task names included); a line handed over with
 * its value tree (log_sink.record, as replay --from takes it) must read
 * as exactly that tree; and every problem one line with no newline.  The
 * file's format is recognised (detect.h) from its bytes and from the
 * file alike, with a reason of one printable line.  The
 * first byte chooses the tool file: odd, the
 * shop's (--tools); even, the log's own, written into a folder made once
 * and emptied after each input; the second byte's low bit reads the file
 * twice, as two files.  Checks that nothing crashes, leaks or
 * reads out of bounds; no state is kept between inputs but that folder.
 */
#define _GNU_SOURCE /* memfd_create */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "json_load.h"
#include "logs.h"
#include "transcript.h"

#ifndef FUZZ_TOOLS_DIR
#error "FUZZ_TOOLS_DIR: the samples/tools folder"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_line(void *ctx, const char *file, const char *dir,
                      unsigned long line, const char *text, size_t len,
                      err *e)
{
    (void)ctx;
    (void)file;
    (void)dir;
    (void)line;
    arena *a = arena_new();
    tline tl;
    err le;
    if (!a)
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = tline_parse(&tl, a, text, len, NULL, &le);
    if (rc < 0 && le.code != ERR_NOMEM && le.code != ERR_LIMIT) {
        /* a line the engine refuses loses what it says (an episode line:
         * the episode and its calls); a log's seed, arm or task name it
         * cannot take is left out by the reader (lr_episode) */
        fprintf(stderr, "not a transcript line (%s): %.*s\n", le.msg,
                (int)len, text);
        abort();
    }
    arena_free(a);
    return 0;
}

/* Whether two trees are the same but for line and column. */
static int same_tree(const value *x, const value *y)
{
    if (x->kind != y->kind || x->flags != y->flags)
        return 0;
    switch ((value_kind)x->kind) {
    case V_NULL:
        return 1;
    case V_BOOL:
        return !x->u.b == !y->u.b;
    case V_FLOAT:
        return memcmp(&x->u.d, &y->u.d, sizeof x->u.d) == 0;
    case V_ARRAY:
        if (x->u.arr.len != y->u.arr.len)
            return 0;
        for (size_t i = 0; i < x->u.arr.len; i++)
            if (!same_tree(x->u.arr.items[i], y->u.arr.items[i]))
                return 0;
        return 1;
    case V_OBJECT:
        if (x->u.obj.len != y->u.obj.len)
            return 0;
        for (size_t i = 0; i < x->u.obj.len; i++)
            if (!same_tree(x->u.obj.items[i].key, y->u.obj.items[i].key) ||
                !same_tree(x->u.obj.items[i].val, y->u.obj.items[i].val))
                return 0;
        return 1;
    default:
        return x->u.str.len == y->u.str.len &&
               memcmp(x->u.str.ptr, y->u.str.ptr, x->u.str.len) == 0;
    }
}

/* A line with its tree (night_record's promise): the tree is the one
 * json_load reads the text as, and the answer is where it says. */
static int check_record(void *ctx, const char *file, const char *dir,
                        unsigned long line, const char *text, size_t len,
                        const value *root, size_t answer_at,
                        size_t answer_len, err *e)
{
    arena *a = arena_new();
    value *v = NULL;
    size_t at, span;
    err le;
    if (!a)
        return err_set(e, ERR_NOMEM, "out of memory");
    if (json_load_member(&v, a, text, len, "answer", &at, &span, &le) < 0) {
        if (le.code != ERR_NOMEM) {
            fprintf(stderr, "a line with a tree, but not JSON (%s): %.*s\n",
                    le.msg, (int)len, text);
            abort();
        }
    } else if (!same_tree(v, root) ||
               (span && (span != answer_len || at != answer_at))) {
        fprintf(stderr, "a line whose tree is not what it reads as: %.*s\n",
                (int)len, text);
        abort();
    }
    arena_free(a);
    return check_line(ctx, file, dir, line, text, len, e);
}

static int check_problem(void *ctx, const log_problem *p, err *e)
{
    (void)ctx;
    (void)e;
    if (p->say && strchr(p->text, '\n')) {
        fprintf(stderr, "a problem of two lines: %s\n", p->text);
        abort();
    }
    if (!p->message || !p->file) {
        fprintf(stderr, "a problem without its message or file\n");
        abort();
    }
    return 0;
}

/* The folder the logs' tool files go to, made once. */
static const char *tools_folder(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz-logs-XXXXXX");
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

static void empty_folder(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[512];
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("log", 0);
    if (fd < 0)
        abort();
    if (size && write(fd, data, size) != (ssize_t)size)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* recognition: the same from the bytes and from the file, and a
     * reason that is one printable line */
    log_guess from_bytes, from_file;
    log_guess_bytes(&from_bytes, data, size);
    log_guess_file(&from_file, path);
    if (from_bytes.format != from_file.format ||
        strcmp(from_bytes.why, from_file.why) != 0 ||
        from_bytes.format == LOG_AUTO ||
        (from_bytes.format == LOG_UNKNOWN) != (from_bytes.why[0] != '\0')) {
        fprintf(stderr, "recognised otherwise from bytes and file: %d %s | "
                        "%d %s\n",
                from_bytes.format, from_bytes.why, from_file.format,
                from_file.why);
        abort();
    }
    for (const char *c = from_bytes.why; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f) {
            fprintf(stderr, "a control byte in a reason: %s\n",
                    from_bytes.why);
            abort();
        }
    log_opts o;
    memset(&o, 0, sizeof o);
    o.rel_dir = tools_folder();
    if (size && (data[0] & 1))
        o.tools = FUZZ_TOOLS_DIR "/shop.json";
    log_sink sink = {check_line, check_problem, NULL, check_record};
    logr *r = logr_new(&o, &sink);
    err e;
    err_clear(&e);
    /* the second byte's low bit: the file read twice, as two files one
     * after the other (what a reader holds for a next file goes on in
     * it); then the input's end, where what is held is written */
    int rc = r ? logr_read(r, path, "fuzz", FUZZ_FORMAT, &e) : -1;
    if (rc == 0 && size > 1 && (data[1] & 1)) {
        if (lseek(fd, 0, SEEK_SET) == 0)
            rc = logr_read(r, path, "fuzz-2", FUZZ_FORMAT, &e);
    }
    if (rc == 0)
        logr_finish(r, &e);
    logr_free(r);
    close(fd);
    empty_folder(o.rel_dir);
    return 0;
}
