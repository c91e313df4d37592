/* db: loading a night writes its rows and nothing beside them.  SQLite
 * keeps a statement journal (a temporary file holding the whole of every
 * page a statement touches) for a statement of several rows that may stop
 * half-way; the writer's statements must never need one.  A VFS that
 * counts the files SQLite opens, by kind, sees it: with the spill
 * threshold at 0, a statement journal is a file from its first byte. */
#define _XOPEN_SOURCE 700
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "doc.h"
#include "tools.h"
#include "unit.h"

/* The counting VFS: the default one, with xOpen counting.  Set up in each
 * test's own process (Check forks one per test). */
static sqlite3_vfs counting, *real;
static int opened_subjournal, opened_temp;

static int count_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
                      int flags, int *out)
{
    (void)vfs;
    if (flags & SQLITE_OPEN_SUBJOURNAL)
        opened_subjournal++;
    if (flags & (SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_TEMP_DB |
                 SQLITE_OPEN_TRANSIENT_DB))
        opened_temp++;
    return real->xOpen(real, name, f, flags, out);
}

static void counting_on(void)
{
    ck_assert_int_eq(sqlite3_shutdown(), SQLITE_OK);
    ck_assert_int_eq(sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 0),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_initialize(), SQLITE_OK);
    ck_assert_ptr_nonnull(real = sqlite3_vfs_find(NULL));
    counting = *real;
    counting.zName = "counting";
    counting.pNext = NULL;
    counting.xOpen = count_open;
    ck_assert_int_eq(sqlite3_vfs_register(&counting, 1), SQLITE_OK);
    opened_subjournal = opened_temp = 0;
}

struct fixture {
    char dir[64], path[96];
    doc *d;
    toolset *ts;
    db *db;
};

static void open_new(struct fixture *f)
{
    char tools[1024];
    const char *top = getenv("TOP_SRCDIR");
    err e;
    snprintf(f->dir, sizeof f->dir, "/tmp/unit-db-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/night.db", f->dir);
    snprintf(tools, sizeof tools, "%s/samples/tools/shop.json",
             top ? top : ".");
    ck_assert_msg(doc_load_file(&f->d, tools, &e) == 0, "%s: %s", tools,
                  e.msg);
    ck_assert_int_eq(toolset_build(&f->ts, f->d, &e), 0);
    ck_assert_msg(db_open(&f->db, f->path, &e) == 0, "%s", e.msg);
    ck_assert_msg(db_load_begin(f->db, &e) == 0, "%s", e.msg);
    ck_assert_msg(db_begin(f->db, &e) == 0, "%s", e.msg);
    ck_assert_msg(db_put_tool_file(f->db, f->ts, "shop.json", &e) == 0, "%s",
                  e.msg);
    db_run r = {.run = "r1", .model = "m", .meta_json = "{}",
                .file_sha256 = f->d->file_sha256, .tools_path = "shop.json",
                .generator_version = 3, .generator_fingerprint = "f",
                .replayed_at = "2026-12-04T00:00:00Z"};
    ck_assert_msg(db_put_run(f->db, &r, &e) == 0, "%s", e.msg);
    ck_assert_msg(db_commit(f->db, &e) == 0, "%s", e.msg);
}

static void close_all(struct fixture *f)
{
    char p[128];
    err e;
    ck_assert_msg(db_close(f->db, &e) == 0, "%s", e.msg);
    toolset_free(f->ts);
    doc_free(f->d);
    const char *suffix[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s%s", f->path, suffix[i]);
        unlink(p);
    }
    rmdir(f->dir);
}

/* Episodes of 20 calls (statements of 8, 8 and 4 rows) with two dial
 * outcomes each, and problems, in one transaction: no statement journal
 * and no other temporary file is opened for them.  (Making the schema and
 * recording a run may open one: once a night.) */
START_TEST(a_load_opens_no_statement_journal)
{
    struct fixture f;
    counting_on();
    open_new(&f);
    int journals = opened_subjournal; /* making the schema, a run: once */
    err e;
    char name[32], was[17];
    ck_assert_msg(db_begin(f.db, &e) == 0, "%s", e.msg);
    for (int i = 0; i < 300; i++) {
        db_call calls[20];
        db_outcome outs[2] = {
            {.event = 1, .step = 1, .dial = "lag", .seq = 2, .outcome = "fired"},
            {.event = 2, .step = 2, .dial = "fault", .seq = 0,
             .outcome = "not reached"}};
        for (unsigned c = 0; c < 20; c++)
            calls[c] = (db_call){.seq = c + 1, .step = 1, .tool = "get_order",
                                 .tool_len = 9, .kind = "read",
                                 .arguments = "{\"order_id\":\"o-1\"}",
                                 .arguments_valid = 1,
                                 .answer = "{\"status\":\"shipped\"}",
                                 .effect = "none", .diverged = -1,
                                 .answer_valid = -1,
                                 .source_file = "night.jsonl",
                                 .source_line = (unsigned long)(i * 21 + c + 2)};
        snprintf(name, sizeof name, "ep-%04d", i);
        db_episode ep = {.run = "r1", .episode = name, .seed = (uint64_t)i,
                         .arm = "base", .knob = "none", .calls = 20,
                         .success = -1, .status = "done", .final = "ok",
                         .content_xxh3 = "0123456789abcdef",
                         .source_file = "night.jsonl",
                         .source_line = (unsigned long)(i * 21 + 1)};
        ck_assert_msg(db_put_episode(f.db, &ep, calls, 20, outs, 2, was,
                                     &e) == 0,
                      "%s", e.msg);
    }
    for (unsigned long l = 1; l <= 300; l++) {
        db_problem p = {.source_file = "bad.jsonl", .source_line = l,
                        .message = "not JSON", .line = "{", .line_len = 1};
        ck_assert_msg(db_put_problem(f.db, &p, &e) == 0, "%s", e.msg);
    }
    ck_assert_msg(db_commit(f.db, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(opened_subjournal, journals);
    ck_assert_int_eq(opened_temp, 0);
    ck_assert_msg(db_load_end(f.db, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(db_count_episodes(f.db), 300);
    close_all(&f);
    sqlite3_vfs_unregister(&counting);
}
END_TEST

/* The counter sees a statement journal when one is needed: a statement
 * of several rows with ABORT, after the pages it touches were changed
 * earlier in the transaction. */
START_TEST(the_counter_sees_a_statement_journal)
{
    sqlite3 *h;
    char dir[] = "/tmp/unit-db-XXXXXX", path[64];
    counting_on();
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.db", dir);
    ck_assert_int_eq(sqlite3_open(path, &h), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(h, "CREATE TABLE t (a INTEGER PRIMARY KEY, "
                                     "b TEXT NOT NULL); BEGIN; "
                                     "INSERT INTO t VALUES (1, 'x'); "
                                     "INSERT INTO t VALUES (2, 'y'), (3, 'z'); "
                                     "COMMIT;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(opened_subjournal, 1);
    ck_assert_int_eq(sqlite3_close(h), SQLITE_OK);
    unlink(path);
    rmdir(dir);
    sqlite3_vfs_unregister(&counting);
}
END_TEST

Suite *db_suite(void)
{
    Suite *s = suite_create("db");
    TCase *tc = tcase_create("load");
    tcase_set_timeout(tc, 60); /* a database on disk, under sanitizers */
    tcase_add_test(tc, the_counter_sees_a_statement_journal);
    tcase_add_test(tc, a_load_opens_no_statement_journal);
    suite_add_tcase(s, tc);
    return s;
}
