#!/bin/sh
# The contract hash of `replay hash` against tests/oracle.py on the real
# tool files of $CORPUS (read in place, never copied), and SOURCES.tsv's
# loads_with_python column (json, yaml or refused) against what Python's
# json and PyYAML make of each file.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_corpus
skip_unless_python
need_replay
tmpdir

cd "$CORPUS" || exit 99
find . -type f ! -name README.md ! -name SOURCES.tsv | sed 's|^\./||' |
    LC_ALL=C sort > "$TEST_TMP/list"

# The SOURCES.tsv check runs beside the hash comparison; it leaves its
# report in sources.txt and its status in list.rc.
"$PYTHON3" - "$TEST_TMP/list" > "$TEST_TMP/sources.txt" 2>&1 <<'PY' &
import json, sys
import yaml
listed, bad = {}, []
try:
    with open("SOURCES.tsv", encoding="utf-8") as f:
        col = f.readline().rstrip("\n").split("\t").index("loads_with_python")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            listed[cols[0]] = cols[col]
except (OSError, ValueError) as e:
    bad.append("SOURCES.tsv: cannot be read: %s" % e)
with open(sys.argv[1], encoding="utf-8") as f:
    paths = [line.rstrip("\n") for line in f]
for path in paths:
    with open(path, "rb") as f:
        b = f.read()
    try:
        json.loads(b)
        got = "json"
    except ValueError:
        try:
            yaml.safe_load(b)
            got = "yaml"
        except Exception:
            got = "refused"
    said = listed.get(path)
    if said is None:
        bad.append("SOURCES.tsv: %s is not listed (Python: %s)" % (path, got))
    elif said.split(":")[0] != got:
        bad.append("SOURCES.tsv: %s says %r, Python: %s"
                   % (path, said[:60], got))
for path in sorted(set(listed) - set(paths)):
    bad.append("SOURCES.tsv: %s is listed but not in the folder" % path)
for line in bad:
    print(line)
print("SOURCES.tsv loads_with_python: %d files, %d disagreements"
      % (len(paths), len(bad)))
with open(sys.argv[1] + ".rc", "w") as f:
    f.write("1\n" if bad else "0\n")
PY

hash_compare "hash corpus" "$TEST_TMP/list" > "$TEST_TMP/compare.txt"
status=$?
wait
cat "$TEST_TMP/sources.txt" "$TEST_TMP/compare.txt"
[ "$(cat "$TEST_TMP/list.rc" 2>/dev/null)" = 0 ] || status=1
exit $status
