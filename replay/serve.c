/* serve: the sink of finished sessions (see serve.h). */
#include "serve.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "live.h"

int serve_sink_open(serve_sink *k, const char *run, const char *transcript,
                    const char *report_path)
{
    memset(k, 0, sizeof *k);
    k->run = run;
    k->transcript = transcript;
    k->report_path = report_path;
    if (live_ids_init(&k->ids, run) < 0) {
        say("replay serve: cannot seed a hash: %s", strerror(errno));
        return -1;
    }
    if (pthread_mutex_init(&k->lock, NULL) != 0) {
        say("replay serve: cannot make a lock");
        live_ids_free(&k->ids);
        return -1;
    }
    if (report_path && !(k->report = live_open_output(report_path, "w"))) {
        say("replay serve: cannot open the report %s: %s", report_path,
            strerror(errno));
        pthread_mutex_destroy(&k->lock);
        live_ids_free(&k->ids);
        return -1;
    }
    return 0;
}

struct episode {
    const mcp_session *s;
    const char *status;
};

static int make_episode(void *ctx, const char *id, buf *out)
{
    const struct episode *ep = ctx;
    return mcp_session_transcript(ep->s, id, ep->status, out);
}

void serve_write(serve_sink *k, const mcp_session *s, const char *status,
                 const char *why)
{
    if (!mcp_session_started(s))
        return; /* never initialized: no task, no episode */
    const char *tid = mcp_session_task_id(s);
    struct episode ep = {s, status};
    char *id = NULL;
    buf report = BUF_INIT, summary = BUF_INIT;
    pthread_mutex_lock(&k->lock);
    if (k->transcript) {
        if (live_append_episode(k->transcript, &k->ids, tid, make_episode, &ep,
                                &id) < 0) {
            say("replay serve: cannot write an episode of task %s to the "
                "transcript %s: %s",
                tid, k->transcript, strerror(errno));
            k->failed = 1;
        }
    } else if (!(id = live_ids_take(&k->ids, tid))) {
        say("replay serve: out of memory");
        k->failed = 1;
    }
    if (id && mcp_session_report(s, id, &report, &summary) == 0 &&
        buf_putc(&summary, '\0') == 0) {
        if (k->report && !k->failed &&
            (fwrite(report.data, 1, report.len, k->report) != report.len ||
             fflush(k->report) != 0)) {
            say("replay serve: cannot write the report %s: %s",
                k->report_path, strerror(errno));
            k->failed = 1;
        }
        say("replay serve: episode %s: %s%s%s%s", id, summary.data,
            status ? "" : "; unfinished", why ? ": " : "", why ? why : "");
    } else if (id) {
        say("replay serve: out of memory");
        k->failed = 1;
    }
    pthread_mutex_unlock(&k->lock);
    free(id);
    buf_free(&report);
    buf_free(&summary);
}

int serve_sink_close(serve_sink *k)
{
    int rc = 0;
    if (k->report && live_close_output(k->report) != 0) {
        say("replay serve: cannot write the report %s: %s", k->report_path,
            strerror(errno));
        rc = -1;
    }
    live_ids_free(&k->ids);
    pthread_mutex_destroy(&k->lock);
    return rc;
}
