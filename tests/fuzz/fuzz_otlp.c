/* fuzz_otlp: the input bytes as a log for the otlp reader (see fuzz_logs.h). */
#define FUZZ_FORMAT LOG_OTLP
#include "fuzz_logs.h"
