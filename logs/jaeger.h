/*
 * jaeger: a trace in the JSON the Jaeger UI and its query API write
 * ({"data": [trace...]}: traceID, spans with operationName, references,
 * startTime and duration in microseconds, tags, logs and a processID;
 * processes with their serviceName) turned into the ResourceSpans of
 * OTLP's JSON, so that the otlp reader (otlp.h) reads it as any trace.
 *
 * What changes on the way: ids are left-padded to 32 and 16 hex digits
 * (old Jaeger writes "2" for 0x2); a span's parent is its CHILD_OF
 * reference (else its first); times become nanoseconds, its end its start
 * and duration; tags become attributes by their type (string, bool,
 * int64, float64, binary: an int64 past 2^53 is text in Jaeger's JSON, and
 * stays the digits it was); otel.status_code ERROR (or a tag error true)
 * the error status, otel.status_description its message; a log an event
 * named by its "event" field; the process's serviceName and tags the
 * resource.  Nothing is checked here that the otlp reader checks: a value
 * of a wrong shape stays as it was, for it to refuse its span and say
 * why.
 *
 * Promises: pure; what is made lives in the arena given, one span at a
 * time: each span is a ResourceSpans of its own, handed over in the
 * trace's order, so memory is one span's, however many the trace holds.
 */
#ifndef TR_JAEGER_H
#define TR_JAEGER_H

#include "arena.h"
#include "value.h"

/* Whether v looks like a Jaeger trace (an object with "spans" and
 * "processes", or a "traceID" and "spans"). */
int jaeger_is_trace(const value *v);

/* Hands each span of trace, in its order, to fn as a ResourceSpans of
 * its own, made in a, which is reset before each span (what fn keeps of
 * it, it copies), with k its place in the trace's spans.  fn's first
 * non-zero return ends the walk and is returned; JAEGER_NOMEM out of
 * memory. */
#define JAEGER_NOMEM (-2)
int jaeger_each(arena *a, const value *trace,
                int (*fn)(void *ctx, const value *rs, size_t k), void *ctx);

#endif
