# make bench-report: the night's report (card --html --all) on a night of
# runs that share their tasks, beside a floor measured in the same run:
# card printing, as text, every run's card and every run's compare with
# the baseline: the figures the report shows, without its pages.  The
# report's pages add to those figures the HTML, the pictures and the
# episode pages its links reach; the ratio says what that costs.
#
#   BENCH_REPORT_EPISODES  episodes of the night (default: 100000)
#   BENCH_REPORT_RUNS      runs (default: 12), every one on the same tasks
#                          (nightgen --same-tasks), played by the six
#                          scripted policies in turn
#   BENCH_REPEAT           rounds (default: 3): the fastest of each
#   BENCH_DIR              where the night and database go (default: a
#                          temporary folder, removed at the end)
#
# The goals it checks (docs/card.md, "The night's report"): the report in
# at most 1.5 times the floor; no more episode pages than its cap (14 a
# run, 200 a compare); peak memory under 64 MiB.  Make passes REPLAY,
# CARD, NIGHTGEN and TOP_SRCDIR.  Build without sanitizers (-O2).
set -eu
: "${REPLAY:?}" "${CARD:?}" "${NIGHTGEN:?}" "${TOP_SRCDIR:?}"
episodes=${BENCH_REPORT_EPISODES:-100000}
runs=${BENCH_REPORT_RUNS:-12}
repeat=${BENCH_REPEAT:-3}
for v in "$episodes" "$runs" "$repeat"; do
    case $v in
    '' | *[!0-9]* | 0)
        echo "bench-report: BENCH_REPORT_EPISODES, BENCH_REPORT_RUNS and BENCH_REPEAT are whole numbers, 1 or more" >&2
        exit 2 ;;
    esac
done
if [ -n "${BENCH_DIR:-}" ]; then
    dir=$BENCH_DIR
    mkdir -p "$dir"
else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/taskreplay-bench-report.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
fi
if nm "$CARD" 2>/dev/null | grep -q __asan_init; then
    echo "WARNING: card is built with AddressSanitizer; the figures are not its speed"
fi

echo "== a night of $episodes episodes in $runs runs on the same tasks"
rm -rf "$dir/night" "$dir/r.db" "$dir/r.db-wal" "$dir/r.db-shm"
"$NIGHTGEN" --same-tasks --seed 1 --episodes "$episodes" --runs "$runs" \
    "$dir/night" "$TOP_SRCDIR/samples/tools/shop.json" > /dev/null
"$REPLAY" --quiet --db "$dir/r.db" --any-tools-path "$dir/night"
base=$(sqlite3 "$dir/r.db" "SELECT run FROM runs ORDER BY run LIMIT 1")
all=$(sqlite3 "$dir/r.db" "SELECT run FROM runs ORDER BY run")
echo "database: $(stat -c %s "$dir/r.db") bytes; baseline $base"

# now: seconds since the epoch, to the nanosecond
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }

floor_best="" report_best="" peak=0
i=0
while [ "$i" -lt "$repeat" ]; do
    sync
    start=$(now)
    for r in $all; do
        "$CARD" --db "$dir/r.db" "$r" > /dev/null
        [ "$r" = "$base" ] || "$CARD" --db "$dir/r.db" --compare "$r" "$base" > /dev/null
    done
    floor=$(since "$start")
    rm -rf "$dir/report"
    sync
    start=$(now)
    /usr/bin/time -f '%M' -o "$dir/report.rss" "$CARD" --db "$dir/r.db" --html --all \
        -o "$dir/report" --baseline "$base" 2> "$dir/report.err"
    report=$(since "$start")
    rss=$(tail -n 1 "$dir/report.rss")
    [ "$rss" -gt "$peak" ] && peak=$rss
    echo "round $((i + 1)): floor $floor s, report $report s"
    floor_best=$(awk -v a="$floor_best" -v b="$floor" 'BEGIN { print (a == "" || b < a) ? b : a }')
    report_best=$(awk -v a="$report_best" -v b="$report" 'BEGIN { print (a == "" || b < a) ? b : a }')
    i=$((i + 1))
done
grep '^card: ' "$dir/report.err" | tail -n 1

pages=$(find "$dir/report" -name '*.html' | wc -l)
eps=$(find "$dir/report" -name 'episode-*.html' | wc -l)
cmps=$(find "$dir/report" -name 'compare-*.html' | wc -l)
bytes=$(find "$dir/report" -name '*.html' -printf '%s\n' | awk '{ s += $1 } END { print s }')
largest=$(find "$dir/report" -name '*.html' -printf '%s %f\n' | sort -n | tail -n 1 |
    awk '{ print $2 ", " $1 " bytes" }')
echo
echo "== the fastest of $repeat rounds"
printf '%-26s %9s\n' "" seconds
printf '%-26s %9s\n' "floor (every text card)" "$floor_best"
printf '%-26s %9s\n' "card --html --all" "$report_best"
echo "pages: $pages ($eps episode pages, $cmps compare pages), $bytes bytes"
echo "the largest: $largest"
echo "peak memory of the report: $((peak / 1024)) MiB"
echo
echo "== the goals (docs/card.md, \"The night's report\")"
awk -v f="$floor_best" -v r="$report_best" -v eps="$eps" -v runs="$runs" \
    -v cmps="$cmps" -v peak="$peak" '
    function say(what, ok) { printf "%-60s %s\n", what, ok ? "met" : "NOT MET" }
    BEGIN {
        f = f < 0.01 ? 0.01 : f
        say(sprintf("the report <= 1.5x the floor: %.2fx", r / f), r / f <= 1.5)
        cap = 14 * runs + 200 * cmps
        say(sprintf("episode pages <= the cap (%d): %d", cap, eps), eps <= cap)
        say(sprintf("peak memory < 64 MiB: %.1f", peak / 1024), peak / 1024 < 64)
    }'
