# card: no figure that was not measured, no line past the width, and
# every column from the database shown as what it is.  Small nights
# written here, each for one case:
#  - an observed-only run: its simulator figures are NULL in run_summary,
#    "-" in --list and the card, null in --json;
#  - episodes with no logged answer: diverged is "-" (NULL), not 0;
#  - a tool with no output schema: "off schema" is "-";
#  - a compare with no shared task, and an arm only one run has: no
#    figure, and words that say why;
#  - long names (run, model, tool file, tools): every line of the card, a
#    compare and the list fits --width 60, 72, 80 and 100, and the
#    per-tool columns stay aligned;
#  - 200 trials of one task: pass^k for k = 1-4, the powers of two and the
#    largest (10 rows, not 200);
#  - more problems than the card lists: the query names the run, quoted;
#  - a run of no episode: no empty per-arm table;
#  - the tool file as the run line named it, not as another run did;
#  - where it was found, when not where the run line says (--tools-dir):
#    the card's line, the runs row, --json, Markdown and HTML; nothing
#    more when it was there; a long path within every width;
#  - where an observed tool's kind comes from (name, hint, method);
#  - columns forged in the database (a kind that is no kind, a
#    replayed_at holding JSON, a <script>): escaped in every format,
#    --json still one valid object with its own figures;
#  - a file name that is not UTF-8 and a mean reward past the doubles:
#    --json stays valid JSON (\udcNN, null with a note);
#  - names holding e-mail addresses, mailto: and xmpp:, rendered by
#    cmark-gfm: no link.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
skip_unless_python
need_cmd sqlite3
CARD=${CARD:-$(dirname "$REPLAY")/../report/card}
[ -x "$CARD" ] || { echo "ERROR: no card program at $CARD" >&2; exit 99; }
tmpdir
export SOURCE_DATE_EPOCH=1790000000
pass=0 fail=0
ok() { count_eq "$@"; }
T=$TEST_TMP
cp "$TOP_SRCDIR/samples/tools/shop.json" "$TOP_SRCDIR/samples/tools/shop-mcp.json" \
   "$TOP_SRCDIR/samples/tools/shop-openapi.yaml" "$T/" || exit 99
cd "$T" || exit 99

# replay_into DB FILE...: replay, quietly; the status is not the test's
replay_into() {
    r_db=$1
    shift
    "$REPLAY" --quiet --db "$r_db" "$@" 2>/dev/null
}

# --- an observed-only run, and one whose calls logged no answer
{
    echo '{"type":"run","run":"obs","tools":"shop.json","model":"m"}'
    for i in 1 2 3; do
        echo "{\"type\":\"episode\",\"run\":\"obs\",\"episode\":\"o$i\",\"task_name\":\"t$i\"}"
        echo "{\"type\":\"call\",\"run\":\"obs\",\"episode\":\"o$i\",\"call\":{\"name\":\"get_order\",\"arguments\":{\"order_id\":\"A-3317\"}},\"answer\":{\"ok\":true,\"id\":\"A-3317\"}}"
        echo "{\"type\":\"end\",\"run\":\"obs\",\"episode\":\"o$i\",\"success\":true}"
    done
    echo '{"type":"run","run":"blind","tools":"shop.json"}'
    echo '{"type":"episode","run":"blind","episode":"b1","seed":7,"arm":"base"}'
    echo '{"type":"call","run":"blind","episode":"b1","call":{"name":"search_orders","arguments":{"query":"x"}}}'
    echo '{"type":"end","run":"blind","episode":"b1"}'
} > obs.jsonl
replay_into m.db obs.jsonl
ok "run_summary of an observed-only run: NULL, never 0" \
   "3|||||||0" \
   "$(sqlite3 m.db "SELECT episodes, reached, pass, side_effects,
        duplicate_writes, errors, diverged_episodes, compared_episodes
        FROM run_summary WHERE run = 'obs'")"
ok "an episode with no answer logged: diverged NULL" "||0" \
   "$(sqlite3 m.db "SELECT e.diverged, s.diverged_episodes,
        s.compared_episodes FROM episodes e JOIN run_summary s
        ON s.run = e.run WHERE e.run = 'blind'")"
ok "--list: no pass figure for an observed-only run" "obs m 3 -" \
   "$("$CARD" --db m.db --list | awk '$1 == "obs" { print $1, $2, $3, $4 }')"
ok "--json: the simulator's figures of an observed-only run are null" \
   "None None None None None None None" \
   "$("$CARD" --db m.db --json obs | "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
print(c["pass"]["count"], c["reached"]["count"], c["side_effects"],
      c["duplicate_writes"], c["errors"]["total"], c["diverged"]["episodes"],
      c["diverged"]["calls"])')"
ok "the card of episodes with no answer logged: diverged is -" \
   "  diverged         -  nothing to compare: no call had an answer logged" \
   "$("$CARD" --db m.db blind | grep '^  diverged')"
ok "--json: diverged null when nothing was compared" "None 0" \
   "$("$CARD" --db m.db --json blind | "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
print(c["diverged"]["episodes"], c["diverged"]["episodes_compared"])')"
ok "per tool: off schema is - for a tool with no output schema" \
   "  get_order          read  name       3      0       0          -" \
   "$("$CARD" --db m.db obs | grep '^  get_order')"
ok "--json: off_schema null, invalid checked" "None 0 3" \
   "$("$CARD" --db m.db --json obs | "$PYTHON3" -c '
import json, sys
t = json.load(sys.stdin)["tools"][0]
print(t["off_schema"], t["invalid"], t["arguments_checked"])')"

# --- a compare with no shared task; an arm only one run has
{
    echo '{"type":"run","run":"a","tools":"shop.json"}'
    echo '{"type":"run","run":"b","tools":"shop.json"}'
    echo '{"type":"episode","run":"a","episode":"1","seed":1,"arm":"base"}'
    echo '{"type":"end","run":"a","episode":"1"}'
    echo '{"type":"episode","run":"a","episode":"2","seed":1,"arm":"depth:d3"}'
    echo '{"type":"end","run":"a","episode":"2"}'
    echo '{"type":"episode","run":"b","episode":"1","seed":2,"arm":"base"}'
    echo '{"type":"end","run":"b","episode":"1"}'
} > ab.jsonl
replay_into ab.db ab.jsonl
cmp=$("$CARD" --db ab.db --compare a b)
ok "compare, no shared task: said, and no paired figure" \
   "paired, by task (pass)
  0 tasks in both runs, 2 only in a, 1 only in b
no task is in both runs: nothing to pair, and no paired figure

flipped tasks: none (no task is in both runs)" \
   "$(printf '%s\n' "$cmp" | sed -n '/^paired/,$p')"
ok "compare, an arm only A has: no difference" \
   "depth:d3           0/1    0%      0/0     -       -  only in A" \
   "$(printf '%s\n' "$cmp" | grep '^depth:d3')"
ok "--json compare: nulls where nothing pairs or one run lacks the arm" \
   "None None None None|None None a" \
   "$("$CARD" --db ab.db --json --compare a b | "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
p = c["paired"][0]
arm = [x for x in c["arms"] if x["arm"] == "depth:d3"][0]
print(p["difference"], p["ci95"], p["pairs"], p["one_trial"], end="|")
print(arm["difference"], arm["excludes_zero"], arm["only_in"])')"

# --- long names, at every width
long_run=$(printf 'nightly-%.0s' $(seq 12))run
long_model=$(printf 'provider/model-%.0s' $(seq 6))v2
mkdir -p "deep/$(printf 'folder-%.0s' $(seq 8))"
deep=deep/$(printf 'folder-%.0s' $(seq 8))
# the file's own tools with long names
sed -e 's/"search_orders"/"search_orders_by_customer_name_and_date"/' \
    -e 's/"list_channels"/"a_tool_name_of_thirty_chars_xy"/' shop.json \
    > "$deep/shop.json"
{
    echo "{\"type\":\"run\",\"run\":\"$long_run\",\"tools\":\"$deep/shop.json\",\"model\":\"$long_model\"}"
    echo "{\"type\":\"run\",\"run\":\"${long_run}-b\",\"tools\":\"$deep/shop.json\",\"model\":\"$long_model\"}"
    for r in "$long_run" "${long_run}-b"; do
        for arm in base ratelimits:r4 timeouts:o2; do
            echo "{\"type\":\"episode\",\"run\":\"$r\",\"episode\":\"$arm\",\"seed\":3,\"arm\":\"$arm\"}"
            echo "{\"type\":\"call\",\"run\":\"$r\",\"episode\":\"$arm\",\"call\":{\"name\":\"search_orders\",\"arguments\":{\"query\":\"q\"}},\"answer\":{}}"
            echo "{\"type\":\"end\",\"run\":\"$r\",\"episode\":\"$arm\"}"
        done
        echo "{\"type\":\"episode\",\"run\":\"$r\",\"episode\":\"obs\",\"task_name\":\"x\"}"
        for tool in a_tool_name_of_thirty_chars_xy get_order search_orders_by_customer_name_and_date; do
            echo "{\"type\":\"call\",\"run\":\"$r\",\"episode\":\"obs\",\"call\":{\"name\":\"$tool\",\"arguments\":{}}}"
        done
        echo "{\"type\":\"end\",\"run\":\"$r\",\"episode\":\"obs\"}"
    done
} > long.jsonl
replay_into long.db long.jsonl
# longer (w) WIDTH: how many lines of the input pass WIDTH characters
longer() {
    "$PYTHON3" -c 'import sys
w = int(sys.argv[1])
print(sum(len(l.rstrip("\n")) > w for l in sys.stdin.buffer.read().decode("utf-8").splitlines()))' "$1"
}
over=""
for w in 60 72 80 100; do
    for what in "$long_run" "--compare $long_run ${long_run}-b" --list; do
        # shellcheck disable=SC2086
        n=$("$CARD" --db long.db --width "$w" $what 2>&1 | longer "$w")
        [ "$n" = 0 ] || over="$over $w:${what%% *}:$n"
    done
done
ok "every line within --width 60, 72, 80, 100 (long names)" "" "$over"
ok "the tool file as the run line named it, cut to the width only by wrapping" \
   "$deep/shop.json" \
   "$("$CARD" --db long.db --width 100 "$long_run" | sed -n 's/^  tool file    //p')"
ok "long tool names cut with an ellipsis, the columns aligned" \
   "  a_tool_name_of_thirty_chars_xy    write name       1      0       0          -
  get_order                         read  name       1      0       1          -
  search_orders_by_customer_name_a… read  name       1      0       0          -
--
  a_tool_name_… write name       1      0       0          -
  get_order     read  name       1      0       1          -
  search_order… read  name       1      0       0          -" \
   "$("$CARD" --db long.db --width 80 "$long_run" | grep '^  [ags][_e].* name '
      echo --
      "$CARD" --db long.db --width 60 "$long_run" | grep '^  [ags][_e].* name ')"
{
    echo "{\"type\":\"run\",\"run\":\"a-run-name-of-thirty-characters\",\"tools\":\"shop.json\",\"model\":\"$long_model\"}"
} > named.jsonl
replay_into named.db named.jsonl
ok "--list at 80: a model is cut before a run's name" \
   "a-run-name-of-thirty-characters provider/mod…" \
   "$("$CARD" --db named.db --list | awk 'NR == 2 { print $1, $2 }')"

# --- 200 trials of one task
{
    echo '{"type":"run","run":"many","tools":"shop.json"}'
    for i in $(seq 200); do
        echo "{\"type\":\"episode\",\"run\":\"many\",\"episode\":\"e$i\",\"seed\":5,\"arm\":\"base\"}"
        echo "{\"type\":\"end\",\"run\":\"many\",\"episode\":\"e$i\"}"
    done
} > many.jsonl
replay_into many.db many.jsonl
ok "pass^k of 200 trials: k = 1-4, the powers of two, and the largest" \
   "1 2 3 4 8 16 32 64 128 200" \
   "$("$CARD" --db many.db many | sed -n '/^trials/,$p' |
      awk '$1 ~ /^[0-9]+$/ { print $1 }' | paste -sd ' ' -)"
ok "and the card says which k it shows" \
   "  k = 1 to 4, the powers of two, and the largest (200)" \
   "$("$CARD" --db many.db many | grep '^  k = ')"

# --- more problems than listed: the query names the run, quoted for SQL
{
    echo "{\"type\":\"run\",\"run\":\"o'brien\",\"tools\":\"shop.json\"}"
    for i in $(seq 7); do
        echo "{\"type\":\"call\",\"run\":\"o'brien\",\"episode\":\"none$i\",\"call\":{\"name\":\"x\"}}"
    done
} > ob.jsonl
replay_into ob.db ob.jsonl
ok "'... and N more' names the run, quoted as SQL quotes it" \
   "    ... and 2 more: SELECT * FROM problems WHERE run = 'o''brien'" \
   "$("$CARD" --db ob.db "o'brien" | grep 'and 2 more')"
ok "that query gives the problems it counts" "7" \
   "$(sqlite3 ob.db "SELECT count(*) FROM problems WHERE run = 'o''brien'")"
ok "a run of no episode: no per-arm table" "0" \
   "$("$CARD" --db ob.db "o'brien" | grep -c '^per arm')"

# --- the tool file as each run line named it, where another run stored it
mkdir -p sub && cp shop.json sub/
{
    echo '{"type":"run","run":"first","tools":"sub/shop.json"}'
    echo '{"type":"run","run":"second","tools":"./sub/../shop.json"}'
} > names.jsonl
replay_into names.db names.jsonl
ok "each card names the tool file as its run line did" \
   "sub/shop.json|./sub/../shop.json" \
   "$("$CARD" --db names.db first | sed -n 's/^  tool file    //p')|$("$CARD" --db names.db second | sed -n 's/^  tool file    //p')"

# --- where the tool file was found: night/a.jsonl's run line names
# shop.json, which is not in night/ but in tools/ (replayed from their
# folder with --tools-dir tools); night/b.jsonl's names it where it is
mkdir -p found/night found/tools && cp shop.json found/tools/ || exit 99
{
    echo '{"type":"run","run":"moved","tools":"shop.json","model":"m"}'
    echo '{"type":"episode","run":"moved","episode":"m1","seed":7,"arm":"base"}'
    echo '{"type":"end","run":"moved","episode":"m1"}'
} > found/night/a.jsonl
{
    echo '{"type":"run","run":"beside","tools":"../tools/shop.json"}'
    echo '{"type":"episode","run":"beside","episode":"b1","seed":7,"arm":"base"}'
    echo '{"type":"end","run":"beside","episode":"b1"}'
} > found/night/b.jsonl
(cd found && replay_into r.db --tools-dir tools night)
ok "the runs rows: where the file was found, NULL when where the line says" \
   "beside|../tools/shop.json|NULL
moved|shop.json|'tools/shop.json'" \
   "$(sqlite3 found/r.db "SELECT run, tools_path, quote(tools_found) FROM runs ORDER BY run")"
ok "the card: the run line's path, and where the file was found" \
   "  tool file    shop.json (found at tools/shop.json)" \
   "$("$CARD" --db found/r.db moved | grep '^  tool file')"
ok "the card of a file found where the line says: that path alone" \
   "  tool file    ../tools/shop.json" \
   "$("$CARD" --db found/r.db beside | grep '^  tool file')"
ok "--json: tools_found, null when the file was where the line says" \
   "shop.json tools/shop.json|../tools/shop.json None" \
   "$(for r in moved beside; do
          "$CARD" --db found/r.db --json "$r" | "$PYTHON3" -c '
import json, sys
c = json.load(sys.stdin)
print(c["tools_path"], c["tools_found"])'
      done | paste -sd '|' -)"
ok "Markdown: both paths as code" \
   "| tool file | \`shop.json\` (found at \`tools/shop.json\`) |
| tool file | \`../tools/shop.json\` |" \
   "$("$CARD" --db found/r.db --markdown moved | grep '^| tool file'
      "$CARD" --db found/r.db --markdown beside | grep '^| tool file')"
ok "HTML: both paths as code" \
   "<tr><th>tool file</th><td><code>shop.json</code> (found at <code>tools/shop.json</code>)</td></tr>
<tr><th>tool file</th><td><code>../tools/shop.json</code></td></tr>" \
   "$("$CARD" --db found/r.db --html moved | grep '<th>tool file</th>'
      "$CARD" --db found/r.db --html beside | grep '<th>tool file</th>')"
# a long folder: the line wraps within every width, and says it whole
far=$(printf 'tool-folder-%.0s' $(seq 8))end
mkdir -p "found/$far" && cp shop.json "found/$far/" || exit 99
(cd found && replay_into far.db --tools-dir "$far/" night/a.jsonl)
over=""
for w in 60 72 80 100; do
    n=$("$CARD" --db found/far.db --width "$w" moved 2>&1 | longer "$w")
    [ "$n" = 0 ] || over="$over $w:$n"
done
ok "a long path found: every line within --width 60, 72, 80, 100" "" "$over"
ok "a long path found: said whole (its spaces and line ends aside)" \
   "shop.json(foundat$far/shop.json)" \
   "$("$CARD" --db found/far.db --width 60 moved |
      sed -n '/^  tool file/,/^  file hash/p' | sed '$d' |
      sed 's/^  tool file//' | tr -d ' \n')"

# --- where a kind comes from: the MCP hint, the HTTP method, the name
{
    echo '{"type":"run","run":"mcp","tools":"shop-mcp.json"}'
    echo '{"type":"run","run":"api","tools":"shop-openapi.yaml"}'
    for r in mcp api; do
        echo "{\"type\":\"episode\",\"run\":\"$r\",\"episode\":\"1\"}"
        echo "{\"type\":\"call\",\"run\":\"$r\",\"episode\":\"1\",\"call\":{\"name\":\"get_order\",\"arguments\":{\"order_id\":\"A-3317\"}}}"
        echo "{\"type\":\"end\",\"run\":\"$r\",\"episode\":\"1\"}"
    done
} > kinds.jsonl
replay_into kinds.db kinds.jsonl
ok "the kind's source: hint (MCP), method (OpenAPI), name (guessed, said)" \
   "read  hint|read  method|read  name|  kind by name: a guess from its first word (get, list...)" \
   "$("$CARD" --db kinds.db mcp | grep '^  get_order' | cut -c 22-33 | sed 's/ *$//')|$("$CARD" --db kinds.db api | grep '^  get_order' | cut -c 22-33 | sed 's/ *$//')|$("$CARD" --db m.db obs | grep '^  get_order' | cut -c 22-31 | sed 's/ *$//')|$("$CARD" --db m.db obs | grep 'kind by name')"

# --- columns forged in the database: shown as what they are
cp m.db forged.db
sqlite3 forged.db "UPDATE call_rows SET kind = 'wr' || char(27) || '[2Jite<script>';
    UPDATE runs SET replayed_at = '2026\",\"simulated\":48,\"x\":\"',
    file_sha256 = file_sha256 WHERE run = 'obs'"
ok "a kind that is no kind: escaped, marked, cut to its column" \
   "  get_order          ?wr\\x1b[2Ji… name       3      0       0          -" \
   "$("$CARD" --db forged.db obs | grep '^  get_order')"
ok "--json: one valid object; a forged replayed_at is a string, simulated stays 0" \
   "0 3 True" \
   "$("$CARD" --db forged.db --json obs | "$PYTHON3" -c '
import json, sys
c = json.loads(sys.stdin.read())
print(c["simulated"], c["observed"], c["replayed_at"].startswith("2026\""))')"
ok "--html: the forged kind is text, no <script> tag" "0" \
   "$("$CARD" --db forged.db --html obs | grep -c '<script')"

# --- --json is JSON: a file name that is not UTF-8, a reward past the doubles
bad=$(printf 'n\377ght.jsonl')
{
    echo '{"type":"run","run":"huge","tools":"shop.json"}'
    for i in 1 2; do
        echo "{\"type\":\"episode\",\"run\":\"huge\",\"episode\":\"e$i\"}"
        echo "{\"type\":\"end\",\"run\":\"huge\",\"episode\":\"e$i\",\"reward\":1e308}"
    done
    echo '{"type":"bogus","run":"huge"}'
} > "$bad"
replay_into huge.db "$bad"
ok "--json with a non-UTF-8 file name and rewards of 1e308: valid JSON" \
   "n\\udcffght.jsonl None the mean of the rewards is not a finite number" \
   "$("$CARD" --db huge.db --json huge | "$PYTHON3" -c '
import json, sys
c = json.loads(sys.stdin.buffer.read().decode("utf-8"))
h = c["harness"]["observed"]
print(ascii(c["problems"]["first"][0]["file"].split("/")[-1]).strip("\x27"), h["mean_reward"], h["note"])')"

# --- Markdown: no link made of an e-mail address, mailto: or xmpp:
{
    echo '{"type":"run","run":"ops@example.com mailto:a@b.io","tools":"shop.json","model":"xmpp:bot@chat.example.org"}'
} > mail.jsonl
replay_into mail.db mail.jsonl
if command -v cmark-gfm >/dev/null 2>&1; then
    ok "Markdown: no link made of an address, mailto: or xmpp:" "0" \
       "$("$CARD" --db mail.db --markdown | cmark-gfm -e table -e autolink |
          grep -c '<a ')"
    ok "Markdown: the address still reads as itself" \
       "<h2>Card: ops@example.com mailto:a@b.io</h2>" \
       "$("$CARD" --db mail.db --markdown | cmark-gfm -e table -e autolink |
          grep '^<h2>' | sed 's/<!--[^>]*-->//g')"
elif [ -n "${TASKREPLAY_TEST_STRICT:-}" ]; then
    echo "FAIL: no cmark-gfm to render the Markdown (./quickstart test installs it)"
    fail=$((fail + 1))
fi

echo "card measured: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
