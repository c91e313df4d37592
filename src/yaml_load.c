/* STUB */
#include "yaml_load.h"
int yaml_load(value **out, arena *a, const char *bytes, size_t len, err *e) { (void)out; (void)a; (void)bytes; (void)len; return err_set(e, ERR_SYNTAX, "YAML loading is not built yet"); }
