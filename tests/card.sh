# card: golden cards (text, Markdown, JSON, HTML) and lists for the samples
# night, the four cases of --compare with their exact words and exit
# statuses (the other-contracts and other-generators cases from small
# crafted nights in tests/card/), unknown runs, and every figure against
# the query docs/card.md gives for it.  UPDATE_GOLDEN=1 rewrites the golds.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
# tool files copied beside the test's transcripts may be read
TASKREPLAY_TOOLS_DIR=${TASKREPLAY_TOOLS_DIR:+$TASKREPLAY_TOOLS_DIR:}$TEST_TMP
export TASKREPLAY_TOOLS_DIR
need_cmd sqlite3
CARD=${CARD:-$(dirname "$REPLAY")/../report/card}
[ -x "$CARD" ] || { echo "ERROR: no card program at $CARD" >&2; exit 99; }
export SOURCE_DATE_EPOCH=1790000000
golds=$TOP_SRCDIR/tests/card
pass=0 fail=0

night=$TEST_TMP/night.db
"$REPLAY" --quiet --db "$night" "$TOP_SRCDIR/samples/night" 2>/dev/null
# the contracts night: run v1 on shop.json, v2 on tests/card/shop-v2.json,
# v3 on tests/card/shop-refused.json
contracts=$TEST_TMP/contracts.db
(cd "$golds" && "$REPLAY" --quiet --db "$contracts" contracts.jsonl 2>/dev/null)
# the generators night: v1 twice, the copy marked as made by generator 1
generators=$TEST_TMP/generators.db
mkdir -p "$TEST_TMP/g" && cp "$golds/shop-v2.json" "$TEST_TMP/g/" &&
    cp -R "$TOP_SRCDIR/samples" "$TEST_TMP/samples" || exit 99
sed 's#"tools":"../../samples/#"tools":"../samples/#' "$golds/contracts.jsonl" \
    > "$TEST_TMP/g/g.jsonl"
grep '"run":"v1"' "$TEST_TMP/g/g.jsonl" | sed 's/"run":"v1"/"run":"v1-old"/' \
    >> "$TEST_TMP/g/g.jsonl"
(cd "$TEST_TMP/g" && "$REPLAY" --quiet --db "$generators" g.jsonl 2>/dev/null)
sqlite3 "$generators" "UPDATE runs SET generator_version = 1,
    generator_fingerprint = '23789fd0e9a0eee958af44aff97f9d1bf62b1eba3906050f530046572680e565'
    WHERE run = 'v1-old'"

# gold NAME DB ARGS...: card's stdout, stderr and exit status
gold() {
    g_name=$1 g_db=$2
    shift 2
    got=$("$CARD" --db "$g_db" "$@" 2>&1; echo "exit $?")
    got=$(printf '%s\n' "$got" | sed "s#$TEST_TMP/#TMP/#g")
    [ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$got" > "$golds/$g_name.gold"
    if [ -f "$golds/$g_name.gold" ] && [ "$got" = "$(cat "$golds/$g_name.gold")" ]
    then pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $g_name"
        printf '%s\n' "$got" | diff "$golds/$g_name.gold" - | head -20
    fi
}

gold careful-text "$night" careful
gold sloppy-text "$night" sloppy
gold sloppy-markdown "$night" --markdown sloppy
gold sloppy-narrow "$night" --width 60 sloppy
gold night-json "$night" --json careful sloppy careful-reformatted
gold careful-html "$night" --html careful
gold sloppy-html "$night" --html sloppy
gold compare-same-html "$night" --html --compare careful sloppy
gold compare-generators-html "$generators" --html --compare v1 v1-old
gold latest "$night"
gold list "$night" --list
gold list-json "$night" --list --json
gold compare-same "$night" --compare careful sloppy
gold compare-same-markdown "$night" --compare sloppy careful --markdown
gold compare-same-json "$night" --compare careful sloppy --json
gold compare-reformatted "$night" --compare careful careful-reformatted
gold compare-reformatted-json "$night" --compare careful careful-reformatted --json
gold compare-contracts "$contracts" --compare v1 v2
gold compare-contracts-json "$contracts" --compare v1 v2 --json
# simulated runs keep the refusal: tasks drawn from other contracts differ
got=$("$CARD" --db "$contracts" --compare v1 v2 --across-contracts 2>&1; echo "exit $?")
if [ "$got" = "$(cat "$golds/compare-contracts.gold")" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL --across-contracts on simulated runs"
    printf '%s\n' "$got" | diff "$golds/compare-contracts.gold" - | head -20
fi
# the same tools, the files differing elsewhere (v3's file refuses a tool)
gold compare-same-tools "$contracts" --compare v1 v3
gold compare-same-tools-html "$contracts" --compare v1 v3 --html
gold compare-generators "$generators" --compare v1 v1-old
gold unknown-run "$night" carefull
gold unknown-run-compare "$night" --compare careful nope
gold no-database "$TEST_TMP/none.db"
gold usage "$night" --compare careful

# A file that cannot be read: SQLite's reason, not "not a results
# database"; that line is for a file that reads fine but holds none.
echo "not a database at all" > "$TEST_TMP/text.db"
head -c 8192 "$night" > "$TEST_TMP/truncated.db"
sqlite3 "$TEST_TMP/other.db" "CREATE TABLE notes (x); INSERT INTO notes VALUES (1)"
gold not-sqlite "$TEST_TMP/text.db"
gold truncated "$TEST_TMP/truncated.db"
gold other-application "$TEST_TMP/other.db"

# A database in WAL mode, in a folder its reader cannot write, without its
# -wal and -shm files: the reason, and what such a database needs.  Root
# reads and writes anyway, so as root card runs as nobody (when setpriv
# is there and nobody can run it).
mkdir "$TEST_TMP/ro" && cp "$night" "$TEST_TMP/ro/results.db" || exit 99
as=""
if [ "$(id -u)" = 0 ]; then
    chmod 755 "$TEST_TMP" "$TEST_TMP/ro" && chmod 644 "$TEST_TMP/ro/results.db"
    as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
    $as "$CARD" --version >/dev/null 2>&1 || as=none
else
    chmod 555 "$TEST_TMP/ro"
fi
if [ "$as" = none ]; then
    echo "skipped: a read-only WAL database (cannot run card as nobody)"
else
    got=$($as "$CARD" --db "$TEST_TMP/ro/results.db" 2>&1; echo "exit $?")
    want="card: $TEST_TMP/ro/results.db: cannot read it: attempt to write a readonly database (a database in WAL mode needs its folder writable, or its -wal and -shm files present)
exit 3"
    if check_eq "a read-only WAL database" "$want" "$got"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); fi
fi
chmod 700 "$TEST_TMP/ro"

# The text fits 80 columns, everywhere (an ellipsis is one column of
# three bytes).
wide=$(cat "$golds"/*-text.gold "$golds"/compare-*[!nl].gold "$golds"/list.gold |
       sed 's/…/./g' | awk 'length($0) > 80' | head -3)
if check_eq "lines wider than 80 columns" "" "$wide"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); fi

# --width 60: the card fits 60 columns.
wide=$(awk 'length($0) > 60' "$golds/sloppy-narrow.gold" | head -3)
if check_eq "lines of --width 60 wider than 60 columns" "" "$wide"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); fi

# Every figure is the query docs/card.md gives for it.
if [ -n "${PYTHON3:-}" ]; then
    "$CARD" --db "$night" --json careful sloppy careful-reformatted \
        > "$TEST_TMP/cards.jsonl"
    if "$PYTHON3" "$TOP_SRCDIR/tests/card_sql.py" "$TOP_SRCDIR/docs/card.md" \
        "$night" "$TEST_TMP/cards.jsonl"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); fi
fi

echo "card: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
