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
    ok "success^k and the paired compare, from the transcripts" \
        "steady: success^k agrees (k = 1..3)
erratic: success^k agrees (k = 1..3)
paired: 16 tasks; first trials 3/2 discordant; interval and p agree" "$got"
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

echo "observed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
