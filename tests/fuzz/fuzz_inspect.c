/* fuzz_inspect: the input bytes as a log for the inspect reader (see fuzz_logs.h). */
#define FUZZ_FORMAT LOG_INSPECT
#include "fuzz_logs.h"
