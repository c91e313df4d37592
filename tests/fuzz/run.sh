#!/bin/sh
# tests/fuzz/run.sh: `make fuzz`.  Builds the libFuzzer harnesses of
# tests/fuzz with clang (the library's sources too, instrumented for
# coverage under AddressSanitizer and UndefinedBehaviorSanitizer; no gcc
# object is reused), builds the seed folders (seeds.sh), and runs each
# harness for FUZZ_SECONDS on one core, as many at once as FUZZ_JOBS
# (the machine's cores), and so the compiles.  New corpus
# entries go to OUT/corpus/HARNESS, findings (crash-*, timeout-*, oom-*,
# leak-*, slow-unit-*) to OUT/artifacts/HARNESS.  Prints one line per
# harness: its executions, and whether it found anything.  Exit status 1
# when a harness found a crash, a timeout, a leak or an out-of-memory.
#
# Environment (make fuzz sets the first ones):
#   TOP_SRCDIR        the source folder
#   FUZZ_OUT          the build folder for everything made here
#   FUZZ_LIB_SOURCES  the library's sources, relative to TOP_SRCDIR (its
#                     .c files are compiled, the rest left alone)
#   SCHEMA_SQL        the generated src/schema_sql.c (in the build folder)
#   DEPS_CFLAGS, DEPS_LIBS  pkg-config's flags of yajl-2, yaml-0.1,
#                     libxxhash, libcrypto, sqlite3, libzip, libzstd and zlib
#   FUZZ_SECONDS      seconds per harness (60)
#   FUZZ_TARGETS      harnesses to run ("doc tools transcript mcp card
#                     regex inspect otlp messages")
#   FUZZ_CC           the compiler (clang)
#   FUZZ_TIMEOUT      seconds one input may take (10)
#   FUZZ_RSS_MB       memory limit, and largest single allocation (2048)
#   FUZZ_LOGS_RSS_MB  the same for the log readers' harnesses (512)
#   FUZZ_ARGS         more libFuzzer options
#   FUZZ_JOBS         harnesses run (and sources compiled) at once: the
#                     machine's cores
#   CORPUS            real tool files for the seeds (../shared/corpus)
set -u
top=${TOP_SRCDIR:?}
out=${FUZZ_OUT:?}
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-doc tools transcript mcp card regex inspect otlp messages}
cc=${FUZZ_CC:-clang}
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
mkdir -p "$out/obj" "$out/log" || exit 99
rm -f "$out/obj/failed"

# at_once: called after a job is put in the background; when FUZZ_JOBS
# run, waits for them all
running=0
at_once() {
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
}

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: no $cc (apt-get install clang libclang-rt-14-dev)" >&2
    exit 99
fi

san="-fsanitize=address,undefined -fno-sanitize-recover=all"
base="-g -O1 -fno-omit-frame-pointer -std=c11 $san -D_POSIX_C_SOURCE=200809L"
base="$base -I$top/src -I$top/logs -I$top/serve -I$top/replay -I$top/report ${DEPS_CFLAGS:-}"
lib_flags="$base -fsanitize=fuzzer-no-link"
night_dir="-DFUZZ_NIGHT_DIR=\"$top/samples/night\" -DFUZZ_TOOLS_DIR=\"$top/samples/tools\""

# Objects are kept between runs; all are remade when the flags change,
# one when its source or a header it includes is newer.
printf '%s\n' "$cc" "$lib_flags" "$night_dir" > "$out/obj/flags.new"
if ! cmp -s "$out/obj/flags.new" "$out/obj/flags"; then
    rm -f "$out"/obj/*.o "$out"/obj/*.d
    cp "$out/obj/flags.new" "$out/obj/flags"
fi
rm -f "$out/obj/flags.new"

stale() {
    [ -f "$1" ] && [ -f "${1%.o}.d" ] || return 0
    for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "${1%.o}.d"); do
        [ "$dep" -nt "$1" ] && return 0
    done
    return 1
}

# compile SOURCE OBJECT FLAGS..., in the background (at_once); a failure
# is said and leaves obj/failed
compile() {
    c_src=$1
    c_obj=$2
    shift 2
    stale "$c_obj" || return 0
    (
        if ! "$cc" "$@" -MMD -MF "${c_obj%.o}.d" -c "$c_src" -o "$c_obj" \
            > "${c_obj%.o}.log" 2>&1; then
            echo "fuzz: cannot compile $c_src:" >&2
            tail -n 30 "${c_obj%.o}.log" >&2
            : > "$out/obj/failed"
        fi
        cat "${c_obj%.o}.log" >> "$out/log/build.log"
    ) &
    at_once
}

# compiled: after the compiles put in the background, waits for them;
# exit 99 when one failed
compiled() {
    wait
    running=0
    [ ! -f "$out/obj/failed" ] || exit 99
}

: > "$out/log/build.log"
lib_objs=""
# shellcheck disable=SC2086
card_objs=""
logs_objs=""
for s in ${FUZZ_LIB_SOURCES:?} replay/night.c replay/writer.c replay/taskcache.c \
    serve/mcp.c serve/live.c logs/logs.c logs/inspect.c logs/otlp.c \
    logs/messages.c logs/lines.c logs/callpairs.c logs/records.c \
    logs/logvalue.c logs/jstream.c logs/zipzstd.c logs/jaeger.c logs/otlplogs.c \
    logs/detect.c logs/dialects.c \
    report/carddata.c report/dbread.c report/classes.c report/episode.c \
    report/usagepair.c report/gate.c report/junit.c report/trend.c \
    report/flaky.c report/rates.c \
    report/shown.c \
    report/text.c report/markdown.c report/json.c report/html.c \
    report/plot.c report/folder.c; do
    case $s in *.c) ;; *) continue ;; esac
    o="$out/obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')"
    compile "$top/$s" "$o" $lib_flags
    case $s in
    replay/* | serve/*) ;;
    logs/*) logs_objs="$logs_objs $o" ;;
    report/*) card_objs="$card_objs $o" ;;
    *) lib_objs="$lib_objs $o" ;;
    esac
done
compile "${SCHEMA_SQL:?}" "$out/obj/schema_sql.o" $lib_flags
lib_objs="$lib_objs $out/obj/schema_sql.o"
for t in $targets; do
    # shellcheck disable=SC2086
    compile "$top/tests/fuzz/fuzz_$t.c" "$out/obj/fuzz_$t.o" \
        $base -fsanitize=fuzzer $night_dir
done
compiled

for t in $targets; do
    extra=""
    [ "$t" = transcript ] &&
        extra="$out/obj/replay_night.o $out/obj/replay_writer.o $out/obj/replay_taskcache.o
               -Wl,--wrap=generator_fingerprint"
    [ "$t" = mcp ] && extra="$out/obj/serve_mcp.o $out/obj/serve_live.o"
    [ "$t" = card ] && extra="$card_objs"
    case $t in inspect | otlp | messages) extra="$logs_objs" ;; esac
    # shellcheck disable=SC2086
    if ! "$cc" -fsanitize=fuzzer $san -o "$out/fuzz_$t" "$out/obj/fuzz_$t.o" \
        $extra $lib_objs ${DEPS_LIBS:-} -lpthread -lm \
        >> "$out/log/build.log" 2>&1; then
        echo "fuzz: cannot link fuzz_$t:" >&2
        tail -n 30 "$out/log/build.log" >&2
        exit 99
    fi
done

if ! sh "$top/tests/fuzz/seeds.sh" "$out/seeds"; then
    echo "fuzz: cannot make the seeds (tests/fuzz/seeds.sh)" >&2
    exit 99
fi

# run_harness T: harness T for FUZZ_SECONDS; its line into log/T.said,
# and log/T.found when it found something
run_harness() {
    t=$1
    corpus="$out/corpus/$t"
    artifacts="$out/artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    rm -f "$out/log/$t.found"
    # the log readers: each its format's keys, and memory held to 512 MB
    # (their limits hold on what an input expands to: docs/logs.md)
    limit=$rss
    case $t in
    transcript) dict=transcript.dict max_len=16384 ;;
    mcp) dict=mcp.dict max_len=16384 ;;
    regex) dict=regex.dict max_len=1024 ;;
    inspect) dict=inspect.dict max_len=131072 limit=${FUZZ_LOGS_RSS_MB:-512} ;;
    otlp | messages) dict=$t.dict max_len=65536 limit=${FUZZ_LOGS_RSS_MB:-512} ;;
    *) dict=json.dict max_len=65536 ;;
    esac
    log="$out/log/$t.log"
    touch "$log.start"
    # One process on one core (no -jobs, no -workers); stdin from
    # /dev/null, so that no input can wait on a terminal.
    # shellcheck disable=SC2086
    "$out/fuzz_$t" -max_total_time="$seconds" -timeout="$timeout" \
        -rss_limit_mb="$limit" -malloc_limit_mb="$limit" -report_slow_units=5 \
        -max_len="$max_len" -dict="$top/tests/fuzz/$dict" \
        -artifact_prefix="$artifacts/" -print_final_stats=1 \
        ${FUZZ_ARGS:-} "$corpus" "$out/seeds/$t" < /dev/null > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    [ -n "$execs" ] ||
        execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    new=$(cd "$artifacts" && find . -type f -newer "$log.start" |
        sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
    if [ "$rc" -ne 0 ]; then
        : > "$out/log/$t.found"
        kind=$(grep -m 1 -E 'ERROR: |runtime error: ' "$log" |
            sed -e 's/^==[0-9]*== *//' -e 's/ on address.*//' | cut -c 1-100)
        {
            echo "fuzz_$t: ${execs:-0} executions; FOUND (exit $rc) ${kind:-?}; in $artifacts: $new"
            echo "fuzz_$t: the log is $log; its first stack:"
            sed -n '/^==[0-9]*== *ERROR\|^ *#[0-9]* 0x/p' "$log" | head -n 16 |
                sed 's/ (BuildId: [0-9a-f]*)//'
        } > "$out/log/$t.said"
    elif [ -n "$new" ]; then
        echo "fuzz_$t: ${execs:-0} executions; nothing crashed; slow inputs in $artifacts: $new" > "$out/log/$t.said"
    else
        echo "fuzz_$t: ${execs:-0} executions; nothing found" > "$out/log/$t.said"
    fi
}

for t in $targets; do
    run_harness "$t" &
    at_once
done
wait
status=0
for t in $targets; do
    cat "$out/log/$t.said"
    [ ! -f "$out/log/$t.found" ] || status=1
done
exit $status
