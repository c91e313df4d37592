#include "unit.h"

Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    return s;
}
