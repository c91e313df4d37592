/* fuzz_messages: the input bytes as a log for the messages reader (see fuzz_logs.h). */
#define FUZZ_FORMAT LOG_MESSAGES
#include "fuzz_logs.h"
