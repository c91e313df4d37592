# replay tools against checked-in answers: tests/tools/NAME is a tool
# file, NAME.gold what replay prints for it: the table as text, then as
# --json (stdout and stderr, each followed by "exit N").  Adding a case is adding two files; UPDATE_GOLDEN=1 rewrites
# the answers (review the diff before committing it).
set -u
cd "$TOP_SRCDIR/tests/tools" || exit 99
pass=0 fail=0
for f in *; do
    case "$f" in *.gold) continue ;; esac
    got=$({
        "$REPLAY" tools "$f" 2>&1
        echo "exit $?"
        "$REPLAY" tools --json "$f" 2>&1
        echo "exit $?"
    })
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
        printf '%s\n' "$got" > "$f.gold"
    fi
    if [ -f "$f.gold" ] && [ "$got" = "$(cat "$f.gold")" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $f"
        printf '%s\n' "$got" | diff "$f.gold" - | head -20
    fi
done
echo "tools golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
