/*
 * drawcheck: the property test of drawn values.  For every tool of every
 * tool file given, and seeds 1..N, it draws the tool's arguments from its
 * input schema and an answer from its output schema, and checks each
 * against the schema it came from.
 *
 *   drawcheck [--seeds N] [--print] FILE...
 *
 * --print writes every drawn value (seed, tool, what, canonical JSON), for
 * golden files.  Closes with "draw property: N passed, M failed, K
 * skipped" (K: schemas no value satisfies); a file
 * that is not a tool file is skipped and said.  Exit status 0 when nothing
 * failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "draw.h"
#include "schema.h"
#include "tools.h"

struct totals {
    unsigned long pass, fail, undrawable;
};

static void check_one(const toolset *ts, const tool *t, const value *schema,
                      const char *what, uint64_t seed, int print,
                      struct totals *n)
{
    arena *a = arena_new();
    draw_key k;
    value *v = NULL;
    err e;
    buf msg = BUF_INIT, text = BUF_INIT;
    if (!a) {
        n->fail++;
        return;
    }
    draw_key_init(&k, ts->doc->file_sha256, seed, t->name, "{}", 2);
    err_clear(&e);
    if (draw_value(&v, a, ts->doc->root, schema, &k, "$", &e) < 0) {
        /* Schemas no value satisfies are said, not counted as failures of
         * the drawer, unless the drawer ran out of memory. */
        if (e.code == ERR_NOMEM) {
            n->fail++;
        } else {
            n->undrawable++;
            if (seed == 1)
                printf("undrawable: %s %s: %s\n", t->name, what, e.msg);
        }
    } else {
        int r = schema_check(ts->doc->root, schema, v, "the value", &msg);
        canon_write(&text, v, &e);
        if (r == 0) {
            n->pass++;
        } else {
            n->fail++;
            if (n->fail <= 20)
                printf("FAIL seed %llu %s %s: %s\n  drawn: %.300s\n",
                       (unsigned long long)seed, t->name, what,
                       r < 0 ? "out of memory" : msg.data, text.data);
        }
        if (print)
            printf("%llu %s %s %s\n", (unsigned long long)seed, t->name,
                   what, text.data);
    }
    buf_free(&msg);
    buf_free(&text);
    arena_free(a);
}

int main(int argc, char **argv)
{
    unsigned long seeds = 1000;
    int print = 0;
    struct totals n = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc) {
            seeds = strtoul(argv[++i], NULL, 10);
            continue;
        }
        if (strcmp(argv[i], "--print") == 0) {
            print = 1;
            continue;
        }
        doc *d = NULL;
        toolset *ts = NULL;
        err e;
        err_clear(&e);
        if (doc_load_file(&d, argv[i], &e) < 0 ||
            toolset_build(&ts, d, &e) < 0) {
            char line[1600];
            err_format(&e, argv[i], line, sizeof line);
            printf("skipped: %s\n", line);
            doc_free(d);
            continue;
        }
        for (size_t t = 0; t < ts->ntools; t++)
            for (unsigned long s = 1; s <= seeds; s++) {
                const tool *tl = &ts->tools[t];
                if (tl->input_schema)
                    check_one(ts, tl, tl->input_schema, "arguments", s, print,
                              &n);
                if (tl->output_schema)
                    check_one(ts, tl, tl->output_schema, "answer", s, print,
                              &n);
            }
        toolset_free(ts);
        doc_free(d);
    }
    printf("draw property: %lu passed, %lu failed, %lu skipped\n", n.pass,
           n.fail, n.undrawable);
    return n.fail == 0 ? 0 : 1;
}
