# Bad input never stops the night: tests/badnight/NAME.jsonl is a small
# night with one kind of unusable line among good ones, NAME.gold what
# replay must say and record for it: its stderr and exit status, then the
# episodes, calls and problems in the database (sqlite3).  Two more cases
# are made here rather than kept: a 10 MB line and 10,000-deep nesting.
# Also: --strict stops at the first problem.  UPDATE_GOLDEN=1 rewrites the
# golds (check every line of the diff by hand before committing it).
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
export SOURCE_DATE_EPOCH=1790000000
cases=$TOP_SRCDIR/tests/badnight
pass=0 fail=0

# The first lines of a good night, with an absolute tool path.
shop=$TOP_SRCDIR/samples/tools/shop.json
good_run="{\"type\":\"run\",\"run\":\"night\",\"tools\":\"$shop\"}"
good_ep='{"type":"episode","run":"night","episode":"e1","seed":7,"arm":"base"}'
good_end='{"type":"end","run":"night","episode":"e1","status":"done"}'
mkdir -p "$TEST_TMP/made"
{
    echo "$good_run"
    echo "$good_ep"
    printf '{"type":"call","run":"night","episode":"e1","call":{"name":"search_orders","arguments":{"query":"'
    head -c 10485760 /dev/zero | tr '\0' 'x'
    echo '"}}}'
    echo "$good_end"
} > "$TEST_TMP/made/long-line.jsonl"
{
    echo "$good_run"
    echo "$good_ep"
    printf '{"type":"call","run":"night","episode":"e1","call":{"name":"search_orders","arguments":{"query":'
    awk 'BEGIN { for (i = 0; i < 10000; i++) printf "["; for (i = 0; i < 10000; i++) printf "]" }'
    echo '}}}'
    echo "$good_end"
} > "$TEST_TMP/made/deep-nesting.jsonl"

# play DIR NAME: what replay says and records for DIR/NAME.jsonl.  A
# problem is recorded under its file's resolved path, from the database's
# folder when it lies under it (made/...), else whole (TOP/...).
top=$(cd "$TOP_SRCDIR" && pwd -P)
play() {
    db=$TEST_TMP/$2.db
    rm -f "$db"
    (cd "$1" && "$REPLAY" --db "$db" "$2.jsonl" 2>&1; echo "exit $?") |
        sed "s#$TEST_TMP/#TMP/#g"
    echo "--- episodes"
    sqlite3 -separator ' ' "$db" "SELECT run, episode, calls, reached, pass,
        side_effects, unfinished, diverged FROM episodes ORDER BY run, episode"
    echo "--- calls"
    sqlite3 -separator ' ' "$db" "SELECT run, episode, seq, source_line,
        effect, coalesce(error, '-'), diverged FROM calls
        ORDER BY run, episode, seq"
    echo "--- problems"
    sqlite3 -separator ' ' "$db" "SELECT source_file, source_line,
        coalesce(run, '-'), coalesce(episode, '-'), length(line), message
        FROM problems ORDER BY source_file, source_line" |
        sed "s#^$top/#TOP/#"
}

check() { # DIR NAME
    got=$(play "$1" "$2")
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
        printf '%s\n' "$got" > "$cases/$2.gold"
    fi
    if [ -f "$cases/$2.gold" ] && [ "$got" = "$(cat "$cases/$2.gold")" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $2"
        printf '%s\n' "$got" | diff "$cases/$2.gold" - | head -30
    fi
}

for f in "$cases"/*.jsonl; do
    name=$(basename "$f" .jsonl)
    check "$cases" "$name"
done
check "$TEST_TMP/made" long-line
check "$TEST_TMP/made" deep-nesting

# --strict: the first problem stops the night; what came before it stays.
db=$TEST_TMP/strict.db
got=$(cd "$cases" && "$REPLAY" --strict --db "$db" unknown-type.jsonl 2>&1;
      echo "exit $?")
want='unknown-type.jsonl:4: unknown type "cal": a line'"'"'s type is run, episode, call or end
replay: stopped at the first problem (--strict)
replay: 4 lines: 1 used, 0 unchanged, 1 problem, 0 blank
replay: 1 run; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into '"$db"'
exit 1'
if check_eq "--strict" "$want" "$got" &&
   check_eq "--strict problems" 1 "$(sqlite3 "$db" 'SELECT count(*) FROM problems')" &&
   check_eq "--strict episodes" 0 "$(sqlite3 "$db" 'SELECT count(*) FROM episodes')"
then pass=$((pass + 1)); else fail=$((fail + 1)); fi

# Could not run at all: exit 3 and one line, nothing read.
cannot() { # WANT ARGS...
    cn_want=$1
    shift
    cn_got=$(cd "$TEST_TMP" && "$REPLAY" "$@" 2>&1; echo "exit $?")
    if check_eq "replay $*" "$cn_want
exit 3" "$cn_got"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}
night=$cases/unfinished.jsonl
sqlite3 "$TEST_TMP/newer.db" "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
    INSERT INTO meta VALUES ('schema_version', '10')"
cannot "replay: newer.db: has schema version 10, newer than this replay writes (9); use a newer replay or another --db" \
    --db newer.db "$night"
# A version 1 database that lacks its tables: the migration fails whole,
# and leaves the file as it was.
sqlite3 "$TEST_TMP/broken1.db" "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    INSERT INTO meta VALUES ('schema_version', '1')"
cannot "replay: broken1.db: cannot migrate it from schema version 1: no such table: tool_files" \
    --db broken1.db "$night"
check_eq "a failed migration leaves" "meta" \
    "$(sqlite3 "$TEST_TMP/broken1.db" "SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")" &&
    pass=$((pass + 1)) || fail=$((fail + 1))
sqlite3 "$TEST_TMP/other.db" "CREATE TABLE t (x)"
cannot "replay: other.db: holds tables but no taskreplay schema version; replay into a new file with --db" \
    --db other.db "$night"
cannot "replay: no/such/dir.db: cannot open it: unable to open database file" \
    --db no/such/dir.db "$night"
cannot "replay: cannot read nope.jsonl: No such file or directory" \
    --db x.db nope.jsonl
cannot "replay: run \"r\": its tool file nope.json cannot be read: No such file or directory" \
    --db x.db --run r --tools nope.json "$night"

# A full disk under replay sim's transcript: said once, the agent still
# answered, exit 1.
if [ -w /dev/full ]; then
    got=$(echo '{"name":"list_channels"}' | "$REPLAY" sim "$shop" \
          --transcript /dev/full 2>"$TEST_TMP/full.err"; echo "exit $?")
    got="$got
$(cat "$TEST_TMP/full.err")"
    want='{"id":"I-4663","ok":true}
exit 1
replay sim: cannot write the transcript /dev/full: No space left on device
replay sim: 1 call; not reached, not a pass (0 side effects, 0 duplicate writes)'
    if check_eq "a full disk under the transcript" "$want" "$got"; then
        pass=$((pass + 1)); else fail=$((fail + 1)); fi
fi

# A mistyped command is not taken for a transcript.
got=$(cd "$TEST_TMP" && "$REPLAY" hsah x.json 2>&1; echo "exit $?")
want="replay: 'hsah' is neither a command nor a transcript; did you mean 'hash'?
Try 'replay --help'.
exit 2"
if check_eq "a mistyped command" "$want" "$got"; then pass=$((pass + 1))
else fail=$((fail + 1)); fi

echo "bad input: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
