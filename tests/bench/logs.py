#!/usr/bin/env python3
"""logs.py NIGHT_DIR OUT_DIR: the episodes of a night of transcripts
(tests/nightgen's) as the three log formats replay reads, for make bench
to time reading each against reading the transcripts:

  RUN.eval           an Inspect log per run, a sample per episode (its
                     seed and arm in the sample's metadata)
  RUN-traces.json    OTLP JSON Lines per run, a trace per episode (an
                     invoke_agent span with tasks.seed and tasks.arm, an
                     execute_tool span per call)
  RUN-tau.json       message trajectories per run (OpenAI messages; seed
                     and arm as members of each record)

Every call keeps its answer as logged; the runs are named as in the
night (Inspect's task, OTLP's service.name, the file's name), so that
each format replays to the same runs and episodes."""
import glob
import json
import os
import sys
import zipfile


def read_night(night):
    """The night's runs ({run: model}) and its episodes in their order,
    each {"seed", "arm", "name", "run", "calls": [(tool, args, answer)]}."""
    runs, eps, order = {}, {}, []
    for path in sorted(glob.glob(night + "/*.jsonl")):
        for line in open(path):
            d = json.loads(line)
            t = d["type"]
            key = (d["run"], d.get("episode"))
            if t == "run":
                runs[d["run"]] = d.get("model", "")
            elif t == "episode":
                eps[key] = {"seed": d["seed"], "arm": d["arm"], "calls": [],
                            "name": d["episode"], "run": d["run"]}
                order.append(key)
            elif t == "call":
                # the call in any of the transcript's shapes
                c = d["call"]
                c = c.get("function") or c.get("params") or c
                args = c.get("arguments", c.get("input", {}))
                if isinstance(args, str):
                    args = json.loads(args)
                eps[key]["calls"].append((c["name"], args, d.get("answer")))
    return runs, [eps[k] for k in order]


dumps = lambda v: json.dumps(v, separators=(",", ":"), sort_keys=True)
zi = lambda n: zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))


def main(night, out):
    runs, episodes_all = read_night(night)
    by_run = {}
    for e in episodes_all:
        by_run.setdefault(e["run"], []).append(e)
    for run, episodes in by_run.items():
        write_run(out, run, runs[run], episodes)


def write_run(out, run, model, episodes):
    with zipfile.ZipFile(os.path.join(out, run + ".eval"), "w",
                         zipfile.ZIP_DEFLATED) as z:
        z.writestr(zi("header.json"), dumps({
            "version": 2, "status": "success",
            "eval": {"task": run, "eval_id": "bench", "model": model}}))
        for e in episodes:
            msgs = []
            for i, (name, args, answer) in enumerate(e["calls"]):
                cid = "c%d" % i
                msgs.append({"role": "assistant", "content": "",
                             "tool_calls": [{"id": cid, "function": name,
                                             "arguments": args}]})
                msgs.append({"role": "tool", "tool_call_id": cid,
                             "content": dumps(answer)})
            z.writestr(zi("samples/%s_epoch_1.json" % e["name"]), dumps({
                "id": e["name"], "epoch": 1, "messages": msgs,
                "metadata": {"seed": e["seed"], "arm": e["arm"]},
                "scores": {}}))
    with open(os.path.join(out, run + "-traces.json"), "w") as f:
        for n, e in enumerate(episodes):
            trace = "%032x" % (n + 1)
            agent = "%016x" % (n + 1)
            attrs = lambda *kv: [{"key": k, "value": v} for k, v in kv]
            spans = [{"traceId": trace, "spanId": agent, "parentSpanId": "",
                      "name": "invoke_agent", "startTimeUnixNano": "1",
                      "attributes": attrs(
                          ("gen_ai.operation.name", {"stringValue": "invoke_agent"}),
                          ("tasks.seed", {"intValue": str(e["seed"])}),
                          ("tasks.arm", {"stringValue": e["arm"]}))}]
            for i, (name, args, answer) in enumerate(e["calls"]):
                spans.append({
                    "traceId": trace, "spanId": "%08x%08x" % (n + 1, i + 1),
                    "parentSpanId": agent, "name": "execute_tool " + name,
                    "startTimeUnixNano": str(10 + i),
                    "attributes": attrs(
                        ("gen_ai.operation.name", {"stringValue": "execute_tool"}),
                        ("gen_ai.tool.name", {"stringValue": name}),
                        ("gen_ai.tool.call.id", {"stringValue": "c%d" % i}),
                        ("gen_ai.tool.call.arguments", {"stringValue": dumps(args)}),
                        ("gen_ai.tool.call.result", {"stringValue": dumps(answer)}))})
            f.write(dumps({"resourceSpans": [{
                "resource": {"attributes": attrs(
                    ("service.name", {"stringValue": run}))},
                "scopeSpans": [{"spans": spans}]}]}) + "\n")
    with open(os.path.join(out, run + "-tau.json"), "w") as f:
        for e in episodes:
            traj = []
            for i, (name, args, answer) in enumerate(e["calls"]):
                cid = "c%d" % i
                traj.append({"role": "assistant", "content": None,
                             "tool_calls": [{"id": cid, "type": "function",
                                             "function": {"name": name,
                                                          "arguments": dumps(args)}}]})
                traj.append({"role": "tool", "tool_call_id": cid,
                             "content": dumps(answer)})
            f.write(dumps({"id": e["name"], "model": model, "seed": e["seed"],
                           "arm": e["arm"], "messages": traj}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
