#!/bin/sh
# tests/fuzz/seeds.sh OUT: builds the fuzzers' seed folders OUT/doc,
# OUT/tools, OUT/transcript, OUT/mcp, OUT/card and OUT/regex from the
# project's own data,
# afresh:
#  - doc, tools: the tool files of samples/tools, tests/tools (not the
#    .gold files), tests/refusals (not the .err files) and, when present,
#    the real tool files of $CORPUS (../shared/corpus), copied here; the
#    corpus is never copied into the source tree;
#  - transcript: samples/night cut into one file per episode (its run line
#    and its lines), tests/badnight/*.jsonl, and the scripted calls of
#    tests/episodes/*.calls and samples/calls as transcripts of one
#    episode (run, episode, the calls, end), and the long and deep lines
#    tests/replay_bad.sh makes (shorter);
#  - mcp: tests/serve/session.in, and each of its messages after an
#    initialize;
#  - card: bytes that fuzz_card reads as names and numbers: the golden
#    cards of tests/card and tests/observed (text that looks like what a
#    database holds), and made ones with controls, "|", "<" and bytes
#    that are not UTF-8;
#  - regex: the patterns of the tool files above (each "pattern" string of
#    their JSON, read by sed, so roughly), and made ones of every
#    construct regex.h lists, each behind fuzz_regex's header of 10 bytes
#    (lengths and a seed);
#  - inspect, otlp, messages: the logs of tests/logs and samples/logs
#    (the Inspect members, and the .eval sample, as they are);
#  - each harness: the findings kept in tests/fuzz/regressions/HARNESS.
# Tool paths in transcripts are relative to samples/night, where
# fuzz_transcript resolves them.
# Environment: TOP_SRCDIR (required), CORPUS (default
# $TOP_SRCDIR/../shared/corpus).
set -eu
out=$1
top=${TOP_SRCDIR:?TOP_SRCDIR names the source folder}
corpus=${CORPUS:-$top/../shared/corpus}
rm -rf "$out/doc" "$out/tools" "$out/transcript" "$out/mcp" "$out/card" \
    "$out/regex" "$out/inspect" "$out/otlp" "$out/messages"
mkdir -p "$out/doc" "$out/tools" "$out/transcript" "$out/mcp" "$out/card" \
    "$out/regex" "$out/inspect" "$out/otlp" "$out/messages"

# ---- tool files
n=0
add_tool_file() {
    n=$((n + 1))
    base=$(basename "$1")
    cp "$1" "$out/doc/$n-$base"
    cp "$1" "$out/tools/$n-$base"
}
for f in "$top"/samples/tools/* "$top"/tests/tools/* "$top"/tests/refusals/*
do
    case $f in *.gold | *.err) continue ;; esac
    if [ -f "$f" ]; then add_tool_file "$f"; fi
done
if [ -d "$corpus" ]; then
    find "$corpus" -type f \( -name '*.json' -o -name '*.yaml' -o \
        -name '*.yml' \) | LC_ALL=C sort > "$out/corpus.list"
    while IFS= read -r f; do
        add_tool_file "$f"
    done < "$out/corpus.list"
    rm -f "$out/corpus.list"
fi

# ---- transcripts
for f in "$top"/samples/night/*.jsonl; do
    # one file per episode: the file's run lines, then that episode's
    awk -v out="$out/transcript/$(basename "$f" .jsonl)" '
        /"type":"run"/ { run = run $0 "\n"; next }
        match($0, /"episode":"[^"]*"/) {
            ep = substr($0, RSTART + 11, RLENGTH - 12)
            name = out "-" ep ".jsonl"
            if (!(ep in seen)) { seen[ep] = 1; printf "%s", run >> name }
            print >> name
            close(name)
        }' "$f"
done
cp "$top"/tests/badnight/*.jsonl "$out/transcript/"

# calls (one JSON call a line, "#" comments) as a transcript of one
# episode: calls_to_transcript TOOLS SEED ARM < calls
calls_to_transcript() {
    printf '{"type":"run","run":"r","tools":"../tools/%s"}\n' "$1"
    printf '{"type":"episode","run":"r","episode":"e","seed":%s,"arm":"%s"}\n' \
        "$2" "$3"
    grep -v '^#' | grep -v '^[[:space:]]*$' |
        sed 's/^\(.*\)$/{"type":"call","run":"r","episode":"e","call":\1}/'
    printf '{"type":"end","run":"r","episode":"e","status":"done"}\n'
}
for f in "$top"/tests/episodes/*.calls; do
    # the first line: "# samples/tools/FILE SEED ARM"
    set -- $(head -n 1 "$f")
    [ "$#" -eq 4 ] || continue
    calls_to_transcript "$(basename "$2")" "$3" "$4" < "$f" \
        > "$out/transcript/episode-$(basename "$f" .calls).jsonl"
done
for arm in baddata:b1 landed:l1; do
    calls_to_transcript shop.json 7 "$arm" \
        < "$top/samples/calls/shop-seed7-${arm%%:*}.jsonl" \
        > "$out/transcript/calls-${arm%%:*}.jsonl"
done

# the long and deep lines tests/replay_bad.sh makes, cut to the fuzzers'
# sizes: a long call, the same cut short (a problem line longer than the
# 4096 bytes a problem keeps), and nesting past the limit
long=$(head -c 6000 /dev/zero | tr '\0' x)
deep=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "[" }')
for made in long-call long-problem deep-nesting; do
    call='{"name":"search_orders","arguments":{"query":"'$long'"}}'
    case $made in
    long-problem) call='{"name":"search_orders","arguments":{"query":"'$long ;;
    deep-nesting) call='{"name":"search_orders","arguments":{"query":'$deep'}}' ;;
    esac
    echo "$call" | calls_to_transcript shop.json 7 base \
        > "$out/transcript/made-$made.jsonl"
done

# ---- MCP messages: the scripted session of tests/serve whole, and each
# of its messages after an initialize
cp "$top/tests/serve/session.in" "$out/mcp/session"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\n%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}' \
        "$line" > "$out/mcp/message-$n"
done < "$top/tests/serve/session.in"

# ---- cards: real card text, and names made to hurt
for f in "$top"/tests/card/*.gold "$top"/tests/observed/*.gold; do
    [ -f "$f" ] && head -c 4096 "$f" > "$out/card/$(basename "$f")"
done
printf '\377\033[2J|a|b|\n<script>x</script>\342\200\256ops@example.com mailto:a@b www.x http://y \\ ` * _ [ ] ~ & \300\200' \
    > "$out/card/hostile"
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "%c", (i * 7 + 3) % 256 }' \
    > "$out/card/bytes"

# ---- patterns, behind the header: shortest 3, longest 12, a seed
regex_seed() { # regex_seed NAME PATTERN
    printf '\003\011\001\002\003\004\005\006\007\010%s' "$2" \
        > "$out/regex/$1"
}
for f in "$out"/tools/*.json; do
    sed -n 's/.*"pattern" *: *"\(\([^"\\]\|\\.\)*\)".*/\1/p' "$f" |
        sed 's/\\\\/\\/g'
done | LC_ALL=C sort -u > "$out/patterns.list"
n=0
while IFS= read -r p; do
    n=$((n + 1))
    regex_seed "file-$n" "$p"
done < "$out/patterns.list"
rm -f "$out/patterns.list"
regex_seed id '^[A-Z]-\d{4}$'
regex_seed email '^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$'
regex_seed alternation '(?:foo|ba[rz])+x?|^q{2,5}$'
regex_seed classes '[^"\\][\w-.][\s\S]\D\W[]a]?[^]'
regex_seed escapes '\t\x41\u00e9\u{1F600}\uD83D\uDE00\cA\0\.'
regex_seed counted '(a{0,99}b){3}c{2,}d*?e+?'
regex_seed unicode '^[α-ω]{2,4}…$'
regex_seed empty ''

# every finding kept in tests/fuzz/regressions
# ---- logs of other harnesses
cp "$top"/tests/logs/inspect*.json "$top"/samples/logs/*.eval "$out/inspect/"
for f in "$top"/tests/logs/inspect-eval/header.json \
    "$top"/tests/logs/inspect-eval/samples/*.json; do
    cp "$f" "$out/inspect/member-$(basename "$f")"
done
cp "$top"/tests/logs/otlp*.json* "$top"/samples/logs/*traces* "$out/otlp/"
cp "$top"/tests/logs/messages*.jsonl "$top"/samples/logs/*tau* \
    "$out/messages/"

for harness in doc tools transcript mcp card regex inspect otlp messages; do
    for f in "$top/tests/fuzz/regressions/$harness"/*; do
        if [ -f "$f" ]; then
            cp "$f" "$out/$harness/regression-$(basename "$f")"
        fi
    done
done
