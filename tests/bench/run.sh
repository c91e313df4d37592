# make bench: replay's speed and memory on generated nights, each beside
# the floor measured in the same run on the same files (tests/bench/floor:
# parsing the JSONL with yajl's event API and inserting a row per call and
# episode into SQLite in one transaction), then two shards on two cores
# plus the merge against one process.  replay --timings gives each of its
# threads' CPU seconds: the busiest one bounds the calls per second; "db
# B/ep" is the database's size per episode.
#
#   BENCH_SIZES   episodes of each night (default: 10000 100000)
#   BENCH_SHARDS  episodes of the night cut into 8 shards and into 2
#                 (default: 1000000; 0: none)
#   BENCH_CARDS   episodes of the database of runs of 100 whose cards
#                 are timed (default: 1000000; 0: none)
#   BENCH_HTML    0: no night's report (card --html --all) of that
#                 database, which takes minutes (default: 1)
#   BENCH_REAL    episodes written as an Inspect .eval and as OTLP GenAI
#                 spans (tests/bench/reallogs.py; default: 10000)
#   BENCH_LOGS    episodes of the night read as each log format
#                 (tests/bench/logs.py; default: the smallest size)
#   BENCH_DIR     where the nights and databases go (default: a temporary
#                 folder, removed at the end)
#   BENCH_REPEAT  rounds (default: 3), each running replay and the floor
#                 on every night; the fastest round of each is shown,
#                 with how much slower replay's slowest round was
#                 ("spread")
#   BENCH_MATCH   1 (default): in a round, a smaller night is run again
#                 and again, largest/size times, and its figures are the
#                 mean of those runs; 0: every night once a round
#
# The machine's other work makes one run vary by tens of percent: each run
# begins after a sync, so the dirty pages of the last one are not written
# out during it, and the best of several rounds is the one the least
# disturbed.  A round of a 2-second night is more likely to fall within
# one quiet stretch of the machine than a round of a 20-second one, so
# with BENCH_MATCH every size gets the same work a round (ten 100,000-
# episode nights against one of a million): the rounds of every size are
# equally long, and comparing sizes compares the nights, not the minutes.
# The fastest single run of each size is shown too, and the largest
# night is replayed once more with its reading thread sampled each second,
# to see whether it slows as the night goes on.
# The goals docs/speed.md states are checked after the rounds; those of
# shards and merge, cards and real logs at the end, each with its figure.
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

repeat=${BENCH_REPEAT:-3}
case $repeat in
'' | *[!0-9]* | 0) echo "bench: BENCH_REPEAT must be a whole number of runs, 1 or more" >&2; exit 2 ;;
esac

match=${BENCH_MATCH:-1}
case $match in
0 | 1) ;;
*) echo "bench: BENCH_MATCH must be 0 or 1" >&2; exit 2 ;;
esac
largest=$(echo "$sizes" | tr ' ' '\n' | sort -n | tail -1)

# reps N: how often a round runs the night of N episodes
reps() {
    echo $((match == 1 ? largest / $1 : 1))
}

# run NAME K CMD...: CMD K times, each on no database and after a sync;
# into NAME.time the mean wall, user and system seconds of the K runs and
# their largest peak RSS (KiB); every run's line is added to NAME.all.
# Standard error, redirected by the caller, gets each run's.
run() {
    name=$1
    k=$2
    shift 2
    : > "$dir/$name.runs"
    j=0
    while [ "$j" -lt "$k" ]; do
        rm -f "$dir"/*.db "$dir"/*.db-wal "$dir"/*.db-shm
        sync
        /usr/bin/time -f '%e %M %U %S' -o "$dir/$name.one" "$@"
        tail -n 1 "$dir/$name.one" >> "$dir/$name.runs"
        j=$((j + 1))
    done
    cat "$dir/$name.runs" >> "$dir/$name.all"
    awk '{ e += $1; if ($2 > m) m = $2; u += $3; s += $4 }
        END { printf "%.3f %d %.3f %.3f\n", e / NR, m, u / NR, s / NR }' \
        "$dir/$name.runs" > "$dir/$name.time"
}

# fastest NAME: the wall seconds of NAME's fastest single run
fastest() {
    awk 'NR == 1 || $1 < f { f = $1 } END { print f }' "$dir/$1.all"
}

# best NAME: keeps NAME.time as NAME.best when it is the fastest so far,
# and the largest peak RSS and the slowest time in NAME.worst
best() {
    if [ ! -f "$dir/$1.best" ] ||
        awk '{ t = $1 } END { exit !(t < best) }' best="$(cut -d' ' -f1 "$dir/$1.best")" "$dir/$1.time"; then
        cp "$dir/$1.time" "$dir/$1.best"
        [ -f "$dir/$1.err" ] && cp "$dir/$1.err" "$dir/$1.best.err"
    fi
    if [ -f "$dir/$1.worst" ]; then
        read -r ws wk rest < "$dir/$1.worst"
    else
        ws=0 wk=0
    fi
    read -r ts tk rest < "$dir/$1.time"
    awk -v ws="$ws" -v wk="$wk" -v ts="$ts" -v tk="$tk" \
        'BEGIN { print (ts > ws ? ts : ws), (tk > wk ? tk : wk) }' > "$dir/$1.worst"
}

# The nights first; then BENCH_REPEAT rounds, each replaying every night
# and running the floor on it, so that every size is measured across the
# whole bench and not in one stretch of the machine's mood.
for n in $sizes; do
    night=$dir/night-$n
    rm -rf "$night" "$dir"/replay-"$n".* "$dir"/floor-"$n".*
    # shellcheck disable=SC2086
    "$NIGHTGEN" --seed 1 --episodes "$n" --runs 12 --files 4 "$night" $tools \
        > /dev/null
done
i=0
while [ "$i" -lt "$repeat" ]; do
    for n in $sizes; do
        night=$dir/night-$n
        k=$(reps "$n")
        run "replay-$n" "$k" "$REPLAY" --quiet --timings --db "$dir/replay.db" \
            "$night" 2> "$dir/replay-$n.err"
        best "replay-$n"
        stat -c %s "$dir/replay.db" > "$dir/replay-$n.size"
        run "floor-$n" "$k" "$FLOOR" "$dir/floor.db" "$night"/*.jsonl > "$dir/floor.out"
        best "floor-$n"
    done
    i=$((i + 1))
done

echo
if [ "$match" = 1 ]; then
    echo "== $repeat rounds, each replaying every night and running the floor on it,"
    echo "== a night of N episodes $largest/N times (the figures: their mean), so"
    echo "== that every size's round is the same work; the fastest round of each;"
    echo "== spread: replay's slowest round against its fastest"
else
    echo "== each night replayed $repeat times, the floor as often, in rounds: the"
    echo "== fastest run of each; spread: replay's slowest run against its fastest"
fi
printf '%-9s %8s %9s %8s %9s %8s %8s %9s %6s %8s %8s %7s\n' episodes lines calls \
    "replay s" "calls/s" "us/call" "peak MB" "floor s" ratio "floor/s" "db B/ep" spread
cpu=""
percall=""
threads=""
figures=""
for n in $sizes; do
    lines=$(cat "$dir/night-$n"/*.jsonl | wc -l)
    dbsize=$(cat "$dir/replay-$n.size")
    calls=$(sed -n 's/.*written.*; \([0-9]*\) calls;.*/\1/p' "$dir/replay-$n.best.err" | head -n 1)
    read -r rs rk ru rsys < "$dir/replay-$n.best"
    read -r fs fk fu fsys < "$dir/floor-$n.best"
    read -r ws wk < "$dir/replay-$n.worst"
    cpu="$cpu $n:$ru+$rsys/$fu+$fsys"
    percall="$percall $n:$calls:$ru:$rsys"
    threads="$threads
$(grep 'CPU seconds' "$dir/replay-$n.best.err" | awk -v n="$n" -v c="$calls" '{
        rd += $6; wr += $10; cp += $14 } END {
        rd /= NR; wr /= NR; cp /= NR
        r = rd > 0 ? c / rd : 0; w = wr > 0 ? c / wr : 0
        printf "%-9d %8.2f %8.2f %8.2f %10.0f %10.0f", n, rd, wr, cp, r, w }')"
    line=$(awk -v n="$n" -v l="$lines" -v c="$calls" -v rs="$rs" -v wk="$wk" \
        -v fs="$fs" -v db="$dbsize" -v ws="$ws" 'BEGIN {
        rs = rs < 0.01 ? 0.01 : rs; fs = fs < 0.01 ? 0.01 : fs
        printf "%-9d %8d %9d %8.2f %9.0f %8.2f %8.1f %9.2f %6.2f %8.0f %8.0f %+6.0f%%\n",
            n, l, c, rs, c / rs, 1e6 * rs / c, wk / 1024, fs, rs / fs, c / fs,
            db / n, 100 * (ws - rs) / rs }')
    echo "$line"
    figures="$figures
$line"
done

echo "(cpu seconds a night in the fastest rounds, user+system, replay/floor:$cpu)"
if [ "$match" = 1 ]; then
    single=""
    for n in $sizes; do
        single="$single $n:$(fastest "replay-$n")/$(fastest "floor-$n")"
    done
    echo "(the fastest single run of each, seconds, replay/floor:$single)"
fi
echo
echo "== replay's threads (replay --timings, its fastest round): CPU seconds"
echo "== a night of each, and the calls/s that thread alone would allow if it never waited"
printf '%-9s %8s %8s %8s %10s %10s' episodes reading writing copying \
    "read cap" "write cap"
echo "$threads"

echo
echo "== the goals (docs/speed.md)"
echo "$figures" | awk -v percall="$percall" '
    NF >= 11 { n[++k] = $1; cps[$1] = $5; ratio[$1] = $9; peak[$1] = $7; fps[$1] = $10 }
    function say(what, ok) { printf "%-52s %s\n", what, ok ? "met" : "NOT MET" }
    END {
        if (100000 in cps)
            say(sprintf("calls/s at 100,000 episodes >= 150,000: %d", cps[100000]),
                cps[100000] >= 150000)
        worst = 0; top = 0
        for (i = 1; i <= k; i++) {
            if (ratio[n[i]] > worst) worst = ratio[n[i]]
            if (peak[n[i]] > top) top = peak[n[i]]
        }
        if (k) {
            say(sprintf("ratio to the floor <= 2 at every size: at most %.2f", worst), worst <= 2)
            say(sprintf("peak memory < 64 MiB at every size: at most %.1f", top), top < 64)
        }
        if ((100000 in cps) && (1000000 in cps)) {
            d = 100 * (cps[1000000] - cps[100000]) / cps[100000]
            say(sprintf("calls/s at 1,000,000 within 10%% of 100,000: %+.1f%%", d), d >= -10)
            # What the machine adds as the night grows: the change of the
            # floor over the same step, and the CPU a call of replay, user
            # (its own work) and system (the kernel: on a virtual machine,
            # filling page-cache memory not used lately can cost several
            # times more).
            m = split(percall, p, " ")
            for (i = 1; i <= m; i++) {
                split(p[i], f, ":")
                us[f[1]] = 1e6 * f[3] / f[2]; sy[f[1]] = 1e6 * f[4] / f[2]
            }
            printf "(the same step for the floor: %+.1f%%; ", 100 * (fps[1000000] / fps[100000] - 1)
            printf "replay'"'"'s CPU a call, user %.2f -> %.2f us, system %.2f -> %.2f us)\n",
                us[100000], us[1000000], sy[100000], sy[1000000]
        }
    }'

# The largest night once more, its reading thread sampled each second:
# the bytes it has read (rchar of /proc/PID/task/PID/io: the night, and
# the tool files at the start) against its CPU seconds (utime and stime
# of /proc/PID/task/PID/stat).  Were it slowed by the night's size, it
# would read fewer MB a CPU second in the last third than in the first.
echo
echo "== the reading thread through the night of $largest episodes, each second:"
echo "== MB of the night it read a CPU second"
rm -f "$dir"/*.db "$dir"/*.db-wal "$dir"/*.db-shm
sync
"$REPLAY" --quiet --db "$dir/replay.db" "$dir/night-$largest" 2>/dev/null &
pid=$!
: > "$dir/samples"
while sleep 1 && kill -0 "$pid" 2>/dev/null; do
    { r=$(awk '$1 == "rchar:" { print $2 }' "/proc/$pid/task/$pid/io") &&
        c=$(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/task/$pid/stat") &&
        echo "$r $c" >> "$dir/samples"; } 2>/dev/null || break
done
wait "$pid"
awk -v tick="$(getconf CLK_TCK)" '
    # an interval counts while the thread read; the end of a night, when
    # it waits for the writer, does not
    NR > 1 && $1 > r && $2 > c { k++; mb[k] = ($1 - r) / 1e6; cpu[k] = ($2 - c) / tick }
    { r = $1; c = $2 }
    function rate(from, to,    i, m, t) {
        for (i = from; i <= to; i++) { m += mb[i]; t += cpu[i] }
        return m / t
    }
    END {
        if (k < 6) {
            print "(too short to sample: a night of a few seconds or more is needed)"
            exit
        }
        for (i = 1; i <= k; i++) printf "%s%.0f", (i > 1 ? " " : ""), mb[i] / cpu[i]
        print ""
        third = int(k / 3); a = rate(1, third); z = rate(k - third + 1, k)
        printf "first third %.0f MB a CPU second, last third %.0f: %+.1f%%\n", a, z, 100 * (z / a - 1)
    }' "$dir/samples"

# The night of BENCH_SHARDS episodes (default: a million; 0: none) split into 8
# shards, each replayed on its own, one after the other (a machine of the
# cluster each), and merged; then into 2 shards replayed at once on the
# two cores, and merged.  Each beside one process replaying the whole
# night, measured just before; the figures go to $dir/goals for the end.
# wall CMD...: CMD's wall seconds into $dir/wall (its output kept)
wall() {
    sync
    /usr/bin/time -f '%e' -o "$dir/wall" "$@"
}
n=${BENCH_SHARDS:-1000000}
night=$dir/night-$n
: > "$dir/goals"
if [ "$n" -gt 0 ]; then
    if [ ! -d "$night" ]; then
        # shellcheck disable=SC2086
        "$NIGHTGEN" --seed 1 --episodes "$n" --runs 12 --files 4 "$night" \
            $tools > /dev/null
    fi
    echo
    echo "== shards of the night of $n episodes, one after the other, and their"
    echo "== merge; then 2 shards at once on two cores and theirs (seconds)"
    rm -f "$dir"/*.db "$dir"/*.db-wal "$dir"/*.db-shm
    wall "$REPLAY" --quiet --db "$dir/one.db" "$night" 2>/dev/null
    one=$(cat "$dir/wall")
    shards=""
    i=0
    while [ "$i" -lt 8 ]; do
        wall "$REPLAY" --quiet --shard "$i/8" --db "$dir/s$i.db" "$night" \
            2>/dev/null
        shards="$shards $(cat "$dir/wall")"
        i=$((i + 1))
    done
    wall "$REPLAY" merge --quiet "$dir/m8.db" "$dir"/s[0-7].db
    merge8=$(cat "$dir/wall")
    # SQLite's own copy of the merged database (VACUUM INTO: each table's
    # records moved whole, in key order, its indexes built again), the
    # least a merge that writes the rows into one database file can cost
    copy=0
    if command -v sqlite3 >/dev/null 2>&1; then
        (cd "$dir" && sync &&
            /usr/bin/time -f '%e' -o wall sqlite3 m8.db "VACUUM INTO 'copy.db'")
        copy=$(cat "$dir/wall")
    fi
    rm -f "$dir"/s[0-7].db "$dir/m8.db" "$dir/copy.db"
    sync
    start=$(date +%s.%N)
    "$REPLAY" --quiet --shard 0/2 --db "$dir/t0.db" "$night" 2>/dev/null &
    "$REPLAY" --quiet --shard 1/2 --db "$dir/t1.db" "$night" 2>/dev/null &
    wait
    two=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    wall "$REPLAY" merge --quiet "$dir/m2.db" "$dir/t0.db" "$dir/t1.db"
    merge2=$(cat "$dir/wall")
    rm -f "$dir"/t[01].db "$dir/m2.db"
    [ -n "${BENCH_DIR:-}" ] || rm -rf "$night"
    echo "one process $one"
    echo "8 shards:$shards; merged in $merge8"
    [ "$copy" = 0 ] ||
        echo "SQLite's copy of the merged database (VACUUM INTO) $copy"
    awk -v one="$one" -v two="$two" -v merge="$merge2" 'BEGIN {
        printf "2 shards at once %.2f, merged in %.2f: %.2f in all\n",
            two, merge, two + merge }'
    awk -v one="$one" -v s="$shards" -v m8="$merge8" -v two="$two" \
        -v m2="$merge2" -v copy="$copy" 'BEGIN {
        floor = copy > 0 ? sprintf(" (SQLite\047s copy: %.2fx)", copy / one) : ""
        k = split(s, t, " "); top = 0; sum = 0
        for (i = 1; i <= k; i++) { sum += t[i]; if (t[i] > top) top = t[i] }
        printf "a shard of 8 costs <= 0.25x one process: at most %.2fx|%d\n",
            top / one, top / one <= 0.25
        printf "8 shards together cost <= 1.3x one process: %.2fx|%d\n",
            sum / one, sum / one <= 1.3
        printf "merging 8 shards <= 0.3x one process: %.2fx%s|%d\n",
            m8 / one, floor, m8 / one <= 0.3
        printf "merging 2 shards <= 0.3x one process: %.2fx%s|%d\n",
            m2 / one, floor, m2 / one <= 0.3
        printf "2 shards at once and their merge <= one process: %.2fx|%d\n",
            (two + m2) / one, two + m2 <= one }' >> "$dir/goals"
fi

# Cards in a database of runs of 100 episodes (BENCH_CARDS episodes,
# default a million; 0: none): card RUN, card --compare and the
# documented views filtered by run, each the fastest of BENCH_REPEAT
# runs.  A card costs what its run holds, not what the database holds.
cn=${BENCH_CARDS:-1000000}
if [ -n "${CARD:-}" ] && [ "$cn" -ge 200 ]; then
    echo
    echo "== cards of runs of 100 episodes in a database of $cn (seconds,"
    echo "== the fastest of $repeat)"
    rm -rf "$dir/cards" "$dir/cards.db"
    "$NIGHTGEN" --seed 2 --episodes "$cn" --runs $((cn / 100)) --files 4 \
        --same-tasks "$dir/cards" "$TOP_SRCDIR/samples/tools/shop.json" \
        > /dev/null
    "$REPLAY" --quiet --db "$dir/cards.db" "$dir/cards" 2>/dev/null
    a=$(sqlite3 "$dir/cards.db" "SELECT run FROM runs ORDER BY run LIMIT 1 OFFSET $((cn / 200))")
    b=$(sqlite3 "$dir/cards.db" "SELECT run FROM runs ORDER BY run LIMIT 1 OFFSET $((cn / 200 + 1))")
    # fastest_of WHAT CMD...: the fastest of $repeat runs of CMD, said
    fastest_of() {
        what=$1
        shift
        f=""
        j=0
        while [ "$j" -lt "$repeat" ]; do
            s0=$(date +%s.%N)
            "$@" > /dev/null 2>&1 || true
            t=$(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
            f=$(awk -v f="$f" -v t="$t" 'BEGIN { print (f == "" || t < f) ? t : f }')
            j=$((j + 1))
        done
        printf '%-44s %.3f\n' "$what" "$f"
        printf '%s under 100 ms: %.0f ms|%d\n' "$what" "$(awk -v f="$f" 'BEGIN { print 1000 * f }')" \
            "$(awk -v f="$f" 'BEGIN { print f < 0.1 }')" >> "$dir/goals"
    }
    fastest_of "card RUN" "$CARD" --db "$dir/cards.db" "$a"
    fastest_of "card --compare" "$CARD" --db "$dir/cards.db" --compare "$a" "$b"
    fastest_of "sqlite3: run_summary WHERE run = ?" sqlite3 "$dir/cards.db" \
        "SELECT * FROM run_summary WHERE run = '$a'"
    fastest_of "sqlite3: run_interval WHERE run = ?" sqlite3 "$dir/cards.db" \
        "SELECT * FROM run_interval WHERE run = '$a'"
    # the night's report of the whole database, once (minutes: a page a
    # run, and the episode pages those link to): at least 20 pages a
    # second, its time growing with the runs it writes
    if [ "${BENCH_HTML:-1}" != 0 ]; then
        rm -rf "$dir/report"
        s0=$(date +%s.%N)
        "$CARD" --db "$dir/cards.db" --html --all -o "$dir/report" \
            > /dev/null 2>&1 || true
        t=$(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
        pages=$(find "$dir/report" -name '*.html' | wc -l)
        runs=$(sqlite3 "$dir/cards.db" "SELECT count(*) FROM runs")
        printf '%-44s %.3f\n' "card --html --all: $pages pages, $runs runs" "$t"
        awk -v p="$pages" -v t="$t" 'BEGIN {
            r = t > 0 ? p / t : 0
            printf "card --html --all >= 20 pages a second: %.0f|%d\n", r,
                (r >= 20) }' >> "$dir/goals"
        rm -rf "$dir/report"
    fi
    [ -n "${BENCH_DIR:-}" ] || rm -rf "$dir/cards" "$dir/cards.db"
fi

# Logs of other harnesses (docs/logs.md): the same episodes, a night of
# BENCH_LOGS episodes (default: the smallest size) on the shop's tools
# alone, as transcript JSONL and as each format (tests/bench/logs.py),
# replayed into a new database in BENCH_REPEAT rounds, each of which
# replays the JSONL and every format once, so that a busy stretch of the
# machine weighs on them alike; the fastest run of each.  Reading a
# format may cost at most twice reading the JSONL.
logs_n=${BENCH_LOGS:-$(echo "$sizes" | tr ' ' '\n' | sort -n | head -1)}
py=${PYTHON3:-python3}
shop=$TOP_SRCDIR/samples/tools/shop.json
# shop_night DIR SEED EPISODES FILES: a night of EPISODES on the shop's
# tools alone, 4 runs, in DIR/night, and DIR/logs empty for its logs
shop_night() {
    rm -rf "$1" && mkdir -p "$1/night" "$1/logs" &&
        "$NIGHTGEN" --seed "$2" --episodes "$3" --runs 4 --files "$4" \
            "$1/night" "$shop" > /dev/null
}
if command -v "$py" >/dev/null 2>&1; then
    echo
    echo "== other harnesses' logs: $logs_n episodes as transcript JSONL and as each"
    echo "== format (replay --from), the fastest of $repeat runs each"
    ldir=$dir/logs
    shop_night "$ldir" 1 "$logs_n" 2
    "$py" "$TOP_SRCDIR/tests/bench/logs.py" "$ldir/night" "$ldir/logs"
    printf '%-10s %9s %9s %8s\n' format seconds episodes ratio
    # logs_run FORMAT: one replay of the night in that form (run's
    # counter is its own: the rounds count with another)
    logs_run() {
        case $1 in
        jsonl) set -- "$1" "$ldir/night" ;;
        inspect) set -- "$1" --from inspect --tools "$shop" "$ldir"/logs/*.eval ;;
        otlp) set -- "$1" --from otlp --tools "$shop" "$ldir"/logs/*-traces.json ;;
        messages) set -- "$1" --from messages --tools "$shop" "$ldir"/logs/*-tau.json ;;
        esac
        lf=$1
        shift
        run "logs-$lf" 1 "$REPLAY" --quiet --db "$dir/replay.db" "$@" \
            2> "$dir/logs-$lf.err"
    }
    rm -f "$dir"/logs-*.all
    round=0
    while [ "$round" -lt "$repeat" ]; do
        for f in jsonl inspect otlp messages; do
            logs_run "$f"
        done
        round=$((round + 1))
    done
    jsonl=""
    for f in jsonl inspect otlp messages; do
        s=$(fastest "logs-$f")
        eps=$(sed -n 's/.*; \([0-9]*\) episodes written.*/\1/p' "$dir/logs-$f.err" | head -n 1)
        [ -z "$jsonl" ] && jsonl=$s
        awk -v f="$f" -v s="$s" -v e="$eps" -v j="$jsonl" 'BEGIN {
            s = s < 0.01 ? 0.01 : s; j = j < 0.01 ? 0.01 : j
            printf "%-10s %9.2f %9d %8.2f\n", f, s, e, s / j }'
        echo "$f $s $eps" >> "$dir/logs.figures"
    done
    awk -v n="$logs_n" '
        $1 == "jsonl" { j = $2 < 0.01 ? 0.01 : $2; je = $3 }
        $1 != "jsonl" { r = ($2 < 0.01 ? 0.01 : $2) / j
            printf "%-52s %s\n", sprintf("%s costs <= 2x the JSONL: %.2fx (%d episodes)", $1, r, $3),
                r <= 2 && $3 == je ? "met" : "NOT MET" }' "$dir/logs.figures"
fi

# Logs as real harnesses write them (tests/bench/reallogs.py), of a night
# of BENCH_REAL episodes (default 10000) on the shop's tools: an Inspect
# .eval, its members in deflate and in Zstandard, and OTLP JSON Lines of
# GenAI spans.  Each read once a round, the fastest kept: the samples'
# JSON (uncompressed) a CPU second of replay's reading thread (which
# reads, unpacks, parses and answers: replay --timings), its peak memory,
# and the spans a second.
real_n=${BENCH_REAL:-10000}
if command -v "$py" >/dev/null 2>&1 && [ "$real_n" -gt 0 ]; then
    echo
    echo "== logs as harnesses write them: $real_n episodes as an Inspect .eval"
    echo "== (deflate, zstd) and as OTLP GenAI spans, the fastest of $repeat runs"
    rdir=$dir/real
    shop_night "$rdir" 3 "$real_n" 1
    read -r eps sample_bytes spans <<EOF2
$("$py" "$TOP_SRCDIR/tests/bench/reallogs.py" "$rdir/night" "$shop" "$rdir/logs")
EOF2
    printf '%-10s %9s %9s %9s %9s %8s\n' log "file MB" seconds "read cpu" "MB/cpu s" "peak MB"
    rm -f "$dir"/real-*.all
    round=0
    while [ "$round" -lt "$repeat" ]; do
        for f in eval zstd otlp; do
            case $f in
            eval) set -- --from inspect "$rdir/logs/night.eval" ;;
            zstd) set -- --from inspect "$rdir/logs/night-zstd.eval" ;;
            otlp) set -- --from otlp "$rdir/logs/night-genai.jsonl" ;;
            esac
            run "real-$f" 1 "$REPLAY" --quiet --timings --tools "$shop" \
                --db "$dir/replay.db" "$@" 2> "$dir/real-$f.err"
            cpu=$(sed -n 's/.*CPU seconds: \([0-9.]*\) reading.*/\1/p' "$dir/real-$f.err")
            echo "$(cat "$dir/real-$f.time") $cpu" >> "$dir/real-$f.rounds"
        done
        round=$((round + 1))
    done
    for f in eval zstd otlp; do
        case $f in
        eval) file=$rdir/logs/night.eval ;;
        zstd) file=$rdir/logs/night-zstd.eval ;;
        otlp) file=$rdir/logs/night-genai.jsonl ;;
        esac
        # the fastest round: wall, peak KiB, ..., reading CPU
        sort -n "$dir/real-$f.rounds" | head -n 1 | awk -v f="$f" \
            -v size="$(stat -c %s "$file")" -v sb="$sample_bytes" \
            -v spans="$spans" -v goals="$dir/goals" '{
            cpu = $5 < 0.01 ? 0.01 : $5; w = $1 < 0.01 ? 0.01 : $1
            body = f == "otlp" ? size : sb
            printf "%-10s %9.1f %9.2f %9.2f %9.0f %8.1f\n", f, size / 1e6, w,
                cpu, body / 1e6 / cpu, $2 / 1024
            how = f == "eval" ? "deflate" : "zstd"
            if (f != "otlp") {
                rate = sb / 1e6 / cpu
                printf ".eval (%s) read at >= 100 MB/s of samples a CPU second: %.0f|%d\n",
                    how, rate, (rate >= 100) >> goals
                printf ".eval (%s) peak memory < 256 MiB: %.1f MiB|%d\n",
                    how, $2 / 1024, ($2 < 262144) >> goals
            } else {
                m = w * 1e6 / spans
                printf "a million OTLP spans in < 10 s: %.1f s (%d spans in %.2f s)|%d\n",
                    m, spans, w, (m < 10) >> goals
            }
        }'
    done
    echo "($eps episodes: $((sample_bytes / 1000000)) MB of samples' JSON; $spans spans)"
fi

if [ -s "$dir/goals" ]; then
    echo
    echo "== the goals of shards, cards and logs (docs/speed.md, docs/cluster.md)"
    awk -F'|' '{ printf "%-62s %s\n", $1, $2 ? "met" : "NOT MET" }' "$dir/goals"
fi
