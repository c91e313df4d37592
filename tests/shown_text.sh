# Text from input, printed for people, cannot forge lines, rows or cells:
# a night whose run name and model hold a newline, "|", an escape
# sequence (ESC [2J, which clears a terminal) and a right-to-left
# override, in a transcript file whose name holds a newline, gives these
# exact lines on replay's stderr, in card's text and Markdown (cards and
# --list) and in card's errors; `card -- -x` shows a run named "-x"; and
# `replay tools` shows a tool file's names, properties and refusals
# escaped.  --json is JSON, escaped as JSON escapes (not checked here).
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
CARD=${CARD:-$(dirname "$REPLAY")/../report/card}
[ -x "$CARD" ] || { echo "ERROR: no card program at $CARD" >&2; exit 99; }
export SOURCE_DATE_EPOCH=1790000000
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }
# line N TEXT: the Nth line of TEXT
line() { printf '%s\n' "$2" | sed -n "$1p"; }

cp "$TOP_SRCDIR/samples/tools/shop.json" "$TEST_TMP/" || exit 99
nl='
'
night="$TEST_TMP/t${nl}x.jsonl"
run='a\nb|c\u001b[2J\u202eevil'
cat > "$night" <<EOF
{"type":"run","run":"$run","tools":"shop.json","model":"m\\n|x\\u001b[2J\\u202e\\\\"}
{"type":"episode","run":"$run","episode":"e1","seed":1,"arm":"base"}
{"type":"call","run":"$run","episode":"e1","call":{"arguments":{"query":"kestrel cedar"},"name":"search_orders"}}
{"type":"end","run":"$run","episode":"e1","status":"done"}
{"type":"cal\\u001b[2J\\nt.jsonl:1: forged|\\u202e","run":"$run"}
{"type":"run","run":"-x","tools":"shop.json"}
EOF
db=$TEST_TMP/r.db

# replay's stderr: the problem line, FILE and message escaped
got=$("$REPLAY" --db "$db" "$night" 2>&1; echo "exit $?")
want='TMP/t\nx.jsonl:5: unknown type "cal\x1b[2J\nt.jsonl:1: forged|\u{202e}": a line'"'"'s type is run, episode, call or end
replay: 6 lines: 5 used, 0 unchanged, 1 problem, 0 blank
replay: 2 runs; 1 episode written (0 replaced, 0 unfinished), 0 unchanged; 1 call; into TMP/r.db
exit 1'
got=$(printf '%s\n' "$got" | sed "s#$TEST_TMP/#TMP/#g")
if check_eq "replay's stderr" "$want" "$got"; then ok; else ko "replay's stderr"; fi

# the text card: its first lines (the run, its headline, which quotes no
# name, and its model) and its problem line (its file from the database's
# folder, as problems are recorded); no line forged (wide enough that the
# problem's line is one line wherever TMPDIR is)
card=$("$CARD" --db "$db" --width 1000 -- \
    "$(printf 'a\nb|c\033[2J\342\200\256evil')")
if check_eq "the card's run" 'card: a\nb|c\x1b[2J\u{202e}evil' \
       "$(line 1 "$card")" &&
   check_eq "the card's headline" '  Passed 0 of 1 episode (0.0%, 95% CI 0.0-79.3%); no side effect; diverged not measured (no call had an answer logged).' \
       "$(line 2 "$card")" &&
   check_eq "the card's model" '  model        m\n|x\x1b[2J\u{202e}\\' \
       "$(line 4 "$card")" &&
   check_eq "the card's problem" \
       '    t\nx.jsonl:5: unknown type "cal\x1b[2J\nt.jsonl:1: forged|\u{202e}": a line'"'"'s type is run, episode, call or end' \
       "$(printf '%s\n' "$card" | grep 'unknown type' | sed "s#$TEST_TMP/#TMP/#g")" &&
   check_eq "the card's lines" 29 "$(printf '%s\n' "$card" | wc -l)" &&
   check_eq "lines with an ESC or a newline in a name" "" \
       "$(printf '%s\n' "$card" | grep "$(printf '\033')")"
then ok; else ko "the text card"; fi

# problem lines wrap within --width, continued lines indented; a width
# under 60 is refused
mkdir "$TEST_TMP/wrap" && cp "$TOP_SRCDIR/samples/tools/shop.json" "$TEST_TMP/wrap/"
e30=$(printf '\303\251%.0s' $(seq 30))
{
    echo '{"type":"run","run":"w","tools":"shop.json"}'
    echo '{"type":"episode","run":"w","episode":"e1","seed":7,"arm":"base"}'
    echo "{\"type\":\"$e30$e30\",\"run\":\"w\",\"episode\":\"e1\"}"
    echo '{"type":"end","run":"w","episode":"e1"}'
} > "$TEST_TMP/wrap/n.jsonl"
(cd "$TEST_TMP/wrap" && "$REPLAY" --quiet --db w.db n.jsonl 2>/dev/null)
wrapped() {
    "$CARD" --db "$TEST_TMP/wrap/w.db" --width "$1" w | sed -n '/^  problems/,/^$/p'
}
if check_eq "problem lines in 60 columns" "  problems         1
    n.jsonl:3: unknown type
      \"$e30\": a line's type is
      run, episode, call or end" "$(wrapped 60)" &&
   check_eq "--width under 60, where not every line can fit" \
       "card: --width takes a number of columns (60 to 1000), not '30'
Try 'card --help'.
exit 2" "$(wrapped 30 2>&1; "$CARD" --db "$TEST_TMP/wrap/w.db" --width 30 w \
            >/dev/null 2>&1; echo "exit $?")"
then ok; else ko "problem lines wrapped"; fi

# Markdown: outside code, a backslash before "\", "|", "[" and the other
# characters that begin markup, so that rendered it reads as the text card
md=$("$CARD" --db "$db" --markdown -- "$(printf 'a\nb|c\033[2J\342\200\256evil')")
if check_eq "the Markdown title" '## Card: a\\nb\|c\\x1b\[2J\\u{202e}evil' \
       "$(line 1 "$md")" &&
   check_eq "the Markdown model" '| model | m\\n\|x\\x1b\[2J\\u{202e}\\\\ |' \
       "$(line 7 "$md")" &&
   check_eq "the Markdown problem" \
       '- `t\nx.jsonl:5`: unknown type "cal\\x1b\[2J\\nt.jsonl:1: forged\|\\u{202e}": a line'"'"'s type is run, episode, call or end' \
       "$(printf '%s\n' "$md" | grep 'unknown type' | sed "s#$TEST_TMP/#TMP/#g")" &&
   check_eq "the Markdown lines" 47 "$(printf '%s\n' "$md" | wc -l)"
then ok; else ko "the Markdown card"; fi

# Markdown with markup in names: rendered by cmark-gfm (GitHub's
# Markdown, raw HTML allowed as some renderers allow it), a run name and a
# model are text, not an image, emphasis, a link, a struck word or an
# entity, and no row gains a cell.
mk=$TEST_TMP/markup
mkdir "$mk" && cp "$TOP_SRCDIR/samples/tools/shop.json" "$mk/" || exit 99
mrun='<img src=x onerror=alert(1)>*b*_i_[l](http://e.x)~~s~~&amp;`c`|x www.e.x'
cat > "$mk/n.jsonl" <<EOF
{"type":"run","run":"$mrun","tools":"shop.json","model":"**m**_n_ <b>bold</b> snake_case"}
{"type":"episode","run":"$mrun","episode":"e1","seed":1,"arm":"base"}
{"type":"end","run":"$mrun","episode":"e1","status":"done"}
EOF
(cd "$mk" && "$REPLAY" --quiet --db m.db n.jsonl 2>/dev/null)
mmd=$("$CARD" --db "$mk/m.db" --markdown -- "$mrun")
if check_eq "the Markdown title, markup" \
       '## Card: \<img src=x onerror=alert(1)\>\*b\*\_i\_\[l\](http\://e.x)\~\~s\~\~\&amp;\`c\`\|x www\.e.x' \
       "$(line 1 "$mmd")" &&
   check_eq "the Markdown model, markup" \
       '| model | \*\*m\*\*\_n\_ \<b\>bold\</b\> snake_case |' "$(line 7 "$mmd")"
then ok; else ko "Markdown with markup in names"; fi
if command -v cmark-gfm >/dev/null 2>&1; then
    html=$(printf '%s\n' "$mmd" | cmark-gfm --unsafe -e table -e strikethrough \
        -e autolink)
    if check_eq "rendered: the title" \
           '<h2>Card: &lt;img src=x onerror=alert(1)&gt;*b*_i_[l](http://e.x)~~s~~&amp;amp;`c`|x www.e.x</h2>' \
           "$(printf '%s\n' "$html" | grep '^<h2>')" &&
       check_eq "rendered: the model" \
           '<td>**m**_n_ &lt;b&gt;bold&lt;/b&gt; snake_case</td>' \
           "$(printf '%s\n' "$html" | grep -A1 '<td>model</td>' | sed -n 2p)" &&
       check_eq "rendered: the headline, strong" \
           '<p><strong>Passed 0 of 1 episode (0.0%, 95% CI 0.0-79.3%); no side effect; diverged not measured (no call had an answer logged).</strong></p>' \
           "$(printf '%s\n' "$html" | sed -n 2p)" &&
       check_eq "rendered: no markup made of a name" "" \
           "$(printf '%s\n' "$html" | sed 2d | grep -E '<(img|em|strong|del|a|b)[ >]')" &&
       check_eq "rendered: two cells a row in the first table" "" \
           "$(printf '%s\n' "$html" | awk '/<table>/ { t++ }
               t == 1 && /<tr>/ { n = 0 } t == 1 && /<t[dh][ >]/ { n++ }
               t == 1 && /<\/tr>/ && n != 2 { print "a row of " n }')"
    then ok; else ko "Markdown with markup, rendered"; fi
elif [ -n "${TASKREPLAY_TEST_STRICT:-}" ]; then
    ko "no cmark-gfm to render the Markdown (./quickstart test installs it)"
else
    echo "rendering Markdown not checked: no cmark-gfm (./quickstart test installs it)"
fi

# --list, text and Markdown: within 80 columns, the model cut before the
# run's name; a run of no episode has no pass figure
got=$("$CARD" --db "$db" --list)
want='run                       model              eps  pass success replayed
-x                        -                    0     -       - 2026-09-21T14:13…
a\nb|c\x1b[2J\u{202e}evil m\n|x\x1b[2J\u{…     1     0       - 2026-09-21T14:13…'
got2=$("$CARD" --db "$db" --list --markdown)
want2='| run | model | episodes | pass | success | replayed |
|---|---|---:|---:|---:|---|
| -x | - | 0 | - | - | 2026-09-21T14:13:20Z |
| a\\nb\|c\\x1b\[2J\\u{202e}evil | m\\n\|x\\x1b\[2J\\u{202e}\\\\ | 1 | 0 | - | 2026-09-21T14:13:20Z |'
if check_eq "card --list" "$want" "$got" &&
   check_eq "card --list --markdown" "$want2" "$got2"
then ok; else ko "card --list"; fi

# "--" ends the options: a run named "-x"; without it, -x is an option
got=$("$CARD" --db "$db" -- -x | head -4)
want='card: -x
  No episodes: nothing was measured.

  model        -'
got2=$("$CARD" --db "$db" -x 2>&1; echo "exit $?")
want2="card: unknown option '-x' (a run whose name starts with '-' goes after --)
Try 'card --help'.
exit 2"
if check_eq "card -- -x" "$want" "$got" &&
   check_eq "card -x" "$want2" "$got2"
then ok; else ko "card --"; fi

# An unknown run: the names in the error escaped too
got=$("$CARD" --db "$db" -- "$(printf 'zz\033[2J')" 2>&1; echo "exit $?")
want='card: no run is named "zz\x1b[2J"; did you mean -x? The runs: -x, a\nb|c\x1b[2J\u{202e}evil
exit 2'
if check_eq "an unknown run" "$want" "$got"; then ok; else ko "an unknown run"; fi

# replay tools: names, properties, reasons and the path, escaped
tools="$TEST_TMP/t${nl}ools.json"
cat > "$tools" <<'EOF'
{"tools":[{"name":"get_order\u202e","description":"d\u001b[2J","inputSchema":{"type":"object","properties":{"order\nid":{"type":"string"}},"required":["order\nid"]},"outputSchema":{"type":"object","properties":{"st\u001b[2Jatus":{"type":"string"}}}},
 {"name":"bad\u001b[31m\nname","inputSchema":"x"}]}
EOF
got=$(cd "$TEST_TMP" && "$REPLAY" tools "t${nl}ools.json" | grep -v hash)
want='t\nools.json: MCP tools, 1 tool, 1 refused

get_order\u{202e}  read (name starts with "get")
  arguments: order\nid* string
  output: object {st\x1b[2Jatus}

refused:
  bad\x1b[31m\nname (line 2): its inputSchema is not an object schema'
if check_eq "replay tools" "$want" "$got"; then ok; else ko "replay tools"; fi

echo "shown text: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
