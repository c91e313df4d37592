#!/bin/sh
# The contract hash of `replay hash` against tests/oracle.py on generated
# tool files: ${DIFF_DOCS:-10000} documents from gen_docs.py, most written
# both as JSON and as YAML, some that must be refused.  Every file must get
# the same answer from both: the same two hashes, or a refusal from both.
#
# DIFF_DOCS and DIFF_SEED choose the documents; a failing document N is
# regenerated alone by
#   python3 tests/gen_docs.py DIR --count 1 --first N --seed SEED
set -u
. "$TOP_SRCDIR/tests/lib.sh"
skip_unless_python
need_replay
tmpdir

docs=${DIFF_DOCS:-10000}
seed=${DIFF_SEED:-20260101}
"$PYTHON3" "$TOP_SRCDIR/tests/gen_docs.py" "$TEST_TMP/docs" \
    --count "$docs" --seed "$seed" || {
    echo "ERROR: gen_docs.py failed" >&2
    exit 99
}
cd "$TEST_TMP/docs" || exit 99
ls | grep -e '\.json$' -e '\.yaml$' > "$TEST_TMP/list"
files=$(wc -l < "$TEST_TMP/list" | tr -d ' ')
echo "seed $seed: $files files from $docs documents"
hash_compare "hash differential" "$TEST_TMP/list" MANIFEST.tsv
