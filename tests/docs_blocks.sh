# The output blocks of README.md and docs/*.md that are marked with the
# command that prints them (<!-- output: COMMAND -->, tests/docs_blocks.py)
# are what the programs print now: run on the samples, replayed at the
# time the documents show.  A stale block fails, with what the command
# prints; UPDATE_DOCS=1 rewrites the blocks that show the whole output.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
skip_unless_python
: "${CARD:?}"
tmpdir
export SOURCE_DATE_EPOCH=1796503277 # 2026-12-05T20:41:17Z
PATH=$(dirname "$REPLAY"):$(dirname "$CARD"):$PATH
export PATH
cp -R "$TOP_SRCDIR/samples" "$TEST_TMP/samples" || exit 99
cd "$TEST_TMP" || exit 99
replay --quiet --db night.db samples/night >/dev/null 2>&1 &&
    replay --quiet --db observed.db samples/observed >/dev/null 2>&1 || exit 99
"$PYTHON3" "$TOP_SRCDIR/tests/docs_blocks.py" "$TEST_TMP" \
    "$TOP_SRCDIR/README.md" "$TOP_SRCDIR"/docs/*.md
