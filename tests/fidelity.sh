# The simulator on tool files as people publish them: object shapes merged
# from allOf, references to a tool schema's own $defs, tasks for every
# seed, handed fields.  Each check asserts the exact answers or lines.
# The tool files are in tests/fidelity/; published ones are read in place
# from $CORPUS when it is there.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
cases=$TOP_SRCDIR/tests/fidelity
pass=0 fail=0

ok() { count_eq "$@"; }
r() { timeout 300 "$REPLAY" "$@"; }

# --- allOf: Pet = allOf[NewPet, {id}].  The read says what it was asked
# --- (lagged arm), hands the tag; the write answers with what it was sent.
got=$(printf '%s\n' '{"name":"findPet","arguments":{"id":463}}' \
    '{"name":"addPet","arguments":{"name":"Diego Berg","tag":"kestrel"}}' |
    r sim "$cases/pets.yaml" --seed 3 --arm lagged:g1 2>&1)
ok "allOf: placed arguments and the handed field" '{"id":463,"name":"Diego Novak","tag":"kestrel"}
{"id":119,"name":"Diego Berg","tag":"kestrel"}
replay sim: 2 calls; reached, a pass (0 side effects, 0 duplicate writes); lagged not_reached' "$got"

# --- oneOf beside properties: the arguments go where the drawn branch
# --- describes them, and nowhere else
got=""
for seed in 1 3; do
    got="$got$(echo '{"name":"set_thing","arguments":{"id":"X-1","a":"hello","b":5}}' |
        r sim "$cases/branches.json" --seed $seed --arm depth:d1 2>/dev/null)"
done
ok "oneOf: the drawn branch's fields" '{"b":5,"id":"X-1","kind":"b"}{"a":"hello","id":"X-1","kind":"a"}' "$got"

pets=${CORPUS:-}/openapi/v3.0_petstore-expanded.yaml
if [ -f "$pets" ]; then
    got=$(echo '{"name":"addPet","arguments":{"name":"Rex","tag":"dog"}}' |
        r sim "$pets" --seed 1 --arm depth:d1 2>/dev/null)
    ok "allOf: petstore-expanded's addPet answers what it was sent" \
        '{"id":143,"name":"Rex","tag":"dog"}' "$got"
else
    echo "note: no corpus at '${CORPUS:-}': the published petstore is not tried"
fi

# --- $defs inside a tool's own schemas, as pydantic writes them, and a
# --- nested schema with an $id of its own
got=$(r tools "$cases/pydantic-mcp.json" 2>&1 | head -n 1)
ok "\$defs: no tool refused" "$cases/pydantic-mcp.json: MCP tools, 2 tools, 0 refused" "$got"
got=$(echo '{"name":"add_items","arguments":{"cart_id":"C-1","items":[{"sku":"A","qty":2}]}}' |
    r sim "$cases/pydantic-mcp.json" --seed 1 --arm depth:d1 2>&1)
ok "\$defs: the answer drawn from them" '{"cart_id":"C-1","lines":[{"qty":699,"sku":"K-2816"},{"qty":132,"sku":"U-4259"},{"qty":171,"sku":"Q-2021"}],"status":"held"}
replay sim: 1 call; not reached, not a pass (1 side effect, 0 duplicate writes)' "$got"
got=$(r tasks "$cases/pydantic-mcp.json" --seeds 1 --arms depth:d1 |
    grep -o '"arguments":{"cart_id":"[^"]*","items":\[[^]]*\]}')
ok "\$defs: arguments drawn from them" '"arguments":{"cart_id":"L-8786","items":[{"qty":8,"sku":"Z-2246"},{"qty":3,"sku":"C-2800"}]}' "$got"

# --- the handed field is not one of the read's argument names when another
# --- field can hand the value, and the task says when it is; the handed
# --- value is never said in the request, whole or as a word.  Python
# --- counts, over seeds 1-50: the fields taken, and the requests that
# --- hold the handed value as a word (case aside).
handing() {
    r tasks "$1" --seeds 1-50 --arms depth:d2 | "${PYTHON3:-python3}" -c '
import json, re, sys
fields, said = set(), 0
for line in sys.stdin:
    t = json.loads(line)
    h = t["steps"][0]["hands"]
    fields.add(h["field"] + (" (named as an argument)"
                             if h.get("field_named_as_argument") else ""))
    word = r"(?<![A-Za-z0-9])" + re.escape(h["value"]) + r"(?![A-Za-z0-9])"
    said += bool(re.search(word, t["request"], re.I))
print(", ".join(sorted(fields)) + "; said in %d requests" % said)'
}
ok "handed: another field than the read's argument" \
    "handle; said in 0 requests" "$(handing "$cases/handed.json")"
ok "handed: the read's argument, said in the task" \
    "username (named as an argument); said in 0 requests" \
    "$(handing "$cases/handed-shared.json")"
link=${CORPUS:-}/openapi/v3.0_link-example.yaml
if [ -f "$link" ]; then
    ok "handed: OpenAPI's link example" \
        "slug (named as an argument), uuid; said in 0 requests" \
        "$(handing "$link")"
fi

# --- a read without output schema that takes an id, as Docker's
# --- ContainerArchive does: its answer's id is the only field that can
# --- hand the value, so the task says it is named as an argument, and on
# --- a baddata arm that id says the (wrong, then right) handed value
got=$(r tasks "$cases/handed-id.yaml" --seeds 1 --arms baddata:b2 |
    grep -o '"hands":{[^}]*}')
ok "handed: the id of a read without output schema, said in the task" \
    '"hands":{"argument":"remote","field":"id","field_named_as_argument":true,"value":"harbor"}' \
    "$got"
archive='{"name":"ContainerArchive","arguments":{"id":"O-1343","path":"willow signal juniper"}}'
got=$(printf '%s\n' "$archive" "$archive" \
    '{"name":"ImageBuild","arguments":{"remote":"harbor"}}' |
    r sim "$cases/handed-id.yaml" --seed 1 --arm baddata:b2 2>&1)
ok "handed: that id says the handed value" '{"id":"lantern lantern","ok":true,"path":"willow signal juniper"}
{"id":"harbor","ok":true,"path":"willow signal juniper"}
{"id":"D-5112","ok":true,"remote":"harbor"}
replay sim: 3 calls; reached, a pass (0 side effects, 0 duplicate writes); baddata caught' "$got"

# --- baddata:b3 changes one small thing: a handed date's last digit, or,
# --- when that makes no date (31 October has no 32nd), a day earlier;
# --- b2's wrong value is another date
got=$(r tasks "$cases/b3-date.json" --seeds 37 --arms baddata:b3,baddata:b2 |
    grep -o '"baddata":{[^}]*}\|"hands":{[^}]*}')
ok "b3: a month's last day, a day earlier" '"baddata":{"wrong":"2025-10-30"}
"hands":{"argument":"ship_on","field":"id","value":"2025-10-31"}
"baddata":{"wrong":"2025-11-05"}
"hands":{"argument":"ship_on","field":"id","value":"2025-10-31"}' "$got"
# --- and on every format a handed value can have, seeds 1-300: each
# --- format's tasks, and how many of them change one small thing (a digit
# --- or letter one up or down, a date one day) into a value of the format
got=$(r tasks "$cases/b3-formats.json" --seeds 1-300 --arms baddata:b3 |
    "${PYTHON3:-python3}" -c '
import collections, json, sys
sys.path.insert(0, sys.argv[1])
import rules
tools = {t["function"]["name"]: t["function"]["parameters"]
         for t in json.load(open(sys.argv[2]))}
n, small = collections.Counter(), collections.Counter()
for line in sys.stdin:
    t = json.loads(line)
    h, wrong = t["steps"][0]["hands"], t["baddata"]["wrong"]
    arg = tools[t["steps"][1]["tool"]]["properties"][h["argument"]]
    f = arg.get("format", "(none)")
    n[f] += 1
    small[f] += rules.one_small_thing(h["value"], wrong) and \
        rules.STRING_FORMATS.get(f, lambda v: True)(wrong)
print(", ".join("%s %d/%d" % (f, small[f], n[f]) for f in sorted(n)))
' "$TOP_SRCDIR/tests" "$cases/b3-formats.json")
ok "b3: one small thing on every format" "(none) 26/26, byte 23/23, cidr 28/28, date 17/17, date-time 14/14, email 23/23, hostname 24/24, ip-address 22/22, ipv4 22/22, ipv6 14/14, time 25/25, uri 22/22, url 19/19, uuid 21/21" "$got"

# --- the formats people write besides JSON Schema's are drawn as what
# --- they say: an IPv4 address, a network, a URL, base64 text, a
# --- date-time, integers within their width
got=$(echo '{"name":"get_node","arguments":{"node":"n1"}}' |
    r sim "$cases/formats.json" --arm depth:d1 2>/dev/null)
ok "formats: as what they say" '{"cert":"c3VtbWl0","docs":"https://example.com/falcon/6356","home":"https://example.com/lumen/2208","inodes":454,"ip":"192.0.2.50","offset":-116,"port":318,"seen":"2025-10-30T04:25:12Z","subnet":"198.51.100.0/24","weight":225}' "$got"

# --- a chain the seed draws that cannot be built gives way to another
# --- (get_short's id is too short for any ref_id): every seed builds
got=$(r tasks "$cases/chains.json" --seeds 1-12 --arms depth:d2 |
    grep -c '"tool":"get_long"')
ok "chains: every seed builds, through the read that can" "12" "$got"
# --- when no chain can, each seed is said, and the others go on
got=$(r tasks "$cases/chains-none.json" --seeds 1-2 --arms depth:d2,depth:d1 \
    2>&1 >/dev/null; echo "exit $?")
ok "chains: each refused seed said" "replay: $cases/chains-none.json: seed 1, arm depth:d2: cannot draw a value for ref_id that every step of the task accepts
replay: $cases/chains-none.json: seed 2, arm depth:d2: cannot draw a value for ref_id that every step of the task accepts
replay: 2 of 4 tasks could not be made; the other 2 were written
exit 1" "$got"

# --- the other chains and writes tried are counted in the refusal
got=$(r tasks "$cases/chains-none-2.json" --seeds 1 --arms depth:d2 2>&1)
ok "chains: the other chain tried" "replay: $cases/chains-none-2.json: seed 1, arm depth:d2: cannot draw a value for ref_id that every step of the task accepts (nor can the other chain of depth 2)" "$got"
got=$(r tasks "$cases/writes-none.json" --seeds 1-2 --arms depth:d1 2>&1; echo "exit $?")
ok "chains: the other write tried" "replay: $cases/writes-none.json: seed 1, arm depth:d1: cannot draw arguments that file_b accepts for a task: its input schema requires \"b_id\" and gives it no property (nor for the other write)
replay: $cases/writes-none.json: seed 2, arm depth:d1: cannot draw arguments that file_a accepts for a task: its input schema requires \"a_id\" and gives it no property (nor for the other write)
replay: none of the 2 tasks could be made
exit 1" "$got"

# --- an arm whose dial cannot be seen on a file is said (the read of
# --- shop-mcp.json shares only order_id with the refund); not on shop.json
samples=$TOP_SRCDIR/samples/tools
got=$(r tasks "$samples/shop-mcp.json" --seeds 1-10 --arms lagged:g1,base \
    2>&1 >/dev/null; echo "exit $?")
ok "lagged: cannot be seen on shop-mcp.json" "replay: $samples/shop-mcp.json: arm lagged:g1: its dial cannot be seen in 10 of 10 tasks: no read that can check the target write answers otherwise once the write has landed, so a lagged read says what the next one says (see docs/simulator.md)
exit 0" "$got"
got=$(r tasks "$samples/shop.json" --seeds 1-10 --arms lagged:g1 2>&1 \
    >/dev/null; echo "exit $?")
ok "lagged: seen on shop.json" "exit 0" "$got"

echo "fidelity: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
