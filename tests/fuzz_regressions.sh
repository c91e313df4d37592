# Every finding of the fuzzers stays found: tests/fuzz/regressions/HARNESS/
# holds the inputs that once crashed, hung or leaked in fuzz_HARNESS
# (tests/fuzz), and each is run again through the same harness, built
# without libFuzzer (tests/fuzz/driver.c) under the suite's sanitizers.
# A crash, an abort, a sanitizer's report, output of any kind, more than
# FUZZ_FILE_SECONDS (120) or more than FUZZ_FILE_MB (4096) of memory on a
# file fails.  Adding a case is adding a file.
set -u
FUZZ_BIN=${FUZZ_BIN:-}
dir="$TOP_SRCDIR/tests/fuzz/regressions"
limit=${FUZZ_FILE_SECONDS:-120}
mb=${FUZZ_FILE_MB:-4096}
# timeout(1) when there is one: a hang is a failure, not a stuck suite
with_limit=""
command -v timeout >/dev/null 2>&1 && with_limit="timeout -k 5 $limit"
# Memory: AddressSanitizer reserves terabytes of address space, so a
# build with it is held by its own RSS limit, any other by ulimit -v.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=$mb"
export ASAN_OPTIONS
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
pass=0 fail=0
for harness in doc tools transcript mcp card regex inspect otlp messages; do
    prog="$FUZZ_BIN/fuzz_$harness"
    if [ ! -x "$prog" ]; then
        echo "ERROR: no $prog (FUZZ_BIN='$FUZZ_BIN')" >&2
        exit 99
    fi
    for f in "$dir/$harness"/*; do
        [ -f "$f" ] || continue
        # shellcheck disable=SC2086
        (
            grep -q __asan_init "$prog" || ulimit -v $((mb * 1024))
            exec $with_limit "$prog" "$f"
        ) > "$tmp" 2>&1
        status=$?
        if [ "$status" -eq 0 ] && [ ! -s "$tmp" ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $harness/$(basename "$f") (exit $status)"
            # what went wrong and where: the report's first lines and frames
            grep -E 'ERROR|SUMMARY|runtime error|^ *#[0-9] ' "$tmp" |
                head -n 14 | sed 's/^/  /'
            grep -q -E 'ERROR|SUMMARY|runtime error' "$tmp" ||
                head -n 14 "$tmp" | sed 's/^/  /'
        fi
    done
done
echo "fuzz regressions: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
