/* epages: see epages.h. */
#include "epages.h"

#include <stdlib.h>
#include <string.h>

#include "episode.h"
#include "folder.h"
#include "html.h"

const char *epages_add(epages *p, const char *run, const char *episode)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        epage **more = realloc(p->v, cap * sizeof *more);
        if (!more)
            return NULL;
        p->v = more;
        p->cap = cap;
    }
    epage *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->run = strdup(run);
    g->episode = strdup(episode);
    folder_page_name(&g->name, "episode", run, episode);
    if (!g->run || !g->episode || g->name.failed) {
        free(g->run);
        free(g->episode);
        buf_free(&g->name);
        free(g);
        return NULL;
    }
    p->v[p->n++] = g;
    return g->name.data;
}

static int by_name(const void *x, const void *y)
{
    const epage *a = *(epage *const *)x, *b = *(epage *const *)y;
    return strcmp(a->name.data, b->name.data);
}

size_t epages_count(epages *p)
{
    size_t n = 0;
    if (p->n)
        qsort(p->v, p->n, sizeof *p->v, by_name);
    for (size_t i = 0; i < p->n; i++)
        n += !i || strcmp(p->v[i]->name.data, p->v[i - 1]->name.data) != 0;
    return n;
}

int epages_write(epages *p, sqlite3 *db, const char *dir, size_t *written,
                 progress *pr, err *e)
{
    *written = 0;
    if (p->n)
        qsort(p->v, p->n, sizeof *p->v, by_name);
    for (size_t i = 0; i < p->n; i++) {
        if (i && strcmp(p->v[i]->name.data, p->v[i - 1]->name.data) == 0)
            continue; /* the same episode, linked twice */
        episode_view v;
        if (episode_load(&v, db, p->v[i]->episode, p->v[i]->run, e) < 0) {
            episode_free(&v);
            return -1;
        }
        buf page = BUF_INIT;
        html_begin(&page, v.episode);
        html_back(&page);
        html_episode(&page, &v);
        html_end(&page);
        episode_free(&v);
        int rc = folder_write(dir, p->v[i]->name.data, &page, e);
        buf_free(&page);
        if (rc < 0)
            return -1;
        (*written)++;
        if (pr)
            progress_add(pr, 1);
    }
    return 0;
}

void epages_free(epages *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i]->run);
        free(p->v[i]->episode);
        buf_free(&p->v[i]->name);
        free(p->v[i]);
    }
    free(p->v);
    memset(p, 0, sizeof *p);
}
