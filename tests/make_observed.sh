# Makes samples/observed: a night as a harness logs agents working against
# a system other than the simulator.  The episodes are played by the
# scripted agents (tests/agents) against `replay sim`, then logged as such
# a harness would: no seed and no arm, the harness's name of the task
# ("s1-faults:f1"), three trials of each task, and on each end line the
# harness's verdict ("success", the simulator's pass).  Two agents, on the
# same 16 tasks (seeds 1 and 2, one arm of each dial):
#   steady    the careful policy, but the first trial of every fourth task
#             gives up on an error, and the second of every seventh is
#             sloppy with its arguments
#   erratic   careful on the third trial of each task; blind_retrier on
#             the others, and trusts_first_read on every third task
# Run by `make samples-observed`; the same bytes each time.
set -eu
: "${REPLAY:?}" "${AGENTS:?}" "${TOP_SRCDIR:?}"
out=$TOP_SRCDIR/samples/observed
tools=$TOP_SRCDIR/samples/tools/shop.json
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/taskreplay-observed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
arms="base depth:d2 faults:f1 timeouts:o1 ratelimits:r1 landed:l1 baddata:b1 lagged:g1"

policy_of() { # AGENT TASK_NUMBER TRIAL
    case $1 in
    steady)
        if [ $(($2 % 4)) -eq 0 ] && [ "$3" -eq 1 ]; then echo gives_up_on_error
        elif [ $(($2 % 7)) -eq 0 ] && [ "$3" -eq 2 ]; then echo sloppy_arguments
        else echo careful; fi ;;
    erratic)
        if [ "$3" -eq 3 ]; then echo careful
        elif [ $(($2 % 3)) -eq 0 ]; then echo trusts_first_read
        else echo blind_retrier; fi ;;
    esac
}

for agent in steady erratic; do
    file=$out/$agent.jsonl
    printf '{"type":"run","run":"%s","tools":"../tools/shop.json","model":"scripted-%s"}\n' \
        "$agent" "$agent" > "$file.tmp"
    i=0
    for seed in 1 2; do
        for arm in $arms; do
            i=$((i + 1))
            task=s$seed-$arm
            for trial in 1 2 3; do
                policy=$(policy_of "$agent" "$i" "$trial")
                rm -f "$tmp/t.jsonl"
                verdict=$(AGENTS_TRANSCRIPT=$tmp/t.jsonl AGENTS_RUN=$agent \
                    "$AGENTS" "$REPLAY" "$tools" "$seed" "$arm" "$policy")
                case $verdict in
                *" pass=true "*) success=true ;;
                *) success=false ;;
                esac
                name=$task-t$trial
                # the simulator's episode, as the harness logs it
                grep -v '^{"type":"run",' "$tmp/t.jsonl" |
                    sed -e "s/\"episode\":\"[^\"]*\"/\"episode\":\"$name\"/" \
                        -e "s/^\\({\"type\":\"episode\",[^}]*\\),\"seed\":[0-9]*,\"arm\":\"[^\"]*\"}\$/\\1,\"task_name\":\"$task\"}/" \
                        -e "s/^\\({\"type\":\"end\",.*\\)}\$/\\1,\"success\":$success}/" \
                    >> "$file.tmp"
            done
        done
    done
    mv "$file.tmp" "$file"
done
wc -l "$out"/*.jsonl
