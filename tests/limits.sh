# Limits: what replay cannot afford to do in full is bounded, and what it
# could not decide is said, never taken for a yes.  Each case is a probe
# that once ran for minutes, took gigabytes, or recorded something false;
# every check asserts the exact line said or the exact rows kept.  Tool
# files are in tests/hostile/; the rest is made here.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
need_cmd sqlite3
need_cmd timeout coreutils
export SOURCE_DATE_EPOCH=1790000000
cases=$TOP_SRCDIR/tests/hostile
pass=0 fail=0
T=$TEST_TMP

ok() { count_eq "$@"; }

# Runs REPLAY with a limit: a probe that hangs fails, not stalls.  The
# limits are generous (a loaded 2-core machine, under sanitizers); what a
# case should take is said beside it.
r() { timeout 300 "$REPLAY" "$@"; }

# tree DEPTH: an orchard's tree of DEPTH levels, each {"kid":...,"leaf":"elm"}
tree() {
    t_s='{"leaf":"elm"}'
    t_i=1
    while [ "$t_i" -lt "$1" ]; do
        t_s="{\"kid\":$t_s,\"leaf\":\"elm\"}"
        t_i=$((t_i + 1))
    done
    printf '%s' "$t_s"
}

# --- arguments the schema check cannot decide on are never valid.
# --- tree-allof.json: allOf over a tree that every level checks twice
# --- (anyOf [Oak, Elm], Oak failing only at its leaf); 16 levels (15 do
# --- too) pass the check's 200,000 steps before id (not a string, not the
# --- pattern) and mode (not in the enum) are reached.  It once answered ok, landed a
# --- side effect, and recorded arguments_valid 1.
cp "$cases/tree-allof.json" "$T/"
call16="{\"name\":\"prune_tree\",\"arguments\":{\"canopy\":$(tree 16),\"id\":42,\"mode\":\"destroy\"}}"
call14="{\"name\":\"prune_tree\",\"arguments\":{\"canopy\":$(tree 14),\"id\":42,\"mode\":\"destroy\"}}"
undecided='the arguments could not be checked: the check stops after 200000 steps through the schema, and this value needs more; send one that nests less'
got=$(cd "$T" && printf '%s\n%s\n' "$call16" "$call14" |
    r sim tree-allof.json --seed 1 --arm depth:d1 --transcript sim.jsonl 2>&1)
ok "sim: 16 levels could not be checked, 14 are" "{\"detail\":\"$undecided\",\"status\":422}
{\"detail\":\"argument \\\"id\\\" must be a string, not an integer\",\"status\":422}
replay sim: 2 calls; not reached, not a pass (0 side effects, 0 duplicate writes)" "$got"
# the members in another order: the same answer (they are checked in
# canonical order, as replay reads them back)
call16b="{\"name\":\"prune_tree\",\"arguments\":{\"mode\":\"destroy\",\"id\":42,\"canopy\":$(tree 16)}}"
got=$(cd "$T" && echo "$call16b" |
    r sim tree-allof.json --seed 1 --arm depth:d1 2>/dev/null)
ok "sim: members in another order" "{\"detail\":\"$undecided\",\"status\":422}" "$got"
# replayed: the same answers (nothing diverged), refused, NULL not 1
got=$(cd "$T" && r --db sim.db sim.jsonl 2>&1; echo "exit $?")
ok "replay of the session" "replay: 5 lines: 5 used, 0 unchanged, 0 problems, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 2 calls; into sim.db
exit 0" "$got"
ok "replay of the session: rows" "1|NULL|NULL|invalid_arguments|refused|0
2|0|'argument \"id\" must be a string, not an integer'|invalid_arguments|refused|0
0|0" "$(sqlite3 "$T/sim.db" "SELECT seq, quote(arguments_valid),
        quote(arguments_rule), error, effect, diverged FROM calls ORDER BY seq;
        SELECT reached, side_effects FROM episodes")"
# observed: NULL and a problem that says why, counted once; a rerun the same
{
    echo '{"type":"run","run":"obs","tools":"tree-allof.json"}'
    echo '{"type":"episode","run":"obs","episode":"o1"}'
    echo "{\"type\":\"call\",\"run\":\"obs\",\"episode\":\"o1\",\"call\":$call16,\"answer\":{\"ok\":true}}"
    echo "{\"type\":\"call\",\"run\":\"obs\",\"episode\":\"o1\",\"call\":$call14,\"answer\":{\"ok\":true}}"
    echo '{"type":"end","run":"obs","episode":"o1"}'
} > "$T/obs.jsonl"
for round in 1 2; do
    got=$(cd "$T" && r --db obs.db obs.jsonl 2>&1; echo "exit $?")
    if [ $round = 1 ]; then
        want="replay: 5 lines: 4 used, 0 unchanged, 1 problem, 0 blank
replay: 1 run; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 2 calls; into obs.db"
    else
        want="replay: 5 lines: 1 used, 3 unchanged, 1 problem, 0 blank
replay: 1 run; 0 episodes written (0 replaced, 0 unfinished), 1 unchanged; 0 calls; into obs.db"
    fi
    ok "observed, round $round" "obs.jsonl:3: $undecided; arguments_valid is left NULL
$want
exit 1" "$got"
    ok "observed, round $round: rows" "1|NULL|NULL
2|0|'argument \"id\" must be a string, not an integer'
3|$undecided; arguments_valid is left NULL" \
        "$(sqlite3 "$T/obs.db" "SELECT seq, quote(arguments_valid),
            quote(arguments_rule) FROM calls ORDER BY seq;
            SELECT source_line, message FROM problems")"
done

# --- YAML merge keys count against the expansion limit.  merge-bomb.yaml
# --- (534 bytes) merges ten copies of the mapping above it, eight lines
# --- down: 10^8 pairs; it once took gigabytes and minutes before it ran
# --- out of memory.  Refused in one line naming the place, in about a
# --- second under sanitizers (the limit here is for a loaded machine).
got=$(cd "$cases" && r hash merge-bomb.yaml 2>&1; echo "exit $?")
ok "merge bomb" "merge-bomb.yaml:7:10: \$.a6: merge keys (<<) expand the document past 4000000 values, the limit; no tool file needs that many (a merge bomb?)
exit 1" "$got"
# its first five lines (111,110 pairs merged) are a document, hashed as
# Python hashes it (tests/oracle.py)
head -n 5 "$cases/merge-bomb.yaml" > "$T/merges.yaml"
got=$(cd "$T" && r hash merges.yaml 2>&1; echo "exit $?")
ok "merges within the limit" "11a622a735916e0f290c8fd426c34336a45044393a56d1757124bc1e51f1432a  c17363f61cb63d755240da4480776cda2fc4d1896b496b69239421958d6a3115  merges.yaml
exit 0" "$got"

# --- a pattern search has a budget of work.  long-match.json's pattern
# --- (a{0,999}){9}x has some 18,000 states, most of them live on a run of
# --- a's: against 1 MB of them the search once took 100 s, per call.  Now
# --- it stops at its budget (a count: the same place on every machine,
# --- 0.4 s, 2.5 s under sanitizers) and the call is refused as not
# --- checked; a short one is checked as ever.
cp "$cases/long-match.json" "$T/"
{
    printf '{"name":"tag_item","arguments":{"code":"'
    head -c 1000000 /dev/zero | tr '\0' a
    echo '"}}'
    echo '{"name":"tag_item","arguments":{"code":"aaa"}}'
} > "$T/long-match.calls"
got=$(cd "$T" && r sim long-match.json --seed 1 --arm depth:d1 \
    < long-match.calls 2>&1)
ok "a long match" '{"error":{"code":"invalid_arguments","message":"argument \"code\" could not be checked against the pattern (a{0,999}){9}x: the match takes more work than the check allows; send a shorter value"}}
{"error":{"code":"invalid_arguments","message":"argument \"code\" must match the pattern (a{0,999}){9}x"}}
replay sim: 2 calls; not reached, not a pass (0 side effects, 0 duplicate writes)' "$got"

# --- a long chain of $refs loads in time linear in it.  Each lookup once
# --- scanned the whole of $defs, and each $ref of the chain followed the
# --- rest of it: 4,000 links took 138 s, 100,000 would take days.  Now
# --- large objects are indexed and each link is followed once: 100,000
# --- links, in a tool's own $defs (rebased) and in an OpenAPI document's
# --- components, load in about a second under sanitizers.
awk 'BEGIN {
    n = 100000
    printf "[{\"type\":\"function\",\"function\":{\"name\":\"get_item\","
    printf "\"parameters\":{\"type\":\"object\",\"properties\":"
    printf "{\"id\":{\"$ref\":\"#/$defs/d0\"}},\"$defs\":{"
    for (i = 0; i < n; i++)
        printf "\"d%d\":{\"$ref\":\"#/$defs/d%d\"},", i, i + 1
    printf "\"d%d\":{\"type\":\"string\"}}}}}]\n", n
}' > "$T/chain-defs.json"
awk 'BEGIN {
    n = 100000
    printf "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},"
    printf "\"paths\":{\"/items\":{\"get\":{\"operationId\":\"get_item\","
    printf "\"parameters\":[{\"name\":\"id\",\"in\":\"query\","
    printf "\"schema\":{\"$ref\":\"#/components/schemas/d0\"}}],"
    printf "\"responses\":{\"200\":{\"description\":\"ok\"}}}}},"
    printf "\"components\":{\"schemas\":{"
    for (i = 0; i < n; i++)
        printf "\"d%d\":{\"$ref\":\"#/components/schemas/d%d\"},", i, i + 1
    printf "\"d%d\":{\"type\":\"string\"}}}}\n", n
}' > "$T/chain-components.json"
for f in chain-defs.json chain-components.json; do
    got=$(cd "$T" && timeout 120 "$REPLAY" tools "$f" > "$f.out" 2>&1;
        echo "exit $?")
    got="$(sed -n '1p;5,6p' "$T/$f.out")
$got"
    ok "a chain of 100,000 \$refs: $f" "$f: $(case $f in *defs*) echo OpenAI tools ;; *) echo OpenAPI ;; esac), 1 tool, 0 refused
get_item  read ($(case $f in *defs*) echo 'name starts with "get"' ;; *) echo 'GET operation' ;; esac))
  arguments: id string
exit 0" "$got"
done

# --- a full disk at the very end: the night is in the log, and copying
# --- it into the database fails.  SQLite's close said nothing of it: exit
# --- 0, the database alone malformed.  Now it is said, exit 3, and the
# --- same command run again (with room) completes the job.  The disk is
# --- made full by a limit on the size of any file the process writes
# --- (prlimit --fsize, SIGXFSZ ignored so that the write fails instead):
# --- the database as the first night left it may not grow, while the log
# --- of a smaller second night fits.
need_cmd prlimit util-linux
r --quiet --db "$T/full.db" "$TOP_SRCDIR/samples/night" 2>/dev/null
size=$(wc -c < "$T/full.db")
got=$( (trap '' XFSZ
        exec prlimit --fsize="$size" "$REPLAY" --db "$T/full.db" \
            "$TOP_SRCDIR/samples/observed") 2>&1; echo "exit $?")
ok "a full disk at the end" "replay: $T/full.db: cannot copy its log into it: disk I/O error (is the disk full?); what was written is whole in $T/full.db-wal: keep the two files together, make room, and run the same command again
exit 3" "$got"
got=$(r --db "$T/full.db" "$TOP_SRCDIR/samples/observed" 2>&1; echo "exit $?")
ok "the same command again" "replay: 564 lines: 2 used, 562 unchanged, 0 problems, 0 blank
replay: 2 runs; 0 episodes written (0 replaced, 0 unfinished), 96 unchanged; 0 calls; into $T/full.db
exit 0" "$got"
ok "the database after it" "ok|384
full.db" "$(sqlite3 "$T/full.db" \
    'PRAGMA integrity_check; SELECT count(*) FROM episodes' | paste -sd '|';
    cd "$T" && ls -d full.db*)"

# --- run lines whose tool file is missing, with a tools_sha256: the
# --- --tools-dir is hashed once a night to find it, not once a line.
# --- 4,000 such lines and 40 MB of other files beside the tool file took
# --- 110 s (160 GB hashed); now 40 MB are, in a few seconds.  Where strace
# --- runs, each file is seen opened once for 100 lines.
mkdir -p "$T/moved/tools" "$T/moved/night" || exit 99
cp "$TOP_SRCDIR/samples/tools/shop.json" "$T/moved/tools/" || exit 99
for i in 0 1 2 3 4 5 6 7 8 9; do
    head -c 4000000 /dev/zero | tr '\0' "$i" > "$T/moved/tools/junk$i.json"
done
sha=$("$REPLAY" hash "$T/moved/tools/shop.json" | cut -d ' ' -f 1)
awk -v sha="$sha" 'BEGIN { for (i = 0; i < 4000; i++)
    printf "{\"type\":\"run\",\"run\":\"r%d\",\"tools\":\"gone/shop-%d.json\",\"tools_sha256\":\"%s\"}\n", i, i, sha }' \
    > "$T/moved/night/runs.jsonl"
got=$(cd "$T/moved" && timeout 60 "$REPLAY" --db runs.db --tools-dir tools \
    night/runs.jsonl 2>&1; echo "exit $?")
ok "4,000 runs whose tool file moved" "replay: 4000 lines: 4000 used, 0 unchanged, 0 problems, 0 blank
replay: 4000 runs; 0 episodes written (0 replaced, 0 unfinished), 0 unchanged; 0 calls; into runs.db
exit 0" "$got"
if strace -f -qq -o /dev/null true 2>/dev/null; then
    head -n 100 "$T/moved/night/runs.jsonl" > "$T/moved/night/r100.jsonl"
    # LeakSanitizer cannot run under ptrace
    ( cd "$T/moved" &&
      ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
          strace -f -qq -e trace=openat -o opens.log "$REPLAY" --quiet \
          --db r100.db --tools-dir tools night/r100.jsonl 2>/dev/null )
    ok "each file of --tools-dir read once" "1" \
        "$(grep -c 'tools/junk0\.json' "$T/moved/opens.log")"
else
    echo "note: strace cannot run here; the reads were not counted"
fi

echo "limits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
