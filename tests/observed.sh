# The observed night of samples/observed (two scripted agents logged as a
# harness logs an external system: no seed, no arm, named tasks, three
# trials each, "success" on the end line):
#  - every figure that needs a task is NULL in the database, never 0;
#  - its cards and their compare are exactly tests/observed/*.gold;
#  - every figure of the cards is the query docs/card.md gives for it;
#  - success^k and the paired compare are what an oracle computes from
#    the transcripts themselves (tests/observed_oracle.py, with the
#    statistics of tests/stats_oracle.py), not from the database.
# UPDATE_GOLDEN=1 rewrites the gold.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
: "${CARD:?}"
export SOURCE_DATE_EPOCH=1790000000
golds=$TOP_SRCDIR/tests/observed
db=$TEST_TMP/observed.db
pass=0 fail=0
ok() { if check_eq "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }
gold() { # NAME TEXT
    [ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$2" > "$golds/$1.gold"
    ok "$1" "$(cat "$golds/$1.gold")" "$2"
}

got=$(cd "$TOP_SRCDIR" && "$REPLAY" --db "$db" samples/observed 2>&1)
ok "replaying the observed night" "replay: 564 lines: 564 used, 0 unchanged, 0 problems, 0 blank
replay: 2 runs; 96 episodes written (0 replaced, 0 unfinished), 0 unchanged; 370 calls; into $db" "$got"

# Nothing a task would give is there: NULL, not 0.
ok "episodes: no simulator figure" "96|0|96|96" "$(sqlite3 "$db" "SELECT count(*),
    count(seed) + count(arm) + count(task_id) + count(reached) + count(pass) +
    count(side_effects) + count(errors) + count(diverged),
    count(task_name), count(success) FROM episodes")"
ok "calls: no replayed answer, effect or comparison" "370|0|370|370" \
    "$(sqlite3 "$db" "SELECT count(*), count(answer) + count(effect) +
        count(diverged) + count(step) + count(dial), count(logged_answer),
        count(arguments_valid) FROM calls")"
ok "trials per task" "steady|observed|16|3|3" "$(sqlite3 "$db" "SELECT run, kind,
    count(*), min(trials), max(trials) FROM trials WHERE run = 'steady'
    GROUP BY run, kind")"

gold steady "$("$CARD" --db "$db" steady 2>&1)"
gold erratic-markdown "$("$CARD" --db "$db" --markdown erratic 2>&1)"
gold compare "$("$CARD" --db "$db" --compare steady erratic 2>&1)"
gold compare-json "$("$CARD" --db "$db" --json --compare steady erratic 2>&1)"

if [ -n "${PYTHON3:-}" ]; then
    "$CARD" --db "$db" --json steady erratic > "$TEST_TMP/cards.jsonl"
    if "$PYTHON3" "$TOP_SRCDIR/tests/card_sql.py" "$TOP_SRCDIR/docs/card.md" \
        "$db" "$TEST_TMP/cards.jsonl"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); fi
    "$CARD" --db "$db" --json --compare steady erratic > "$TEST_TMP/compare.json"
    got=$("$PYTHON3" "$TOP_SRCDIR/tests/observed_oracle.py" \
        "$TOP_SRCDIR/samples/observed/steady.jsonl" \
        "$TOP_SRCDIR/samples/observed/erratic.jsonl" \
        "$TEST_TMP/cards.jsonl" "$TEST_TMP/compare.json")
    ok "success^k, the rates and the paired compare, from the transcripts" \
        "steady: success^k and its intervals agree (k = 1..3)
steady: success 44 of 48, 95% CI 0.8045-0.9671 clustered by 16 tasks: agrees
erratic: success^k and its intervals agree (k = 1..3)
erratic: success 42 of 48, 95% CI 0.6910-0.9564 clustered by 16 tasks: agrees
paired: 16 tasks; first trials 3/2 discordant; interval and p agree" "$got"
    # the view run_interval gives the card's figures
    ok "run_interval, as the cards" "$("$PYTHON3" -c '
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    s = c["harness"]["observed"]["success"]
    print("%s|observed|success|%d|%s|%d|%.6f|%.6f" % (c["run"], s["count"],
          s["ci_method"], s["tasks"], s["ci95"][0], s["ci95"][1]))' \
        "$TEST_TMP/cards.jsonl")" "$(sqlite3 "$db" "SELECT run, kind, measure,
        passed, ci_method, tasks, printf('%.6f', ci_low), printf('%.6f', ci_high)
        FROM run_interval ORDER BY run DESC")"
fi

# Runs that mix both kinds pair each kind apart: careful's episodes and
# steady's as one run, sloppy's and erratic's as another, give the pass
# rows of careful against sloppy and the success row of steady against
# erratic.
mkdir -p "$TEST_TMP/mix"
for pair in "careful night mix-a" "steady observed mix-a" \
    "sloppy night mix-b" "erratic observed mix-b"; do
    set -- $pair
    sed "s/\"run\":\"$1\"/\"run\":\"$3\"/" "$TOP_SRCDIR/samples/$2/$1.jsonl" \
        > "$TEST_TMP/mix/$1.jsonl"
done
cp -R "$TOP_SRCDIR/samples/tools" "$TEST_TMP/"
(cd "$TEST_TMP" && "$REPLAY" --quiet --db "$TEST_TMP/mix.db" mix) 2>/dev/null
(cd "$TOP_SRCDIR" && "$REPLAY" --quiet --db "$TEST_TMP/apart.db" samples/night) 2>/dev/null
rows() { "$CARD" --db "$1" --json --compare "$2" "$3" ${4:-} | "$PYTHON3" -c '
import json, sys
for r in json.load(sys.stdin)["paired"]:
    if r["arm"] == "all":
        print(r["measure"], r["shared"], r["only_a"], r["only_b"],
              "%.6f %.6f %.6f" % (r["difference"], r["ci95"][0], r["ci95"][1]),
              r["pairs"]["a_only"], r["pairs"]["b_only"])'; }
ok "runs of both kinds, paired kind by kind" \
    "$(rows "$TEST_TMP/apart.db" careful sloppy; rows "$db" steady erratic)" \
    "$(rows "$TEST_TMP/mix.db" mix-a mix-b)"

# Observed runs pair by the harness's task ids, whatever their tool files'
# bytes: erratic logged again against the same tools laid out otherwise
# (layout), against a file of no tool (none: no contract to check), and
# against one tool fewer (less: another contract, refused unless
# --across-contracts).  Each comparable case gives the figures of steady
# against erratic itself.
c=$TEST_TMP/contracts
mkdir -p "$c/night" "$c/tools"
cp "$TOP_SRCDIR/samples/tools/shop.json" "$c/tools/"
sed 's/^ *//' "$TOP_SRCDIR/samples/tools/shop.json" > "$c/tools/layout.json"
printf '[]\n' > "$c/tools/none.json"
"$PYTHON3" -c '
import json, sys
tools = json.load(open(sys.argv[1]))
json.dump([t for t in tools if t["function"]["name"] != "list_channels"],
          open(sys.argv[2], "w"), indent=1)' \
    "$TOP_SRCDIR/samples/tools/shop.json" "$c/tools/less.json"
cp "$TOP_SRCDIR/samples/observed/steady.jsonl" "$c/night/"
for v in layout none less; do
    sed -e "s/\"run\":\"erratic\"/\"run\":\"erratic-$v\"/" \
        -e "1s|\.\./tools/shop\.json|../tools/$v.json|" \
        "$TOP_SRCDIR/samples/observed/erratic.jsonl" > "$c/night/erratic-$v.jsonl"
done
(cd "$c" && "$REPLAY" --quiet --db c.db night)
status() { "$@" > /dev/null 2>&1; echo $?; }
same_rows=$(rows "$db" steady erratic)
gold compare-layout "$("$CARD" --db "$c/c.db" --compare steady erratic-layout 2>&1)"
ok "layout only: the figures of the same file" "$same_rows" \
    "$(rows "$c/c.db" steady erratic-layout)"
gold compare-none-markdown \
    "$("$CARD" --db "$c/c.db" --markdown --compare steady erratic-none 2>&1)"
ok "no contract: the figures of the same file" "$same_rows" \
    "$(rows "$c/c.db" steady erratic-none)"
ok "no contract, as JSON" "not_checked|No contract could be checked: B's log recorded no tool definitions; observed episodes, paired by the harness's names of their tasks." \
    "$("$CARD" --db "$c/c.db" --json --compare steady erratic-none |
        "$PYTHON3" -c 'import json, sys
x = json.load(sys.stdin)
print(x["contract"], x["pairing"], sep="|")')"
ok "no contract on A's side" "No contract could be checked: A's log recorded no tool definitions; observed episodes, paired by the harness's names of their tasks." \
    "$("$CARD" --db "$c/c.db" --json --compare erratic-none steady |
        "$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["pairing"])')"
gold compare-other-contract \
    "$("$CARD" --db "$c/c.db" --compare steady erratic-less 2>&1)"
ok "another contract: refused, exit 5" 5 \
    "$(status "$CARD" --db "$c/c.db" --compare steady erratic-less)"
gold compare-across \
    "$("$CARD" --db "$c/c.db" --compare steady erratic-less --across-contracts 2>&1)"
gold compare-across-html-headline "$("$CARD" --db "$c/c.db" --html \
    --compare steady erratic-less --across-contracts | grep -A2 '<h2>')"
ok "across contracts: the figures of the same file" "$same_rows" \
    "$(rows "$c/c.db" steady erratic-less --across-contracts)"
ok "across contracts, as JSON" "different|True|removed: list_channels" \
    "$("$CARD" --db "$c/c.db" --json --compare steady erratic-less \
        --across-contracts | "$PYTHON3" -c 'import json, sys
x = json.load(sys.stdin)
print(x["contract"], x["across_contracts"], "removed: " + ",".join(x["tools"]["removed"]), sep="|")')"
gold gate-across "$("$CARD" --db "$c/c.db" --gate --compare steady \
    erratic-less --across-contracts 2>&1; echo "exit $?")"
ok "the gate refuses another contract unasked" 5 \
    "$(status "$CARD" --db "$c/c.db" --gate --compare steady erratic-less)"
ok "--across-contracts alone" "card: --across-contracts goes with --compare RUN_A RUN_B
Try 'card --help'.
exit 2" "$("$CARD" --db "$c/c.db" --across-contracts steady 2>&1; echo "exit $?")"

# A logged answer that is an error, in every idiom the logs write, is an
# error of the call (calls.error: its code, or the idiom's), and nothing
# else is: per tool on the card, in its headline, and in the failed
# episode's class.
mkdir -p "$TEST_TMP/errs"
"$PYTHON3" - "$TEST_TMP/errs/errs.jsonl" <<'PY'
import json, sys
answers = [
    {"error": {"code": "not_found", "message": "no such order"}},    # OpenAI
    {"error": {"type": "timeout", "message": "no answer in time"}},  # type
    {"error": {"code": "bad code\u001b[2J", "message": "m"}},        # no name
    {"error": "upstream down"},                                       # string
    {"content": [{"type": "text", "text": "boom"}], "isError": True}, # MCP
    {"type": "about:blank", "title": "Not Found", "status": 404},     # RFC 9457
    "Error: refunds are closed",                                      # tau-bench
    "  Error: leading spaces",
    json.dumps({"error": {"code": "rate_limited", "message": "slow"}}),  # as text
    {"content": [{"type": "text", "text": "Error: in a block"}]},
    # none of these is an error
    {"id": "A-1", "error": None},
    {"status": 404, "items": []},
    {"status": 200, "title": "fine"},
    "No error: all good",
    {"error": ""},
    {"content": [{"type": "text", "text": "{\"id\": \"A-1\"}"}],
     "isError": False},
]
out = [{"type": "run", "run": "errs", "tools": "../tools/shop.json"},
       {"type": "episode", "run": "errs", "episode": "e1", "task_name": "t1"}]
for a in answers:
    out.append({"type": "call", "run": "errs", "episode": "e1",
                "call": {"name": "get_order", "arguments": {"order_id": "A-0001"}},
                "answer": a})
out.append({"type": "end", "run": "errs", "episode": "e1", "success": False})
open(sys.argv[1], "w").write("".join(json.dumps(o) + "\n" for o in out))
PY
mkdir -p "$TEST_TMP/tools" && cp "$TOP_SRCDIR/samples/tools/shop.json" "$TEST_TMP/tools/"
(cd "$TEST_TMP" && "$REPLAY" --quiet --db errs/errs.db errs/errs.jsonl)
ok "errors of every idiom, and none elsewhere" "1|not_found
2|timeout
3|error
4|error
5|is_error
6|http_404
7|error_text
8|error_text
9|rate_limited
10|error_text
11|
12|
13|
14|
15|
16|" "$(sqlite3 "$TEST_TMP/errs/errs.db" "SELECT seq, error FROM calls ORDER BY seq")"
ok "errors per tool, and in the headline" "get_order 16 10|10 of 16 calls answered an error" \
    "$("$CARD" --db "$TEST_TMP/errs/errs.db" --json errs | "$PYTHON3" -c '
import json, re, sys
c = json.load(sys.stdin)
t = c["tools"][0]
print(t["tool"], t["calls"], t["errors"], end="|")
print(re.search(r"\d+ of \d+ calls answered an error", c["headline"]).group(0))')"
ok "the failed episode points at its last error" "failed|10|error_text" \
    "$(sqlite3 "$TEST_TMP/errs/errs.db" "SELECT class, seq, error FROM episode_outcomes")"

# A run narrowed to some trials (RUN@1, RUN@2-3) is the run its trials'
# lines would make alone: steady's first trials, and its second and third,
# written as two runs of their own, give the same compare, cards and gate.
mkdir -p "$TEST_TMP/halves"
"$PYTHON3" - "$TOP_SRCDIR/samples/observed/steady.jsonl" "$TEST_TMP/halves" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
runs = {"first": [], "rest": []}
for line in open(src):
    rec = json.loads(line)
    if rec["type"] == "run":
        for r in runs:
            runs[r].append(dict(rec, run=r))
        continue
    r = "first" if rec["episode"].endswith("-t1") else "rest"
    runs[r].append(dict(rec, run=r))
for r, recs in runs.items():
    open("%s/%s.jsonl" % (out, r), "w").write(
        "".join(json.dumps(x) + "\n" for x in recs))
PY
(cd "$TEST_TMP" && "$REPLAY" --quiet --db halves.db halves >/dev/null 2>&1)
ok "steady@1 against steady@2-3: the runs its trials make" \
    "$(rows "$TEST_TMP/halves.db" first rest)" "$(rows "$db" steady@1 steady@2-3)"
figures() { "$CARD" --db "$1" --json "$2" | "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
h = c["harness"]["observed"]
print(c["episodes"], h["judged"], h["success"], c["success_hat_k"],
      c["observed_calls"], c["observed_errors"], c["flaky_tasks"])'; }
ok "steady@2-3's card: the run its trials make" \
    "$(figures "$TEST_TMP/halves.db" rest)" "$(figures "$db" steady@2-3)"
gated() { "$CARD" --db "$1" --json --gate --compare "$2" "$3" | "$PYTHON3" -c '
import json, sys
g = json.load(sys.stdin)["gate"]
print(g["outcome"], g["measure"], g["tasks"], g["method"], g["drop"], g["ci95"],
      g["exit"])'; }
ok "the gate on two epochs" "$(gated "$TEST_TMP/halves.db" first rest)" \
    "$(gated "$db" steady@1 steady@2-3)"
ok "named by the run's beginning, trials as said" \
    "compare: steady@1 (A) and steady@3 (B)" \
    "$("$CARD" --db "$db" --compare stead@1 steady@3-3 | head -n 1)"
ok "trials a run has not" "card: steady@4: steady has at most 3 trials of a task
exit 2" "$("$CARD" --db "$db" steady@4 2>&1; echo "exit $?")"
ok "a narrowed run of no such run" "card: no run is named \"nope\"; did you mean steady? The runs: erratic, steady
exit 2" "$("$CARD" --db "$db" nope@1 2>&1; echo "exit $?")"
ok "the database is not written" "$(sqlite3 "$db" "SELECT count(*) FROM runs")" "2"
# a run whose whole name ends in @1 is that run, not a narrowing
cp "$db" "$TEST_TMP/at.db" &&
    sqlite3 "$TEST_TMP/at.db" "UPDATE runs SET run = 'steady@1' WHERE run = 'erratic'" || exit 99
ok "a run named x@1 is itself" "card: steady@1
  The harness's success: 42 of 48 observed episodes (87.5%, 95% CI 69.1-95.6%," \
    "$("$CARD" --db "$TEST_TMP/at.db" steady@1 | head -n 2)"

echo "observed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
