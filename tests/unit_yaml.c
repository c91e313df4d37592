#include "unit.h"

Suite *yaml_suite(void)
{
    Suite *s = suite_create("yaml");
    return s;
}
