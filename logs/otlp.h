/*
 * otlp: the reader (reader.h) of OpenTelemetry traces in OTLP JSON (docs/logs.md,
 * "OpenTelemetry traces"), as the Collector's file exporter writes them
 * (one ExportTraceServiceRequest a line) or as one document, read by the
 * GenAI semantic conventions:
 *  - an episode is a trace, or each outermost invoke_agent span of it
 *    (with --each-agent, each invoke_agent span, nested ones too);
 *  - its calls are its execute_tool spans (gen_ai.tool.name,
 *    gen_ai.tool.call.id, .arguments, .result; an error status is an
 *    error answer) in the order they started, and the tool calls that
 *    only chat spans show (gen_ai.output.messages, or the older
 *    gen_ai.choice events), answered by the gen_ai.input.messages or
 *    gen_ai.tool.message events that name their id;
 *  - the model is the chat spans'; the tools offered their
 *    gen_ai.tool.definitions; the run is --run or the resource's
 *    service.name; tasks.seed and tasks.arm make the episode one the
 *    simulator replays, tasks.task_name names its task, tasks.success
 *    and tasks.reward are the harness's verdict.
 * The GenAI events of the Logs signal (a line {"resourceLogs": [...]})
 * are read as events of the spans they name (otlplogs.h).
 * OTLP's value encoding (stringValue, intValue as text, doubleValue,
 * boolValue, arrayValue, kvlistValue, bytesValue) is read, ids are hex
 * (either case), and the spans of a trace may come in any order, over
 * any lines.
 *
 * Promises: a trace is written when the input ends, its spans sorted by
 * start time; the input is the OTLP files read one after the other, one
 * stream: what is kept open is held in the logr from one file to the
 * next (lines.h, lr_hold) and written by the reader's finish, each trace
 * on the lines of the file its last span was read from (lr_as_file). What is kept until then is a short record of each span
 * (its ids, times and the GenAI attributes above, not the rest), at most
 * OTLP_OPEN_MAX traces and OTLP_KEPT_MAX bytes of records: past either,
 * the trace seen first of those whose root span (one without a parent)
 * is read is written at once, whole (an exporter sends a span when it
 * ends, and a root ends after the spans under it); when no open trace
 * has its root, the trace seen first is written without its end line
 * (replay writes it unfinished: its later spans, if any, were not seen),
 * and that is said.  The ids of traces written early are kept: a span
 * of one that comes later is refused, and said.  A chat span's history
 * (gen_ai.input.messages) that goes on from the last one read of its
 * trace is read from where that one ends: its record refers to the
 * earlier record for the calls and answers they share, and counts what
 * putting them back takes; the last history of OTLP_HISTORIES traces is
 * kept for that (each at most OTLP_HISTORY_MAX bytes), and what comes of
 * it is what reading the whole text gives, in any order of the spans.
 */
#ifndef TR_OTLP_H
#define TR_OTLP_H

#include "reader.h"

#define OTLP_OPEN_MAX 10000u      /* traces kept open at once */
#define OTLP_KEPT_MAX (64u << 20) /* bytes of span records kept */
#define OTLP_HISTORIES 8u         /* chat histories kept to read on from */
#define OTLP_HISTORY_MAX (1u << 20) /* bytes of one; longer ones are read
                                       whole */

/* Streams: reads the traces from the input's fd. */
extern const log_reader otlp_reader;

#endif
