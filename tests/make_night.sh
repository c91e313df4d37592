# Makes samples/night: three runs of the scripted agents (tests/agents)
# on every arm of the test matrix, seeds 1 to 4, 96 episodes each:
#   careful               the careful agent on samples/tools/shop.json
#   sloppy                the agent sloppy with arguments, same file
#   careful-reformatted   the careful agent on shop-reformatted.json (the
#                         same contract in other bytes: other tasks)
# Run by `make samples-night`; the output is the same byte for byte each
# time.  Every simulator session appends its run line; repeats are
# dropped, keeping the first.
set -eu
: "${REPLAY:?}" "${AGENTS:?}" "${TOP_SRCDIR:?}"
out=$TOP_SRCDIR/samples/night
mkdir -p "$out"
make_run() { # NAME POLICY TOOLFILE
    file=$out/$1.jsonl
    AGENTS_MODEL="scripted-$2"
    export AGENTS_MODEL
    rm -f "$file" "$file.tmp"
    for seed in 1 2 3 4; do
        AGENTS_TRANSCRIPT=$file.tmp AGENTS_RUN=$1 \
            "$AGENTS" "$REPLAY" "$TOP_SRCDIR/samples/tools/$3" "$seed" all "$2" \
            >/dev/null
    done
    awk '!(index($0, "{\"type\":\"run\",") == 1 && seen[$0]++)' \
        "$file.tmp" > "$file"
    rm -f "$file.tmp"
}
make_run careful careful shop.json
make_run sloppy sloppy_arguments shop.json
make_run careful-reformatted careful shop-reformatted.json
wc -l "$out"/*.jsonl
