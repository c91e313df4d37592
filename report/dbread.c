/* dbread: see dbread.h. */
#include "dbread.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arm.h"

int rd_prepare(sqlite3 *db, const char *sql, const char *run,
               sqlite3_stmt **s, err *e)
{
    if (sqlite3_prepare_v2(db, sql, -1, s, NULL) != SQLITE_OK)
        return err_set(e, ERR_IO, "cannot read the database: %s",
                       sqlite3_errmsg(db));
    if (run)
        sqlite3_bind_text(*s, 1, run, -1, SQLITE_STATIC);
    return 0;
}

int rd_failed(sqlite3 *db, err *e)
{
    return err_set(e, ERR_IO, "cannot read the database: %s",
                   sqlite3_errmsg(db));
}

int rd_finish(sqlite3 *db, sqlite3_stmt *s, int rc, int nomem, err *e)
{
    /* the error before finalize, which may reset it */
    int failed = rc != SQLITE_DONE && rc != SQLITE_ROW;
    if (failed && !nomem)
        rd_failed(db, e);
    sqlite3_finalize(s);
    if (nomem)
        return err_set(e, ERR_NOMEM, "out of memory");
    return failed ? -1 : 0;
}

char *rd_text(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return strdup(t ? (const char *)t : "");
}

char *rd_text_or_null(sqlite3_stmt *s, int i, int *nomem)
{
    if (sqlite3_column_type(s, i) == SQLITE_NULL)
        return NULL;
    char *t = rd_text(s, i);
    if (!t)
        *nomem = 1;
    return t;
}

int rd_grow(void *array, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t more = *cap ? 2 * *cap : 64;
    void *old, *p;
    memcpy(&old, array, sizeof old); /* the caller's pointer, whatever
                                        its type */
    if (more > SIZE_MAX / size || !(p = realloc(old, more * size)))
        return -1;
    memcpy(array, &p, sizeof p);
    *cap = more;
    return 0;
}

int rd_task_cmp(int observed_a, const char *a, int observed_b, const char *b)
{
    if (observed_a != observed_b)
        return observed_a - observed_b;
    return strcmp(a, b);
}

int rd_arm_rank(const char *id)
{
    arm a;
    err e;
    if (arm_parse(&a, id, strlen(id), &e) < 0)
        return 1000;
    return (int)a.knob * 16 + a.level;
}

int rd_arm_cmp(const char *a, const char *b)
{
    int d = rd_arm_rank(a) - rd_arm_rank(b);
    return d ? d : strcmp(a, b);
}
