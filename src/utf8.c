#include "utf8.h"
typedef int utf8_unused;
