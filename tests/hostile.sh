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
ok "6 MiB line from a file" "3|4096|line of 6291555 bytes is longer than the limit of a transcript line (4 MiB); it was skipped
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
ok "--tools-dir" "replay: 1 lines: 1 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into $T/paths2.db
exit 0" "$got"
got=$(cd "$T/elsewhere" && r --db "$T/paths3.db" "$T/in/deep/x.jsonl" 2>&1 |
    head -n 1)
ok "the working folder" "replay: 1 lines: 1 used, 0 unchanged, 0 problems, 0 blank" "$got"
got=$(cd "$T/in" && r --db "$T/paths4.db" --any-tools-path deep/x.jsonl 2>&1 |
    head -n 1)
ok "--any-tools-path" "replay: 1 lines: 1 used, 0 unchanged, 0 problems, 0 blank" "$got"

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
forged.jsonl:6: the episode's task has the id \"t-0000000000000000\", which is neither the id of the task replay makes for this seed and arm nor the one its content gives (\"t-9614875ba0a57c54\"): a task handed in is named by what it holds
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
