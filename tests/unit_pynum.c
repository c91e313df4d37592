#include "unit.h"

Suite *pynum_suite(void)
{
    Suite *s = suite_create("pynum");
    return s;
}
