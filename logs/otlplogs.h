/*
 * otlplogs: the GenAI events of OTLP's Logs signal, turned into spans of
 * OTLP's JSON, so that the otlp reader (otlp.h) reads each as an event of
 * the span it names.  Instrumentations that keep a conversation out of
 * their spans send it as log records instead (the OpenAI v2
 * instrumentation: gen_ai.system.message, gen_ai.user.message,
 * gen_ai.assistant.message, gen_ai.tool.message and gen_ai.choice, its
 * body the message; later, gen_ai.client.inference.operation.details,
 * the messages in its attributes), each with the trace and span ids of
 * the chat span it belongs to; the Collector writes them as lines
 * {"resourceLogs": [...]} beside the spans' lines, or in a file of their
 * own.
 *
 * A record is a GenAI event when its eventName (OTLP 1.5 on), or else its
 * attribute event.name, begins "gen_ai.".  Its span: a chat span (its
 * gen_ai.operation.name, unless the record gives one), child of the
 * record's spanId, in its traceId, starting and ending at the record's
 * timeUnixNano (else observedTimeUnixNano), with one event of the
 * record's name whose attributes are the record's and its body (as
 * "body"); operation.details gives its attributes to the span instead.
 * Its own spanId is 16 hex digits of the SHA-256 of the record's span
 * id, times, name and place in its scope, so that a record delivered
 * twice makes the same span (which the reader reads once).  Nothing is
 * checked here that the otlp reader checks: ids of a wrong shape stay as
 * they were, for it to refuse the record and say why.
 *
 * Promises: pure; what is made lives in the arena given, and refers to
 * the input's values (which must outlive it) rather than copy them.
 */
#ifndef TR_OTLPLOGS_H
#define TR_OTLPLOGS_H

#include <stddef.h>

#include "arena.h"
#include "value.h"

/* Where an event's record is: resourceLogs r, its scopeLogs s, record
 * k. */
typedef struct otlplogs_at {
    size_t r, s, k;
} otlplogs_at;

/* Hands each GenAI event of export ({"resourceLogs": [...]}), in its
 * order, to fn as a ResourceSpans of one span (the record's resource and
 * scope kept), made in a, which is reset before each record (what fn
 * keeps of it, it copies: memory is one record's, however many a line
 * holds), and where the record was; other records are passed over.
 * fn's first non-zero return ends the walk and is returned;
 * OTLPLOGS_NOMEM out of memory. */
#define OTLPLOGS_NOMEM (-2)
int otlplogs_each(arena *a, const value *export,
                  int (*fn)(void *ctx, const value *rs, const otlplogs_at *at),
                  void *ctx);

#endif
