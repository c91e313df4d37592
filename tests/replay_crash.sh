# Crash safety: replay killed (SIGKILL) at many points, then run again on
# the whole night, must leave the same database as one clean run (the
# rows of every table compared in key order).
#  - Cut after N lines: the night is fed through a named pipe that stops
#    after N lines and stays open; replay is killed while it waits for
#    more (for a spread of N, from the first line to past the last batch).
#  - Cut at a moment: replay on the whole night, killed after a delay
#    (anywhere: mid-batch, mid-commit).
# The killed runs commit every 5 episodes (--batch 5), so that the cuts
# fall between many commits and in them.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
export SOURCE_DATE_EPOCH=1790000000
mkdir -p "$TEST_TMP/w/night" && cp -R "$TOP_SRCDIR/samples/tools" "$TEST_TMP/w/" &&
    cat "$TOP_SRCDIR"/samples/night/*.jsonl > "$TEST_TMP/night.jsonl" || exit 99
cd "$TEST_TMP/w" || exit 99
total=$(wc -l < "$TEST_TMP/night.jsonl")
pass=0 fail=0

cp "$TEST_TMP/night.jsonl" night/all.jsonl
"$REPLAY" --quiet --db "$TEST_TMP/clean.db" night/all.jsonl 2>/dev/null
clean=$(db_dump "$TEST_TMP/clean.db")
[ -n "$clean" ] || exit 99

# The schema objects of a database (a load killed into a new database
# leaves its lookup indexes out; the next replay must make them).
objects() { sqlite3 "$1" "SELECT type, name FROM sqlite_master ORDER BY 1, 2"; }
schema=$(objects "$TEST_TMP/clean.db")

# again DB WHAT: runs replay on the whole night and compares.
partial=0
again() {
    if [ -f "$1" ]; then
        before=$(sqlite3 "$1" 'SELECT count(*) FROM episodes' 2>/dev/null)
        case "${before:-0}" in 0|288) ;; *) partial=$((partial + 1)) ;; esac
    fi
    "$REPLAY" --quiet --db "$1" night/all.jsonl > /dev/null 2>&1
    if [ "$(db_dump "$1")" = "$clean" ] && [ "$(objects "$1")" = "$schema" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL killed $2: the database after running again differs"
        db_dump "$1" | diff - "$TEST_TMP/clean.dump" 2>/dev/null | head -5
    fi
}

# stop PID FEEDER: kills replay where it is, then the feeder of its pipe.
stop() {
    kill -9 "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    kill "$2" 2>/dev/null
    wait "$2" 2>/dev/null
}

for n in 1 2 5 40 300 700 1100 1600 2000 "$total"; do
    db=$TEST_TMP/cut$n.db
    rm -f night/all.jsonl
    mkfifo night/all.jsonl || exit 99
    { head -n "$n" "$TEST_TMP/night.jsonl"; sleep 30; } > night/all.jsonl &
    feeder=$!
    "$REPLAY" --quiet --batch 5 --db "$db" night/all.jsonl > /dev/null 2>&1 &
    pid=$!
    # let it read what there is, then kill it where it waits
    sleep 1
    stop "$pid" "$feeder"
    rm -f night/all.jsonl
    cp "$TEST_TMP/night.jsonl" night/all.jsonl
    again "$db" "after $n lines"
done

for t in 0.05 0.1 0.2 0.3 0.5 0.8; do
    db=$TEST_TMP/at$t.db
    "$REPLAY" --quiet --batch 5 --db "$db" night/all.jsonl > /dev/null 2>&1 &
    pid=$!
    sleep "$t"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    again "$db" "after ${t}s"
done

# committed_while_waiting NAME WANT WHAT: replays night/NAME.jsonl, a
# pipe that night/NAME.feed (a script) writes and then holds open, with
# batches of 5; waits (20 s at most) for WANT problems in the database,
# kills replay and the feeder, and checks that WANT were committed
committed_while_waiting() {
    db=$TEST_TMP/$1.db
    rm -f "night/$1.jsonl"
    mkfifo "night/$1.jsonl" || exit 99
    sh "night/$1.feed" > "night/$1.jsonl" &
    feeder=$!
    "$REPLAY" --quiet --batch 5 --db "$db" "night/$1.jsonl" > /dev/null 2>&1 &
    pid=$!
    tries=0
    while [ "$tries" -lt 100 ]; do
        if [ -f "$db" ]; then
            got=$(sqlite3 "$db" 'SELECT count(*) FROM problems' 2>/dev/null)
            [ "${got:-0}" -ge "$2" ] && break
        fi
        sleep 0.2
        tries=$((tries + 1))
    done
    stop "$pid" "$feeder"
    got=$(sqlite3 "$db" 'SELECT count(*) FROM problems' 2>/dev/null)
    if [ "$got" = "$2" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL $3, killed while replay waited for more:" \
            "${got:-no} problems committed, not $2"
    fi
    rm -f "night/$1.jsonl" "night/$1.feed"
}

# A night of nothing but bad lines (its tool files moved away, say)
# commits its problems in batches, as it does episodes, rather than all
# in one transaction at the end: cut after 20 lines, the problems of four
# batches of 5 are in the database while replay waits for more.
i=0
: > "$TEST_TMP/bad.jsonl"
while [ "$i" -lt 20 ]; do
    echo '{"run": "r", "not json' >> "$TEST_TMP/bad.jsonl"
    i=$((i + 1))
done
cat > night/bad.feed <<EOF
cat "$TEST_TMP/bad.jsonl"; exec sleep 30
EOF
committed_while_waiting bad 20 "a night of 20 bad lines"

# Lines fewer than wake the writer (a batch's worth) before replay waits
# on its input are written all the same: 4 bad lines, a run line (which
# replay waits for the writer to take, with the 4 before it), then one
# bad line that completes a batch of 5, and nothing for a while.  That
# line is written and the batch committed within a tenth of a second,
# not when the input goes on (which, killed, it never does).
head -n 1 "$TOP_SRCDIR/samples/night/$(ls "$TOP_SRCDIR/samples/night" | head -n 1)" \
    > "$TEST_TMP/run.jsonl" || exit 99
cat > night/few.feed <<EOF
head -n 4 "$TEST_TMP/bad.jsonl"; cat "$TEST_TMP/run.jsonl"; sleep 1
head -n 1 "$TEST_TMP/bad.jsonl"; exec sleep 30
EOF
committed_while_waiting few 5 "5 bad lines and a run line"

# the test means something only if some kills left part of the night
if [ "$partial" -gt 0 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL no kill left a partly replayed database"
fi
echo "crash: $pass passed, $fail failed ($partial kills left part of the night)"
[ "$fail" -eq 0 ]
