# A results database of schema version 1 (tests/migrate/v1.sql: the dump of
# what the release before version 2 wrote for tests/migrate/night, with a
# diverged answer, arguments that are not JSON, an unknown tool, problems
# and unfinished episodes) is migrated when opened, and then:
#  - card prints exactly what version 1's card printed of it
#    (tests/migrate/*.gold: version 1's output, with only what later
#    cards added: calls compared, the paired analysis, the harness's
#    figures, pass^k), and says once that it migrated it;
#  - every column version 1 had, in every table and view, holds what it
#    held (the tasks' JSON included);
#  - replaying the same night into it changes nothing (every episode
#    unchanged), and a new database of that night has the same content;
#  - it is a results database of this version, exactly: it merges.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
: "${CARD:?}"
export SOURCE_DATE_EPOCH=1764720000
dir=$TOP_SRCDIR/tests/migrate
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

# load NAME: $TEST_TMP/NAME.db made from the version 1 dump
load() {
    rm -f "$TEST_TMP/$1.db"*
    "$PYTHON3" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.close()' \
        "$TEST_TMP/$1.db" "$dir/v1.sql" || exit 99
}

# Problems are recorded under their file's resolved path (version 1: the
# path as named, here from the top folder): shown from the top folder.
top=$(cd "$TOP_SRCDIR" && pwd -P)

# v1 columns of every table of version 1, in key order
v1_columns() {
    for t in "tool_files|file_sha256, contract_sha256, format, path, tools, refused, contract|1" \
        "runs|run, model, meta, file_sha256, tools_path, generator_version, generator_fingerprint, replayed_at|1" \
        "tasks|task_id, file_sha256, seed, arm, depth, request, task|1" \
        "episodes|run, episode, seed, arm, knob, level, task_id, calls, reached, pass, side_effects, duplicate_writes, errors, err_not_found, err_invalid_arguments, err_not_ready, err_unavailable, err_timeout, err_rate_limited, unfinished, diverged, status, final, content_xxh3, source_file, source_line|1,2" \
        "calls|run, episode, seq, step, tool, kind, arguments, answer, error, effect, dial, diverged, logged_answer, source_file, source_line|1,2,3" \
        "dial_outcomes|run, episode, event, dial, step, seq, outcome|1,2,3" \
        "problems|source_file, source_line, run, episode, message, line|1,2" \
        "run_summary|run, model, tools_path, file_sha256, contract_sha256, generator_version, generator_fingerprint, replayed_at, episodes, reached, pass, side_effects, duplicate_writes, errors, unfinished, diverged_episodes, problems|1" \
        "arm_summary|*|1,2" "dial_summary|*|1,2,3"; do
        name=${t%%|*}
        rest=${t#*|}
        echo "== $name"
        sqlite3 "$1" "SELECT ${rest%|*} FROM $name ORDER BY ${rest#*|}"
    done | sed "s#^$top/##"
}

# The dump as version 1 holds it, read before anything migrates it.
load before
v1=$(v1_columns "$TEST_TMP/before.db")
if check_eq "the dump's version" 1 \
    "$(sqlite3 "$TEST_TMP/before.db" "SELECT value FROM meta WHERE key = 'schema_version'")"
then ok; else ko "the version 1 dump"; fi

# card on it: migrated, said once on stderr, and the cards of version 1.
load m
got=$(cd "$TOP_SRCDIR" && "$CARD" --db "$TEST_TMP/m.db" 2>"$TEST_TMP/err")
if check_eq "card of a migrated database" "$(cat "$dir/card.gold")" "$got" &&
   check_eq "what card says" "card: $TEST_TMP/m.db: migrated from schema version 1 to 2" \
       "$(cat "$TEST_TMP/err")" &&
   check_eq "its version now" 2 \
       "$(sqlite3 "$TEST_TMP/m.db" "SELECT value FROM meta WHERE key = 'schema_version'")"
then ok; else ko "card migrates"; fi
got=$("$CARD" --db "$TEST_TMP/m.db" --compare careful sloppy 2>&1)
got_json=$("$CARD" --db "$TEST_TMP/m.db" --json careful 2>&1)
if check_eq "compare of a migrated database" "$(cat "$dir/compare.gold")" "$got" &&
   check_eq "JSON card of a migrated database" "$(cat "$dir/card-json.gold")" "$got_json"
then ok; else ko "cards after the migration"; fi

# Every column of version 1 holds what it held.
if check_eq "version 1's columns after the migration" "$v1" \
    "$(v1_columns "$TEST_TMP/m.db")"
then ok; else ko "the migrated rows"; fi
# What version 1 could not tell apart stays as it said: 0, not NULL.
if check_eq "diverged of a call with no logged answer" "0|" \
    "$(sqlite3 "$TEST_TMP/m.db" "SELECT diverged, logged_answer FROM calls
        WHERE run = 'careful' AND episode = 'careful-base-s1' AND seq = 1")"
then ok; else ko "migrated diverged"; fi

# Replayed again into the migrated database (by replay, which migrates
# too): every episode unchanged, nothing written.
load r
got=$(cd "$TOP_SRCDIR" && "$REPLAY" --db "$TEST_TMP/r.db" tests/migrate/night 2>&1)
want="replay: $TEST_TMP/r.db: migrated from schema version 1 to 2
tests/migrate/night/careful.jsonl:7: episode \"careful-base-s1\" of run \"careful\" is already open (its episode line is tests/migrate/night/careful.jsonl:2); end it before starting it again
tests/migrate/night/sloppy.jsonl:141: not JSON: the text ends early; expected a key in double quotes after ',' (column 31)
replay: 268 lines: 2 used, 264 unchanged, 2 problems, 0 blank
replay: 2 runs; 0 episodes written (0 replaced, 0 unfinished), 34 unchanged; 0 calls; into $TEST_TMP/r.db"
if check_eq "replaying into a migrated database" "$want" "$got" &&
   check_eq "its rows" "$v1" "$(v1_columns "$TEST_TMP/r.db")"
then ok; else ko "replaying into a migrated database"; fi

# A new database of the same night has what the migrated one has, but
# for what version 2 tells apart: a call with no answer logged.
(cd "$TOP_SRCDIR" && "$REPLAY" --quiet --db "$TEST_TMP/new.db" tests/migrate/night) 2>/dev/null
if check_eq "a new database of the night" \
    "$(v1_columns "$TEST_TMP/m.db" | sed 's/|0|\(|tests\/migrate\)/||\1/')" \
    "$(v1_columns "$TEST_TMP/new.db" | sed 's/|0|\(|tests\/migrate\)/||\1/')" &&
   check_eq "calls with no answer logged, new" "1" \
    "$(sqlite3 "$TEST_TMP/new.db" "SELECT count(*) FROM calls WHERE diverged IS NULL")" &&
   check_eq "the raw arguments, new" "lookup_everything|{not json" \
    "$(sqlite3 "$TEST_TMP/new.db" "SELECT tool, arguments_raw FROM calls WHERE arguments_raw IS NOT NULL")"
then ok; else ko "a new database of the night"; fi

# The migrated database is a results database of this version: merged
# into a new one, it gives the same rows.  (The one replay migrated and
# replayed into: its problems are under resolved paths, as the new one's
# are; the problems of m.db, under the paths as named, would be there
# twice, once by each name.)
if "$REPLAY" merge --quiet "$TEST_TMP/merged.db" "$TEST_TMP/r.db" "$TEST_TMP/new.db" &&
   check_eq "merged" "$v1" "$(v1_columns "$TEST_TMP/merged.db")"
then ok; else ko "merging a migrated database"; fi

# Pages: a database keeps the size it was made with (version 1's here,
# SQLite's default); a new one has 16 KiB pages; a merge into a new one
# copies its first shard whole, page size and all, and a merge of new
# ones has them too.
"$REPLAY" merge --quiet "$TEST_TMP/merged2.db" "$TEST_TMP/new.db" "$TEST_TMP/m.db" ||
    ko "merging into a new database, a new one first"
if check_eq "page sizes: migrated, new, merged, merged with a new one first" \
    "4096 16384 4096 16384" \
    "$(for f in r new merged merged2; do sqlite3 "$TEST_TMP/$f.db" "PRAGMA page_size"; done | tr '\n' ' ' | sed 's/ $//')"
then ok; else ko "page sizes"; fi

echo "migrate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
