# Memory follows the open episodes, not the input: the samples night
# repeated 80 and 240 times (each copy its own runs) is replayed, and the
# peak resident memory of the larger must not grow with it (within 20%
# and 2 MiB).  Both databases (24 and 73 MB) outgrow SQLite's page cache
# (8 MiB), so it is full in both runs.  Without sanitizers, the night repeated 400 times
# (about 150 MB) is also replayed under `ulimit -v` of 96 MiB, well under
# its size, and must succeed.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
# tool files copied beside the test's transcripts may be read
TASKREPLAY_TOOLS_DIR=${TASKREPLAY_TOOLS_DIR:+$TASKREPLAY_TOOLS_DIR:}$TEST_TMP
export TASKREPLAY_TOOLS_DIR
[ -x /usr/bin/time ] || lack "/usr/bin/time (Debian: apt-get install time)"
pass=0 fail=0
mkdir -p "$TEST_TMP/n" && cp -R "$TOP_SRCDIR/samples/tools" "$TEST_TMP/" || exit 99

# copies K FILE: the samples night K times, runs renamed per copy
copies() {
    cat "$TOP_SRCDIR"/samples/night/*.jsonl |
        awk -v k="$1" '{ lines[NR] = $0 } END {
            for (c = 1; c <= k; c++)
                for (i = 1; i <= NR; i++) {
                    l = lines[i]; sub(/"run":"/, "\"run\":\"c" c "-", l); print l
                } }' > "$2"
}

peak() { # FILE: peak RSS in KiB of replaying it into a new database
    rm -f "$TEST_TMP"/m.db*
    # under AddressSanitizer, freed memory is held back (its quarantine)
    # unless told not to: that would be its memory, not replay's
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
    /usr/bin/time -f '%M' -o "$TEST_TMP/peak" "$REPLAY" --quiet \
        --db "$TEST_TMP/m.db" "$1" 2>/dev/null || echo "replay failed on $1"
    cat "$TEST_TMP/peak"
}

copies 80 "$TEST_TMP/n/small.jsonl"
copies 240 "$TEST_TMP/n/large.jsonl"
small=$(peak "$TEST_TMP/n/small.jsonl")
large=$(peak "$TEST_TMP/n/large.jsonl")
if awk -v s="$small" -v l="$large" 'BEGIN { exit !(l <= s * 1.2 + 2048) }'
then pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL peak memory grew with the night: $small KiB for 80 copies, $large KiB for 240"
fi
echo "peak memory: $small KiB (80 copies, $(wc -c < "$TEST_TMP/n/small.jsonl") bytes), $large KiB (240 copies, $(wc -c < "$TEST_TMP/n/large.jsonl") bytes)"

if nm "$REPLAY" 2>/dev/null | grep -q __asan_init; then
    echo "(built with AddressSanitizer: the ulimit -v run is left out)"
else
    copies 400 "$TEST_TMP/n/huge.jsonl"
    size=$(wc -c < "$TEST_TMP/n/huge.jsonl")
    rm -f "$TEST_TMP"/m.db*
    if (ulimit -v 98304 && "$REPLAY" --quiet --db "$TEST_TMP/m.db" \
            "$TEST_TMP/n/huge.jsonl" 2>"$TEST_TMP/huge.err"); then
        pass=$((pass + 1))
        echo "replayed $size bytes under ulimit -v 96 MiB"
    else
        fail=$((fail + 1))
        echo "FAIL replaying $size bytes under ulimit -v 96 MiB:"
        tail -3 "$TEST_TMP/huge.err"
    fi
fi
echo "memory: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
