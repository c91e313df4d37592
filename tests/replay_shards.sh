# Shards and merge: a night split N ways (replay --shard I/N, or the index
# a batch scheduler puts in the environment), the N processes run at once,
# then `replay merge`, must give the database one process gives (every
# table's rows compared in key order).  Merging again changes nothing; a
# shard whose run has another tool file is refused, and so is a shard
# that is not exactly a results database of this version (a trigger, a
# table or view added or changed...), or that does not exist: before
# anything is created, in one line, exit status 3.  NIGHT (a folder of
# transcripts) defaults to samples/night; tests/bench passes a generated one.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
export SOURCE_DATE_EPOCH=1790000000
night=${NIGHT:-$TOP_SRCDIR/samples/night}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

"$REPLAY" --quiet --db "$TEST_TMP/one.db" "$night" 2>/dev/null
one=$(db_dump "$TEST_TMP/one.db")

# Three shards, three ways of naming them, at once.
( unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX
  TASKREPLAY_SHARD=0/3 "$REPLAY" --quiet --db "$TEST_TMP/s0.db" "$night" \
      2>"$TEST_TMP/s0.err" ) &
( unset TASKREPLAY_SHARD JOB_COMPLETION_INDEX
  SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 \
      "$REPLAY" --db "$TEST_TMP/s1.db" "$night" 2>"$TEST_TMP/s1.err" ) &
( unset TASKREPLAY_SHARD SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT
  JOB_COMPLETION_INDEX=2 TASKREPLAY_SHARDS=3 \
      "$REPLAY" --db "$TEST_TMP/s2.db" "$night" 2>"$TEST_TMP/s2.err" ) &
wait
if check_eq "the shard under --quiet" "replay: shard 0/3 (from TASKREPLAY_SHARD)" \
       "$(head -1 "$TEST_TMP/s0.err")" &&
   check_eq "the Slurm index" "replay: shard 1/3 (from SLURM_ARRAY_TASK_ID)" \
       "$(head -1 "$TEST_TMP/s1.err")" &&
   check_eq "the Kubernetes index" "replay: shard 2/3 (from JOB_COMPLETION_INDEX)" \
       "$(head -1 "$TEST_TMP/s2.err")"
then ok; else ko "shard from the environment"; fi

# A Slurm task submitted again on its own (sbatch --array=1: Slurm says
# task 1 of 1, from 1) keeps shard 1/3 when the script pins N with
# TASKREPLAY_SHARDS: the database shard 1 gives, whatever the count.
shard_env() { # shard_env DB VAR=VALUE...: replay --quiet of the night
    se_db=$1
    shift
    ( unset TASKREPLAY_SHARD TASKREPLAY_SHARDS SLURM_ARRAY_TASK_ID \
          SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX
      env "$@" "$REPLAY" --quiet --db "$se_db" "$night" 2>&1; echo "exit $?" )
}
got=$(shard_env "$TEST_TMP/pinned.db" SLURM_ARRAY_TASK_ID=1 \
    SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=1 TASKREPLAY_SHARDS=3 |
    head -n 1)
if check_eq "a Slurm task on its own, N pinned" \
       "replay: shard 1/3 (from SLURM_ARRAY_TASK_ID and TASKREPLAY_SHARDS)" \
       "$got" &&
   check_eq "its database" "$(db_dump "$TEST_TMP/s1.db")" \
       "$(db_dump "$TEST_TMP/pinned.db")"
then ok; else ko "N pinned"; fi

# What the environment gives is read whole and bounded before any
# arithmetic (an ID minus a MIN that would overflow is no shard): one
# line, exit 2, nothing read or written.
for c in \
    "SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=-9223372036854775808 SLURM_ARRAY_TASK_COUNT=4|SLURM_ARRAY_TASK_MIN is \"-9223372036854775808\", not a number from 0 to 1000000000" \
    "SLURM_ARRAY_TASK_ID=9223372036854775807 SLURM_ARRAY_TASK_MIN=-1 SLURM_ARRAY_TASK_COUNT=4|SLURM_ARRAY_TASK_ID is \"9223372036854775807\", not a number from 0 to 1000000000" \
    "SLURM_ARRAY_TASK_ID=99999999999999999999 SLURM_ARRAY_TASK_COUNT=4|SLURM_ARRAY_TASK_ID is \"99999999999999999999\", not a number from 0 to 1000000000" \
    "SLURM_ARRAY_TASK_ID=+1 SLURM_ARRAY_TASK_COUNT=4|SLURM_ARRAY_TASK_ID is \"+1\", not a number from 0 to 1000000000" \
    "SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_COUNT=4|SLURM_ARRAY_TASK_ID (2) minus SLURM_ARRAY_TASK_MIN (3) is not a shard of SLURM_ARRAY_TASK_COUNT (4)" \
    "SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4|SLURM_ARRAY_TASK_ID (4) minus SLURM_ARRAY_TASK_MIN (0) is not a shard of SLURM_ARRAY_TASK_COUNT (4)" \
    "SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=100001|SLURM_ARRAY_TASK_COUNT is \"100001\", not a number from 0 to 100000" \
    "SLURM_ARRAY_TASK_ID=8 TASKREPLAY_SHARDS=8|SLURM_ARRAY_TASK_ID is 8, not below TASKREPLAY_SHARDS (8): with TASKREPLAY_SHARDS the array's task IDs are the shards, 0 to 7" \
    "SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=8 TASKREPLAY_SHARDS=4|the array has 8 tasks (SLURM_ARRAY_TASK_COUNT), more than TASKREPLAY_SHARDS (4)" \
    "SLURM_ARRAY_TASK_ID=0 TASKREPLAY_SHARDS=0|TASKREPLAY_SHARDS is 0: a night splits into 1 shard or more" \
    "JOB_COMPLETION_INDEX=3|JOB_COMPLETION_INDEX is set, and not TASKREPLAY_SHARDS (set it to the Job's completions)" \
    "JOB_COMPLETION_INDEX=3 TASKREPLAY_SHARDS=3|JOB_COMPLETION_INDEX is 3, not below TASKREPLAY_SHARDS (3)" \
    "JOB_COMPLETION_INDEX=-1 TASKREPLAY_SHARDS=3|JOB_COMPLETION_INDEX is \"-1\", not a number from 0 to 1000000000" \
    "TASKREPLAY_SHARD=3/3|TASKREPLAY_SHARD is \"3/3\", not I/N (the shard I, from 0, of N up to 100000)"
do
    want="replay: cannot read the shard from the environment: ${c#*|}
Try 'replay --help'.
exit 2"
    # shellcheck disable=SC2086 # the assignments, split on spaces
    got=$(shard_env "$TEST_TMP/refused.db" ${c%%|*})
    if check_eq "shard from ${c%%|*}" "$want" "$got" &&
       check_eq "what it leaves" "" "$(cd "$TEST_TMP" && ls -d refused.db* 2>/dev/null)"
    then ok; else ko "a shard the environment gives that cannot be read"; fi
done

# --problems-ok: the sample night with a line that is a problem exits 0,
# the problem recorded and said as without it; with --strict, a usage
# error.
mkdir "$TEST_TMP/bad" && cp "$TOP_SRCDIR"/samples/night/*.jsonl "$TEST_TMP/bad/" &&
    printf '{"type": "episode", "run": \n' >>"$TEST_TMP/bad/careful.jsonl" ||
    exit 99
got_ok=$("$REPLAY" --quiet --problems-ok --tools-dir "$TOP_SRCDIR/samples/tools" \
    --db "$TEST_TMP/bad-ok.db" "$TEST_TMP/bad" 2>&1; echo "exit $?")
got_one=$("$REPLAY" --quiet --tools-dir "$TOP_SRCDIR/samples/tools" \
    --db "$TEST_TMP/bad-1.db" "$TEST_TMP/bad" 2>&1; echo "exit $?")
if check_eq "a problem, --problems-ok" "$TEST_TMP/bad/careful.jsonl:682: not JSON: the text ends early; expected a value (column 28)
replay: 2144 lines: 2143 used, 0 unchanged, 1 problem, 0 blank
replay: 3 runs; 288 episodes written (0 replaced, 0 unfinished), 0 unchanged; 1564 calls; into $TEST_TMP/bad-ok.db
exit 0" "$got_ok" &&
   check_eq "a problem, without it" "$(printf '%s\n' "$got_ok" |
       sed -e 's/bad-ok\.db/bad-1.db/' -e 's/^exit 0$/exit 1/')" "$got_one" &&
   check_eq "the same database" "$(db_dump "$TEST_TMP/bad-1.db")" \
       "$(db_dump "$TEST_TMP/bad-ok.db")" &&
   check_eq "--strict and --problems-ok" "replay: --strict stops at the first problem and --problems-ok goes past them: give one
Try 'replay --help'.
exit 2" "$("$REPLAY" --strict --problems-ok --db "$TEST_TMP/strict.db" \
        "$TEST_TMP/bad" 2>&1; echo "exit $?")"
then ok; else ko "--problems-ok"; fi

# A night moved away from its tool files (its run lines name
# ../tools/shop.json, and the files are in kept/), replayed in two shards
# with --tools-dir kept: each shard records where its runs' files were
# found, and so does the merge, whether the runs come in with the first
# shard (copied whole) or after another run (inserted): what one process
# records.
mkdir "$TEST_TMP/moved" "$TEST_TMP/kept" &&
    cp "$TOP_SRCDIR"/samples/night/*.jsonl "$TEST_TMP/moved/" &&
    cp "$TOP_SRCDIR"/samples/tools/shop.json \
       "$TOP_SRCDIR"/samples/tools/shop-reformatted.json "$TEST_TMP/kept/" &&
    printf '%s\n' '{"type":"run","run":"other","tools":"shop.json"}' \
        > "$TEST_TMP/kept/other.jsonl" || exit 99
(
    cd "$TEST_TMP" || exit 99
    "$REPLAY" --quiet --db moved-one.db --tools-dir kept moved
    for i in 0 1; do
        "$REPLAY" --quiet --shard $i/2 --db moved-s$i.db --tools-dir kept moved
    done
    "$REPLAY" --quiet --db other.db kept/other.jsonl
) 2>/dev/null
"$REPLAY" merge --quiet "$TEST_TMP/moved-m.db" "$TEST_TMP/moved-s0.db" \
    "$TEST_TMP/moved-s1.db"
"$REPLAY" merge --quiet "$TEST_TMP/moved-after.db" "$TEST_TMP/other.db" \
    "$TEST_TMP/moved-s0.db" "$TEST_TMP/moved-s1.db"
runs_found() {
    sqlite3 "$1" "SELECT run, tools_path, quote(tools_found) FROM runs ORDER BY run"
}
if check_eq "where a moved night's tool files were found" \
       "careful|../tools/shop.json|'kept/shop.json'
careful-reformatted|../tools/shop-reformatted.json|'kept/shop-reformatted.json'
sloppy|../tools/shop.json|'kept/shop.json'" \
       "$(runs_found "$TEST_TMP/moved-one.db")" &&
   check_eq "a shard's" "$(runs_found "$TEST_TMP/moved-one.db")" \
       "$(runs_found "$TEST_TMP/moved-s1.db")" &&
   check_eq "merged equals one process (moved)" \
       "$(db_dump "$TEST_TMP/moved-one.db")" \
       "$(db_dump "$TEST_TMP/moved-m.db")" &&
   check_eq "merged after another run" \
       "careful|../tools/shop.json|'kept/shop.json'
careful-reformatted|../tools/shop-reformatted.json|'kept/shop-reformatted.json'
other|shop.json|NULL
sloppy|../tools/shop.json|'kept/shop.json'" \
       "$(runs_found "$TEST_TMP/moved-after.db")"
then ok; else ko "where a moved night's tool files were found, merged"; fi

# Each episode in exactly one shard.
total=$(sqlite3 "$TEST_TMP/one.db" 'SELECT count(*) FROM episodes')
sum=0
for i in 0 1 2; do
    n=$(sqlite3 "$TEST_TMP/s$i.db" 'SELECT count(*) FROM episodes')
    [ "$n" -gt 0 ] || ko "shard $i has no episode"
    sum=$((sum + n))
done
if check_eq "episodes over the shards" "$total" "$sum"; then ok; else ko "split"; fi

"$REPLAY" merge --quiet "$TEST_TMP/merged.db" "$TEST_TMP"/s0.db \
    "$TEST_TMP"/s1.db "$TEST_TMP"/s2.db
if check_eq "merged equals one process" "$one" "$(db_dump "$TEST_TMP/merged.db")"
then ok; else ko "shards and merge"; fi

got=$("$REPLAY" merge "$TEST_TMP/merged.db" "$TEST_TMP/s1.db" 2>&1; echo "exit $?")
n1=$(sqlite3 "$TEST_TMP/s1.db" 'SELECT count(*) FROM episodes')
want="replay: merged $TEST_TMP/s1.db: $n1 episodes (0 new, 0 replaced, $n1 unchanged)
replay: 1 shard into $TEST_TMP/merged.db: $n1 episodes (0 new, 0 replaced, $n1 unchanged)
exit 0"
if check_eq "merging again" "$want" "$got" &&
   check_eq "the database after merging again" "$one" \
       "$(db_dump "$TEST_TMP/merged.db")"
then ok; else ko "merging again"; fi

# A shard whose episode changed since it was merged (its status, and so
# its content's hash): that one is replaced, the rest are unchanged, and
# the merged database holds the new one, once.
cp "$TEST_TMP/merged.db" "$TEST_TMP/remerged.db" &&
    cp "$TEST_TMP/s1.db" "$TEST_TMP/s1-changed.db" || exit 99
sqlite3 "$TEST_TMP/s1-changed.db" "UPDATE episode_rows SET status = 'stopped',
    content_xxh3 = '0000000000000000' WHERE episode_id = 1"
first=$(sqlite3 "$TEST_TMP/s1-changed.db" "SELECT run || '|' || episode FROM episodes WHERE episode_id = 1")
got=$("$REPLAY" merge "$TEST_TMP/remerged.db" "$TEST_TMP/s1-changed.db" 2>&1 | head -n 1)
if check_eq "a changed episode merged again" \
       "replay: merged $TEST_TMP/s1-changed.db: $n1 episodes (0 new, 1 replaced, $((n1 - 1)) unchanged)" "$got" &&
   check_eq "the merged database holds the new one, once" "stopped|1|$(sqlite3 "$TEST_TMP/one.db" 'SELECT count(*) FROM episodes')" \
       "$(sqlite3 "$TEST_TMP/remerged.db" "SELECT (SELECT group_concat(status) FROM episodes WHERE run || '|' || episode = '$first'), (SELECT count(*) FROM episodes WHERE run || '|' || episode = '$first'), (SELECT count(*) FROM episodes)")"
then ok; else ko "a changed episode merged again"; fi

# A shard finds whose a line is from its start (type, run and episode,
# as replay sim writes them), and passes over other shards' lines without
# reading them; lines laid out otherwise are read whole to know.  A night
# with both kinds for the same episodes: call lines naming their episode
# with an escape (\u003a for its ':'), an episode's lines with "type"
# last, a line broken after its start (its episode's shard's problem,
# recorded once and not by every shard), a line that names its run twice
# (refused by every reader: readers of JSON differ on which counts).
# Three shards merged give what one process gives.
mkdir "$TEST_TMP/rough" &&
    cp "$TOP_SRCDIR"/samples/night/*.jsonl "$TEST_TMP/rough/" &&
    sed -i -e '/"type":"call"/s/"episode":"sloppy_arguments-baddata:b0-s1"/"episode":"sloppy_arguments-baddata\\u003ab0-s1"/' \
        "$TEST_TMP/rough/sloppy.jsonl" &&
    sed -i -e 's/^{"type":"\([a-z]*\)",\("run":"careful","episode":"careful-baddata:b0-s2".*\)}$/{\2,"type":"\1"}/' \
        "$TEST_TMP/rough/careful.jsonl" &&
    printf '%s\n' '{"type":"call","run":"careful","episode":"careful-baddata:b0-s3","call":{"name":' \
        '{"type":"end","run":"careful","episode":"careful-baddata:b0-s4","run":"sloppy"}' \
        >> "$TEST_TMP/rough/careful.jsonl" || exit 99
rough() { # rough DB [--shard I/N]: the rough night replayed into DB
    rdb=$1
    shift
    "$REPLAY" --quiet --problems-ok "$@" --db "$TEST_TMP/$rdb" \
        --tools-dir "$TOP_SRCDIR/samples/tools" "$TEST_TMP/rough" 2>/dev/null
}
rough rough-one.db
for i in 0 1 2; do rough "rough-s$i.db" --shard "$i/3"; done
"$REPLAY" merge --quiet "$TEST_TMP/rough-m.db" "$TEST_TMP"/rough-s[012].db
problems_of() { sqlite3 "$1" "SELECT source_line, episode, message FROM problems ORDER BY 1"; }
if check_eq "the rough night's problems" "682||not JSON: the text ends early; expected a value (column 81)
683||\"run\" is given more than once on this line; give it once (readers of JSON differ on which one counts)" \
       "$(sqlite3 "$TEST_TMP/rough-one.db" "SELECT source_line, episode, message FROM problems ORDER BY 1")" &&
   check_eq "the escaped and reordered lines are used" "4|5|0" \
       "$(sqlite3 "$TEST_TMP/rough-one.db" "SELECT (SELECT calls FROM episodes WHERE episode = 'careful-baddata:b0-s2' AND run = 'careful'), (SELECT count(*) FROM calls WHERE episode = 'sloppy_arguments-baddata:b0-s1'), (SELECT count(*) FROM episodes WHERE unfinished AND episode IN ('careful-baddata:b0-s2', 'sloppy_arguments-baddata:b0-s1'))")" &&
   check_eq "the broken line, in one shard only" "1" \
       "$(for i in 0 1 2; do sqlite3 "$TEST_TMP/rough-s$i.db" "SELECT count(*) FROM problems WHERE source_line = 682"; done | awk '{ n += $1 } END { print n }')" &&
   check_eq "merged equals one process (rough)" \
       "$(db_dump "$TEST_TMP/rough-one.db")" "$(db_dump "$TEST_TMP/rough-m.db")"
then ok; else ko "lines routed from their start"; fi

# A shard with a run of the same name on another tool file: refused.
cp "$TEST_TMP/s0.db" "$TEST_TMP/other.db"
sqlite3 "$TEST_TMP/other.db" "INSERT INTO tool_files (file_sha256, contract_sha256, format, path, tools, refused, contract) SELECT 'f00d' || substr(file_sha256, 5), contract_sha256, format, path, tools, refused, contract FROM tool_files LIMIT 1;
    PRAGMA foreign_keys = OFF;
    UPDATE runs SET file_sha256 = (SELECT file_sha256 FROM tool_files WHERE file_sha256 LIKE 'f00d%') WHERE run = 'careful'"
got=$("$REPLAY" merge "$TEST_TMP/merged.db" "$TEST_TMP/other.db" 2>&1; echo "exit $?")
want="replay: $TEST_TMP/other.db: a run of it is recorded in $TEST_TMP/merged.db with another tool file; merge refused
exit 3"
if check_eq "a conflicting shard" "$want" "$got" &&
   check_eq "the database after a refused merge" "$one" \
       "$(db_dump "$TEST_TMP/merged.db")"
then ok; else ko "a conflicting shard"; fi

# A file that is not a results database: refused, nothing written.
echo "not a database" > "$TEST_TMP/junk.db"
got=$("$REPLAY" merge "$TEST_TMP/merged.db" "$TEST_TMP/junk.db" 2>&1; echo "exit $?")
want="replay merge: $TEST_TMP/junk.db: cannot read it: file is not a database
exit 3"
sqlite3 "$TEST_TMP/plain.db" "CREATE TABLE t (x)"
got2=$("$REPLAY" merge "$TEST_TMP/merged.db" "$TEST_TMP/plain.db" 2>&1; echo "exit $?")
want2="replay merge: $TEST_TMP/plain.db: not a results database of this version: it has a table \"t\" that replay does not make; merge only databases that replay wrote
exit 3"
if check_eq "merging a file that is not a database" "$want" "$got" &&
   check_eq "merging another database" "$want2" "$got2" &&
   check_eq "the database after refused merges" "$one" \
       "$(db_dump "$TEST_TMP/merged.db")"
then ok; else ko "merging what is not a shard"; fi

# Into a new database: built aside, renamed into place when whole.  A
# shard that cannot be read leaves neither OUT nor the file it was being
# built in; what a killed merge left aside is built again.
got=$("$REPLAY" merge --quiet "$TEST_TMP/new.db" "$TEST_TMP/s0.db" \
    "$TEST_TMP/junk.db" 2>&1; echo "exit $?")
want="replay merge: $TEST_TMP/junk.db: cannot read it: file is not a database
exit 3"
if check_eq "a failed merge into a new database" "$want" "$got" &&
   check_eq "what it leaves" "" "$(cd "$TEST_TMP" && ls -d new.db* 2>/dev/null)"
then ok; else ko "a failed merge into a new database"; fi
echo "left by a killed merge" > "$TEST_TMP/new.db.partial"
if "$REPLAY" merge --quiet "$TEST_TMP/new.db" "$TEST_TMP"/s0.db \
       "$TEST_TMP"/s1.db "$TEST_TMP"/s2.db &&
   check_eq "a new merged database" "$one" "$(db_dump "$TEST_TMP/new.db")" &&
   check_eq "its files and log mode" "new.db
wal" "$(cd "$TEST_TMP" && ls -d new.db*; sqlite3 new.db 'PRAGMA journal_mode')"
then ok; else ko "a merge over a killed one"; fi

# Crafted shards: each is s0.db with one change to its schema.  Merged
# into a new database, as the first shard or after a good one, none
# creates anything; into a database that exists, none changes it.
craft() { # craft NAME SQL: $TEST_TMP/NAME.db, s0.db changed by SQL
    cp "$TEST_TMP/s0.db" "$TEST_TMP/$1.db" &&
        sqlite3 "$TEST_TMP/$1.db" "$2" || exit 99
}
esc=$(printf '\033')
craft trigger "CREATE TRIGGER x AFTER INSERT ON episode_rows BEGIN
    UPDATE episode_rows SET pass = 1 WHERE episode_id = new.episode_id; END"
craft table "CREATE TABLE notes (x)"
craft view "CREATE VIEW passes AS SELECT run, pass FROM episodes"
craft changed_view "DROP VIEW run_summary; CREATE VIEW run_summary AS
    SELECT run, count(*) AS episodes, count(*) AS pass FROM episodes GROUP BY run"
craft changed_table "ALTER TABLE problems ADD COLUMN note TEXT"
craft index "CREATE INDEX calls_by_tool ON call_rows(tool)"
craft no_index "DROP INDEX problems_by_run"
ours=$(sqlite3 "$TEST_TMP/s0.db" "SELECT value FROM meta
    WHERE key = 'schema_version'")
craft version "UPDATE meta SET value = '$((ours + 1))'
    WHERE key = 'schema_version'"
craft no_version "DELETE FROM meta"
craft escaped "CREATE TRIGGER \"a
b${esc}[2J\" AFTER INSERT ON runs BEGIN SELECT 1; END"
sq="$TEST_TMP"
for c in \
    "trigger|it has a trigger \"x\" that replay does not make" \
    "table|it has a table \"notes\" that replay does not make" \
    "view|it has a view \"passes\" that replay does not make" \
    "changed_view|its view \"run_summary\" is not the one replay makes" \
    "changed_table|its table \"problems\" is not the one replay makes" \
    "index|it has an index \"calls_by_tool\" that replay does not make" \
    "no_index|it has no index \"problems_by_run\", which replay makes" \
    "version|it has schema version $((ours + 1)), and this replay writes $ours" \
    "no_version|it records no schema version" \
    "escaped|it has a trigger \"a\\nb\\x1b[2J\" that replay does not make"
do
    name=${c%%|*}
    want="replay merge: $sq/$name.db: not a results database of this version: ${c#*|}; merge only databases that replay wrote
exit 3"
    got_first=$("$REPLAY" merge --quiet "$TEST_TMP/crafted.db" \
        "$TEST_TMP/$name.db" "$TEST_TMP/s1.db" 2>&1; echo "exit $?")
    got_second=$("$REPLAY" merge --quiet "$TEST_TMP/crafted.db" \
        "$TEST_TMP/s1.db" "$TEST_TMP/$name.db" 2>&1; echo "exit $?")
    got_into=$("$REPLAY" merge --quiet "$TEST_TMP/merged.db" \
        "$TEST_TMP/$name.db" 2>&1; echo "exit $?")
    if check_eq "a crafted shard ($name) first" "$want" "$got_first" &&
       check_eq "a crafted shard ($name) second" "$want" "$got_second" &&
       check_eq "a crafted shard ($name) into a database" "$want" "$got_into" &&
       check_eq "what a crafted shard ($name) leaves" "" \
           "$(cd "$TEST_TMP" && ls -d crafted.db* 2>/dev/null)" &&
       check_eq "the database after a crafted shard ($name)" "$one" \
           "$(db_dump "$TEST_TMP/merged.db")"
    then ok; else ko "a crafted shard ($name)"; fi
done

# A shard whose schema differs only in comments and spacing (an earlier
# release's, whose comments said other words) is a results database.
sed -e 's/--.*$/-- other words/' -e 's/^    /  /' "$TOP_SRCDIR/sql/schema.sql" |
    sqlite3 "$TEST_TMP/commented.db"
sqlite3 "$TEST_TMP/commented.db" \
    "INSERT OR REPLACE INTO meta VALUES ('schema_version', '2')"
got=$("$REPLAY" merge --quiet "$TEST_TMP/commented-out.db" "$TEST_TMP/s0.db" \
    "$TEST_TMP/commented.db" 2>&1; echo "exit $?")
if check_eq "a shard whose comments differ" "exit 0" "$got"
then ok; else ko "a shard whose comments differ"; fi

# A shard that does not exist: named, and created no more than OUT.
got=$("$REPLAY" merge "$TEST_TMP/typo-out.db" "$TEST_TMP/s0.db" \
    "$TEST_TMP/typo.db" 2>&1; echo "exit $?")
want="replay merge: $TEST_TMP/typo.db: cannot open it: No such file or directory
exit 3"
if check_eq "a missing shard" "$want" "$got" &&
   check_eq "what a missing shard leaves" "" \
       "$(cd "$TEST_TMP" && ls -d typo* 2>/dev/null)"
then ok; else ko "a missing shard"; fi

# A shard whose name holds what a URI reads ("?", "#", "%"): merged into a
# database that exists (attached read-only, by URI), as any other.
cp "$TEST_TMP/s1.db" "$TEST_TMP/s?1#%41.db" || exit 99
got=$("$REPLAY" merge "$TEST_TMP/merged.db" "$TEST_TMP/s?1#%41.db" 2>&1; echo "exit $?")
want="replay: merged $TEST_TMP/s?1#%41.db: $n1 episodes (0 new, 0 replaced, $n1 unchanged)
replay: 1 shard into $TEST_TMP/merged.db: $n1 episodes (0 new, 0 replaced, $n1 unchanged)
exit 0"
if check_eq "a shard named with URI characters" "$want" "$got" &&
   check_eq "no file of a name read as a URI" "s?1#%41.db" \
       "$(cd "$TEST_TMP" && ls -d s\?1*.db s s%3F* 2>/dev/null)"
then ok; else ko "a shard named with URI characters"; fi

# A shard whose schema text is exact but whose pages are not: its unique
# index of episodes pointed at another index's empty b-tree (which finds
# no episode, so every later replay into the merged database would write
# every episode again).  SQLite's quick check finds the page used twice,
# before anything is written: one line, exit 3.
cp "$TEST_TMP/s0.db" "$TEST_TMP/damaged.db" || exit 99
page=$(sqlite3 "$TEST_TMP/damaged.db" "SELECT rootpage FROM sqlite_master
    WHERE name = 'problems_by_run'; SELECT count(*) FROM problems")
sqlite3 "$TEST_TMP/damaged.db" "PRAGMA writable_schema = ON;
    UPDATE sqlite_master SET rootpage = (SELECT rootpage FROM sqlite_master
        WHERE name = 'problems_by_run') WHERE name = 'episode_rows_by_name'"
want="replay merge: $TEST_TMP/damaged.db: damaged: SQLite's check says \"2nd reference to page ${page%?0}\"; replay its shard again
exit 3"
got_new=$("$REPLAY" merge --quiet "$TEST_TMP/damaged-out.db" \
    "$TEST_TMP/s1.db" "$TEST_TMP/damaged.db" 2>&1; echo "exit $?")
got_into=$("$REPLAY" merge --quiet "$TEST_TMP/merged.db" \
    "$TEST_TMP/damaged.db" 2>&1; echo "exit $?")
if check_eq "an empty problems table" "0" "${page##*
}" &&
   check_eq "a damaged shard, into a new database" "$want" "$got_new" &&
   check_eq "a damaged shard, into a database" "$want" "$got_into" &&
   check_eq "what a damaged shard leaves" "" \
       "$(cd "$TEST_TMP" && ls -d damaged-out.db* 2>/dev/null)" &&
   check_eq "the database after a damaged shard" "$one" \
       "$(db_dump "$TEST_TMP/merged.db")"
then ok; else ko "a damaged shard"; fi

# A shard whose pages are whole but whose unique index of episodes lies:
# it was built over other columns (run_id, source_line) under the schema's
# text.  The quick check does not compare an index with its table, and
# need not: a merge reads no shard's index and builds again those of the
# shard it copies whole, so merged first or after another, the shard
# gives what one process gives, and a replay of the night into the merged
# database finds every episode there (nothing written again).
cp "$TEST_TMP/s0.db" "$TEST_TMP/lying.db" || exit 99
sqlite3 "$TEST_TMP/lying.db" "PRAGMA writable_schema = ON;
    UPDATE sqlite_master SET sql = replace(sql, 'episode)', 'source_line)')
        WHERE name = 'episode_rows_by_name'" &&
    sqlite3 "$TEST_TMP/lying.db" "REINDEX episode_rows_by_name" &&
    sqlite3 "$TEST_TMP/lying.db" "PRAGMA writable_schema = ON;
        UPDATE sqlite_master SET sql = replace(sql, 'source_line)', 'episode)')
            WHERE name = 'episode_rows_by_name'" || exit 99
rm -f "$TEST_TMP"/lying-*.db
"$REPLAY" merge --quiet "$TEST_TMP/lying-first.db" "$TEST_TMP/lying.db" \
    "$TEST_TMP/s1.db" "$TEST_TMP/s2.db"
"$REPLAY" merge --quiet "$TEST_TMP/lying-after.db" "$TEST_TMP/s1.db" \
    "$TEST_TMP/lying.db" "$TEST_TMP/s2.db"
again=$("$REPLAY" --db "$TEST_TMP/lying-first.db" "$night" 2>&1 | tail -n 1)
if check_eq "the lying index is not the table's" "1" \
       "$(sqlite3 "$TEST_TMP/lying.db" "PRAGMA integrity_check" | grep -c 'missing from index episode_rows_by_name' | sed 's/^[1-9][0-9]*$/1/')" &&
   check_eq "a lying index, merged first" "$one" \
       "$(db_dump "$TEST_TMP/lying-first.db")" &&
   check_eq "a lying index, merged after another" "$one" \
       "$(db_dump "$TEST_TMP/lying-after.db")" &&
   check_eq "the merged database's indexes" "ok" \
       "$(sqlite3 "$TEST_TMP/lying-first.db" "PRAGMA integrity_check")" &&
   check_eq "a replay into it writes nothing again" \
       "replay: 3 runs; 0 episodes written (0 replaced, 0 unfinished), $(sqlite3 "$TEST_TMP/one.db" "SELECT count(*) FROM episodes") unchanged; 0 calls; into $TEST_TMP/lying-first.db" \
       "$again"
then ok; else ko "a shard with a lying index"; fi

# The output named another way (./OUT, a link to it) is the output,
# skipped as such: not merged into itself, not counted.
ln -s merged.db "$TEST_TMP/merged-link.db" || exit 99
got=$(cd "$TEST_TMP" && "$REPLAY" merge merged.db ./merged.db \
    merged-link.db s1.db 2>&1; echo "exit $?")
want="replay: merge: ./merged.db is the output; skipped
replay: merge: merged-link.db is the output; skipped
replay: merged s1.db: $n1 episodes (0 new, 0 replaced, $n1 unchanged)
replay: 1 shard into merged.db: $n1 episodes (0 new, 0 replaced, $n1 unchanged)
exit 0"
if check_eq "the output named another way" "$want" "$got" &&
   check_eq "the database after it" "$one" "$(db_dump "$TEST_TMP/merged.db")"
then ok; else ko "the output named another way"; fi

# A shard that is OUT.partial, where a new OUT is built (and which is
# removed first): refused before anything is removed or written.
cp "$TEST_TMP/s1.db" "$TEST_TMP/fresh.db.partial" || exit 99
got=$(cd "$TEST_TMP" && "$REPLAY" merge fresh.db s0.db ./fresh.db.partial \
    2>&1; echo "exit $?")
want="replay merge: ./fresh.db.partial: it is where a merge into fresh.db is built, and is removed first; rename it to merge it
exit 3"
if check_eq "a shard that is OUT.partial" "$want" "$got" &&
   check_eq "what it leaves" "fresh.db.partial" \
       "$(cd "$TEST_TMP" && ls -d fresh.db* 2>/dev/null)" &&
   cmp -s "$TEST_TMP/s1.db" "$TEST_TMP/fresh.db.partial"
then ok; else ko "a shard that is OUT.partial"; fi

# Problems are keyed from their database's folder (under it: the path
# from there; else absolute).  Shards written beside their night, merged
# into a database elsewhere or above it, get the keys one process writing
# there gives.
mkdir -p "$TEST_TMP/k/night" "$TEST_TMP/k/out" || exit 99
cp "$TOP_SRCDIR/samples/tools/shop.json" "$TEST_TMP/k/night/" || exit 99
for i in 0 1; do
    { echo '{"type":"run","run":"r","tools":"shop.json"}'
      echo "{\"type\":\"episode\",\"run\":\"r\",\"episode\":\"e$i\",\"seed\":$i,\"arm\":\"base\"}"
      echo "{\"type\":\"end\",\"run\":\"r\",\"episode\":\"e$i\"}"
      echo "{\"type\":\"bogus$i\"}"
    } > "$TEST_TMP/k/night/n$i.jsonl"
done
(cd "$TEST_TMP/k/night" && for i in 0 1; do
    "$REPLAY" --quiet --problems-ok --shard "$i/2" --db "s$i.db" . 2>/dev/null
done)
for where in out/merged.db merged.db; do
    (cd "$TEST_TMP/k" && rm -f "$where" &&
        "$REPLAY" merge --quiet "$where" night/s0.db night/s1.db &&
        rm -f "${where%.db}-one.db" &&
        "$REPLAY" --quiet --problems-ok --db "${where%.db}-one.db" night \
            2>/dev/null)
done
k=$(cd "$TEST_TMP/k" && pwd -P)
if check_eq "problem keys, merged into another folder" \
       "$k/night/n0.jsonl|4
$k/night/n1.jsonl|4" \
       "$(sqlite3 "$TEST_TMP/k/out/merged.db" "SELECT source_file, source_line FROM problems ORDER BY 1")" &&
   check_eq "... as one process writing there keys them" \
       "$(sqlite3 "$TEST_TMP/k/out/merged-one.db" "SELECT * FROM problems ORDER BY 1")" \
       "$(sqlite3 "$TEST_TMP/k/out/merged.db" "SELECT * FROM problems ORDER BY 1")" &&
   check_eq "problem keys, merged into the folder above" \
       "night/n0.jsonl|4
night/n1.jsonl|4" \
       "$(sqlite3 "$TEST_TMP/k/merged.db" "SELECT source_file, source_line FROM problems ORDER BY 1")" &&
   check_eq "... as one process writing there keys them" \
       "$(sqlite3 "$TEST_TMP/k/merged-one.db" "SELECT * FROM problems ORDER BY 1")" \
       "$(sqlite3 "$TEST_TMP/k/merged.db" "SELECT * FROM problems ORDER BY 1")"
then ok; else ko "problem keys after a merge"; fi

echo "shards: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
