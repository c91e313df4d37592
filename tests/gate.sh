# card --gate and card --junit, for a CI job:
#  - the exit status on nights built to regress (careful, then a blind
#    retrier on the same tasks: 1), improve (the reverse: 0), stay level
#    (a copy: 0), be incomparable (a reformatted file: 4), hold no task
#    of the base (other tasks: 7); --max-drop moves the line;
#  - tasks the new run lacks count as failed (--missing fail, the
#    default) exactly as tasks it failed would: the gate of a run cut
#    short equals the gate, and the paired compare, of the same run with
#    those tasks failed; --missing ignore leaves them out;
#  - the gate's drop and interval are the paired compare's, on the
#    observed night's trials too (clustered by task);
#  - every JUnit report is valid against tests/junit.xsd (xmllint
#    --schema), and read back by a JUnit reader from npm (junit2json,
#    tests/mcp/junit_read.mjs) case for case as tests/junit_oracle.py
#    computes from the tables; hostile names give well-formed XML;
#  - one report's exact bytes (tests/gate/classes.junit.gold);
#  - many runs against one baseline in the night's index: McNemar's p of
#    each adjusted by Holm's method as computed here, and the runs
#    grouped by what survives;
#  - a verdict on too few tasks says so (3 tasks, 1 task, not 48);
#  - usage errors, each in one line.
# make check provides REPLAY, CARD, AGENTS, PYTHON3 and TOP_SRCDIR.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
need_cmd xmllint libxml2-utils
skip_unless_python
mcp_node
[ -d "$TOP_SRCDIR/tests/mcp/node_modules/junit2json" ] ||
    lack "the JUnit reader in tests/mcp/node_modules (npm ci in tests/mcp)"
: "${CARD:?}" "${AGENTS:?}"
export SOURCE_DATE_EPOCH=1790000000
pass=0 fail=0
ok() { if check_eq "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

# The scripted agents on the same tasks (seeds 1 and 2, every arm).
night=$TEST_TMP/night
agents_night "$night" careful blind_retrier
# a copy; the run cut short (its faults arm's eight episodes gone); the
# same with those eight failed (their calls gone: the writes never made)
sed 's/"run":"careful"/"run":"copy"/' "$night/careful.jsonl" > "$night/copy.jsonl"
grep -v '"episode":"careful-faults:' "$night/careful.jsonl" |
    sed 's/"run":"careful"/"run":"short"/' > "$night/short.jsonl"
grep -v '"type":"call".*"episode":"careful-faults:' "$night/careful.jsonl" |
    sed 's/"run":"careful"/"run":"broken"/' > "$night/broken.jsonl"
# three tasks of each agent, and one: too little data to tell them apart
for t in "tiny-a careful 'base-s1|depth:d1-s1|faults:f1-s1'" "tiny-b blind_retrier 'base-s1|depth:d1-s1|faults:f1-s1'" \
    "one-a careful 'base-s1'" "one-b blind_retrier 'base-s1'"; do
    eval "set -- $t"
    grep -E "\"type\":\"run\"|-($3)\"" "$night/$2.jsonl" |
        sed "s/\"run\":\"$2\"/\"run\":\"$1\"/" > "$night/$1.few"
done
db=$TEST_TMP/g.db
(cd "$night" && "$REPLAY" --quiet --db "$db" ./*.jsonl) 2>/dev/null
fdb=$TEST_TMP/few.db
(cd "$night" && "$REPLAY" --quiet --db "$fdb" ./*.few) 2>/dev/null
ok "eight tasks cut short, eight failed" "40|48|40" \
    "$(sqlite3 "$db" "SELECT (SELECT count(*) FROM trials WHERE run = 'short'),
        (SELECT count(*) FROM trials WHERE run = 'broken'),
        (SELECT sum(passes) FROM trials WHERE run = 'broken')")"

# gate BASE NEW [OPTION...]: the gate's text, then its exit status
gate() {
    g_base=$1 g_new=$2
    shift 2
    "$CARD" --db "$db" --gate --compare "$g_base" "$g_new" "$@" 2>&1
    echo "exit $?"
}
ok "a regression: exit 1" "gate: failed: blind_retrier fell behind careful by 16.7 percentage points of
  pass rate (95% CI +8.0 to +29.6), more than the 0.0 allowed, on 48 tasks.
exit 1" "$(gate careful blind_retrier | sed -n '1,2p;$p')"
ok "an improvement: exit 0" "gate: passed: careful is not shown behind blind_retrier by more than 0.0
  percentage points of pass rate: blind_retrier - careful = -16.7 (95% CI -29.6
  to -8.0), on 48 tasks.
exit 0" "$(gate blind_retrier careful | sed -n '1,3p;$p')"
ok "level: exit 0, nothing flipped" "gate: passed: copy is not shown behind careful by more than 0.0 percentage
  points of pass rate: careful - copy = +0.0 (95% CI -7.4 to +7.4), on 48 tasks.

flipped tasks: none (every task both runs have passed as often in each)
exit 0" "$(gate careful copy)"
ok "--max-drop 20: the drop's interval reaches below it, exit 0" "exit 0" \
    "$(gate careful blind_retrier --max-drop 20 | tail -n 1)"
ok "--max-drop 5: above it, exit 1" "exit 1" \
    "$(gate careful blind_retrier --max-drop 5 | tail -n 1)"
ok "the flipped tasks follow the verdict" "flipped tasks: 8 (passed more often in A: 8; in B: 0)" \
    "$(gate careful blind_retrier | grep '^flipped')"

# a run cut short: the missing tasks fail, as failed tasks do
ok "tasks missing: counted as failed, and named" "gate: failed: short fell behind careful by 16.7 percentage points of pass rate
  (95% CI +8.0 to +29.6), more than the 0.0 allowed, on 48 tasks (8 of them
  missing from short, counted as failed).
missing from short: 8 tasks (counted as failed): t-18526165ff6dbeef,
  t-25c9062a8fc3ec12, t-422d11a12cffe10b, t-7962075990b907ff,
  t-8e6beb2ac00d8b91, t-8f6417dc42180dc6, t-c72adec924441154, t-eab651597455b8e8
exit 1" "$(gate careful short | sed -n '1,3p;/^missing/,$p')"
got=$("$CARD" --db "$db" --json --gate --compare careful short |
    "$PYTHON3" -c 'import json, sys; g = json.load(sys.stdin)["gate"]; print(g["drop"], g["ci95"], g["method"])')
ok "missing as failed: the gate of the run with those tasks failed" \
    "$("$CARD" --db "$db" --json --gate --compare careful broken |
        "$PYTHON3" -c 'import json, sys; g = json.load(sys.stdin)["gate"]; print(g["drop"], g["ci95"], g["method"])')" "$got"
ok "... and its paired compare's" \
    "$("$CARD" --db "$db" --json --compare careful broken |
        "$PYTHON3" -c 'import json, sys; p = json.load(sys.stdin)["paired"][0]; print(p["difference"], p["ci95"], p["method"])')" "$got"
ok "--missing ignore: left out, exit 0" "gate: passed: short is not shown behind careful by more than 0.0 percentage
  points of pass rate: careful - short = +0.0 (95% CI -8.8 to +8.8), on 40 tasks
  (8 more of careful's missing from short, left out).
exit 0" "$(gate careful short --missing ignore | sed -n '1,3p;$p')"

# not judged: runs that cannot be compared (4), or no task in common (7)
tdb=$TEST_TMP/t.db
(cd "$TOP_SRCDIR/samples/night" && "$REPLAY" --quiet --db "$tdb" .) 2>/dev/null
got=$("$CARD" --db "$tdb" --gate --compare careful careful-reformatted 2>&1; echo "exit $?")
ok "a reformatted file: not judged, exit 4" "gate: not judged: compare: careful (A) and careful-reformatted (B)
exit 4" "$(printf '%s\n' "$got" | sed -n '1p;$p')"
ok "... in JSON too" "not_comparable 4 False" \
    "$("$CARD" --db "$tdb" --json --gate --compare careful careful-reformatted |
        "$PYTHON3" -c 'import json, sys; j = json.load(sys.stdin); print(j["gate"]["outcome"], j["gate"]["exit"], j["compare"]["comparable"])')"
"${NIGHTGEN:?}" --episodes 48 --runs 2 "$TEST_TMP/ng" "$TOP_SRCDIR/samples/tools/shop.json" > /dev/null || exit 99
"$REPLAY" --quiet --any-tools-path --db "$TEST_TMP/ng.db" "$TEST_TMP/ng" 2>/dev/null
ok "no task in common: not judged, exit 7" "gate: not judged: r01-blind_retrier has no task of r00-careful with a measured
  pass, so there is nothing to pair (runs of other tasks, not a run cut short).
exit 7" "$("$CARD" --db "$TEST_TMP/ng.db" --gate --compare r00-careful r01-blind_retrier 2>&1 |
    sed -n '1,2p'; "$CARD" --db "$TEST_TMP/ng.db" --gate --compare r00-careful r01-blind_retrier > /dev/null 2>&1; echo "exit $?")"

# observed trials: the harness's success, clustered by task, as the
# compare's paired row
odb=$TEST_TMP/o.db
(cd "$TOP_SRCDIR" && "$REPLAY" --quiet --db "$odb" samples/observed) 2>/dev/null
ok "observed trials: the compare's paired difference, clustered" \
    "$("$CARD" --db "$odb" --json --compare steady erratic |
        "$PYTHON3" -c 'import json, sys; p = json.load(sys.stdin)["paired"][0]; print(p["measure"], p["difference"], p["ci95"], p["method"])')" \
    "$("$CARD" --db "$odb" --json --gate --compare steady erratic |
        "$PYTHON3" -c 'import json, sys; g = json.load(sys.stdin)["gate"]; print(g["measure"], g["drop"], g["ci95"], g["method"])')"
ok "observed trials: no drop shown, exit 0" "exit 0" \
    "$("$CARD" --db "$odb" --gate --compare steady erratic > /dev/null 2>&1; echo "exit $?")"
# one task of three trials on each side: no interval, so not judged
mkdir -p "$TEST_TMP/one/observed" && cp -R "$TOP_SRCDIR/samples/tools" "$TEST_TMP/one/" || exit 99
for r in steady erratic; do
    grep -e '"type":"run"' -e '"episode":"s1-base-t' "$TOP_SRCDIR/samples/observed/$r.jsonl" \
        > "$TEST_TMP/one/observed/$r.jsonl"
done
(cd "$TEST_TMP/one" && "$REPLAY" --quiet --db one.db observed) 2>/dev/null
ok "one task of several trials: not judged, exit 7" "gate: not judged: one task of several trials gives no interval to judge erratic
  by.
exit 7" "$("$CARD" --db "$TEST_TMP/one/one.db" --gate --compare steady erratic 2>&1 | sed -n '1,2p'
    "$CARD" --db "$TEST_TMP/one/one.db" --gate --compare steady erratic > /dev/null 2>&1; echo "exit $?")"

# JUnit: valid, read back case for case as the tables say
junit() { # NAME DB ARGS...: writes $TEST_TMP/NAME.xml
    j_name=$1 j_db=$2
    shift 2
    "$CARD" --db "$j_db" --junit "$TEST_TMP/$j_name.xml" "$@" > /dev/null 2> "$TEST_TMP/$j_name.err"
}
junit careful "$db" careful
junit blind "$db" blind_retrier
junit regress "$db" --gate --compare careful blind_retrier
junit short "$db" --gate --compare careful short
junit short-ignore "$db" --gate --compare careful short --missing ignore
junit improve "$db" --compare blind_retrier careful
junit steady "$odb" steady
junit observed "$odb" --compare steady erratic
reports="careful blind regress short short-ignore improve steady observed"
for r in $reports; do
    ok "$r: valid against tests/junit.xsd" "$TEST_TMP/$r.xml validates" \
        "$(xmllint --noout --schema "$TOP_SRCDIR/tests/junit.xsd" "$TEST_TMP/$r.xml" 2>&1)"
done
read_back() { timeout 120 "$NODE" "$TOP_SRCDIR/tests/mcp/junit_read.mjs" "$@" 2>&1; }
oracle() { "$PYTHON3" "$TOP_SRCDIR/tests/junit_oracle.py" "$@" 2>&1; }
ok "careful alone, read back" "$(oracle "$db" careful)" "$(read_back "$TEST_TMP/careful.xml")"
ok "blind_retrier alone, read back" "$(oracle "$db" blind_retrier)" "$(read_back "$TEST_TMP/blind.xml")"
ok "a regression, read back" "$(oracle "$db" careful blind_retrier)" "$(read_back "$TEST_TMP/regress.xml")"
ok "a run cut short, read back" "$(oracle "$db" careful short)" "$(read_back "$TEST_TMP/short.xml")"
ok "... its missing tasks left out, read back" "$(oracle "$db" careful short ignore)" "$(read_back "$TEST_TMP/short-ignore.xml")"
ok "an improvement, read back" "$(oracle "$db" blind_retrier careful)" "$(read_back "$TEST_TMP/improve.xml")"
ok "observed trials alone, read back" "$(oracle "$odb" steady)" "$(read_back "$TEST_TMP/steady.xml")"
ok "observed trials against others, read back" "$(oracle "$odb" steady erratic)" "$(read_back "$TEST_TMP/observed.xml")"
ok "the counts a CI shows" "suite blind_retrier against careful: 48 tests, 8 failures, 0 skipped
suite short against careful: 48 tests, 8 failures, 0 skipped
suite short against careful: 48 tests, 0 failures, 8 skipped
suite erratic against steady: 16 tests, 3 failures, 0 skipped" \
    "$(read_back "$TEST_TMP/regress.xml" "$TEST_TMP/short.xml" "$TEST_TMP/short-ignore.xml" "$TEST_TMP/observed.xml" | grep '^suite')"
ok "a failure names the class and the episode" '      <failure message="regressed: 1/1 in careful, 0/1 in blind_retrier; the first failed trial: blind_retrier-baddata:b1-s1 (fooled)" type="fooled">blind_retrier-baddata:b1-s1: fooled, a write used bad data&#39;s wrong value (call 2, refund_order)' \
    "$(grep -A1 'name="t-198a3a5515ca7582"' "$TEST_TMP/regress.xml" | sed -n 2p)"
ok "two runs that cannot be compared: no report" "card: $TEST_TMP/x.xml: not written: the runs cannot be compared, so no task of one can be judged against the other's
no file" "$("$CARD" --db "$tdb" --junit "$TEST_TMP/x.xml" --compare careful careful-reformatted 2>&1 >/dev/null;
    [ -e "$TEST_TMP/x.xml" ] && echo file || echo no file)"

# One report's exact bytes: an episode of every class.
cdb=$TEST_TMP/c.db
(cd "$TOP_SRCDIR" && "$REPLAY" --quiet --db "$cdb" tests/classes/classes.jsonl) 2>/dev/null
"$CARD" --db "$cdb" --junit "$TEST_TMP/classes.xml" classes > /dev/null
ok "every class in JUnit" "$(cat "$TOP_SRCDIR/tests/gate/classes.junit.gold")" "$(cat "$TEST_TMP/classes.xml")"
[ "${UPDATE_GOLDEN:-}" = 1 ] && cp "$TEST_TMP/classes.xml" "$TOP_SRCDIR/tests/gate/classes.junit.gold"
ok "every class, valid" "$TEST_TMP/classes.xml validates" \
    "$(xmllint --noout --schema "$TOP_SRCDIR/tests/junit.xsd" "$TEST_TMP/classes.xml" 2>&1)"
ok "every class, read back" "$(oracle "$cdb" classes)" "$(read_back "$TEST_TMP/classes.xml")"

# Hostile names: controls, a right-to-left override, markup, the end of
# a CDATA section, quotes, U+FFFF (which XML cannot hold), bytes that are
# not UTF-8: well-formed, valid, and read back with the names escaped.
mkdir -p "$TEST_TMP/h" && cp "$TOP_SRCDIR/samples/tools/shop.json" "$TEST_TMP/h/" || exit 99
"$PYTHON3" - "$TEST_TMP/h/h.jsonl" <<'PY'
import json, sys
run = "r\u001b[2J<b>&\"'\u202e]]>\uffff"
lines = [{"type": "run", "run": run, "tools": "shop.json", "model": "m\u0007<x>"},
         {"type": "episode", "run": run, "episode": "e\u0007\uffff]]>", "task_name": "t<\u0001>&amp;"},
         {"type": "end", "run": run, "episode": "e\u0007\uffff]]>", "success": False}]
open(sys.argv[1], "w").write("".join(json.dumps(l) + "\n" for l in lines))
PY
(cd "$TEST_TMP/h" && "$REPLAY" --quiet --db h.db h.jsonl) 2>/dev/null
# a byte that is not UTF-8, which replay never writes: by hand
sqlite3 "$TEST_TMP/h/h.db" "UPDATE episode_rows SET task_name = task_name || CAST(x'ff' AS TEXT)"
hrun=$(sqlite3 "$TEST_TMP/h/h.db" "SELECT run FROM runs")
"$CARD" --db "$TEST_TMP/h/h.db" --junit "$TEST_TMP/h.xml" -- "$hrun" > /dev/null 2>&1
ok "hostile names: valid" "$TEST_TMP/h.xml validates" \
    "$(xmllint --noout --schema "$TOP_SRCDIR/tests/junit.xsd" "$TEST_TMP/h.xml" 2>&1)"
ok "hostile names: read back escaped" 'suite r\x1b[2J<b>&"'"'"'\u{202e}]]>\u{ffff}: 1 tests, 1 failures, 0 skipped
r\x1b[2J<b>&"'"'"'\u{202e}]]>\u{ffff} | t<\x01>&amp;\xff | failed failed' "$(read_back "$TEST_TMP/h.xml")"
ok "hostile names: no raw control character in the file" "0" \
    "$(tr -d '\n' < "$TEST_TMP/h.xml" | LC_ALL=C grep -c '[[:cntrl:]]')"

# Many runs against one baseline: the night's index adjusts McNemar's p
# of every paired compare by Holm's method, as computed here from each
# compare's --json, and groups the runs by what survives.
"$CARD" --db "$db" --html --all -o "$TEST_TMP/report" --baseline careful 2>/dev/null
got=$("$PYTHON3" - "$TEST_TMP/report/index.html" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
for row in re.findall(r'<tr><td class="run">(.*?)</tr>', page, re.S):
    run = html.unescape(re.sub(r"<[^>]*>", "", re.search(r"<a [^>]*>(.*?)</a>", row).group(1)))
    m = re.search(r"Holm: p = ([^,<]+), ([a-z ]+)</span>", row)
    if m:
        print(run, m.group(1), m.group(2))
print(html.unescape(re.sub(r"<[^>]*>", "", re.search(r'<p class="note holm">(.*?)</p>', page, re.S).group(1))))
PY
)
want=$(for r in blind_retrier broken copy short; do
        printf '%s ' "$r"; "$CARD" --db "$db" --json --compare "$r" careful
    done | "$PYTHON3" -c '
import json, sys
rows = []
for line in sys.stdin:
    run, doc = line.split(" ", 1)
    rows.append((run, json.loads(doc)["verdict"]["mcnemar_p"]))
m = len(rows)
order = sorted(range(m), key=lambda i: (rows[i][1], i))
adj, running = [0.0] * m, 0.0
for rank, i in enumerate(order):
    running = max(running, min(1.0, (m - rank) * rows[i][1]))
    adj[i] = running
for (run, p), a in zip(rows, adj):
    print(run, a, "a difference" if a < 0.05 else "not told apart")')
# the page shows 3 digits: equal within them
ok "Holm over the night: each run's adjusted p, as computed from its compare" \
    "blind_retrier a difference
broken a difference
copy not told apart
short not told apart" "$(printf '%s\n' "$got" | sed '$d' | sort | "$PYTHON3" -c '
import sys
want = {l.split(" ", 2)[0]: l.split(" ", 2)[1:] for l in sys.argv[1].splitlines()}
for line in sys.stdin:
    run, p, words = line.rstrip("\n").split(" ", 2)
    a, w = want.get(run, ("nan", "?"))
    print(run, words if abs(float(p) - float(a)) <= 5e-3 * max(float(a), 1e-9) and words == w
          else "differs: page %s %s, computed %s %s" % (p, words, a, w))' "$want")"
ok "Holm over the night: the runs in groups" "Against careful, after Holm's correction of McNemar's p over the 4 paired compares (a difference when the adjusted p is below 0.05): behind it: blind_retrier, broken; not told apart from it: copy, short." \
    "$(printf '%s\n' "$got" | tail -n 1)"

# Too little data: a verdict on 3 shared tasks, or 1, says so instead of
# "no difference" (docs/card.md: fewer than 10 tasks, or an interval
# wider than 50 points, that holds zero).
ok "3 shared tasks: too little data to tell" "Too little data to tell tiny-a from tiny-b: 3 shared tasks leave the 95% CI of
the difference in pass rate at -56.1 to +56.1 percentage points.
true" "$("$CARD" --db "$fdb" --compare tiny-a tiny-b | sed -n 2,3p
    "$CARD" --db "$fdb" --json --compare tiny-a tiny-b |
        "$PYTHON3" -c 'import json, sys; print(str(json.load(sys.stdin)["verdict"]["too_little_data"]).lower())')"
ok "1 shared task: one, not ones" "Too little data to tell one-a from one-b: 1 shared task leaves" \
    "$("$CARD" --db "$fdb" --compare one-a one-b | sed -n 2p | cut -c1-62)"
ok "48 tasks: not too little" "false" \
    "$("$CARD" --db "$db" --json --compare careful copy |
        "$PYTHON3" -c 'import json, sys; print(str(json.load(sys.stdin)["verdict"]["too_little_data"]).lower())')"

# Usage errors.
usage() { "$CARD" --db "$db" "$@" 2>&1 | head -n 1; }
ok "--gate needs --compare" "card: --gate judges two runs: card --gate --compare BASE NEW" "$(usage --gate careful)"
ok "--gate prints text or JSON" "card: --gate prints text or JSON (--junit FILE writes the tasks for a CI's test view)" \
    "$(usage --gate --markdown --compare careful copy)"
ok "--max-drop: points" "card: --max-drop takes percentage points, 0 to 100, not 'lots'" \
    "$(usage --gate --compare careful copy --max-drop lots)"
ok "--max-drop goes with --gate" "card: --max-drop goes with --gate --compare BASE NEW" \
    "$(usage --compare careful copy --max-drop 5)"
ok "--missing: fail or ignore" "card: --missing takes 'fail' (a task the new run lacks counts as failed) or 'ignore', not 'skip'" \
    "$(usage --gate --compare careful copy --missing skip)"
ok "--junit takes one run" "card: --junit FILE takes one run, or --compare BASE NEW" \
    "$(usage --junit x.xml careful copy)"
ok "--junit: a file that cannot be written" "card: cannot write $TEST_TMP/no/such/x.xml: No such file or directory; nothing was written
exit 3" "$("$CARD" --db "$db" --junit "$TEST_TMP/no/such/x.xml" careful 2>&1 >/dev/null; echo "exit $?")"

echo "gate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
