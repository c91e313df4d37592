#!/usr/bin/env python3
"""make_logs.py TOP OUT: the sample night of samples/observed/steady.jsonl
(an agent logged against its real tools), its first eight tasks of
three trials each with the harness's success, written as three other harnesses write it,
into OUT:

  steady.eval          an Inspect AI eval log (a zip archive: header.json,
                       one member per sample under samples/), each sample
                       scored C or I
  steady-traces.json    OpenTelemetry traces in OTLP JSON, one
                       ExportTraceServiceRequest a line as the Collector's
                       file exporter writes them: a trace per episode, an
                       invoke_agent span, a chat span per call and an
                       execute_tool span per call (spans of one trace
                       spread over lines, out of order)
  steady-tau.json      message trajectories as tau-bench writes them: a
                       JSON array of {task_id, trial, reward, traj}, the
                       messages in OpenAI form

Each follows its format's public documentation (Inspect's log reference,
the OTLP JSON encoding and the GenAI semantic conventions, OpenAI's chat
messages), and reads back, through replay, to the same episodes, trials,
calls and harness success as the transcript.  Deterministic: the same
bytes every time (zip members dated 2026-01-01)."""
import json
import sys
import zipfile

top, out = sys.argv[1], sys.argv[2]
tools = json.load(open(top + "/samples/tools/shop.json"))

episodes = []  # (name, task, trial, calls[(name, args, answer)], success)
by_name = {}
for line in open(top + "/samples/observed/steady.jsonl"):
    d = json.loads(line)
    if d["type"] == "episode":
        e = {"name": d["episode"], "task": d["task_name"], "calls": [],
             "success": None}
        e["trial"] = int(d["episode"].rsplit("-t", 1)[1])
        episodes.append(e)
        by_name[d["episode"]] = e
    elif d["type"] == "call":
        c = d["call"]
        by_name[d["episode"]]["calls"].append(
            (c["name"], c["arguments"], d.get("answer")))
    elif d["type"] == "end":
        by_name[d["episode"]]["success"] = d.get("success")
# the first eight tasks (three trials each) keep the samples small
tasks = sorted({e["task"] for e in episodes}, key=lambda t: [e["task"] for e in episodes].index(t))[:8]
episodes = [e for e in episodes if e["task"] in tasks]


def dumps(v):
    return json.dumps(v, separators=(",", ":"), sort_keys=True)


# ---- Inspect: ToolInfo {name, description, parameters}
tool_info = [{"name": t["function"]["name"],
              "description": t["function"]["description"],
              "parameters": t["function"]["parameters"]} for t in tools]
header = {"version": 2, "status": "success",
          "eval": {"eval_id": "Hq3xVd9kTn2mWc7pLs4bYe", "run_id": "R8fz2",
                   "created": "2026-01-01T00:00:00+00:00",
                   "task": "shop_refunds", "task_id": "shop_refunds",
                   "task_version": 0, "model": "scripted-steady",
                   "dataset": {"name": "steady", "samples": 8}},
          "plan": {"name": "plan", "steps": []},
          "results": {"total_samples": 24, "completed_samples": 24}}
zi = lambda name: zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
with zipfile.ZipFile(out + "/steady.eval", "w",
                     compression=zipfile.ZIP_DEFLATED) as z:
    z.writestr(zi("_journal/start.json"),
               dumps({"version": 2, "eval": header["eval"],
                      "plan": header["plan"]}))
    for e in episodes:
        msgs = [{"role": "user", "content": "Please refund the order."}]
        for i, (name, args, answer) in enumerate(e["calls"]):
            cid = "call_%d" % (i + 1)
            msgs.append({"role": "assistant", "content": "",
                         "tool_calls": [{"id": cid, "function": name,
                                         "arguments": args,
                                         "type": "function"}]})
            msgs.append({"role": "tool", "tool_call_id": cid,
                         "function": name, "content": dumps(answer)})
        msgs.append({"role": "assistant", "content": "Done."})
        sample = {"id": e["task"], "epoch": e["trial"], "input": "refund",
                  "target": "", "messages": msgs,
                  "output": {"model": "scripted-steady",
                             "completion": "Done."},
                  "scores": {"match": {"value": "C" if e["success"] else "I"}},
                  "metadata": {},
                  "events": [{"event": "model", "model": "scripted-steady",
                              "tools": tool_info, "tool_choice": "auto"}],
                  "attachments": {}}
        z.writestr(zi("samples/%s_epoch_%d.json" % (e["task"], e["trial"])),
                   dumps(sample))
    z.writestr(zi("header.json"), dumps(header))

# ---- OTLP: a trace per episode
def kv(key, v):
    if isinstance(v, bool):
        return {"key": key, "value": {"boolValue": v}}
    if isinstance(v, int):
        return {"key": key, "value": {"intValue": str(v)}}
    return {"key": key, "value": {"stringValue": v}}


definitions = dumps([{"type": "function", "name": t["function"]["name"],
                      "description": t["function"]["description"],
                      "parameters": t["function"]["parameters"]}
                     for t in tools])
lines = []
t0 = 1767225600 * 10**9
for n, e in enumerate(episodes):
    trace = "%032x" % (0x5eed0000 + n)
    agent = "%016x" % (0xa0000 + n)
    spans = [{"traceId": trace, "spanId": agent, "parentSpanId": "",
              "name": "invoke_agent shop", "kind": 1,
              "startTimeUnixNano": str(t0 + n * 10**9),
              "endTimeUnixNano": str(t0 + n * 10**9 + 900000),
              "attributes": [kv("gen_ai.operation.name", "invoke_agent"),
                             kv("gen_ai.agent.name", "shop"),
                             kv("tasks.task_name", e["task"]),
                             kv("tasks.success", bool(e["success"]))],
              "status": {}}]
    for i, (name, args, answer) in enumerate(e["calls"]):
        at = t0 + n * 10**9 + (i + 1) * 1000
        spans.append({"traceId": trace, "spanId": "%016x" % (0xc000 + n * 64 + i),
                      "parentSpanId": agent, "name": "chat scripted-steady",
                      "kind": 3, "startTimeUnixNano": str(at),
                      "endTimeUnixNano": str(at + 100),
                      "attributes": [kv("gen_ai.operation.name", "chat"),
                                     kv("gen_ai.request.model", "scripted-steady")]
                      + ([kv("gen_ai.tool.definitions", definitions)] if i == 0 else [])})
        spans.append({"traceId": trace, "spanId": "%016x" % (0x7000 + n * 64 + i),
                      "parentSpanId": agent, "name": "execute_tool " + name,
                      "kind": 1, "startTimeUnixNano": str(at + 200),
                      "endTimeUnixNano": str(at + 300),
                      "attributes": [kv("gen_ai.operation.name", "execute_tool"),
                                     kv("gen_ai.tool.name", name),
                                     kv("gen_ai.tool.call.id", "call_%d" % (i + 1)),
                                     kv("gen_ai.tool.call.arguments", dumps(args)),
                                     kv("gen_ai.tool.call.result", dumps(answer))]})
    # the batch processor exports spans as they end: the tools first,
    # the agent's span last, in a later request
    lines.append((n, [s for s in spans[1:]]))
    lines.append((n + 1.5, [spans[0]]))
lines.sort(key=lambda x: x[0])
with open(out + "/steady-traces.json", "w") as f:
    for _, spans in lines:
        req = {"resourceSpans": [{
            "resource": {"attributes": [kv("service.name", "steady")]},
            "scopeSpans": [{"scope": {"name": "shop-agent"},
                            "spans": spans}]}]}
        f.write(dumps(req) + "\n")

# ---- tau-bench: a JSON array, messages in OpenAI form
records = []
for e in episodes:
    traj = [{"role": "system", "content": "You are a shop's agent."},
            {"role": "user", "content": "Please refund the order."}]
    for i, (name, args, answer) in enumerate(e["calls"]):
        cid = "call_%d" % (i + 1)
        traj.append({"role": "assistant", "content": None,
                     "tool_calls": [{"id": cid, "type": "function",
                                     "function": {"name": name,
                                                  "arguments": dumps(args)}}]})
        traj.append({"role": "tool", "tool_call_id": cid, "name": name,
                     "content": dumps(answer)})
    traj.append({"role": "assistant", "content": "Done."})
    records.append({"task_id": e["task"], "trial": e["trial"],
                    "reward": 1.0 if e["success"] else 0.0,
                    "info": {}, "traj": traj})
with open(out + "/steady-tau.json", "w") as f:
    f.write(json.dumps(records, indent=1, sort_keys=True) + "\n")
