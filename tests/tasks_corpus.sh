# Every published tool file of $CORPUS builds a task for each of seeds
# 1-50 at every depth its tools allow (the longest chain, as replay says
# when asked for depth 8 and it cannot).  Skipped, saying why, without
# the corpus.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
TEST_TMP_ERR=$TEST_TMP/err
need_corpus
pass=0 fail=0 files=0
for f in $(find "$CORPUS" -type f ! -name README.md ! -name SOURCES.tsv |
    LC_ALL=C sort); do
    said=$(timeout 300 "$REPLAY" tasks "$f" --seeds 1 --arms depth:d8 2>&1 \
        >/dev/null)
    case "$said" in
    "") longest=8 ;;
    *"longest chain is 1 step"*) longest=1 ;;
    *"longest chain is "*)
        longest=$(echo "$said" | sed 's/.*longest chain is \([0-9]*\) steps.*/\1/') ;;
    *) continue ;; # no write, or not a tool file: no task to build
    esac
    files=$((files + 1))
    arms=depth:d1
    d=2
    while [ "$d" -le "$longest" ]; do
        arms="$arms,depth:d$d"
        d=$((d + 1))
    done
    got=$(timeout 600 "$REPLAY" tasks "$f" --seeds 1-50 --arms "$arms" \
        2>"$TEST_TMP_ERR" | wc -l | tr -d ' ')
    count_eq "$(basename "$f"): tasks of seeds 1-50 at depths 1-$longest" \
        "$((50 * longest)) tasks; " "$got tasks; $(head -n 1 "$TEST_TMP_ERR")"
done
echo "tasks on the corpus: $files files, $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$files" -gt 0 ]
