# Every allocation failure is survived: tests/oomcheck fails the project's
# Nth allocation, for N = 1, 2, 3... until loading, hashing and reading the
# tool table succeed, on the sample, tool-table and refusal files (and
# for the shop samples, make tasks and play an episode of each, and play
# a scripted MCP session of replay serve and write its episode); each
# shorter run must end in "out of memory", and AddressSanitizer's leak
# check (when built with it) proves nothing leaked.
set -u
cd "$TOP_SRCDIR/tests" || exit 99
files=$(ls ../samples/tools/* tools/*.json tools/*.yaml refusals/* |
    grep -v -e '\.err$' -e '\.gold$')
# shellcheck disable=SC2086
exec "$OOMCHECK" $files --sim ../samples/tools/shop.json \
    ../samples/tools/shop-mcp.json ../samples/tools/shop-openapi.yaml \
    --serve ../samples/tools/shop.json ../samples/tools/shop-openapi.yaml
