# Logs other harnesses write (docs/logs.md), read by replay import and
# replay --from:
#  - each format's fixture of pitfalls (tests/logs: written from each
#    format's public documentation) gives exactly its gold transcript and
#    exactly its problem lines; the .eval form of the Inspect log (zipped
#    here, with a zip bomb, a member cut short and a truncated copy) and
#    the OTLP document form give the same lines as the .json and JSON
#    Lines forms;
#  - replay import then replay, and replay --from, give the same database
#    table by table (but for the source file and line: the log's own, or
#    the transcript's), on every fixture and sample;
#  - more OTLP traces than are kept open: room made with whole traces
#    whose root span is read, else the first seen, unfinished and said;
#  - the samples of samples/logs (the observed night's first eight tasks as
#    Inspect, OTLP and tau-bench write them) replay to the episodes,
#    trials, calls per tool and harness success of the transcript itself.
# UPDATE_GOLDEN=1 rewrites the golds.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
skip_unless_python
export SOURCE_DATE_EPOCH=1790000000
golds=$TOP_SRCDIR/tests/logs
T=$TEST_TMP
pass=0 fail=0
ok() { count_eq "$@"; }
gold() { # NAME TEXT
    [ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$2" > "$golds/$1.gold"
    ok "$1" "$(cat "$golds/$1.gold")" "$2"
}
cp "$golds"/*.json "$golds"/*.jsonl "$T/"
cp "$TOP_SRCDIR"/samples/logs/* "$T/"
cp "$TOP_SRCDIR/samples/tools/shop.json" "$T/"
cd "$T" || exit 99

# --- the .eval form: the members of tests/logs/inspect-eval zipped, a
# --- member that says it holds 257 MiB (a zip bomb: 256 KiB on disk), a
# --- member cut short, and a copy of the archive cut in half
timeout 120 "$PYTHON3" - "$golds/inspect-eval" <<'EOF' || exit 99
import os, sys, zipfile
src = sys.argv[1]
zi = lambda n: zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
with zipfile.ZipFile("inspect.eval", "w", zipfile.ZIP_DEFLATED) as z:
    for name in ["header.json"] + ["samples/" + n for n in
                                   sorted(os.listdir(src + "/samples"))]:
        z.writestr(zi(name), open(src + "/" + name, "rb").read())
with zipfile.ZipFile("bad.eval", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zi("header.json"), open(src + "/header.json", "rb").read())
    info = zi("samples/bomb_epoch_1.json")
    info.compress_type = zipfile.ZIP_DEFLATED
    with z.open(info, "w", force_zip64=True) as w:
        for i in range(257):
            w.write(b" " * (1 << 20))
    z.writestr(zi("samples/cut_epoch_1.json"), b'{"id": "x", "messages": [')
    z.writestr(zi("samples/2_epoch_1.json"),
               open(src + "/samples/2_epoch_1.json", "rb").read())
data = open("inspect.eval", "rb").read()
open("truncated.eval", "wb").write(data[:len(data) // 2])
EOF

# --- each fixture: its transcript and its problems, exactly
imp() { # NAME FORMAT FILE...: import into NAME.jsonl, stderr and status
    n=$1
    shift
    timeout 60 "$REPLAY" import "$@" -o "$n.jsonl" 2>&1
    echo "exit $?"
}
gold inspect-problems "$(imp inspect inspect inspect.json)"
gold inspect-transcript "$(cat inspect.jsonl)"
ok "the .eval form: the lines of the .json form" "$(cat inspect.jsonl)" \
    "$(imp inspect-eval inspect inspect.eval >/dev/null; cat inspect-eval.jsonl)"
gold inspect-bad "$(imp bad inspect bad.eval truncated.eval inspect-v9.json)"
# every call, from every place an Inspect sample keeps one: a react()
# agent's submit that only its events show, a tool event's result where
# the messages have none, a tool message answering an event's call; and a
# version 1 log's one score, singular
gold inspect-react "$(imp react inspect inspect-react.json; cat react.jsonl)"
# calls of one id (older Gemini logs give a call its function's name)
# take their tool events in order: each its own working time, and the
# result of its own event where no tool message answers it; an integer
# task_version (Inspect's default, 0) is kept in the run's meta
"$PYTHON3" - > sameid.json <<'EOF'
import json
calls = [{"id": "get_order", "function": "get_order", "type": "function",
          "arguments": {"order_id": "A%d" % k}} for k in (1, 2, 3)]
tool_events = [{"event": "tool", "type": "function", "id": "get_order",
                "function": "get_order", "arguments": c["arguments"],
                "result": "r%d" % k, "working_time": k + 0.5}
               for k, c in enumerate(calls, 1)]
sample = {"id": "g", "epoch": 1, "scores": {"s": {"value": "C"}},
          "messages": [{"role": "user", "content": "Go."},
                       {"role": "assistant", "content": "",
                        "tool_calls": calls},
                       {"role": "tool", "tool_call_id": "get_order",
                        "content": "m1"},
                       {"role": "assistant", "content": "Done."}],
          "output": {"model": "g1", "completion": "Done.", "choices": []},
          "events": [{"event": "model", "input": [], "tools": [],
                      "output": {"choices": [{"message": {
                          "role": "assistant", "content": "",
                          "tool_calls": calls}}]}}] + tool_events}
print(json.dumps({"version": 2, "status": "success",
                  "eval": {"eval_id": "E3", "run_id": "R3", "task": "same",
                           "task_version": 0, "model": "g1"},
                  "samples": [sample]}))
EOF
ok "calls of one id: their own events' times and results, in order" \
'{"order_id":"A1"} "m1" 1.5
{"order_id":"A2"} "r2" 2.5
{"order_id":"A3"} "r3" 3.5
"inspect":{"eval_id":"E3","run_id":"R3","status":"success","task":"same","task_version":0}' \
    "$(imp sameid inspect sameid.json >/dev/null
       sed -n 's/.*"arguments":\({[^}]*}\).*"answer":\("[^"]*"\).*"duration":\([0-9.]*\).*/\1 \2 \3/p' sameid.jsonl
       grep -o '"inspect":{[^}]*}' sameid.jsonl)"
gold inspect-v1 "$(imp v1 inspect inspect-v1.json --score match; cat v1.jsonl)"
# Inspect's older layouts: a tool's or a subtask's own events kept inside
# it (0.3.25 to 0.3.93: a sub-agent's calls are there, not beside it)
# are read after the event that holds them, as newer logs write them; a
# sample of the transcript layout (before 0.3.42: "transcript": {events,
# content}, references "tc://") is read as one with events and attachments
"$PYTHON3" - > layouts.json <<'EOF'
import json
def call(cid, fn, **args):
    return {"id": cid, "function": fn, "type": "function", "arguments": args}
def tool(cid, fn, result, t, events=None, **args):
    ev = {"event": "tool", "type": "function", "id": cid, "function": fn,
          "arguments": args, "result": result, "working_time": t}
    if events is not None:
        ev["events"] = events
    return ev
def model(*calls):
    return {"event": "model", "input": [], "tools": [],
            "output": {"choices": [{"message": {"role": "assistant",
                                                "content": "",
                                                "tool_calls": list(calls)}}]}}
outer = call("c1", "researcher", question="where is A1?")
inner = [model(call("s1", "get_order", order_id="A1")),
         tool("s1", "get_order", "shipped", 0.25, order_id="A1")]
nested = {"id": "n", "epoch": 1, "scores": {"s": {"value": "C"}},
          "messages": [{"role": "user", "content": "Go."},
                       {"role": "assistant", "content": "", "tool_calls": [outer]},
                       {"role": "tool", "tool_call_id": "c1", "content": "A1 shipped"},
                       {"role": "assistant", "content": "Done."}],
          "output": {"completion": "Done.", "choices": []},
          "events": [model(outer),
                     tool("c1", "researcher", "A1 shipped", 2.0, inner,
                          question="where is A1?"),
                     {"event": "subtask", "name": "audit", "input": {},
                      "result": None,
                      "events": [model(call("s2", "list_orders")),
                                 tool("s2", "list_orders", "[]", 0.5)]}]}
legacy = {"id": "t", "epoch": 1, "scores": {"s": {"value": "I"}},
          "messages": [{"role": "user", "content": "Go."},
                       {"role": "assistant", "content": "",
                        "tool_calls": [call("c1", "get_order", order_id="A2")]},
                       {"role": "assistant", "content": "tc://k1"}],
          "output": {"completion": "Gave up.", "choices": []},
          "transcript": {"events": [model(call("c1", "get_order", order_id="A2")),
                                    tool("c1", "get_order", "tc://k2", 1.5,
                                         order_id="A2")],
                         "content": {"k1": "Gave up.", "k2": "not found"}}}
print(json.dumps({"version": 2, "status": "success",
                  "eval": {"task": "layouts", "run_id": "R4", "model": "m"},
                  "samples": [nested, legacy]}))
EOF
ok "Inspect's older layouts: nested events, the transcript layout" \
'replay: inspect: 1 file, 2 samples: 2 read, 0 skipped, 0 refused; 2 episodes, 4 calls; 0 problems; 9 transcript lines
n#1|researcher|{"question":"where is A1?"}|"A1 shipped"|2.0
n#1|get_order|{"order_id":"A1"}|"shipped"|0.25
n#1|list_orders|{}|"[]"|0.5
t#1|get_order|{"order_id":"A2"}|"not found"|1.5' \
    "$(rm -f layouts.db; timeout 60 "$REPLAY" --quiet --from inspect --tools shop.json \
           --db layouts.db layouts.json 2>&1 | grep '^replay: inspect'
       sqlite3 layouts.db "SELECT episode, tool, arguments, logged_answer, duration FROM calls
           ORDER BY episode, seq")"
# shapes of Inspect's own versions: a version 1 tool message's error kept
# as text (tool_error); an output without completion (a property of the
# early ModelOutput, never written): the first choice's text; a tool's
# description of more than 100 characters, which Inspect keeps as an
# attachment: its text in the tool file
"$PYTHON3" - > versions.json <<'EOF'
import json
long = "Run a shell command and return what it prints. " * 3
call = {"id": "c1", "function": "bash", "arguments": {"cmd": "cat /nope"},
        "type": "function"}
sample = {"id": "v", "epoch": 1, "score": {"value": "I"},
          "messages": [{"role": "user", "content": "Go."},
                       {"role": "assistant", "content": "", "tool_calls": [call]},
                       {"role": "tool", "tool_call_id": "c1", "content": "",
                        "tool_error": "No such file: /nope"},
                       {"role": "assistant", "content": "Gave up."}],
          "output": {"model": "m1", "choices": [{"message": {
              "role": "assistant",
              "content": [{"type": "text", "text": "Gave up."}]},
              "stop_reason": "stop"}]},
          "events": [{"event": "model", "input": [], "tools": [
              {"name": "bash", "description": "attachment://d41d8",
               "parameters": {"type": "object", "properties": {
                   "cmd": {"type": "string"}}, "required": ["cmd"]}},
              {"name": "ls", "description": "attachment://gone",
               "parameters": {"type": "object"}}],
              "output": {"choices": []}}],
          "attachments": {"d41d8": long}}
print(json.dumps({"version": 1, "status": "success",
                  "eval": {"eval_id": "E2", "run_id": "R2", "task": "old",
                           "model": "m1"},
                  "samples": [sample]}))
EOF
ok "a tool description that refers to no attachment: kept, and said" \
    'versions.json: $.samples[0].events[0].tools[1].description: a reference to the attachment "gone", which the sample'"'"'s attachments do not hold: the reference is kept as text' \
    "$(imp versions inspect versions.json | grep description)"
ok "Inspect's versions: tool_error, no completion, a long description" \
    '{"type":"call","run":"old/E2","episode":"v#1","call":{"arguments":{"cmd":"cat /nope"},"name":"bash"},"answer":{"error":{"code":"unknown","message":"No such file: /nope"}}}
{"type":"end","run":"old/E2","episode":"v#1","status":"done","final":"Gave up.","success":false}
Run a shell command and return what it prints. Run a shell command and return what it prints. Run a shell command and return what it prints. ' \
    "$(grep -e '"call"' -e '"end"' versions.jsonl
       "$PYTHON3" -c 'import json, sys; print(json.load(open(sys.argv[1]))[0]["function"]["description"])' \
           "$(grep -o 'tools-[0-9a-f]*\.json' versions.jsonl | head -n 1)")"

# --- Inspect's chunked layout, as its converter writes it: a sample's
# --- shell, metadata and sequences in members of their own (messages,
# --- events, attachments in chunks named by their first item; message_refs
# --- into the messages; "attachment://N" an index).  The same samples as
# --- whole members give the same lines; a sample whose id holds a slash
# --- is a whole sample; a chunk past a gap, a range past the messages and
# --- the first eval2 form's range-named chunks are said
timeout 120 "$PYTHON3" - <<'EOF' || exit 99
import json, zipfile
zi = lambda n: zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
head = {"version": 3, "status": "success",
        "eval": {"eval_id": "C1", "run_id": "RC", "task": "chunky",
                 "task_id": "chunky", "model": "m1",
                 "created": "2026-01-01T00:00:00+00:00"}}
tools = [{"name": "get_order", "description": "Look up an order.",
          "parameters": {"type": "object", "properties": {
              "order_id": {"type": "string"}}, "required": ["order_id"]}},
         {"name": "submit", "description": "Submit an answer.",
          "parameters": {"type": "object", "properties": {
              "answer": {"type": "string"}}, "required": ["answer"]}}]
call = lambda i, f, a: {"id": i, "function": f, "arguments": a,
                        "type": "function"}
long = "A-100001 is " + "on its way " * 20
pool = [{"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Where is A-100001?"},
        {"role": "assistant", "content": "",
         "tool_calls": [call("c1", "get_order", {"order_id": "A-100001"})]},
        {"role": "tool", "tool_call_id": "c1", "function": "get_order",
         "content": "attachment://0"},
        {"role": "assistant", "content": "On its way."}]
events = [{"event": "model", "model": "m1", "input": [],
           "input_refs": [[0, 2]], "tools": tools,
           "output": {"usage": {"input_tokens": 10, "output_tokens": 2}}},
          {"event": "tool", "id": "c1", "function": "get_order",
           "arguments": {"order_id": "A-100001"}, "result": "attachment://0",
           "working_time": 0.5},
          {"event": "model", "model": "m1", "input": [],
           "input_refs": [[0, 4]], "tools": tools,
           "output": {"choices": [{"message": {"role": "assistant",
               "content": "", "tool_calls": [call("c2", "submit",
                                                  {"answer": "ok"})]}}]}},
          {"event": "tool", "id": "c2", "function": "submit",
           "arguments": {"answer": "ok"}, "result": "ok"}]
shell = {"id": 7, "epoch": 1, "input": "Where is A-100001?", "target": "ok",
         "output": {"completion": "On its way."},
         "scores": {"match": {"value": "C"}},
         "model_usage": {"m1": {"input_tokens": 40, "output_tokens": 9,
                                "total_tokens": 49}},
         "total_time": 3.0, "working_time": 2.5,
         "message_refs": [[1, 5]]}
whole = dict(shell, messages=pool[1:5], events=events,
             metadata={"source": "chunky"}, attachments={"0": long})
del whole["message_refs"]
slash = dict(whole, id="group/item")
with zipfile.ZipFile("chunked.eval", "w", zipfile.ZIP_DEFLATED) as z:
    w = lambda n, v: z.writestr(zi(n), json.dumps(v))
    w("header.json", head)
    p = "samples/7_epoch_1/"
    w(p + "sample.json", shell)
    w(p + "metadata.json", {"source": "chunky"})
    w(p + "messages/0.json", pool[:2])
    w(p + "messages/2.json", pool[2:])
    w(p + "events/0.json", events[:3])
    w(p + "events/3.json", events[3:])
    w(p + "events/stats.json", {"version": 1, "chunks": []})
    w(p + "events/uuids.json", ["u0", "u1", "u2", "u3"])
    w(p + "calls/0.json", [{"role": "user", "content": "x"}])
    w(p + "attachments/0.json", [long])
    w(p + "skeleton.json", {"version": 1})
    w("samples/group/item_epoch_1.json", slash)
    p = "samples/8_epoch_1/"  # a chunk is missing: 2.json
    w(p + "sample.json", dict(shell, id=8))
    w(p + "messages/0.json", pool[:2])
    w(p + "messages/3.json", pool[3:])
    p = "samples/9_epoch_1/"  # a range past the messages
    w(p + "sample.json", dict(shell, id=9, message_refs=[[0, 9]]))
    w(p + "messages/0.json", pool)
    p = "samples/11_epoch_1/"  # a shell that is no object
    w(p + "sample.json", [shell])
    p = "samples/10_epoch_1/"  # the first eval2 form
    w(p + "sample.json", dict(shell, id=10, message_refs=[]))
    w(p + "messages/0000000000-0000000005.json", pool)
with zipfile.ZipFile("chunked-good.eval", "w", zipfile.ZIP_DEFLATED) as z:
    for n in ["header.json"] + [n for n in zipfile.ZipFile(
            "chunked.eval").namelist() if n.startswith("samples/7_epoch_1/")]:
        z.writestr(zi(n), zipfile.ZipFile("chunked.eval").read(n))
# a sample whose members hold more than a record's limit together (each
# of them within it: 2 x 150 MiB of white space, 300 KiB on disk)
with zipfile.ZipFile("chunked-big.eval", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zi("header.json"), json.dumps(head))
    z.writestr(zi("samples/7_epoch_1/sample.json"), json.dumps(shell))
    for start in (0, 1):
        with z.open(zi("samples/7_epoch_1/messages/%d.json" % start), "w",
                    force_zip64=True) as out:
            out.write(b"[" + json.dumps(pool[start]).encode())
            for i in range(150):
                out.write(b" " * (1 << 20))
            out.write(b"]")
with zipfile.ZipFile("unchunked.eval", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zi("header.json"), json.dumps(dict(head, version=2)))
    z.writestr(zi("samples/7_epoch_1.json"), json.dumps(whole))
    z.writestr(zi("samples/group/item_epoch_1.json"), json.dumps(slash))
EOF
gold inspect-chunked "$(imp chunked inspect chunked.eval; cat chunked.jsonl)"
ok "a chunked sample past a record's limit, its members together" \
    "chunked-big.eval: samples/7_epoch_1/messages/1.json: the sample's members hold more than the limit of 256 MiB a record: it is skipped
replay import: inspect: 1 file, 1 sample: 0 read, 0 skipped, 1 refused; 0 episodes, 0 calls; 1 problem; 0 transcript lines
replay import: 0 transcript lines into big.jsonl
exit 1" "$(imp big inspect chunked-big.eval)"
ok "the chunked form: the lines of the whole form" \
    "$(imp unchunked inspect unchunked.eval >/dev/null; cat unchunked.jsonl)" \
    "$(grep -v '"episode":"\(8\|9\|10\)#1"' chunked.jsonl)"
# tau2-bench's results, recognised by their structure: each simulation an
# episode (its flat tool calls, its tool messages' ids and error flags),
# the user simulator's own calls left out, tau2's seed never taken for the
# simulator's, the model from info; a results.json of the "dir" format
# said as such
gold tau2 "$(imp tau2 auto tau2.json tau2-dir.json; cat tau2.jsonl)"
# ... and written on one line (json.dumps, jq -c), which makes it JSON
# Lines of one line: the same episodes; the "dir" format said the same
for f in tau2 tau2-dir; do
    "$PYTHON3" -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))' \
        "$f.json" > "$f-line.json" || exit 99
done
imp tau2-indented auto --run tau2 tau2.json > /dev/null
ok "tau2's results.json on one line: the lines of the indented one" \
    "$(cat tau2-indented.jsonl)" \
    "$(imp tau2-line auto --run tau2 tau2-line.json > /dev/null; cat tau2-line.jsonl)"
ok "tau2's results.json of the dir format on one line: said as such" \
    'tau2-dir-line.json:1: $: a tau2-bench results.json of the "dir" format: it holds only an index; its simulations are the files of simulations/ beside it: give that folder (each file is read as a simulation, all of one run named after this folder)
replay import: messages: 1 file, 1 record: 0 read, 0 skipped, 1 refused; 0 episodes, 0 calls; 1 problem; 0 transcript lines
replay import: 0 transcript lines into tau2-dir-line.jsonl
exit 1' "$(imp tau2-dir-line auto tau2-dir-line.json)"
# traces as people export them: Jaeger's JSON (the UI's and the API's:
# hex ids of any length, microseconds, tags, CHILD_OF references, an
# error by otel.status_code) and Grafana Tempo's ({"batches"}, ids in
# base64), each recognised by its structure; one trace both ways
gold jaeger "$(imp jaeger auto jaeger.json; cat jaeger.jsonl)"
# the tool spans other instrumentations write: OpenInference, OpenLLMetry
# (its function's kwargs the arguments), Google ADK
gold otlp-dialects "$(imp dialects otlp otlp-dialects.jsonl; cat dialects.jsonl)"
# OpenLLMetry's and OpenInference's messages and tools flattened into an
# attribute a field, ADK's tools in the request it sent (types in
# capitals): the calls the chat spans show (the history's once), their
# answers, the tools offered with their schemas, tokens and times
gold otlp-flat "$(imp flat otlp otlp-flat.jsonl; cat flat.jsonl
    for f in $(grep -o 'tools-[0-9a-f]*\.json' flat.jsonl | sort -u); do
        echo "== $f"; cat "$f"; echo
    done)"
ok "Tempo's export of the trace: the lines of Jaeger's" "$(cat jaeger.jsonl)" \
    "$(imp tempo auto tempo.json >/dev/null; cat tempo.jsonl)"
gold otlp-problems "$(imp otlp otlp otlp.jsonl)"
# shapes of real OTLP files, each said beside its check below; one
# generator writes them all
"$PYTHON3" - <<'EOF'
import gzip, json
def kv(k, v):
    key = "intValue" if isinstance(v, int) else "stringValue"
    return {"key": k, "value": {key: str(v)}}
def span(sid, parent, name, start, end, tid="5b8aa5a2d2c872e8321cf37308d69df2",
         **attrs):  # times in tenths of a second
    s = {"traceId": tid, "spanId": sid, "name": name,
         "startTimeUnixNano": str(start * 10**8),
         "endTimeUnixNano": str(end * 10**8),
         "attributes": [kv(k, v) for k, v in attrs.items()]}
    if parent:
        s["parentSpanId"] = parent
    return s
def export(spans, service=None):
    rs = {"scopeSpans": [{"spans": spans}]}
    if service:
        rs["resource"] = {"attributes": [kv("service.name", service)]}
    return {"resourceSpans": [rs]}
def agent(sid, parent, name, **attrs):
    return span(sid, parent, "invoke_agent " + name, 0, 100,
                **dict({"gen_ai.operation.name": "invoke_agent"}, **attrs))
def chat(sid, parent, start, calls=(), **attrs):
    if calls:
        out = [{"role": "assistant", "finish_reason": "tool_call", "parts": [
            dict({"type": "tool_call", "name": n, "arguments": a},
                 **({"id": i} if i else {})) for i, n, a in calls]}]
        attrs["gen_ai.output.messages"] = json.dumps(out)
    return span(sid, parent, "chat", start, start + 5,
                **dict({"gen_ai.operation.name": "chat"}, **attrs))
def tool(sid, parent, start, name, args, result, **attrs):
    return span(sid, parent, "execute_tool " + name, start, start + 5,
                **dict({"gen_ai.operation.name": "execute_tool",
                        "gen_ai.tool.name": name,
                        "gen_ai.tool.call.arguments": json.dumps(args),
                        "gen_ai.tool.call.result": result}, **attrs))
A, B = "a000000000000001", "a000000000000002"
# the Collector's one file for every signal, Jaeger v2, a compressed copy
top = agent(A, None, "shop")
top["attributes"].append({"key": "tasks.reward",
                          "value": {"doubleValue": "0.75"}})
shop = export([top,
               chat("a000000000000002", A, 10,
                    **{"gen_ai.usage.input_tokens": 100,
                       "gen_ai.usage.output_tokens": 10}),
               tool("a000000000000003", A, 20, "get_order",
                    {"order_id": "A-1"}, '{"id": "A-1"}',
                    **{"gen_ai.tool.call.id": "c1"}),
               span("a000000000000004", A, "execute_tool (merged)", 20, 30,
                    **{"gen_ai.operation.name": "execute_tool",
                       "gen_ai.tool.name": "(merged tools)",
                       "gen_ai.tool.call.id": "ev-merged"}),
               span("a000000000000005", A, "openai.embeddings", 30, 40,
                    **{"llm.request.type": "embedding",
                       "gen_ai.usage.prompt_tokens": 5000})], "shop")
with open("signals.jsonl", "w") as f:
    f.write(json.dumps({"resourceLogs": [{"scopeLogs": [{"logRecords": [
        {"body": {"stringValue": "hello"}}]}]}]}) + "\n")
    f.write(json.dumps({"resourceMetrics": []}) + "\n")
    f.write(json.dumps(shop) + "\n")
with open("jaeger3.json", "w") as f:
    json.dump({"result": shop}, f)
with gzip.open("packed.json", "wt") as f:
    json.dump(shop, f)
# calls without ids; OpenLLMetry's positional arguments
def tl(sid, parent, name, kind, **attrs):
    return span(sid, parent, name + "." + kind, 0, 5,
                **dict({"traceloop.span.kind": kind,
                        "traceloop.entity.name": name}, **attrs))
files = {
    "noid": [agent(A, None, "shop"),
             chat("c000000000000001", A, 1,
                  [("call_1", "get_order", {"order_id": "A-1"})]),
             tool("b000000000000001", A, 10, "get_order",
                  {"order_id": "A-1"}, "shipped")],
    "subagents": [agent(A, None, "shop"), agent(B, A, "orders"),
                  chat("c000000000000001", A, 1, [(None, "list_orders", {})]),
                  chat("c000000000000002", B, 20,
                       [(None, "get_order", {"order_id": "A-2"})])],
    "positional": [tl(A, None, "shop", "agent"),
                   tl("b000000000000001", A, "get_order", "tool", **{
                       "traceloop.entity.input": json.dumps(
                           {"args": ["A-3"], "kwargs": {}}),
                       "traceloop.entity.output": "shipped"})]}
for name, spans in files.items():
    with open(name + ".jsonl", "w") as f:
        f.write(json.dumps(export(spans)) + "\n")
EOF
otlp_shapes() { # FILE: what replay --from auto records of it
    rm -f shapes.db
    timeout 60 "$REPLAY" --quiet --from auto --tools shop.json --db shapes.db \
        "$1" 2>&1 | grep -v '^replay: [0-9]'
    sqlite3 shapes.db "SELECT input_tokens, output_tokens, reward FROM episodes;
        SELECT tool, arguments, logged_answer FROM calls"
}
# the Collector's one file for every signal (lines of logs and metrics
# passed over, not problems); ADK's "(merged tools)" span of parallel
# calls, which have spans of their own (no call of its own);
# OpenLLMetry's embedding span (its tokens no turn's); a double written
# as text, as proto3's JSON mapping allows
ok "OTLP: the Collector's file of every signal, merged and embedding spans" \
'replay: otlp: 1 file, 5 spans: 5 read, 0 skipped, 0 refused; 1 episode, 1 call; 0 problems; 4 transcript lines
100|10|0.75
get_order|{"order_id":"A-1"}|"{\"id\": \"A-1\"}"' "$(otlp_shapes signals.jsonl)"
# Jaeger v2's API v3: {"result": {...}}
ok "OTLP: Jaeger v2's API v3, the same" \
'replay: otlp: 1 file, 5 spans: 5 read, 0 skipped, 0 refused; 1 episode, 1 call; 0 problems; 4 transcript lines
100|10|0.75
get_order|{"order_id":"A-1"}|"{\"id\": \"A-1\"}"' "$(otlp_shapes jaeger3.json)"
# calls a chat span shows and an execute_tool span makes: one call, when
# the tool span says no call id (OpenLLMetry's never do; the conventions
# only recommend one); and calls without ids in two agents' conversations
# of one episode: each its own, though both are their conversation's first
ok "OTLP: a tool span without a call id is the call its chat span shows" \
'replay: otlp: 1 file, 3 spans: 3 read, 0 skipped, 0 refused; 1 episode, 1 call; 0 problems; 4 transcript lines
||
get_order|{"order_id":"A-1"}|"shipped"' "$(otlp_shapes noid.jsonl)"
ok "OTLP: calls without ids in two agents' conversations: both" \
'replay: otlp: 1 file, 4 spans: 4 read, 0 skipped, 0 refused; 1 episode, 2 calls; 2 problems; 5 transcript lines
||
list_orders|{}|
get_order|{"order_id":"A-2"}|' "$(otlp_shapes subagents.jsonl | grep -v 'has no answer in the log')"
# OpenLLMetry keeps a tool function's {"args", "kwargs"}: with a
# positional argument (no name known for it), both, as logged
ok "OTLP: OpenLLMetry's positional arguments are kept" \
'replay: otlp: 1 file, 2 spans: 2 read, 0 skipped, 0 refused; 1 episode, 1 call; 0 problems; 4 transcript lines
||
get_order|{"args":["A-3"],"kwargs":{}}|"shipped"' "$(otlp_shapes positional.jsonl)"
# a compressed file, said as such under --from otlp too
ok "OTLP: a compressed file, said as such" \
'packed.json: it is compressed with gzip: decompress it (gunzip -k FILE) and give the file it holds
replay: otlp: 1 file, 0 spans: 0 read, 0 skipped, 0 refused; 0 episodes, 0 calls; 1 problem; 0 transcript lines
exit 1' "$(rm -f shapes.db; timeout 60 "$REPLAY" --quiet --from otlp \
        --tools shop.json --db shapes.db packed.json > shapes.out 2>&1
        echo "exit $?" >> shapes.out; grep -v '^replay: [0-9]' shapes.out)"
gold otlp-transcript "$(cat otlp.jsonl)"
ok "the OTLP document: the lines of JSON Lines" "$(cat otlp.jsonl)" \
    "$(imp otlp-doc otlp otlp-document.json >/dev/null; cat otlp-doc.jsonl)"
gold messages-problems "$(imp messages messages messages.jsonl)"
gold messages-transcript "$(cat messages.jsonl)"
# tau2's "dir" format: each file of simulations/ is a simulation by
# itself, recognised and read as tau2's (its reward the verdict, its seed
# tau2's own), and all of one run named after the results folder
mkdir -p res/simulations
"$PYTHON3" -c 'import json, sys
for s in json.load(open(sys.argv[1]))["simulations"]:
    json.dump(s, open("res/simulations/%s.json" % s["id"], "w"), indent=2)' \
    tau2.json || exit 99
ok "tau2's dir format: simulation files read as tau2's, of one run" \
'replay: messages: 2 files, 2 records: 2 read, 0 skipped, 0 refused; 2 episodes, 4 calls; 0 problems; 9 transcript lines
replay: 9 lines: 9 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 2 episodes written (0 replaced, 0 unfinished), 0 unchanged; 4 calls; into res.db
exit 0
res|sim-0|||1|1.0
res|sim-1|||0|0.0' \
    "$(rm -f res.db; timeout 60 "$REPLAY" --quiet --from auto --tools shop.json \
           --db res.db res/simulations 2>&1; echo "exit $?"
       sqlite3 res.db "SELECT run, episode, seed, arm, success, reward
           FROM episodes ORDER BY episode")"
# how a simulation ended: tau2-bench's termination_reason is the status
# but for the two ends of a conversation ("done"); a simulation that did
# not run (infrastructure_error, context_window_exceeded, which tau2
# keeps out of its metrics) has no verdict and no duration, never a
# failure of 0 seconds; tau-bench's info.error is the status "error"
"$PYTHON3" - "$golds/tau2.json" > ended.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s0 = d["simulations"][0]
def sim(i, why, ran=True):
    s = dict(s0, id="sim-%d" % i, trial=i, termination_reason=why)
    if not ran:
        s.update(messages=[], reward_info=None, duration=0.0,
                 info={"error": "litellm.Timeout", "failed_after_attempts": 3})
    elif why not in ("agent_stop", "user_stop"):
        s["reward_info"] = {"reward": 0.0, "reward_basis": None}
    return s
d["simulations"] = [sim(0, "agent_stop"), sim(1, "infrastructure_error", False),
                    sim(2, "max_steps"), sim(3, "context_window_exceeded", False),
                    sim(4, "Bad\nreason")]
print(json.dumps(d))
EOF
printf '%s\n' '{"task_id": 1, "trial": 0, "reward": 0.0, "traj": [], "info": {"error": "RateLimitError", "traceback": "..."}}' \
    '{"task_id": 1, "trial": 1, "reward": 1.0, "traj": [], "info": {}}' > taued.jsonl
ok "how an episode ended: tau2's termination_reason, tau-bench's info.error" \
'{"type":"end","run":"ended","episode":"sim-0","status":"done","final":"Done.","success":true,"reward":1.0,"input_tokens":1000,"output_tokens":100,"cost":0.01,"duration":9.1}
{"type":"end","run":"ended","episode":"sim-1","status":"infrastructure_error","cost":0.01}
{"type":"end","run":"ended","episode":"sim-2","status":"max_steps","final":"Done.","success":false,"reward":0.0,"input_tokens":1000,"output_tokens":100,"cost":0.01,"duration":9.1}
{"type":"end","run":"ended","episode":"sim-3","status":"context_window_exceeded","cost":0.01}
{"type":"end","run":"ended","episode":"sim-4","status":"error","final":"Done.","success":false,"reward":0.0,"input_tokens":1000,"output_tokens":100,"cost":0.01,"duration":9.1}
{"type":"end","run":"taued","episode":"1#0","status":"error","success":false,"reward":0.0}
{"type":"end","run":"taued","episode":"1#1","status":"done","success":true,"reward":1.0}' \
    "$(imp ended messages --preset tau2 ended.json >/dev/null; grep '"end"' ended.jsonl
       imp taued messages --preset tau-bench taued.jsonl >/dev/null; grep '"end"' taued.jsonl)"
# tau-bench's ReAct and Act agents write their calls as text ("Thought:",
# then "Action:" and JSON): each a call, answered by the next "API
# output: " message; "respond" and text that is no JSON are words to the
# user (the last of them the final words), never calls
"$PYTHON3" - > react.jsonl <<'EOF'
import json
def a(text):
    return {"role": "assistant", "content": text, "tool_calls": None,
            "function_call": None}
def act(name, **args):
    return "Action:\n" + json.dumps({"name": name, "arguments": args})
first = [{"role": "system", "content": "policy"},
         {"role": "user", "content": "Where is my order A1?"},
         a("Thought:\nLook it up.\n" + act("get_order", order_id="A1")),
         {"role": "user", "content": 'API output: {"status": "shipped"}'},
         a(act("cancel_order", order_id="A1", reason="no longer needed")),
         {"role": "user", "content": "API output: Error: already shipped"},
         a("Thought:\nTell them.\n" + act("respond", content="It shipped.")),
         {"role": "user", "content": "Thanks."}]
second = [{"role": "user", "content": "Hi."},
          {"role": "user", "content": "API output: nothing asked"},
          a("Action:\nnot json at all"),
          a("Plain words, no Action: {\"name\": \"get_order\", \"arguments\": {}}")]
for i, traj in enumerate((first, second)):
    print(json.dumps({"task_id": 3, "trial": i, "reward": 1.0, "info": {},
                      "traj": traj}))
EOF
ok "tau-bench's text actions: calls, answers and final words" \
'react.jsonl:2: $.traj[1]: an "API output: " message that answers no call (no "Action:" call waits for one): it is skipped
replay import: messages: 1 file, 2 records: 2 read, 0 skipped, 0 refused; 2 episodes, 2 calls; 1 problem; 7 transcript lines
replay import: 7 transcript lines into react-out.jsonl
exit 1
{"type":"call","run":"react","episode":"3#0","call":{"arguments":{"order_id":"A1"},"name":"get_order"},"answer":"{\"status\": \"shipped\"}"}
{"type":"call","run":"react","episode":"3#0","call":{"arguments":{"order_id":"A1","reason":"no longer needed"},"name":"cancel_order"},"answer":"Error: already shipped"}
{"type":"end","run":"react","episode":"3#0","status":"done","final":"It shipped.","success":true,"reward":1.0}
{"type":"end","run":"react","episode":"3#1","status":"done","final":"Plain words, no Action: {\"name\": \"get_order\", \"arguments\": {}}","success":true,"reward":1.0}' \
    "$(imp react-out messages --run react react.jsonl; grep -e '"call"' -e '"end"' react-out.jsonl)"
# a record given twice (the same task and trial): the first stands, as the
# night keeps the first of an episode; the second is one problem, at its
# place in the log, and none of its lines or its own problems are written
printf '%s\n' \
    '{"task_id": 1, "trial": 0, "reward": 1.0, "info": {}, "traj": [{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}]}, {"role": "assistant", "content": "Done."}]}' \
    '{"task_id": 1, "trial": 1, "reward": 0.0, "info": {}, "traj": []}' \
    '{"task_id": 1, "trial": 0, "reward": 0.0, "info": {}, "traj": [{"role": "assistant", "content": "", "tool_calls": [{"id": "c9", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}]}]}' \
    > twice.jsonl
ok "a record given twice: said once, where it is; the first stands" \
'twice.jsonl:1: $.traj[0].tool_calls[0]: call "c1" of episode "1#0" has no answer in the log: it is counted, with no answer (the episode is observed, not replayed)
twice.jsonl:3: $: episode "1#0" of run "twice" is given a second time: this record is left out (the first stands)
replay: messages: 1 file, 3 records: 3 read, 0 skipped, 0 refused; 2 episodes, 1 call; 2 problems; 6 transcript lines
replay: 6 lines: 6 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 2 episodes written (0 replaced, 0 unfinished), 0 unchanged; 1 call; into twice.db
1#0|1|1.0
1#1|0|0.0' \
    "$(rm -f twice.db; timeout 60 "$REPLAY" --from messages --preset tau-bench \
           --tools shop.json --db twice.db twice.jsonl 2>&1
       sqlite3 twice.db "SELECT episode, success, reward FROM episodes ORDER BY episode")"
# tau-bench's success is a reward of 1: a reward that is no number (text,
# a boolean) leaves both unknown, said once, never a failure
"$PYTHON3" - > badreward.json <<'EOF'
import json
traj = [{"role": "user", "content": "Hi."},
        {"role": "assistant", "content": "Done."}]
print(json.dumps([{"task_id": 1, "trial": i, "reward": r, "info": {},
                   "traj": traj} for i, r in enumerate(("1.0", True, 1.0, 0))]))
EOF
ok "tau-bench's reward that is no number: no success either" \
    'badreward.json: $[0]: the record'"'"'s reward (at reward) is not a number: the episode'"'"'s reward is left unknown
badreward.json: $[1]: the record'"'"'s reward (at reward) is not a number: the episode'"'"'s reward is left unknown
replay import: messages: 1 file, 4 records: 4 read, 0 skipped, 0 refused; 4 episodes, 0 calls; 2 problems; 9 transcript lines
replay import: 9 transcript lines into badreward.jsonl
exit 1
{"type":"end","run":"badreward","episode":"1#0","status":"done","final":"Done."}
{"type":"end","run":"badreward","episode":"1#1","status":"done","final":"Done."}
{"type":"end","run":"badreward","episode":"1#2","status":"done","final":"Done.","success":true,"reward":1.0}
{"type":"end","run":"badreward","episode":"1#3","status":"done","final":"Done.","success":false,"reward":0.0}' \
    "$(imp badreward messages --preset tau-bench badreward.json; grep '"end"' badreward.jsonl)"
# Python's json.dump writes NaN, Infinity and -Infinity: read as the
# floats they are (no finite reward, so no success), never the end of the
# file; "NaN" as text stays text, and "-NaN" stays refused, as Python
# refuses it
"$PYTHON3" - > nanreward.json <<'EOF'
import json
traj = [{"role": "user", "content": "NaN"},
        {"role": "assistant", "content": "Infinity"}]
print(json.dumps([{"task_id": 1, "trial": i, "reward": r,
                   "info": {"cost": float("nan")}, "traj": traj}
                  for i, r in enumerate((float("nan"), float("inf"),
                                         -float("inf"), 1))], indent=2))
EOF
ok "tau-bench's NaN and infinite rewards: read, no success, the rest kept" \
    'nanreward.json: $[0]: the record'"'"'s reward (at reward) is not a finite number: the episode'"'"'s reward is left unknown
nanreward.json: $[1]: the record'"'"'s reward (at reward) is not a finite number: the episode'"'"'s reward is left unknown
nanreward.json: $[2]: the record'"'"'s reward (at reward) is not a finite number: the episode'"'"'s reward is left unknown
replay import: messages: 1 file, 4 records: 4 read, 0 skipped, 0 refused; 4 episodes, 0 calls; 3 problems; 9 transcript lines
replay import: 9 transcript lines into nanreward.jsonl
exit 1
{"type":"end","run":"nanreward","episode":"1#0","status":"done","final":"Infinity"}
{"type":"end","run":"nanreward","episode":"1#1","status":"done","final":"Infinity"}
{"type":"end","run":"nanreward","episode":"1#2","status":"done","final":"Infinity"}
{"type":"end","run":"nanreward","episode":"1#3","status":"done","final":"Infinity","success":true,"reward":1.0}' \
    "$(imp nanreward messages --preset tau-bench nanreward.json; grep '"end"' nanreward.jsonl)"
"$PYTHON3" -c 'import json, sys
for r in json.load(sys.stdin): print(json.dumps(r))' < nanreward.json > nanlines.jsonl
ok "the same as JSON Lines: the same ends" \
    "$(grep '"end"' nanreward.jsonl | sed 's/"nanreward"/"nanlines"/')" \
    "$(imp nanlines-out messages --run nanlines --preset tau-bench nanlines.jsonl >/dev/null; grep '"end"' nanlines-out.jsonl)"
sed 's/"reward": NaN/"reward": -NaN/' nanreward.json > minusnan.json
ok "-NaN: refused as Python refuses it, the records before it kept" \
    'minusnan.json: not JSON at byte 55: lexical error: malformed number, a digit is required after the minus sign.; the records before it were read, the rest is not
replay import: messages: 1 file, 0 records: 0 read, 0 skipped, 0 refused; 0 episodes, 0 calls; 1 problem; 0 transcript lines
replay import: 0 transcript lines into minusnan.jsonl
exit 1' "$(imp minusnan messages --preset tau-bench minusnan.json)"
# ... and with a key of its own: text asked to equal a number is said
"$PYTHON3" -c 'import json; print(json.dumps({"id": "p", "passed": "yes",
    "messages": [{"role": "assistant", "content": "Done."}]}))' > passed.jsonl
ok "--success KEY=1 on text: unknown, and said" \
    'passed.jsonl:1: $: the record'"'"'s success (at passed) is neither true nor false nor comparable with the value given: the episode'"'"'s success is left unknown
{"type":"end","run":"passed","episode":"p","status":"done","final":"Done."}' \
    "$(imp passed messages --success passed=1 passed.jsonl | grep passed.jsonl:
       grep '"end"' passed.jsonl)"
# calls of one id made together (tau2-bench's id "" on every call, older
# Gemini's the function's name) take their answers in their order; a
# later message's call of that id takes the next answer, and the first
# message's last call the one after
"$PYTHON3" - > sameid.json <<'EOF'
import json
def call(q):
    return {"id": "", "type": "function",
            "function": {"name": "search_orders",
                         "arguments": json.dumps({"query": q})}}
def tool(text):
    return {"role": "tool", "tool_call_id": "", "content": text}
msgs = [{"role": "user", "content": "Find them."},
        {"role": "assistant", "content": None,
         "tool_calls": [call("a"), call("b"), call("c")]},
        tool("A"), tool("B"),
        {"role": "assistant", "content": None, "tool_calls": [call("d")]},
        tool("D"), tool("C")]
print(json.dumps({"id": "same", "messages": msgs}))
EOF
imp sameid messages sameid.json > /dev/null
ok "calls of one id take their answers in their order" "a A
b B
c C
d D" "$("$PYTHON3" -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "call":
        print(json.loads(r["call"]["function"]["arguments"])["query"],
              r.get("answer"))' sameid.jsonl)"

# --- import then replay, and --from: the same database, table by table
dump() { # DB: every table's rows, but the source files and lines, and
          # the logs' own problems (only --from has a database to keep
          # them in: checked below)
    "$PYTHON3" - "$1" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                       "ORDER BY name"):
    cols = [c[1] for c in db.execute("PRAGMA table_info(%s)" % t)
            if c[1] not in ("source_file", "source_line")]
    print("==", t)
    where = " WHERE place IS NULL" if t == "problems" else ""
    for row in db.execute("SELECT %s FROM %s%s ORDER BY 1, 2" %
                          (", ".join(cols), t, where)):
        print(row)
EOF
}
same() { # NAME FORMAT FILE [OPTION...]
    n=$1 f=$2 file=$3
    shift 3
    rm -f "$n"-*.db*
    timeout 60 "$REPLAY" import "$f" "$file" "$@" -o "$n-import.jsonl" \
        2>/dev/null
    timeout 60 "$REPLAY" --quiet --db "$n-import.db" "$n-import.jsonl" \
        2>/dev/null
    timeout 60 "$REPLAY" --quiet --from "$f" "$@" --db "$n-from.db" \
        "$file" 2>/dev/null
    ok "import then replay = --from: $file" "$(dump "$n-import.db")" \
        "$(dump "$n-from.db")"
}
same p-inspect inspect inspect.json
same p-eval inspect inspect.eval
same p-otlp otlp otlp.jsonl
same p-msg messages messages.jsonl
same s-eval inspect steady.eval
same s-otlp otlp steady-traces.json
same s-tau messages steady-tau.json --preset tau-bench --tools shop.json
same p-tau2 messages tau2.json --tools shop.json
same p-jaeger otlp jaeger.json --tools shop.json
ok "--from records the log's own problems, each with its place and run" \
    "$(sed -e '/^replay import/d' -e '/^exit/d' -e 's/^inspect.json: //' \
           "$golds/inspect-problems.gold" |
       awk '{ print "inspect.json|-" NR "|" $0 }')" \
    "$(sqlite3 p-inspect-from.db "SELECT source_file, source_line,
        CASE WHEN place <> '' THEN place || ': ' ELSE '' END || message
        FROM problems WHERE place IS NOT NULL ORDER BY source_line DESC")"
ok "... the run's, each but those said before the run was known" \
    "pit/E1|7" \
    "$(sqlite3 p-inspect-from.db "SELECT run, problems FROM run_summary")"
ok "the simulator replays the episode whose log gives seed and arm" \
    "7#2|7|base|0|0|1" "$(sqlite3 p-inspect-from.db "SELECT episode, seed,
        arm, reached, pass, diverged FROM episodes WHERE seed IS NOT NULL")"
ok "an error result is an error answer" \
    'refund_order|{"error":{"code":"timeout","message":"no answer in time"}}' \
    "$(sqlite3 p-inspect-from.db "SELECT tool, logged_answer FROM calls
        WHERE logged_answer LIKE '%error%'")"

# --- recognising a format by structure, as far as it needs to read: a
# --- log's members after 64 KiB of others, Tempo's API form; what is no
# --- log is said as what it is, or with the nearest format and what it
# --- lacks, one line each
mkdir -p kinds
timeout 60 "$PYTHON3" - "$TOP_SRCDIR" <<'EOF' || exit 99
import gzip, json, shutil, sqlite3, sys
top = sys.argv[1]
k = "kinds/"
json.dump({"trace": json.load(open("tempo.json"))},
          open(k + "tempo-api.json", "w"))
t = json.load(open("tau2.json"))
late = {"timestamp": t.get("timestamp"), "info": t["info"],
        "tasks": [{"id": str(i), "description": {"purpose": "p" * 200}}
                  for i in range(400)], "simulations": t["simulations"]}
json.dump(late, open(k + "tau2-late.json", "w"), indent=2)
open(k + "bom.json", "wb").write(b"\xef\xbb\xbf\n " +
                                 open("tau2.json", "rb").read())
for name in ("shop.json", "shop-mcp.json"):
    shutil.copy(top + "/samples/tools/" + name, k + name)
shutil.copy(top + "/samples/tools/shop-openapi.yaml", k + "openapi.json")
open(k + "packed.json", "wb").write(
    gzip.compress(open("tau2.json", "rb").read(), mtime=0))
open(k + "zst.json", "wb").write(b"\x28\xb5\x2f\xfd" + b"\0" * 40)
sqlite3.connect(k + "results.json").execute("CREATE TABLE t (x)")
open(k + "empty.json", "w").close()
open(k + "blank.json", "w").write(" \n\t\n" * 30000)
open(k + "nul.json", "wb").write(b"\0\0" + open("tau2.json", "rb").read())
open(k + "near.json", "w").write(
    '{"task_id": 1, "reward": 1, "conversation": []}\n')
open(k + "odd.json", "w").write('{"foo": 1, "bar": {"resourceSpans": []}}\n')
open(k + "listing.json", "w").write('{"a.eval": {"eval": {}}, "b.json": {}}')
open(k + "ctl.json", "wb").write(b'{"\x1b[31mred": 1}')
open(k + "cut.json", "w").write('{"resourceSpans": [{"scopeSpans": [')
open(k + "night.jsonl", "w").write(
    '{"type":"run","run":"r","tools":"x.json"}\n')
EOF
gold detect "$(imp kinds auto kinds)"
ok "--from auto skips, with the same lines, what is no log" \
    "$(sed -n 's|^replay import: \(kinds/[^:]*\): skipped: |replay: \1: |p' \
        "$golds/detect.gold" | grep -v 'kinds/night.jsonl')
exit 1" \
    "$(timeout 60 "$REPLAY" --from auto --db kinds.db kinds 2>&1 |
       grep '^replay: kinds/'; timeout 60 "$REPLAY" --from auto \
       --db kinds2.db kinds >/dev/null 2>&1; echo "exit $?")"

# --- a log that offers no tool definitions: no problem; the card gives
# --- the calls per tool and says "no schema"; --tools adds the checks
timeout 60 "$REPLAY" --quiet --from auto --db noschema.db tau2.json \
    2>/dev/null
ok "no definitions: no problem, the calls per tool, no schema" \
    "per tool (observed calls)
  tool               kind  by     calls errors invalid off schema
  refund_order       -     -          2      1       -          -
  search_orders      -     -          2      0       -          -
  no schema: the run's tool file has no tool (the log offers no definitions), so
    no call was checked; --tools FILE adds the checks|0" \
    "$(timeout 60 "$CARD" --db noschema.db tau2 |
       sed -n '/^per tool/,/adds the checks/p')|$(sqlite3 noschema.db \
        "SELECT count(*) FROM problems")"
timeout 60 "$CARD" --db noschema.db --json tau2 > noschema.json
ok "... its JSON card: no_schema, and every figure the query docs give" \
    "true|0|card sql: 74 passed, 0 failed" \
    "$("$PYTHON3" -c 'import json,sys; c=json.load(open(sys.argv[1]))
print(str(c["no_schema"]).lower(), len(c["unknown_tools"]), sep="|", end="|")' \
        noschema.json; "$PYTHON3" "$TOP_SRCDIR/tests/card_sql.py" \
        "$TOP_SRCDIR/docs/card.md" noschema.db noschema.json)"
ok "... with --tools: the file's schemas check the calls" \
    "false|refund_order|write|2|2" \
    "$(timeout 60 "$CARD" --db p-tau2-from.db --json tau2 | "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
t = c["tools"][0]
print(str(c["no_schema"]).lower(), t["tool"], t["kind"], t["calls"],
      t["arguments_checked"], sep="|")')"

# --- more traces than are kept open (10,000): those whose root span is
# --- read are written whole to make room; without roots, the first seen
# --- is written unfinished, and said
timeout 120 "$PYTHON3" - <<'EOF' || exit 99
import json
def line(spans):
    return json.dumps({"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "many"}}]},
        "scopeSpans": [{"spans": spans}]}]})
def span(trace, sid, parent, op, start):
    return {"traceId": "%032x" % trace, "spanId": "%016x" % sid,
            "parentSpanId": "%016x" % parent if parent else "", "name": op,
            "startTimeUnixNano": str(start), "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": op}},
                {"key": "gen_ai.tool.name",
                 "value": {"stringValue": "search_orders"}},
                {"key": "gen_ai.tool.call.arguments",
                 "value": {"stringValue": '{"query":"harbor"}'}},
                {"key": "gen_ai.tool.call.result",
                 "value": {"stringValue": '{"ok":true}'}}]}
with open("rooted.jsonl", "w") as f, open("rootless.jsonl", "w") as g:
    for n in range(1, 10003):
        # the root first in its line, as one export of a whole trace
        f.write(line([span(n, 2 * n, 0, "invoke_agent", 1),
                      span(n, 2 * n + 1, 2 * n, "execute_tool", 2)]) + "\n")
        # a tool's span whose agent never comes
        g.write(line([span(n, 2 * n + 1, 2 * n, "execute_tool", 2)]) + "\n")
    # a span of the first trace after it was written to make room
    f.write(line([span(1, 99, 2, "execute_tool", 3)]) + "\n")
EOF
got=$(timeout 120 "$REPLAY" import otlp rooted.jsonl --tools shop.json \
    -o rooted-t.jsonl 2>&1; grep -c '"type":"end"' rooted-t.jsonl)
ok "10,002 traces, each with its root: all written whole; a late span said" "rooted.jsonl:10003: \$.resourceSpans[0].scopeSpans[0].spans[0]: a span of trace 00000000000000000000000000000001, which was written before the input's end to keep at most 10000 traces or 64 MiB of their spans open: it comes too late, and is skipped
replay import: otlp: 1 file, 20005 spans: 20004 read, 0 skipped, 1 refused; 10002 episodes, 10002 calls; 1 problem; 30007 transcript lines
replay import: 30007 transcript lines into rooted-t.jsonl
10002" "$got"
got=$(timeout 120 "$REPLAY" import otlp rootless.jsonl --tools shop.json \
    -o rootless-t.jsonl 2>&1; grep -c '"type":"end"' rootless-t.jsonl)
ok "10,002 traces without roots: the first two written unfinished, said" \
    "rootless.jsonl:10001: trace 00000000000000000000000000000001 is written before the input's end, to keep at most 10000 traces or 64 MiB of their spans open: written without its end, it is replayed as unfinished
rootless.jsonl:10002: trace 00000000000000000000000000000002 is written before the input's end, to keep at most 10000 traces or 64 MiB of their spans open: written without its end, it is replayed as unfinished
replay import: otlp: 1 file, 10002 spans: 10002 read, 0 skipped, 0 refused; 10002 episodes, 10002 calls; 2 problems; 30005 transcript lines
replay import: 30005 transcript lines into rootless-t.jsonl
10000" "$got"

# --- the samples: what the log itself says, as the transcript says it
(cd "$TOP_SRCDIR" && timeout 120 "$REPLAY" --quiet --db "$T/steady.db" \
    samples/observed/steady.jsonl) 2>/dev/null
tasks=$(sqlite3 s-eval-from.db "SELECT group_concat(quote(task_name))
    FROM (SELECT DISTINCT task_name FROM episodes)")
facts() { # DB: trials and success per task, calls per tool
    sqlite3 "$1" "SELECT task_name, count(*), sum(success) FROM episodes
        WHERE task_name IN ($tasks) GROUP BY task_name ORDER BY 1;
        SELECT tool, count(*), sum(arguments_valid) FROM calls c JOIN
        episodes e USING (episode_id) WHERE e.task_name IN ($tasks)
        GROUP BY tool ORDER BY 1"
}
want=$(facts steady.db)
ok "the first eight tasks of the observed night" "8" \
    "$(sqlite3 steady.db "SELECT count(DISTINCT task_name) FROM episodes
        WHERE task_name IN ($tasks)")"
for s in s-eval s-otlp s-tau; do
    ok "$s: trials, success and calls per tool as the transcript" "$want" \
        "$(facts "$s-from.db")"
done
ok "the Inspect sample's run" \
    "shop_refunds/Hq3xVd9kTn2mWc7pLs4bYe|scripted-steady|24" \
    "$(sqlite3 s-eval-from.db "SELECT run, model, episodes FROM run_summary")"

# --- recognised without --from: a file that is not .jsonl
got=$(timeout 60 "$REPLAY" --db auto.db steady.eval steady-traces.json 2>&1)
ok "logs named on the command line are recognised" "replay: inspect: 1 file, 24 samples: 24 read, 0 skipped, 0 refused; 24 episodes, 105 calls; 0 problems; 154 transcript lines
replay: otlp: 1 file, 234 spans: 234 read, 0 skipped, 0 refused; 24 episodes, 105 calls; 0 problems; 154 transcript lines
replay: 308 lines: 308 used, 0 unchanged, 0 problems, 0 blank
replay: 2 runs; 48 episodes written (0 replaced, 0 unfinished), 0 unchanged; 210 calls; into auto.db" "$got"
mkdir -p folder/sub
cp steady.eval folder/sub/ && cp shop.json folder/
got=$(timeout 60 "$REPLAY" --from auto --db folder.db folder 2>&1; echo "exit $?")
ok "a folder with --from auto: its logs, and a tool file said" "replay: folder/shop.json: it is a tool file (OpenAI tools), not a log: give it with --tools FILE
replay: inspect: 1 file, 24 samples: 24 read, 0 skipped, 0 refused; 24 episodes, 105 calls; 0 problems; 154 transcript lines
replay: 154 lines: 154 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 24 episodes written (0 replaced, 0 unfinished), 0 unchanged; 105 calls; into folder.db
replay: 1 file skipped: not transcripts (see above)
exit 1" "$got"
ok "usage: an unknown format" "replay: import takes a format first: inspect, otlp, messages or auto (usage: replay import inspect|otlp|messages|auto PATH... [-o OUT.jsonl] [--tools FILE | --tools-out DIR] [--run R] [--model M] [--strict] [--score NAME] [--preset tau-bench|tau2] [--task KEY] [--success KEY[=VALUE]] [--reward KEY] [--messages KEY] [--trial KEY] [--id KEY] [--each-agent])
Try 'replay --help'.
exit 2" "$("$REPLAY" import zip x 2>&1; echo "exit $?")"
ok "a failed import writes nothing" "exit 1|no file" \
    "$("$REPLAY" import otlp otlp.jsonl --strict -o strict.jsonl >/dev/null 2>&1
       echo "exit $?|$([ -e strict.jsonl ] || [ -e strict.jsonl.partial ] && echo file || echo no file)")"

# --- --strict stops at the first problem of a log that a pipe brings,
# --- though the pipe stays open (its lines are read by a thread of their
# --- own, which looks at the pipe before each read and gives up once the
# --- reader has stopped): a FIFO held open here, never closed while it runs
rm -f open.fifo
mkfifo open.fifo
exec 7<>open.fifo
head -n 2 "$golds/otlp.jsonl" >&7 # its second line is no JSON
ok "--strict on a pipe that stays open: stops at its first problem" \
    "exit 1" \
    "$(timeout 60 "$REPLAY" import otlp open.fifo --strict -o fifo.jsonl \
           >/dev/null 2>&1; echo "exit $?")"
exec 7>&-
rm -f open.fifo

# --- an OTLP gen_ai.tool.message event whose body is JSON text without a
# --- "role" answers the call of its id
t=00000000000000000000000000000007
cat > event.jsonl <<EOF
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"spans":[{"traceId":"$t","spanId":"0000000000000007","name":"invoke_agent","startTimeUnixNano":"1","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}]},{"traceId":"$t","spanId":"0000000000000008","parentSpanId":"0000000000000007","name":"chat m","startTimeUnixNano":"5","endTimeUnixNano":"6","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}],"events":[{"name":"gen_ai.choice","attributes":[{"key":"gen_ai.event.content","value":{"stringValue":"{\\"message\\":{\\"tool_calls\\":[{\\"id\\":\\"c9\\",\\"function\\":{\\"name\\":\\"search_orders\\",\\"arguments\\":{\\"query\\":\\"x\\"}}}]}}"}}]},{"name":"gen_ai.tool.message","attributes":[{"key":"gen_ai.event.content","value":{"stringValue":"{\\"id\\":\\"c9\\",\\"content\\":\\"A-1\\"}"}}]}]}]}]}]}
EOF
ok "a tool message event's JSON body without a role answers its call" \
    '{"type":"call","run":"svc","episode":"'$t':0000000000000007","call":{"arguments":{"query":"x"},"name":"search_orders"},"answer":"A-1"}' \
    "$(timeout 60 "$REPLAY" import otlp event.jsonl --tools shop.json 2>/dev/null |
       grep '"type":"call"')"

# --- usage: tokens, cost and time where each log holds them, NULL where
# --- it is silent or gives a figure of another shape (docs/logs.md,
# --- "Usage"): an Inspect sample's model_usage summed over its models
# --- (else its model events'), its working time (else its total time)
# --- and each tool event's; an OTLP trace's chat spans' tokens (else its
# --- outermost agents'), its head span's time and each tool span's;
# --- tau2-bench's assistant messages' tokens (not the user simulator's),
# --- agent_cost and duration
rm -f usage.db
timeout 60 "$REPLAY" --quiet --db usage.db --from auto usage-inspect.json \
    usage-otlp.jsonl tau2.json 2>/dev/null
ok "usage: each episode's tokens, cost and seconds" \
"usage/U1|u1#1|1250|305|0.023|12.5
usage/U1|u2#1|900|100|NULL|7.0
usage/U1|u3#1|NULL|NULL|NULL|NULL
usage-agent|000000000000000000000000000000a1:00000000000000a1|150|25|NULL|3.0
usage-agent|000000000000000000000000000000b2:00000000000000b1|77|7|NULL|2.0
usage-agent|000000000000000000000000000000c3:00000000000000c1|1000|100|NULL|4.0
tau2|sim-0|1000|100|0.01|9.1
tau2|sim-1|NULL|NULL|0.01|9.1" \
    "$(sqlite3 usage.db "SELECT run, episode, quote(input_tokens),
        quote(output_tokens), quote(cost), quote(duration) FROM episodes
        ORDER BY episode_id")"
ok "usage: each call's seconds" \
"u1#1|1|get_order|0.75
u1#1|2|get_order|NULL
u2#1|1|submit|0.25
000000000000000000000000000000a1:00000000000000a1|1|get_order|0.5
000000000000000000000000000000b2:00000000000000b1|1|get_order|0.125
000000000000000000000000000000c3:00000000000000c1|1|get_order|0.1
sim-0|1|search_orders|NULL" \
    "$(sqlite3 usage.db "SELECT episode, seq, tool, quote(duration) FROM calls
        WHERE episode <> 'sim-1' AND NOT (episode = 'sim-0' AND seq > 1)
        ORDER BY episode_id, seq")"
for r in usage/U1 usage-agent tau2; do
    timeout 60 "$CARD" --db usage.db --json "$r"
done > usage-cards.json
ok "usage: the cards' figures, as the query docs give them" \
    "card sql: 207 passed, 0 failed" \
    "$("$PYTHON3" "$TOP_SRCDIR/tests/card_sql.py" "$TOP_SRCDIR/docs/card.md" \
        usage.db usage-cards.json)"
ok "usage: the card says it" \
"usage, as logged (each figure over the episodes that give it, of 3)
  tokens       2150 input, 405 output, over 2 episodes
    an episode's: median 1000, 95th percentile 1555
  cost         \$0.0230, over 1 episode
  time         9.8 s an episode (mean), over 2
    median 7.0 s, 95th percentile 12.5 s
  call time    0.500 s a call (mean), over 2" \
    "$(timeout 60 "$CARD" --db usage.db usage/U1 | sed -n '/^usage,/,$p')"
ok "usage: the Markdown and HTML cards say the same figures" \
"| input tokens | 2150 | 2 |
| output tokens | 405 | 2 |
| tokens an episode (median) | 1000 | 2 |
| tokens an episode (95th percentile) | 1555 | 2 |
| cost | \$0.0230 | 1 |
| seconds an episode (mean) | 9.8 | 2 |
| seconds an episode (median) | 7.0 | 2 |
| seconds an episode (95th percentile) | 12.5 | 2 |
| seconds a call (mean) | 0.500 | 2 calls |
<tr><td>input tokens</td><td>2150</td><td>2</td></tr>
<tr><td>output tokens</td><td>405</td><td>2</td></tr>
<tr><td>tokens an episode (median)</td><td>1000</td><td>2</td></tr>
<tr><td>tokens an episode (95th percentile)</td><td>1555</td><td>2</td></tr>
<tr><td>cost</td><td>\$0.0230</td><td>1</td></tr>
<tr><td>seconds an episode (mean)</td><td>9.8</td><td>2</td></tr>
<tr><td>seconds an episode (median)</td><td>7.0</td><td>2</td></tr>
<tr><td>seconds an episode (95th percentile)</td><td>12.5</td><td>2</td></tr>
<tr><td>seconds a call (mean)</td><td>0.500</td><td>2 calls</td></tr>" \
    "$(timeout 60 "$CARD" --db usage.db --markdown usage/U1 |
           sed -n '/^| usage | value/,/^$/p' | grep -v '^| usage\|^|---\|^$'
       timeout 60 "$CARD" --db usage.db --html usage/U1 |
           sed -n '/<h3>Usage, as logged/,/<\/table>/p' |
           grep '^<tr><td>')"
same p-flat otlp otlp-flat.jsonl
# --- one folder of every format, each as its harness writes it, read by
# --- one replay --from auto: per file, the episodes, the calls and the
# --- harness's successes the database holds are what the log holds, as
# --- tests/logs_oracle.py reads it from the log itself (a Zstandard .eval,
# --- which Python's zipfile reads only from 3.14, has its own gold)
mkdir -p every/deeper && cp steady.eval steady-tau.json steady-traces.json \
    tau2.json jaeger.json inspect-v1.json chunked-good.eval every/ &&
    cp otlp-flat.jsonl every/deeper/ &&
    # the Tempo fixture is the Jaeger one's twin: here, another trace
    sed 's#S/kvNXezTaajzpDQ4riKTQ==#S/kvNXezTaajzpDQ4riKTg==#' tempo.json \
        > every/deeper/tempo.json || exit 99
rm -f every.db
timeout 120 "$REPLAY" --quiet --db every.db --from auto every 2>/dev/null
held=$(cd every && "$PYTHON3" "$TOP_SRCDIR/tests/logs_oracle.py" \
        $(find . -type f ! -name 'tools-*' | sed 's#^\./##' | LC_ALL=C sort))
printf 'what the logs hold (file|episodes|calls|successes|errors):\n%s\n' "$held"
ok "every format in one folder: per file, episodes, calls, successes and error answers as the log holds them" \
    "$held" \
    "$(sqlite3 every.db "SELECT source_file, count(*), sum(calls),
        coalesce(sum(success), 0), sum((SELECT count(c.error) FROM calls c
            WHERE c.episode_id = e.episode_id))
        FROM episodes e GROUP BY source_file
        ORDER BY source_file" | sed 's#^every/##')"
ok "... and 0 problems, 9 files, no file skipped" "0|9" \
    "$(sqlite3 every.db "SELECT count(*) FROM problems; SELECT
        count(DISTINCT source_file) FROM episodes" | paste -sd'|')"

# a controller agent that invokes another: one episode, the nested
# agent's calls its; with --each-agent, an episode an agent
ok "nested agents: one episode; --each-agent: one each" \
"000000000000000000000000000000c3:00000000000000c1|1|1000|100|4.0
--
000000000000000000000000000000c3:00000000000000c1|0|1000|100|4.0
000000000000000000000000000000c3:00000000000000c2|1|400|40|1.0" \
    "$(for o in "" --each-agent; do
           [ -n "$o" ] && echo --
           rm -f nested.db
           timeout 60 "$REPLAY" --quiet --db nested.db --from otlp $o \
               --tools shop.json usage-otlp.jsonl 2>/dev/null
           sqlite3 nested.db "SELECT episode, calls, input_tokens,
               output_tokens, duration FROM episodes
               WHERE episode LIKE '%c3:%' ORDER BY episode"
       done)"
same p-usage-inspect inspect usage-inspect.json
same p-usage-otlp otlp usage-otlp.jsonl --tools shop.json

# --- chat spans' histories (gen_ai.input.messages), each the last one and
# --- the messages since: read on from the last one of its trace when it
# --- goes on from it, else whole.  The same spans in three orders (each
# --- trace's in time order; ten traces taken in turn, so that the last
# --- history of a trace is forgotten before its next span; each trace's
# --- backwards) give one database.  The traces: plain; a space before
# --- each comma and the end; a last history with a comma before its end
# --- (no JSON: its answer is lost), one with words after it, one that
# --- repeats the last, one whose first message changed, the older
# --- tool_calls form, a {"messages": [...]} object, calls made before the
# --- first chat span, a first history that is an empty list, a nested
# --- agent's history going on from its parent's, calls without ids
timeout 60 "$PYTHON3" - <<'EOF' || exit 99
import json
dumps = lambda v: json.dumps(v, separators=(",", ":"))
kv = lambda k, v: {"key": k, "value": {"stringValue": v}}
CALLS = [("search_orders", {"query": "harbor"}, {"id": "X-1"}),
         ("get_order", {"order_id": "X-1"}, {"id": "X-1", "total": 12}),
         ("refund_order", {"order_id": "X-1", "amount": 12}, {"ok": True})]

def convo(t):
    """Trace t's chat spans: (history text, output messages text)."""
    older = t == 6
    msgs = [{"role": "user", "parts": [{"type": "text", "content":
                                        "refund order X-1, trace %d" % t}]}]
    if t == 8:  # calls made before this trace's first chat span
        msgs += [{"role": "assistant", "parts": [
                     {"type": "tool_call", "id": "p%d" % t,
                      "name": "list_channels", "arguments": {}}]},
                 {"role": "tool", "parts": [
                     {"type": "tool_call_response", "id": "p%d" % t,
                      "response": dumps(["email"])}]}]
    join, end = (" ,", " ]") if t == 1 else (",", "]")
    text = lambda ms: "[" + join.join(dumps(m) for m in ms) + end
    out = []
    for i, c in enumerate(CALLS + [None]):
        cid = "c%d_%d" % (t, i)
        if c and t == 11:  # calls without ids: known by their places
            said = {"role": "assistant", "parts": [
                {"type": "tool_call", "name": c[0], "arguments": c[1]}]}
        elif c and older:
            said = {"role": "assistant", "content": "",
                    "tool_calls": [{"id": cid, "type": "function",
                                    "function": {"name": c[0],
                                                 "arguments": dumps(c[1])}}]}
        elif c:
            said = {"role": "assistant", "parts": [
                {"type": "text", "content": "calling %s" % c[0]},
                {"type": "tool_call", "id": cid, "name": c[0],
                 "arguments": c[1]}]}
        else:
            said = {"role": "assistant", "parts": [
                {"type": "text", "content": "done"}]}
        h = "[]" if t == 9 and i == 0 else text(msgs)
        if c is None and t == 2:
            h = h[:-1] + ",]"
        elif c is None and t == 3:
            h = h + " and more"
        elif c is None and t == 5:
            h = h.replace("refund order", "REFUND ORDER", 1)
        elif t == 7:
            h = dumps({"messages": msgs})
        out.append((h, dumps([said])))
        if t == 4 and i == 1:
            out.append((h, dumps([said])))  # the same history again
        msgs = msgs + [said]
        if c and older:
            msgs.append({"role": "tool", "tool_call_id": cid,
                         "content": dumps(c[2])})
        elif c:
            msgs.append({"role": "tool", "parts": [
                {"type": "tool_call_response", "id": cid,
                 "response": dumps(c[2])}]})
    return out

def spans(t):
    trace = "%032x" % (0x4157 + t)
    agent = "%016x" % (0x100 + t)
    got = []
    for i, (h, o) in enumerate(convo(t)):
        # trace 10: its last chat span is a nested agent's, whose history
        # goes on from its parent's (with --each-agent, an episode whose
        # calls are those of that history)
        parent = "%016x" % 0x10a0 if t == 10 and i == 3 else agent
        got.append({"traceId": trace,
                    "spanId": "%016x" % (0x1000 * (t + 1) + i),
                    "parentSpanId": parent, "name": "chat m", "kind": 3,
                    "startTimeUnixNano": str(1000 + 100 * i),
                    "endTimeUnixNano": str(1050 + 100 * i),
                    "attributes": [kv("gen_ai.operation.name", "chat"),
                                   kv("gen_ai.request.model", "m"),
                                   kv("gen_ai.input.messages", h),
                                   kv("gen_ai.output.messages", o)]})
    root = {"traceId": trace, "spanId": agent, "name": "invoke_agent a",
            "kind": 1, "startTimeUnixNano": "900",
            "endTimeUnixNano": "99999",
            "attributes": [kv("gen_ai.operation.name", "invoke_agent")]}
    if t == 10:
        got.insert(3, {"traceId": trace, "spanId": "%016x" % 0x10a0,
                       "parentSpanId": agent, "name": "invoke_agent b",
                       "kind": 1, "startTimeUnixNano": "1250",
                       "endTimeUnixNano": "9999", "attributes": [
                           kv("gen_ai.operation.name", "invoke_agent")]})
    return got, root

def line(ss):
    return dumps({"resourceSpans": [{"resource": {"attributes": [
        kv("service.name", "hist")]}, "scopeSpans": [
            {"scope": {"name": "a"}, "spans": ss}]}]}) + "\n"

traces = [spans(t) for t in range(12)]
roots = line([root for _, root in traces])
with open("hist-a.jsonl", "w") as f:
    for got, _ in traces:
        for s in got:
            f.write(line([s]))
    f.write(roots)
with open("hist-b.jsonl", "w") as f:
    for i in range(max(len(g) for g, _ in traces)):
        for got, _ in traces:
            if i < len(got):
                f.write(line([got[i]]))
    f.write(roots)
with open("hist-c.jsonl", "w") as f:
    for got, _ in traces:
        for s in reversed(got):
            f.write(line([s]))
    f.write(roots)
EOF
for o in a b c; do
    rm -f hist-$o.db hist-$o-each.db
    timeout 60 "$REPLAY" --quiet --from otlp --tools shop.json \
        --db hist-$o.db hist-$o.jsonl 2>/dev/null
    timeout 60 "$REPLAY" --quiet --from otlp --tools shop.json --each-agent \
        --db hist-$o-each.db hist-$o.jsonl 2>/dev/null
done
for e in "" -each; do
    ok "histories read on from the last: one database in any order ($e)" \
        "$(dump hist-a$e.db | sed 's/hist-a/hist-?/g')
--
$(dump hist-a$e.db | sed 's/hist-a/hist-?/g')" \
        "$(dump hist-b$e.db | sed 's/hist-b/hist-?/g')
--
$(dump hist-c$e.db | sed 's/hist-c/hist-?/g')"
done
gold otlp-histories "$(imp hist otlp hist-a.jsonl; cat hist.jsonl
    imp hist-each otlp hist-a.jsonl --each-agent; cat hist-each.jsonl)"

# --- the same, on 80 traces drawn at random (seeded): texts with quotes,
# --- backslashes, control characters, escapes and characters past ASCII
# --- written raw or escaped, both forms of calls (some without ids),
# --- spaces or none between messages, a history repeated or changed at
# --- its start now and then.
# --- Read in time order (each history read on from the last), shuffled,
# --- and each trace backwards (every history read whole): one database.
timeout 60 "$PYTHON3" - <<'EOF' || exit 99
import json, random
rnd = random.Random(43)
PIECES = ["order", " ", "\"", "\\", "\n", "\t", "\u00e9", "\u2028",
          "\U0001f600", "</", "{", "]", ",", "\u0001", "x" * 40, "caf\u00e9",
          "\\u00e9"]
text = lambda: "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 8)))
TOOLS = [("search_orders", "query"), ("get_order", "order_id"),
         ("refund_order", "order_id")]
def dumps(v, ascii_only):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=ascii_only)
kv = lambda k, v: {"key": k, "value": {"stringValue": v}}
traces = []
for t in range(80):
    trace = "%032x" % (0x9000 + t)
    agent = "%016x" % (0x9000 + t)
    ascii_only = rnd.random() < 0.5
    join = rnd.choice([",", ", ", " ,"])
    msgs = [{"role": "user", "parts": [{"type": "text", "content": text()}]}]
    got = []
    for i in range(rnd.randint(1, 6)):
        cid = "c%d_%d%s" % (t, i, text()[:3])
        name, key = rnd.choice(TOOLS)
        args = {key: text()}
        if rnd.random() < 0.3:
            said = {"role": "assistant", "content": text(), "tool_calls": [
                {"id": cid, "type": "function", "function": {
                    "name": name, "arguments": dumps(args, ascii_only)}}]}
            answer = {"role": "tool", "tool_call_id": cid,
                      "content": dumps({"r": text()}, ascii_only)}
        else:
            said = {"role": "assistant", "parts": [
                {"type": "text", "content": text()},
                {"type": "tool_call", "id": cid, "name": name,
                 "arguments": args}]}
            if rnd.random() < 0.2:  # no id: known by its place
                del said["parts"][1]["id"]
            answer = {"role": "tool", "parts": [
                {"type": "tool_call_response", "id": cid,
                 "response": dumps({"r": text()}, ascii_only)}]}
        sent = list(msgs)
        if rnd.random() < 0.1:  # its start changed: read whole
            sent[0] = {"role": "user", "parts": [
                {"type": "text", "content": text() + "!"}]}
        h = "[" + join.join(dumps(m, ascii_only) for m in sent) + "]"
        for _ in range(2 if rnd.random() < 0.1 else 1):  # now and then twice
            got.append({"traceId": trace,
                        "spanId": "%016x" % (0x100000 * (t + 1) + len(got)),
                        "parentSpanId": agent, "name": "chat m", "kind": 3,
                        "startTimeUnixNano": str(1000 + 100 * len(got)),
                        "endTimeUnixNano": str(1050 + 100 * len(got)),
                        "attributes": [
                            kv("gen_ai.operation.name", "chat"),
                            kv("gen_ai.request.model", "m"),
                            kv("gen_ai.input.messages", h),
                            kv("gen_ai.output.messages",
                               dumps([said], ascii_only))]})
        msgs = msgs + [said, answer]
    root = {"traceId": trace, "spanId": agent, "name": "invoke_agent a",
            "kind": 1, "startTimeUnixNano": "900",
            "endTimeUnixNano": "99999",
            "attributes": [kv("gen_ai.operation.name", "invoke_agent")]}
    traces.append((got, root))
def line(ss):
    return json.dumps({"resourceSpans": [{"resource": {"attributes": [
        kv("service.name", "rhist")]}, "scopeSpans": [
            {"scope": {"name": "a"}, "spans": ss}]}]}) + "\n"
roots = line([root for _, root in traces])
every = [s for got, _ in traces for s in got]
shuffled = list(every)
rnd.shuffle(shuffled)
# every turn made one call (a repeated span makes none more)
open("rhist-calls", "w").write("%d\n" % sum(
    len({s["attributes"][3]["value"]["stringValue"] for s in got})
    for got, _ in traces))
for name, order in (("a", every), ("b", shuffled),
                    ("c", [s for got, _ in traces for s in reversed(got)])):
    with open("rhist-%s.jsonl" % name, "w") as f:
        for s in order:
            f.write(line([s]))
        f.write(roots)
EOF
for o in a b c; do
    rm -f rhist-$o.db
    timeout 60 "$REPLAY" --quiet --from otlp --tools shop.json \
        --db rhist-$o.db rhist-$o.jsonl 2>/dev/null
done
byname() { # DB: its episodes, calls and problems, by name (the order the
           # traces end in, and so their rowids, follows the input's)
    sqlite3 "$1" "SELECT episode, seed, arm, calls, reached, errors, diverged,
        status, final, content_xxh3, task_name, success, reward,
        input_tokens, output_tokens, cost, duration FROM episodes
        ORDER BY episode;
        SELECT episode, seq, step, tool, kind, arguments, answer, error,
        effect, dial, diverged, logged_answer, arguments_raw,
        arguments_valid, arguments_rule, answer_valid, duration FROM calls
        ORDER BY episode, seq;
        SELECT message FROM problems ORDER BY message"
}
ok "histories drawn at random: one database in any order" \
    "$(byname rhist-c.db)
--
$(byname rhist-c.db)" "$(byname rhist-a.db)
--
$(byname rhist-b.db)"
ok "histories drawn at random: every turn's call" "80|$(cat rhist-calls)" \
    "$(sqlite3 rhist-a.db "SELECT count(*), sum(calls) FROM episodes")"

# --- a reward no double holds (1e400, 400 digits) is a problem and no
# --- reward, never an end line the transcript reader refuses
printf '{"id":"a","messages":[],"reward":1e400}\n{"id":"b","messages":[],"reward":-1%0400d}\n{"id":"c","messages":[],"reward":-0.5}\n' 0 > rw.jsonl
sed 's/"value": 0.5/"value": 1e400/' "$golds/inspect.json" > rw.json
sed -n 3p "$golds/otlp.jsonl" | sed 's/{"doubleValue":0.25}/{"doubleValue":1e400}/' \
    > rw-o.jsonl
# (and OTLP's reward given as text: no number, said too)
sed -n 3p "$golds/otlp.jsonl" |
    sed 's/{"doubleValue":0.25}/{"stringValue":"0.25"}/' > rw-t.jsonl
rw() { # FORMAT FILE: the import's reward problems and its end lines' rewards
    timeout 60 "$REPLAY" import "$1" "$2" -o rw-out.jsonl 2>&1 |
        grep -e reward -e "score's value"
    grep '"end"' rw-out.jsonl | sed -n 's/.*"episode":"\([^"]*\)".*"reward":\([^,}]*\).*/\1 \2/p'
    timeout 60 "$REPLAY" --db rw.db rw-out.jsonl 2>&1 | grep ' lines: '
}
ok "a reward no double holds: messages" \
"rw.jsonl:1: \$: the record's reward (at reward) is not a finite number: the episode's reward is left unknown
rw.jsonl:2: \$: the record's reward (at reward) is not a finite number: the episode's reward is left unknown
c -0.5
replay: 7 lines: 7 used, 0 unchanged, 0 problems, 0 blank" "$(rm -f rw.db; rw messages rw.jsonl)"
ok "a reward no double holds: inspect" \
"rw.json: \$.samples[1].scores: the score's value is none that is read (C, I, P, N, correct, incorrect, yes, no, true, false, a finite number): success and reward are left unknown
rw.json: \$.samples[3].scores: the score's value is none that is read (C, I, P, N, correct, incorrect, yes, no, true, false, a finite number): success and reward are left unknown
replay: 11 lines: 11 used, 0 unchanged, 0 problems, 0 blank" "$(rm -f rw.db; rw inspect rw.json)"
ok "a reward no double holds: otlp" \
"rw-o.jsonl: trace 5eed00000000000000000000000000aa: the episode's tasks.reward is not a finite number: its reward is left unknown
replay: 5 lines: 5 used, 0 unchanged, 0 problems, 0 blank" "$(rm -f rw.db; rw otlp rw-o.jsonl)"
ok "a reward that is no number: otlp" \
"rw-t.jsonl: trace 5eed00000000000000000000000000aa: the episode's tasks.reward is not a number: its reward is left unknown
replay: 5 lines: 5 used, 0 unchanged, 0 problems, 0 blank" "$(rm -f rw.db; rw otlp rw-t.jsonl)"
ok "a reward no double holds: the database's rewards" "a||1
b||1
c|-0.5|0" "$(rm -f rw.db; timeout 60 "$REPLAY" --quiet --from messages \
    --tools shop.json --db rw.db rw.jsonl 2>/dev/null
    sqlite3 rw.db "SELECT episode, reward, reward IS NULL FROM episodes ORDER BY episode")"
# two costs whose sum no double holds: the largest double, not Infinity
"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["samples"][0]["model_usage"] = {"a": {"total_cost": 1.5e308},
                                  "b": {"total_cost": 1.5e308}}
json.dump(d, open("cost.json", "w"))' "$golds/inspect.json" || exit 99
ok "costs whose sum no double holds" \
"t1#1 1.7976931348623157e+308
replay: 11 lines: 11 used, 0 unchanged, 0 problems, 0 blank" \
"$(rm -f rw.db; timeout 60 "$REPLAY" import inspect cost.json -o cost-out.jsonl 2>/dev/null
    grep '"end"' cost-out.jsonl | sed -n 's/.*"episode":"\([^"]*\)".*"cost":\([^,}]*\).*/\1 \2/p'
    timeout 60 "$REPLAY" --db rw.db cost-out.jsonl 2>&1 | grep ' lines: ')"

# --- a seed without an arm (or one the simulator does not take) leaves the
# --- episode observed, said; it never loses the episode and its calls
printf '%s\n' '{"id":"a","seed":7,"messages":[]}' \
    '{"id":"b","arm":"base","messages":[]}' \
    '{"id":"c","seed":-5,"arm":"base","messages":[]}' \
    '{"id":"d","seed":7,"arm":"nope","messages":[]}' \
    '{"id":"e","seed":7,"arm":"base","task_id":"t\u0000","messages":[]}' \
    > sa.jsonl
"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
del d["samples"][1]["metadata"]["arm"]
json.dump(d, open("sa.json", "w"))' "$golds/inspect.json" || exit 99
sed -n 3p "$golds/otlp.jsonl" |
    sed 's/{"key":"tasks.arm","value":{"stringValue":"base"}},//' > sa-o.jsonl
sa() { # FORMAT FILE: the import's seed, arm and task name problems, and
       # the episodes replay --from writes of it (seed, arm, task, calls)
    timeout 60 "$REPLAY" import "$1" "$2" -o sa-out.jsonl 2>&1 |
        grep -e seed -e arm -e "task name"
    rm -f sa.db
    timeout 60 "$REPLAY" --quiet --from "$1" --tools shop.json --db sa.db \
        "$2" 2>/dev/null
    sqlite3 sa.db "SELECT episode, seed, arm, task_name, calls FROM episodes
        ORDER BY episode"
}
ok "a seed without an arm: messages" \
"sa.jsonl:1: \$: the episode has a seed but no arm: it is read as observed (its calls counted, not replayed); a log that gives both a seed and an arm is replayed by the simulator
sa.jsonl:2: \$: the episode has an arm but no seed: it is read as observed (its calls counted, not replayed); a log that gives both a seed and an arm is replayed by the simulator
sa.jsonl:3: \$: the episode's seed and arm are none the simulator takes (\"seed\" must be a non-negative integer, not a negative one): it is read as observed (its calls counted, not replayed)
sa.jsonl:4: \$: the episode's seed and arm are none the simulator takes (unknown arm \"nope\"; did you mean base?): it is read as observed (its calls counted, not replayed)
sa.jsonl:5: \$: the episode's task name is none a transcript holds (\"task_name\" holds a NUL or a lone surrogate): it is left out
a||||0
b||||0
c||||0
d||||0
e|7|base||0" "$(sa messages sa.jsonl)"
ok "a seed without an arm: inspect" \
"sa.json: \$.samples[1].metadata: the episode has a seed but no arm: it is read as observed (its calls counted, not replayed); a log that gives both a seed and an arm is replayed by the simulator
7#2|||7|1
t1#1|||t1|3
t4#1|||t4|0" "$(sa inspect sa.json)"
ok "a seed without an arm: otlp" \
"sa-o.jsonl: trace 5eed00000000000000000000000000aa: the episode has a seed but no arm: it is read as observed (its calls counted, not replayed); a log that gives both a seed and an arm is replayed by the simulator
5eed00000000000000000000000000aa:00000000000000a1||||2" "$(sa otlp sa-o.jsonl)"
# a call with no answer: replayed in an episode with a seed and an arm,
# counted in an observed one, and said so
printf '%s\n' '{"id":"r","seed":7,"arm":"base","messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_order","arguments":"{}"}}]}]}' \
    '{"id":"o","messages":[{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"get_order","arguments":"{}"}}]}]}' \
    > unanswered.jsonl
ok "a call with no answer, replayed or observed" \
"unanswered.jsonl:1: \$.messages[0].tool_calls[0]: call \"c1\" of episode \"r\" has no answer in the log: it is replayed, and its answer is not compared
unanswered.jsonl:2: \$.messages[0].tool_calls[0]: call \"c2\" of episode \"o\" has no answer in the log: it is counted, with no answer (the episode is observed, not replayed)" \
"$(timeout 60 "$REPLAY" import messages unanswered.jsonl -o /dev/null 2>&1 |
    grep 'no answer')"

# --- a trace over files (a Collector's rotated files, one after the
# --- other): one episode, as the files joined give it, its file's where
# --- its last span was; a trace no later file goes on with is its own
# --- file's, on its own lines; a file of another kind between them ends
# --- what the log before held
sed -n 1p "$golds/otlp.jsonl" > rot-1.jsonl
sed -n '3,4p' "$golds/otlp.jsonl" > rot-2.jsonl
sed -n 4p "$golds/otlp.jsonl" > rot-b.jsonl
cat rot-1.jsonl rot-2.jsonl > rot-all.jsonl
ok "a trace over two files: the lines of the files joined" \
    "$(timeout 60 "$REPLAY" import otlp rot-all.jsonl 2>/dev/null)" \
    "$(timeout 60 "$REPLAY" import otlp rot-1.jsonl rot-2.jsonl 2>/dev/null)"
rot() { # DB FILE...: replay --from auto of the files into DB; its episodes
    d=$1
    shift
    rm -f "$d"
    timeout 60 "$REPLAY" --quiet --from auto --tools shop.json --db "$d" \
        "$@" 2>/dev/null
    sqlite3 "$d" "SELECT run, episode, calls, source_file, source_line
        FROM episodes ORDER BY episode;
        SELECT episode, seq, tool, source_file, source_line FROM calls
        ORDER BY episode, seq"
}
rot rot-all.db rot-all.jsonl > /dev/null
ok "a trace over two files: its episode and calls, where its root span is" \
"pit|5eed00000000000000000000000000aa:00000000000000a1|3|rot-2.jsonl|2
other|5eed00000000000000000000000000bb|2|rot-2.jsonl|8
5eed00000000000000000000000000aa:00000000000000a1|1|search_orders|rot-2.jsonl|3
5eed00000000000000000000000000aa:00000000000000a1|2|refund_order|rot-2.jsonl|4
5eed00000000000000000000000000aa:00000000000000a1|3|search_orders|rot-2.jsonl|5
5eed00000000000000000000000000bb|1|search_orders|rot-2.jsonl|9
5eed00000000000000000000000000bb|2|refund_order|rot-2.jsonl|10" \
    "$(rot rot.db rot-1.jsonl rot-2.jsonl)"
ok "a trace over two files: the database of the files joined" \
    "$(byname rot-all.db)" "$(byname rot.db)"
ok "a trace no later file goes on with: its own file's lines" \
"pit|5eed00000000000000000000000000aa|2|rot-1.jsonl|2
other|5eed00000000000000000000000000bb|2|rot-b.jsonl|2
5eed00000000000000000000000000aa|1|search_orders|rot-1.jsonl|3
5eed00000000000000000000000000aa|2|refund_order|rot-1.jsonl|4
5eed00000000000000000000000000bb|1|search_orders|rot-b.jsonl|3
5eed00000000000000000000000000bb|2|refund_order|rot-b.jsonl|4" \
    "$(rot rot-b.db rot-1.jsonl rot-b.jsonl)"
sed -n 3p "$golds/otlp.jsonl" > rot-3.jsonl
ok "a trace over files with another trace's between: one episode each" \
"pit|5eed00000000000000000000000000aa:00000000000000a1|3|rot-3.jsonl|2
other|5eed00000000000000000000000000bb|2|rot-b.jsonl|2
5eed00000000000000000000000000aa:00000000000000a1|1|search_orders|rot-3.jsonl|3
5eed00000000000000000000000000aa:00000000000000a1|2|refund_order|rot-3.jsonl|4
5eed00000000000000000000000000aa:00000000000000a1|3|search_orders|rot-3.jsonl|5
5eed00000000000000000000000000bb|1|search_orders|rot-b.jsonl|3
5eed00000000000000000000000000bb|2|refund_order|rot-b.jsonl|4" \
    "$(rot rot-3.db rot-1.jsonl rot-b.jsonl rot-3.jsonl)"
ok "a trace over files: each file's problems under its own name" \
"rot-3.jsonl|-1
rot-b.jsonl|-1" \
    "$(sqlite3 rot-3.db "SELECT source_file, source_line FROM problems
        ORDER BY source_file")"
printf '%s\n' '{"type":"run","run":"t","tools":"shop.json"}' \
    '{"type":"episode","run":"t","episode":"e1"}' \
    '{"type":"end","run":"t","episode":"e1","status":"done"}' > rot-t.jsonl
cp rot-1.jsonl rot-1.json
cp rot-2.jsonl rot-2.json
ok "a transcript between two files of a trace: each part its file's" \
"pit|5eed00000000000000000000000000aa|2|rot-1.json|2
pit|5eed00000000000000000000000000aa:00000000000000a1|2|rot-2.json|1
other|5eed00000000000000000000000000bb|2|rot-2.json|6
t|e1|0|rot-t.jsonl|2" \
    "$(rot rot-t.db rot-1.json rot-t.jsonl rot-2.json | sed -n 1,4p)"
ok "a log of another format between two files of a trace: each part its file's" \
"pit|5eed00000000000000000000000000aa|2|rot-1.json|2
pit|5eed00000000000000000000000000aa:00000000000000a1|2|rot-2.json|1
other|5eed00000000000000000000000000bb|2|rot-2.json|6" \
    "$(rot rot-m.db rot-1.json messages.jsonl rot-2.json |
        grep '|rot-[12].json|[0-9]*$' | grep -v '^5eed')"

# --- GenAI events of the Logs signal (the OpenAI v2 instrumentation's
# --- gen_ai.*.message and gen_ai.choice records, its later
# --- operation.details): each an event of the span it names, in the
# --- same file as the spans or in a file before or after them, a record
# --- delivered twice read once, an application's own log passed over, a
# --- record naming no span said
gold otlp-events "$(imp events otlp otlp-events.jsonl; cat events.jsonl)"
sed -n 1p otlp-events.jsonl > ev-spans.jsonl
sed -n 2p otlp-events.jsonl > ev-logs.jsonl
cat otlp-events.jsonl ev-logs.jsonl > ev-twice.jsonl
for f in otlp-events ev-twice; do
    rm -f "$f.db"
    timeout 60 "$REPLAY" --quiet --from otlp --tools shop.json --db "$f.db" \
        "$f.jsonl" 2>/dev/null
done
for o in "ev-spans ev-logs" "ev-logs ev-spans"; do
    rm -f ev.db
    # shellcheck disable=SC2086
    timeout 60 "$REPLAY" --quiet --from otlp --tools shop.json --db ev.db \
        $(printf '%s.jsonl ' $o) 2>/dev/null
    ok "GenAI events in a file of their own ($o): the one file's database" \
        "$(byname otlp-events.db)" "$(byname ev.db)"
done
# (the record that names no span is said at each delivery)
ok "GenAI events delivered twice: read once" \
    "$(byname otlp-events.db | sort -u)" "$(byname ev-twice.db | sort -u)"

# without content capture (its default) the instrumentation keeps a tool
# call's id and name but not its arguments: recorded with none, and said
timeout 60 "$PYTHON3" - otlp-events.jsonl ev-bare.jsonl <<'PY' || exit 99
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items()}
    if isinstance(o, list):
        return [strip(x) for x in o if not (isinstance(x, dict) and
                x.get("key") in ("content", "arguments"))]
    return o
lines = open(sys.argv[1]).read().splitlines()
with open(sys.argv[2], "w") as f:
    f.write(lines[0] + "\n" + json.dumps(strip(json.loads(lines[1]))) + "\n")
PY
ok "GenAI events without content: the call, its arguments withheld, said" \
"ev-bare.jsonl: trace 7ace0000000000000000000000000001: 1 tool call without its arguments in the log (the OpenAI v2 instrumentation writes them only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is true): recorded with none ({}), which its tool's schema may refuse
\"call\":{\"name\":\"search_orders\"}" \
"$(timeout 60 "$REPLAY" import otlp ev-bare.jsonl -o ev-bare.out 2>&1 |
    grep 'without its arguments'
    grep -o '"call":{[^}]*}' ev-bare.out | head -1)"

echo "logs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
