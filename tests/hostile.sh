# Hostile and odd input: each case is a probe that once crashed replay,
# exhausted it, or made it record something false.  Every check asserts
# the exact line said or the exact rows kept.  The tool files are in
# tests/hostile/; the transcripts are made here.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
need_cmd timeout coreutils
export SOURCE_DATE_EPOCH=1790000000
# the samples' tool files may be read; the tool-path cases unset this
TASKREPLAY_TOOLS_DIR=$TOP_SRCDIR/samples/tools
export TASKREPLAY_TOOLS_DIR
cases=$TOP_SRCDIR/tests/hostile
shop=$TOP_SRCDIR/samples/tools/shop.json
pass=0 fail=0
T=$TEST_TMP

ok() { count_eq "$@"; }

# Runs REPLAY with a generous limit: a probe that hangs fails, not stalls.
r() { timeout 300 "$REPLAY" "$@"; }

# --- schemas that name themselves (anyOf, oneOf, allOf, items)
for kw in anyof oneof; do
    got=$(echo '{"name":"make_node","arguments":{"id":"x"}}' |
        r sim "$cases/self-$kw.json" --seed 2 --arm depth:d1 2>&1)
    ok "sim on self-$kw.json" 'null
replay sim: 1 call; reached, a pass (0 side effects, 0 duplicate writes)' "$got"
done
got=$(r tools "$cases/self-allof.json" 2>&1 | tail -n 1)
ok "tools on self-allof.json" "  make_node (line 9): its output schema: no value can be drawn at \$: its schema needs itself without end" "$got"
got=$(r tools "$cases/self-items.json" 2>&1 | tail -n 1)
ok "tools on self-items.json" "  output: array of array of array of array of ..." "$got"
got=$(r tasks "$cases/self-items.json" --seeds 1-3 --arms depth:d1 2>&1 |
    wc -l)
ok "tasks on self-items.json" "3" "$got"

# --- an answer past the budget: refused at once, not drawn for minutes
got=$(r tools "$cases/nested-minitems.json" 2>&1 | tail -n 1)
ok "tools on nested-minitems.json" "  make_node (line 9): its output schema: no value can be drawn at \$.rows[0][99997]: the schema needs more than 100000 values or 4 MiB of text in one answer" "$got"

# --- a pattern whose shortest match is 12,000 code points: one line, at
# --- once (it once took minutes); the output schema's tool is refused
got=$(r tools "$cases/long-pattern.json" 2>&1 | tail -n 1)
ok "tools on long-pattern.json" "  get_code (line 1): its output schema: no value can be drawn at \$.code: the pattern's shortest match is too long to generate" "$got"
got=$(r tasks "$cases/long-pattern.json" --seeds 1 --arms depth:d1 2>&1)
ok "tasks on long-pattern.json" "replay: long-pattern.json: seed 1, arm depth:d1: no value can be drawn at \$.task.s1.0.code: the pattern's shortest match is too long to generate" "$(echo "$got" | sed "s|$cases/||")"

# --- a required name with no property: refused at once, not drawn 16
# --- times over (with a long pattern beside it, that took seconds); the
# --- name is shown escaped
got=$(r tools "$cases/required-unknown.json" 2>&1 | tail -n 1)
ok "tools on required-unknown.json" '  note: its input schema requires "from\x1b[31m" and gives it no property, so no task calls it' "$got"
got=$(r tasks "$cases/required-unknown.json" --seeds 1 --arms depth:d1 2>&1)
ok "tasks on required-unknown.json" 'replay: required-unknown.json: seed 1, arm depth:d1: cannot draw arguments that rename accepts for a task: its input schema requires "from\x1b[31m" and gives it no property' "$(echo "$got" | sed "s|$cases/||")"

# --- an answer only some arguments make too large: that call is a problem,
# --- and the night goes on (replay sim ends the session, saying why)
got=$(cd "$cases" && r --db "$T/half.db" half.jsonl 2>&1; echo "exit $?")
ok "a call whose answer cannot be drawn" "half.jsonl:6: the simulator cannot answer this call: no value can be drawn at \$.rows[2][19991]: the schema needs more than 100000 values or 4 MiB of text in one answer
replay: 8 lines: 7 used, 0 unchanged, 1 problem, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 4 calls; into $T/half.db
exit 1" "$got"

# --- the same night, and the same rows, whether read from a file or a pipe
{
    echo "{\"type\":\"run\",\"run\":\"big\",\"tools\":\"$shop\"}"
    echo '{"type":"episode","run":"big","episode":"e1","seed":7,"arm":"base"}'
    printf '{"type":"call","run":"big","episode":"e1","call":{"name":"search_orders","arguments":{"query":"'
    head -c 6291456 /dev/zero | tr '\0' 'x'
    echo '"}}}'
    echo '{"type":"end","run":"big","episode":"e1"}'
} > "$T/big.jsonl"
dump() {
    sqlite3 "$1" "SELECT source_line, length(line), message FROM problems;
                  SELECT episode, calls FROM episodes"
}
r --db "$T/file.db" "$T/big.jsonl" 2>/dev/null
r --db "$T/pipe.db" - < "$T/big.jsonl" 2>/dev/null
ok "6 MiB line from a file" "3|4096|line of 6291555 bytes is longer than the limit of a transcript line (4 MiB); it was skipped, and episode \"e1\" of run \"big\" is written unfinished: a line of it is missing
e1|0" "$(dump "$T/file.db")"
ok "6 MiB line from a pipe" "$(dump "$T/file.db")" "$(dump "$T/pipe.db")"

# --- replay sim holds the same limit, and goes on
{
    printf '{"name":"search_orders","arguments":{"query":"'
    head -c 5242880 /dev/zero | tr '\0' 'x'
    echo '"}}'
    echo '{"name":"get_order","arguments":{"order_id":"A-1"}}'
} > "$T/sim-big.jsonl"
got=$(r sim "$shop" --seed 7 < "$T/sim-big.jsonl" 2>&1)
ok "sim with a 5 MiB line" 'replay sim: <stdin>:1: line 1 is 5242929 bytes, longer than the limit of 4 MiB for a line
{"error":{"code":"invalid_arguments","message":"line 1 is 5242929 bytes, longer than the limit of 4 MiB for a line"}}
{"error":{"code":"invalid_arguments","message":"argument \"order_id\" must be at least 6 characters long"}}
replay sim: 1 call; not reached, not a pass (0 side effects, 0 duplicate writes)' "$got"

# --- a line replay cannot read is tied to its episode, which then can
# --- never pass: a duplicate write whose line a logged answer took past
# --- 4 MiB was once skipped, and "not a pass (1 duplicate write)" was
# --- recorded as a pass with no duplicate
{
    echo "{\"type\":\"run\",\"run\":\"long\",\"tools\":\"$shop\"}"
    echo '{"type":"episode","run":"long","episode":"e1","seed":7,"arm":"base"}'
    echo '{"type":"call","run":"long","episode":"e1","call":{"name":"search_orders","arguments":{"query":"harbor granite"}}}'
    echo '{"type":"call","run":"long","episode":"e1","call":{"name":"refund_order","arguments":{"order_id":"Z-0362","amount":280.41}}}'
    printf '{"type":"call","run":"long","episode":"e1","call":{"name":"refund_order","arguments":{"order_id":"Z-0362","amount":280.41}},"answer":"'
    head -c 4194304 /dev/zero | tr '\0' x
    echo '"}'
    echo '{"type":"end","run":"long","episode":"e1","status":"done"}'
} > "$T/long.jsonl"
got=$(cd "$T" && r --db long.db long.jsonl 2>&1; echo "exit $?")
ok "a duplicate write past 4 MiB" "long.jsonl:5: line of 4194440 bytes is longer than the limit of a transcript line (4 MiB); it was skipped, and episode \"e1\" of run \"long\" is written unfinished: a line of it is missing
replay: 6 lines: 5 used, 0 unchanged, 1 problem, 0 blank
replay: 1 run; 1 episode written (0 replaced, 1 unfinished), 0 unchanged; 2 calls; into long.db
exit 1" "$got"
ok "a duplicate write past 4 MiB: rows" "e1|2|1|0|1|done
5|long|e1" "$(sqlite3 "$T/long.db" "SELECT episode, calls, reached, pass,
    unfinished, status FROM episodes;
    SELECT source_line, run, episode FROM problems")"
got=$(cd "$T" && r --db long.db long.jsonl 2>&1 | tail -n 2)
ok "a duplicate write past 4 MiB: again, unchanged" "replay: 6 lines: 1 used, 4 unchanged, 1 problem, 0 blank
replay: 1 run; 0 episodes written (0 replaced, 0 unfinished), 1 unchanged; 0 calls; into long.db" "$got"

# --- what sim and serve write, replay reads: a call whose line would pass
# --- what replay reads is refused before the simulator sees it (past
# --- 1 MiB of its line, 1e15 written 1000000000000000.0 counting; nested
# --- past 256 levels), and the session goes on
"$PYTHON3" - > "$T/sim-long.jsonl" <<'EOF'
print('{"name":"search_orders","arguments":{"query":"' + "x" * 1048576 +
      '"}}')
print('{"name":"refund_order","arguments":{"order_id":"Z-0362",'
      '"amount":280.41,"pad":[' + ",".join(["1e15"] * 60000) + ']}}')
print('{"name":"search_orders","arguments":{"query":"a","x":' + "[" * 254 +
      "]" * 254 + '}}')
print('{"name":"search_orders","arguments":{"query":"harbor granite"}}')
EOF
got=$(cd "$T" && r sim "$shop" --seed 7 --episode e1 \
    --transcript sim-long-t.jsonl < sim-long.jsonl 2>&1; echo "exit $?")
too_long='the call takes 1048685 bytes of its transcript line, more than the 1 MiB a call may (the line, answer included, must stay within the 4 MiB replay reads); send smaller arguments'
expanded='the call takes 1140141 bytes of its transcript line, more than the 1 MiB a call may (the line, answer included, must stay within the 4 MiB replay reads); send smaller arguments'
deep='the call nests 257 levels deep in its transcript line, deeper than the 256 replay reads; send arguments nested less deeply'
ok "sim: calls too long or too deep to record" "replay sim: <stdin>:1: $too_long
{\"error\":{\"code\":\"invalid_arguments\",\"message\":\"line 1: $too_long\"}}
replay sim: <stdin>:2: $expanded
{\"error\":{\"code\":\"invalid_arguments\",\"message\":\"line 2: $expanded\"}}
replay sim: <stdin>:3: $deep
{\"error\":{\"code\":\"invalid_arguments\",\"message\":\"line 3: $deep\"}}
{\"id\":\"Z-0362\",\"ok\":true}
replay sim: 1 call; not reached, not a pass (0 side effects, 0 duplicate writes)
exit 0" "$got"
got=$(cd "$T" && r --any-tools-path --db sim-long.db sim-long-t.jsonl 2>&1 |
    tail -n 1; sqlite3 sim-long.db 'SELECT count(*), sum(diverged) FROM calls')
ok "sim: calls too long or too deep: the rest replayed" "replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 1 call; into sim-long.db
1|0" "$got"

# --- an answer that makes its call's line too long: the episode ends
# --- there, unfinished (the simulator's state holds the call, which no
# --- line could); big-answer.json answers 90,000 strings of 45 letters
cp "$cases/big-answer.json" "$T/"
got=$(cd "$T" && printf '%s\n%s\n' '{"name":"get_rows","arguments":{"q":"a"}}' \
    '{"name":"make_thing","arguments":{"q":"a"}}' |
    r sim big-answer.json --seed 1 --arm depth:d1 --episode e1 \
        --transcript big-answer.jsonl 2>&1; echo "exit $?")
ok "sim: an answer too long to record" "replay sim: <stdin>:1: its answer of 4320010 bytes makes a transcript line of 4320111, longer than the 4 MiB replay reads; the episode ends here, unfinished
replay sim: 1 call; not reached, not a pass (0 side effects, 0 duplicate writes); unfinished: line 1
exit 1" "$got"
got=$(cd "$T" && r --db big-answer.db big-answer.jsonl 2>&1 | tail -n 1
    sqlite3 big-answer.db 'SELECT episode, calls, unfinished FROM episodes')
ok "sim: an answer too long to record: replayed unfinished" "replay: 1 run; 1 episode written (0 replaced, 1 unfinished), 0 unchanged; 0 calls; into big-answer.db
e1|0|1" "$got"

# --- a call holding what canonical JSON refuses ("\ud800", 1e999, NaN)
# --- is written by sim as one line of its own writing, which replay reads
# --- as the same values and answers the same (nothing diverged)
got=$(cd "$T" && echo '{"name":"search_orders","arguments":{"query":"\ud800","x":NaN,"y":-1e999}}' |
    r sim "$shop" --seed 7 --episode e1 --run nan --transcript nan.jsonl \
        2>/dev/null; sed -n 3p nan.jsonl)
ok "sim: a call of NaN, an infinity and a lone surrogate" '{"error":{"code":"invalid_arguments","message":"argument \"query\": a string holds a lone surrogate (\\ud800), which UTF-8 cannot carry; write the character whole or remove it"}}
{"type":"call","run":"nan","episode":"e1","call":{"arguments":{"query":"\ud800","x":NaN,"y":-Infinity},"name":"search_orders"},"answer":{"error":{"code":"invalid_arguments","message":"argument \"query\": a string holds a lone surrogate (\\ud800), which UTF-8 cannot carry; write the character whole or remove it"}}}' "$got"
got=$(cd "$T" && r --any-tools-path --db nan.db nan.jsonl >/dev/null 2>&1;
    sqlite3 "$T/nan.db" 'SELECT count(*), sum(diverged) FROM calls;
        SELECT count(*) FROM problems')
ok "sim: a call of NaN...: replayed the same" "1|0
0" "$got"

# --- a NUL in a name is never cut short: two tools "get_\u0000a" and
# --- "get_\u0000b" once both became "get_"; a call's name holding one
# --- is shown escaped
"$PYTHON3" - "$shop" > "$T/nul-tools.json" <<'EOF'
import json, sys
tools = json.load(open(sys.argv[1]))
for suffix in "ab":
    t = json.loads(json.dumps(tools[0]))
    t["function"]["name"] = "get_\u0000" + suffix
    tools.append(t)
print(json.dumps(tools))
EOF
got=$(r tools "$T/nul-tools.json" 2>&1 | tail -n 2)
ok "tool names holding a NUL" "  get_ (line 1): its name holds a NUL character, which a name cannot hold (it would be cut there); remove it
  get_ (line 1): its name holds a NUL character, which a name cannot hold (it would be cut there); remove it" "$got"
got=$(echo '{"name":"get_order\u0000x","arguments":{}}' | r sim "$shop" 2>/dev/null)
ok "a call's name holding a NUL" '{"error":{"code":"not_found","message":"no tool is named \"get_order\\x00x\""}}' "$got"

# --- problem lines just past the kept length (4097 to 4099 bytes)
for n in 4097 4098 4099; do
    { printf '{'; head -c $((n - 1)) /dev/zero | tr '\0' 'y'; } > "$T/p$n.jsonl"
    echo >> "$T/p$n.jsonl"
    r --db "$T/p$n.db" "$T/p$n.jsonl" 2>/dev/null
    ok "problem line of $n bytes" "4096" \
        "$(sqlite3 "$T/p$n.db" 'SELECT length(line) FROM problems')"
done

# --- episodes that never end: at most --max-open stay open
{
    echo "{\"type\":\"run\",\"run\":\"open\",\"tools\":\"$shop\"}"
    for i in 1 2 3 4 5; do
        echo "{\"type\":\"episode\",\"run\":\"open\",\"episode\":\"e$i\",\"seed\":$i,\"arm\":\"base\"}"
    done
} > "$T/open.jsonl"
got=$(r --db "$T/open.db" --max-open 2 "$T/open.jsonl" 2>&1 |
    sed "s#$T/##g")
ok "--max-open 2" "replay: open.jsonl:4: more than 2 episodes are open at once: the oldest open ones are written as unfinished from here on (raise --max-open to keep more)
replay: 6 lines: 6 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 5 episodes written (0 replaced, 5 unfinished), 0 unchanged; 0 calls; into open.db
replay: 3 episodes written unfinished to keep at most --max-open open at once" "$got"
ok "--max-open 2: rows" "e1 1
e2 1
e3 1
e4 1
e5 1" "$(sqlite3 -separator ' ' "$T/open.db" \
    'SELECT episode, unfinished FROM episodes ORDER BY episode')"

# --- what is not a regular file: skipped in a folder, refused as a tool file
mkdir -p "$T/night"
cp "$T/open.jsonl" "$T/night/a.jsonl"
ln -s loop.jsonl "$T/night/loop.jsonl"
ln -s . "$T/night/up"
mkfifo "$T/night/fifo.jsonl"
got=$(cd "$T" && r --db night.db --quiet night 2>&1; echo "exit $?")
ok "a folder with a link loop, a FIFO, a link up" "replay: night/fifo.jsonl: skipped: not a regular file (a FIFO, a socket or a device)
replay: night/loop.jsonl: skipped: Too many levels of symbolic links
replay: night/up: skipped: a link to a folder that holds it (a loop)
replay: 6 lines: 6 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 5 episodes written (0 replaced, 5 unfinished), 0 unchanged; 0 calls; into night.db
replay: 3 entries of the folders skipped (see above)
exit 1" "$got"
mkfifo "$T/tools.fifo"
echo '{"type":"run","run":"f","tools":"tools.fifo"}' > "$T/fifo-tools.jsonl"
got=$(cd "$T" && r --db fifo.db fifo-tools.jsonl 2>&1 | head -n 1)
ok "a FIFO as a tool file" "fifo-tools.jsonl:1: run \"f\" cannot be replayed: its tool file cannot be used: tools.fifo: is not a regular file (a folder, a FIFO or a device); name the tool file itself" "$got"

# --- tool paths: the transcript's folder, the working one, --tools-dir
unset TASKREPLAY_TOOLS_DIR
mkdir -p "$T/in/deep" "$T/elsewhere"
cp "$shop" "$T/elsewhere/shop.json"
printf '{"type":"run","run":"x","tools":"../../elsewhere/shop.json"}\n' \
    > "$T/in/deep/x.jsonl"
printf '{"type":"run","run":"y","tools":"/etc/passwd"}\n' > "$T/in/deep/y.jsonl"
got=$(cd "$T/in" && r --db "$T/paths.db" deep 2>&1 | sed "s#$T/##g")
ok "tool paths outside the folders" "deep/x.jsonl:1: run \"x\" cannot be replayed: its tool file deep/../../elsewhere/shop.json is elsewhere/shop.json, outside the folders tool files are read from (the transcript's, the working one, --tools-dir); name its folder with --tools-dir, or allow any path with --any-tools-path
deep/y.jsonl:1: run \"y\" cannot be replayed: its tool file /etc/passwd is /etc/passwd, outside the folders tool files are read from (the transcript's, the working one, --tools-dir); name its folder with --tools-dir, or allow any path with --any-tools-path
replay: 2 lines: 0 used, 0 unchanged, 2 problems, 0 blank
replay: 0 runs; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into paths.db" "$got"
ok "nothing of /etc/passwd kept" "0" \
    "$(sqlite3 "$T/paths.db" 'SELECT count(*) FROM tool_files')"
got=$(cd "$T/in" && r --db "$T/paths2.db" --tools-dir "$T/elsewhere" \
    deep/x.jsonl 2>&1; echo "exit $?")
ok "--tools-dir" "replay: 1 line: 1 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into $T/paths2.db
exit 0" "$got"
got=$(cd "$T/elsewhere" && r --db "$T/paths3.db" "$T/in/deep/x.jsonl" 2>&1 |
    head -n 1)
ok "the working folder" "replay: 1 line: 1 used, 0 unchanged, 0 problems, 0 blank" "$got"
got=$(cd "$T/in" && r --db "$T/paths4.db" --any-tools-path deep/x.jsonl 2>&1 |
    head -n 1)
ok "--any-tools-path" "replay: 1 line: 1 used, 0 unchanged, 0 problems, 0 blank" "$got"

export TASKREPLAY_TOOLS_DIR=$TOP_SRCDIR/samples/tools

# --- a task handed in must be the task its id names
"$REPLAY" tasks "$shop" --seeds 7 --arms base > "$T/task.json"
"$PYTHON3" - "$T/task.json" "$shop" > "$T/forged.jsonl" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
out = [{"type": "run", "run": "f", "tools": sys.argv[2]}]
def episode(name, task):
    out.append({"type": "episode", "run": "f", "episode": name, "seed": 7,
                "arm": "base", "task": task})
    out.append({"type": "end", "run": "f", "episode": name})
episode("genuine", t)
forged = json.loads(json.dumps(t))
forged["steps"][-1]["arguments"] = {}
episode("forged", forged)
renamed = json.loads(json.dumps(forged))
renamed["id"] = "t-0000000000000000"
episode("renamed", renamed)
for line in out:
    print(json.dumps(line))
EOF
got=$(cd "$T" && r --db forged.db forged.jsonl 2>&1)
ok "forged tasks" "forged.jsonl:4: the episode's task is not one replay tasks prints: it claims the id of the task replay makes for this seed and arm, but differs from that task; leave \"task\" out to use replay's own
forged.jsonl:5: episode \"forged\" of run \"f\" was not replayed (see forged.jsonl:4)
forged.jsonl:6: the episode's task has the id \"t-0000000000000000\", which is neither the id of the task replay makes for this seed and arm nor the one its content gives (\"t-bf101013a5392408\"): a task handed in is named by what it holds
forged.jsonl:7: episode \"renamed\" of run \"f\" was not replayed (see forged.jsonl:6)
replay: 7 lines: 3 used, 0 unchanged, 4 problems, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into forged.db" "$got"
ok "forged tasks: rows" "genuine|t-6fc4c00a1b2f8e8b|1" \
    "$(sqlite3 "$T/forged.db" 'SELECT episode, task_id,
        (SELECT count(*) FROM tasks) FROM episodes')"

# --- one episode twice in one night: a problem, the first stands; reruns
# --- say the same and keep the same
run_line="{\"type\":\"run\",\"run\":\"d\",\"tools\":\"$shop\"}"
{
    echo "$run_line"
    echo '{"type":"episode","run":"d","episode":"e1","seed":7,"arm":"base"}'
    echo '{"type":"end","run":"d","episode":"e1","status":"first"}'
} > "$T/d1.jsonl"
{
    echo "$run_line"
    echo '{"type":"episode","run":"d","episode":"e1","seed":8,"arm":"base"}'
    echo '{"type":"end","run":"d","episode":"e1","status":"second"}'
} > "$T/d2.jsonl"
for round in 1 2; do
    got=$(cd "$T" && r --db dup.db d1.jsonl d2.jsonl 2>&1; echo "exit $?")
    if [ $round = 1 ]; then
        want="replay: 6 lines: 4 used, 0 unchanged, 2 problems, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into dup.db"
    else
        want="replay: 6 lines: 2 used, 2 unchanged, 2 problems, 0 blank
replay: 1 run; 0 episodes written (0 replaced, 0 unfinished), 1 unchanged; 0 calls; into dup.db"
    fi
    ok "one episode twice, round $round" "d2.jsonl:2: episode \"e1\" of run \"d\" is given a second time in this night; this one is not replayed (the first stands); the first is at d1.jsonl:2
d2.jsonl:3: episode \"e1\" of run \"d\" was not replayed (see d2.jsonl:2)
$want
exit 1" "$got"
    ok "one episode twice, round $round: rows" "e1|7|first|2" \
        "$(sqlite3 "$T/dup.db" 'SELECT episode, seed, status,
            (SELECT count(*) FROM problems) FROM episodes')"
done

# --- seeds: 2^63 - 1 kept exactly, 2^63 refused
{
    echo "{\"type\":\"run\",\"run\":\"s\",\"tools\":\"$shop\"}"
    echo '{"type":"episode","run":"s","episode":"max","seed":9223372036854775807,"arm":"base"}'
    echo '{"type":"end","run":"s","episode":"max"}'
    echo '{"type":"episode","run":"s","episode":"over","seed":9223372036854775808,"arm":"base"}'
} > "$T/seeds.jsonl"
got=$(cd "$T" && r --db seeds.db seeds.jsonl 2>&1 | head -n 1)
ok "seed 2^63" "seeds.jsonl:4: \"seed\" must be below 2^63 (9223372036854775808)" "$got"
ok "seed 2^63 - 1" "max|9223372036854775807" \
    "$(sqlite3 "$T/seeds.db" 'SELECT episode, seed FROM episodes')"
got=$(r sim "$shop" --seed 9223372036854775808 < /dev/null 2>&1 | head -n 1)
ok "sim --seed 2^63" "replay: sim: --seed takes a number from 0 to 2^63 - 1, not '9223372036854775808'" "$got"

echo "hostile input: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
