# The database's own thread: what replay says and writes must not depend
# on how its two threads happen to meet.  The samples night is replayed,
# then a changed copy of it over the result: some episodes end with
# another status (each then "changed since it was recorded: replaced"),
# some lines are broken (problems), and a new run is declared late in the
# night (a declaration the reading thread waits for).  Checked:
#  - every note and problem comes out in input order (FILE:LINE rising),
#    as many as the summary counts, the same text on every one of 5 runs;
#  - the database equals, table by table, the one --batch 1 (a commit
#    after each episode) gives;
#  - a merge, whose shards are checked by a thread each, gives the night
#    replayed whole.
# Run with a ThreadSanitizer build as REPLAY, the same script finds races.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
# tool files copied beside the test's transcripts may be read
TASKREPLAY_TOOLS_DIR=${TASKREPLAY_TOOLS_DIR:+$TASKREPLAY_TOOLS_DIR:}$TEST_TMP
export TASKREPLAY_TOOLS_DIR
need_cmd sqlite3
export SOURCE_DATE_EPOCH=1790000000
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

night=$TEST_TMP/night
mkdir -p "$night"
# the night, its tool paths made absolute (it is replayed from elsewhere)
sed "s|\"tools\":\"\\.\\./tools/|\"tools\":\"$TOP_SRCDIR/samples/tools/|" \
    "$TOP_SRCDIR/samples/night/careful.jsonl" > "$TEST_TMP/first.jsonl"
# the changed night: every 5th end line says "stopped", every 37th line is
# cut short, and a run "late" starts two thirds of the way in
awk -v tools="$TOP_SRCDIR/samples/tools/shop.json" '
    /"type":"end"/ && ++ends % 5 == 0 { sub(/"status":"done"/, "\"status\":\"stopped\"") }
    NR % 37 == 0 { print substr($0, 1, 30); next }
    NR == 450 {
        print "{\"type\":\"run\",\"run\":\"late\",\"tools\":\"" tools "\"}"
        print "{\"type\":\"episode\",\"run\":\"late\",\"episode\":\"l1\",\"seed\":3,\"arm\":\"base\"}"
        print "{\"type\":\"end\",\"run\":\"late\",\"episode\":\"l1\"}"
    }
    { print }' "$TEST_TMP/first.jsonl" > "$TEST_TMP/changed.jsonl"

# Whether the notes and problems on stderr ($1) come in input order: a
# problem at its own line, an episode's "replaced" at its end line (in
# the changed night), or at the end for one whose end line is broken;
# prints how many there are, or "out of order".
in_order() {
    awk 'NR == FNR {
             if ($0 ~ /"type":"end"/ &&
                 match($0, /"episode":"[^"]*"/))
                 end_of[substr($0, RSTART + 11, RLENGTH - 12)] = FNR
             next
         }
         /^[^ ]*a\.jsonl:[0-9]+: / {
             split($0, f, ":")
             at = f[2] + 0
             if ($0 ~ /changed since it was recorded: replaced$/) {
                 name = $0
                 sub(/^[^"]*"/, "", name)
                 sub(/" of run .*/, "", name)
                 # no end line: written unfinished when the input ends
                 at = (name in end_of) ? end_of[name] : 1e9
             }
             if (at < last) bad = 1
             last = at
             n++
         }
         END { if (bad) print "out of order"; else print n + 0 }' \
        "$TEST_TMP/changed.jsonl" "$1"
}

first=""
for i in 1 2 3 4 5; do
    rm -f "$TEST_TMP"/t.db*
    cp "$TEST_TMP/first.jsonl" "$night/a.jsonl"
    "$REPLAY" --quiet --db "$TEST_TMP/t.db" "$night" 2>/dev/null
    cp "$TEST_TMP/changed.jsonl" "$night/a.jsonl"
    "$REPLAY" --quiet --db "$TEST_TMP/t.db" "$night" 2>"$TEST_TMP/err.$i"
    if [ -z "$first" ]; then
        first=$(cat "$TEST_TMP/err.$i")
        said=$(in_order "$TEST_TMP/err.$i")
        # problems and replaced episodes, as the summary counts them
        counted=$(awk '/ lines: / { p = $8 } / written \(/ { r = substr($7, 2) }
                       END { print p + r }' "$TEST_TMP/err.$i")
        if check_eq "notes and problems in input order" "$counted" "$said"
        then ok; else ko "order"; fi
        if [ "$said" -gt 20 ]; then ok; else ko "too few notes to test ($said)"; fi
    elif check_eq "run $i says what run 1 said" "$first" \
           "$(cat "$TEST_TMP/err.$i")"; then
        ok
    else
        ko "run $i"
    fi
done

rm -f "$TEST_TMP"/b.db*
cp "$TEST_TMP/first.jsonl" "$night/a.jsonl"
"$REPLAY" --quiet --batch 1 --db "$TEST_TMP/b.db" "$night" 2>/dev/null
cp "$TEST_TMP/changed.jsonl" "$night/a.jsonl"
"$REPLAY" --quiet --batch 1 --db "$TEST_TMP/b.db" "$night" 2>"$TEST_TMP/b.err"
if [ "$(echo "$first" | sed 's/; into .*//')" = \
     "$(sed 's/; into .*//' "$TEST_TMP/b.err")" ] &&
   [ "$(db_dump "$TEST_TMP/t.db")" = "$(db_dump "$TEST_TMP/b.db")" ]; then
    ok
else
    ko "what --batch 1 says or writes differs"
fi
if check_eq "the late run" "1|0|1" \
       "$(sqlite3 "$TEST_TMP/t.db" "SELECT count(*), sum(calls), (SELECT count(*) FROM runs WHERE run = 'late') FROM episodes WHERE run = 'late'")"
then ok; else ko "late run"; fi

# A night big enough (the samples night 40 times, each copy its own runs:
# a 20 MB database) for the log to be copied into the database by the
# third thread while the writer goes on.
cp -R "$TOP_SRCDIR/samples/tools" "$TEST_TMP/" || exit 99
mkdir -p "$TEST_TMP/big"
cat "$TOP_SRCDIR"/samples/night/*.jsonl |
    awk '{ lines[NR] = $0 } END {
        for (c = 1; c <= 40; c++)
            for (i = 1; i <= NR; i++) {
                l = lines[i]; sub(/"run":"/, "\"run\":\"c" c "-", l); print l
            } }' > "$TEST_TMP/big/night.jsonl"
rm -f "$TEST_TMP"/big.db*
if "$REPLAY" --quiet --db "$TEST_TMP/big.db" "$TEST_TMP/big/night.jsonl" \
        2>"$TEST_TMP/big.err" &&
   check_eq "the big night" "11520|62560|ok" \
       "$(sqlite3 "$TEST_TMP/big.db" "SELECT (SELECT count(*) FROM episodes), (SELECT count(*) FROM calls), (SELECT * FROM pragma_integrity_check)")"
then ok; else ko "the big night"; cat "$TEST_TMP/big.err"; fi

# --timings: one more line after the summary, each thread's CPU seconds;
# the writer's and the reader's are not zero on this night.
rm -f "$TEST_TMP"/timed.db*
"$REPLAY" --quiet --timings --db "$TEST_TMP/timed.db" \
    "$TEST_TMP/big/night.jsonl" 2>"$TEST_TMP/timed.err"
if check_eq "--timings" "$(cat "$TEST_TMP/big.err")" \
       "$(sed '$d' "$TEST_TMP/timed.err" | sed "s|timed.db|big.db|")" &&
   tail -n 1 "$TEST_TMP/timed.err" | grep -Eq '^replay: [0-9]+\.[0-9]{2} s; CPU seconds: [0-9]+\.[0-9]{2} reading and answering, [0-9]+\.[0-9]{2} writing the database, [0-9]+\.[0-9]{2} copying its log$' &&
   tail -n 1 "$TEST_TMP/timed.err" |
       awk '{ exit !($6 + 0 > 0 && $10 + 0 > 0) }'
then ok; else ko "--timings"; cat "$TEST_TMP/timed.err"; fi

# The writer fails mid-night (a file size limit: its write gets EFBIG):
# one line saying what, exit 3, and the reading thread stops with it
# (a run line it waits on included); a rerun completes the job.
rm -f "$TEST_TMP"/full.db*
( trap '' XFSZ; ulimit -f 4096
  "$REPLAY" --quiet --db "$TEST_TMP/full.db" "$TEST_TMP/big/night.jsonl" \
      2>"$TEST_TMP/full.err"; echo "exit $?" > "$TEST_TMP/full.status" )
if check_eq "a failed write" "exit 3
replay: $TEST_TMP/full.db: cannot commit (is the disk full?): disk I/O error" \
       "$(cat "$TEST_TMP/full.status" "$TEST_TMP/full.err")" &&
   "$REPLAY" --quiet --db "$TEST_TMP/full.db" "$TEST_TMP/big/night.jsonl" \
       2>/dev/null &&
   [ "$(db_dump "$TEST_TMP/full.db")" = "$(db_dump "$TEST_TMP/big.db")" ]
then ok; else ko "the failed write"; fi

# A merge checks its shards at once, a thread each (as many as the
# machine has cores): 4 shards of the big night, merged, are the night
# replayed whole, and nothing is said (a race would be, under TSan).
for i in 0 1 2 3; do
    rm -f "$TEST_TMP/part$i.db"*
    "$REPLAY" --quiet --shard "$i/4" --db "$TEST_TMP/part$i.db" \
        "$TEST_TMP/big/night.jsonl" 2>/dev/null
done
rm -f "$TEST_TMP"/parts.db*
"$REPLAY" merge --quiet "$TEST_TMP/parts.db" "$TEST_TMP"/part[0-3].db \
    2>"$TEST_TMP/parts.err"
if check_eq "a merge of 4 shards" "exit 0" "exit $?" &&
   check_eq "what it says" "" "$(cat "$TEST_TMP/parts.err")" &&
   [ "$(db_dump "$TEST_TMP/parts.db")" = "$(db_dump "$TEST_TMP/big.db")" ]
then ok; else ko "a merge of 4 shards"; fi

# A log of JSON Lines is parsed a batch ahead, by a thread of its own,
# while the reading thread takes the batch before: 300 lines of OTLP
# traces (1.3 MiB: a file of 1 MiB or less is read without the thread),
# every 50th broken, read three times, say the same problems in line
# order; and what they hold is what the same spans give as one document
# (read by the reading thread alone).
need_cmd "${PYTHON3:-python3}"
"${PYTHON3:-python3}" - "$TEST_TMP" <<'EOF' || exit 99
import json, sys
out = sys.argv[1]
kv = lambda k, v: {"key": k, "value": {"stringValue": v}}
batches = []
for n in range(300):
    trace = "%032x" % (n + 1)
    spans = [{"traceId": trace, "spanId": "%016x" % (2 * n + 1),
              "parentSpanId": "%016x" % (2 * n + 2),
              "name": "execute_tool get_order", "startTimeUnixNano": "10",
              "endTimeUnixNano": "20",
              "attributes": [kv("gen_ai.operation.name", "execute_tool"),
                             kv("gen_ai.tool.name", "get_order"),
                             kv("gen_ai.tool.call.id", "c%d" % n),
                             kv("gen_ai.tool.call.arguments",
                                json.dumps({"order_id": "A-%d\n" % n})),
                             kv("gen_ai.tool.call.result",
                                json.dumps({"id": "A-%d" % n}))]},
             {"traceId": trace, "spanId": "%016x" % (2 * n + 2),
              "name": "invoke_agent a", "startTimeUnixNano": "1",
              "endTimeUnixNano": "30",
              "attributes": [kv("gen_ai.operation.name", "invoke_agent"),
                             {"key": "tasks.seed", "value": {"intValue": str(n)}},
                             kv("tasks.arm", "base"),
                             # past 1 MiB in all: a smaller file is read
                             # without the thread
                             kv("pad", "p" * 4000)]}]
    batches.append({"resource": {"attributes": [kv("service.name", "ahead")]},
                    "scopeSpans": [{"spans": spans}]})
with open(out + "/ahead.jsonl", "w") as f:
    for n, b in enumerate(batches):
        if n % 50 == 49:
            f.write('{"resourceSpans": [not json\n')
        f.write(json.dumps({"resourceSpans": [b]}) + "\n")
with open(out + "/ahead-doc.json", "w") as f:
    json.dump({"resourceSpans": batches}, f, indent=1)
EOF
first=""
for i in 1 2 3; do
    rm -f "$TEST_TMP"/ahead.db*
    "$REPLAY" --quiet --from otlp --tools "$TOP_SRCDIR/samples/tools/shop.json" \
        --db "$TEST_TMP/ahead.db" "$TEST_TMP/ahead.jsonl" \
        2>"$TEST_TMP/ahead.err.$i"
    [ -z "$first" ] && first=$(cat "$TEST_TMP/ahead.err.$i")
done
rm -f "$TEST_TMP"/ahead-doc.db*
"$REPLAY" --quiet --from otlp --tools "$TOP_SRCDIR/samples/tools/shop.json" \
    --db "$TEST_TMP/ahead-doc.db" "$TEST_TMP/ahead-doc.json" 2>/dev/null
rows() {
    sqlite3 "$1" "SELECT e.episode, e.seed, c.seq, c.tool, c.arguments,
        c.logged_answer, c.diverged FROM episodes e JOIN calls c
        USING (episode_id) ORDER BY 1, 3"
}
if check_eq "a log parsed a line ahead: problems in line order" \
       "$(seq 50 51 306 | sed 's/.*/ahead.jsonl:&: not JSON/')" \
       "$(sed -n 's|^.*/\(ahead\.jsonl:[0-9]*: not JSON\).*|\1|p' \
            "$TEST_TMP/ahead.err.1")" &&
   check_eq "... a file past 1 MiB" 1 \
       "$(test "$(wc -c < "$TEST_TMP/ahead.jsonl")" -gt 1048576 && echo 1)" &&
   check_eq "... the same on every run" "$first
$first" "$(cat "$TEST_TMP/ahead.err.2" "$TEST_TMP/ahead.err.3")" &&
   check_eq "... 300 episodes, a call each" "300|300" \
       "$(sqlite3 "$TEST_TMP/ahead.db" "SELECT count(*), sum(calls) FROM episodes")" &&
   check_eq "... what the spans give as one document" \
       "$(rows "$TEST_TMP/ahead-doc.db")" "$(rows "$TEST_TMP/ahead.db")"
then ok; else ko "a log parsed a line ahead"; cat "$TEST_TMP/ahead.err.1"; fi

echo "threads: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
