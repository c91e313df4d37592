# Why episodes ended (the view episode_outcomes) and which tasks flipped
# (card --compare):
#  - tests/classes/classes.jsonl holds an episode of every class; each
#    gets exactly its row (class, call, step, tool, error, dial), and its
#    card exactly its table;
#  - on nights of the scripted agents (four policies on the same tasks)
#    and on the observed night (three trials a task), every episode's
#    class is what tests/classes_oracle.py computes from the tables by
#    the rules sql/schema.sql states, and every flipped task of a
#    compare, its order and the trial shown on each side, what it
#    computes from the episodes;
#  - the figures of the cards are the queries of docs/card.md;
#  - the view, filtered by run, reads that run's episodes by index;
#  - --tasks: every flipped task, or a usage error.
# make check provides REPLAY, CARD, AGENTS, PYTHON3 and TOP_SRCDIR.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
: "${CARD:?}"
export SOURCE_DATE_EPOCH=1790000000
pass=0 fail=0
ok() { if check_eq "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

db=$TEST_TMP/classes.db
got=$(cd "$TOP_SRCDIR" && "$REPLAY" --db "$db" tests/classes/classes.jsonl 2>&1)
ok "replaying an episode of every class" "replay: 65 lines: 65 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 18 episodes written (0 replaced, 2 unfinished), 0 unchanged; 30 calls; into $db" "$got"
# (an unfinished episode is written when the input ends)
ok "each episode's class, and what it points at" "passed|passed||||||t-6fc4c00a1b2f8e8b|base
diverged|diverged|1|1|search_orders|||t-6fc4c00a1b2f8e8b|base
fooled|fooled|2|1|refund_order||baddata|t-5f0909ca81d58be2|baddata:b2
duplicated|duplicated|3|2|refund_order||landed|t-99a6adf86cbc7b21|landed:l1
duplicate|duplicate_write|3|2|refund_order|||t-6fc4c00a1b2f8e8b|base
side-effect|side_effect|2||refund_order|||t-6fc4c00a1b2f8e8b|base
gave-up|gave_up|1|1|search_orders|unavailable|faults|t-f0ed8d3df1b550c0|faults:f1
stalled|stalled|1|1|search_orders||baddata|t-5f0909ca81d58be2|baddata:b2
invalid|invalid_arguments|2||refund_order|invalid_arguments||t-6fc4c00a1b2f8e8b|base
unknown|unknown_tool|2||refund_everything|not_found||t-6fc4c00a1b2f8e8b|base
not-ready|stopped_after_error|2|3|refund_order|not_ready||t-01bf9de031d19776|depth:d3
not-reached|not_reached||2|refund_order|||t-6fc4c00a1b2f8e8b|base
no-call|not_reached||2|refund_order|||t-6fc4c00a1b2f8e8b|base
observed-pass|passed||||||t1|
observed-fail|failed|1||refund_order|invalid_arguments||t2|
observed-unjudged|unjudged||||||t3|
unfinished|unfinished||||||t-6fc4c00a1b2f8e8b|base
observed-cut|unfinished||||||t4|" \
    "$(sqlite3 "$db" "SELECT episode, class, seq, step, tool, error, dial,
        task, arm FROM episode_outcomes ORDER BY episode_id")"
# the card's table, as it shows it
got=$("$CARD" --db "$db" classes | sed -n '/^why episodes ended/,/^$/p')
ok "the card's classes" "why episodes ended as they did (episode_outcomes)
  class                eps what happened; arms
  passed                 2
  diverged               1 a logged answer differs from the simulator's; base 1
  fooled                 1 a write used bad data's wrong value; baddata:b2 1
  duplicated             1 a write repeated after a landed timeout or a lagging
                           read; landed:l1 1
  duplicate_write        1 the expected write made twice; base 1
  side_effect            1 a write the task did not ask for; base 1
  gave_up                1 no retry after a planned fault, timeout or rate
                           limit; faults:f1 1
  stalled                1 given bad data, it never wrote; baddata:b2 1
  unfinished             2 no end line: the log stops inside the episode; base 1
  invalid_arguments      1 its last call broke the tool's input schema; base 1
  unknown_tool           1 its last call named a tool the file has not; base 1
  stopped_after_error    1 its last call answered another error; depth:d3 1
  not_reached            2 it stopped, with no error, before a write step; base
                           2
  failed                 1 the harness said failure
  unjudged               1 the harness gave no verdict" "$got"
ok "the classes in Markdown" "| fooled | 1 | a write used bad data's wrong value | baddata:b2 1 |" \
    "$("$CARD" --db "$db" --markdown classes | grep '^| fooled ')"
ok "the classes in JSON" '{"class":"unfinished","episodes":2,"example":"unfinished","arms":[{"arm":"base","episodes":1}]}' \
    "$("$CARD" --db "$db" --json classes | "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
print(json.dumps([k for k in c["classes"] if k["class"] == "unfinished"][0],
                 separators=(",", ":")))')"
ok "the classes in HTML" "<tr><td>stalled</td><td>1</td><td>given bad data, it never wrote</td><td>baddata:b2 1</td></tr>" \
    "$("$CARD" --db "$db" --html classes | grep '<td>stalled</td>')"
# the calls against the tasks' steps, counted by hand from the night:
# 25 calls of simulated episodes, 13 tasks of 2 steps and one of 3, one
# write made again right after its landed timeout, one planned fault
ok "calls against the tasks' steps" '{"calls":25,"steps":29,"repeated_reads":0,"retries":1,"planned_errors":1}' \
    "$("$CARD" --db "$db" --json classes | "$PYTHON3" -c '
import json, sys
print(json.dumps(json.load(sys.stdin)["efficiency"], separators=(",", ":")))')"
ok "every episode counted once" "18|18" "$("$CARD" --db "$db" --json classes |
    "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
print("%d|%d" % (sum(k["episodes"] for k in c["classes"]), c["episodes"]))')"

# The scripted agents on the same tasks: careful, a blind retrier, one
# that trusts a first read and one that gives up on an error; seeds 1 and
# 2, every arm.
night=$TEST_TMP/night
agents_night "$night" careful blind_retrier trusts_first_read gives_up_on_error
adb=$TEST_TMP/agents.db
(cd "$night" && "$REPLAY" --quiet --db "$adb" ./*.jsonl) 2>/dev/null
ok "the agents' classes" "blind_retrier|duplicated|2
blind_retrier|fooled|6
blind_retrier|passed|40
careful|passed|48
gives_up_on_error|gave_up|18
gives_up_on_error|passed|30
trusts_first_read|fooled|6
trusts_first_read|passed|42" \
    "$(sqlite3 "$adb" "SELECT run, class, count(*) FROM episode_outcomes
        GROUP BY run, class ORDER BY run, class")"
odb=$TEST_TMP/observed.db
(cd "$TOP_SRCDIR" && "$REPLAY" --quiet --db "$odb" samples/observed) 2>/dev/null
pairs=""
for p in "careful blind_retrier" "blind_retrier gives_up_on_error" \
    "gives_up_on_error trusts_first_read"; do
    set -- $p
    "$CARD" --db "$adb" --json --compare "$1" "$2" > "$TEST_TMP/$1-$2.json"
    pairs="$pairs $1 $2 $TEST_TMP/$1-$2.json"
done
# shellcheck disable=SC2086
got=$("$PYTHON3" "$TOP_SRCDIR/tests/classes_oracle.py" "$adb" $pairs 2>&1)
ok "the agents' classes and flips, from the tables" "classes: 192 episodes, 192 as the rules say, 0 not; 4 classes seen
flipped careful blind_retrier: 8 tasks (8 better in A), as the card says
flipped blind_retrier gives_up_on_error: 26 tasks (18 better in A), as the card says
flipped gives_up_on_error trusts_first_read: 24 tasks (6 better in A), as the card says" "$got"
"$CARD" --db "$odb" --json --compare steady erratic > "$TEST_TMP/obs.json"
got=$("$PYTHON3" "$TOP_SRCDIR/tests/classes_oracle.py" "$odb" \
    steady erratic "$TEST_TMP/obs.json" 2>&1)
ok "observed trials' classes and flips, from the tables" "classes: 96 episodes, 96 as the rules say, 0 not; 2 classes seen
flipped steady erratic: 5 tasks (3 better in A), as the card says" "$got"
got=$("$PYTHON3" "$TOP_SRCDIR/tests/classes_oracle.py" "$db" 2>&1)
ok "the crafted night, from the tables" "classes: 18 episodes, 18 as the rules say, 0 not; 15 classes seen" "$got"
for d in "$db" "$adb" "$odb"; do
    "$CARD" --db "$d" --json $(sqlite3 "$d" "SELECT run FROM runs ORDER BY run") \
        > "$TEST_TMP/cards.jsonl"
    if "$PYTHON3" "$TOP_SRCDIR/tests/card_sql.py" "$TOP_SRCDIR/docs/card.md" \
        "$d" "$TEST_TMP/cards.jsonl" > "$TEST_TMP/sql.out"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); cat "$TEST_TMP/sql.out"; fi
done

# The text: the first ten, then how many more; --tasks all, every one.
got=$("$CARD" --db "$adb" --compare blind_retrier gives_up_on_error |
    sed -n '/^flipped tasks/,$p')
ok "flipped tasks in text" "$(cat "$TOP_SRCDIR/tests/classes/flipped.gold")" "$got"
[ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$got" > "$TOP_SRCDIR/tests/classes/flipped.gold"
ok "--tasks all: 26 rows" "26" "$("$CARD" --db "$adb" --compare \
    blind_retrier gives_up_on_error --tasks all |
    sed -n '/^  task /,$p' | grep -c '^  t-')"
sed 's/"run":"careful"/"run":"careful-again"/' "$night/careful.jsonl" \
    > "$night/again.jsonl"
(cd "$night" && "$REPLAY" --quiet --db "$adb" again.jsonl) 2>/dev/null
ok "a compare with nothing flipped" "flipped tasks: none (every task both runs have passed as often in each)" \
    "$("$CARD" --db "$adb" --compare careful careful-again 2>&1 | tail -n 1)"
ok "--tasks takes all" "card: --tasks takes 'all' (every flipped task), not 'some'
Try 'card --help'.
exit 2" "$("$CARD" --db "$adb" --compare a b --tasks some 2>&1; echo "exit $?")"
ok "--tasks goes with --compare" "card: --tasks all goes with --compare RUN_A RUN_B, --trend or --flaky
Try 'card --help'.
exit 2" "$("$CARD" --db "$adb" careful --tasks all 2>&1; echo "exit $?")"

# Usage by task: the agents' night and the observed night (three trials
# a task) with the tokens and seconds a harness logs, some left out
# (tests/add_usage.py); every figure of each compare what
# tests/usage_oracle.py computes from the episodes.
udb=$TEST_TMP/usage.db
mkdir -p "$TEST_TMP/uobs/observed" && cp -R "$TOP_SRCDIR/samples/tools" "$TEST_TMP/uobs/" || exit 99
"$PYTHON3" "$TOP_SRCDIR/tests/add_usage.py" 1 < "$night/careful.jsonl" > "$night/u-careful.jsonl" &&
    "$PYTHON3" "$TOP_SRCDIR/tests/add_usage.py" 1.5 < "$night/blind_retrier.jsonl" > "$night/u-blind.jsonl" &&
    "$PYTHON3" "$TOP_SRCDIR/tests/add_usage.py" 1 < "$TOP_SRCDIR/samples/observed/steady.jsonl" > "$TEST_TMP/uobs/observed/steady.jsonl" &&
    "$PYTHON3" "$TOP_SRCDIR/tests/add_usage.py" 0.5 < "$TOP_SRCDIR/samples/observed/erratic.jsonl" > "$TEST_TMP/uobs/observed/erratic.jsonl" || exit 99
(cd "$night" && "$REPLAY" --quiet --db "$udb" u-careful.jsonl u-blind.jsonl) 2>/dev/null
(cd "$TEST_TMP/uobs" && "$REPLAY" --quiet --db "$udb" observed) 2>/dev/null
"$CARD" --db "$udb" --json --compare careful blind_retrier > "$TEST_TMP/u1.json"
"$CARD" --db "$udb" --json --compare steady erratic > "$TEST_TMP/u2.json"
ok "usage by task, simulated, from the episodes" "tokens careful blind_retrier: 34 tasks, as the card says
seconds careful blind_retrier: 32 tasks, as the card says" \
    "$("$PYTHON3" "$TOP_SRCDIR/tests/usage_oracle.py" "$udb" careful blind_retrier "$TEST_TMP/u1.json" 2>&1)"
ok "usage by task, observed trials, from the episodes" "tokens steady erratic: 16 tasks, as the card says
seconds steady erratic: 16 tasks, as the card says" \
    "$("$PYTHON3" "$TOP_SRCDIR/tests/usage_oracle.py" "$udb" steady erratic "$TEST_TMP/u2.json" 2>&1)"
got=$("$CARD" --db "$udb" --compare careful blind_retrier | sed -n '/^usage by task/,$p')
ok "usage by task in text" "$(cat "$TOP_SRCDIR/tests/classes/usage.gold")" "$got"
[ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$got" > "$TOP_SRCDIR/tests/classes/usage.gold"
ok "usage by task: --tasks all lists every task of each measure" "34 32" \
    "$("$CARD" --db "$udb" --compare careful blind_retrier --tasks all |
        awk '/^tokens: /{m="t"} /^seconds: /{m="s"} /^  t-/{n[m]++} END{print n["t"], n["s"]}')"
ok "usage by task in Markdown and HTML: the same figures" "| tokens | 34 | 1416 | 2127 | -711 | -998 to -424 |
<tr><td>tokens</td><td>34</td><td>1416</td><td>2127</td><td>-711</td><td>-998 to -424</td></tr>" \
    "$("$CARD" --db "$udb" --markdown --compare careful blind_retrier | grep '^| tokens |'
      "$CARD" --db "$udb" --html --compare careful blind_retrier | grep -o '<tr><td>tokens</td>[^\n]*</tr>')"
ok "no usage logged: no usage section" "0" \
    "$("$CARD" --db "$adb" --compare careful blind_retrier | grep -c '^usage by task')"
# one task both runs give a figure for: no interval
sqlite3 "$udb" "UPDATE episode_rows SET duration = NULL WHERE run_id = (SELECT run_id FROM runs WHERE run = 'erratic')
    AND task_name <> (SELECT min(task_name) FROM episode_rows WHERE duration IS NOT NULL
        AND run_id = (SELECT run_id FROM runs WHERE run = 'erratic'))"
"$CARD" --db "$udb" --json --compare steady erratic > "$TEST_TMP/u3.json"
ok "one task: a mean difference and no interval" "tokens steady erratic: 16 tasks, as the card says
seconds steady erratic: 1 task, as the card says
seconds 1" \
    "$("$PYTHON3" "$TOP_SRCDIR/tests/usage_oracle.py" "$udb" steady erratic "$TEST_TMP/u3.json" 2>&1
      "$CARD" --db "$udb" --compare steady erratic | grep '^  seconds ' | grep -- '- (one task)' | awk '{print $1, $2}')"

# The night make bench-report measures: nightgen --same-tasks gives
# every run the same tasks (without it, none are shared).
for same in --same-tasks ""; do
    rm -rf "$TEST_TMP/ng" "$TEST_TMP/ng.db"
    # shellcheck disable=SC2086
    "${NIGHTGEN:?}" $same --episodes 96 --runs 2 "$TEST_TMP/ng" \
        "$TOP_SRCDIR/samples/tools/shop.json" > /dev/null || exit 99
    "$REPLAY" --quiet --any-tools-path --db "$TEST_TMP/ng.db" "$TEST_TMP/ng" 2>/dev/null
    ok "nightgen ${same:-(no option)}: the tasks both runs have" \
        "$([ -n "$same" ] && echo 48 || echo 0)" \
        "$("$CARD" --db "$TEST_TMP/ng.db" --json --compare r00-careful r01-blind_retrier |
            "$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["flipped"]["shared"])')"
done

# One episode: its class in a sentence, its task, every call in order
# and its dial events; the logged answer beside the simulator's where
# they differ.
got=$(cd "$TOP_SRCDIR" && "$CARD" --db "$db" --episode duplicated)
ok "an episode, as text" "$(cat "$TOP_SRCDIR/tests/classes/episode-duplicated.gold")" "$got"
[ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$got" > "$TOP_SRCDIR/tests/classes/episode-duplicated.gold"
ok "a diverged call: both answers" '     answer    {"id":"Z-0362","ok":true}
     logged    {"id":"Z-0999","ok":true}
               (the logged answer differs from the simulator'"'"'s)' \
    "$("$CARD" --db "$db" --episode diverged | sed -n '/^  1 /,/^  2 /p' | sed '1d;$d;/sent/d')"
ok "an observed episode's sentence" "  Failed: failed, the harness said failure (call 1, refund_order, error
  invalid_arguments)." \
    "$("$CARD" --db "$db" --episode observed-fail | sed -n '2,3p')"
# every episode in JSON: its class, and each of its calls, as the
# database holds them
for e in $(sqlite3 "$db" "SELECT episode FROM episode_rows ORDER BY episode_id"); do
    "$CARD" --db "$db" --json --episode "$e" || echo "card failed on $e"
done > "$TEST_TMP/episodes.jsonl"
ok "every episode in JSON: its class and calls, as the tables hold them" \
    "18 episodes, 30 calls, as the tables hold them" \
    "$("$PYTHON3" -c '
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = calls = 0
for line in open(sys.argv[2]):
    v = json.loads(line)
    cls = db.execute("SELECT class FROM episode_outcomes WHERE run = ? AND "
                     "episode = ?", (v["run"], v["episode"])).fetchone()[0]
    rows = db.execute("SELECT seq, tool, arguments, answer, logged_answer, "
                      "effect, error FROM calls WHERE run = ? AND episode = ? "
                      "ORDER BY seq", (v["run"], v["episode"])).fetchall()
    got = [(c["seq"], c["tool"], c["arguments"], c["answer"],
            c["logged_answer"], c["effect"], c["error"]) for c in v["calls"]]
    if cls != v["class"] or [tuple(r) for r in rows] != got:
        print("FAIL", v["episode"])
    n += 1
    calls += len(got)
print("%d episodes, %d calls, as the tables hold them" % (n, calls))' \
        "$db" "$TEST_TMP/episodes.jsonl")"
ok "no such episode" "card: no episode is named \"nope\"; card --list lists the runs, and sqlite3 DB \"SELECT episode FROM episodes WHERE run = 'RUN'\" a run's episodes
exit 2" "$("$CARD" --db "$db" --episode nope 2>&1; echo "exit $?")"
ok "an episode two runs have: name the run" "card: 2 runs have an episode \"careful-base-s1\" (careful, careful-again): name the run too, card --episode \"careful-base-s1\" RUN
exit 2" "$("$CARD" --db "$adb" --episode careful-base-s1 2>&1; echo "exit $?")"
ok "... and with the run, it is found" "episode: careful-base-s1 (run careful-again)" \
    "$("$CARD" --db "$adb" --episode careful-base-s1 careful-again | head -n 1)"
ok "an episode the run has not" "card: run \"careful\" has no episode \"observed-cut\"; the runs that have one: classes
exit 2" "$(cp "$db" "$TEST_TMP/c2.db" && sqlite3 "$TEST_TMP/c2.db" "UPDATE runs SET run = 'classes'" &&
    "$CARD" --db "$TEST_TMP/c2.db" --episode observed-cut careful 2>&1; echo "exit $?")"
# hostile names: shown escaped, no control character printed
{
    printf '{"type":"run","run":"h\\u001b[2J","tools":"../../samples/tools/shop.json"}\n'
    printf '{"type":"episode","run":"h\\u001b[2J","episode":"e\\u202eh","seed":7,"arm":"base"}\n'
    printf '{"type":"call","run":"h\\u001b[2J","episode":"e\\u202eh","call":{"name":"x\\u001b]0;t\\u0007","arguments":{"a":"\\u001b[31m"}}}\n'
    printf '{"type":"end","run":"h\\u001b[2J","episode":"e\\u202eh","final":"\\u001b[2J"}\n'
} > "$TEST_TMP/hostile.jsonl"
mkdir -p "$TEST_TMP/a/b" && mv "$TEST_TMP/hostile.jsonl" "$TEST_TMP/a/b/" &&
    mkdir -p "$TEST_TMP/samples" && cp -R "$TOP_SRCDIR/samples/tools" "$TEST_TMP/samples/"
(cd "$TEST_TMP" && "$REPLAY" --quiet --db h.db a/b/hostile.jsonl) 2>/dev/null
got=$("$CARD" --db "$TEST_TMP/h.db" --episode "$(printf 'e\342\200\256h')")
ok "hostile names: escaped" 'episode: e\u{202e}h (run h\x1b[2J)
  Failed: unknown_tool, its last call named a tool the file has not (call 1,
  x\x1b]0;t\x07, error not_found).' "$(printf '%s\n' "$got" | sed -n '1,3p')"
ok "hostile names: no control character printed" "" \
    "$(printf '%s\n' "$got" | tr -d '\n' | LC_ALL=C grep -c '[[:cntrl:]]' | grep -v '^0$')"
ok "--episode goes alone" "card: --episode EPISODE takes at most one run (the episode's), and goes alone
Try 'card --help'.
exit 2" "$("$CARD" --db "$db" --episode x --compare a b 2>&1; echo "exit $?")"

# A database tampered with (names no replay writes: controls, escapes,
# long words), as the card fuzzer first found: the classes' arms, a
# call's error, effect and dial, a dial event's names, all shown escaped,
# and every line within --width.
cp "$db" "$TEST_TMP/t.db"
sqlite3 "$TEST_TMP/t.db" "UPDATE episode_rows SET arm = 'base' || char(10) || char(27) || '[2J' WHERE episode = 'side-effect';
    UPDATE call_rows SET error = 'e' || char(10) || char(7), effect = 'f' || char(27) || ']0;t', dial = 'landed' || char(13)
        WHERE episode_id = (SELECT episode_id FROM episode_rows WHERE episode = 'duplicated');
    UPDATE outcome_rows SET dial = 'd' || char(27) || '[31m' || replace(hex(zeroblob(40)), '0', 'x'), outcome = 'o' || char(8)
        WHERE episode_id = (SELECT episode_id FROM episode_rows WHERE episode = 'duplicated')"
got=$("$CARD" --db "$TEST_TMP/t.db" --width 60 classes; "$CARD" --db "$TEST_TMP/t.db" --width 60 --episode duplicated)
ok "tampered names: no control character printed" "0" \
    "$(printf '%s\n' "$got" | tr -d '\n' | LC_ALL=C grep -c '[[:cntrl:]]')"
ok "tampered names: every line within 60 columns" "" \
    "$(printf '%s\n' "$got" | awk 'length($0) > 60')"
ok "tampered names: shown escaped" '  side_effect            1 a write the task did not ask for;
                           base\n\x1b[2J 1
  3  refund_order  step 2  f\x1b]0;t  error e\n\x07  dial' \
    "$(printf '%s\n' "$got" | grep -A1 '^  side_effect'; printf '%s\n' "$got" | grep '^  3  refund_order')"

# The night's report: a page for each class's first episode and for
# the trials shown of each flipped task, linked from the run's and the
# compare's pages; every link reaches a page of the folder.
R=$TEST_TMP/report
got=$("$CARD" --db "$adb" --html --all -o "$R" --baseline careful 2>&1)
ok "the report's pages" "card: $R: index.html, 5 run pages, 4 compare pages, 58 episode pages; 0 pages gone removed" "$got"
ok "each flipped task's two trials linked from the compare; each failing class's first episode from the run" "16 2" \
    "$(grep -o 'href="episode-[^"]*"' "$R"/compare-blind_retrier-vs-careful-*.html | wc -l | tr -d ' ') $(grep -o 'href="episode-[^"]*"' "$R"/run-blind_retrier-*.html | wc -l | tr -d ' ')"
ok "the index: runs of the same tasks counted, named on demand" "5" \
    "$(grep -o '<details><summary>4 runs</summary>' "$R/index.html" | wc -l | tr -d ' ')"
ok "every link reaches a page" "" "$(grep -o -h 'href="[^"]*"' "$R"/*.html |
    sed 's/^href="//; s/"$//' | sort -u | while read -r f; do
        [ -f "$R/$f" ] || echo "missing: $f"; done)"

# Filtered by run, the view reads that run's episodes by index, and
# looks each call and dial event up by its key.
plan=$(sqlite3 "$adb" "EXPLAIN QUERY PLAN SELECT class, count(*)
    FROM episode_outcomes WHERE run = 'careful' GROUP BY class")
ok "episode_outcomes by run: by index" "SEARCH e USING INDEX episode_rows_by_name (run_id=?)" \
    "$(printf '%s\n' "$plan" | grep -o 'SEARCH e USING [A-Z ]*INDEX [a-z_]* ([a-z_=?]*)' | sort -u)"
ok "episode_outcomes by run: no table scanned" "" \
    "$(printf '%s\n' "$plan" | grep 'SCAN' | grep -v 'json_each')"
# So do the other views a card reads (but pass_hat_k, a recursive
# query: the card feeds its formula from trials, as sql/examples.sql
# says): no table scanned, whatever the database holds.
for v in episodes calls dial_outcomes run_summary arm_summary dial_summary trials; do
    ok "$v by run: no table scanned" "" \
        "$(sqlite3 "$adb" "EXPLAIN QUERY PLAN SELECT * FROM $v WHERE run = 'careful'" |
            grep 'SCAN' | grep -v "SCAN $v\$")"
done
# run_interval: a run's sums come from its own episodes, by index (k is
# the two kinds, j the run's rows)
ok "run_interval by run: no table scanned" "" \
    "$(sqlite3 "$adb" "EXPLAIN QUERY PLAN SELECT * FROM run_interval WHERE run = 'careful'" |
        grep 'SCAN' | grep -Ev 'SCAN (k|j|CONSTANT ROW|\(subquery-[0-9]+\))$')"
ok "card's pass^k, by run: no table scanned" "" \
    "$(sqlite3 "$adb" "EXPLAIN QUERY PLAN $(sed -n '/^WITH RECURSIVE t(kind, n, c)/,/^FROM p GROUP BY kind, k ORDER BY kind DESC, k;/p' "$TOP_SRCDIR/sql/examples.sql")" |
        grep 'SCAN' | grep -Ev 'SCAN (trials|p)$')"
ok "card's pass^k: example 11's query, as the view gives it" \
    "$(sqlite3 "$adb" "SELECT kind, k, rate, tasks FROM pass_hat_k WHERE run = 'careful' ORDER BY kind DESC, k")" \
    "$(sqlite3 "$adb" "$(sed -n '/^WITH RECURSIVE t(kind, n, c)/,/^FROM p GROUP BY kind, k ORDER BY kind DESC, k;/p' "$TOP_SRCDIR/sql/examples.sql")")"

echo "classes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
