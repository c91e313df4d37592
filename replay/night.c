/* night: see night.h; the transcript format is docs/transcript.md. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "night.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "arena.h"
#include "buf.h"
#include "canon.h"
#include "db.h"
#include "fmt.h"
#include "generator.h"
#include "idset.h"
#include "observe.h"
#include "json_load.h"
#include "keymap.h"
#include "sha256.h"
#include "sim.h"
#include "taskcache.h"
#include "task.h"
#include "transcript.h"
#include "utf8.h"
#include "vbuild.h"
#include "writer.h"

#define BATCH 4096       /* episodes written per transaction, by default */
#define QUEUE 256        /* jobs waiting for the database's thread, at most */
#define SAID_PROBLEMS 100 /* problems said on stderr one by one */
/* The beginnings of the messages of the lines refused with their run
 * (its tool file missing, changed, outside the tool folders...): the
 * run line's own, and every other line's.  A later replay that replays
 * the run deletes the problems of that run that begin so, from whatever
 * file (writer_forget_problems): they are no longer true. */
#define RUN_REFUSED "run \"%.100s\" cannot be replayed"
#define RUN_NOT_REPLAYED "run \"%.100s\" was not replayed"
#define MAX_OPEN 10000   /* episodes open at once, by default */
/* Episodes the writer has given back are kept, that many at most, to be
 * used again (their arena and call rows, not their content): an episode
 * then costs no allocation.  The writer gives them back in
 * batches as large as its queue, so as many are kept.  What a big one
 * took is given back. */
#define SPARE_EPISODES QUEUE
#define SPARE_ARENA (256u << 10) /* bytes of arena a spare one keeps */
#define SPARE_CALLS 1024         /* call rows a spare one keeps room for */
/* An episode's simulator is done with once the episode is judged, when
 * it is handed to the writer (which reads nothing of it): it is kept
 * then, while its memory is still in the cache, for the next episode. */
#define SPARE_SIMS 16

struct run {
    char *name, *tools, *sha;
    const toolset *ts; /* NULL when the run was refused */
    char *why;         /* why it was refused */
    int undeclared;    /* named by an episode line before any run line:
                          its episodes are refused; a run line may come */
    struct refusal {   /* files where a run line of it was refused: the */
        const char *file; /* run's later lines there are problems too */
        unsigned long line;
    } *refused;
    size_t nrefused;
    unsigned long quiet; /* lines refused with the run, said at the end */
    int no_write;        /* its tools have no write: no task can be made,
                            so only observed episodes can be replayed */
    int said_no_write;   /* that was said, at the first episode it refused */
};

struct toolfile {
    char *path; /* as opened (resolved) */
    doc *d;
    toolset *ts;
};

struct episode {
    night *night;
    size_t run;
    char *name; /* in a */
    arena *a;
    task *t;
    sim *s; /* until the episode is judged */
    XXH3_state_t hash;
    db_call *calls;
    size_t ncalls, cap;
    unsigned long nlines;
    unsigned diverged;
    unsigned compared; /* calls with an answer logged */
    const char *status, *final;
    const char *file; /* of the episode line */
    unsigned long line;
    const char *refused; /* the episode line was a problem: why */
    int with_run;        /* refused because its run was (said quietly) */
    int quiet;           /* its lines are problems said only in its run's
                            closing count */
    task_loan *loan;     /* its task, when the cache lent it */
    const char *task_json; /* the task's canonical JSON, when lent */
    int observed;        /* no task: run against something else */
    const char *task_name; /* the harness's, or NULL */
    int damaged;         /* a line of it was too long to be read: it is
                            written unfinished, whatever its end line */
    int success, has_reward; /* the end line's (success -1: none) */
    double reward;
    int64_t input_tokens, output_tokens; /* the end line's (-1: none) */
    double cost, duration;               /* (NAN: none) */
    size_t slot;         /* in night.eps */
    struct episode *older, *newer; /* the open ones, in opening order;
                                      older links the spare ones */
};

struct night {
    night_opts o;
    db *db;
    struct run *runs;
    size_t nruns, caprun;
    keymap run_index;
    struct toolfile *files;
    size_t nfiles;
    struct episode **eps;
    size_t neps;
    size_t *free_slots;
    size_t nfree;
    keymap ep_index;
    int refusals; /* some run has a refused run line (struct run) */
    struct episode *oldest, *newest;
    size_t nopen, max_open;
    struct episode *spare; /* given back, to be used again (ep_done) */
    size_t nspare;
    sim *spare_sims[SPARE_SIMS]; /* of judged episodes, to be used again */
    size_t nspare_sims;
    unsigned long evicted;  /* written unfinished to keep max_open */
    uint64_t secret;        /* keys the hashes of names from input */
    idset seen;             /* every (run, episode) of this night */
    taskcache *tasks;       /* tasks made, shared by their episodes */
    struct dir_file {       /* the named folders' files (hash_named_dirs) */
        char *path;
        char sha[SHA256_HEX_LEN + 1];
    } *dir_files;
    size_t ndir_files;
    int dirs_hashed;
    char **names; /* every file name seen, for rows that outlive a file */
    size_t nnames;
    char *db_dir;   /* the database's folder, resolved (NULL: unknown) */
    char *cur_file, *cur_key; /* the file being read: as named, its key */
    unsigned long log_problems; /* the log's own problems recorded for it */
    keymap begun;   /* the keys of the files begun, to their names */
    char **begun_names;
    size_t nbegun;
    /* the files begun by name, for the lines a log's reader makes of a
     * file it read before the one being read (a trace it held: logs/
     * lines.h, lr_as_file): the name to its place in begun_files, its key,
     * and the count of its log's own problems */
    keymap begun_shown;
    struct begun_file {
        char *key;
        unsigned long log_problems;
    } *begun_files;
    size_t nbegun_files;
    writer *w;       /* the only user of db while it runs */
    night_counts c;  /* this thread's part: lines, problems, runs */
    night_counts shown; /* with the writer's part, for night_get_counts */
    char fingerprint[65];
    char replayed_at[32];
    sim_result r;
    buf key, scratch, rule;
    arena *line_arena; /* one line's values, reset at the next */
};

/* ------------------------------------------------------------- helpers */

static int nomem(err *e)
{
    return err_set(e, ERR_NOMEM, "out of memory");
}

static char *copy_text(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The file name, kept for the whole night. */
static const char *intern(night *n, const char *file)
{
    if (n->nnames && strcmp(n->names[n->nnames - 1], file) == 0)
        return n->names[n->nnames - 1];
    char **more = realloc(n->names, (n->nnames + 1) * sizeof *more);
    if (!more)
        return NULL;
    n->names = more;
    if (!(n->names[n->nnames] = strdup(file)))
        return NULL;
    return n->names[n->nnames++];
}

typedef int (*put_fn)(writer *w, const db_problem *p, err *e);

/* The key a problem of file is recorded under: the file being read's,
 * or that of another file this night began by that name (the lines a
 * log's reader made of a record it held from a file before), else file
 * as named; *count, the count of that file's log's own problems. */
static const char *problem_key(night *n, const char *file,
                               unsigned long **count)
{
    size_t at;
    *count = &n->log_problems;
    if (n->cur_file && strcmp(file, n->cur_file) == 0)
        return n->cur_key;
    if (keymap_get(&n->begun_shown, file, strlen(file), &at)) {
        *count = &n->begun_files[at].log_problems;
        return n->begun_files[at].key;
    }
    return file;
}

/* Records a problem line through put (one of writer_put_problem*);
 * 1 when --strict says stop. */
static int problem_by(night *n, put_fn put, const char *file,
                      unsigned long line, const char *run,
                      const char *episode, const char *msg, const char *text,
                      size_t len, err *e)
{
    n->c.problems++;
    /* recorded under the file's key, said as the user named it */
    unsigned long *count;
    db_problem p = {.source_file = problem_key(n, file, &count),
                    .source_line = line,
                    .run = run,
                    .episode = episode,
                    .message = msg,
                    .line = text,
                    .line_len = len,
                    .shown_file = file};
    if (put(n->w, &p, e) < 0)
        return -1;
    return n->o.strict ? 1 : 0;
}

/* A line refused because its run was: recorded, counted for the run, and
 * said only in the closing count, so a refused run of 681 lines says one
 * line and not 681.  1 when --strict says stop. */
static int quiet_problem(night *n, size_t ri, const char *file,
                         unsigned long line, const char *run,
                         const char *episode, const char *msg,
                         const char *text, size_t len, err *e)
{
    n->runs[ri].quiet++;
    return problem_by(n, writer_put_problem_quiet, file, line, run, episode,
                      msg, text, len, e);
}

/* Records a problem line; 1 when --strict says stop. */
static int problem(night *n, const char *file, unsigned long line,
                   const char *run, const char *episode, const char *msg,
                   const char *text, size_t len, err *e)
{
    return problem_by(n, writer_put_problem, file, line, run, episode, msg,
                      text, len, e);
}

/* --------------------------------------------------------------- runs */

/* Whether real (a resolved path) lies in the folder root (resolved). */
static int inside(const char *real, const char *root)
{
    size_t n = strlen(root);
    if (n && root[n - 1] == '/')
        n--; /* "/" */
    return strncmp(real, root, n) == 0 && real[n] == '/';
}

/* The i-th folder the user named for tool files (each --tools-dir, then
 * each folder of TASKREPLAY_TOOLS_DIR), resolved into out: 1, or 0 past
 * the last.  A folder that does not resolve gives an empty out. */
static int named_dir(const night *n, size_t i, char out[PATH_MAX])
{
    out[0] = '\0';
    if (i < n->o.ntools_dirs) {
        if (!realpath(n->o.tools_dirs[i], out))
            out[0] = '\0';
        return 1;
    }
    i -= n->o.ntools_dirs;
    const char *env = getenv("TASKREPLAY_TOOLS_DIR");
    while (env && *env) {
        size_t len = strcspn(env, ":");
        if (i-- == 0) {
            char one[PATH_MAX];
            if (len && len < sizeof one) {
                memcpy(one, env, len);
                one[len] = '\0';
                if (!realpath(one, out))
                    out[0] = '\0';
            }
            return 1;
        }
        env += len + (env[len] == ':');
    }
    return 0;
}

/* Whether a run line may have replay read the file at real: when it lies
 * in the transcript's folder (dir), the working folder, or a folder the
 * user named (--tools-dir, TASKREPLAY_TOOLS_DIR); or when the user said
 * any path goes (--any-tools-path). */
static int trusted_path(night *n, const char *real, const char *dir)
{
    char root[PATH_MAX];
    if (n->o.any_tools_path)
        return 1;
    if (realpath(dir, root) && inside(real, root))
        return 1;
    if (getcwd(root, sizeof root) && inside(real, root))
        return 1;
    for (size_t i = 0; named_dir(n, i, root); i++)
        if (root[0] && inside(real, root))
            return 1;
    return 0;
}

/* The SHA-256 of the regular file at path into hex: 1, or 0 when it is
 * not one, is too large for a tool file, or cannot be read. */
static int file_sha(const char *path, char hex[SHA256_HEX_LEN + 1])
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size > DOC_MAX_BYTES)
        return 0;
    FILE *f = fopen(path, "rb");
    char *bytes = malloc((size_t)st.st_size + 1);
    size_t got = f && bytes ? fread(bytes, 1, (size_t)st.st_size, f) : 0;
    int ok = f && bytes && got == (size_t)st.st_size &&
             sha256_hex(hex, bytes, got) == 0;
    free(bytes);
    if (f)
        fclose(f);
    return ok;
}

/* The files of the folders the user named, with their SHA-256, in the
 * order find_tools looks at them: made the first time a run line needs
 * them and kept for the night, so that a thousand run lines naming
 * missing files hash the folders once, not a thousand times.  0, or -1
 * out of memory. */
static int hash_named_dirs(night *n)
{
    char root[PATH_MAX], path[PATH_MAX];
    n->dirs_hashed = 1;
    for (size_t i = 0; named_dir(n, i, root); i++) {
        DIR *d = root[0] ? opendir(root) : NULL;
        struct dirent *de;
        while (d && (de = readdir(d))) {
            struct dir_file f;
            if (de->d_name[0] == '.' ||
                (size_t)snprintf(path, sizeof path, "%s/%s", root,
                                 de->d_name) >= sizeof path ||
                !file_sha(path, f.sha))
                continue;
            struct dir_file *more = realloc(
                n->dir_files, (n->ndir_files + 1) * sizeof *more);
            if (!more || !(f.path = strdup(path))) {
                if (more)
                    n->dir_files = more;
                closedir(d);
                return -1;
            }
            n->dir_files = more;
            n->dir_files[n->ndir_files++] = f;
        }
        if (d)
            closedir(d);
    }
    return 0;
}

/* A run line's tool file that is not where the line says (the transcript
 * was moved, or piped from elsewhere): looked for in the folders the user
 * named, by its path, then its name, then (with tools_sha256) by its
 * SHA-256 among their files (hash_named_dirs).  1 with the path found in
 * out, 0 when none is, -1 out of memory. */
static int find_tools(night *n, const char *tools, const char *sha,
                      char out[PATH_MAX])
{
    char root[PATH_MAX];
    const char *base = strrchr(tools, '/');
    base = base ? base + 1 : tools;
    for (size_t i = 0; named_dir(n, i, root); i++) {
        if (!root[0])
            continue;
        struct stat st;
        if ((tools[0] != '/' &&
             (size_t)snprintf(out, PATH_MAX, "%s/%s", root, tools) <
                 PATH_MAX &&
             stat(out, &st) == 0) ||
            ((size_t)snprintf(out, PATH_MAX, "%s/%s", root, base) <
                 PATH_MAX &&
             stat(out, &st) == 0))
            return 1;
    }
    if (sha && !n->dirs_hashed && hash_named_dirs(n) < 0)
        return -1;
    for (size_t i = 0; sha && i < n->ndir_files; i++)
        if (strcmp(n->dir_files[i].sha, sha) == 0) {
            snprintf(out, PATH_MAX, "%s", n->dir_files[i].path);
            return 1;
        }
    return 0;
}

/* The path of the resolved path real from the working folder, when it
 * lies under it, else real, into out. */
static void from_cwd(char out[PATH_MAX], const char *real)
{
    char cwd[PATH_MAX];
    size_t k = getcwd(cwd, sizeof cwd) && inside(real, cwd) ? strlen(cwd) : 0;
    if (k)
        k += cwd[k - 1] != '/'; /* past the '/' after it ("/" has it) */
    snprintf(out, PATH_MAX, "%s", real + k);
}

/* The tool file at path; dir is the folder of the transcript that names
 * it, or NULL when the user named it (--tools).  found gets where it was
 * read from when it was not at path but found in a folder the user named
 * (find_tools): resolved, from the working folder when under it, else
 * absolute ("tools/shop.json"); else "". */
static const toolset *load_tools(night *n, const char *path, const char *dir,
                                 const char *tools, const char *sha,
                                 char found[PATH_MAX], char *why, size_t size)
{
    char real[PATH_MAX];
    int errnum = 0, where = 0;
    found[0] = '\0';
    if (!realpath(path, real) && (errnum = errno) != 0 && dir &&
        (where = find_tools(n, tools, sha, found)) < 0) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    if (errnum && !(where == 1 && realpath(found, real))) {
        found[0] = '\0'; /* what find_tools tried last */
        snprintf(why, size, "its tool file %s cannot be read: %s%s", path,
                 strerror(errnum),
                 dir ? " (if the transcript was moved, name the folder that "
                       "holds the tool file with --tools-dir)"
                     : "");
        return NULL;
    }
    if (dir && !trusted_path(n, real, dir)) {
        snprintf(why, size, "its tool file %.300s is %.300s, outside the "
                            "folders tool files are read from (the "
                            "transcript's, the working one, --tools-dir); "
                            "name its folder with --tools-dir, or allow any "
                            "path with --any-tools-path",
                 path, real);
        return NULL;
    }
    if (errnum) /* read from where find_tools found it */
        from_cwd(found, real);
    for (size_t i = 0; i < n->nfiles; i++)
        if (strcmp(n->files[i].path, real) == 0)
            return n->files[i].ts;
    struct toolfile f = {strdup(real), NULL, NULL};
    err e;
    err_clear(&e);
    if (!f.path || doc_load_regular_file(&f.d, real, &e) < 0 ||
        toolset_build(&f.ts, f.d, &e) < 0) {
        char line[1600];
        err_format(&e, path, line, sizeof line);
        snprintf(why, size, "its tool file cannot be used: %.900s", line);
        doc_free(f.d);
        free(f.path);
        return NULL;
    }
    struct toolfile *more = realloc(n->files, (n->nfiles + 1) * sizeof *more);
    if (!more) {
        snprintf(why, size, "out of memory");
        toolset_free(f.ts);
        doc_free(f.d);
        free(f.path);
        return NULL;
    }
    n->files = more;
    n->files[n->nfiles++] = f;
    return f.ts;
}

static void now_text(char out[32])
{
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    time_t t = epoch && *epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Declares a run: 0 recorded, 1 refused (why set), -1 database failure. */
static int declare_run(night *n, const char *name, const char *tools,
                       const char *path, const char *dir, const char *sha,
                       const char *model, const value *meta, char *why,
                       size_t size, err *e)
{
    err_clear(e);
    if (n->nruns == n->caprun) {
        size_t cap = n->caprun ? 2 * n->caprun : 8;
        struct run *more = realloc(n->runs, cap * sizeof *more);
        if (!more)
            return nomem(e);
        n->runs = more;
        n->caprun = cap;
    }
    struct run *r = &n->runs[n->nruns];
    memset(r, 0, sizeof *r);
    char found[PATH_MAX];
    r->ts = load_tools(n, path, dir, tools, sha, found, why, size);
    if (r->ts && sha && strcmp(sha, r->ts->doc->file_sha256) != 0) {
        snprintf(why, size, "its tool file %s has changed since the "
                            "transcript was written (its SHA-256 is %.12s..., "
                            "the run line says %.12s...)",
                 tools, r->ts->doc->file_sha256, sha);
        r->ts = NULL;
    }
    if (r->ts) {
        buf meta_json = BUF_INIT;
        int rc = 0;
        if (meta && meta->kind != V_NULL)
            rc = canon_write(&meta_json, meta, e);
        db_run row = {.run = name,
                      .model = model,
                      .meta_json = meta_json.data,
                      .file_sha256 = r->ts->doc->file_sha256,
                      .tools_path = tools,
                      /* recorded when it says what tools does not */
                      .tools_found = found[0] && strcmp(found, tools) != 0
                                         ? found
                                         : NULL,
                      .generator_version = GENERATOR_VERSION,
                      .generator_fingerprint = n->fingerprint,
                      .replayed_at = n->replayed_at};
        if (rc == 0)
            rc = writer_put_run(n->w, r->ts, tools, &row, e);
        buf_free(&meta_json);
        if (rc < 0 && e->code != ERR_VALUE)
            return -1;
        if (rc != 0) { /* recorded with another file, or bad meta */
            snprintf(why, size, "%s", e->msg);
            r->ts = NULL;
        }
    }
    r->name = strdup(name);
    r->tools = strdup(tools);
    r->sha = copy_text(sha);
    r->why = r->ts ? NULL : strdup(why);
    if (!r->name || !r->tools || (sha && !r->sha) || (!r->ts && !r->why) ||
        keymap_put(&n->run_index, name, strlen(name), n->nruns) < 0) {
        free(r->name);
        free(r->tools);
        free(r->sha);
        free(r->why);
        return nomem(e);
    }
    n->nruns++;
    n->c.runs += r->ts != NULL;
    if (!r->ts)
        return 1;
    r->no_write = 1;
    for (size_t i = 0; i < r->ts->ntools && r->no_write; i++)
        r->no_write = r->ts->tools[i].kind != TOOL_WRITE;
    /* replayed now: what an earlier replay said when it refused the run
     * (from this file or another, under any path) is no longer true */
    char prefix[160];
    snprintf(prefix, sizeof prefix, RUN_REFUSED, name);
    if (writer_forget_problems(n->w, name, prefix, e) < 0)
        return -1;
    snprintf(prefix, sizeof prefix, RUN_NOT_REPLAYED, name);
    return writer_forget_problems(n->w, name, prefix, e);
}

/* A run an episode line names before any run line: kept, refused, until
 * a run line declares it (its later episodes are then replayed). */
static int undeclared_run(night *n, const char *name, size_t *index)
{
    if (n->nruns == n->caprun) {
        size_t cap = n->caprun ? 2 * n->caprun : 8;
        struct run *more = realloc(n->runs, cap * sizeof *more);
        if (!more)
            return -1;
        n->runs = more;
        n->caprun = cap;
    }
    struct run *r = &n->runs[n->nruns];
    memset(r, 0, sizeof *r);
    r->undeclared = 1;
    if (!(r->name = strdup(name)) || !(r->tools = strdup("")) ||
        keymap_put(&n->run_index, name, strlen(name), n->nruns) < 0) {
        free(r->name);
        free(r->tools);
        return -1;
    }
    *index = n->nruns++;
    return 0;
}

/* ------------------------------------------------------------ episodes */

static int ep_key(night *n, const char *run, const char *episode)
{
    buf_reset(&n->key);
    buf_puts(&n->key, run);
    buf_putc(&n->key, '\0');
    buf_puts(&n->key, episode);
    return n->key.failed ? -1 : 0;
}

static struct episode *find_ep(night *n, const char *run, const char *episode,
                               size_t *slot)
{
    size_t i;
    if (ep_key(n, run, episode) < 0 ||
        !keymap_get(&n->ep_index, n->key.data, n->key.len, &i))
        return NULL;
    if (slot)
        *slot = i;
    return n->eps[i];
}

static void ep_free(struct episode *ep)
{
    if (!ep)
        return;
    sim_free(ep->s);
    taskcache_release(ep->loan);
    arena_free(ep->a);
    free(ep->calls);
    free(ep);
}

/* An episode is done with (written, or dropped): kept to be used again
 * while there are few spare ones, else freed. */
static void ep_done(night *n, struct episode *ep)
{
    if (!ep)
        return;
    if (n->nspare >= SPARE_EPISODES) {
        ep_free(ep);
        return;
    }
    taskcache_release(ep->loan);
    sim_free(ep->s); /* not judged: dropped */
    arena_recycle(ep->a, SPARE_ARENA);
    arena *a = ep->a;
    db_call *calls = ep->calls;
    size_t cap = ep->cap;
    if (cap > SPARE_CALLS) {
        free(calls);
        calls = NULL;
        cap = 0;
    }
    memset(ep, 0, sizeof *ep);
    ep->night = n;
    ep->a = a;
    ep->calls = calls;
    ep->cap = cap;
    ep->older = n->spare;
    n->spare = ep;
    n->nspare++;
}

/* A zeroed episode with an empty arena: a spare one, or a new one; NULL
 * out of memory. */
static struct episode *ep_new(night *n)
{
    struct episode *ep = n->spare;
    if (ep) {
        n->spare = ep->older;
        n->nspare--;
        ep->older = NULL;
        return ep;
    }
    ep = calloc(1, sizeof *ep);
    if (ep && !(ep->a = arena_new())) {
        free(ep);
        return NULL;
    }
    if (ep)
        ep->night = n;
    return ep;
}

/* The episode's simulator for its task: a spare one started anew, or a
 * new one. */
static int ep_sim(night *n, struct episode *ep, const toolset *ts, err *e)
{
    if (n->nspare_sims) {
        ep->s = n->spare_sims[--n->nspare_sims];
        sim_reuse(ep->s, ts, ep->t);
        return 0;
    }
    return sim_new(&ep->s, ts, ep->t, e);
}

/* The episode is judged: its simulator is kept for the next one. */
static void ep_judged(night *n, struct episode *ep)
{
    if (n->nspare_sims < SPARE_SIMS)
        n->spare_sims[n->nspare_sims++] = ep->s;
    else
        sim_free(ep->s);
    ep->s = NULL;
}

/* Takes ep out of the table (the caller frees it, or hands it over). */
static void close_ep(night *n, struct episode *ep, size_t slot)
{
    if (ep_key(n, n->runs[ep->run].name, ep->name) == 0)
        keymap_remove(&n->ep_index, n->key.data, n->key.len);
    n->eps[slot] = NULL;
    n->free_slots[n->nfree++] = slot;
    *(ep->older ? &ep->older->newer : &n->oldest) = ep->newer;
    *(ep->newer ? &ep->newer->older : &n->newest) = ep->older;
    ep->older = ep->newer = NULL;
    n->nopen--;
}

/* Puts ep in a slot of the table; 0 or -1 out of memory. */
static int open_ep(night *n, struct episode *ep, const char *run)
{
    size_t slot;
    if (n->nfree) {
        slot = n->free_slots[--n->nfree];
    } else {
        struct episode **more = realloc(n->eps, (n->neps + 1) * sizeof *more);
        if (!more)
            return -1;
        n->eps = more;
        size_t *fs = realloc(n->free_slots, (n->neps + 1) * sizeof *fs);
        if (!fs)
            return -1;
        n->free_slots = fs;
        slot = n->neps++;
    }
    n->eps[slot] = ep;
    if (ep_key(n, run, ep->name) < 0 ||
        keymap_put(&n->ep_index, n->key.data, n->key.len, slot) < 0) {
        n->eps[slot] = NULL;
        n->free_slots[n->nfree++] = slot;
        return -1;
    }
    ep->slot = slot;
    ep->older = n->newest;
    *(n->newest ? &n->newest->newer : &n->oldest) = ep;
    n->newest = ep;
    n->nopen++;
    return 0;
}

static void ep_hash_line(struct episode *ep, const char *text, size_t len)
{
    XXH3_64bits_update(&ep->hash, text, len);
    XXH3_64bits_update(&ep->hash, "\n", 1);
    ep->nlines++;
}

static char *arena_text(arena *a, const buf *b)
{
    return arena_memdup(a, b->data ? b->data : "", b->len);
}

static void release_ep(void *owner)
{
    struct episode *ep = owner;
    ep_done(ep->night, ep);
}

/* Hands a finished (or, at the end, unfinished) episode, out of the
 * table already, to the writer, which owns it from here on. */
static int write_ep(night *n, struct episode *ep, int unfinished, err *e)
{
    const struct run *r = &n->runs[ep->run];
    writer_episode *w = arena_alloc(ep->a, sizeof *w);
    char hash[17], arm_text[ARM_ID_MAX];
    if (!w) {
        ep_done(n, ep);
        return nomem(e);
    }
    memset(w, 0, sizeof *w);
    w->release = release_ep;
    w->owner = ep;
    fmt_hex64(hash, XXH3_64bits_digest(&ep->hash));
    db_episode *row = &w->row;
    row->run = r->name;
    row->episode = ep->name;
    row->task_name = ep->task_name;
    row->unfinished = unfinished;
    row->success = ep->success;
    row->has_reward = ep->has_reward;
    row->reward = ep->reward;
    row->input_tokens = ep->input_tokens;
    row->output_tokens = ep->output_tokens;
    row->cost = ep->cost;
    row->duration = ep->duration;
    row->status = ep->status;
    row->final = ep->final;
    row->content_xxh3 = arena_memdup(ep->a, hash, 16);
    row->source_file = ep->file;
    row->source_line = ep->line;
    w->calls = ep->calls;
    w->ncalls = ep->ncalls;
    w->lines = ep->nlines;
    if (ep->observed) { /* no task: no verdict, no outcome */
        row->observed = 1;
        row->calls = (unsigned)ep->ncalls;
        if (!row->content_xxh3) {
            ep_done(n, ep);
            return nomem(e);
        }
        return writer_put_episode(n->w, w, e);
    }
    sim_verdict v;
    sim_judge(ep->s, &v);
    ep_judged(n, ep);
    const task *t = ep->t;
    for (int i = 0; i < v.nevents; i++)
        w->outcomes[i] = (db_outcome){i + 1, t->events[i].step,
                                      knob_name(t->events[i].dial),
                                      v.events[i].call,
                                      outcome_name(v.events[i].outcome)};
    w->noutcomes = (size_t)v.nevents;
    arm_id(&t->arm, arm_text);
    w->file_sha256 = r->ts->doc->file_sha256;
    w->request = t->request;
    w->depth = t->depth;
    w->task_json = ep->task_json; /* written once, by the cache; */
    w->task = t;                  /* else by the writer, on its thread */
    unsigned errors = 0;
    for (int c = 0; c <= SIM_RATE_LIMITED; c++) {
        row->err_by_code[c] = v.errors[c];
        errors += v.errors[c];
    }
    row->seed = t->seed;
    row->arm = arena_memdup(ep->a, arm_text, strlen(arm_text));
    row->knob = knob_name(t->arm.knob);
    row->level = t->arm.level;
    row->task_id = t->id;
    row->calls = v.calls;
    row->reached = (unsigned)v.reached;
    /* an episode without its end line may have reached its goal, but
     * what it did after the log was cut is not known: it cannot pass */
    row->pass = (unsigned)(v.pass && !unfinished);
    row->side_effects = v.side_effects;
    row->duplicate_writes = v.duplicates;
    row->errors = errors;
    /* no answer logged, nothing compared: no count, not 0 */
    row->diverged = ep->compared ? (int)ep->diverged : -1;
    if (!row->arm || !row->content_xxh3) {
        ep_done(n, ep);
        return nomem(e);
    }
    return writer_put_episode(n->w, w, e);
}

/* The lines of a refused episode: said once, at its episode line. */
static int refused_ep_line(night *n, const char *file, unsigned long line,
                           const struct episode *ep, const tline *tl,
                           const char *text, size_t len, err *e)
{
    char msg[700];
    if (ep->with_run) { /* one of the run's refusals (RUN_NOT_REPLAYED) */
        snprintf(msg, sizeof msg, RUN_NOT_REPLAYED ", nor its episode "
                                  "\"%.100s\" (see %s:%lu)",
                 n->runs[ep->run].name, ep->name, ep->file, ep->line);
        return quiet_problem(n, ep->run, file, line, tl->run, tl->episode, msg,
                             text, len, e);
    }
    snprintf(msg, sizeof msg, "episode \"%.100s\" of run \"%.100s\" was not "
                              "replayed (see %s:%lu)",
             ep->name, n->runs[ep->run].name, ep->file, ep->line);
    if (ep->quiet)
        return quiet_problem(n, ep->run, file, line, tl->run, tl->episode, msg,
                             text, len, e);
    return problem(n, file, line, tl->run, tl->episode, msg, text, len, e);
}

/* More than max_open episodes open: the oldest is written as unfinished
 * (or dropped, when refused), so memory stays bounded whatever the
 * input.  Said the first time. */
static int evict_oldest(night *n, const char *file, unsigned long line,
                        err *e)
{
    struct episode *ep = n->oldest;
    if (n->evicted++ == 0) {
        buf b = BUF_INIT;
        buf_puts(&b, n->o.progress ? "\r\033[Kreplay: " : "replay: ");
        utf8_shown(&b, file, strlen(file), (size_t)-1);
        buf_printf(&b, ":%lu: more than %zu episodes are open at once: the "
                       "oldest open ones are written as unfinished from "
                       "here on (raise --max-open to keep more)\n",
                   line, n->max_open);
        if (!b.failed)
            fwrite(b.data, 1, b.len, n->o.diag);
        buf_free(&b);
    }
    close_ep(n, ep, ep->slot);
    if (ep->refused) {
        ep_done(n, ep);
        return 0;
    }
    return write_ep(n, ep, 1, e);
}

static int on_episode(night *n, const char *file, unsigned long line,
                      const tline *tl, const char *text, size_t len, err *e)
{
    char msg[900];
    size_t ri;
    if (!keymap_get(&n->run_index, tl->run, strlen(tl->run), &ri)) {
        /* remembered as undeclared, so that the episode's other lines
         * point back here */
        if (undeclared_run(n, tl->run, &ri) < 0)
            return nomem(e);
    }
    const struct run *r = &n->runs[ri];
    struct episode *open = find_ep(n, tl->run, tl->episode, NULL);
    if (open) {
        snprintf(msg, sizeof msg, "episode \"%.100s\" of run \"%.100s\" is "
                                  "already open (its episode line is %s:%lu); "
                                  "end it before starting it again",
                 tl->episode, tl->run, open->file, open->line);
        return problem(n, file, line, tl->run, tl->episode, msg, text, len, e);
    }
    /* Seen before in this night (and closed since): not replayed again,
     * the first stands.  Across nights the replace rule holds. */
    if (ep_key(n, tl->run, tl->episode) < 0)
        return nomem(e);
    int fresh = idset_add(&n->seen, XXH3_64bits_withSeed(n->key.data,
                                                         n->key.len,
                                                         n->secret));
    if (fresh < 0)
        return nomem(e);
    if (n->nopen >= n->max_open && evict_oldest(n, file, line, e) < 0)
        return -1;
    struct episode *ep = ep_new(n);
    if (!ep ||
        !(ep->name = arena_memdup(ep->a, tl->episode, strlen(tl->episode))) ||
        !(ep->file = intern(n, file))) {
        ep_done(n, ep);
        return nomem(e);
    }
    ep->run = ri;
    ep->line = line;
    XXH3_64bits_reset(&ep->hash);
    ep_hash_line(ep, text, len);
    err te;
    err_clear(&te);
    int bad = 0; /* 1 said, 2 said with where the first is, 3 refused with
                    its run, 4 said once for the run: both quietly */
    if (!fresh) {
        snprintf(msg, sizeof msg, "episode \"%.100s\" of run \"%.100s\" is "
                                  "given a second time in this night; this "
                                  "one is not replayed (the first stands)",
                 tl->episode, tl->run);
        bad = 2;
    } else if (r->undeclared) {
        snprintf(msg, sizeof msg, "run \"%.100s\" has no run line before "
                                  "this episode (declare it first, or with "
                                  "--run and --tools)",
                 r->name);
        bad = 1;
    } else if (!r->ts) {
        snprintf(msg, sizeof msg, RUN_NOT_REPLAYED ": %.600s",
                 r->name, r->why);
        bad = 3;
        ep->with_run = 1;
    } else if (tl->observed) {
        ep->observed = 1; /* checked against the tool file only */
    } else if (r->no_write) {
        /* said once for the run, with what can be done: the same would
         * come again for each of its episodes */
        snprintf(msg, sizeof msg, "run \"%.100s\" has no write among the "
                                  "tools of %.300s, so no task can be made "
                                  "for a seed and an arm (a task ends with a "
                                  "write): its episodes with a seed and an "
                                  "arm are not replayed; to check their calls "
                                  "against the tool file alone, replay them "
                                  "as observed episodes, whose episode lines "
                                  "give neither \"seed\" nor \"arm\"",
                 r->name, r->tools);
        bad = n->runs[ri].said_no_write ? 4 : 1;
        n->runs[ri].said_no_write = 1;
        ep->quiet = 1;
    } else {
        int rc;
        if (tl->task) {
            value *copy = vb_clone(ep->a, tl->task);
            rc = copy ? task_from_value(&ep->t, ep->a, r->ts, copy, tl->seed,
                                        &tl->arm, &te)
                      : err_set(&te, ERR_NOMEM, "out of memory");
        } else {
            const task *t = NULL;
            rc = taskcache_get(n->tasks, r->ts, tl->seed, &tl->arm, &t,
                               &ep->task_json, &ep->loan, &te);
            ep->t = (task *)t;
            if (rc == 1) /* the first time: made here, as before */
                rc = task_make(&ep->t, ep->a, r->ts, tl->seed, &tl->arm,
                               &te);
        }
        if (rc == 0)
            rc = ep_sim(n, ep, r->ts, &te);
        if (rc < 0 && te.code == ERR_NOMEM) {
            ep_done(n, ep);
            return nomem(e);
        }
        if (rc < 0) {
            snprintf(msg, sizeof msg, "%.800s", te.msg);
            bad = 1;
        }
    }
    ep->success = -1;
    ep->input_tokens = ep->output_tokens = -1;
    ep->cost = ep->duration = NAN;
    if (tl->task_name &&
        !(ep->task_name = arena_memdup(ep->a, tl->task_name,
                                       strlen(tl->task_name)))) {
        ep_done(n, ep);
        return nomem(e);
    }
    if (bad && !(ep->refused = arena_memdup(ep->a, msg, strlen(msg)))) {
        ep_done(n, ep);
        return nomem(e);
    }
    if (open_ep(n, ep, tl->run) < 0) {
        ep_done(n, ep);
        return nomem(e);
    }
    if (bad == 2) /* the writer adds where the first one is */
        return problem_by(n, writer_put_problem_first, file, line, tl->run,
                          tl->episode, msg, text, len, e);
    if (bad == 3 || bad == 4)
        return quiet_problem(n, ri, file, line, tl->run, tl->episode, msg,
                             text, len, e);
    if (bad)
        return problem(n, file, line, tl->run, tl->episode, msg, text, len, e);
    return 0;
}

/* A value's canonical JSON in the episode's arena, or NULL when it
 * cannot be written (NaN...). */
static const char *json_in(night *n, struct episode *ep, const value *v,
                           int *nomem_out)
{
    err e;
    *nomem_out = 0;
    if (canon_write(&n->scratch, v, &e) < 0) {
        *nomem_out = e.code == ERR_NOMEM;
        return NULL;
    }
    const char *s = arena_text(ep->a, &n->scratch);
    *nomem_out = s == NULL;
    return s;
}

static const char *no_episode(char *msg, size_t size, const tline *tl)
{
    snprintf(msg, size, "%s line for episode \"%.100s\" of run \"%.100s\", "
                        "which is not open (no episode line before it, or "
                        "its end line came already)",
             tline_type_name(tl->type), tl->episode, tl->run);
    return msg;
}

/* Whether v's canonical JSON is the replayed answer's text: written in
 * n->scratch, and kept nowhere (json_in would keep a copy in the
 * episode's arena, for a text only compared). */
static int canon_is(night *n, const value *v, const char *replayed, int *oom)
{
    err e;
    if (canon_write(&n->scratch, v, &e) < 0) {
        *oom |= e.code == ERR_NOMEM;
        return 0;
    }
    return strlen(replayed) == n->scratch.len &&
           memcmp(n->scratch.data, replayed, n->scratch.len) == 0;
}

/* Whether a logged answer that is a string (OpenAI and Anthropic tool
 * results are text) holds JSON whose canonical form is the replayed
 * answer: then it is the same answer, logged as text. */
static int same_as_text(night *n, const value *logged, const char *replayed,
                        int *oom)
{
    value *v;
    err e;
    if (logged->kind != V_STRING ||
        json_load(&v, n->line_arena, logged->u.str.ptr, logged->u.str.len,
                  &e) < 0) {
        *oom |= logged->kind == V_STRING && e.code == ERR_NOMEM;
        return 0;
    }
    return canon_is(n, v, replayed, oom);
}

/* Whether a logged answer is an MCP tools/call result that holds the
 * replayed answer: its "structuredContent", or else the JSON in its one
 * text content block (MCP servers send both; harnesses log the result
 * whole).  An error result is the replayed answer itself, compared as is. */
static int same_as_mcp_result(night *n, const value *logged,
                              const char *replayed, int *oom)
{
    if (logged->kind != V_OBJECT)
        return 0;
    const value *err_flag = value_getz(logged, "isError");
    if (err_flag && err_flag->kind == V_BOOL && err_flag->u.b)
        return 0;
    const value *sc = value_getz(logged, "structuredContent");
    if (sc)
        return canon_is(n, sc, replayed, oom);
    const value *content = value_getz(logged, "content");
    if (!content || content->kind != V_ARRAY || content->u.arr.len != 1)
        return 0;
    const value *block = content->u.arr.items[0];
    const value *type = value_getz(block, "type");
    const value *text = value_getz(block, "text");
    if (!type || type->kind != V_STRING || strcmp(type->u.str.ptr, "text") ||
        !text)
        return 0;
    return same_as_text(n, text, replayed, oom);
}

/* The next call row of ep, zeroed, its NULLs set; NULL out of memory. */
static db_call *new_call(struct episode *ep)
{
    if (ep->ncalls == ep->cap) {
        size_t cap = ep->cap ? 2 * ep->cap : 16;
        db_call *more = realloc(ep->calls, cap * sizeof *more);
        if (!more)
            return NULL;
        ep->calls = more;
        ep->cap = cap;
    }
    db_call *c = &ep->calls[ep->ncalls];
    memset(c, 0, sizeof *c);
    c->seq = (unsigned)ep->ncalls + 1;
    c->arguments_valid = -1;
    c->answer_valid = -1;
    c->diverged = -1; /* no answer logged: nothing compared */
    c->duration = NAN;
    return c;
}

/* What the agent sent as arguments, when it is not JSON, kept as is. */
static int keep_raw_args(struct episode *ep, db_call *c, const tline *tl)
{
    if (!tl->call.raw_args)
        return 0;
    c->arguments_raw = arena_memdup(ep->a, tl->call.raw_args,
                                    tl->call.raw_args_len);
    c->arguments_raw_len = tl->call.raw_args_len;
    return c->arguments_raw ? 0 : -1;
}

/* A call of an observed episode: what the tool file can check of it
 * (observe.h), and the answer logged as it was; nothing that needs a
 * task (no replayed answer, effect or divergence). */
static int observed_call(night *n, struct episode *ep, const char *file,
                         unsigned long line, const tline *tl,
                         const char *text, size_t len, err *e)
{
    const toolset *ts = n->runs[ep->run].ts;
    const tool *t = toolset_find(ts, tl->call.name, tl->call.name_len);
    db_call *c = new_call(ep);
    if (!c)
        return nomem(e);
    int oom = keep_raw_args(ep, c, tl) < 0;
    c->tool = arena_memdup(ep->a, tl->call.name, tl->call.name_len);
    c->tool_len = tl->call.name_len;
    oom |= !c->tool;
    /* What could not be checked (schema.h's limits) is NULL, never
     * valid, and the line is a problem that says why. */
    char unchecked[600] = "";
    if (t) {
        c->kind = t->kind == TOOL_READ ? "read" : "write";
        int ok = observe_args(ts, t, tl->call.args, tl->call.bad_args,
                              &n->r.arguments, &n->rule, e);
        if (ok < 0)
            return -1;
        c->arguments_valid = ok == 2 ? -1 : ok;
        if (ok == 2)
            snprintf(unchecked, sizeof unchecked, "%.500s; arguments_valid "
                     "is left NULL", n->rule.data);
        if (!ok) {
            c->arguments_rule = arena_text(ep->a, &n->rule);
            oom |= !c->arguments_rule;
        }
        if (n->r.arguments.len) {
            c->arguments = arena_text(ep->a, &n->r.arguments);
            oom |= !c->arguments;
        }
    } else if (tl->call.args) { /* a tool the file does not have */
        int bad = 0;
        c->arguments = json_in(n, ep, tl->call.args, &bad);
        oom |= bad;
    }
    if (tl->answer) {
        int bad = 0;
        c->logged_answer = json_in(n, ep, tl->answer, &bad);
        oom |= bad;
        if (t) {
            int fits = observe_answer(ts, t, tl->answer, n->line_arena,
                                      &n->rule, e);
            if (fits < 0)
                return -1;
            c->answer_valid = fits >= 2 ? -1 : fits;
            if (fits == 3 && !unchecked[0])
                snprintf(unchecked, sizeof unchecked, "%.500s; answer_valid "
                         "is left NULL", n->rule.data);
        }
        /* an error in any idiom the logs write is an error of the call */
        char code[72];
        if (observe_error(tl->answer, n->line_arena, code, sizeof code,
                          &bad) == 1) {
            c->error = arena_memdup(ep->a, code, strlen(code));
            oom |= !c->error;
        }
        oom |= bad;
    }
    c->source_file = intern(n, file);
    c->source_line = line;
    c->duration = tl->duration;
    if (oom || !c->source_file)
        return nomem(e);
    ep->ncalls++;
    ep_hash_line(ep, text, len);
    if (unchecked[0]) {
        ep->nlines--; /* counted once: as a problem, not as used */
        return problem(n, file, line, tl->run, tl->episode, unchecked, text,
                       len, e);
    }
    return 0;
}

static int on_call(night *n, const char *file, unsigned long line,
                   const tline *tl, const char *text, size_t len, err *e)
{
    char msg[600];
    struct episode *ep = find_ep(n, tl->run, tl->episode, NULL);
    if (!ep)
        return problem(n, file, line, tl->run, tl->episode,
                       no_episode(msg, sizeof msg, tl), text, len, e);
    if (ep->refused)
        return refused_ep_line(n, file, line, ep, tl, text, len, e);
    if (ep->observed)
        return observed_call(n, ep, file, line, tl, text, len, e);
    if (sim_call(ep->s, tl->call.name, tl->call.name_len, tl->call.args,
                 tl->call.bad_args, &n->r, e) < 0) {
        if (e->code == ERR_NOMEM)
            return -1;
        /* an answer these arguments need past the draw's budget: the
         * call is a problem, and the night goes on */
        snprintf(msg, sizeof msg, "the simulator cannot answer this call: "
                                  "%.500s",
                 e->msg);
        err_clear(e);
        return problem(n, file, line, tl->run, tl->episode, msg, text, len, e);
    }
    db_call *c = new_call(ep);
    if (!c)
        return nomem(e);
    int oom = keep_raw_args(ep, c, tl) < 0;
    c->step = n->r.step;
    c->tool = arena_memdup(ep->a, tl->call.name, tl->call.name_len);
    c->tool_len = tl->call.name_len;
    c->kind = n->r.tool ? (n->r.tool->kind == TOOL_READ ? "read" : "write")
                        : NULL;
    if (n->r.arguments.len) /* NULL when they could not be read */
        c->arguments = arena_text(ep->a, &n->r.arguments);
    if (n->r.tool) { /* checked before anything else was answered */
        c->arguments_valid = n->r.error != SIM_INVALID_ARGUMENTS;
        if (!c->arguments_valid) {
            int ok = observe_args(n->runs[ep->run].ts, n->r.tool,
                                  tl->call.args, tl->call.bad_args,
                                  &n->scratch, &n->rule, e);
            if (ok < 0)
                return -1;
            if (ok == 2) { /* refused as not checkable: the answer says */
                c->arguments_valid = -1;
            } else {
                c->arguments_rule = arena_text(ep->a, &n->rule);
                oom |= !c->arguments_rule;
            }
        }
    }
    c->answer = arena_text(ep->a, &n->r.answer);
    c->error = n->r.error >= 0 ? sim_error_code((enum sim_error)n->r.error)
                               : NULL;
    c->effect = effect_name(n->r.effect);
    c->dial = n->r.event >= 0 ? knob_name(ep->t->events[n->r.event].dial)
                              : NULL;
    err ce;
    ep->compared += tl->answer != NULL;
    if (tl->answer && tl->answer_len == n->r.answer.len &&
        memcmp(tl->answer_text, n->r.answer.data, n->r.answer.len) == 0) {
        /* written as replayed, byte for byte: the replayed answer is
         * canonical, so the logged one's canonical form is the same */
        c->diverged = 0;
    } else if (tl->answer && tl->answer->kind == V_STRING &&
               tl->answer->u.str.len == n->r.answer.len &&
               memcmp(tl->answer->u.str.ptr, n->r.answer.data,
                      n->r.answer.len) == 0) {
        /* logged as text (tool results are text), and the text is the
         * replayed answer's: canonical JSON reads back as itself, so
         * same_as_text below would find the same, at the cost of a
         * parse and two writes */
        c->diverged = 0;
    } else if (tl->answer && canon_write(&n->scratch, tl->answer, &ce) == 0 &&
        n->scratch.len == n->r.answer.len &&
        memcmp(n->scratch.data, n->r.answer.data, n->r.answer.len) == 0) {
        c->diverged = 0; /* the same answer, as nearly always: no copy */
    } else if (tl->answer) {
        int bad = 0;
        const char *logged = json_in(n, ep, tl->answer, &bad);
        oom |= bad;
        if (logged && strcmp(logged, c->answer) != 0 &&
            (same_as_text(n, tl->answer, c->answer, &oom) ||
             same_as_mcp_result(n, tl->answer, c->answer, &oom)))
            logged = c->answer;
        c->diverged = 0;
        if (!logged || strcmp(logged, c->answer) != 0) {
            c->diverged = 1;
            c->logged_answer = logged;
            ep->diverged++;
        }
    }
    c->source_file = intern(n, file);
    c->source_line = line;
    c->duration = tl->duration;
    if (oom || !c->tool || !c->answer || !c->source_file ||
        (n->r.arguments.len && !c->arguments))
        return nomem(e);
    ep->ncalls++;
    ep_hash_line(ep, text, len);
    return 0;
}

static int on_end(night *n, const char *file, unsigned long line,
                  const tline *tl, const char *text, size_t len, err *e)
{
    char msg[600];
    size_t slot;
    struct episode *ep = find_ep(n, tl->run, tl->episode, &slot);
    if (!ep)
        return problem(n, file, line, tl->run, tl->episode,
                       no_episode(msg, sizeof msg, tl), text, len, e);
    if (ep->refused) {
        int rc = refused_ep_line(n, file, line, ep, tl, text, len, e);
        close_ep(n, ep, slot);
        ep_done(n, ep);
        return rc;
    }
    ep_hash_line(ep, text, len);
    ep->status = tl->status ? arena_memdup(ep->a, tl->status,
                                           strlen(tl->status))
                            : NULL;
    ep->final = tl->final ? arena_memdup(ep->a, tl->final, strlen(tl->final))
                          : NULL;
    if ((tl->status && !ep->status) || (tl->final && !ep->final))
        return nomem(e);
    ep->success = tl->success;
    ep->has_reward = tl->has_reward;
    ep->reward = tl->reward;
    ep->input_tokens = tl->input_tokens;
    ep->output_tokens = tl->output_tokens;
    ep->cost = tl->cost;
    ep->duration = tl->duration;
    close_ep(n, ep, slot);
    return write_ep(n, ep, ep->damaged, e);
}

/* Remembers that a run line of run ri was refused in file. */
static int refuse_run_in(night *n, size_t ri, const char *file,
                         unsigned long line)
{
    struct run *r = &n->runs[ri];
    const char *kept = intern(n, file);
    struct refusal *more =
        realloc(r->refused, (r->nrefused + 1) * sizeof *more);
    if (!kept || !more)
        return -1;
    r->refused = more;
    r->refused[r->nrefused++] = (struct refusal){kept, line};
    n->refusals = 1;
    return 0;
}

/* The line of file where a run line of run was refused, or 0. */
static unsigned long refused_in(night *n, const char *run, const char *file)
{
    size_t ri;
    if (!keymap_get(&n->run_index, run, strlen(run), &ri))
        return 0;
    const struct run *r = &n->runs[ri];
    for (size_t i = r->nrefused; i-- > 0;)
        if (strcmp(r->refused[i].file, file) == 0)
            return r->refused[i].line;
    return 0;
}

static int on_run(night *n, const char *file, const char *dir,
                  unsigned long line, const tline *tl, const char *text,
                  size_t len, err *e)
{
    size_t ri;
    char why[1200];
    if (keymap_get(&n->run_index, tl->run, strlen(tl->run), &ri) &&
        !n->runs[ri].undeclared) {
        const struct run *r = &n->runs[ri];
        if (strcmp(r->tools, tl->tools) != 0 ||
            (tl->tools_sha256 && r->sha &&
             strcmp(r->sha, tl->tools_sha256) != 0)) {
            snprintf(why, sizeof why, "run \"%.100s\" is declared again with "
                                      "another tool file (\"%.200s\", first "
                                      "\"%.200s\"); give it another name",
                     tl->run, tl->tools, r->tools);
            if (refuse_run_in(n, ri, file, line) < 0)
                return nomem(e);
            return problem(n, file, line, tl->run, NULL, why, text, len, e);
        }
        if (!r->ts) {
            snprintf(why, sizeof why, RUN_NOT_REPLAYED ": %.900s",
                     r->name, r->why);
            return quiet_problem(n, ri, file, line, tl->run, NULL, why, text,
                                 len, e);
        }
        n->c.used++;
        return 0;
    }
    char path[PATH_MAX];
    if (tl->tools[0] == '/' || strcmp(dir, ".") == 0)
        snprintf(path, sizeof path, "%s", tl->tools);
    else
        snprintf(path, sizeof path, "%s/%s", dir, tl->tools);
    char reason[1000];
    int rc = declare_run(n, tl->run, tl->tools, path, dir, tl->tools_sha256,
                         tl->model, tl->meta, reason, sizeof reason, e);
    if (rc < 0)
        return -1;
    if (rc == 1) {
        snprintf(why, sizeof why, RUN_REFUSED ": %s",
                 tl->run, reason);
        return problem(n, file, line, tl->run, NULL, why, text, len, e);
    }
    n->c.used++;
    return 0;
}

/* ------------------------------------------------------------ the API */

/* A seed nobody who writes the input knows: the tables keyed by names
 * from the input then cannot be made to probe long.  Their order is
 * never shown, so this changes no output. */
static uint64_t secret_seed(void)
{
    uint64_t s = 0;
    if (getrandom(&s, sizeof s, GRND_NONBLOCK) != (ssize_t)sizeof s) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        s = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^
            (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 32) ^
            (uint64_t)(uintptr_t)&s;
    }
    return s;
}

int night_open(night **out, const night_opts *o, err *e)
{
    night *n = calloc(1, sizeof *n);
    if (!n)
        return nomem(e);
    n->o = *o;
    n->r = (sim_result){.answer = BUF_INIT, .arguments = BUF_INIT, .error = -1, .event = -1};
    n->max_open = o->max_open ? o->max_open : MAX_OPEN;
    n->secret = secret_seed();
    n->ep_index.seed = n->run_index.seed = n->begun.seed = n->secret;
    n->begun_shown.seed = n->secret;
    now_text(n->replayed_at);
    *out = n; /* night_free it, whatever fails below */
    if (!(n->tasks = taskcache_new(0)))
        return nomem(e);
    if (generator_fingerprint(n->fingerprint, e) < 0 ||
        db_open(&n->db, o->db_path, e) < 0)
        return -1;
    char real[PATH_MAX];
    if (realpath(o->db_path, real)) { /* the folder files are keyed from */
        char *slash = strrchr(real, '/');
        *(slash == real ? slash + 1 : slash) = '\0'; /* "/" stays */
        if (!(n->db_dir = strdup(real)))
            return nomem(e);
    }
    if (db_migrated(n->db)) {
        buf b = BUF_INIT;
        buf_puts(&b, "replay: ");
        utf8_shown(&b, o->db_path, strlen(o->db_path), (size_t)-1);
        buf_printf(&b, ": migrated from schema version %d to %d\n",
                   db_migrated(n->db), DB_SCHEMA_VERSION);
        if (!b.failed)
            fwrite(b.data, 1, b.len, o->diag);
        buf_free(&b);
    }
    if (db_load_begin(n->db, e) < 0 ||
        writer_start(&n->w, n->db, o->db_path, o->diag, o->batch ? o->batch : BATCH,
                     QUEUE, SAID_PROBLEMS, e) < 0)
        return -1;
    if (o->progress)
        writer_clear_lines(n->w);
    if (o->default_tools) {
        char why[1200];
        int rc = declare_run(n, o->default_run, o->default_tools,
                             o->default_tools, NULL, NULL, o->model, NULL,
                             why, sizeof why, e);
        if (rc < 0)
            return -1;
        if (rc == 1)
            return err_set(e, ERR_VALUE, "run \"%s\": %s", o->default_run,
                           why);
    }
    return 0;
}

unsigned night_shard_of_n(const char *run, size_t run_len,
                          const char *episode, size_t episode_len,
                          unsigned shards)
{
    /* XXH3-64 of run, a NUL and episode laid end to end: in one call
     * when they fit here, else fed in three parts (the same value), with
     * nothing to allocate */
    char key[256];
    if (run_len + episode_len + 1 <= sizeof key) {
        memcpy(key, run, run_len);
        key[run_len] = '\0';
        memcpy(key + run_len + 1, episode, episode_len);
        return (unsigned)(XXH3_64bits(key, run_len + episode_len + 1) %
                          shards);
    }
    XXH3_state_t st;
    XXH3_INITSTATE(&st);
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, run, run_len);
    XXH3_64bits_update(&st, "", 1);
    XXH3_64bits_update(&st, episode, episode_len);
    return (unsigned)(XXH3_64bits_digest(&st) % shards);
}

unsigned night_shard_of(const char *run, const char *episode,
                        unsigned shards)
{
    return night_shard_of_n(run, strlen(run), episode, strlen(episode),
                            shards);
}

/* A line's "run" or "episode" when it names one as a string (for the
 * problems of lines that are otherwise unusable). */
static const char *name_in(const value *root, const char *key)
{
    const value *v = root ? value_getz(root, key) : NULL;
    return v && v->kind == V_STRING && !memchr(v->u.str.ptr, 0, v->u.str.len)
               ? v->u.str.ptr
               : NULL;
}

/* A line, read from its text (root NULL) or from its tree (night_record). */
static int take_line(night *n, const char *file, const char *dir,
                     unsigned long line, const char *text, size_t len,
                     const value *root, size_t answer_at, size_t answer_len,
                     err *e)
{
    n->c.lines++;
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
        i++;
    if (i == len) {
        n->c.blank++;
        return 0;
    }
    /* A shard passes over the lines of other shards' episodes without
     * reading them: their type, run and episode are found by a scan of
     * the line's top level (tline_route), at the speed of reading. */
    int routed = 0;
    if (!root && n->o.shards > 1) {
        enum tline_type rt;
        const char *rr, *re;
        size_t rrl, rel;
        if (tline_route(text + i, len - i, &rt, &rr, &rrl, &re, &rel)) {
            if (night_shard_of_n(rr, rrl, re, rel, n->o.shards) !=
                n->o.shard) {
                n->c.other_shards++;
                return 0;
            }
            routed = 1;
        }
    }
    if (!n->line_arena && !(n->line_arena = arena_new()))
        return nomem(e);
    arena *a = n->line_arena;
    arena_reset(a);
    tline tl;
    err pe;
    err_clear(&pe);
    int rc;
    if ((root ? tline_read(&tl, a, root, text, answer_at, answer_len,
                           n->o.default_run, &pe)
              : tline_parse(&tl, a, text, len, n->o.default_run, &pe)) < 0) {
        if (pe.code == ERR_NOMEM)
            rc = nomem(e);
        else
            rc = problem(n, file, line, name_in(tl.root, "run"),
                         name_in(tl.root, "episode"), pe.msg, text, len, e);
    } else {
        if (n->o.shards > 1 && !routed && tl.type != TL_RUN &&
            night_shard_of(tl.run, tl.episode, n->o.shards) != n->o.shard) {
            n->c.other_shards++;
            return 0;
        }
        unsigned long at;
        if (n->refusals && tl.type != TL_RUN &&
            (at = refused_in(n, tl.run, file)) != 0) {
            char msg[400];
            snprintf(msg, sizeof msg, "run \"%.100s\" was refused at line "
                                      "%lu of this file: its lines after it "
                                      "here are not replayed",
                     tl.run, at);
            size_t ri = 0;
            keymap_get(&n->run_index, tl.run, strlen(tl.run), &ri);
            return quiet_problem(n, ri, file, line, tl.run, tl.episode, msg,
                                 text, len, e);
        }
        switch (tl.type) {
        case TL_RUN:
            rc = on_run(n, file, dir, line, &tl, text, len, e);
            break;
        case TL_EPISODE:
            rc = on_episode(n, file, line, &tl, text, len, e);
            break;
        case TL_CALL:
            rc = on_call(n, file, line, &tl, text, len, e);
            break;
        default:
            rc = on_end(n, file, line, &tl, text, len, e);
            break;
        }
    }
    return rc;
}

int night_line(night *n, const char *file, const char *dir,
               unsigned long line, const char *text, size_t len, err *e)
{
    return take_line(n, file, dir, line, text, len, NULL, 0, 0, e);
}

int night_record(night *n, const char *file, const char *dir,
                 unsigned long line, const char *text, size_t len,
                 const value *root, size_t answer_at, size_t answer_len,
                 err *e)
{
    return take_line(n, file, dir, line, text, len, root, answer_at,
                     answer_len, e);
}

/* The path of the resolved path real from the database's folder, when
 * it lies under it; else real itself. */
static const char *from_db_dir(const night *n, const char *real)
{
    if (!n->db_dir || !inside(real, n->db_dir))
        return real;
    size_t k = strlen(n->db_dir);
    return real + k - (k && n->db_dir[k - 1] == '/') + 1; /* "/" */
}

/* The key a file's problems are recorded under (problems.source_file),
 * the same however its path is spelled and from whatever folder replay
 * runs: its resolved path (links followed) from the database's folder
 * when it lies under it, as a night beside its database is most often
 * named, else absolute.  Standard input, and a path that does not
 * resolve (a pipe of the shell's, /dev/fd/N), as named.  NULL out of
 * memory. */
static char *file_key(const night *n, const char *file)
{
    char real[PATH_MAX];
    if (strcmp(file, "<stdin>") == 0 || !realpath(file, real))
        return strdup(file);
    return strdup(from_db_dir(n, real));
}

/* Whether name, as the user named a file whose key is key, is the key of
 * another file: a relative name that, from the database's folder, is
 * another file.  The problems recorded under the name as named are then
 * that file's, and stay. */
static int names_another(const night *n, const char *name, const char *key)
{
    char path[PATH_MAX], real[PATH_MAX];
    if (name[0] == '/' || !n->db_dir ||
        (size_t)snprintf(path, sizeof path, "%s/%s", n->db_dir, name) >=
            sizeof path ||
        !realpath(path, real))
        return 0;
    return strcmp(from_db_dir(n, real), key) != 0;
}

/* Keeps the file being read's key and count of log problems by its name
 * (begun_shown), as another begins. */
static int keep_begun(night *n, err *e)
{
    size_t at;
    if (keymap_get(&n->begun_shown, n->cur_file, strlen(n->cur_file), &at)) {
        n->begun_files[at].log_problems = n->log_problems;
        return 0;
    }
    at = n->nbegun_files;
    struct begun_file *more =
        realloc(n->begun_files, (at + 1) * sizeof *more);
    if (!more)
        return nomem(e);
    n->begun_files = more;
    if (!(more[at].key = strdup(n->cur_key)))
        return nomem(e);
    more[at].log_problems = n->log_problems;
    if (keymap_put(&n->begun_shown, n->cur_file, strlen(n->cur_file), at) <
        0) {
        free(more[at].key);
        return nomem(e);
    }
    n->nbegun_files++;
    return 0;
}

int night_begin_file(night *n, const char *file, err *e)
{
    char *key = file_key(n, file), *name = strdup(file);
    size_t first;
    if (!key || !name) {
        free(key);
        free(name);
        return nomem(e);
    }
    if (keymap_get(&n->begun, key, strlen(key), &first)) {
        /* read again, its problems would replace those it had a moment
         * ago with "given a second time" for each of its episodes */
        buf b = BUF_INIT;
        buf_puts(&b, "skipped: it is the same file as ");
        utf8_shown(&b, n->begun_names[first], strlen(n->begun_names[first]),
                   (size_t)-1);
        buf_puts(&b, ", read already");
        int rc = b.failed ? nomem(e) : writer_note(n->w, file, b.data, e);
        buf_free(&b);
        free(key);
        free(name);
        return rc < 0 ? -1 : 1;
    }
    char **more = realloc(n->begun_names, (n->nbegun + 1) * sizeof *more);
    if (more)
        n->begun_names = more;
    if (!more || !(more[n->nbegun] = strdup(file)) ||
        keymap_put(&n->begun, key, strlen(key), n->nbegun) < 0) {
        if (more)
            free(more[n->nbegun]);
        free(key);
        free(name);
        return nomem(e);
    }
    n->nbegun++;
    /* the file read before it: its key and count kept by its name */
    if (n->cur_file && keep_begun(n, e) < 0) {
        free(key);
        free(name);
        return -1;
    }
    free(n->cur_file);
    free(n->cur_key);
    n->cur_file = name;
    n->cur_key = key;
    n->log_problems = 0;
    /* and what was recorded under the path as named (rows keyed so, by
     * a replay before keys), unless that is another file's key */
    if (strcmp(name, key) != 0 && !names_another(n, name, key) &&
        writer_clear_problems(n->w, name, e) < 0)
        return -1;
    return writer_clear_problems(n->w, key, e);
}

int night_log_problem(night *n, const char *file, const char *place,
                      const char *run, const char *episode,
                      const char *message, err *e)
{
    unsigned long *count;
    const char *key = problem_key(n, file, &count);
    db_problem p = {.source_file = key,
                    .log_problem = ++*count,
                    .place = place ? place : "",
                    .run = run,
                    .episode = episode,
                    .message = message,
                    .line = "",
                    .shown_file = file};
    return writer_put_problem_quiet(n->w, &p, e);
}

int night_skip_file(night *n, const char *file, const char *why, err *e)
{
    n->c.skipped_files++;
    return writer_note(n->w, file, why, e);
}

int night_long_line(night *n, const char *file, unsigned long line,
                    const char *start, size_t start_len, size_t len, err *e)
{
    char msg[500];
    n->c.lines++;
    int said = snprintf(msg, sizeof msg,
                        "line of %zu bytes is longer than the limit of a "
                        "transcript line (4 MiB); it was skipped",
                        len);
    /* Its episode, when its start names one that is open, is damaged: a
     * call (or its end) is missing, so that it can never be complete,
     * nor pass; it is written unfinished. */
    const char *run = NULL, *episode = NULL;
    if (!n->line_arena && !(n->line_arena = arena_new()))
        return nomem(e);
    arena_reset(n->line_arena);
    if (tline_names(n->line_arena, start, start_len, &run, &episode, e) < 0)
        return -1;
    if (run && episode && n->o.shards > 1 &&
        night_shard_of(run, episode, n->o.shards) != n->o.shard) {
        n->c.other_shards++;
        return 0;
    }
    struct episode *ep = run && episode ? find_ep(n, run, episode, NULL)
                                        : NULL;
    if (ep && !ep->refused) {
        ep->damaged = 1;
        /* in its content (the line itself is counted as a problem): its
         * start and its length */
        char size[32];
        XXH3_64bits_update(&ep->hash, start, start_len);
        XXH3_64bits_update(&ep->hash, size,
                           (size_t)snprintf(size, sizeof size, "\n%zu\n",
                                            len));
        snprintf(msg + said, sizeof msg - (size_t)said,
                 ", and episode \"%.100s\" of run \"%.100s\" is written "
                 "unfinished: a line of it is missing",
                 episode, run);
    }
    return problem(n, file, line, run, episode, msg, start, start_len, e);
}

int night_finish(night *n, int write_open, err *e)
{
    for (size_t i = 0; !write_open && i < n->neps; i++)
        n->c.left_open += n->eps[i] && !n->eps[i]->refused;
    for (size_t i = 0; write_open && i < n->neps; i++) {
        struct episode *ep = n->eps[i];
        if (!ep)
            continue;
        close_ep(n, ep, i);
        if (ep->refused)
            ep_done(n, ep);
        else if (write_ep(n, ep, 1, e) < 0)
            return -1;
    }
    if (writer_finish(n->w, e) < 0) /* it made the indexes, too */
        return -1;
    for (size_t i = 0; i < n->nruns; i++)
        if (n->runs[i].quiet) {
            buf b = BUF_INIT;
            buf_puts(&b, "replay: run \"");
            utf8_shown(&b, n->runs[i].name, strlen(n->runs[i].name), 200);
            buf_printf(&b, "\": %lu more line%s not replayed, for the reason "
                           "said above (the problems table holds each)\n",
                       n->runs[i].quiet, n->runs[i].quiet == 1 ? "" : "s");
            if (!b.failed)
                fwrite(b.data, 1, b.len, n->o.diag);
            buf_free(&b);
        }
    unsigned long quiet = 0;
    for (size_t i = 0; i < n->nruns; i++)
        quiet += n->runs[i].quiet;
    if (n->c.problems - quiet > SAID_PROBLEMS)
        fprintf(n->o.diag, "replay: %lu more problems are in the problems "
                           "table of %s\n",
                n->c.problems - quiet - SAID_PROBLEMS, n->o.db_path);
    db *d = n->db;
    n->db = NULL;
    return db_close(d, e);
}

const night_counts *night_get_counts(night *n)
{
    writer_counts w = {0};
    if (n->w)
        writer_get_counts(n->w, &w);
    n->shown = n->c;
    n->shown.used += w.used;
    n->shown.unchanged = w.unchanged;
    n->shown.episodes = w.episodes;
    n->shown.skipped = w.skipped;
    n->shown.replaced = w.replaced;
    n->shown.unfinished = w.unfinished;
    n->shown.calls = w.calls;
    n->shown.cpu_write = w.cpu_write;
    n->shown.cpu_copy = w.cpu_copy;
    n->shown.evicted = n->evicted;
    n->shown.skipped_files = n->c.skipped_files;
    return &n->shown;
}

void night_free(night *n)
{
    if (!n)
        return;
    writer_free(n->w); /* first: it may still read the runs */
    for (size_t i = 0; i < n->neps; i++)
        ep_free(n->eps[i]);
    while (n->spare) {
        struct episode *next = n->spare->older;
        ep_free(n->spare);
        n->spare = next;
    }
    while (n->nspare_sims)
        sim_free(n->spare_sims[--n->nspare_sims]);
    free(n->eps);
    free(n->free_slots);
    keymap_free(&n->ep_index);
    keymap_free(&n->run_index);
    idset_free(&n->seen);
    taskcache_free(n->tasks); /* after the episodes: they hold tasks */
    for (size_t i = 0; i < n->nruns; i++) {
        free(n->runs[i].name);
        free(n->runs[i].tools);
        free(n->runs[i].sha);
        free(n->runs[i].why);
        free(n->runs[i].refused);
    }
    free(n->runs);
    for (size_t i = 0; i < n->nfiles; i++) {
        toolset_free(n->files[i].ts);
        doc_free(n->files[i].d);
        free(n->files[i].path);
    }
    free(n->files);
    for (size_t i = 0; i < n->ndir_files; i++)
        free(n->dir_files[i].path);
    free(n->dir_files);
    for (size_t i = 0; i < n->nnames; i++)
        free(n->names[i]);
    free(n->names);
    for (size_t i = 0; i < n->nbegun; i++)
        free(n->begun_names[i]);
    free(n->begun_names);
    keymap_free(&n->begun);
    free(n->cur_file);
    free(n->cur_key);
    for (size_t i = 0; i < n->nbegun_files; i++)
        free(n->begun_files[i].key);
    free(n->begun_files);
    keymap_free(&n->begun_shown);
    free(n->db_dir);
    buf_free(&n->r.answer);
    buf_free(&n->r.arguments);
    buf_free(&n->rule);
    buf_free(&n->key);
    buf_free(&n->scratch);
    arena_free(n->line_arena);
    db_close(n->db, NULL); /* not committed: rolled back */
    free(n);
}
