# replay serve (docs/serve.md) on the wire, without an MCP library:
#  - a scripted stdio session (tests/serve/session.in: the protocol, bad
#    messages, calls before initialize, every kind of call) answers exactly
#    tests/serve/session.gold, and writes exactly the transcript and
#    report golds; the transcript replays with 0 diverged and the
#    report's verdict, and `replay sim` answers its calls the same;
#  - a second session of the task, appended to the same transcript or to
#    another, has an id of its own, and the two files replay into one
#    database;
#  - a message over 4 MiB is refused and the session goes on, and a call
#    past the 10,000th of a session; a client
#    gone in the middle of a message leaves an unfinished episode; SIGTERM
#    ends the episode "stopped"; a transcript on a full disk is said;
#  - Streamable HTTP: every status the endpoint answers
#    (tests/serve/http.gold), the task chosen by _meta over the query
#    string, an idle session ended unfinished, SIGTERM ending the open
#    ones, --sessions, an address already taken; a pretty-printed call
#    holding "\ud800", 1e999 and NaN, with transcript lines set in it on
#    lines of their own, written as one line of ours (nothing forged, a
#    later session recorded);
#  - a failed initialize leaves the next one free; a report or a
#    transcript that cannot be opened or written, and a refused tool, said;
#  - the usage errors, each in one line;
#  - tools/list of every sample tool file, and of every published tool
#    file in ../shared/corpus/ that tasks can be made of, stands alone
#    (tests/serve_check.py).
# UPDATE_GOLDEN=1 rewrites the golds.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
skip_unless_python
need_cmd sqlite3
tmpdir
golds=$TOP_SRCDIR/tests/serve
pass=0 fail=0
ok() { if check_eq "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
gold() { # NAME TEXT
    [ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$2" > "$golds/$1.gold"
    ok "$1" "$(cat "$golds/$1.gold")" "$2"
}
# An episode's id is its task's id and 12 random hex digits: shown here
# as TASK-<id>
norm() { sed 's/\(t-[0-9a-f]\{16\}\)-[0-9a-f]\{12\}/\1-<id>/g' "$@"; }
# the distinct episode ids of the lines of FILE (of run serve)
episode_ids() {
    sed -n 's/^{"type":"episode","run":"serve","episode":"\([^"]*\)".*/\1/p' \
        "$1" | sort -u | wc -l
}
T=$TEST_TMP
cp "$TOP_SRCDIR/samples/tools/shop.json" "$T/shop.json"
cd "$T" || exit 99
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}'
tid=t-99a6adf86cbc7b21 # seed 7, landed:l1 on the shop

# --- stdio: the scripted session -------------------------------------------
"$REPLAY" serve shop.json --seed 7 --arm landed:l1 --transcript night.jsonl \
    --report report.jsonl < "$golds/session.in" > out.jsonl 2> err.txt
ok "a session: exit status" 0 $?
gold session "$(cat out.jsonl)"
ok "a session: stderr" "replay serve: episode $tid-<id>: 8 calls; reached, not a pass (1 side effect, 1 duplicate write); landed duplicated" "$(norm err.txt)"
ok "nothing the client sees names the arm or the task's id" 0 \
    "$(grep -c "landed\|$tid" out.jsonl)"
gold session-transcript "$(norm night.jsonl)"
gold session-report "$(norm report.jsonl)"

# --- the revision asked for: each the server speaks is agreed; another
# gets the newest, and the client decides.  A session of 2025-03-26 (SDKs
# before June 2025) gets its rules: no outputSchema, no structuredContent.
cp "$TOP_SRCDIR/samples/tools/shop-mcp.json" "$T/shop-mcp.json"
for asked in 2025-11-25 2025-06-18 2025-03-26 2024-11-05 1999-01-01; do
    printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$asked\"}}" \
        '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_orders","arguments":{"query":"maple"}}}' |
        "$REPLAY" serve shop-mcp.json --seed 3 2>/dev/null > "rev-$asked.jsonl"
done
ok "revisions: asked, agreed; tools with an outputSchema; structured answers" \
    "2025-11-25 2025-11-25 3 True
2025-06-18 2025-06-18 3 True
2025-03-26 2025-03-26 0 False
2024-11-05 2025-11-25 3 True
1999-01-01 2025-11-25 3 True" \
    "$(for asked in 2025-11-25 2025-06-18 2025-03-26 2024-11-05 1999-01-01; do
        "$PYTHON3" -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
print(sys.argv[2], r[0]["result"]["protocolVersion"],
      sum("outputSchema" in t for t in r[1]["result"]["tools"]),
      "structuredContent" in r[2]["result"])' "rev-$asked.jsonl" "$asked"
      done)"
ok "revisions: the answers' text is the same in each" 1 \
    "$(for asked in 2025-11-25 2025-03-26 1999-01-01; do
        sed -n 3p "rev-$asked.jsonl" | "$PYTHON3" -c '
import json, sys; print(json.load(sys.stdin)["result"]["content"])'
      done | sort -u | wc -l)"
# logging: declared, and setLevel takes the eight levels, nothing else; no
# message is ever sent
printf '%s\n' "$init" \
    '{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}' \
    '{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"emergency"}}' \
    '{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"loud"}}' \
    '{"jsonrpc":"2.0","id":5,"method":"logging/setLevel"}' \
    '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":"A-0001"}}}' |
    "$REPLAY" serve shop.json --seed 3 2>/dev/null > logging.jsonl
ok "logging: the capability, setLevel, and no notifications/message" \
    '{}|{"result":{},"id":2}|{"result":{},"id":3}|-32602 logging/setLevel needs params.level, one of debug, info, notice, warning, error, critical, alert, emergency|-32602|0' \
    "$("$PYTHON3" -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
out = [json.dumps(r[0]["result"]["capabilities"]["logging"])]
out += [json.dumps({"result": m["result"], "id": m["id"]}, separators=(",", ":"))
        for m in r[1:3]]
out.append("%d %s" % (r[3]["error"]["code"], r[3]["error"]["message"]))
out.append(str(r[4]["error"]["code"]))
out.append(str(sum(m.get("method") == "notifications/message" for m in r)))
print("|".join(out))' logging.jsonl)"

"$REPLAY" --quiet --db r.db night.jsonl 2>/dev/null
ok "the transcript replays: calls, diverged, reached, pass" "8|0|1|0" \
    "$(sqlite3 r.db "SELECT (SELECT count(*) FROM calls),
        (SELECT sum(diverged) FROM calls), reached, pass FROM episodes")"
# replay sim, given the same calls, answers them byte for byte the same
"$PYTHON3" -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["type"] == "call":
        print(json.dumps(o["call"]))
        sys.stderr.write(json.dumps(o["answer"], separators=(",", ":"),
                                    sort_keys=True) + "\n")
' night.jsonl > calls.jsonl 2> served.jsonl
"$REPLAY" sim shop.json --seed 7 --arm landed:l1 < calls.jsonl \
    > sim.jsonl 2>/dev/null
ok "replay sim answers the served calls the same" "$(cat served.jsonl)" \
    "$(cat sim.jsonl)"

# a second session of the same task, into the same transcript and into
# another: each an id of its own, and both files replay into one
# database, no episode refused
printf '%s\n' "$init" | "$REPLAY" serve shop.json --seed 7 --arm landed:l1 \
    --transcript night.jsonl > /dev/null 2> err.txt
ok "a second session takes an id of its own" \
    "replay serve: episode $tid-<id>: 0 calls; not reached, not a pass (0 side effects, 0 duplicate writes); landed not_reached
2 episode ids" "$(norm err.txt)
$(episode_ids night.jsonl) episode ids"
printf '%s\n' "$init" | "$REPLAY" serve shop.json --seed 7 --arm landed:l1 \
    --transcript other.jsonl > /dev/null 2>&1
"$REPLAY" --db two.db night.jsonl other.jsonl > /dev/null 2> two.err
ok "sessions of one task in two transcripts: one database" \
    "0: 3 episodes of $tid, 0 problems" \
    "$?: $(sqlite3 two.db "SELECT count(DISTINCT episode) FROM episodes WHERE task_id = '$tid'") episodes of $tid, $(sqlite3 two.db 'SELECT count(*) FROM problems') problems"

# replay sim too: two sessions of one task, each into a transcript of its
# own, are two episodes of one database; --episode still chooses the id
for f in sim-a sim-b; do
    echo '{"name":"list_channels","arguments":{}}' | "$REPLAY" sim shop.json \
        --seed 7 --arm landed:l1 --run serve --transcript $f.jsonl \
        > /dev/null 2>&1
done
echo '{"name":"list_channels","arguments":{}}' | "$REPLAY" sim shop.json \
    --seed 7 --arm landed:l1 --run serve --episode mine \
    --transcript sim-c.jsonl > /dev/null 2>&1
"$REPLAY" --db sim.db sim-a.jsonl sim-b.jsonl sim-c.jsonl > /dev/null \
    2> sim-db.err
ok "replay sim: sessions of one task in two transcripts: one database" \
    "0: $tid-<id> $tid-<id> mine, 0 problems" \
    "$?: $(sqlite3 sim.db "SELECT episode FROM episodes ORDER BY source_file" | norm | paste -sd' ' -), $(sqlite3 sim.db 'SELECT count(*) FROM problems') problems"

# --- stdio: limits and ends ------------------------------------------------
{ printf '%s\n' "$init"
  printf '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"'
  head -c 4194400 /dev/zero | tr '\0' x
  printf '"}}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n'
} | "$REPLAY" serve shop.json > out.jsonl 2> err.txt
ok "over 4 MiB: refused, and the session goes on" \
    '{"id":null,"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: a message of 4194460 bytes is longer than the limit of 4 MiB"}}
{"id":3,"jsonrpc":"2.0","result":{}}' "$(sed 1d out.jsonl)"
ok "over 4 MiB: said" "replay serve: <stdin>: a message of 4194460 bytes is longer than the limit of 4 MiB" \
    "$(sed -n 1p err.txt)"

# a message whose id is a lone surrogate is no request (its id cannot be
# sent back), not "out of memory": answered, and the session goes on to
# end done
printf '%s\n%s\n%s\n' "$init" '{"jsonrpc":"2.0","id":"\ud800","method":"ping"}' \
    '{"jsonrpc":"2.0","id":3,"method":"ping\u0000x"}' |
    "$REPLAY" serve shop.json --transcript lone.jsonl > out.jsonl 2> err.txt
ok "an id of a lone surrogate, a NUL in a method" '0: {"id":null,"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" holds a lone surrogate, which cannot be sent back; use whole characters or an integer"}}
{"id":3,"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found: ping\\x00x"}}
replay serve: episode t-028570127b44c73c-<id>: 0 calls; not reached, not a pass (0 side effects, 0 duplicate writes)
run episode end' "$?: $(sed 1d out.jsonl; norm err.txt)
$(sed 's/^{"type":"\([a-z]*\)".*/\1/' lone.jsonl | paste -sd' ' -)"

# a call whose line replay could not read is refused before it is
# answered (-32602), and the session goes on; an answer too long for its
# line ends the episode there: -32603, later calls -32600, and the
# episode is written unfinished, with the calls before it
cp "$TOP_SRCDIR/tests/hostile/big-answer.json" .
"$PYTHON3" - "$init" > big.in <<'EOF'
import sys
call = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}'
print(sys.argv[1])
print(call % (2, '{"name":"get_rows","arguments":{"q":"' + "x" * 1048576 +
              '"}}'))
print(call % (3, '{"name":"make_thing","arguments":{"q":"a"}}'))
print(call % (4, '{"name":"get_rows","arguments":{"q":"a"}}'))
print(call % (5, '{"name":"make_thing","arguments":{"q":"b"}}'))
print('{"jsonrpc":"2.0","id":6,"method":"ping"}')
EOF
"$REPLAY" serve big-answer.json --arm depth:d1 --transcript big.jsonl \
    < big.in > out.jsonl 2> err.txt
ok "a call too long to record, an answer too long for its line" '0: {"id":2,"jsonrpc":"2.0","error":{"code":-32602,"message":"tools/call: the call takes 1048707 bytes of its transcript line, more than the 1 MiB a call may (the line, answer included, must stay within the 4 MiB replay reads); send smaller arguments"}}
{"id":3,"jsonrpc":"2.0","result":{"content":[{"text":"{\"id\":\"D-5473\",\"ok\":true,\"q\":\"a\"}","type":"text"}],"structuredContent":{"id":"D-5473","ok":true,"q":"a"}}}
{"id":4,"jsonrpc":"2.0","error":{"code":-32603,"message":"its answer of 4320010 bytes makes a transcript line of 4320142, longer than the 4 MiB replay reads: the episode ends here, unfinished (the calls before this one are kept); end the session, and begin another"}}
{"id":5,"jsonrpc":"2.0","error":{"code":-32600,"message":"the episode ended at call 2: its answer of 4320010 bytes makes a transcript line of 4320142, longer than the 4 MiB replay reads; end the session, and begin another"}}
{"id":6,"jsonrpc":"2.0","result":{}}
replay serve: episode t-e276249cbb207f36-<id>: 2 calls; reached, not a pass (0 side effects, 0 duplicate writes); unfinished: call 2: its answer of 4320010 bytes makes a transcript line of 4320142, longer than the 4 MiB replay reads
run episode call' "$?: $(sed 1d out.jsonl; norm err.txt)
$(sed 's/^{"type":"\([a-z]*\)".*/\1/' big.jsonl | paste -sd' ' -)"

# a session keeps at most 16 MiB of calls and answers: past them, calls
# are refused and the session goes on; what it kept is written whole
"$PYTHON3" - "$init" > kept.in <<'EOF'
import sys
print(sys.argv[1])
for i in range(2, 22):
    print('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":'
          '{"name":"list_channels","arguments":{"pad":"%s"}}}'
          % (i, "x" * 1000000))
print('{"jsonrpc":"2.0","id":22,"method":"ping"}')
EOF
"$REPLAY" serve shop.json --transcript kept.jsonl < kept.in > out.jsonl \
    2> err.txt
ok "16 MiB of calls a session" '0: 17 answered, then 3: {"id":21,"jsonrpc":"2.0","error":{"code":-32600,"message":"the episode holds 16 MiB of calls and answers, the most a session keeps (16 MiB): end the session, and begin another"}}
{"id":22,"jsonrpc":"2.0","result":{}}
17 calls written, and the end' \
    "$?: $(grep -c '"result":{"content"' out.jsonl) answered, then $(grep -c '"code":-32600' out.jsonl): $(tail -n 2 out.jsonl)
$(grep -c '"type":"call"' kept.jsonl) calls written, and the $(tail -n 1 kept.jsonl | sed 's/^{"type":"\([a-z]*\)".*/\1/')"

printf '%s\n%s' "$init" \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_' |
    "$REPLAY" serve shop.json --transcript cut.jsonl > /dev/null 2> err.txt
ok "a client gone mid-message: unfinished" \
    "replay serve: episode t-028570127b44c73c-<id>: 0 calls; not reached, not a pass (0 side effects, 0 duplicate writes); unfinished: the client left in the middle of a message" \
    "$(norm err.txt)"
ok "an unfinished episode has no end line" "run episode" \
    "$(sed 's/.*"type":"\([a-z]*\)".*/\1/' cut.jsonl | paste -sd' ' -)"

{ printf '%s\n' "$init"
  awk 'BEGIN { for (i = 2; i <= 10002; i++) printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"list_channels\"}}\n", i }'
} | "$REPLAY" serve shop.json --transcript many.jsonl > out.jsonl 2> err.txt
ok "10,000 calls a session, no more" "10000 answered, then: {\"id\":10002,\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"the episode has 10000 calls, the most a session takes: end the session, and begin another\"}}" \
    "$(grep -c structuredContent out.jsonl) answered, then: $(tail -n 1 out.jsonl)"
ok "10,000 calls: all written" 10000 "$(grep -c '"type":"call"' many.jsonl)"

printf '%s\n' "$init" | "$REPLAY" serve shop.json --transcript closed.jsonl \
    >&- 2> err.txt
ok "standard output closed: unfinished" \
    "replay serve: episode t-028570127b44c73c-<id>: 0 calls; not reached, not a pass (0 side effects, 0 duplicate writes); unfinished: standard output is closed: the client left" \
    "$(norm err.txt)"

mkfifo in.fifo
"$REPLAY" serve shop.json --transcript stopped.jsonl < in.fifo > stop.out \
    2> err.txt &
pid=$!
exec 3> in.fifo
printf '%s\n' "$init" >&3
i=0
while [ ! -s stop.out ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
ok "SIGTERM: exit status" 0 $?
exec 3>&-
ok "SIGTERM: the episode ends stopped" '"status":"stopped"}' \
    "$(tail -n 1 stopped.jsonl | sed 's/.*\("status"\)/\1/')"

printf '%s\n%s\n' "$init" \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_channels"}}' |
    "$REPLAY" serve shop.json --transcript /dev/full > /dev/null 2> err.txt
ok "a full disk: exit status 1" 1 $?
ok "a full disk: said" "replay serve: cannot write episode t-028570127b44c73c-<id> to the transcript /dev/full: No space left on device" \
    "$(norm err.txt | sed -n 1p)"

# a failed initialize (no task of depth 8 on these tools) leaves the
# session's choice as it was: the next initialize makes the default task
printf '%s\n%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","_meta":{"taskreplay/arm":"depth:d8"}}}' \
    "$init" | "$REPLAY" serve shop.json > out.jsonl 2> err.txt
ok "a failed initialize, then one that works" \
    '{"id":1,"jsonrpc":"2.0","error":{"code":-32602,"message":"no task: depth 8 cannot be built from these tools: the longest chain is 3 steps (search_orders, refund_order, notify_customer); use an arm of depth 3 or less (depth:d1 to depth:d3, or any other dial)"}}
replay serve: episode t-028570127b44c73c-<id>: 0 calls; not reached, not a pass (0 side effects, 0 duplicate writes)' \
    "$(sed -n 1p out.jsonl; norm err.txt)"

# what cannot be written is said, and the exit status is 1
printf '%s\n' "$init" | "$REPLAY" serve shop.json --report nodir/r.jsonl \
    > /dev/null 2> err.txt
ok "a report that cannot be opened" "1: replay serve: cannot open the report nodir/r.jsonl: No such file or directory" \
    "$?: $(cat err.txt)"
printf '%s\n' "$init" | "$REPLAY" serve shop.json --report /dev/full \
    > /dev/null 2> err.txt
ok "a report that cannot be written" "1: replay serve: cannot write the report /dev/full: No space left on device" \
    "$?: $(sed -n 1p err.txt)"
printf '%s\n' "$init" | "$REPLAY" serve shop.json --transcript nodir/t.jsonl \
    > /dev/null 2> err.txt
ok "a transcript that cannot be opened" "1: replay serve: cannot write episode t-028570127b44c73c-<id> to the transcript nodir/t.jsonl: No such file or directory" \
    "$?: $(norm err.txt | sed -n 1p)"

# a tool the tool model refuses is said, and left out of tools/list
"$PYTHON3" -c '
import json, sys
tools = json.load(open("shop.json"))
tools.append({"type": "code_interpreter"})
json.dump(tools, open("shop-ci.json", "w"))'
printf '%s\n%s\n' "$init" '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' |
    "$REPLAY" serve shop-ci.json 2> err.txt | sed -n 2p > list.json
ok "a refused tool: said, and left out" "replay serve: shop-ci.json: tool '' left out: is a \"code_interpreter\" tool, not a function; only functions can be called
get_order search_orders refund_order notify_customer list_channels" \
    "$(sed -n 1p err.txt)
$("$PYTHON3" -c 'import json, sys
print(" ".join(t["name"] for t in json.load(open("list.json"))["result"]["tools"]))')"

# --- usage errors ----------------------------------------------------------
usage() { # EXPECTED ARGS...
    want=$1
    shift
    got=$("$REPLAY" serve "$@" < /dev/null 2>&1 | head -n 1)
    ok "serve $*" "$want" "$got"
}
usage "replay: serve: no FILE given (usage: serve FILE [--seed N] [--arm ARM] [--run R] [--model M] [--transcript OUT.jsonl] [--report OUT.jsonl] [--http [HOST:]PORT [--idle SECONDS] [--sessions N] [--connections N] [--timeout SECONDS]])"
usage "replay: serve: --seed takes a number from 0 to 2^63 - 1, not 'x'" shop.json --seed x
usage "replay: serve: --idle takes seconds from 1 to 86400, not '0'" shop.json --idle 0
usage "replay: serve: --connections takes a number from 1 to 10000, not '0'" shop.json --connections 0
usage "replay: serve: --timeout takes seconds from 1 to 3600, not '1h'" shop.json --timeout 1h
usage "replay: serve: --http takes [HOST:]PORT (8080 for 127.0.0.1:8080, [::1]:8080, 0 for any free port), not 'nowhere'" shop.json --http nowhere
usage "replay: serve: --http takes [HOST:]PORT (8080 for 127.0.0.1:8080, [::1]:8080, 0 for any free port), not '123456'" shop.json --http 123456
usage "replay: serve: the transcript cannot be standard output, which carries the protocol" shop.json --transcript -
usage "replay: serve: unknown option '--port' (usage: serve FILE [--seed N] [--arm ARM] [--run R] [--model M] [--transcript OUT.jsonl] [--report OUT.jsonl] [--http [HOST:]PORT [--idle SECONDS] [--sessions N] [--connections N] [--timeout SECONDS]])" shop.json --port 1
usage "replay: unknown arm \"landed:l9\"; did you mean landed:l1?" shop.json --arm landed:l9
printf '{"tools": [' > broken.json
usage "broken.json:1:12: \$.tools[0]: invalid JSON: the text ends early; expected a value or ']'" broken.json

# --- Streamable HTTP -------------------------------------------------------
# a server on a free port: serve_start and serve_stop (tests/lib.sh)

serve_start http.err --transcript http.jsonl
gold http "$("$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" wire 2>&1)"
serve_stop
ok "HTTP: exit status after SIGTERM" 0 $?
ok "HTTP: stderr" "replay serve: episode $tid-<id>: 2 calls; reached, a pass (0 side effects, 0 duplicate writes); landed left
replay serve: stopped by SIGTERM" "$(sed 1d http.err | norm)"
ok "HTTP: the episode written" "run episode call call end" \
    "$(sed 's/.*"type":"\([a-z]*\)".*/\1/' http.jsonl | paste -sd' ' -)"

serve_start choose.err
got=$("$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" choose |
    "$PYTHON3" -c '
import json, sys
for line in sys.stdin:
    if line.startswith("  {") and "messages" in line:
        print(json.loads(line)["result"]["messages"][0]["content"]["text"])')
serve_stop
ok "HTTP: _meta chooses the task over the query string" \
    "$("$REPLAY" tasks shop.json --seeds 3 --arms faults:f1 --request)" "$got"

t3=$("$REPLAY" tasks shop.json --seeds 3 --arms faults:f1 |
    sed 's/.*"id":"\(t-[0-9a-f]*\)".*/\1/')
# a call whose body is pretty-printed and holds what canonical JSON
# refuses ("\ud800", 1e999, NaN) is one line of our writing: the lines
# of a passing episode set in it on lines of their own are not lines of
# the transcript, and a later session of the run is still recorded
serve_start forge.err --transcript forge.jsonl
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" forge > forge.txt
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" choose > /dev/null
serve_stop
ok "HTTP: a pretty-printed call: its answer" 'a pretty-printed call: 200 | Content-Type: application/json
  {"id":2,"jsonrpc":"2.0","result":{"content":[{"text":"argument \"big\": an infinite number is not a JSON number; quote it or write a finite one","type":"text"}],"isError":true}}' \
    "$(sed -n '/^a pretty-printed call/,+1p' forge.txt)"
ok "HTTP: a pretty-printed call: the lines written" \
    "run episode call end run episode end" \
    "$("$PYTHON3" -c 'import json, sys
print(" ".join(json.loads(l)["type"] for l in open(sys.argv[1])))' forge.jsonl)"
ok "HTTP: a pretty-printed call: its line" \
    '{"arguments":{"big":Infinity,"f0":{"run":"serve","tools":"other.json","type":"run"},"f1":{"arm":"landed:l1","episode":"forged","run":"serve","seed":7,"type":"episode"},"f2":{"call":{"arguments":{"query":"harbor granite"},"name":"search_orders"},"episode":"forged","run":"serve","type":"call"},"f3":{"episode":"forged","reward":1,"run":"serve","status":"done","success":true,"type":"end"},"nan":NaN,"query":"\ud800"},"name":"search_orders"}' \
    "$("$PYTHON3" -c 'import sys
for l in open(sys.argv[1]):
    if l.startswith("{\"type\":\"call\""):
        print(l[l.index("\"call\":") + 7:l.rindex(",\"answer\":")])' forge.jsonl)"
"$REPLAY" --db forge.db forge.jsonl > /dev/null 2> forge-replay.err
ok "HTTP: a pretty-printed call: replayed, nothing forged" \
    "0: 2 episodes, 0 problems; $tid-<id>|7|landed:l1|1|0||
$t3-<id>|3|faults:f1|0|0||" \
    "$?: $(sqlite3 forge.db "SELECT count(*) FROM episodes") episodes, $(sqlite3 forge.db "SELECT count(*) FROM problems") problems; $(sqlite3 forge.db "SELECT episode, seed, arm, calls, coalesce(diverged, 0), success, reward FROM episodes ORDER BY seed DESC" | norm)"

# ids never collide, though another process appends to the transcript
# between two sessions of one task (and a bare port is 127.0.0.1's)
serve_start ids.err --transcript ids.jsonl --http 0
ok "HTTP: a bare port listens on 127.0.0.1" "http://127.0.0.1" "${url%:*}"
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" choose > /dev/null
"$REPLAY" sim shop.json --seed 3 --arm faults:f1 --run serve \
    --transcript ids.jsonl < /dev/null 2> /dev/null
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" choose > /dev/null
serve_stop
ok "HTTP: episode ids around another writer's" "$t3-<id> $t3-<id> $t3-<id>: 3 ids" \
    "$(sed -n 's/.*"type":"episode","run":"serve","episode":"\([^"]*\)".*/\1/p' ids.jsonl | norm | paste -sd' ' -): $(episode_ids ids.jsonl) ids"

serve_start idle.err --idle 1 --transcript idle.jsonl
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" open > /dev/null
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" open > /dev/null
i=0
while [ "$(grep -c unfinished idle.err)" -lt 2 ] && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" open > /dev/null
serve_stop
ok "HTTP: idle sessions end unfinished, open ones stopped" \
    "replay serve: episode $tid-<id>: 1 call; not reached, not a pass (0 side effects, 0 duplicate writes); landed not_reached; unfinished: idle too long: the client left
replay serve: episode $tid-<id>: 1 call; not reached, not a pass (0 side effects, 0 duplicate writes); landed not_reached; unfinished: idle too long: the client left
replay serve: episode $tid-<id>: 1 call; not reached, not a pass (0 side effects, 0 duplicate writes); landed not_reached
replay serve: stopped by SIGTERM" "$(sed 1d idle.err | norm)"
ok "HTTP: the ends written" "done=1 unfinished=2" \
    "done=$(grep -c '"type":"end"' idle.jsonl) unfinished=$((3 - $(grep -c '"type":"end"' idle.jsonl)))"

serve_start full.err --sessions 2
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" open > /dev/null
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" open > /dev/null
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" open > third.txt
got=$(sed -n 1,2p third.txt)
serve_stop
ok "HTTP: ids without a transcript, chosen all the same" "$tid-<id> $tid-<id>, 2 ids" \
    "$(sed -n 's/^replay serve: episode \([^:]*\):.*/\1/p' full.err | norm | paste -sd' ' -), $(sed -n 's/^replay serve: episode \([^:]*\):.*/\1/p' full.err | sort -u | wc -l) ids"
ok "HTTP: --sessions 2, a third initialize" "initialize: 503 | Content-Type: application/json
  {\"id\":null,\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Service Unavailable: 2 sessions are open, the most this server takes (--sessions); end one, or wait\"}}" "$got"

# DELETE answers 500 when the episode could not be written
serve_start full-disk.err --transcript /dev/full
"$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" choose > full-disk.txt
serve_stop
ok "HTTP: DELETE on a full disk" "DELETE: 500 | Content-Type: application/json
  {\"id\":null,\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"Internal Server Error: the session has ended, but its episode could not be written (the server says why on its standard error)\"}}
1: replay serve: cannot write episode $t3-<id> to the transcript /dev/full: No space left on device" \
    "$(sed -n '/^DELETE/,$p' full-disk.txt)
$(grep -c 'cannot write episode' full-disk.err): $(grep 'cannot write episode' full-disk.err | norm)"

serve_start v6.err --http '[::1]:0'
if [ -n "$url" ]; then
    "$PYTHON3" "$TOP_SRCDIR/tests/serve_http.py" "$url" choose > v6.txt
    serve_stop
    ok "HTTP over IPv6: a session" "initialize, _meta over the query: 200" \
        "$(sed -n 's/ | .*//p' v6.txt | head -n 1)"
else # a machine without IPv6 on its loopback
    kill $pid 2>/dev/null
    wait $pid 2>/dev/null
    echo "ipv6: [::1] cannot be listened on here: $(cat v6.err)"
fi

serve_start taken.err
port=${url##*:}
port=${port%/mcp}
"$REPLAY" serve shop.json --http "127.0.0.1:$port" 2> taken2.err
ok "HTTP: an address taken: exit status 3" 3 $?
serve_stop
ok "HTTP: an address taken: said" "replay serve: cannot listen on 127.0.0.1:$port: Address already in use" \
    "$(cat taken2.err)"

# --- tools/list stands alone, for every tool file --------------------------
list_check() { # FILE ARM
    printf '%s\n%s\n' "$init" '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' |
        "$REPLAY" serve "$1" --arm "$2" 2>/dev/null | sed -n 2p > list.json
    "$REPLAY" tools --json "$1" > tools.json 2>/dev/null
    if [ ! -s list.json ]; then
        echo "$1: no tools/list"
        return 1
    fi
    "$PYTHON3" "$TOP_SRCDIR/tests/serve_check.py" list.json tools.json \
        "$(basename "$1")" > check.txt || { cat check.txt; return 1; }
}
for f in "$TOP_SRCDIR"/samples/tools/*; do
    if list_check "$f" base; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
if [ -d "${CORPUS:-}" ]; then
    served=0 none=0
    for f in "$CORPUS"/*/*; do
        case $f in *.json|*.yaml|*.yml) ;; *) continue ;; esac
        # a file tasks cannot be made of (no write) is refused at start
        "$REPLAY" tasks "$f" --arms depth:d1 > /dev/null 2>&1 || {
            none=$((none + 1)); continue; }
        if list_check "$f" depth:d1; then
            served=$((served + 1))
        else
            fail=$((fail + 1))
        fi
    done
    echo "corpus: $served tool files served, every schema standalone; $none without a task (no write, or not a tool file)"
    if [ $served -gt 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
else
    echo "corpus: ../shared/corpus is absent; the published tool files are not served"
fi

echo "serve: $pass checks passed, $fail failed"
[ $fail -eq 0 ]
