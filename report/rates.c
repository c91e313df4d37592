/* rates: see rates.h; docs/card.md, "Intervals", gives the method. */
#include "rates.h"

#include <string.h>

#include "dbread.h"

card_rate card_rate_plain(long x, long n)
{
    card_rate r;
    memset(&r, 0, sizeof r);
    r.x = x;
    r.n = n;
    r.tasks = n;
    r.most = n > 0;
    r.ci = wilson((unsigned long)x, (unsigned long)n);
    return r;
}

int card_rates_load(sqlite3 *db, const char *run, card_rate rate[2], err *e)
{
    sqlite3_stmt *s;
    for (int k = 0; k < 2; k++)
        rate[k] = card_rate_plain(0, 0);
    /* per kind, the sums clustered_rate takes of the run's tasks */
    if (rd_prepare(db, "SELECT obs, count(*), sum(n), sum(x), sum(x * x), "
                    "sum(x * n), sum(n * n), max(n) FROM ("
                    "  SELECT e.seed IS NULL AS obs, "
                    "  CASE WHEN e.seed IS NULL THEN count(e.success) "
                    "  ELSE count(*) END AS n, "
                    "  CASE WHEN e.seed IS NULL THEN coalesce(sum(e.success), 0) "
                    "  ELSE coalesce(sum(e.pass), 0) END AS x "
                    "  FROM episode_rows e JOIN runs r ON r.run_id = e.run_id "
                    "  WHERE r.run = ? GROUP BY obs, "
                    "  coalesce(e.task_id, e.task_name, e.episode_id)) "
                    "WHERE n > 0 GROUP BY obs",
                run, &s, e) < 0)
        return -1;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        card_rate *r = &rate[sqlite3_column_int(s, 0) ? 1 : 0];
        cluster_sums sums = {
            sqlite3_column_double(s, 1), sqlite3_column_double(s, 2),
            sqlite3_column_double(s, 3), sqlite3_column_double(s, 4),
            sqlite3_column_double(s, 5), sqlite3_column_double(s, 6)};
        *r = card_rate_plain((long)sqlite3_column_int64(s, 3),
                             (long)sqlite3_column_int64(s, 2));
        r->tasks = (long)sqlite3_column_int64(s, 1);
        r->most = (long)sqlite3_column_int64(s, 7);
        r->clustered = r->most > 1;
        if (r->clustered)
            r->ci = clustered_rate(&sums, &r->n_eff);
    }
    return rd_finish(db, s, rc, 0, e);
}

void card_rate_ci_text(buf *out, const card_rate *r)
{
    buf_printf(out, "95%% CI %.1f-%.1f%%", 100 * r->ci.lo, 100 * r->ci.hi);
    if (r->clustered)
        buf_printf(out, ", clustered by %ld task%s", r->tasks,
                   r->tasks == 1 ? "" : "s");
}
