"""What each log of a folder holds, read here from the log itself, apart
from the readers: per file, its episodes, its tool calls and the episodes
the harness called a success, and the calls whose answer is an error.

    logs_oracle.py FILE...

Prints "FILE|episodes|calls|successes|errors" a file, in the order given
(FILE as given).  An answer is an error when the log flags it so (a tool
message's or tool event's "error", tau2's "error": true, a span's error
status) or its text is one: it begins "Error:", or it is JSON of an
error object, an MCP result flagged isError or HTTP problem details.
The rules are each format's own (docs/logs.md):
  - Inspect (.eval, whole or chunked; .json): a sample is an episode; its
    calls are the union, by id, of its messages' tool calls, its model
    events' output calls and its tool events; its success is its first
    score's value "C" (or a number 1, or true);
  - tau-bench (a list of records with "traj"): a record is an episode;
    its calls are its assistant messages' tool calls; success is reward 1;
  - tau2-bench ({"simulations"}): a simulation is an episode; its calls
    are the tool calls not requested by the user simulator; success is
    reward_info.reward 1;
  - OTLP (JSON Lines or one document), Tempo ({"batches"}), Jaeger
    ({"data"}): an episode a trace's outermost agent span (else the
    trace); its calls its execute_tool spans, and the calls OpenLLMetry's
    and OpenInference's model spans flatten (by id); success tasks.success."""
import json
import sys
import zipfile


def error_text(t):
    """whether an answer's text (or value) is an error, as it reads"""
    if isinstance(t, str):
        if t.lstrip(" \t\r\n").startswith("Error:"):
            return True
        try:
            t = json.loads(t)
        except ValueError:
            return False
    if not isinstance(t, dict):
        return False
    if t.get("isError") is True:
        return True
    e = t.get("error")
    if isinstance(e, dict) or (isinstance(e, str) and e):
        return True
    st = t.get("status")
    return (isinstance(st, int) and not isinstance(st, bool) and
            400 <= st <= 599 and any(k in t for k in ("title", "type",
                                                        "detail")))


def text_of(content):
    """a message's content as text: a string, or its text blocks'"""
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content
                       if isinstance(b, dict) and b.get("type") == "text")
    return content if isinstance(content, str) else ""


def inspect_sample(s):
    ids, plain = set(), 0
    for m in s.get("messages") or []:
        for c in m.get("tool_calls") or []:
            if c.get("id"):
                ids.add(c["id"])
            else:
                plain += 1
    for ev in s.get("events") or []:
        if ev.get("event") == "tool" and ev.get("id"):
            ids.add(ev["id"])
        if ev.get("event") == "model":
            for ch in (ev.get("output") or {}).get("choices") or []:
                for c in (ch.get("message") or {}).get("tool_calls") or []:
                    if c.get("id"):
                        ids.add(c["id"])
    scores = s.get("scores") or {}
    first = next(iter(scores.values()), None) if scores else s.get("score")
    v = (first or {}).get("value")
    ok = v == "C" or v is True or (isinstance(v, (int, float)) and
                                   not isinstance(v, bool) and v == 1)
    # the answer of an id: its tool message, else its tool event
    answered, errors = set(), set()
    for m in s.get("messages") or []:
        i = m.get("tool_call_id")
        if m.get("role") == "tool" and i in ids and i not in answered:
            answered.add(i)
            if m.get("error") or error_text(text_of(m.get("content"))):
                errors.add(i)
    for ev in s.get("events") or []:
        i = ev.get("id")
        if ev.get("event") == "tool" and i in ids and i not in answered:
            answered.add(i)
            r = ev.get("result")
            if ev.get("error") or error_text(text_of(r) if isinstance(
                    r, list) else r):
                errors.add(i)
    return len(ids) + plain, int(ok), len(errors)


def inspect_eval(path):
    z = zipfile.ZipFile(path)
    names = z.namelist()
    out = []
    for n in names:
        if not n.startswith("samples/") or not n.endswith(".json"):
            continue
        if n.endswith("/sample.json"):
            p = n[:-len("/sample.json")]
            shell = json.loads(z.read(n))
            seq = {}
            for what in ("messages", "events", "attachments"):
                items, k = [], 0
                while p + "/%s/%d.json" % (what, k) in names:
                    chunk = json.loads(z.read(p + "/%s/%d.json" % (what, k)))
                    items += chunk
                    k += len(chunk)
                seq[what] = items
            msgs = []
            for a, b in shell.get("message_refs") or []:
                msgs += seq["messages"][a:b]
            out.append(inspect_sample(dict(shell, messages=msgs,
                                           events=seq["events"])))
        elif "/" not in n[len("samples/"):] or not any(
                m.endswith("/sample.json") and n.startswith(m[:-11])
                for m in names):
            out.append(inspect_sample(json.loads(z.read(n))))
    return out


def attrs(span, key):
    for kv in span.get("attributes") or span.get("tags") or []:
        if kv.get("key") == key:
            v = kv.get("value")
            if isinstance(v, dict):
                return next(iter(v.values()), None)
            return v
    return None


def kind(span):
    op = attrs(span, "gen_ai.operation.name")
    name = span.get("name") or span.get("operationName") or ""
    if op in ("execute_tool",) or name.startswith("execute_tool"):
        return "tool"
    if op == "invoke_agent" or name.startswith("invoke_agent"):
        return "agent"
    return ""


def traces(spans):
    """spans: (trace, id, parent, span) -> [(calls, success)] an episode"""
    by_trace = {}
    for t, i, p, s in spans:
        by_trace.setdefault(t, {})[i] = (p, s)
    out = []
    for t, tree in by_trace.items():
        def head(i):
            top, seen = None, 0
            while i in tree and seen <= len(tree):
                if kind(tree[i][1]) == "agent":
                    top = i
                i, seen = tree[i][0], seen + 1
            return top
        eps, seen = {}, {}
        any_agent = any(kind(s) == "agent" for _, s in tree.values())
        for i, (p, s) in tree.items():
            h = head(i) if any_agent else t
            if h is None:
                continue
            e = eps.setdefault(h, [0, 0, 0])
            if kind(s) == "tool":
                e[0] += 1
                st = s.get("status") or {}
                if (st.get("code") in (2, "STATUS_CODE_ERROR") or
                        attrs(s, "error") is True or
                        attrs(s, "otel.status_code") == "ERROR" or
                        error_text(attrs(s, "gen_ai.tool.call.result"))):
                    e[2] += 1
            # a call only a model's span shows, in OpenLLMetry's or
            # OpenInference's flattened answer: once a call id
            for kv in s.get("attributes") or []:
                k = kv.get("key", "").split(".")
                if (k[:2] == ["gen_ai", "completion"] and k[3:4] ==
                        ["tool_calls"] and k[-1] == "id") or (
                        k[:2] == ["llm", "output_messages"] and
                        k[-2:] == ["tool_call", "id"]):
                    seen.setdefault(h, set()).add(attrs(s, kv["key"]))
            if attrs(s, "tasks.success") is True:
                e[1] = 1
        out += [(v[0] + len(seen.get(h, ())), v[1], v[2])
                for h, v in eps.items()]
    return out


def otlp(path):
    text = open(path, encoding="utf-8").read()
    try:
        docs = [json.loads(text)]
    except ValueError:
        docs = [json.loads(line) for line in text.splitlines()
                if line.strip()]
    spans = []
    for d in docs:
        if "data" in d:  # Jaeger
            for tr in d["data"]:
                for s in tr["spans"]:
                    refs = [r for r in s.get("references") or []
                            if r.get("refType") == "CHILD_OF"]
                    p = refs[0]["spanID"].rjust(16, "0") if refs else None
                    spans.append((s["traceID"], s["spanID"].rjust(16, "0"),
                                  p, s))
            continue
        d = d.get("trace", d)
        for rs in d.get("resourceSpans") or d.get("batches") or []:
            for ss in (rs.get("scopeSpans") or
                       rs.get("instrumentationLibrarySpans") or []):
                for s in ss["spans"]:
                    spans.append((s["traceId"], s["spanId"],
                                  s.get("parentSpanId") or None, s))
    return traces(spans)


def messages(path):
    d = json.load(open(path, encoding="utf-8"))
    out = []
    if isinstance(d, dict) and "simulations" in d:
        for sim in d["simulations"]:
            calls = sum(1 for m in sim["messages"]
                        for c in m.get("tool_calls") or []
                        if c.get("requestor", "assistant") != "user")
            r = (sim.get("reward_info") or {}).get("reward")
            errors = sum(1 for m in sim["messages"] if m.get("role") == "tool"
                         and m.get("requestor", "assistant") != "user" and
                         (m.get("error") is True or
                          error_text(text_of(m.get("content")))))
            out.append((calls, int(r == 1), errors))
        return out
    for rec in d:
        calls = sum(len(m.get("tool_calls") or []) for m in rec["traj"]
                    if m.get("role") == "assistant")
        errors = sum(1 for m in rec["traj"] if m.get("role") == "tool" and
                     error_text(text_of(m.get("content"))))
        out.append((calls, int(rec.get("reward") == 1), errors))
    return out


def read(path):
    if path.endswith(".eval"):
        return inspect_eval(path)
    try:
        d = json.load(open(path, encoding="utf-8"))
    except ValueError:  # JSON Lines
        d = None
    if isinstance(d, dict) and "eval" in d and "samples" in d:
        return [inspect_sample(s) for s in d["samples"]]
    if isinstance(d, list) or (isinstance(d, dict) and "simulations" in d):
        return messages(path)
    return otlp(path)


for f in sys.argv[1:]:
    eps = read(f)
    print("%s|%d|%d|%d|%d" % (f, len(eps), sum(e[0] for e in eps),
                              sum(e[1] for e in eps),
                              sum(e[2] for e in eps)))
