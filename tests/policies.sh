# The scripted agents against the simulator: tests/agents plays every
# policy on every arm named in tests/policies.expected, on the three shop
# tool files for seeds 1-3, and each summary line must be the expected
# one.  make check provides REPLAY, AGENTS and TOP_SRCDIR.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
if [ ! -x "${AGENTS:-}" ]; then
    echo "ERROR: no agents program at AGENTS='${AGENTS:-}'" >&2
    exit 99
fi
tmpdir
expected=$TOP_SRCDIR/tests/policies.expected
files="shop.json shop-mcp.json shop-openapi.yaml"
seeds=${POLICY_SEEDS:-1 2 3}

# The policies and arms, in the order of the expected file.
list() {
    awk -v col="$1" '/^#/ || NF == 0 { next }
        /^\[/ { sub(/^\[[^]]*\] /, "") }
        !seen[$col]++ { printf "%s%s", n++ ? "," : "", $col }' "$expected"
}
policies=$(list 1)
arms=$(list 2)
[ -n "$policies" ] && [ -n "$arms" ] || exit 99

# One agents run per file and seed, all at once.  A leak check costs an
# ASan build 0.05 s a process, and the matrix is 1296 episodes: it runs
# without them.  One more run, of every policy on the arms that take the
# most of agents' code, keeps the caller's ASAN_OPTIONS and so checks
# agents' own memory; it must exit 0.
quick="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
for f in $files; do
    for s in $seeds; do
        out=$TEST_TMP/$f.$s
        { ASAN_OPTIONS=$quick "$AGENTS" "$REPLAY" \
            "$TOP_SRCDIR/samples/tools/$f" "$s" "$arms" "$policies" \
            > "$out" 2> "$out.err"
          echo $? > "$out.rc"; } &
    done
done
"$AGENTS" "$REPLAY" "$TOP_SRCDIR/samples/tools/shop-mcp.json" 1 \
    depth:d1,timeouts:o4,landed:l1,baddata:b1,lagged:g1 "$policies" \
    > "$TEST_TMP/leaks" 2>&1
leaks=$?
wait

pass=0 fail=0
for f in $files; do
    for s in $seeds; do
        out=$TEST_TMP/$f.$s
        rc=$(cat "$out.rc" 2>/dev/null)
        if [ "$rc" != 0 ]; then
            echo "agents failed on $f seed $s (exit $rc):"
            head -20 "$out.err"
            fail=$((fail + 1))
        fi
        # expected lines for f, keyed by "POLICY ARM", against the output
        counts=$(awk -v f="$f" -v s="$s" '
            FNR == NR {
                if (/^#/ || NF == 0) next
                if (/^\[/) {
                    n = split(substr($1, 2, length($1) - 2), only, ",")
                    keep = 0
                    for (i = 1; i <= n; i++) if (only[i] == f) keep = 1
                    if (!keep) next
                    sub(/^\[[^]]*\] /, "")
                }
                want[$1 " " $2] = $0
                order[++nwant] = $1 " " $2
                next
            }
            { got[$1 " " $2] = $0 }
            END {
                p = 0; m = 0
                for (i = 1; i <= nwant; i++) {
                    k = order[i]
                    if ((k in got) && got[k] == want[k]) { p++; continue }
                    m++
                    printf "FAIL %s seed %s: %s\n  expected: %s\n  got:      %s\n",
                        f, s, k, want[k], (k in got) ? got[k] : "(nothing)"
                }
                for (k in got) if (!(k in want)) {
                    m++
                    printf "FAIL %s seed %s: unexpected line: %s\n", f, s, got[k]
                }
                printf "COUNTS %d %d\n", p, m
            }' "$expected" "$out")
        printf '%s\n' "$counts" | grep -v '^COUNTS ' | head -40
        set -- $(printf '%s\n' "$counts" | sed -n 's/^COUNTS //p')
        pass=$((pass + ${1:-0}))
        fail=$((fail + ${2:-1}))
    done
done
if [ "$leaks" -ne 0 ]; then
    echo "agents failed (exit $leaks) with the caller's ASAN_OPTIONS:"
    head -40 "$TEST_TMP/leaks"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
echo "policies: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
