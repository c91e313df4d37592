/* The unit test suites (Check), one per library module. */
#ifndef TR_UNIT_H
#define TR_UNIT_H

#include <check.h>

Suite *value_suite(void);
Suite *json_suite(void);
Suite *yaml_suite(void);
Suite *canon_suite(void);
Suite *pynum_suite(void);
Suite *draw_suite(void);
Suite *answer_suite(void);
Suite *arm_suite(void);
Suite *regex_suite(void);
Suite *schema_suite(void);
Suite *task_suite(void);
Suite *sim_suite(void);
Suite *keymap_suite(void);
Suite *taskcache_suite(void);
Suite *stats_suite(void);
Suite *db_suite(void);
Suite *transcript_suite(void);
Suite *jstream_suite(void);

#endif
