/* sink: see sink.h. */
#include "sink.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"

int serve_sink_open(serve_sink *k, serve_say_fn say, const char *run,
                    const char *transcript, const char *report_path)
{
    memset(k, 0, sizeof *k);
    k->say = say;
    k->run = run;
    k->transcript = transcript;
    k->report_path = report_path;
    if (pthread_mutex_init(&k->lock, NULL) != 0) {
        k->say("replay serve: cannot make a lock");
        return -1;
    }
    if (report_path && !(k->report = live_open_output(report_path, "w"))) {
        k->say("replay serve: cannot open the report %s: %s", report_path,
            strerror(errno));
        pthread_mutex_destroy(&k->lock);
        return -1;
    }
    return 0;
}

struct episode {
    const mcp_session *s;
    const char *status;
};

static int make_episode(void *ctx, live_writer *w)
{
    const struct episode *ep = ctx;
    return mcp_session_transcript(ep->s, ep->status, w);
}

int serve_write(serve_sink *k, const mcp_session *s, const char *status,
                const char *why)
{
    if (!mcp_session_started(s))
        return 0; /* never initialized: no task, no episode */
    const char *id = mcp_session_episode_id(s);
    const char *broken = mcp_session_broken(s);
    if (broken) { /* it ended early, whatever ended the session */
        status = NULL;
        why = broken;
    }
    struct episode ep = {s, status};
    buf report = BUF_INIT, summary = BUF_INIT;
    int rc = 0;
    pthread_mutex_lock(&k->lock);
    if (k->transcript &&
        live_append_episode(k->transcript, make_episode, &ep) < 0) {
        k->say("replay serve: cannot write episode %s to the transcript %s: %s",
            id, k->transcript, strerror(errno));
        k->failed = 1;
        rc = -1;
    }
    if (mcp_session_report(s, !status, &report, &summary) == 0 &&
        buf_putc(&summary, '\0') == 0) {
        if (k->report && !k->failed &&
            (fwrite(report.data, 1, report.len, k->report) != report.len ||
             fflush(k->report) != 0)) {
            k->say("replay serve: cannot write the report %s: %s",
                k->report_path, strerror(errno));
            k->failed = 1;
            rc = -1;
        }
        k->say("replay serve: episode %s: %s%s%s%s", id, summary.data,
            status ? "" : "; unfinished", why ? ": " : "", why ? why : "");
    } else {
        k->say("replay serve: episode %s: out of memory for its report", id);
        k->failed = 1;
        rc = -1;
    }
    pthread_mutex_unlock(&k->lock);
    buf_free(&report);
    buf_free(&summary);
    return rc;
}

int serve_sink_close(serve_sink *k)
{
    int rc = 0;
    if (k->report && live_close_output(k->report) != 0) {
        k->say("replay serve: cannot write the report %s: %s", k->report_path,
            strerror(errno));
        rc = -1;
    }
    pthread_mutex_destroy(&k->lock);
    return rc;
}
