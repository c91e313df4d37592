/*
 * floor: the least any replayer of a night must do, to measure replay
 * against.  It reads the same JSONL files, parses every line with yajl's
 * event API (callbacks that only count), and inserts one row per call
 * line and per episode line into SQLite, all in one transaction, with a
 * prepared statement.  It prints:
 *
 *   floor: LINES lines, CALLS calls, ROWS rows, SECONDS s, CALLS_PER_S calls/s
 *
 *   floor DB FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>
#include <yajl/yajl_parse.h>

struct counts {
    unsigned long values, calls, episodes;
    int depth, want_type, type; /* type: 1 call, 2 episode */
};

static int on_null(void *c) { ((struct counts *)c)->values++; return 1; }
static int on_bool(void *c, int b) { (void)b; return on_null(c); }
static int on_number(void *c, const char *s, size_t n)
{
    (void)s;
    (void)n;
    return on_null(c);
}
static int on_string(void *ctx, const unsigned char *s, size_t n)
{
    struct counts *c = ctx;
    c->values++;
    if (c->want_type) {
        if (n == 4 && memcmp(s, "call", 4) == 0)
            c->type = 1;
        else if (n == 7 && memcmp(s, "episode", 7) == 0)
            c->type = 2;
        c->want_type = 0;
    }
    return 1;
}
static int on_start_map(void *ctx) { ((struct counts *)ctx)->depth++; return 1; }
static int on_map_key(void *ctx, const unsigned char *k, size_t n)
{
    struct counts *c = ctx;
    c->want_type = c->depth == 1 && n == 4 && memcmp(k, "type", 4) == 0;
    return 1;
}
static int on_end_map(void *ctx) { ((struct counts *)ctx)->depth--; return 1; }
static int on_array(void *ctx) { (void)ctx; return 1; }

static const yajl_callbacks callbacks = {
    on_null, on_bool, NULL, NULL, on_number, on_string,
    on_start_map, on_map_key, on_end_map, on_array, on_array};

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: floor DB FILE...\n");
        return 2;
    }
    sqlite3 *db;
    sqlite3_stmt *ins;
    if (sqlite3_open(argv[1], &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = "
                         "NORMAL; DROP TABLE IF EXISTS rows; CREATE TABLE "
                         "rows (n INTEGER PRIMARY KEY, kind TEXT, line TEXT);"
                         "BEGIN",
                     NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO rows (kind, line) VALUES (?, ?)",
                           -1, &ins, NULL) != SQLITE_OK) {
        fprintf(stderr, "floor: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct counts c = {0};
    unsigned long lines = 0, rows = 0;
    char *line = NULL;
    size_t cap = 0;
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        ssize_t n;
        while ((n = getline(&line, &cap, f)) > 0) {
            lines++;
            yajl_handle h = yajl_alloc(&callbacks, NULL, &c);
            c.type = 0;
            c.depth = 0;
            if (yajl_parse(h, (unsigned char *)line, (size_t)n) != yajl_status_ok ||
                yajl_complete_parse(h) != yajl_status_ok) {
                yajl_free(h);
                continue;
            }
            yajl_free(h);
            if (c.type) {
                c.calls += c.type == 1;
                c.episodes += c.type == 2;
                sqlite3_bind_text(ins, 1, c.type == 1 ? "call" : "episode", -1,
                                  SQLITE_STATIC);
                sqlite3_bind_text(ins, 2, line, (int)n, SQLITE_STATIC);
                if (sqlite3_step(ins) != SQLITE_DONE) {
                    fprintf(stderr, "floor: %s\n", sqlite3_errmsg(db));
                    return 1;
                }
                sqlite3_reset(ins);
                rows++;
            }
        }
        fclose(f);
    }
    free(line);
    sqlite3_finalize(ins);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "floor: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    sqlite3_close(db);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("floor: %lu lines, %lu calls, %lu rows, %.3f s, %.0f calls/s\n",
           lines, c.calls, rows, s, s > 0 ? (double)c.calls / s : 0.0);
    return 0;
}
