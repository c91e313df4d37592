# replay serve, driven by the official MCP TypeScript SDK (tests/mcp):
#  - over stdio, for the OpenAI, MCP and OpenAPI sample tool files: the
#    tool list is `replay tools --json`'s, the prompt is the task's
#    request, each answer is what `replay sim` answers to the same calls,
#    and the transcript replays with nothing diverged and the report's
#    verdicts;
#  - over Streamable HTTP: 50 sessions at once (seeds 1..50, six arms),
#    each answered as 50 `replay sim` runs one after another answer the
#    same calls, the transcript replayed the same way; seed and arm chosen
#    by the endpoint's query; an open session written "stopped" on SIGTERM;
#  - by a client of the SDK's 1.12 line (sdk-1-12, from before June 2025,
#    which speaks 2025-03-26 only), over both transports: it connects, and
#    gets that revision's rules (tests/mcp/sdk_old_client.mjs).
# Needs `npm ci` in tests/mcp (./quickstart test runs it), which installs
# the clients and the Node.js they run on (tests/lib.sh, mcp_node).
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
mcp_node
need_cmd sqlite3
mcp=$TOP_SRCDIR/tests/mcp
if [ ! -d "$mcp/node_modules/@modelcontextprotocol/sdk" ] ||
   [ ! -d "$mcp/node_modules/sdk-1-12" ]; then
    lack "the MCP SDKs in tests/mcp/node_modules (npm ci in tests/mcp)"
fi
tmpdir
case $REPLAY in /*) ;; *) REPLAY=$(pwd)/$REPLAY ;; esac
export REPLAY

# Transcripts name their tool file relative to their own folder: the tool
# files and what the servers write go to one folder.
for f in shop.json shop-mcp.json shop-openapi.yaml; do
    cp "$TOP_SRCDIR/samples/tools/$f" "$TEST_TMP/$f" || exit 99
done
cd "$TEST_TMP" || exit 99
timeout 300 "$NODE" "$mcp/sdk_client.mjs" --work "$TEST_TMP" \
    shop.json shop-mcp.json shop-openapi.yaml
status=$?
if [ "$status" -eq 124 ]; then
    echo "FAIL: sdk_client.mjs did not end in 300 s"
    exit 1
fi
timeout 300 "$NODE" "$mcp/sdk_old_client.mjs" --work "$TEST_TMP" shop-mcp.json
old=$?
if [ "$old" -eq 124 ]; then
    echo "FAIL: sdk_old_client.mjs did not end in 300 s"
    exit 1
fi
[ "$status" -eq 0 ] && [ "$old" -eq 0 ]
