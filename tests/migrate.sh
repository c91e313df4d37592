# A results database of schema version 1 (tests/migrate/v1.sql: the dump of
# what the release before version 2 wrote for tests/migrate/night, with a
# diverged answer, arguments that are not JSON, an unknown tool, problems
# and unfinished episodes) is migrated when opened, and then:
#  - card prints exactly what version 1's card printed of it
#    (tests/migrate/*.gold: version 1's output, with only what later
#    cards added: calls and episodes compared, the paired analysis, the
#    harness's figures, pass^k), and says once that it migrated it;
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

# load NAME [DUMP]: $TEST_TMP/NAME.db made from the version 1 dump (or
# from DUMP)
load() {
    rm -f "$TEST_TMP/$1.db"*
    "$PYTHON3" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.close()' \
        "$TEST_TMP/$1.db" "${2:-$dir/v1.sql}" || exit 99
}

# Problems are recorded under their file's resolved path, whole when it
# is not under the database's folder (version 1: the path as named, here
# from the top folder): shown from the top folder.
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
# UPDATE_GOLDEN=1 rewrites the golds (review their diff: only what later
# cards added may change)
[ "${UPDATE_GOLDEN:-}" = 1 ] && printf '%s\n' "$got" > "$dir/card.gold"
if check_eq "card of a migrated database" "$(cat "$dir/card.gold")" "$got" &&
   check_eq "what card says" "card: $TEST_TMP/m.db: migrated from schema version 1 to 9" \
       "$(cat "$TEST_TMP/err")" &&
   check_eq "its version now" 9 \
       "$(sqlite3 "$TEST_TMP/m.db" "SELECT value FROM meta WHERE key = 'schema_version'")"
then ok; else ko "card migrates"; fi
got=$("$CARD" --db "$TEST_TMP/m.db" --compare careful sloppy 2>&1)
got_json=$("$CARD" --db "$TEST_TMP/m.db" --json careful 2>&1)
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    printf '%s\n' "$got" > "$dir/compare.gold"
    printf '%s\n' "$got_json" > "$dir/card-json.gold"
fi
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

# A run replayed now records the generator that replays it (replay
# --version), whichever made the dump, and so does a task a database
# does not hold yet: the rows of a database replayed into, or made, now
# are version 1's with that generator in its runs (runs_now) and in the
# tasks it made (tasks_now).
dumped=$(sqlite3 "$TEST_TMP/before.db" \
    "SELECT DISTINCT generator_version || '|' || generator_fingerprint FROM runs")
now=$("$REPLAY" --version |
    sed -n 's/^generator \([0-9]*\), fingerprint \([0-9a-f]*\)$/\1|\2/p')
runs_now() { sed "s/|$dumped|/|$now|/"; }
tasks_now() { sed "s/\"generator\":${dumped%%|*},/\"generator\":${now%%|*},/"; }
v1_now=$(printf '%s\n' "$v1" | runs_now)

# Replayed again into the migrated database (by replay, which migrates
# too): every episode unchanged, nothing written.
load r
got=$(cd "$TOP_SRCDIR" && "$REPLAY" --db "$TEST_TMP/r.db" tests/migrate/night 2>&1)
want="replay: $TEST_TMP/r.db: migrated from schema version 1 to 9
tests/migrate/night/careful.jsonl:7: episode \"careful-base-s1\" of run \"careful\" is already open (its episode line is tests/migrate/night/careful.jsonl:2); end it before starting it again
tests/migrate/night/sloppy.jsonl:141: not JSON: the text ends early; expected a key in double quotes after ',' (column 31)
replay: 268 lines: 2 used, 264 unchanged, 2 problems, 0 blank
replay: 2 runs; 0 episodes written (0 replaced, 0 unfinished), 34 unchanged; 0 calls; into $TEST_TMP/r.db"
if check_eq "replaying into a migrated database" "$want" "$got" &&
   check_eq "its rows" "$v1_now" "$(v1_columns "$TEST_TMP/r.db")"
then ok; else ko "replaying into a migrated database"; fi

# A new database of the same night has what the migrated one has, but
# for what version 2 tells apart: a call with no answer logged.
(cd "$TOP_SRCDIR" && "$REPLAY" --quiet --db "$TEST_TMP/new.db" tests/migrate/night) 2>/dev/null
if check_eq "a new database of the night" \
    "$(v1_columns "$TEST_TMP/m.db" | runs_now | tasks_now | sed 's/|0|\(|tests\/migrate\)/||\1/')" \
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
   check_eq "merged" "$v1_now" "$(v1_columns "$TEST_TMP/merged.db")"
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

# Version 2 to 3: a database as version 2 left it (run_summary giving 0
# for what was not measured, diverged 0 for an episode none of whose
# calls had an answer logged) is migrated: the view made again, that
# episode's diverged NULL, every other row as it was.
mkdir -p "$TEST_TMP/v2" && cp "$TOP_SRCDIR/samples/tools/shop.json" "$TEST_TMP/v2/" || exit 99
{
    echo '{"type":"run","run":"blind","tools":"shop.json"}'
    echo '{"type":"episode","run":"blind","episode":"b1","seed":7,"arm":"base"}'
    echo '{"type":"call","run":"blind","episode":"b1","call":{"name":"search_orders","arguments":{"query":"x"}}}'
    echo '{"type":"end","run":"blind","episode":"b1"}'
    echo '{"type":"run","run":"obs","tools":"shop.json"}'
    echo '{"type":"episode","run":"obs","episode":"o1"}'
    echo '{"type":"end","run":"obs","episode":"o1","success":true}'
} > "$TEST_TMP/v2/n.jsonl"
(cd "$TEST_TMP/v2" && "$REPLAY" --quiet --db v2.db n.jsonl) 2>/dev/null
before=$(sqlite3 "$TEST_TMP/v2/v2.db" "SELECT count(*) FROM episode_rows; SELECT count(*) FROM call_rows")
sqlite3 "$TEST_TMP/v2/v2.db" "UPDATE meta SET value = '2' WHERE key = 'schema_version';
    UPDATE episode_rows SET diverged = 0 WHERE seed IS NOT NULL;
    DROP VIEW run_summary;
    CREATE VIEW run_summary AS SELECT r.run, r.model, t.path AS tools_path,
        r.file_sha256, t.contract_sha256, r.generator_version,
        r.generator_fingerprint, r.replayed_at,
        count(e.episode_id) AS episodes,
        coalesce(sum(e.reached), 0) AS reached, coalesce(sum(e.pass), 0) AS pass,
        coalesce(sum(e.side_effects), 0) AS side_effects,
        coalesce(sum(e.duplicate_writes), 0) AS duplicate_writes,
        coalesce(sum(e.errors), 0) AS errors,
        coalesce(sum(e.unfinished), 0) AS unfinished,
        coalesce(sum(e.diverged > 0), 0) AS diverged_episodes,
        (SELECT count(*) FROM problems p WHERE p.run = r.run) AS problems,
        count(e.seed) AS simulated, count(e.episode_id) - count(e.seed) AS observed,
        count(e.success) AS judged, coalesce(sum(e.success), 0) AS successes,
        count(e.reward) AS rewarded, avg(e.reward) AS mean_reward
    FROM runs r JOIN tool_files t ON t.file_sha256 = r.file_sha256
    LEFT JOIN episode_rows e ON e.run_id = r.run_id GROUP BY r.run_id"
"$CARD" --db "$TEST_TMP/v2/v2.db" --list > /dev/null 2> "$TEST_TMP/v2/err"
if check_eq "what card says of a version 2 database" \
       "card: $TEST_TMP/v2/v2.db: migrated from schema version 2 to 9" \
       "$(cat "$TEST_TMP/v2/err")" &&
   check_eq "run_summary after it: NULL where nothing was measured" \
       "blind|0|0||0|0
obs|||||0" \
       "$(sqlite3 "$TEST_TMP/v2/v2.db" "SELECT run, reached, pass,
            diverged_episodes, side_effects, compared_episodes
            FROM run_summary ORDER BY run")" &&
   check_eq "the episode with no answer logged: diverged NULL" "" \
       "$(sqlite3 "$TEST_TMP/v2/v2.db" "SELECT diverged FROM episodes WHERE run = 'blind'")" &&
   check_eq "its rows, as they were" "$before" \
       "$(sqlite3 "$TEST_TMP/v2/v2.db" "SELECT count(*) FROM episode_rows; SELECT count(*) FROM call_rows")"
then ok; else ko "migrating version 2"; fi

# Version 3 to 4: runs gains tools_found.  A database as version 3 wrote
# it (tests/migrate/v3.sql: tests/migrate/v3/night replayed from its
# folder with --tools-dir tools; run "moved"'s line names shop.json, which
# is not beside it, and was found in tools/) is migrated when opened:
#  - runs made again with every row, key and column it had, and
#    tools_found NULL (version 3 did not keep where a file was found);
#  - every other table as it was, and the schema's text exactly that of a
#    new database (so it merges);
#  - the same night replayed into it again changes no episode, and
#    records where moved's tool file was found.
# The columns of episode_rows and call_rows from version 2 to 5, in order.
v5_episode_cols="episode_id, run_id, episode, seed, arm, knob, level,
    task_id, task_name, calls, reached, pass, side_effects,
    duplicate_writes, errors, err_not_found, err_invalid_arguments,
    err_not_ready, err_unavailable, err_timeout, err_rate_limited,
    unfinished, diverged, success, reward, status, final, content_xxh3,
    source_file, source_line"
v5_call_cols="episode_id, seq, step, tool, kind, arguments, arguments_raw,
    arguments_valid, arguments_rule, answer, error, effect, dial, diverged,
    logged_answer, answer_valid, source_file, source_line"

v3=$TEST_TMP/v3
mkdir -p "$v3/tools" && cp -R "$dir/v3/night" "$v3/" &&
    cp "$TOP_SRCDIR/samples/tools/shop.json" "$v3/tools/" || exit 99
load v3/v3 "$dir/v3.sql"
# v3_rows DB: every table's rows in key order, runs as version 3 had them
v3_rows() {
    for t in "meta|1" "tool_files|1" \
        "runs|run_id, run, model, meta, file_sha256, tools_path, generator_version, generator_fingerprint, replayed_at" \
        "task_rows|1" "episode_rows|1" "call_rows|1, 2" "outcome_rows|1, 2" \
        "problems|source_file, source_line, run, episode, message, line"; do
        name=${t%%|*}
        cols=${t#*|}
        echo "== $name"
        case $name in
        runs) sqlite3 "$1" "SELECT $cols FROM runs ORDER BY run_id" ;;
        problems) sqlite3 "$1" "SELECT $cols FROM problems ORDER BY 1, 2" ;;
        episode_rows) sqlite3 "$1" "SELECT $v5_episode_cols FROM $name ORDER BY 1" ;;
        call_rows) sqlite3 "$1" "SELECT $v5_call_cols FROM $name ORDER BY 1, 2" ;;
        meta) sqlite3 "$1" "SELECT * FROM meta WHERE key <> 'schema_version' ORDER BY 1" ;;
        *) sqlite3 "$1" "SELECT * FROM $name ORDER BY $cols" ;;
        esac
    done
}
v3_before=$(v3_rows "$v3/v3.db")
schema_of() {
    sqlite3 "$1" "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
}
(cd "$v3" && "$REPLAY" --quiet --db new.db --tools-dir tools night) 2>/dev/null
"$CARD" --db "$v3/v3.db" --list > /dev/null 2> "$v3/err"
if check_eq "what card says of a version 3 database" \
       "card: $v3/v3.db: migrated from schema version 3 to 9" "$(cat "$v3/err")" &&
   check_eq "its version now" 9 \
       "$(sqlite3 "$v3/v3.db" "SELECT value FROM meta WHERE key = 'schema_version'")" &&
   check_eq "its runs: keys, names and tool files as they were, tools_found NULL" \
       "1|beside|../tools/shop.json|NULL
2|moved|shop.json|NULL" \
       "$(sqlite3 "$v3/v3.db" "SELECT run_id, run, tools_path, quote(tools_found) FROM runs ORDER BY run_id")" &&
   check_eq "run_summary has tools_found" "beside|2|
moved|1|" \
       "$(sqlite3 "$v3/v3.db" "SELECT run, episodes, tools_found FROM run_summary ORDER BY run")" &&
   check_eq "every row of version 3, as it was" "$v3_before" "$(v3_rows "$v3/v3.db")" &&
   check_eq "its schema, as a new database's" "$(schema_of "$v3/new.db")" \
       "$(schema_of "$v3/v3.db")" &&
   check_eq "no table of the migration left" "" \
       "$(sqlite3 "$v3/v3.db" "SELECT name FROM sqlite_master WHERE name LIKE 'v3%'")"
then ok; else ko "migrating version 3"; fi

got=$(cd "$v3" && "$REPLAY" --db v3.db --tools-dir tools night 2>&1)
if check_eq "the night replayed into it again" \
       "night/beside.jsonl:7: not JSON: the text ends early; expected ',' or '}' after a member (column 29)
replay: 11 lines: 2 used, 8 unchanged, 1 problem, 0 blank
replay: 2 runs; 0 episodes written (0 replaced, 0 unfinished), 3 unchanged; 0 calls; into v3.db" \
       "$got" &&
   check_eq "where moved's tool file was found, now recorded" \
       "1|beside|../tools/shop.json|NULL
2|moved|shop.json|'tools/shop.json'" \
       "$(sqlite3 "$v3/v3.db" "SELECT run_id, run, tools_path, quote(tools_found) FROM runs ORDER BY run_id")" &&
   check_eq "and as a new database of the night records it" \
       "$(sqlite3 "$v3/new.db" "SELECT run, tools_path, quote(tools_found) FROM runs ORDER BY run")" \
       "$(sqlite3 "$v3/v3.db" "SELECT run, tools_path, quote(tools_found) FROM runs ORDER BY run")"
then ok; else ko "replaying into a migrated version 3 database"; fi

# It merges: after a new database (which holds the run "moved" too, and
# keeps its row), and into one that holds only "beside" (its rows come in
# whole, tools_found with them).
(cd "$v3" && "$REPLAY" --quiet --db beside.db night/beside.jsonl) 2>/dev/null
if "$REPLAY" merge --quiet "$v3/m1.db" "$v3/new.db" "$v3/v3.db" &&
   "$REPLAY" merge --quiet "$v3/m2.db" "$v3/beside.db" "$v3/v3.db" &&
   check_eq "merged: runs" \
       "beside|../tools/shop.json|NULL
moved|shop.json|'tools/shop.json'
--
beside|../tools/shop.json|NULL
moved|shop.json|'tools/shop.json'" \
       "$(for m in m1 m2; do
              [ $m = m2 ] && echo --
              sqlite3 "$v3/$m.db" "SELECT run, tools_path, quote(tools_found) FROM runs ORDER BY run"
          done)"
then ok; else ko "merging a migrated version 3 database"; fi

# Version 4 to 5: problems gains place (a log's own problems are
# recorded there too).  A database as version 4 wrote it
# (tests/migrate/v4.sql: the night of version 3's test, replayed by
# version 4) is migrated when opened: problems made again with every row
# as it was and place NULL, every other table as it was, the schema a new
# database's (so it merges).
v4=$TEST_TMP/v4
mkdir -p "$v4/tools" && cp -R "$dir/v3/night" "$v4/" &&
    cp "$TOP_SRCDIR/samples/tools/shop.json" "$v4/tools/" || exit 99
load v4/v4 "$dir/v4.sql"
v4_rows() {
    for t in meta tool_files runs task_rows episode_rows call_rows outcome_rows; do
        echo "== $t"
        case $t in
        meta) sqlite3 "$1" "SELECT * FROM meta WHERE key <> 'schema_version' ORDER BY 1" ;;
        episode_rows) sqlite3 "$1" "SELECT $v5_episode_cols FROM $t ORDER BY 1" ;;
        call_rows) sqlite3 "$1" "SELECT $v5_call_cols FROM $t ORDER BY 1, 2" ;;
        *) sqlite3 "$1" "SELECT * FROM $t ORDER BY 1, 2" ;;
        esac
    done
    sqlite3 "$1" "SELECT source_file, source_line, run, episode, message, line FROM problems ORDER BY 1, 2"
}
v4_before=$(v4_rows "$v4/v4.db")
(cd "$v4" && "$REPLAY" --quiet --db new.db --tools-dir tools night) 2>/dev/null
"$CARD" --db "$v4/v4.db" --list > /dev/null 2> "$v4/err"
if check_eq "what card says of a version 4 database" \
       "card: $v4/v4.db: migrated from schema version 4 to 9" "$(cat "$v4/err")" &&
   check_eq "its problems: as they were, place NULL" \
       "night/beside.jsonl|7|NULL" \
       "$(sqlite3 "$v4/v4.db" "SELECT source_file, source_line, quote(place) FROM problems")" &&
   check_eq "every row of version 4, as it was" "$v4_before" "$(v4_rows "$v4/v4.db")" &&
   check_eq "its schema, as a new database's" "$(schema_of "$v4/new.db")" \
       "$(schema_of "$v4/v4.db")" &&
   check_eq "no table of the migration left" "" \
       "$(sqlite3 "$v4/v4.db" "SELECT name FROM sqlite_master WHERE name LIKE 'v4%'")" &&
   "$REPLAY" merge --quiet "$v4/m.db" "$v4/new.db" "$v4/v4.db" &&
   check_eq "it merges" "night/beside.jsonl|7|NULL" \
       "$(sqlite3 "$v4/m.db" "SELECT source_file, source_line, quote(place) FROM problems")"
then ok; else ko "migrating version 4"; fi

# Version 5 to 6: episodes gain input_tokens, output_tokens, cost and
# duration, calls duration.  A database as version 5 wrote it
# (tests/migrate/v5.sql: the night of version 3's test, replayed by
# version 5) is migrated when opened: both tables made again with every
# row, key and column as they were and the new columns NULL (version 5
# kept no usage), every other table as it was, the schema a new
# database's; it merges, and a night with usage replayed into it records
# it.
v5=$TEST_TMP/v5
mkdir -p "$v5/tools" && cp -R "$dir/v3/night" "$v5/" &&
    cp "$TOP_SRCDIR/samples/tools/shop.json" "$v5/tools/" || exit 99
load v5/v5 "$dir/v5.sql"
v5_rows() {
    for t in meta tool_files runs task_rows outcome_rows problems; do
        echo "== $t"
        case $t in
        meta) sqlite3 "$1" "SELECT * FROM meta WHERE key <> 'schema_version' ORDER BY 1" ;;
        *) sqlite3 "$1" "SELECT * FROM $t ORDER BY 1, 2" ;;
        esac
    done
    echo "== episode_rows"
    sqlite3 "$1" "SELECT $v5_episode_cols FROM episode_rows ORDER BY 1"
    echo "== call_rows"
    sqlite3 "$1" "SELECT $v5_call_cols FROM call_rows ORDER BY 1, 2"
}
v5_before=$(v5_rows "$v5/v5.db")
(cd "$v5" && "$REPLAY" --quiet --db new.db --tools-dir tools night) 2>/dev/null
"$CARD" --db "$v5/v5.db" --list > /dev/null 2> "$v5/err"
if check_eq "what card says of a version 5 database" \
       "card: $v5/v5.db: migrated from schema version 5 to 9" "$(cat "$v5/err")" &&
   check_eq "every row of version 5, as it was" "$v5_before" "$(v5_rows "$v5/v5.db")" &&
   check_eq "3 episodes and 2 calls, their usage NULL" "3|0|0|0|0
2|0" \
       "$(sqlite3 "$v5/v5.db" "SELECT count(*), count(input_tokens),
            count(output_tokens), count(cost), count(duration) FROM episodes;
            SELECT count(*), count(duration) FROM calls")" &&
   check_eq "its schema, as a new database's" "$(schema_of "$v5/new.db")" \
       "$(schema_of "$v5/v5.db")" &&
   check_eq "no table of the migration left" "" \
       "$(sqlite3 "$v5/v5.db" "SELECT name FROM sqlite_master WHERE name LIKE 'v5%'")" &&
   "$REPLAY" merge --quiet "$v5/m.db" "$v5/new.db" "$v5/v5.db" &&
   check_eq "it merges" "3
2" \
       "$(sqlite3 "$v5/m.db" "SELECT count(*) FROM episodes; SELECT count(*) FROM calls")"
then ok; else ko "migrating version 5"; fi

{
    echo '{"type":"run","run":"used","tools":"tools/shop.json"}'
    echo '{"type":"episode","run":"used","episode":"u1"}'
    echo '{"type":"call","run":"used","episode":"u1","call":{"name":"search_orders","arguments":{"query":"x"}},"duration":0.5}'
    echo '{"type":"end","run":"used","episode":"u1","success":true,"input_tokens":1500,"output_tokens":80,"cost":0.0042,"duration":12.25}'
} > "$v5/used.jsonl"
if (cd "$v5" && "$REPLAY" --quiet --db v5.db used.jsonl) &&
   check_eq "usage replayed into it" "u1|1500|80|0.0042|12.25
u1|1|0.5" \
       "$(sqlite3 "$v5/v5.db" "SELECT episode, input_tokens, output_tokens,
            cost, duration FROM episodes WHERE run = 'used';
            SELECT episode, seq, duration FROM calls WHERE run = 'used'")"
then ok; else ko "usage in a migrated version 5 database"; fi

# Version 6 to 7: the view episode_outcomes, and nothing else.  A
# database as version 6 wrote it is this version's without that view
# (the tables are alike); opened, it gains the view, its rows as they
# were, and its schema is a new database's.
v6=$TEST_TMP/v6
mkdir -p "$v6" && cp "$v5/v5.db" "$v6/v6.db" || exit 99
sqlite3 "$v6/v6.db" "DROP VIEW episode_outcomes;
    UPDATE meta SET value = '6' WHERE key = 'schema_version'" || exit 99
# every column of every row, the usage version 6 added among them
all_rows() {
    v5_rows "$1"
    echo "== episode_rows and call_rows, every column"
    sqlite3 "$1" "SELECT * FROM episode_rows ORDER BY 1; SELECT * FROM call_rows ORDER BY 1, 2"
}
v6_before=$(all_rows "$v6/v6.db")
"$CARD" --db "$v6/v6.db" --list > /dev/null 2> "$v6/err"
if check_eq "what card says of a version 6 database" \
       "card: $v6/v6.db: migrated from schema version 6 to 9" "$(cat "$v6/err")" &&
   check_eq "its usage, kept" "1|1" \
       "$(sqlite3 "$v6/v6.db" "SELECT count(input_tokens), count(duration) FROM episode_rows")" &&
   check_eq "every row of version 6, as it was" "$v6_before" "$(all_rows "$v6/v6.db")" &&
   check_eq "its schema, as a new database's" "$(schema_of "$v5/new.db")" \
       "$(schema_of "$v6/v6.db")" &&
   check_eq "each episode with its class" "beside|b1|diverged
beside|o1|passed
moved|m1|not_reached
used|u1|passed" \
       "$(sqlite3 "$v6/v6.db" "SELECT run, episode, class FROM episode_outcomes ORDER BY 1, 2")"
then ok; else ko "migrating version 6"; fi

# Version 7 to 8: the summary views grouped by run name, so that a filter
# by run reaches the tables; nothing else.  A database as version 7 wrote
# it has them grouped by run_id; opened, it gets this version's, with the
# same rows, and its schema is a new database's.
v7=$TEST_TMP/v7
mkdir -p "$v7" && cp "$v6/v6.db" "$v7/v7.db" || exit 99
old_views=$(sed -n '/^CREATE VIEW IF NOT EXISTS run_summary AS/,/^-- Per run, kind and k/p' \
    "$TOP_SRCDIR/sql/schema.sql" | sed 's/^GROUP BY r.run;/GROUP BY r.run_id;/;
        s/^GROUP BY r.run, e.arm;/GROUP BY e.run_id, e.arm;/;
        s/^GROUP BY r.run, o.dial, o.outcome;/GROUP BY e.run_id, o.dial, o.outcome;/;
        s/^GROUP BY r.run, kind, task;/GROUP BY e.run_id, kind, task;/')
sqlite3 "$v7/v7.db" "DROP VIEW run_summary; DROP VIEW arm_summary;
    DROP VIEW dial_summary; DROP VIEW trials;
    $old_views
    UPDATE meta SET value = '7' WHERE key = 'schema_version'" || exit 99
summaries() {
    sqlite3 "$1" "SELECT * FROM run_summary ORDER BY run; SELECT * FROM arm_summary ORDER BY 1, 2;
        SELECT * FROM dial_summary ORDER BY 1, 2, 3; SELECT * FROM trials ORDER BY 1, 2, 3;
        SELECT * FROM pass_hat_k ORDER BY 1, 2, 3"
}
v7_before=$(summaries "$v7/v7.db")
v7_rows=$(all_rows "$v7/v7.db")
"$CARD" --db "$v7/v7.db" --list > /dev/null 2> "$v7/err"
if check_eq "a version 7 database: its views grouped by run_id" "4" \
       "$(printf '%s\n' "$old_views" | grep -c '^GROUP BY [re]\.run_id')" &&
   check_eq "what card says of a version 7 database" \
       "card: $v7/v7.db: migrated from schema version 7 to 9" "$(cat "$v7/err")" &&
   check_eq "its usage, kept" "1|1" \
       "$(sqlite3 "$v7/v7.db" "SELECT count(input_tokens), count(duration) FROM episode_rows")" &&
   check_eq "every row of version 7, as it was" "$v7_rows" "$(all_rows "$v7/v7.db")" &&
   check_eq "the summaries' rows, as they were" "$v7_before" "$(summaries "$v7/v7.db")" &&
   check_eq "its schema, as a new database's" "$(schema_of "$v5/new.db")" \
       "$(schema_of "$v7/v7.db")" &&
   check_eq "trials by run: by index" "" \
       "$(sqlite3 "$v7/v7.db" "EXPLAIN QUERY PLAN SELECT * FROM trials WHERE run = 'used'" |
           grep SCAN | grep -v 'SCAN trials$')"
then ok; else ko "migrating version 7"; fi

# Version 8 to 9: the view run_interval (each run's rate, clustered by
# task where trials repeat); nothing else.  A database as version 8 wrote
# it lacks the view; opened, it gets it, with every row as it was.
v8=$TEST_TMP/v8
mkdir -p "$v8" && cp "$v7/v7.db" "$v8/v8.db" || exit 99
sqlite3 "$v8/v8.db" "DROP VIEW run_interval;
    UPDATE meta SET value = '8' WHERE key = 'schema_version'" || exit 99
v8_rows=$(all_rows "$v8/v8.db")
"$CARD" --db "$v8/v8.db" --list > /dev/null 2> "$v8/err"
if check_eq "what card says of a version 8 database" \
       "card: $v8/v8.db: migrated from schema version 8 to 9" "$(cat "$v8/err")" &&
   check_eq "every row of version 8, as it was" "$v8_rows" "$(all_rows "$v8/v8.db")" &&
   check_eq "its schema, as a new database's" "$(schema_of "$v5/new.db")" \
       "$(schema_of "$v8/v8.db")" &&
   check_eq "run_interval, one row a run and kind measured" \
       "$(sqlite3 "$v8/v8.db" "SELECT count(*) FROM (SELECT DISTINCT run, seed IS NULL
            FROM episodes WHERE (seed IS NULL AND success IS NOT NULL) OR seed IS NOT NULL)")" \
       "$(sqlite3 "$v8/v8.db" "SELECT count(*) FROM run_interval")"
then ok; else ko "migrating version 8"; fi

echo "migrate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
