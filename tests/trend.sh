# card --trend and --flaky: nights over time in one database.
#  - eight nights of the scripted agents, replayed a day apart, on the
#    same tasks (blind_retrier, careful, careful, blind_retrier,
#    blind_retrier, sloppy_arguments), then one on the same tools in MCP
#    laid out otherwise (another file, the same contract: a new series),
#    then observed nights (another measure: the harness's success) on the
#    shop's tools and on fewer tools (another contract);
#  - the text, exactly (tests/trend/trend.gold); every figure of --json
#    what tests/trend_oracle.py computes from the tables: the runs and
#    their order, where a series starts again and why, each task failing
#    in the last series and the night its failing began;
#  - card --flaky: tasks whose trials disagree within a run, and whose
#    outcome changed twice or more across a series' nights, as
#    tests/trend_oracle.py --flaky computes them; a run's card counts its
#    own;
#  - the night's index draws the same trend, and lists the failing;
#  - runs named by the beginning of their name; --list's success;
#  - a pattern and --model choose the runs; --tasks all; usage errors.
# make check provides REPLAY, CARD, AGENTS, PYTHON3 and TOP_SRCDIR.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
skip_unless_python
: "${CARD:?}" "${AGENTS:?}"
pass=0 fail=0
ok() { if check_eq "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

night=$TEST_TMP/night
agents_night "$night" careful blind_retrier sloppy_arguments
db=$TEST_TMP/t.db
day=0
# replayed DAY: replays FILE as run NAME, replayed on that day
replayed() {
    day=$((day + 1))
    sed "s/\"run\":\"$2\"/\"run\":\"$3\"/" "$night/$1" > "$night/$3.jsonl"
    (cd "$night" && SOURCE_DATE_EPOCH=$((1790000000 + day * 86400)) \
        "$REPLAY" --quiet --db "$db" "$3.jsonl") 2>/dev/null
}
i=0
for p in blind_retrier careful careful blind_retrier blind_retrier sloppy_arguments; do
    i=$((i + 1))
    replayed "$p.jsonl" "$p" "night-$i"
done
# the same tools laid out otherwise: another file, the same contract
"$PYTHON3" -c '
import json, sys
json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=4)' \
    "$TOP_SRCDIR/samples/tools/shop.json" "$night/tools/shop-wide.json" || exit 99
(cd "$night" && AGENTS_TRANSCRIPT=wide.tmp AGENTS_RUN=night-7 \
    AGENTS_MODEL=scripted-blind_retrier "$AGENTS" "$REPLAY" \
    tools/shop-wide.json 1 all blind_retrier > /dev/null) || exit 99
awk '!(index($0, "{\"type\":\"run\",") == 1 && seen[$0]++)' "$night/wide.tmp" > "$night/wide.jsonl"
replayed wide.jsonl night-7 night-7
# observed nights: on the shop's tools, then on all but one (another
# contract)
mkdir -p "$TEST_TMP/observed" || exit 99
sed 's/"run":"steady"/"run":"obs"/' "$TOP_SRCDIR/samples/observed/steady.jsonl" > "$night/obs.src"
"$PYTHON3" -c '
import json, sys
tools = json.load(open(sys.argv[1]))
json.dump([t for t in tools if t["function"]["name"] != "list_channels"], open(sys.argv[2], "w"))' \
    "$TOP_SRCDIR/samples/tools/shop.json" "$night/tools/shop-less.json" || exit 99
sed 's|"tools":"../tools/shop.json"|"tools":"tools/shop.json"|' "$night/obs.src" > "$night/obs-a.src"
sed 's|"tools":"../tools/shop.json"|"tools":"tools/shop-less.json"|' "$night/obs.src" > "$night/obs-b.src"
replayed obs-a.src obs obs-1
replayed obs-b.src obs obs-2

ok "every night replayed" "9" "$(sqlite3 "$db" "SELECT count(*) FROM runs")"
got=$("$CARD" --db "$db" --trend)
ok "the trend, as text" "$(cat "$TOP_SRCDIR/tests/trend/trend.gold")" "$got"
[ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$got" > "$TOP_SRCDIR/tests/trend/trend.gold"
"$CARD" --db "$db" --json --trend > "$TEST_TMP/all.json"
ok "every night: as the tables say" "trend: 9 runs, 4 failing in the last series (from obs-2): as the card says" \
    "$("$PYTHON3" "$TOP_SRCDIR/tests/trend_oracle.py" "$db" "$TEST_TMP/all.json" 2>&1)"
"$CARD" --db "$db" --json --trend 'night-[1-6]' > "$TEST_TMP/six.json"
ok "the first six nights: as the tables say" "trend: 6 runs, 48 failing in the last series (from night-1): as the card says" \
    "$("$PYTHON3" "$TOP_SRCDIR/tests/trend_oracle.py" "$db" "$TEST_TMP/six.json" 'night-[1-6]' 2>&1)"
ok "since when: a task that passed, then failed for three nights" \
    "t-198a3a5515ca7582 night-4 3 True" \
    "$("$PYTHON3" -c '
import json, sys
for f in json.load(open(sys.argv[1]))["failing"]:
    if f["task"] == "t-198a3a5515ca7582":
        print(f["task"], f["since"], f["nights"], f["passed_before"])' "$TEST_TMP/six.json")"
ok "the new series, and why" "night-7 file
obs-1 measure
obs-2 contract" "$("$PYTHON3" -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    if r["new_series"]:
        print(r["run"], " ".join(r["new_series"]))' "$TEST_TMP/all.json")"
ok "--model: the runs that declare it" "night-2 night-3" \
    "$("$CARD" --db "$db" --json --trend --model scripted-careful |
        "$PYTHON3" -c 'import json, sys; print(" ".join(r["run"] for r in json.load(sys.stdin)["runs"]))')"
ok "the first 20 failing, then a count" "  and 28 more: --tasks all lists every one" \
    "$("$CARD" --db "$db" --trend 'night-[1-6]' | tail -n 1)"
ok "--tasks all: every one" "48" \
    "$("$CARD" --db "$db" --trend 'night-[1-6]' --tasks all | grep -c '^  t-')"
ok "no run matches" "trend: no run matches" "$("$CARD" --db "$db" --trend 'nope*')"
# Flaky tasks: within a run (the observed nights' trials disagree) and
# across the nights of a series (the eight tasks the blind retrier fails:
# -++-- over the first five nights, and failed by the sixth's sloppy
# agent), as the tables say.
"$CARD" --db "$db" --json --flaky > "$TEST_TMP/flaky.json"
ok "flaky: every night, as the tables say" "flaky: 9 runs, 8 within runs, 8 across nights: as the card says" \
    "$("$PYTHON3" "$TOP_SRCDIR/tests/trend_oracle.py" --flaky "$db" "$TEST_TMP/flaky.json" 2>&1)"
ok "flaky across nights: the outcomes in order" "t-198a3a5515ca7582 -++--- 2" \
    "$("$PYTHON3" -c '
import json, sys
for x in json.load(open(sys.argv[1]))["across"]:
    if x["task"] == "t-198a3a5515ca7582":
        print(x["task"], x["outcomes"], x["changes"])' "$TEST_TMP/flaky.json")"
ok "flaky, as text" "flaky tasks of 9 runs
within a run: 8 of 32 tasks of several trials passed some and failed others" \
    "$("$CARD" --db "$db" --flaky | sed -n '1,2p')"
ok "a run's card marks its flaky tasks" "  flaky: 4 of 16 tasks of several trials passed some and failed others (card
    --flaky lists them)" "$("$CARD" --db "$db" obs-1 | grep -A1 '^  flaky:')"
ok "... in JSON too" "{'count': 4, 'of': 16}" \
    "$("$CARD" --db "$db" --json obs-1 | "$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["flaky_tasks"])')"
ok "no run matches: no flaky task" "flaky: no run matches" "$("$CARD" --db "$db" --flaky 'nope*')"

# The night's index draws the trend: every run a row of the picture in
# the order replayed, a line where a series starts, the reasons listed,
# and the failing tasks with their nights, as --trend gives them.
"$CARD" --db "$db" --html --all -o "$TEST_TMP/report" 2>/dev/null
ok "the index draws the trend" "rows: night-1 night-2 night-3 night-4 night-5 night-6 night-7 obs-1 obs-2
lines between series: 3
A new series from night-7: the tool file's bytes changed (the same contract).
A new series from obs-1: another measure.
A new series from obs-2: another tool contract.
failing: s1-baddata:b1 obs-2; s1-timeouts:o1 obs-2; s2-landed:l1 obs-2; s2-timeouts:o1 obs-2" \
    "$("$PYTHON3" - "$TEST_TMP/report/index.html" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
sec = re.search(r'<section class="trend">(.*?)</section>', page, re.S).group(1)
svg = re.search(r'<svg class="wide".*?</svg>', sec, re.S).group(0)
labels = [html.unescape(t) for t in re.findall(r'<text class="lab"[^>]*>([^<]*)</text>', svg)]
print("rows:", " ".join(labels))
print("lines between series:", len(re.findall(r'<line class="grid" x1="0"', svg)))
for li in re.findall(r"<li>(.*?)</li>", sec, re.S):
    print(html.unescape(re.sub(r"<[^>]*>", "", li)))
rows = re.findall(r"<tr><td>(.*?)</td><td>.*?</td><td>(.*?)</td>", sec.split('class="failing"')[1])
print("failing:", "; ".join("%s %s" % (html.unescape(a), html.unescape(b)) for a, b in rows))
PY
)"

# Runs named as people call them: a unique beginning of the name (the
# part before Inspect's "/"), and when several runs begin so, their
# names; --list shows the harness's success of observed runs.
cp "$db" "$TEST_TMP/named.db" || exit 99
sqlite3 "$TEST_TMP/named.db" "UPDATE runs SET run = 'browser/8f3a2c' WHERE run = 'obs-2'"
ok "a run found by the part of its name before /" "card: browser/8f3a2c" \
    "$("$CARD" --db "$TEST_TMP/named.db" browser | head -n 1)"
ok "... in a compare too" "compare: obs-1 (A) and browser/8f3a2c (B)" \
    "$("$CARD" --db "$TEST_TMP/named.db" --compare obs browser 2>&1 | head -n 1)"
ok "a beginning several runs share: their names" "card: \"night-\" begins the names of several runs: night-1, night-2, night-3, night-4, night-5, night-6, night-7; name one whole
exit 2" "$("$CARD" --db "$TEST_TMP/named.db" night- 2>&1; echo "exit $?")"
ok "two beginnings of one run: not a compare" "card: --compare takes two runs, and both names given are run \"obs-1\"
exit 2" "$("$CARD" --db "$TEST_TMP/named.db" --compare obs obs-1 2>&1; echo "exit $?")"
succ=$(sqlite3 "$db" "SELECT sum(success) FROM episodes WHERE run = 'obs-1'")
ok "--list: the harness's success of observed runs" "obs-1 - $succ
night-1 40 -
browser/8f3a2c - $succ" \
    "$("$CARD" --db "$TEST_TMP/named.db" --list |
        awk '$1 == "obs-1" || $1 ~ /^browser/ || $1 == "night-1" { print $1, $4, $5 }' | sort -r)"

# trials' measured and passed read alike for both kinds of run: the
# simulator's trials and passes, the harness's judged and successes.
ok "trials: measured and passed, for both kinds" "observed|1|1
simulated|1|1" "$(sqlite3 "$db" "SELECT kind, min(measured = CASE kind WHEN 'simulated' THEN trials ELSE judged END),
    min(passed = CASE kind WHEN 'simulated' THEN passes ELSE coalesce(successes, 0) END)
    FROM trials GROUP BY kind ORDER BY kind")"
ok "trials: an observed run's passed is its successes" "$succ" \
    "$(sqlite3 "$db" "SELECT sum(passed) FROM trials WHERE run = 'obs-1'")"

usage() { "$CARD" --db "$db" "$@" 2>&1 | head -n 1; }
ok "--trend goes alone" "card: --trend takes at most one pattern of run names (and --model M), and goes alone" \
    "$(usage --trend --compare night-1 night-2)"
ok "--trend: text or JSON" "card: --trend prints text or JSON" "$(usage --trend --markdown)"
ok "--model goes with --trend" "card: --model M goes with --trend or --flaky" "$(usage --model x night-1)"
ok "--flaky goes alone" "card: --flaky takes at most one pattern of run names (and --model M), and goes alone" \
    "$(usage --flaky --trend)"

echo "trend: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
