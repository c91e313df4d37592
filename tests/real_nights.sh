# Real nights have habits the samples don't: each case is one, replayed
# from a transcript made here, with the exact rows it must leave.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
CARD=${CARD:-$(dirname "$REPLAY")/../report/card}
need_cmd sqlite3
export SOURCE_DATE_EPOCH=1790000000
shop=$TOP_SRCDIR/samples/tools/shop.json
pass=0 fail=0
T=$TEST_TMP

ok() { count_eq "$@"; }

# --- answers logged as JSON text (OpenAI and Anthropic tool results are
# --- strings): the same answer as text is not diverged; nor is an MCP
# --- tools/call result that holds it (not an error result)
"$PYTHON3" - "$shop" > "$T/text.jsonl" <<'PY'
import json, sys
lines = [{"type": "run", "run": "t", "tools": sys.argv[1]}]
answers = ['{"id":"Z-0362","ok":true}', '{ "ok": true, "id": "Z-0362" }',
           '{"id":"Z-0363","ok":true}', 'not json', {"id": "Z-0362", "ok": True},
           '"{\\"id\\":\\"Z-0362\\",\\"ok\\":true}"',
           # MCP tools/call results, as MCP clients log them
           {"structuredContent": {"id": "Z-0362", "ok": True},
            "content": [{"type": "text", "text": '{"id":"Z-0362","ok":true}'}]},
           {"content": [{"type": "text", "text": '{"ok":true,"id":"Z-0362"}'}]},
           {"structuredContent": {"id": "Z-0363", "ok": True}},
           {"content": [{"type": "text", "text": '{"id":"Z-0362","ok":true}'}],
            "isError": True}]
for i, answer in enumerate(answers):
    e = "e%d" % i
    lines.append({"type": "episode", "run": "t", "episode": e, "seed": 7,
                  "arm": "base"})
    lines.append({"type": "call", "run": "t", "episode": e,
                  "call": {"name": "search_orders",
                           "arguments": {"query": "harbor granite"}},
                  "answer": answer})
    lines.append({"type": "end", "run": "t", "episode": e})
for line in lines:
    print(json.dumps(line))
PY
"$REPLAY" --quiet --db "$T/text.db" "$T/text.jsonl" 2>/dev/null
ok "answers logged as JSON text" 'e0|0|
e1|0|
e2|1|"{\"id\":\"Z-0363\",\"ok\":true}"
e3|1|"not json"
e4|0|
e5|1|"\"{\\\"id\\\":\\\"Z-0362\\\",\\\"ok\\\":true}\""
e6|0|
e7|0|
e8|1|{"structuredContent":{"id":"Z-0363","ok":true}}
e9|1|{"content":[{"text":"{\"id\":\"Z-0362\",\"ok\":true}","type":"text"}],"isError":true}' \
    "$(sqlite3 "$T/text.db" 'SELECT episode, diverged, logged_answer FROM calls
        ORDER BY episode')"

# --- a call to a tool the file does not have keeps its arguments
{
    echo "{\"type\":\"run\",\"run\":\"u\",\"tools\":\"$shop\"}"
    echo '{"type":"episode","run":"u","episode":"e1","seed":7,"arm":"base"}'
    echo '{"type":"call","run":"u","episode":"e1","call":{"name":"think","arguments":{"thought":"first, search","step":1}}}'
    echo '{"type":"call","run":"u","episode":"e1","call":{"type":"function","function":{"name":"ls","arguments":"{\"path\": \"/\"}"}}}'
    echo '{"type":"end","run":"u","episode":"e1"}'
} > "$T/unknown.jsonl"
(cd "$T" && "$REPLAY" --quiet --db unknown.db unknown.jsonl 2>/dev/null)
ok "arguments of unknown tools" 'think|{"step":1,"thought":"first, search"}|not_found
ls|{"path":"/"}|not_found' \
    "$(sqlite3 "$T/unknown.db" 'SELECT tool, arguments, error FROM calls
        ORDER BY seq')"

# --- what the agent sent is kept: arguments that are not JSON as their
# --- text (beside NULL canonical arguments); and a call whose answer was
# --- not logged is not compared (diverged NULL), unlike one that matched
{
    echo "{\"type\":\"run\",\"run\":\"k\",\"tools\":\"$shop\"}"
    echo '{"type":"episode","run":"k","episode":"e1","seed":7,"arm":"base"}'
    echo '{"type":"call","run":"k","episode":"e1","call":{"type":"function","function":{"name":"search_orders","arguments":"{\"query\": \"harbor"}}}'
    echo '{"type":"call","run":"k","episode":"e1","call":{"name":"ls","arguments":"path=/"}}'
    echo '{"type":"call","run":"k","episode":"e1","call":{"name":"search_orders","arguments":{"query":"harbor granite"}}}'
    echo '{"type":"call","run":"k","episode":"e1","call":{"name":"search_orders","arguments":{"query":"harbor granite"}},"answer":{"id":"Z-0362","ok":true}}'
    echo '{"type":"end","run":"k","episode":"e1"}'
} > "$T/kept.jsonl"
(cd "$T" && "$REPLAY" --quiet --db kept.db kept.jsonl 2>/dev/null)
ok "what was sent, and what was compared" '1|search_orders|NULL|{"query": "harbor|invalid_arguments|NULL
2|ls|NULL|path=/|not_found|NULL
3|search_orders|{"query":"harbor granite"}|NULL|-|NULL
4|search_orders|{"query":"harbor granite"}|NULL|-|0' \
    "$(sqlite3 -nullvalue NULL "$T/kept.db" "SELECT seq, tool, arguments,
        arguments_raw, coalesce(error, '-'), diverged FROM calls ORDER BY seq")"
ok "the episode's figures" '0|1' \
    "$(sqlite3 "$T/kept.db" "SELECT diverged, (SELECT count(*) FROM calls
        WHERE diverged IS NULL) = 3 FROM episodes")"

# --- repeated replay sim sessions of one task, appended to one
# --- transcript, are episodes of their own
for i in 1 2 3; do
    echo '{"name":"search_orders","arguments":{"query":"harbor granite"}}' |
        (cd "$T" && "$REPLAY" sim "$shop" --seed 7 --transcript trials.jsonl \
            >/dev/null 2>&1)
done
(cd "$T" && "$REPLAY" --quiet --db trials.db trials.jsonl 2>/dev/null)
ok "repeated sim sessions" "3 episodes of t-6fc4c00a1b2f8e8b, each its own id" \
    "$(sqlite3 "$T/trials.db" "SELECT count(*) FROM episodes
        WHERE episode GLOB 't-6fc4c00a1b2f8e8b-[0-9a-f]*'
        AND length(episode) = 31") episodes of t-6fc4c00a1b2f8e8b, each its own id"

# --- problems are part of what a file's replay produced: replaying the
# --- file again replaces them (a fixed file leaves none)
{
    echo "{\"type\":\"run\",\"run\":\"p\",\"tools\":\"$shop\"}"
    echo 'not json'
    echo '{"type":"episode","run":"p","episode":"e1","seed":1,"arm":"base"}'
    echo '{"type":"end","run":"p","episode":"e1"}'
} > "$T/stale.jsonl"
(cd "$T" && "$REPLAY" --quiet --db stale.db stale.jsonl 2>/dev/null)
(cd "$T" && "$REPLAY" --quiet --db stale.db stale.jsonl 2>/dev/null)
ok "problems, replayed twice" "stale.jsonl|2" \
    "$(sqlite3 "$T/stale.db" 'SELECT source_file, source_line FROM problems')"
sed -i 2d "$T/stale.jsonl"
(cd "$T" && "$REPLAY" --quiet --db stale.db stale.jsonl 2>/dev/null)
ok "problems, once the file is fixed" "0|1" \
    "$(sqlite3 "$T/stale.db" 'SELECT (SELECT count(*) FROM problems),
        (SELECT count(*) FROM episodes)')"

# --- a line that names no run (cut short) is on no card by itself: each
# --- card, and card --list, say how many the database holds
{
    echo "{\"type\":\"run\",\"run\":\"c\",\"tools\":\"$shop\"}"
    echo '{"type":"episode","run":"c","episode":"e1","seed":1,"arm":"base"}'
    echo '{"type":"end","run":"c","episode":"e1"}'
    echo '{"type":"episode","run":"c","epis'
} > "$T/cut.jsonl"
(cd "$T" && "$REPLAY" --quiet --db cut.db cut.jsonl 2>/dev/null)
ok "a card, with a problem that names no run" "  problems         0
    and 1 in the database that name no run:
      SELECT * FROM problems WHERE run IS NULL" \
    "$("$CARD" --db "$T/cut.db" c | grep -A2 '^  problems')"
ok "card --list, with a problem that names no run" "1 problem in the database names no run: SELECT * FROM problems WHERE run IS NULL" \
    "$("$CARD" --db "$T/cut.db" --list | tail -n 1)"
ok "card --json, with a problem that names no run" "1" \
    "$("$CARD" --db "$T/cut.db" --json c | "$PYTHON3" -c \
        'import json, sys; print(json.load(sys.stdin)["problems"]["no_run"])')"

# --- what is not a transcript is said in one line, and nothing of it is
# --- written; an empty folder says so; a transcript given to replay tools
# --- says it is one
cp "$TOP_SRCDIR/samples/tools/shop.json" "$TOP_SRCDIR/samples/tools/shop.yaml" \
    "$T/"
cp "$T/cut.db" "$T/results.db"
mkdir -p "$T/empty"
got=$(cd "$T" && "$REPLAY" --db wrong.db shop.json shop.yaml results.db \
    stale.jsonl 2>&1; echo "exit $?")
ok "files that are not transcripts" "replay: shop.json: it looks like a tool file, not a transcript (replay tools FILE reads a tool file; a transcript names one in its run line)
replay: shop.yaml: it is not JSON Lines: its first line does not start with \"{\" (a transcript has one JSON object a line)
replay: results.db: it is an SQLite database, not a transcript (card --db FILE reads a results database)
replay: 3 lines: 3 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into wrong.db
replay: 3 files skipped: not transcripts (see above)
exit 1" "$got"
ok "files that are not transcripts: rows" "0" \
    "$(sqlite3 "$T/wrong.db" 'SELECT count(*) FROM problems')"
got=$(cd "$T" && "$REPLAY" --db empty.db empty 2>&1; echo "exit $?")
ok "an empty folder" "replay: no *.jsonl files in empty (subfolders included)
exit 1" "$got"
got=$(cd "$T" && "$REPLAY" tools stale.jsonl 2>&1; echo "exit $?")
ok "replay tools on a transcript" "stale.jsonl: it looks like a transcript (JSON Lines), not a tool file: replay FILE replays it
exit 1" "$got"

# --- a tool file on one line is one by its own top-level members, whatever
# --- "type" its schemas hold: an MCP list, a JSON-RPC tools/list response,
# --- an OpenAPI document; a transcript line is one by its own top-level
# --- type (a mistyped one is a problem of the line, not a tool file)
mkdir -p "$T/oneline"
echo '{"tools":[{"name":"get_order","inputSchema":{"type":"object","properties":{"order_id":{"type":"string"}}}}]}' > "$T/oneline/mcp.jsonl"
echo '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_order","inputSchema":{"type":"object"}}]}}' > "$T/oneline/rpc.jsonl"
echo '{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/o":{"get":{"operationId":"get_order","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}}}}}}}' > "$T/oneline/openapi.jsonl"
echo '{"type":"rn","run":"x","tools":"shop.json"}' > "$T/oneline/typo.jsonl"
got=$(cd "$T/oneline" && "$REPLAY" --db one.db mcp.jsonl rpc.jsonl \
    openapi.jsonl typo.jsonl 2>&1; echo "exit $?")
ok "tool files on one line" "replay: mcp.jsonl: it looks like a tool file, not a transcript (replay tools FILE reads a tool file; a transcript names one in its run line)
replay: rpc.jsonl: it looks like a tool file, not a transcript (replay tools FILE reads a tool file; a transcript names one in its run line)
replay: openapi.jsonl: it looks like a tool file, not a transcript (replay tools FILE reads a tool file; a transcript names one in its run line)
typo.jsonl:1: unknown type \"rn\": a line's type is run, episode, call or end
replay: 1 line: 0 used, 0 unchanged, 1 problem, 0 blank
replay: 0 runs; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into one.db
replay: 3 files skipped: not transcripts (see above)
exit 1" "$got"
ok "tool files on one line: rows" "typo.jsonl|1" \
    "$(sqlite3 "$T/oneline/one.db" 'SELECT source_file, source_line FROM problems')"

# --- a run declared again with another tool file: the line is refused,
# --- and so is every later line of that run in that file
mcp=$TOP_SRCDIR/samples/tools/shop-mcp.json
{
    echo "{\"type\":\"run\",\"run\":\"r\",\"tools\":\"$shop\"}"
    echo '{"type":"episode","run":"r","episode":"e1","seed":1,"arm":"base"}'
    echo '{"type":"end","run":"r","episode":"e1"}'
    echo "{\"type\":\"run\",\"run\":\"r\",\"tools\":\"$mcp\"}"
    echo '{"type":"episode","run":"r","episode":"e2","seed":2,"arm":"base"}'
    echo '{"type":"call","run":"r","episode":"e2","call":{"name":"get_order","arguments":{"order_id":"A-1234"}}}'
    echo '{"type":"end","run":"r","episode":"e2"}'
} > "$T/again.jsonl"
got=$(cd "$T" && "$REPLAY" --db again.db again.jsonl 2>&1 |
    sed "s#$TOP_SRCDIR/#TOP/#g")
ok "a run declared again" "again.jsonl:4: run \"r\" is declared again with another tool file (\"TOP/samples/tools/shop-mcp.json\", first \"TOP/samples/tools/shop.json\"); give it another name
replay: run \"r\": 3 more lines not replayed, for the reason said above (the problems table holds each)
replay: 7 lines: 3 used, 0 unchanged, 4 problems, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into again.db" "$got"
ok "a run declared again: rows" "e1" \
    "$(sqlite3 "$T/again.db" 'SELECT episode FROM episodes')"
ok "a run declared again: problems" "5|run \"r\" was refused at line 4 of this file: its lines after it here are not replayed
6|run \"r\" was refused at line 4 of this file: its lines after it here are not replayed
7|run \"r\" was refused at line 4 of this file: its lines after it here are not replayed" \
    "$(sqlite3 "$T/again.db" 'SELECT source_line, message FROM problems
        WHERE source_line > 4 ORDER BY source_line')"

# --- a moved transcript: its tool file found with --tools-dir, by path,
# --- by name, or by SHA-256, and the run records where (resolved, from
# --- the working folder when under it); without it, the run is said
# --- refused once
unset TASKREPLAY_TOOLS_DIR
mkdir -p "$T/moved" "$T/renamed"
cp "$TOP_SRCDIR/samples/night/careful.jsonl" "$T/moved/"
cp "$shop" "$T/renamed/other-name.json"
got=$(cd "$T/moved" && "$REPLAY" --db m1.db careful.jsonl 2>&1; echo "exit $?")
ok "a moved transcript" "careful.jsonl:1: run \"careful\" cannot be replayed: its tool file ../tools/shop.json cannot be read: No such file or directory (if the transcript was moved, name the folder that holds the tool file with --tools-dir)
replay: run \"careful\": 680 more lines not replayed, for the reason said above (the problems table holds each)
replay: 681 lines: 0 used, 0 unchanged, 681 problems, 0 blank
replay: 0 runs; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into m1.db
exit 1" "$got"
ok "a moved transcript: every line in the problems table" "681" \
    "$(sqlite3 "$T/moved/m1.db" 'SELECT count(*) FROM problems')"
top_real=$(cd "$TOP_SRCDIR" && pwd -P)
t_real=$(cd "$T" && pwd -P)
for where in "$TOP_SRCDIR/samples/tools|$top_real/samples/tools/shop.json" \
    "$T/renamed|$t_real/renamed/other-name.json"; do
    got=$(cd "$T/moved" && "$REPLAY" --db m2.db --tools-dir "${where%|*}" \
        careful.jsonl 2>&1 | head -n 1
        sqlite3 m2.db "SELECT tools_path, tools_found FROM runs"; rm -f m2.db*)
    ok "a moved transcript, --tools-dir ${where%|*}" \
        "replay: 681 lines: 681 used, 0 unchanged, 0 problems, 0 blank
../tools/shop.json|${where#*|}" "$got"
done
got=$(cd "$T" && "$REPLAY" --quiet --db m4.db --tools-dir renamed \
    moved/careful.jsonl 2>/dev/null
    sqlite3 m4.db "SELECT tools_path, tools_found FROM runs")
ok "where a moved transcript's tool file was found, from the working folder" \
    "../tools/shop.json|renamed/other-name.json" "$got"
got=$(cd "$T/moved" && cat careful.jsonl |
    "$REPLAY" --db m3.db --tools-dir "$TOP_SRCDIR/samples/tools" - 2>&1 |
    head -n 1
    sqlite3 m3.db "SELECT tools_path, tools_found FROM runs")
ok "a piped transcript, --tools-dir" \
    "replay: 681 lines: 681 used, 0 unchanged, 0 problems, 0 blank
../tools/shop.json|$top_real/samples/tools/shop.json" "$got"
export TASKREPLAY_TOOLS_DIR=$TOP_SRCDIR

# --- cards: a run of no episodes has no rate; one run is no comparison;
# --- one format at a time
printf '{"type":"run","run":"z","tools":"%s"}\n' "$shop" > "$T/zero.jsonl"
(cd "$T" && "$REPLAY" --quiet --db zero.db zero.jsonl 2>/dev/null)
ok "a card of no episodes" "result: 0 episodes
  pass             -  no episodes
  reached          -  no episodes" \
    "$("$CARD" --db "$T/zero.db" z | grep -A2 '^result')"
ok "a card of no episodes, --json" '{"count": null, "rate": null, "ci95": null, "ci_method": null, "tasks": null}' \
    "$("$CARD" --db "$T/zero.db" --json z | "$PYTHON3" -c \
        'import json, sys; print(json.dumps(json.load(sys.stdin)["pass"]))')"
ok "card --compare A A" "card: --compare takes two runs, and \"z\" is one run named twice; card z shows its card
Try 'card --help'.
exit 2" "$("$CARD" --db "$T/zero.db" --compare z z 2>&1; echo "exit $?")"
ok "card --json --markdown" "card: --json, --markdown and --html go apart: choose one
Try 'card --help'.
exit 2" "$("$CARD" --db "$T/zero.db" --json --markdown z 2>&1; echo "exit $?")"

# --- a compare where no interval excludes zero has no "*" to explain
sed 's/"run":"careful"/"run":"twin"/' "$TOP_SRCDIR/samples/night/careful.jsonl" \
    > "$T/twin.jsonl"
"$REPLAY" --quiet --db "$T/twins.db" --tools-dir "$TOP_SRCDIR/samples/tools" \
    "$TOP_SRCDIR/samples/night/careful.jsonl" "$T/twin.jsonl" 2>/dev/null
got=$("$CARD" --db "$T/twins.db" --compare careful twin)
ok "a compare with no star" "no 95% interval of A-B excludes zero (percentage points; Newcombe's
hybrid score interval)
0" "$(printf '%s\n' "$got" | grep -A1 '^no 95% interval'; printf '%s\n' "$got" | grep -c ' \*$')"
# ... and, paired, every task the same on both sides: no discordant pair
ok "a paired compare of twins" "all               96    +0.0    -3.8 to   +3.8       0      0  1" \
    "$(printf '%s\n' "$got" | grep '^all  ' | tail -n 1)"

# --- many episodes of the same tasks (trials), past the tasks kept at once
# --- (256): each episode has the very task replay tasks makes for it
"$PYTHON3" - "$shop" > "$T/trials-many.jsonl" <<'PY'
import json, sys
print(json.dumps({"type": "run", "run": "m", "tools": sys.argv[1]}))
order = list(range(1, 301)) + list(range(1, 301)) + list(range(150, 451))
for i, seed in enumerate(order):
    arm = "base" if seed % 3 else "landed:l1"
    print(json.dumps({"type": "episode", "run": "m", "episode": "e%d" % i,
                      "seed": seed, "arm": arm}))
    print(json.dumps({"type": "end", "run": "m", "episode": "e%d" % i}))
PY
"$REPLAY" --quiet --db "$T/many.db" "$T/trials-many.jsonl" 2>/dev/null
"$REPLAY" tasks "$shop" --seeds 1-450 --arms base,landed:l1 |
    "$PYTHON3" -c '
import json, sys
for line in sys.stdin:
    t = json.loads(line)
    if (t["seed"] % 3 != 0) == (t["arm"] == "base"):
        print("%d|%s|%s" % (t["seed"], t["id"], line.strip()))' > "$T/many.want"
sqlite3 "$T/many.db" "SELECT DISTINCT e.seed, e.task_id, t.task FROM episodes e
    JOIN tasks t USING (task_id) ORDER BY e.seed" > "$T/many.got"
ok "tasks shared by many episodes" "$(cat "$T/many.want")" "$(cat "$T/many.got")"
# their pass rate's interval is clustered by task (stats_oracle.by_task)
sqlite3 "$T/many.db" "SELECT seed || arm, pass FROM episodes" > "$T/many.pass"
ok "trials: the pass rate clustered by task" "$("$PYTHON3" -c '
import sys
sys.path.insert(0, sys.argv[1])
from stats_oracle import by_task
runs = {}
for line in open(sys.argv[2]):
    seed, passed = line.split("|")
    runs.setdefault(seed, []).append(int(passed))
lo, hi = by_task(list(runs.values()))
print("clustered_by_task %d %.6f %.6f" % (len(runs), lo, hi))' "$TOP_SRCDIR/tests" \
    "$T/many.pass")" \
    "$("$CARD" --db "$T/many.db" --json m | "$PYTHON3" -c '
import json, sys
p = json.load(sys.stdin)["pass"]
print("%s %d %.6f %.6f" % (p["ci_method"], p["tasks"], p["ci95"][0], p["ci95"][1]))')"
# narrowed to trials: the k-th episode of each task in the order written
ok "a simulated run narrowed to trials: episodes of each" "$("$PYTHON3" -c '
import json, sys
seen, by = {}, {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "episode":
        k = seen[r["seed"]] = seen.get(r["seed"], 0) + 1
        by[k] = by.get(k, 0) + 1
print(by[1], by[2], by[3], by[2] + by[3])' "$T/trials-many.jsonl")" \
    "$(for r in m@1 m@2 m@3 m@2-3; do "$CARD" --db "$T/many.db" --json "$r" |
        "$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["episodes"])'
       done | paste -sd' ')"
ok "tasks shared by many episodes: one task a seed" "450 901" \
    "$(sqlite3 -separator ' ' "$T/many.db" 'SELECT count(DISTINCT task_id),
        count(*) FROM episodes')"

# --- a compare between tool files of 120 tools and 1 stays within the
# --- width: its lists wrap
"$PYTHON3" - "$T" <<'PY'
import json, sys
def tool(name):
    return {"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": {"order_id": {"type": "string"}}}}}
json.dump([tool("refund_order_%03d" % i) for i in range(120)],
          open(sys.argv[1] + "/many-tools.json", "w"))
json.dump([tool("get_order")], open(sys.argv[1] + "/one-tool.json", "w"))
PY
printf '{"type":"run","run":"wide","tools":"many-tools.json"}\n{"type":"run","run":"thin","tools":"one-tool.json"}\n' \
    > "$T/widths.jsonl"
(cd "$T" && "$REPLAY" --quiet --db widths.db widths.jsonl 2>/dev/null)
"$CARD" --db "$T/widths.db" --compare wide thin > "$T/widths.out"
ok "a compare of 120 tools: its longest line" "80" \
    "$(awk '{ if (length($0) > m) m = length($0) } END { print (m <= 80 ? 80 : m) }' \
        "$T/widths.out")"
ok "a compare of 120 tools: every tool named once" "121" \
    "$(grep -o '[a-z_]*order[_0-9]*' "$T/widths.out" | sort -u | wc -l)"
"$CARD" --db "$T/widths.db" --width 60 --compare wide thin > "$T/widths60.out"
ok "a compare of 120 tools at --width 60: its longest line" "60" \
    "$(awk '/^  (added|removed):|^    refund/ { if (length($0) > m) m = length($0) }
        END { print (m <= 60 ? 60 : m) }' "$T/widths60.out")"

# --- a card lists five problems, and says how many more there are
{
    echo "{\"type\":\"run\",\"run\":\"pp\",\"tools\":\"$shop\"}"
    for i in 1 2 3 4 5 6 7; do
        echo "{\"type\":\"episode\",\"run\":\"pp\",\"episode\":\"e$i\",\"seed\":1,\"arm\":\"depht:d3\"}"
    done
} > "$T/seven.jsonl"
(cd "$T" && "$REPLAY" --quiet --db seven.db seven.jsonl 2>/dev/null)
ok "a card of seven problems" "    ... and 2 more: SELECT * FROM problems WHERE run = 'pp'" \
    "$("$CARD" --db "$T/seven.db" pp | grep -F '... and')"
ok "a Markdown card of seven problems" "- ... and 2 more (\`SELECT * FROM problems WHERE run = 'pp'\`)" \
    "$("$CARD" --db "$T/seven.db" --markdown pp | grep -F '... and')"

# --- Ctrl-C: the episodes finished so far are kept, and replay says so;
# --- one still open (its end line not read yet) is not written, not even
# --- as unfinished: the rest of its lines was not read, not missing
mkfifo "$T/in.fifo"
"$REPLAY" --db "$T/int.db" --batch 1 --tools-dir "$TOP_SRCDIR/samples/tools" - \
    < "$T/in.fifo" 2> "$T/int.err" &
rpid=$!
exec 3> "$T/in.fifo" # held open: replay waits for more, as on a pipe
{
    head -n 1 "$TOP_SRCDIR/samples/night/careful.jsonl"
    echo '{"type":"episode","run":"careful","episode":"open","seed":7,"arm":"base"}'
    echo '{"type":"call","run":"careful","episode":"open","call":{"name":"search_orders","arguments":{"query":"harbor granite"}}}'
    tail -n +2 "$TOP_SRCDIR/samples/night/careful.jsonl"
} >&3
waited=0
until [ "$(sqlite3 "$T/int.db" 'SELECT count(*) FROM episodes' 2>/dev/null)" = 96 ] ||
      [ $waited -ge 1200 ]; do
    sleep 0.1
    waited=$((waited + 1))
done
kill -INT $rpid
( sleep 120; kill -KILL $rpid 2>/dev/null ) & # a replay that hangs fails
watchdog=$!
wait $rpid
got_status=$?
kill $watchdog 2>/dev/null
exec 3>&-
ok "Ctrl-C" "replay: interrupted: 96 episodes kept, 1 open one not written; run the same command again to finish
replay: 683 lines: 681 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 96 episodes written (0 replaced, 0 unfinished), 0 unchanged; 488 calls; into $T/int.db
exit 130" "$(cat "$T/int.err"; echo "exit $got_status")"
ok "Ctrl-C: the rows" "96|0|0" \
    "$(sqlite3 "$T/int.db" "SELECT count(*), sum(unfinished),
        count(*) FILTER (WHERE episode = 'open') FROM episodes")"

# --- all of it at once: a real-like night (answers logged as JSON text,
# --- answers missing, unknown tools with arguments, arguments that are
# --- not JSON, repeated seeds, an observed run with the harness's verdicts,
# --- a line cut short at the end), moved away from its tool file and
# --- replayed with --tools-dir: every line accounted for, nothing lost
mkdir -p "$T/reallike"
"$PYTHON3" - > "$T/reallike/night.jsonl" <<'PY'
import json
out = [{"type": "run", "run": "gpt", "tools": "shop.json", "model": "gpt-x"},
       {"type": "run", "run": "ext", "tools": "shop.json", "model": "gpt-x"}]
for trial in range(3):
    for seed in (7, 8):
        e = "s%d-t%d" % (seed, trial)
        out.append({"type": "episode", "run": "gpt", "episode": e,
                    "seed": seed, "arm": "base"})
        out.append({"type": "call", "run": "gpt", "episode": e,
                    "call": {"type": "function", "function": {
                        "name": "search_orders",
                        "arguments": json.dumps({"query": "harbor granite"})}},
                    "answer": json.dumps({"ok": True, "id": "Z-0362"})})
        out.append({"type": "call", "run": "gpt", "episode": e,
                    "call": {"name": "think", "arguments": {"plan": trial}}})
        out.append({"type": "call", "run": "gpt", "episode": e,
                    "call": {"name": "refund_order",
                             "arguments": "{\"order_id\": \"Z-0362\","}})
        out.append({"type": "end", "run": "gpt", "episode": e,
                    "status": "done", "success": trial != 1})
        o = "task%d-t%d" % (seed, trial)
        out.append({"type": "episode", "run": "ext", "episode": o,
                    "task_name": "task%d" % seed})
        out.append({"type": "call", "run": "ext", "episode": o,
                    "call": {"type": "tool_use", "name": "get_order",
                             "input": {"order_id": "Z"}},
                    "answer": {"content": [{"type": "text", "text": "{}"}]}})
        out.append({"type": "end", "run": "ext", "episode": o,
                    "success": trial == 0, "reward": 0.5 * trial})
for line in out:
    print(json.dumps(line))
print('{"type":"call","run":"gpt","episode":"s7-t9","call":{"name":"sear')
PY
unset TASKREPLAY_TOOLS_DIR
got=$(cd "$T/reallike" && "$REPLAY" --db r.db --tools-dir "$TOP_SRCDIR/samples/tools" \
    night.jsonl 2>&1; echo "exit $?")
export TASKREPLAY_TOOLS_DIR=$TOP_SRCDIR
ok "a real-like night: every line accounted for" "night.jsonl:51: not JSON: expected a value (column 61)
replay: 51 lines: 50 used, 0 unchanged, 1 problem, 0 blank
replay: 2 runs; 12 episodes written (0 replaced, 0 unfinished), 0 unchanged; 24 calls; into r.db
exit 1" "$got"
# per run: episodes, calls, arguments kept as sent, arguments of unknown
# tools, answers compared, diverged (seed 8's search answers otherwise),
# answers logged but not compared (observed), the harness's successes
ok "a real-like night: nothing lost" "gpt|6|18|6|6|6|3|0|4
ext|6|6|0|0|0|0|6|2" \
    "$(sqlite3 "$T/reallike/r.db" "SELECT e.run, count(DISTINCT e.episode),
        count(*), count(c.arguments_raw),
        count(c.arguments) FILTER (WHERE c.kind IS NULL),
        count(c.diverged), count(*) FILTER (WHERE c.diverged = 1),
        count(c.logged_answer) FILTER (WHERE c.diverged IS NULL),
        (SELECT sum(success) FROM episodes x WHERE x.run = e.run)
        FROM calls c JOIN episodes e ON e.episode_id = c.episode_id
        GROUP BY e.run ORDER BY e.run DESC")"
ok "a real-like night: trials" "ext|observed|2|3
gpt|simulated|2|3" "$(sqlite3 "$T/reallike/r.db" "SELECT run, kind, count(*),
    max(trials) FROM trials GROUP BY run, kind ORDER BY run")"

# --- a file is the same file however its path is spelled: its problems
# --- are recorded under one key (its resolved path from the database's
# --- folder), so
# --- a fixed file replayed under another spelling, or from another folder,
# --- leaves none; and a run replayed replaces its earlier refusals, from
# --- whatever file they came
mkdir -p "$T/spell/night" "$T/spell/tools"
cp "$shop" "$T/spell/tools/"
{
    echo '{"type":"run","run":"sp","tools":"../tools/shop.json"}'
    echo '{"type":"episode","run":"sp","episode":"e1","seed":7,"arm":"base"}'
    echo '{"type":"call","run":"sp","episode":"e1","call":{"name":"search_orders","arguments":{"query":"harbor granite"}}}'
    echo '{"type":"call","run":"sp","episode":"e1","call":{"name":"refund_order","arguments":{"order_id":"Z-0362","amount":280.41}}}'
    echo '{"type":"end","run":"sp","episode":"e1"}'
} > "$T/spell/night/x.jsonl"
spell() ( # DIR ARGS...: replay from DIR, no tool folder but its own
    unset TASKREPLAY_TOOLS_DIR
    cd "$1" && shift && "$REPLAY" "$@" 2>&1
    echo "exit $?"
)
rows() { sqlite3 "$T/spell/s.db" "SELECT source_file, count(*) FROM problems
    GROUP BY source_file ORDER BY source_file; SELECT 'episodes', count(*),
    coalesce(sum(pass), 0) FROM episodes"; }
echo 'not json' >> "$T/spell/night/x.jsonl"
spell "$T/spell" --db s.db night/x.jsonl > /dev/null
ok "a broken file: its problem, under its path from the database" \
    "night/x.jsonl|1
episodes|1|1" "$(rows)"
sed -i '$d' "$T/spell/night/x.jsonl"
ok "the file fixed, named ./night/x.jsonl" "replay: 5 lines: 1 used, 4 unchanged, 0 problems, 0 blank
replay: 1 run; 0 episodes written (0 replaced, 0 unfinished), 1 unchanged; 0 calls; into s.db
exit 0" "$(spell "$T/spell" --db s.db ./night/x.jsonl)"
ok "the file fixed: no problem left" "episodes|1|1" "$(rows)"
rm -f "$T"/spell/s.db*
got=$(spell "$T/spell/night" --db ../s.db x.jsonl | sed "s#$T/#T/#g")
ok "replayed from inside its folder: its tool file is outside" \
    "x.jsonl:1: run \"sp\" cannot be replayed: its tool file ../tools/shop.json is T/spell/tools/shop.json, outside the folders tool files are read from (the transcript's, the working one, --tools-dir); name its folder with --tools-dir, or allow any path with --any-tools-path
replay: run \"sp\": 4 more lines not replayed, for the reason said above (the problems table holds each)
replay: 5 lines: 0 used, 0 unchanged, 5 problems, 0 blank
replay: 0 runs; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into ../s.db
exit 1" "$got"
ok "replayed from inside its folder: the rows" "night/x.jsonl|5
episodes|0|0" "$(rows)"
spell "$T/spell" --db s.db night/x.jsonl > /dev/null
ok "then from the folder above: every episode passes, no problem left" \
    "episodes|1|1" "$(rows)"
rm -f "$T"/spell/s.db*
spell "$T/spell/night" --db ../s.db - < "$T/spell/night/x.jsonl" > /dev/null
ok "piped from elsewhere: refused, under <stdin>" "<stdin>|5
episodes|0|0" "$(rows)"
spell "$T/spell" --db s.db night/x.jsonl > /dev/null
ok "the run replayed from its file: the refusals of <stdin> are gone" \
    "episodes|1|1" "$(rows)"
ok "one file named twice in one night: read once" "replay: ./night/../night/x.jsonl: skipped: it is the same file as night/x.jsonl, read already
replay: 5 lines: 1 used, 4 unchanged, 0 problems, 0 blank
exit 0" "$(spell "$T/spell" --db s.db night/x.jsonl ./night/../night/x.jsonl |
    grep -v '^replay: 1 run')"

# --- a tool file with no write: no task can be made, so its episodes
# --- with a seed and an arm are refused, said once with what to do (replay
# --- them as observed), and the advice works
mkdir -p "$T/readonly"
cat > "$T/readonly/ro.json" <<'EOF'
[{"type": "function", "function": {"name": "get_order", "description": "Look up one order.", "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}},
 {"type": "function", "function": {"name": "search_orders", "description": "Find orders.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}}]
EOF
{
    echo '{"type":"run","run":"ro","tools":"ro.json"}'
    echo '{"type":"episode","run":"ro","episode":"e1","seed":1,"arm":"base"}'
    echo '{"type":"call","run":"ro","episode":"e1","call":{"name":"search_orders","arguments":{"query":"x"}}}'
    echo '{"type":"end","run":"ro","episode":"e1"}'
    echo '{"type":"episode","run":"ro","episode":"e2","seed":2,"arm":"base"}'
    echo '{"type":"end","run":"ro","episode":"e2"}'
    echo '{"type":"episode","run":"ro","episode":"o1"}'
    echo '{"type":"call","run":"ro","episode":"o1","call":{"name":"get_order","arguments":{"order_id":"A-1"}}}'
    echo '{"type":"end","run":"ro","episode":"o1"}'
} > "$T/readonly/ro.jsonl"
got=$(cd "$T/readonly" && "$REPLAY" --db ro.db ro.jsonl 2>&1; echo "exit $?")
ok "a tool file with no write" "ro.jsonl:2: run \"ro\" has no write among the tools of ro.json, so no task can be made for a seed and an arm (a task ends with a write): its episodes with a seed and an arm are not replayed; to check their calls against the tool file alone, replay them as observed episodes, whose episode lines give neither \"seed\" nor \"arm\"
replay: run \"ro\": 4 more lines not replayed, for the reason said above (the problems table holds each)
replay: 9 lines: 4 used, 0 unchanged, 5 problems, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 1 call; into ro.db
exit 1" "$got"
ok "a tool file with no write: rows" "2|ro|e1
3|ro|e1
4|ro|e1
5|ro|e2
6|ro|e2
o1|1" "$(sqlite3 "$T/readonly/ro.db" "SELECT source_line, run, episode FROM problems
    ORDER BY source_line; SELECT episode, calls FROM episodes")"
sed 's/,"seed":[0-9]*,"arm":"[^"]*"//' "$T/readonly/ro.jsonl" > "$T/readonly/observed.jsonl"
got=$(cd "$T/readonly" && "$REPLAY" --db ro2.db observed.jsonl 2>&1; echo "exit $?")
ok "a tool file with no write: replayed as observed" "replay: 9 lines: 9 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 3 episodes written (0 replaced, 0 unfinished), 0 unchanged; 2 calls; into ro2.db
exit 0" "$got"

echo "real nights: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
