# Real nights have habits the samples don't: each case is one, replayed
# from a transcript made here, with the exact rows it must leave.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
CARD=${CARD:-$(dirname "$REPLAY")/../report/card}
command -v sqlite3 >/dev/null || { echo "SKIP: needs sqlite3"; exit 77; }
export SOURCE_DATE_EPOCH=1790000000
shop=$TOP_SRCDIR/samples/tools/shop.json
pass=0 fail=0
T=$TEST_TMP

ok() {
    if check_eq "$1" "$2" "$3"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
    fi
}

# --- answers logged as JSON text (OpenAI and Anthropic tool results are
# --- strings): the same answer as text is not diverged
"$PYTHON3" - "$shop" > "$T/text.jsonl" <<'PY'
import json, sys
lines = [{"type": "run", "run": "t", "tools": sys.argv[1]}]
answers = ['{"id":"Z-0362","ok":true}', '{ "ok": true, "id": "Z-0362" }',
           '{"id":"Z-0363","ok":true}', 'not json', {"id": "Z-0362", "ok": True},
           '"{\\"id\\":\\"Z-0362\\",\\"ok\\":true}"']
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
e5|1|"\"{\\\"id\\\":\\\"Z-0362\\\",\\\"ok\\\":true}\""' \
    "$(sqlite3 "$T/text.db" 'SELECT episode, diverged, logged_answer FROM calls
        ORDER BY episode')"

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
    and 1 in the database that name no run: SELECT * FROM problems WHERE run IS NULL" \
    "$("$CARD" --db "$T/cut.db" c | grep -A1 '^  problems')"
ok "card --list, with a problem that names no run" "1 problem in the database names no run: SELECT * FROM problems WHERE run IS NULL" \
    "$("$CARD" --db "$T/cut.db" --list | tail -n 1)"
ok "card --json, with a problem that names no run" "1" \
    "$("$CARD" --db "$T/cut.db" --json c | "$PYTHON3" -c \
        'import json, sys; print(json.load(sys.stdin)["problems"]["no_run"])')"

echo "real nights: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
