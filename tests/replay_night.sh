# The samples night end to end: replayed into a new database, its figures
# per run, arm, effect and dial outcome (queried with sqlite3 from the
# documented views and tables) must be exactly tests/replay_night.gold.
# Then: replaying it again changes nothing and says so; an episode whose
# lines changed is replaced, said, and the database equals a clean replay
# of the changed night.  UPDATE_GOLDEN=1 rewrites the gold.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
export SOURCE_DATE_EPOCH=1790000000
gold=$TOP_SRCDIR/tests/replay_night.gold
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

# A copy of the samples (night and tools), so that one episode can change.
mkdir -p "$TEST_TMP/s" && cp -R "$TOP_SRCDIR/samples/night" \
    "$TOP_SRCDIR/samples/tools" "$TEST_TMP/s/" || exit 99
cd "$TEST_TMP/s" || exit 99
db=$TEST_TMP/night.db

figures() {
    q() { echo "-- $1"; sqlite3 -header -separator ' ' "$db" "$1"; }
    q "SELECT run, model, file_sha256, contract_sha256, generator_version,
       episodes, reached, pass, side_effects, duplicate_writes, errors,
       unfinished, diverged_episodes, problems FROM run_summary ORDER BY run"
    q "SELECT run, arm, episodes, reached, pass, side_effects,
       duplicate_writes, errors FROM arm_summary ORDER BY run, arm"
    q "SELECT run, effect, count(*) AS calls FROM calls
       GROUP BY run, effect ORDER BY run, effect"
    q "SELECT run, coalesce(error, '-') AS error, count(*) AS calls
       FROM calls GROUP BY run, error ORDER BY run, error"
    q "SELECT run, dial, outcome, events FROM dial_summary
       ORDER BY run, dial, outcome"
    q "SELECT count(*) AS problems FROM problems"
}

got=$({ "$REPLAY" --db "$db" night 2>&1; echo "exit $?"; figures; } |
      sed "s#$TEST_TMP/#TMP/#g")
[ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$got" > "$gold"
if [ "$got" = "$(cat "$gold")" ]; then ok; else
    ko "the samples night"; printf '%s\n' "$got" | diff "$gold" - | head -40
fi
first=$(db_dump "$db")

# The example queries of sql/examples.sql all run on it.
if err=$(sqlite3 "$db" < "$TOP_SRCDIR/sql/examples.sql" 2>&1 >/dev/null) &&
   [ -z "$err" ]; then ok; else ko "sql/examples.sql: $err"; fi

# The tasks view puts each task's JSON together from its parts: byte for
# byte what replay tasks prints for the same seeds and arms.
arms=$(sqlite3 "$db" "SELECT group_concat(DISTINCT arm) FROM tasks")
want=$("$REPLAY" tasks tools/shop.json --seeds 1-4 --arms "$arms" | sort)
got=$(sqlite3 "$db" "SELECT t.task FROM tasks t JOIN runs r USING (file_sha256)
    WHERE r.run = 'careful'" | sort)
if check_eq "the tasks view against replay tasks" "$want" "$got" &&
   check_eq "tasks compared" 96 "$(printf '%s\n' "$got" | wc -l)"
then ok; else ko "the tasks view"; fi

# Again: nothing changes, and the summary says so.
want="replay: 2143 lines: 3 used, 2140 unchanged, 0 problems, 0 blank
replay: 3 runs; 0 episodes written (0 replaced, 0 unfinished), 288 unchanged; 0 calls; into $db
exit 0"
got=$("$REPLAY" --db "$db" night 2>&1; echo "exit $?")
if check_eq "replayed again" "$want" "$got" &&
   check_eq "the database after replaying again" "$first" "$(db_dump "$db")"
then ok; else ko "replaying again"; fi

# One episode changes (its end line's status): replaced, and said.
sed 's/^\({"type":"end","run":"careful","episode":"careful-base-s2"\),"status":"done"}$/\1,"status":"stopped"}/' \
    night/careful.jsonl > night/careful.tmp && mv night/careful.tmp night/careful.jsonl
line=$(grep -n '"episode","run":"careful","episode":"careful-base-s2"' \
    night/careful.jsonl | cut -d: -f1)
want="night/careful.jsonl:$line: episode \"careful-base-s2\" of run \"careful\" changed since it was recorded: replaced
replay: 2143 lines: 9 used, 2134 unchanged, 0 problems, 0 blank
replay: 3 runs; 1 episode written (1 replaced, 0 unfinished), 287 unchanged; 4 calls; into $db
exit 0"
got=$("$REPLAY" --db "$db" night 2>&1; echo "exit $?")
clean=$TEST_TMP/clean.db
"$REPLAY" --db "$clean" --quiet night 2>/dev/null
if check_eq "a changed episode" "$want" "$got" &&
   check_eq "status recorded" stopped "$(sqlite3 "$db" "SELECT status FROM
       episodes WHERE run = 'careful' AND episode = 'careful-base-s2'")" &&
   check_eq "the database equals a clean replay" "$(db_dump "$clean")" \
       "$(db_dump "$db")"
then ok; else ko "replacing a changed episode"; fi

echo "samples night: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
