# Every refusal has its exact line: tests/refusals/NAME is a file replay
# hash must refuse, NAME.err the one line it must print on stderr.  Adding
# a case is adding two files.
set -u
cd "$TOP_SRCDIR/tests/refusals" || exit 99
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
pass=0 fail=0
for f in *; do
    case "$f" in *.err) continue ;; esac
    if [ ! -f "$f.err" ]; then
        echo "FAIL $f: no $f.err beside it"
        fail=$((fail + 1))
        continue
    fi
    want=$(cat "$f.err")
    out=$("$REPLAY" hash "$f" 2>"$tmp")
    status=$?
    got=$(cat "$tmp")
    if [ "$got" = "$want" ] && [ -z "$out" ] && [ "$status" -eq 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        printf 'FAIL %s (exit %s)\n  want: %s\n  got:  %s\n  stdout: %s\n' \
            "$f" "$status" "$want" "$got" "$out"
    fi
done
echo "hash refusals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
