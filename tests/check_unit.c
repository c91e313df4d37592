/* Runs every unit suite; the exit status is 0 only when all pass. */
#include <stdlib.h>

#include "unit.h"

int main(void)
{
    SRunner *sr = srunner_create(value_suite());
    srunner_add_suite(sr, json_suite());
    srunner_add_suite(sr, yaml_suite());
    srunner_add_suite(sr, canon_suite());
    srunner_add_suite(sr, pynum_suite());
    srunner_add_suite(sr, draw_suite());
    srunner_add_suite(sr, answer_suite());
    srunner_add_suite(sr, arm_suite());
    srunner_add_suite(sr, regex_suite());
    srunner_add_suite(sr, schema_suite());
    srunner_add_suite(sr, task_suite());
    srunner_add_suite(sr, sim_suite());
    srunner_add_suite(sr, keymap_suite());
    srunner_add_suite(sr, taskcache_suite());
    srunner_add_suite(sr, stats_suite());
    srunner_add_suite(sr, db_suite());
    srunner_add_suite(sr, transcript_suite());
    srunner_add_suite(sr, jstream_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
