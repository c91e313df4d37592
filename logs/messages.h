/*
 * messages: the reader (reader.h) of chat message trajectories (docs/logs.md, "Message
 * trajectories").  The input is a JSON array of records or JSON Lines of
 * them (a document of one record is one record); each record holds a
 * list of chat messages (at --messages KEY, else "messages", "traj" or
 * "trajectory"), in OpenAI form (assistant "tool_calls" whose
 * function.arguments are JSON text, the legacy "function_call", "tool"
 * answers by "tool_call_id") or Anthropic form ("tool_use" blocks,
 * answered by "tool_result" blocks by "tool_use_id").
 *
 * Promises: a record is an episode, its calls in the order of the
 * messages, each with the answer its id names; where a record keeps its
 * task, trial, success, reward, seed and arm is read from lr_opts (dotted
 * paths, defaults in docs/logs.md); every record is read or refused, and
 * every call without an answer, answer without a call or answer of an
 * unknown id is a problem.  One record in memory at a time.
 */
#ifndef TR_MESSAGES_H
#define TR_MESSAGES_H

#include "reader.h"

/* Streams: reads the trajectories from the input's fd. */
extern const log_reader messages_reader;

#endif
