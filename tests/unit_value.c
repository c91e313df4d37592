#include "unit.h"

Suite *value_suite(void)
{
    Suite *s = suite_create("value");
    return s;
}
