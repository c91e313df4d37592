#include "unit.h"

Suite *canon_suite(void)
{
    Suite *s = suite_create("canon");
    return s;
}
