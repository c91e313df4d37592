# The simulator's rules, rule by rule, on every published tool file of
# $CORPUS: tests/survey plays a fixed script and the scripted policies on
# the tasks of seeds 1-50 (base, depth:d1, depth:d3, landed:l1,
# baddata:b1-b3, lagged:g1), and tests/rules.py holds each answer against
# the rules of docs/simulator.md and docs/draws.md, written from their
# words.  Every rule must hold on every case, and the cases each rule saw
# are pinned in tests/rules_corpus.gold, so that a rule cannot pass by
# seeing nothing (UPDATE_GOLDEN=1 rewrites it; review its diff).
# Skipped, saying why, without the corpus.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
tmpdir
need_corpus
skip_unless_python
if [ ! -x "${SURVEY:-}" ]; then
    echo "ERROR: no survey program at SURVEY='${SURVEY:-}'" >&2
    exit 99
fi
gold=$TOP_SRCDIR/tests/rules_corpus.gold

# The files by name from the corpus's folder, so that what is printed
# does not depend on where it is.
(cd "$CORPUS" && find . -type f ! -name README.md ! -name SOURCES.tsv |
    LC_ALL=C sort) > "$TEST_TMP/files" || exit 99
(cd "$CORPUS" &&
    run_parts "$TEST_TMP/part" "$TEST_TMP/files" "$SURVEY" --policies \
        --seeds 50 &&
    wait) || exit 99
for err in "$TEST_TMP"/part.*.err; do
    if [ -s "$err" ]; then
        echo "FAIL: survey said:"
        head -n 5 "$err"
        exit 1
    fi
done
got=$("$PYTHON3" "$TOP_SRCDIR/tests/rules.py" "$TEST_TMP"/part.*.out)
status=$?
printf '%s\n' "$got"
[ "${UPDATE_GOLDEN:-}" = 1 ] && [ "$status" -eq 0 ] &&
    printf '%s\n' "$got" > "$gold"
if [ "$status" -ne 0 ]; then
    echo "FAIL: some rule does not hold (above)"
    exit 1
fi
if ! printf '%s\n' "$got" | cmp -s - "$gold"; then
    echo "FAIL: the cases differ from tests/rules_corpus.gold:"
    printf '%s\n' "$got" | diff "$gold" - | head -n 20
    exit 1
fi
echo "rules on the corpus: every rule holds on every case"
