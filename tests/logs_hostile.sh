# Hostile logs (docs/logs.md, "Hostile logs"): what a crafted or broken
# log must never do to replay import and replay --from:
#  - lose more than the record that holds a value of a wrong shape (the
#    fixtures of tests/logs_hostile, each with its gold transcript and
#    problems);
#  - write through a symbolic link, or into a file it did not make: the
#    transcript -o names, its OUT.partial, the tool files written beside it;
#  - take a JSON Lines file for one document because its first line is
#    long;
#  - cost time past linear in what it offers: tool definitions by the
#    hundred thousand.
# UPDATE_GOLDEN=1 rewrites the golds.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
skip_unless_python
PY=${PYTHON3:-python3}
export SOURCE_DATE_EPOCH=1790000000
T=$TEST_TMP
pass=0 fail=0
ok() { count_eq "$@"; }
golds=$TOP_SRCDIR/tests/logs_hostile
gold() { # NAME TEXT
    [ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$2" > "$golds/$1.gold"
    ok "$1" "$(cat "$golds/$1.gold")" "$2"
}
imp() { # NAME FORMAT FILE [OPTION...]: its problems, status, transcript
    n=$1 f=$2 file=$3
    shift 3
    timeout 60 "$REPLAY" import "$f" "$golds/$file" "$@" -o "$n.jsonl" \
        2>"$n.err"
    echo "exit $?"
    sed "s|$golds/||" "$n.err"
    sed "s|$(pwd -P)/||" "$n.jsonl"
}
cp "$TOP_SRCDIR"/samples/logs/steady.eval "$TOP_SRCDIR"/samples/tools/shop.json "$T/"
cd "$T" || exit 99

# --- a value of a wrong shape costs its record, with a problem that
# --- names it; the records around it are read (OTLP: an intValue with
# --- leading zeros, a sign alone, out of range; a time likewise, or
# --- negative, or not a number: the whole read used to end as "out of
# --- memory", or the span sorted first at time 0)
gold otlp-values "$(imp otlp-values otlp otlp-values.jsonl --tools shop.json)"
# (Inspect: a score of no value, or of no known kind, leaves the verdict
# unknown, said; an id of no kind of name costs its sample; epochs given
# as text name the trials apart)
gold inspect-values "$(imp inspect-values inspect inspect-values.json --tools shop.json)"

# --- a record's place or repetition never adds, drops or moves a call:
# --- OTLP: a tool span whose parent is not in its trace joins the trace's
# --- one agent (with two agents, it is said); chat spans that each send
# --- the whole conversation so far give each call once (by id, or by
# --- place in the conversation); a trace delivered twice is read once.
# --- Messages: an answer before its call answers it; ids reused across
# --- turns answer the latest call of the id; two ids of 700 bytes that
# --- differ at the end stay two episodes
gold otlp-shape "$(imp otlp-shape otlp otlp-shape.jsonl --tools shop.json)"
gold messages-order "$(imp messages-order messages messages-order.jsonl --tools shop.json)"

# --- .eval members in Zstandard (zip method 93), as Inspect writes them
# --- since 0.3.206 (tests/make_zstd_eval.py made the fixtures): the same
# --- lines as the deflate form of the same members (a sample in two
# --- frames, one written twice: its last entry stands, the header in
# --- deflate); and bounded: a member expanding past 256 MiB, one cut
# --- short, one of a wrong CRC, a sample in the chunked layout: each
# --- costs itself
"$PY" - "$TOP_SRCDIR/tests/logs/inspect-eval" <<'PY' || exit 99
import os, sys, zipfile
src = sys.argv[1]
zi = lambda n: zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
with zipfile.ZipFile("deflate.eval", "w", zipfile.ZIP_DEFLATED) as z:
    for name in ["header.json"] + ["samples/" + n for n in
                                   sorted(os.listdir(src + "/samples"))]:
        z.writestr(zi(name), open(src + "/" + name, "rb").read())
PY
cp "$golds"/zstd.eval "$golds"/zstd-bad.eval .
timeout 60 "$REPLAY" import inspect deflate.eval -o deflate.jsonl 2>/dev/null
ok "Zstandard members: the lines of the deflate form (in the members' order)" \
    "$(sort deflate.jsonl)" \
    "$(timeout 60 "$REPLAY" import inspect zstd.eval -o zstd.jsonl 2>/dev/null; sort zstd.jsonl)"
gold zstd-bad "$(timeout 120 "$REPLAY" import inspect zstd-bad.eval -o zstd-bad.jsonl 2>&1; echo "exit $?")"
rm -f deflate.eval deflate.jsonl zstd.eval zstd.jsonl zstd-bad.eval zstd-bad.jsonl

# --- nothing written through a link, nor into a file of another's
mkdir links && echo precious > links/target
# steady.eval's tools, as import names their file
tools=tools-3b2c81efc47005f0.json
ln -s target links/out.jsonl.partial
got=$(timeout 60 "$REPLAY" import inspect steady.eval -o links/out.jsonl 2>err >/dev/null
      echo "exit $?|$(cat links/target)|$(test -L links/out.jsonl.partial && echo link || echo no link)|$(head -c 13 links/out.jsonl)"
      tail -n 1 err)
ok "an OUT.partial that is a link: the link is removed, its target untouched" \
    "exit 0|precious|no link|{\"type\":\"run\"
replay import: 154 transcript lines into links/out.jsonl" "$got"
rm -f links/out.jsonl links/$tools && ln -s target links/$tools
got=$(timeout 60 "$REPLAY" import inspect steady.eval -o links/out.jsonl 2>&1; echo "exit $?|$(cat links/target)|$(ls links | tr '\n' ' ')")
ok "a tool file that is a link: left alone and said, nothing written" \
    "replay import: cannot write the tool file links/$tools: it is there as a symbolic link, which is left alone; remove it, or name another folder with --tools-out
exit 3|precious|target $tools " "$got"
rm links/$tools && ln -s target links/out.jsonl
got=$(timeout 60 "$REPLAY" import inspect steady.eval -o links/out.jsonl >/dev/null 2>&1
      echo "exit $?|$(cat links/target)|$(test -L links/out.jsonl && echo link || echo file)")
ok "an OUT that is a link: replaced by the transcript, its target untouched" \
    "exit 0|precious|file" "$got"
got=$(timeout 60 "$REPLAY" --from inspect --db links/r.db steady.eval >/dev/null 2>&1
      echo "exit $?|$(ls links | tr '\n' ' ')")
ok "--from writes its tool file beside the database, once" \
    "exit 0|out.jsonl r.db target $tools " "$got"

# --- JSON Lines whose first line is long (2 MiB of final words): still
# --- JSON Lines, every record read; it was taken for one document, and
# --- the lines after the first lost to "trailing garbage"
"$PY" - <<'PY'
import json
def rec(k, final):
    return {"id": "r%d" % k, "messages": [
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
         "function": {"name": "get_order", "arguments": "{\"order_id\":\"A-100001\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "assistant", "content": final}]}
with open("longfirst.jsonl", "w") as f:
    f.write(json.dumps(rec(1, "x" * (2 << 20))) + "\n")
    f.write(json.dumps(rec(2, "done")) + "\n")
    f.write("{\"id\": \"r3\", \"messages\": [}\n")
    f.write(json.dumps(rec(4, "done")) + "\n")
PY
got=$(timeout 60 "$REPLAY" import messages longfirst.jsonl --tools shop.json 2>&1 >/dev/null; echo "exit $?")
ok "a first line of 2 MiB: JSON Lines all the same, a bad line costs itself" \
    "longfirst.jsonl:3: not JSON: invalid JSON: expected a value or ']'; the line is skipped
replay import: messages: 1 file, 4 records: 3 read, 0 skipped, 1 refused; 3 episodes, 3 calls; 1 problem; 10 transcript lines
exit 1" "$got"

# --- a line past a record's limit (257 MiB) between good ones: skipped to
# --- its newline unread, said at its place, and the lines after it read
# --- (in the same batch of lines as the one before it: 40 lines after it,
# --- more than a batch holds)
"$PY" - <<'PY'
with open("longfirst.jsonl") as f:
    good = f.readlines()[1]
with open("longmid.jsonl", "w") as f:
    f.write(good)
    f.write('{"id": "big", "messages": ["')
    chunk = "x" * (1 << 20)
    for _ in range(257):
        f.write(chunk)
    f.write('"]}\n')
    for k in range(40):  # 40 records of their own, not one given again
        f.write(good.replace('"r2"', '"r2-%d"' % k, 1))
PY
got=$(timeout 120 "$REPLAY" import messages longmid.jsonl --tools shop.json 2>&1 >/dev/null; echo "exit $?")
ok "a line of 257 MiB among good ones: said at its place, the rest read" \
    "longmid.jsonl:2: a line longer than the limit of 256 MiB a record; it is skipped
replay import: messages: 1 file, 42 records: 41 read, 0 skipped, 1 refused; 41 episodes, 41 calls; 1 problem; 124 transcript lines
exit 1" "$got"
rm -f longmid.jsonl

# --- an Inspect log whose attachments a sample refers to 300 times (1 MiB
# --- each: 300 MiB to write, from a 1 MiB log): that sample is refused,
# --- the others read; its two samples of 300-byte ids that differ at the
# --- end are two episodes (ids were cut at 279 bytes, and merged); an
# --- .eval member whose tree passes the record limit (a member of 240 MB
# --- of "0,": 256 KB zipped) costs that member
"$PY" - <<'PY'
import json, zipfile
big = "a" * (1 << 20)
def sample(sid, refs):
    msgs = [{"role": "assistant", "tool_calls": [{"id": "c%d" % i,
             "function": "get_order", "arguments": {"order_id": "A-100001"}}]}
            for i in range(refs)]
    for i in range(refs):
        msgs.insert(2 * i + 1, {"role": "tool", "tool_call_id": "c%d" % i,
                                "content": "attachment://big"})
    return {"id": sid, "epoch": 1, "messages": msgs, "attachments": {"big": big},
            "scores": {"s": {"value": "C"}}}
ev = {"task": "t", "eval_id": "E1", "model": "m"}
log = {"version": 2, "eval": ev, "samples": [
    sample("fine", 2), sample("heavy", 300),
    sample("y" * 299 + "1", 1), sample("y" * 299 + "2", 1)]}
json.dump(log, open("heavy.json", "w"))
zi = lambda n: zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
with zipfile.ZipFile("tree.eval", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zi("header.json"), json.dumps({"version": 2, "eval": ev}))
    z.writestr(zi("samples/fine_epoch_1.json"), json.dumps(sample("fine", 1)))
    info = zi("samples/tree_epoch_1.json")
    info.compress_type = zipfile.ZIP_DEFLATED
    with z.open(info, "w") as w:
        w.write(b'{"id": "tree", "messages": [')
        for i in range(60):
            w.write(b"0," * (2 << 20))
        w.write(b"0]}")
PY
got=$(timeout 120 "$REPLAY" import inspect heavy.json --tools shop.json 2>&1 >heavy.jsonl; echo "exit $?"
      grep -o '"episode":"[^"]*"' heavy.jsonl | sort | uniq -c | sed 's/^ *//')
ok "a sample whose attachments stand for 300 MiB: refused; long ids stay apart" \
    "heavy.json: \$.samples[1]: the sample's attachment references stand for 300 MiB of text, more than the limit of 256 MiB a record: it is skipped
replay import: inspect: 1 file, 4 samples: 3 read, 0 skipped, 1 refused; 3 episodes, 4 calls; 1 problem; 11 transcript lines
exit 1
4 \"episode\":\"fine#1\"
3 \"episode\":\"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy~2e7986428be26190\"
3 \"episode\":\"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy~90aced73c8531dea\"" "$got"
got=$(timeout 120 "$REPLAY" import inspect tree.eval --tools shop.json 2>&1 >/dev/null; echo "exit $?")
ok "an .eval member whose tree passes the limit: that member alone" \
    "tree.eval: samples/tree_epoch_1.json: its value tree is larger than the limit of 256 MiB a record: it is skipped
replay import: inspect: 1 file, 2 samples: 1 read, 0 skipped, 1 refused; 1 episode, 1 call; 1 problem; 4 transcript lines
exit 1" "$got"
# ... and replayed with --from, their memory stays within the limits:
# what is kept of a record, not what it stands for (the heavy sample held
# 2 GB; the member of 240 MB, 8.5 GB)
peak() { # LIMIT_MIB FILE: "ok", or the peak RSS of --from on it
    rm -f peak.db*
    # AddressSanitizer holds freed memory back unless told not to
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
    /usr/bin/time -f '%M' -o peak.kb timeout 300 "$REPLAY" --quiet \
        --from inspect --tools shop.json --db peak.db "$2" 2>/dev/null
    kb=$(tail -n 1 peak.kb)
    [ "$kb" -le $(($1 * 1024)) ] && echo "$2: ok" ||
        echo "$2: $kb KiB, more than $1 MiB"
}
if [ -x /usr/bin/time ]; then
    ok "--from on them: memory within the records' limits" \
        "heavy.json: ok
tree.eval: ok" "$(peak 256 heavy.json; peak 768 tree.eval)"
fi
rm -f heavy.json heavy.jsonl tree.eval peak.db* peak.kb

# --- a .json log whose second sample's tree passes the limit (6 million
# --- items, 12 MB of text): that sample alone; the third is read (the
# --- document was read no further, and the nodes of the rest were made
# --- all the same: 6 GB for 270 MB)
"$PY" - <<'PY'
import json
ev = {"task": "t", "eval_id": "E1", "model": "m"}
def sample(sid):
    return {"id": sid, "epoch": 1, "scores": {"s": {"value": "C"}},
            "messages": [{"role": "assistant", "tool_calls": [
                {"id": "c", "function": "get_order",
                 "arguments": {"order_id": "A-100001"}}]},
                {"role": "tool", "tool_call_id": "c", "content": "ok"}]}
with open("wide.json", "w") as f:
    f.write('{"version": 2, "eval": %s, "samples": [%s, ' %
            (json.dumps(ev), json.dumps(sample("a"))))
    f.write('{"id": "wide", "messages": [' + "0," * 6000000 + '0]}, ')
    f.write(json.dumps(sample("b")) + "]}")
PY
got=$(timeout 120 "$REPLAY" import inspect wide.json --tools shop.json 2>&1 >/dev/null; echo "exit $?")
ok "a sample whose tree passes the limit: that sample alone" \
    "wide.json: \$.samples[1]: its value tree is larger than the limit of 256 MiB a record: it is skipped
replay import: inspect: 1 file, 3 samples: 2 read, 0 skipped, 1 refused; 2 episodes, 2 calls; 1 problem; 7 transcript lines
exit 1" "$got"
rm -f wide.json

# --- 200,000 tool definitions (12 MB) offered by each of two records
# --- (messages) and by one chat span (OTLP): found through hash maps, so
# --- read in seconds; the lists scanned for each tool took many minutes
"$PY" - <<'PY'
import json
tools = [{"type": "function", "function": {"name": "t%06d" % i,
          "parameters": {"type": "object"}}} for i in range(200000)]
call = {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "t000007", "arguments": "{}"}}]}
with open("many.jsonl", "w") as f:
    for k in range(2):
        f.write(json.dumps({"id": "r%d" % k, "tools": tools, "messages": [
            call, {"role": "tool", "tool_call_id": "c1", "content": "ok"}]})
            + "\n")
flat = json.dumps([dict(t["function"], type="function") for t in tools])
t = "0" * 31 + "1"
def attr(k, v):
    return {"key": k, "value": {"stringValue": v}}
spans = [{"traceId": t, "spanId": "00000000000000c1", "name": "chat m",
          "startTimeUnixNano": "1", "endTimeUnixNano": "2",
          "attributes": [attr("gen_ai.operation.name", "chat"),
                         attr("gen_ai.tool.definitions", flat)]},
         {"traceId": t, "spanId": "00000000000000c2",
          "name": "execute_tool t000007", "startTimeUnixNano": "3",
          "endTimeUnixNano": "4",
          "attributes": [attr("gen_ai.operation.name", "execute_tool"),
                         attr("gen_ai.tool.name", "t000007"),
                         attr("gen_ai.tool.call.id", "c1"),
                         attr("gen_ai.tool.call.result", "ok")]}]
with open("many-otlp.jsonl", "w") as f:
    f.write(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]})
            + "\n")
PY
mkdir many
got=$(timeout 120 "$REPLAY" import messages many.jsonl -o many/m.jsonl 2>&1; echo "exit $?"
      timeout 120 "$REPLAY" import otlp many-otlp.jsonl -o many/o.jsonl 2>&1; echo "exit $?"
      for f in many/tools-*.json; do
          "$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$f"
      done)
ok "200,000 tools a record: every one in the run's tool file, in seconds" \
    "replay import: messages: 1 file, 2 records: 2 read, 0 skipped, 0 refused; 2 episodes, 2 calls; 0 problems; 7 transcript lines
replay import: 7 transcript lines into many/m.jsonl
exit 0
replay import: otlp: 1 file, 2 spans: 2 read, 0 skipped, 0 refused; 1 episode, 1 call; 0 problems; 4 transcript lines
replay import: 4 transcript lines into many/o.jsonl
exit 0
200000" "$got"
rm -rf many many.jsonl many-otlp.jsonl

# --- a line of the Logs signal holding 60,000 GenAI events (13 MB): its
# --- events are made spans one at a time, so memory is the line's tree
# --- and what is kept of the spans, not a made span for each record at
# --- once (296 MiB under AddressSanitizer when they were; 135 now)
"$PY" - <<'PY' || exit 99
import json
rec = lambda i: {"timeUnixNano": str(1000 + i),
                 "traceId": "7ace0000000000000000000000000002",
                 "spanId": "00000000000000c1",
                 "eventName": "gen_ai.user.message",
                 "body": {"kvlistValue": {"values": [
                     {"key": "content", "value": {"stringValue": "hi"}}]}}}
line = {"resourceLogs": [{"resource": {}, "scopeLogs": [
    {"scope": {}, "logRecords": [rec(i) for i in range(60000)]}]}]}
open("events.jsonl", "w").write(json.dumps(line, separators=(",", ":")) + "\n")
PY
if [ -x /usr/bin/time ]; then
    rm -f events.db*
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
    /usr/bin/time -f '%M' -o events.kb timeout 300 "$REPLAY" --quiet \
        --from otlp --tools shop.json --db events.db events.jsonl 2>/dev/null
    kb=$(tail -n 1 events.kb)
    ok "60,000 GenAI events in a line: one span made at a time" \
        "1 episode, within 200 MiB" \
        "$(sqlite3 events.db "SELECT count(*) FROM episodes") episode, $(
            [ "$kb" -le 204800 ] && echo "within 200 MiB" || echo "$kb KiB")"
fi
rm -f events.jsonl events.db* events.kb

# --- a Jaeger trace of 60,000 spans (15 MB): made OTLP's a span at a
# --- time, so memory is the trace's tree and what is kept of its spans
# --- (318 MiB under AddressSanitizer when all were made at once; 151 now)
"$PY" - <<'PY' || exit 99
import json
span = lambda i: {"traceID": "7ace0000000000000000000000000003",
                  "spanID": "%016x" % (i + 1), "operationName": "chat",
                  "references": [], "startTime": 1000 + i, "duration": 1,
                  "tags": [{"key": "gen_ai.operation.name", "type": "string",
                            "value": "chat"}], "logs": [], "processID": "p1"}
doc = {"data": [{"traceID": "7ace0000000000000000000000000003",
                 "spans": [span(i) for i in range(60000)],
                 "processes": {"p1": {"serviceName": "svc", "tags": []}}}]}
open("wide-jaeger.json", "w").write(json.dumps(doc, separators=(",", ":")))
PY
if [ -x /usr/bin/time ]; then
    rm -f jaeger.db*
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
    /usr/bin/time -f '%M' -o jaeger.kb timeout 300 "$REPLAY" --quiet \
        --from otlp --tools shop.json --db jaeger.db wide-jaeger.json \
        2>/dev/null
    kb=$(tail -n 1 jaeger.kb)
    ok "a Jaeger trace of 60,000 spans: one span made at a time" \
        "1 episode, within 220 MiB" \
        "$(sqlite3 jaeger.db "SELECT count(*) FROM episodes") episode, $(
            [ "$kb" -le 225280 ] && echo "within 220 MiB" || echo "$kb KiB")"
fi
rm -f wide-jaeger.json jaeger.db* jaeger.kb

echo "logs_hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
