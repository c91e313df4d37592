# make bench: replay's speed and memory on generated nights, each beside
# the floor measured in the same run on the same files (tests/bench/floor:
# parsing the JSONL with yajl's event API and inserting a row per call and
# episode into SQLite in one transaction), then two shards on two cores
# plus the merge against one process.  replay --timings gives each of its
# threads' CPU seconds: the busiest one bounds the calls per second; "db
# B/ep" is the database's size per episode.
#
#   BENCH_SIZES   episodes of each night (default: 10000 100000)
#   BENCH_SHARDS  the size for the shards run (default: the largest)
#   BENCH_DIR     where the nights and databases go (default: a temporary
#                 folder, removed at the end)
# Make passes REPLAY, NIGHTGEN, FLOOR and TOP_SRCDIR.  Build without
# sanitizers (-O2) for figures that mean something.
set -eu
: "${REPLAY:?}" "${NIGHTGEN:?}" "${FLOOR:?}" "${TOP_SRCDIR:?}"
sizes=${BENCH_SIZES:-10000 100000}
if [ -n "${BENCH_DIR:-}" ]; then
    dir=$BENCH_DIR
    mkdir -p "$dir"
else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/taskreplay-bench.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
fi
tools="$TOP_SRCDIR/samples/tools/shop.json $TOP_SRCDIR/samples/tools/shop-mcp.json $TOP_SRCDIR/samples/tools/shop-openapi.yaml"

echo "== machine"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
echo "system: $(uname -sr)"
echo "compiler: $(${CC:-cc} --version | head -1)"
echo "sqlite $(pkg-config --modversion sqlite3 2>/dev/null || echo '?'), yajl $(pkg-config --modversion yajl 2>/dev/null || echo '?')"
"$REPLAY" --version | sed 's/^/replay: /'
if nm "$REPLAY" 2>/dev/null | grep -q __asan_init; then
    echo "WARNING: replay is built with AddressSanitizer; the figures are not its speed"
fi

# run NAME CMD...: wall seconds and peak RSS (KiB) of CMD into NAME.time
run() {
    name=$1
    shift
    /usr/bin/time -f '%e %M %U %S' -o "$dir/$name.time" "$@"
}

echo
printf '%-9s %8s %9s %8s %9s %8s %8s %9s %6s %8s %8s\n' episodes lines calls \
    "replay s" "calls/s" "us/call" "peak MB" "floor s" ratio "floor/s" "db B/ep"
cpu=""
threads=""
for n in $sizes; do
    night=$dir/night-$n
    rm -rf "$night" "$dir"/*.db "$dir"/*.db-wal "$dir"/*.db-shm
    # shellcheck disable=SC2086
    "$NIGHTGEN" --seed 1 --episodes "$n" --runs 12 --files 4 "$night" $tools \
        > /dev/null
    lines=$(cat "$night"/*.jsonl | wc -l)
    run replay "$REPLAY" --quiet --timings --db "$dir/replay.db" "$night" \
        2> "$dir/replay.err"
    calls=$(sed -n 's/.*written.*; \([0-9]*\) calls;.*/\1/p' "$dir/replay.err")
    run floor "$FLOOR" "$dir/floor.db" "$night"/*.jsonl > "$dir/floor.out"
    dbsize=$(stat -c %s "$dir/replay.db")
    read -r rs rk ru rsys < "$dir/replay.time"
    read -r fs fk fu fsys < "$dir/floor.time"
    cpu="$cpu $n:$ru+$rsys/$fu+$fsys"
    threads="$threads
$(tail -n 1 "$dir/replay.err" | awk -v n="$n" -v c="$calls" '{
        r = $6 > 0 ? c / $6 : 0; w = $10 > 0 ? c / $10 : 0
        printf "%-9d %8.2f %8.2f %8.2f %10.0f %10.0f", n, $6, $10, $14, r, w }')"
    awk -v n="$n" -v l="$lines" -v c="$calls" -v rs="$rs" -v rk="$rk" \
        -v fs="$fs" -v db="$dbsize" 'BEGIN {
        rs = rs < 0.01 ? 0.01 : rs; fs = fs < 0.01 ? 0.01 : fs
        printf "%-9d %8d %9d %8.2f %9.0f %8.2f %8.1f %9.2f %6.2f %8.0f %8.0f\n",
            n, l, c, rs, c / rs, 1e6 * rs / c, rk / 1024, fs, rs / fs, c / fs,
            db / n }'
done

echo "(cpu seconds, user+system, replay/floor:$cpu)"
echo
echo "== replay's threads (replay --timings): CPU seconds of each, and the"
echo "== calls/s that thread alone would allow if it never waited"
printf '%-9s %8s %8s %8s %10s %10s' episodes reading writing copying \
    "read cap" "write cap"
echo "$threads"

n=${BENCH_SHARDS:-$(echo "$sizes" | tr ' ' '\n' | sort -n | tail -1)}
night=$dir/night-$n
if [ -d "$night" ]; then
    echo
    echo "== two shards on two cores, then the merge ($n episodes)"
    rm -f "$dir"/*.db "$dir"/*.db-wal "$dir"/*.db-shm
    start=$(date +%s.%N)
    "$REPLAY" --quiet --db "$dir/one.db" "$night" 2>/dev/null
    one=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    start=$(date +%s.%N)
    "$REPLAY" --quiet --shard 0/2 --db "$dir/s0.db" "$night" 2>/dev/null &
    "$REPLAY" --quiet --shard 1/2 --db "$dir/s1.db" "$night" 2>/dev/null &
    wait
    two=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    start=$(date +%s.%N)
    "$REPLAY" merge --quiet "$dir/merged.db" "$dir/s0.db" "$dir/s1.db"
    merge=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    awk -v one="$one" -v two="$two" -v merge="$merge" 'BEGIN {
        printf "one process %.2f s; two shards %.2f s + merge %.2f s = %.2f s; speed-up %.2fx\n",
            one, two, merge, two + merge, one / (two + merge) }'
fi
