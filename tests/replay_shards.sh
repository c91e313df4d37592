# Shards and merge: a night split N ways (replay --shard I/N, or the index
# a batch scheduler puts in the environment), the N processes run at once,
# then `replay merge`, must give the database one process gives (every
# table's rows compared in key order).  Merging again changes nothing; a
# shard whose run has another tool file is refused.  NIGHT (a folder of
# transcripts) defaults to samples/night; tests/bench passes a generated one.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
command -v sqlite3 >/dev/null || { echo "SKIP: needs sqlite3"; exit 77; }
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
if check_eq "the Slurm index" "replay: shard 1/3 (from SLURM_ARRAY_TASK_ID)" \
       "$(head -1 "$TEST_TMP/s1.err")" &&
   check_eq "the Kubernetes index" "replay: shard 2/3 (from JOB_COMPLETION_INDEX)" \
       "$(head -1 "$TEST_TMP/s2.err")"
then ok; else ko "shard from the environment"; fi

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

# A shard with a run of the same name on another tool file: refused.
cp "$TEST_TMP/s0.db" "$TEST_TMP/other.db"
sqlite3 "$TEST_TMP/other.db" "INSERT INTO tool_files SELECT 'f00d' || substr(file_sha256, 5), contract_sha256, format, path, tools, refused, contract FROM tool_files LIMIT 1;
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
want="replay: $TEST_TMP/junk.db: cannot read it: file is not a database
exit 3"
sqlite3 "$TEST_TMP/plain.db" "CREATE TABLE t (x)"
got2=$("$REPLAY" merge "$TEST_TMP/merged.db" "$TEST_TMP/plain.db" 2>&1; echo "exit $?")
want2="replay: $TEST_TMP/plain.db: is not a results database of schema version 1 (replay --shard writes one)
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
want="replay: $TEST_TMP/junk.db: cannot read it: file is not a database
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

echo "shards: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
