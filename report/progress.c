/* progress: see progress.h. */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void progress_start(progress *p, const char *what, size_t total)
{
    p->on = isatty(STDERR_FILENO);
    p->what = what;
    p->total = total;
    p->done = 0;
    p->began = p->on ? now() : 0;
    p->drawn = p->began - 1; /* the first step is drawn at once */
}

void progress_add(progress *p, size_t n)
{
    p->done += n;
    if (!p->on)
        return;
    double t = now();
    if (t - p->drawn < 0.25)
        return;
    p->drawn = t;
    double rate = t > p->began ? (double)p->done / (t - p->began) : 0;
    fprintf(stderr, "\r\033[Kcard: %s: %zu of %zu", p->what, p->done,
            p->total);
    if (rate > 0) {
        fprintf(stderr, ", %.0f a second", rate);
        if (p->total > p->done)
            fprintf(stderr, ", about %.0f s left",
                    (double)(p->total - p->done) / rate + 0.5);
    }
    fflush(stderr);
}

void progress_end(progress *p)
{
    if (p->on && p->drawn >= p->began)
        fputs("\r\033[K", stderr);
    p->on = 0;
}
