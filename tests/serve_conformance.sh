# replay serve --http against the MCP project's conformance suite
# (@modelcontextprotocol/conformance, pinned in tests/mcp/package.json):
# every server scenario runs, and exactly those listed in
# tests/mcp/conformance-expected-failures.txt fail (each with its reason
# there); an unexpected failure, a listed scenario that passes, or a listed
# name the suite does not have fails this test.
# Needs `npm ci` in tests/mcp (./quickstart test runs it), which installs
# the clients and the Node.js they run on (tests/lib.sh, mcp_node).
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
mcp_node
mcp=$TOP_SRCDIR/tests/mcp
suite=$mcp/node_modules/@modelcontextprotocol/conformance/dist/index.js
if [ ! -f "$suite" ]; then
    lack "the conformance suite in tests/mcp/node_modules (npm ci in tests/mcp)"
fi
tmpdir
cd "$TEST_TMP" || exit 99
# the shop's MCP tools, and the suite's json_schema_2020_12_tool (its
# $schema, $defs and additionalProperties kept as the file has them)
cp "$TOP_SRCDIR/tests/serve/conformance-tools.json" . || exit 99
"$REPLAY" serve conformance-tools.json --http 127.0.0.1:0 --transcript night.jsonl \
    2> serve.err &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$TEST_TMP"' EXIT
i=0
while ! grep -q listening serve.err && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
url=$(sed -n 's/^replay serve: listening on //p' serve.err)
[ -n "$url" ] || { cat serve.err; exit 99; }

# each request may wait 60 s in the suite: a hung server must not hang CI
timeout 600 "$NODE" "$suite" server --url "$url" --suite all -o out > suite.log 2>&1
[ $? -eq 124 ] && { tail -n 20 suite.log; echo "FAIL: the suite did not end in 600 s"; exit 1; }
"$NODE" "$suite" list --server | sed -n 's/^ *- //p' | sort > known.txt
# the suite's own verdict per scenario, from its summary
sed -n '/=== SUMMARY ===/,$p' suite.log |
    sed -n 's/^\(.\) \([a-z0-9-]*\): .*/\1 \2/p' > verdicts.txt
sed -e 's/#.*//' -e 's/ *$//' -e '/^$/d' "$mcp/conformance-expected-failures.txt" |
    sort > expected.txt
sed -n 's/^✗ //p' verdicts.txt | sort > failed.txt
sed -n 's/^✓ //p' verdicts.txt | sort > passed.txt

fail=0
ran=$(wc -l < verdicts.txt)
total=$(wc -l < known.txt)
if [ "$total" -eq 0 ]; then
    echo "FAIL: the suite lists no scenario on $NODE; its first lines:"
    head -n 5 suite.log
    exit 1
fi
check_eq "scenarios run (of those the suite lists)" "$total" "$ran" || fail=1
for s in $(comm -23 failed.txt expected.txt); do
    echo "FAIL: unexpected failure: $s:"
    sed -n "/Running scenario: $s ===/,/=== Running/p" suite.log | head -n 30
    fail=1
done
for s in $(comm -12 passed.txt expected.txt); do
    echo "FAIL: $s passes now: take it out of tests/mcp/conformance-expected-failures.txt"
    fail=1
done
for s in $(comm -23 expected.txt known.txt); do
    echo "FAIL: $s, listed as an expected failure, is no scenario of the suite"
    fail=1
done
echo "conformance: $(wc -l < passed.txt) scenarios passed, $(wc -l < failed.txt) failed as expected (of $total)"
[ $fail -eq 0 ]
