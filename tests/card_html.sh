# card --html: one self-contained page whose every figure is the one
# --json gives, escaped, refusing a compare as the text does, and drawn
# by a real browser (Debian's headless Chromium) when it is installed.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
tmpdir
CARD=${CARD:-$(dirname "$REPLAY")/../report/card}
PY=${PYTHON3:-python3}
T=$TEST_TMP
pass=0 fail=0
ok() { count_eq "$@"; }

# the samples night, and a run whose name and model try to end the page
db=$T/r.db
(cd "$TOP_SRCDIR/samples/night" && timeout 300 "$REPLAY" --quiet --db "$db" . 2>/dev/null) ||
    { echo "ERROR: the samples night did not replay"; exit 99; }
sqlite3 "$db" "UPDATE runs SET model = '<script>alert(1)</script>' WHERE run = 'sloppy'"

# --- every figure of the page is --json's (counts, rates and intervals as
# --- the page rounds them); Python reads both
"$CARD" --db "$db" --html -o "$T/sloppy.html" sloppy
"$CARD" --db "$db" --json sloppy > "$T/sloppy.json"
got=$("$PY" - "$T/sloppy.html" "$T/sloppy.json" <<'PY'
import html.parser, json, sys
class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tables = {}; self.cls = None; self.row = None; self.cell = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table": self.cls = a.get("class"); self.tables.setdefault(self.cls, [])
        elif tag == "tr": self.row = []
        elif tag in ("td", "th") and self.row is not None: self.cell = ""
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None: self.row.append(self.cell.strip()); self.cell = None
        elif tag == "tr" and self.row is not None: self.tables[self.cls].append(self.row); self.row = None
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
p = Rows(); p.feed(open(sys.argv[1], encoding="utf-8").read())
j = json.loads(open(sys.argv[2]).read())
def ci(r): return "%.1f-%.1f%%" % (100 * r["ci95"][0], 100 * r["ci95"][1])
want = [["pass", str(j["pass"]["count"]), "%.1f%%" % (100 * j["pass"]["rate"]), ci(j["pass"])],
        ["reached", str(j["reached"]["count"]), "%.1f%%" % (100 * j["reached"]["rate"]), ci(j["reached"])],
        ["side effects", str(j["side_effects"]), "", ""],
        ["duplicate writes", str(j["duplicate_writes"]), "", ""],
        ["errors", str(j["errors"]["total"]), "", ""]]
want += [["errors: " + k, str(v), "", ""] for k, v in j["errors"]["by_code"].items() if v]
want += [["unfinished", str(j["unfinished"]), "", ""],
         ["diverged episodes", str(j["diverged"]["episodes"]), "", ""],
         ["episodes compared", str(j["diverged"]["episodes_compared"]), "", ""],
         ["diverged calls", str(j["diverged"]["calls"]), "", ""],
         ["calls compared", str(j["diverged"]["compared"]), "", ""],
         ["calls with no answer logged", str(j["diverged"]["not_logged"]), "", ""],
         ["problems", str(j["problems"]["count"]), "", ""]]
bad = []
if p.tables["result"][1:] != want: bad.append("result")
arms = [[a["arm"], str(a["episodes"]), str(a["pass"]["count"]), ci(a["pass"]),
         str(a["reached"]["count"]), ci(a["reached"]), str(a["side_effects"]),
         str(a["duplicate_writes"])] for a in j["arms"]]
if p.tables["arms"][1:] != arms: bad.append("arms")
dials = [[d["dial"], str(d["events"]), str(d["fired"]),
          ", ".join("%s %d" % kv for kv in d["outcomes"].items())] for d in j["dials"]]
if p.tables["dials"][1:] != dials: bad.append("dials")
made = dict((r[0], r[1]) for r in p.tables["made"])
if made["model"] != j["model"] or made["file hash"] != j["file_sha256"]: bad.append("made")
print("%d result rows, %d arms, %d dials; differ: %s" % (len(want), len(arms), len(dials), ", ".join(bad) or "none"))
PY
)
ok "the page's figures are --json's" "15 result rows, 24 arms, 6 dials; differ: none" "$got"

# --- self-contained: no script, no link, no source or font from outside;
# --- the model's <script> is text
got=$(grep -c -i -e '<script' -e ' src=' -e ' href=' -e 'url(' -e '@import' -e '<link' "$T/sloppy.html")
ok "nothing loaded from outside, no script" "0" "$got"
got=$(grep -c '&lt;script&gt;alert(1)&lt;/script&gt;' "$T/sloppy.html")
ok "the model is escaped" "1" "$got"
size=$(wc -c < "$T/sloppy.html")
ok "a page of every arm within 100 KB" "yes" "$([ "$size" -lt 102400 ] && echo yes || echo "no: $size bytes")"
got=$(grep -c -e '<title id="arms-t1">' -e '<desc id="arms-d1">base: pass 0 of 4 (0.0%, 95% CI 0.0-49.0%), reached 4 of 4 (100.0%, 95% CI 51.0-100.0%); ' "$T/sloppy.html")
ok "the plots have a title and a text of their figures" "2" "$got"

# --- a compare: comparable, the forest plot and its table; not
# --- comparable, the refusal and both hashes, no figure, exit 4
"$CARD" --db "$db" --html --compare careful sloppy > "$T/cmp.html"
ok "a comparable compare" "0|1|1" "$?|$(grep -c '<title id="diff-t">' "$T/cmp.html")|$(grep -c '<tr><td>all</td><td>96/96</td><td>0/96</td><td>+100.0</td><td>+94.6 to +100.0</td><td>yes</td></tr>' "$T/cmp.html")"
"$CARD" --db "$db" --html --compare careful careful-reformatted > "$T/refused.html"
ok "a refused compare" "4|0|2" "$?|$(grep -c '<svg' "$T/refused.html")|$(grep -o '4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54\|820faf611389d78073fb9661be2b380808c64e8dd77a061fb15579782c7568a9' "$T/refused.html" | wc -l | tr -d ' ')"

# --- usage: one format at a time; -o only for --html; a page is written
# --- whole or not at all
got=$("$CARD" --db "$db" --html --json sloppy 2>&1; echo "exit $?")
ok "--html with --json" "card: --json, --markdown and --html go apart: choose one
Try 'card --help'.
exit 2" "$got"
got=$("$CARD" --db "$db" --json -o "$T/x.json" sloppy 2>&1; echo "exit $?")
ok "-o without --html" "card: -o FILE is for --html; the other formats go to standard output
Try 'card --help'.
exit 2" "$got"
got=$("$CARD" --db "$db" --html -o "$T/no/such/dir/p.html" sloppy 2>&1; echo "exit $?")
ok "-o into a missing folder" "card: cannot write $T/no/such/dir/p.html: No such file or directory; nothing was written
exit 3" "$got"
mkdir "$T/adir"
got=$("$CARD" --db "$db" --html -o "$T/adir" sloppy 2>&1; echo "exit $?"; ls "$T" | grep -c 'adir.tmp')
ok "-o onto a folder: the page beside it is removed" "card: cannot write $T/adir: Is a directory; nothing was written
exit 3
0" "$got"

# --- a hostile run name (quotes, a script, a right-to-left override, 300
# --- characters): text in the page, as the text card shows it
mkdir "$T/hostile" && cp "$TOP_SRCDIR/samples/tools/shop.json" "$T/hostile/"
"$PY" - "$T/hostile/h.jsonl" <<'PY'
import json, sys
run = "\"q'<script>alert(2)</script>\u202eevil" + "x" * 300
lines = [{"type": "run", "run": run, "tools": "shop.json"},
         {"type": "episode", "run": run, "episode": "e", "seed": 7, "arm": "base"},
         {"type": "end", "run": run, "episode": "e"}]
open(sys.argv[1], "w").write("".join(json.dumps(l) + "\n" for l in lines))
PY
(cd "$T/hostile" && "$REPLAY" --quiet --db h.db h.jsonl 2>/dev/null)
"$CARD" --db "$T/hostile/h.db" --html -o "$T/hostile.html"
got=$(grep -c -i '<script' "$T/hostile.html"; grep -c '&quot;q&#39;&lt;script&gt;alert(2)&lt;/script&gt;\\u{202e}evilxxxx' "$T/hostile.html")
ok "a hostile run name is text" "0
2" "$got"

# --- a real browser, with no network: it draws the pages without a
# --- console message, each plot has one mark per arm or outcome where its
# --- value puts it, the hostile name is the heading's text; a picture of
# --- the run's page is left beside the test's log
chromium=$(command -v chromium || command -v chromium-browser || true)
browse() { # browse NAME ARGS...: chromium on $T/NAME.html
    b_name=$1
    shift
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
        --disable-quic --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync \
        --proxy-server=http://127.0.0.1:9 --enable-logging=stderr --v=0 \
        --user-data-dir="$T/chromium-$b_name-$#" "$@" "file://$T/$b_name.html"
}
if [ -z "$chromium" ] && [ -n "${TASKREPLAY_TEST_STRICT:-}" ]; then
    echo "FAIL: no chromium to draw the pages (./quickstart test installs it)"
    fail=$((fail + 1))
elif [ -z "$chromium" ]; then
    echo "note: no chromium (apt-get install chromium): the pages are not drawn"
else
    for page in sloppy cmp hostile; do
        browse "$page" --dump-dom > "$T/$page.dom" 2> "$T/$page.log"
        ok "chromium draws $page.html, saying nothing on its console" "yes|0" \
            "$(grep -q '</html>' "$T/$page.dom" && echo yes || echo no)|$(grep -c 'CONSOLE' "$T/$page.log")"
    done
    got=$("$PY" - "$T/sloppy.dom" "$T/sloppy.json" "$T/hostile.dom" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
dom = open(sys.argv[1], encoding="utf-8").read()
j = json.loads(open(sys.argv[2]).read())
svgs = re.findall(r"<svg.*?</svg>", dom, re.S)
arms, dials = (ET.fromstring(re.sub(r"&nbsp;", " ", s)) for s in svgs[:2])
def named(root, tag):
    return [e for e in root.iter() if e.tag.split("}")[-1] == tag]
bad = []
circles = named(arms, "circle")[1:]   # after the legend's
squares = named(arms, "rect")[1:]
if len(circles) != len(j["arms"]) or len(squares) != len(j["arms"]):
    bad.append("marks per arm")
for c, q, a in zip(circles, squares, j["arms"]):
    if abs(float(c.get("cx")) - (130 + 480 * a["pass"]["rate"])) > 0.06: bad.append("pass " + a["arm"])
    if abs(float(q.get("x")) + 4 - (130 + 480 * a["reached"]["rate"])) > 0.06: bad.append("reached " + a["arm"])
segs = [named(r, "title")[0].text for r in named(dials, "rect")]
want = ["%s %d" % kv for d in j["dials"] for kv in d["outcomes"].items() if kv[1]]
if segs != want: bad.append("dial parts")
h = open(sys.argv[3], encoding="utf-8").read()
heading = re.search(r"<h2>(.*?)</h2>", h, re.S).group(1)
if "<script" in h.lower() or not heading.startswith("Card: \"q'&lt;script&gt;alert(2)&lt;/script&gt;\\u{202e}evil"):
    bad.append("hostile heading")
print("%d arms, %d dial parts; wrong: %s" % (len(circles), len(segs), ", ".join(bad) or "none"))
PY
)
    ok "the plots' marks, through the DOM" "24 arms, 6 dial parts; wrong: none" "$got"
    "$CARD" --db "$db" --json --compare careful sloppy > "$T/cmp.json"
    got=$("$PY" - "$T/cmp.dom" "$T/cmp.json" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
svg = ET.fromstring(re.search(r"<svg.*?</svg>", open(sys.argv[1], encoding="utf-8").read(), re.S).group(0))
j = json.loads(open(sys.argv[2]).read())
marks = [e for e in svg.iter() if e.tag.split("}")[-1] == "circle"]
rows = [a for a in j["arms"] if a["a"]["episodes"] and a["b"]["episodes"]]
wrong = [a["arm"] for m, a in zip(marks, rows)
         if abs(float(m.get("cx")) - (130 + 480 * (a["difference"] + 1) / 2)) > 0.06]
print("%d marks for %d arms; wrong: %s" % (len(marks), len(rows), ", ".join(wrong) or "none"))
PY
)
    ok "the compare's marks, through the DOM" "25 marks for 25 arms; wrong: none" "$got"
    browse sloppy --hide-scrollbars --window-size=900,2000 \
        --screenshot="$TEST_TMP/card_html-sloppy.png" >/dev/null 2>&1
    ok "chromium takes a picture of the page" "PNG" \
        "$(head -c 4 "$TEST_TMP/card_html-sloppy.png" 2>/dev/null | tail -c 3)"
fi

echo "card --html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
