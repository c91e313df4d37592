# Golden episodes: tests/episodes/NAME.calls is a task and a scripted list
# of calls, NAME.gold what `replay sim` must give for them.
#
# NAME.calls: first line "# FILE SEED ARM" (FILE relative to the source
# tree), then "#" lines saying what the episode shows, then one call a line.
# The "#" lines are fed to replay as blank lines (no call), so the report's
# "line" is the line of the .calls file.
#
# NAME.gold: the answer lines (stdout), "--- report" and the report lines,
# "--- transcript" and the transcript lines (run "golden", episode NAME).
#
# The transcript's "tools" is the tool file's path relative to the
# transcript's folder.  To make it stable, each run happens in a temporary
# tree that mirrors the source tree: the tool file is copied (not linked:
# replay resolves links) to TREE/FILE, and the transcript is written to
# TREE/tests/episodes/NAME.jsonl, so "tools" reads as it would for a
# transcript kept beside the .calls file ("../../samples/tools/shop.json"),
# wherever the source and temporary folders are.  The copy has the same
# bytes, so tools_sha256 and every draw are those of the original.
#
# Also checked: determinism (every episode run twice gives byte-identical
# answers, report and transcript) and position independence (below).
# Adding a case is adding a .calls file and running with UPDATE_GOLDEN=1,
# which rewrites the .gold files; then check every line of the new gold
# against the rules by hand before committing it.  A gold is not rewritten
# when replay exits with an error.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
EPISODES=$TOP_SRCDIR/tests/episodes
# Two such trees, so that the two runs of an episode can go side by side.
mkdir -p "$TEST_TMP/a/tests/episodes" "$TEST_TMP/b/tests/episodes" || exit 99
pass=0 fail=0

failed() {
    fail=$((fail + 1))
    echo "FAIL $1"
}

# same_bytes WHAT WANT GOT: a pass when the two files hold the same bytes,
# else a failure named WHAT, with the first lines of their diff.
same_bytes() {
    if cmp -s "$2" "$3"; then
        pass=$((pass + 1))
    else
        failed "$1"
        diff "$2" "$3" | head -20
    fi
}

# header NAME: sets FILE SEED ARM from NAME.calls's first line.
header() {
    FILE= SEED= ARM=
    IFS=' ' read -r h_hash FILE SEED ARM h_rest < "$EPISODES/$1.calls" || :
    [ "${h_hash:-}" = "#" ] && [ -n "$FILE" ] && [ -n "$SEED" ] &&
        [ -n "$ARM" ] && [ -z "${h_rest:-}" ] && [ -f "$TOP_SRCDIR/$FILE" ]
}

# calls NAME: the calls of NAME.calls on stdout, its "#" lines blank.
calls() {
    sed 's/^#.*//' "$EPISODES/$1.calls"
}

# play TREE NAME OUT: runs the episode on the calls on stdin in the tree
# TREE ("a" or "b"); writes OUT.answers, OUT.report, OUT.transcript, OUT.err
# and OUT (the three joined, as a gold is).  Returns replay's exit status.
play() {
    p_src=$TEST_TMP/$1
    shift
    if [ ! -f "$p_src/$FILE" ]; then
        mkdir -p "$p_src/${FILE%/*}" && cp "$TOP_SRCDIR/$FILE" "$p_src/$FILE" ||
            return 99
    fi
    p_tr=$p_src/tests/episodes/$1.jsonl
    rm -f "$p_tr" "$2.report" # replay appends to a transcript
    "$REPLAY" sim "$p_src/$FILE" --seed "$SEED" --arm "$ARM" \
        --transcript "$p_tr" --run golden --episode "$1" \
        --report "$2.report" > "$2.answers" 2> "$2.err"
    p_rc=$?
    : >> "$2.report"
    : >> "$p_tr"
    mv "$p_tr" "$2.transcript" || return 99
    {
        cat "$2.answers"
        echo "--- report"
        cat "$2.report"
        echo "--- transcript"
        cat "$2.transcript"
    } > "$2"
    return $p_rc
}

# ---------------------------------------------------------------- golden
for c in "$EPISODES"/*.calls; do
    [ -f "$c" ] || continue
    name=${c##*/}
    name=${name%.calls}
    out=$TEST_TMP/$name.out
    if ! header "$name"; then
        failed "$name: the first line must be '# FILE SEED ARM' naming a file of the source tree"
        continue
    fi
    # The second run (for determinism) goes alongside the first.
    calls "$name" | play b "$name" "$out.2" &
    calls "$name" | play a "$name" "$out"
    rc=$?
    wait
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
        if [ "$rc" -eq 0 ]; then
            cp "$out" "$EPISODES/$name.gold"
        else
            echo "not rewriting $name.gold: replay exited $rc"
        fi
    fi
    if [ ! -f "$EPISODES/$name.gold" ]; then
        failed "$name: no $name.gold (UPDATE_GOLDEN=1 writes it)"
    elif [ "$rc" -eq 0 ] && cmp -s "$EPISODES/$name.gold" "$out"; then
        pass=$((pass + 1))
    else
        failed "$name"
        if [ "$rc" -ne 0 ]; then
            echo "  replay exited $rc:"
            sed 's/^/    /' "$out.err" | head -5
        fi
        diff -u "$EPISODES/$name.gold" "$out" | sed 1,2d | head -40
    fi

    # Determinism: the same inputs again give the same bytes.
    same_bytes "$name: a second run differs from the first" "$out" "$out.2"
done

# -------------------------------------------------- position independence
#
# The answer to a call depends on its content, not on its place in the
# episode; only the store (writes a read's checkable arguments name), the
# chain's order (not_ready) and the dials (counted on step calls) may change
# it.  Each case plays an episode's calls in another order, or after other
# calls, and compares the answers of the calls for which none of that can
# differ.

# A prefix of calls that matches no step of any episode's task below,
# names no value their reads or writes name, and plans no dial: an unknown
# tool, an invalid call, reads and side-effect writes for order B-0001.
# (The side effects change the verdict, never an answer.)
NOISE='{"name":"list_channels","arguments":{}}
{"name":"get_order","arguments":{"order_id":"B-0001"}}
{"name":"search_orders","arguments":{"query":"noise"}}
{"name":"archive_order","arguments":{"order_id":"B-0001"}}
{"name":"refund_order","arguments":{"order_id":"B-0001"}}
{"name":"refund_order","arguments":{"order_id":"B-0001","amount":1}}
{"name":"notify_customer","arguments":{"order_id":"B-0001","channel":"email"}}
{"name":"get_order","arguments":{"order_id":"B-0001"}}'
NNOISE=8

# answer_of FILE N: line N of FILE.
answer_of() {
    sed -n "${2}p" "$1"
}

# position NAME MODE STABLE...: MODE "prefix" plays NOISE first, "reverse"
# plays the calls last to first; STABLE lists the calls (1-based, counting
# the .calls file's non-blank lines after its "#" lines) whose answers must
# not change, or "all".
position() {
    po_name=$1 po_mode=$2
    shift 2
    header "$po_name" || { failed "position $po_name: bad header"; return; }
    po_out=$TEST_TMP/$po_name.pos
    po_calls=$TEST_TMP/$po_name.calls
    grep -v '^#' "$EPISODES/$po_name.calls" | grep -v '^[[:space:]]*$' \
        > "$po_calls"
    po_n=$(wc -l < "$po_calls")
    po_n=$((po_n + 0))
    case $po_mode in
    prefix)
        { printf '%s\n' "$NOISE"; cat "$po_calls"; } | play a "$po_name" "$po_out"
        ;;
    reverse)
        awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' \
            "$po_calls" | play a "$po_name" "$po_out"
        ;;
    esac
    if [ "$1" = all ]; then
        set --
        i=$po_n
        while [ "$i" -gt 0 ]; do
            set -- "$i" "$@"
            i=$((i - 1))
        done
    fi
    po_bad=0
    for i in "$@"; do
        case $po_mode in
        prefix) j=$((NNOISE + i)) ;;
        reverse) j=$((po_n + 1 - i)) ;;
        esac
        want=$(answer_of "$TEST_TMP/$po_name.out.answers" "$i")
        got=$(answer_of "$po_out.answers" "$j")
        if [ -z "$want" ] || [ "$want" != "$got" ]; then
            [ "$po_bad" -eq 0 ] && failed "position $po_name ($po_mode)"
            po_bad=1
            printf '  call %s:\n    in order: %s\n    %s: %s\n' "$i" \
                "$want" "$po_mode" "$got"
        fi
    done
    [ "$po_bad" -eq 0 ] && pass=$((pass + 1))
}

# The chain, the target refused before step 2 (not_ready), the side effect
# and the duplicate come after the noise exactly as before: nothing in the
# noise is a step.
position worked-example-d3 prefix all
# Faults are counted on the calls of a step only: the noise shifts no
# fault, every answer (errors and all) stays.
position faults-f4 prefix all
# The wrong answer goes to the first valid call of the read the request
# names, wherever it is; the noise makes no such call.
position baddata-b1-caught prefix all
# The read a lag delays is the first one to name the target write: the
# noise's get_order names B-0001, never Z-0362.
position lagged-g1-trusted prefix all
# Its reads share no argument with a write, and the search that matches
# step 1 still comes before the refund: every answer stays, reversed.
position read-no-shared-argument reverse all
# The same read in six shapes, and list_channels three ways.
position call-shapes reverse all
# Reversed, the get_order calls that name Z-0362 meet other writes (the
# store); the writes' answers are what they were sent, and get_order with
# amount 1 names a value no write was sent: those four stay.
position overlay-two-writes reverse 2 3 4 6
# Errors depend on the call alone; the two lines that are no call say their
# line number, and move (calls 10 and 11 are left out).
position errors-openai reverse 1 2 3 4 5 6 7 8 9 12

# Arms that plan nothing at level 0 answer as the default arm: the arm is
# not part of the draw, and none of these places arguments in reads.
same_answers() {
    same_bytes "$1 and $2 answer differently" "$TEST_TMP/$1.out.answers" \
        "$TEST_TMP/$2.out.answers"
}
same_answers base-shop ratelimits-r0
same_answers depth-d2-openapi faults-f0
same_answers depth-d2-openapi timeouts-o0

# The report into standard output (--report - or /dev/stdout, even when
# standard output is a file): each call's answer, then its report line,
# then the verdict; nothing truncated or written over.
header base-shop || failed "base-shop: bad header"
o=$TEST_TMP/base-shop.out
n=$(wc -l < "$o.answers")
{ paste -d '\n' "$o.answers" "$o.report" | head -n $((2 * n))
  tail -n 1 "$o.report"; } > "$TEST_TMP/one-stream.want"
for dest in - /dev/stdout; do
    calls base-shop | "$REPLAY" sim "$TOP_SRCDIR/$FILE" --seed "$SEED" \
        --arm "$ARM" --report "$dest" > "$TEST_TMP/one-stream.got" 2>/dev/null
    same_bytes "--report $dest into standard output" \
        "$TEST_TMP/one-stream.want" "$TEST_TMP/one-stream.got"
done

echo "episodes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
