/* replay merge OUT.db SHARD.db...: the shards of a night, replayed apart
 * (replay --shard I/N), into one database, as one replay would have
 * written it; merging again, or a shard twice, changes nothing. */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "db.h"

int cmd_merge(int argc, char **argv)
{
    int quiet = 0, first = 0;
    while (first < argc && argv[first][0] == '-' && argv[first][1]) {
        if (strcmp(argv[first], "--quiet") != 0)
            return usage_error("merge: unknown option '%s'", argv[first]);
        quiet = 1;
        first++;
    }
    if (argc - first < 2)
        return usage_error("merge: give the database to write and the "
                           "shards to merge into it: replay merge OUT.db "
                           "SHARD.db...");
    const char *out = argv[first];
    db *d = NULL;
    err e;
    err_clear(&e);
    if (db_open(&d, out, &e) < 0) {
        fprintf(stderr, "replay: %s\n", e.msg);
        return EXIT_CANNOT;
    }
    int status = 0;
    db_merge_counts all = {0};
    for (int i = first + 1; i < argc; i++) {
        db_merge_counts c;
        if (strcmp(argv[i], out) == 0) {
            fprintf(stderr, "replay: merge: %s is the output; skipped\n", out);
            continue;
        }
        int copy = db_is_empty(d);
        if (copy) { /* an empty database: the shard copied whole */
            if (db_copy_from(d, argv[i], &e) < 0) {
                fprintf(stderr, "replay: %s\n", e.msg);
                status = EXIT_CANNOT;
                break;
            }
            db_close(d, NULL);
            if (db_open(&d, out, &e) < 0) {
                fprintf(stderr, "replay: %s\n", e.msg);
                return EXIT_CANNOT;
            }
            c = (db_merge_counts){0};
            c.episodes = c.added = db_count_episodes(d);
        } else if (db_merge(d, argv[i], &c, &e) < 0) {
            fprintf(stderr, "replay: %s\n", e.msg);
            status = EXIT_CANNOT;
            break;
        }
        if (!quiet)
            fprintf(stderr, "replay: merged %s: %lu episodes (%lu new, %lu "
                            "replaced, %lu unchanged)\n",
                    argv[i], c.episodes, c.added, c.replaced, c.unchanged);
        all.episodes += c.episodes;
        all.added += c.added;
        all.replaced += c.replaced;
        all.unchanged += c.unchanged;
    }
    if (db_close(d, &e) < 0) {
        fprintf(stderr, "replay: %s\n", e.msg);
        status = EXIT_CANNOT;
    }
    if (status == 0 && !quiet)
        fprintf(stderr, "replay: %d shard%s into %s: %lu episodes (%lu new, "
                        "%lu replaced, %lu unchanged)\n",
                argc - first - 1, argc - first - 1 == 1 ? "" : "s", out,
                all.episodes, all.added, all.replaced, all.unchanged);
    return status;
}
