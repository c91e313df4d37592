# card --html: self-contained pages whose every figure is the one --json
# gives, each card and compare led by the headline --json gives, escaped,
# refusing a compare as the text does; card --html --all -o DIR: a night's
# index and pages, rewritten in place, only card's own pages touched,
# none left half-written; and the pages as a real browser draws them
# (Debian's headless Chromium, measured through its DevTools protocol by
# tests/card_browser.py: the pages hold no script): the headline within
# the first 800 pixels, no sideways scroll at 390 pixels nor printed on
# A4 (a 718-pixel column), every dial's part named, the contrast of every text and mark in light, dark and
# print, every picture's text 12 px as seen, the index's links.
set -u
. "$TOP_SRCDIR/tests/lib.sh"
need_replay
need_cmd sqlite3
tmpdir
CARD=${CARD:-$(dirname "$REPLAY")/../report/card}
PY=${PYTHON3:-python3}
T=$TEST_TMP
pass=0 fail=0
ok() { count_eq "$@"; }
export SOURCE_DATE_EPOCH=1790000000

# the samples night, a run whose model tries to end the page, and dials
# of several outcomes (some too narrow for their label) in sloppy's
db=$T/r.db
(cd "$TOP_SRCDIR/samples/night" && timeout 300 "$REPLAY" --quiet --db "$db" . 2>/dev/null) ||
    { echo "ERROR: the samples night did not replay"; exit 99; }
sqlite3 "$db" "UPDATE runs SET model = '<script>alert(1)</script>' WHERE run = 'sloppy'"
sqlite3 "$db" <<'SQL'
CREATE TEMP TABLE o AS
  SELECT o.episode_id AS e, o.event AS v, o.dial,
         row_number() OVER (PARTITION BY o.dial ORDER BY o.episode_id, o.event) AS k
  FROM outcome_rows o JOIN episode_rows e ON e.episode_id = o.episode_id
  JOIN runs r ON r.run_id = e.run_id WHERE r.run = 'sloppy';
CREATE TEMP TABLE want (dial, k, outcome);
INSERT INTO want VALUES ('faults', 1, 'not_reached'),
  ('timeouts', 1, 'gave_up'), ('timeouts', 2, 'gave_up'),
  ('timeouts', 3, 'gave_up'), ('timeouts', 4, 'not_reached'),
  ('baddata', 1, 'fooled'), ('baddata', 2, 'stalled'),
  ('baddata', 3, 'not_reached'), ('landed', 1, 'duplicated'),
  ('landed', 2, 'left'), ('lagged', 1, 'duplicated');
UPDATE outcome_rows SET outcome = (SELECT w.outcome FROM o JOIN want w
    ON w.dial = o.dial AND w.k = o.k WHERE o.e = episode_id AND o.v = event)
  WHERE (episode_id, event) IN (SELECT o.e, o.v FROM o JOIN want w
    ON w.dial = o.dial AND w.k = o.k);
SQL
observed=$T/o.db
(cd "$TOP_SRCDIR" && timeout 300 "$REPLAY" --quiet --db "$observed" samples/observed 2>/dev/null) ||
    { echo "ERROR: the observed night did not replay"; exit 99; }

# tables PAGE: each <table class=...>'s rows of cells, as JSON
tables() {
    "$PY" - "$1" <<'PY'
import html.parser, json, sys
# a cell's text: its pictures left out, a <div> on a line of its own
class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tables = {}; self.cls = None; self.row = None; self.cell = None; self.svg = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table": self.cls = a.get("class"); self.tables.setdefault(self.cls, [])
        elif tag == "tr": self.row = []
        elif tag in ("td", "th") and self.row is not None: self.cell = ""
        elif tag == "svg": self.svg += 1
        elif tag == "div" and self.cell is not None: self.cell += " / "
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None: self.row.append(self.cell.strip()); self.cell = None
        elif tag == "tr" and self.row is not None: self.tables[self.cls].append(self.row); self.row = None
        elif tag == "svg": self.svg -= 1
    def handle_data(self, d):
        if self.cell is not None and not self.svg: self.cell += d
p = Rows(); p.feed(open(sys.argv[1], encoding="utf-8").read())
print(json.dumps(p.tables))
PY
}

# --- every figure of the page is --json's (counts, rates and intervals as
# --- the page rounds them); Python reads both
"$CARD" --db "$db" --html -o "$T/sloppy.html" sloppy
"$CARD" --db "$db" --json sloppy > "$T/sloppy.json"
tables "$T/sloppy.html" > "$T/sloppy.tables"
got=$("$PY" - "$T/sloppy.tables" "$T/sloppy.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
j = json.loads(open(sys.argv[2]).read())
def ci(r): return "%.1f-%.1f%%" % (100 * r["ci95"][0], 100 * r["ci95"][1])
want = [["pass", str(j["pass"]["count"]), "%.1f%%" % (100 * j["pass"]["rate"]), ci(j["pass"])],
        ["reached", str(j["reached"]["count"]), "%.1f%%" % (100 * j["reached"]["rate"]), ci(j["reached"])],
        ["side effects", str(j["side_effects"]), "", ""],
        ["duplicate writes", str(j["duplicate_writes"]), "", ""],
        ["errors", str(j["errors"]["total"]), "", ""]]
want += [["errors: " + k, str(v), "", ""] for k, v in j["errors"]["by_code"].items() if v]
f = j["efficiency"]
want += [["calls", str(f["calls"]), "", ""],
         ["the tasks' steps", str(f["steps"]), "", ""],
         ["repeated reads", str(f["repeated_reads"]), "", ""],
         ["retries after an error", str(f["retries"]), "", ""],
         ["planned errors: faults, timeouts, rate limits", str(f["planned_errors"]), "", ""]]
want += [["unfinished", str(j["unfinished"]), "", ""],
         ["diverged episodes", str(j["diverged"]["episodes"]), "", ""],
         ["episodes compared", str(j["diverged"]["episodes_compared"]), "", ""],
         ["diverged calls", str(j["diverged"]["calls"]), "", ""],
         ["calls compared", str(j["diverged"]["compared"]), "", ""],
         ["calls with no answer logged", str(j["diverged"]["not_logged"]), "", ""],
         ["problems", str(j["problems"]["count"]), "", ""]]
bad = []
if t["result"][1:] != want: bad.append("result")
arms = [[a["arm"], str(a["episodes"]), str(a["pass"]["count"]), ci(a["pass"]),
         str(a["reached"]["count"]), ci(a["reached"]), str(a["side_effects"]),
         str(a["duplicate_writes"])] for a in j["arms"]]
if t["arms"][1:] != arms: bad.append("arms")
dials = [[d["dial"], str(d["events"]), str(d["fired"]),
          ", ".join("%s %d" % kv for kv in d["outcomes"].items())] for d in j["dials"]]
if t["dials"][1:] != dials: bad.append("dials")
made = dict((r[0], r[1]) for r in t["made"])
if made["model"] != j["model"] or made["file hash"] != j["file_sha256"]: bad.append("made")
print("%d result rows, %d arms, %d dials; differ: %s" % (len(want), len(arms), len(dials), ", ".join(bad) or "none"))
PY
)
ok "the page's figures are --json's" "20 result rows, 24 arms, 6 dials; differ: none" "$got"

# --- the headline: the page's first paragraph, --json's sentence, for a
# --- card, a compare, an observed card and compare, a refused compare
headline() { # PAGE: the text of its first <p class="headline">
    "$PY" -c 'import html, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
print(html.unescape(re.search(r"<h[12]>.*?</h[12]>\n<p class=\"headline\">(.*?)</p>", s, re.S).group(1)))' "$1"
}
json_headline() { "$PY" -c 'import json, sys; print(json.loads(sys.stdin.readline())["headline"])'; }
"$CARD" --db "$db" --html --compare careful sloppy > "$T/cmp.html"
"$CARD" --db "$observed" --html --compare steady erratic > "$T/ocmp.html"
"$CARD" --db "$observed" --html steady > "$T/steady.html"
"$CARD" --db "$db" --html --compare careful careful-reformatted > "$T/refused.html"
got=$(for c in "$db sloppy" "$observed steady" "$db --compare careful sloppy" \
        "$observed --compare steady erratic" "$db --compare careful careful-reformatted"; do
        set -- $c
        "$CARD" --db "$@" --json | json_headline
    done)
ok "the headlines, in --json" "Passed 0 of 96 episodes (0.0%, 95% CI 0.0-3.8%); 100 side effects, none a duplicate write; no episode diverged.
The harness's success: 44 of 48 observed episodes (91.7%, 95% CI 80.4-96.7%, clustered by 16 tasks); 24 of 210 calls answered an error; every call checked kept to its tool's input schema.
careful is ahead of sloppy by 100.0 percentage points of pass rate (95% CI +92.3 to +100.0), paired on 96 shared tasks; McNemar's test finds a difference (p = 2.5e-29).
No clear difference: steady is ahead of erratic by 4.2 percentage points of the harness's success rate, but the 95% CI (-7.6 to +15.9) holds zero, paired on 16 shared tasks; McNemar's test on each task's first trial finds no difference (p = 1).
careful and careful-reformatted share one tool contract, but the file was reformatted, and tasks are drawn from the file's bytes, so their tasks differ, and no figure of one is set beside the other's." "$got"
ok "the headlines, first on the pages" "$got" \
    "$(for p in sloppy steady cmp ocmp refused; do headline "$T/$p.html"; done)"

# --- self-contained: no script, no link, no source or font from outside;
# --- the model's <script> is text
got=$(cat "$T/sloppy.html" "$T/cmp.html" "$T/ocmp.html" |
      grep -c -i -e '<script' -e ' src=' -e ' href=' -e 'url(' -e '@import' -e '<link')
ok "nothing loaded from outside, no script, no link" "0" "$got"
got=$(grep -c '&lt;script&gt;alert(1)&lt;/script&gt;' "$T/sloppy.html")
ok "the model is escaped (the line under the headline, and the table)" "2" "$got"
size=$(wc -c < "$T/sloppy.html")
ok "a page of every arm within 100 KB" "yes" "$([ "$size" -lt 102400 ] && echo yes || echo "no: $size bytes")"
got=$(grep -c -e '<title id="arms1-t">' -e '<desc id="arms1-d">all: pass 0 of 96 (0.0%, 95% CI 0.0-3.8%), reached 96 of 96 (100.0%, 95% CI 96.2-100.0%); base: pass 0 of 4 (0.0%, 95% CI 0.0-49.0%), reached 4 of 4 (100.0%, 95% CI 51.0-100.0%); ' "$T/sloppy.html")
ok "the plots have a title and a text of their figures" "2" "$got"
# each picture twice, wide and narrow, the second naming the first's words
got=$(grep -o '<svg class="[a-z]*" role="img" aria-labelledby="[a-z0-9-]* [a-z0-9-]*"' "$T/cmp.html" | sed 's/ role.*labelledby=/ /')
ok "the compare's pictures: each run, paired, unpaired; wide and narrow" \
'<svg class="wide" "rates-t rates-d"
<svg class="narrow" "rates-t rates-d"
<svg class="wide" "paired-pass-t paired-pass-d"
<svg class="narrow" "paired-pass-t paired-pass-d"
<svg class="wide" "diff-t diff-d"
<svg class="narrow" "diff-t diff-d"' "$got"
# the axis titles (on two lines in the narrow pictures) and favours
got=$(grep -o '<svg class="[a-z]*"\|class="axis"[^>]*>[^<]*\|class="fav"[^>]*>[^<]*' "$T/cmp.html" |
      sed 's/.*>//; s/<svg class="\(.*\)"/\1:/' | tr '\n' '|' | sed 's/|\(wide\|narrow\):/\n\1:/g')
ok "the compare's axis titles and favours labels" \
"wide:|Share of the run&#39;s episodes, %; bars: 95% intervals
narrow:|Share of the run&#39;s episodes, %; bars: 95%|intervals
wide:|A - B, percentage points; bars: 95% intervals (Tango&#39;s)|← favours B|favours A →|sloppy|careful
narrow:|A - B, percentage points; bars: 95%|intervals (Tango&#39;s)|← favours B|favours A →|sloppy|careful
wide:|A - B, percentage points; bars: 95% intervals (Newcombe&#39;s)|← favours B|favours A →|sloppy|careful
narrow:|A - B, percentage points; bars: 95%|intervals (Newcombe&#39;s)|← favours B|favours A →|sloppy|careful|" "$got"
got=$(grep -o '<h3>[^<]*</h3>' "$T/ocmp.html" | tr '\n' ' '; grep -c '<svg class="wide"' "$T/ocmp.html")
ok "the observed compare's picture: each run's success, the paired difference" \
    "<h3>Each run</h3> <h3>Flipped tasks</h3> <h3>Paired, by task (the harness&#39;s success)</h3> 2" "$got"

# --- a refused compare: the refusal and both hashes, no figure, exit 4
"$CARD" --db "$db" --html --compare careful careful-reformatted > /dev/null
ok "a refused compare" "4|0|2" "$?|$(grep -c '<svg' "$T/refused.html")|$(grep -o '4acacf4693dbcbc81c0cc9e98ed4d2e017a2189edcfa89e0fba05e7433e4fd54\|820faf611389d78073fb9661be2b380808c64e8dd77a061fb15579782c7568a9' "$T/refused.html" | wc -l | tr -d ' ')"
got=$(tables "$T/cmp.html" | "$PY" -c 'import json, sys; t = json.load(sys.stdin)
print(t["diffs"][1], t["paired"][1], t["rates"][1:], sep="\n")')
ok "a comparable compare's tables" "['all', '96/96', '0/96', '+100.0', '+94.6 to +100.0', 'yes']
['all', '96', '+100.0', '+92.3 to +100.0', '96', '0', '0', '0', '2.5e-29']
[['careful (A)', 'pass', '96', '96', '100.0%', '96.2-100.0%'], ['sloppy (B)', 'pass', '0', '96', '0.0%', '0.0-3.8%']]" "$got"

# --- usage: one format at a time; -o only for --html; a page is written
# --- whole or not at all; --all and --baseline where they belong
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
got=$("$CARD" --db "$db" --all -o "$T/d" 2>&1; echo "exit $?"
      "$CARD" --db "$db" --html --all 2>&1; echo "exit $?"
      "$CARD" --db "$db" --html --all -o "$T/d" sloppy 2>&1; echo "exit $?"
      "$CARD" --db "$db" --html -o "$T/d.html" --baseline careful sloppy 2>&1; echo "exit $?"
      "$CARD" --db "$db" --html --all -o "$T/d" --baseline carefull 2>&1; echo "exit $?"
      ls "$T" | grep -c '^d')
ok "--all and --baseline, misused" "card: --all writes a folder of pages: card --html --all -o DIR
Try 'card --help'.
exit 2
card: --all writes a folder of pages: card --html --all -o DIR
Try 'card --help'.
exit 2
card: --all takes no run, nor --compare or --list: it writes a page for every run
Try 'card --help'.
exit 2
card: --baseline RUN goes with --html --all -o DIR
Try 'card --help'.
exit 2
card: no run is named \"carefull\"; did you mean careful? The runs: careful, careful-reformatted, sloppy
exit 2
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
# two runs of 309-character names that differ at the end only: the
# compare's heading and headline shorten them (first 32, last 12), give
# them whole beneath, and the headline stays within a phone's first
# screen (measured below)
mkdir "$T/long" && cp "$TOP_SRCDIR/samples/tools/shop.json" "$T/long/"
"$PY" - "$T/long" <<'PY'
import json, sys
for side in "ab":
    run = "nightly-agent-eval-" + "long-config-name-" * 17 + side
    lines = [{"type": "run", "run": run, "tools": "shop.json"}]
    for i in range(4):
        lines += [{"type": "episode", "run": run, "episode": "e%d" % i, "seed": 7 + i, "arm": "base"},
                  {"type": "end", "run": run, "episode": "e%d" % i}]
    open("%s/%s.jsonl" % (sys.argv[1], side), "w").write("".join(json.dumps(l) + "\n" for l in lines))
PY
(cd "$T/long" && "$REPLAY" --quiet --db l.db a.jsonl b.jsonl 2>/dev/null)
long=nightly-agent-eval-$(printf 'long-config-name-%.0s' $(seq 17))
"$CARD" --db "$T/long/l.db" --html --compare "${long}a" "${long}b" -o "$T/longcmp.html"
ok "long run names: shortened in the heading, whole beneath" "<h2>Compare: nightly-agent-eval-long-config-n…onfig-name-a (A) and nightly-agent-eval-long-config-n…onfig-name-b (B)</h2>
<p class=\"note names\">A is ${long}a<br>B is ${long}b</p>" \
    "$(grep -e '^<h2>' -e 'class="note names"' "$T/longcmp.html")"
# an episode page of hostile names and arguments: text, and a phone's
# width holds (measured below)
"$PY" - "$T/hostile/h2.jsonl" <<'PY'
import json, sys
run, ep = "r<i>", "e\u202e<u>"
tool = "<script>alert(3)</script>\u001b[2J"
lines = [{"type": "run", "run": run, "tools": "shop.json"},
         {"type": "episode", "run": run, "episode": ep, "seed": 7, "arm": "base"},
         {"type": "call", "run": run, "episode": ep,
          "call": {"name": "search_orders", "arguments": {"query": "harbor granite"}},
          "answer": {"ok": True, "id": "<img src=x>" + "z" * 400}},
         {"type": "call", "run": run, "episode": ep,
          "call": {"name": tool, "arguments": {"q": "</code><script>" + "y" * 400}}},
         {"type": "end", "run": run, "episode": ep}]
open(sys.argv[1], "w").write("".join(json.dumps(l) + "\n" for l in lines))
PY
(cd "$T/hostile" && "$REPLAY" --quiet --db h2.db h2.jsonl 2>/dev/null)
"$CARD" --db "$T/hostile/h2.db" --html --episode "$(printf 'e\342\200\256<u>')" -o "$T/episode.html"
got=$(grep -c -i -e '<script' -e '<img' -e '<u>' -e '<i>' "$T/episode.html"
      grep -o 'id="call-[0-9]*"' "$T/episode.html" | tr '\n' ' '
      grep -c '&lt;script&gt;alert(3)&lt;/script&gt;\\x1b\[2J' "$T/episode.html")
ok "an episode page: hostile names and values are text; every call there" "0
id=\"call-1\" id=\"call-2\" 1" "$got"
got=$(grep -c -i '<script' "$T/hostile.html"; grep -c '&quot;q&#39;&lt;script&gt;alert(2)&lt;/script&gt;\\u{202e}evilxxxx' "$T/hostile.html")
ok "a hostile run name is text" "0
2" "$got"

# --- the night's report: the index and a page per run, and the compares
# --- with the baseline; every page self-contained, its links the
# --- night's own pages
N=$T/night
got=$("$CARD" --db "$db" --html --all -o "$N" --baseline careful 2>&1; echo "exit $?"
      ls "$N" | grep -c '^episode-'; ls "$N" | grep -v '^episode-')
ok "card --html --all -o DIR --baseline careful" "card: $N: index.html, 3 run pages, 1 compare page, 192 episode pages; 0 pages gone removed
exit 0
192
compare-sloppy-vs-careful-823a14c538.html
index.html
run-careful-4ac3998497.html
run-careful-reformatted-edf43a5a73.html
run-sloppy-27d19a29d8.html" "$got"
got=$(cat "$N"/*.html | grep -c -i -e '<script' -e ' src=' -e 'url(' -e '@import' -e '<link';
      grep -o -h 'href="[^"]*"' "$N"/*.html | grep -v '"episode-' | sort | uniq -c | sed 's/^ *//'
      grep -o -h 'href="episode-[^"]*"' "$N"/*.html | sort -u | wc -l | tr -d ' '
      grep -o -h 'href="[^"]*"' "$N"/*.html | sed 's/^href="//; s/"$//' | sort -u |
          while read -r f; do [ -f "$N/$f" ] || echo "missing: $f"; done)
ok "the pages: no script, nothing from outside; links to each other only, each to a page there" "0
1 href=\"compare-sloppy-vs-careful-823a14c538.html\"
196 href=\"index.html\"
2 href=\"run-careful-4ac3998497.html\"
1 href=\"run-careful-reformatted-edf43a5a73.html\"
2 href=\"run-sloppy-27d19a29d8.html\"
192" "$got"
got=$(tables "$N/index.html" | "$PY" -c 'import json, sys
for r in json.load(sys.stdin)["index"][1:]: print(" | ".join(r))')
ok "the index: every run once, its figure (and which), the runs of the same tasks, the verdict (or why there is none)" "careful / Passed 96 of 96 episodes (100.0%, 95% CI 96.2-100.0%); no side effect; no episode diverged. | scripted-careful | ../tools/shop.json | 96 | pass 100.0% (96.2-100.0%) | sloppy | the baseline
careful-reformatted / Passed 96 of 96 episodes (100.0%, 95% CI 96.2-100.0%); no side effect; no episode diverged. | scripted-careful | ../tools/shop-reformatted.json | 96 | pass 100.0% (96.2-100.0%) | none | not comparable: the tool file was reformatted (same contract, other bytes, so other tasks)
sloppy / Passed 0 of 96 episodes (0.0%, 95% CI 0.0-3.8%); 100 side effects, none a duplicate write; no episode diverged. | <script>alert(1)</script> | ../tools/shop.json | 96 | pass 0.0% (0.0-3.8%) | careful | -100.0 points (-100.0 to -92.3), paired: a differenceHolm: p = 2.5e-29, a difference" "$got"
ok "a run's page in the folder: its headline is --json's" \
    "$("$CARD" --db "$db" --json sloppy | json_headline)" "$(headline "$N/run-sloppy-27d19a29d8.html")"
ok "the compare in the folder: A the run, B the baseline" \
    "$("$CARD" --db "$db" --json --compare sloppy careful | json_headline)" \
    "$(headline "$N/compare-sloppy-vs-careful-823a14c538.html")"

# --- rerun into the folder after the night changed (sloppy renamed, no
# --- baseline): its pages replaced, those of runs gone removed, card's
# --- leftovers too; a file of another's stays, whatever its name
cp "$db" "$T/r2.db"
sqlite3 "$T/r2.db" "UPDATE runs SET run = 'sloppy 2/..' WHERE run = 'sloppy'"
echo '<p>notes</p>' > "$N/notes.html"
echo '<html>mine</html>' > "$N/run-mine.html"
# On a terminal (script(1) gives one), a line of progress: how many of
# how many, redrawn, cleared before the closing line; the pages the same.
# A root without /dev/pts (a chroot, some containers) has no terminal to
# give: then this one check is left out, and the log says so.
if ! command -v script >/dev/null 2>&1 ||
    ! script -qfc true /dev/null </dev/null >/dev/null 2>&1; then
    echo "not checked: the progress line on a terminal: script(1) finds no pseudo-terminal here (is /dev/pts mounted?)"
else
    script -qfc "'$CARD' --db '$db' --html --all -o '$T/tty' --baseline careful" \
        "$T/tty.out" >/dev/null 2>&1 </dev/null
    ok "card --html --all on a terminal: its progress, then the closing line" \
        "card: reading the runs: 1 of 3
card: writing pages: 1 of 196
card: $T/tty: index.html, 3 run pages, 1 compare page, 192 episode pages; 0 pages gone removed
the same pages" \
        "$(tr '\r' '\n' < "$T/tty.out" | sed 's/\x1b\[K//g; s/, [0-9]* a second.*//' |
           grep -a -m1 '^card: reading the runs'
           tr '\r' '\n' < "$T/tty.out" | sed 's/\x1b\[K//g; s/, [0-9]* a second.*//' |
           grep -a -m1 '^card: writing pages'
           tr '\r' '\n' < "$T/tty.out" | sed 's/\x1b\[K//g' | grep -a "^card: $T/tty:" | tr -d '\n'
           echo
           pages() { ls "$1" | grep -E '^(index|run-|compare-|episode-).*\.html$'; }
           pages "$T/tty" > "$T/tty.pages"; pages "$N" > "$T/night.pages"
           # (the night's folder holds a file of the user's too)
           [ "$(wc -l < "$T/tty.pages")" -eq 197 ] &&
               [ -z "$(comm -23 "$T/tty.pages" "$T/night.pages")" ] &&
               echo "the same pages")"
fi
cp "$N/run-careful-4ac3998497.html" "$N/run-old-0000000000.html"
head -c 300 "$N/index.html" > "$N/index.html.tmp"
: > "$N/run-empty.html.tmp"
got=$("$CARD" --db "$T/r2.db" --html --all -o "$N" 2>&1; echo "exit $?"; ls "$N")
ok "a rerun replaces and removes card's pages only" "card: $N: index.html, 3 run pages, 0 compare pages, 3 episode pages; 195 pages gone removed
exit 0
episode-sloppy-2-sloppy_arguments-baddata-b1-s1-f19748d6b8.html
episode-sloppy-2-sloppy_arguments-base-s1-b359a62d80.html
episode-sloppy-2-sloppy_arguments-landed-l1-s1-f40196eb35.html
index.html
notes.html
run-careful-4ac3998497.html
run-careful-reformatted-edf43a5a73.html
run-empty.html.tmp
run-mine.html
run-sloppy-2-c80c28d7aa.html" "$got"
got=$(cat "$N/notes.html" "$N/run-mine.html"; sed '/<section class="trend">/,$d' "$N/index.html" | grep -c 'sloppy 2/\.\.')
ok "another's files untouched; the renamed run in the index (and beside careful)" "<p>notes</p>
<html>mine</html>
2" "$got"

# --- two runs whose names give one file name (the names' slugs agree
# --- and the first 40 bits of their hashes too: found by a birthday
# --- search over "run" + 40 "y" + ".N"): two pages, each its own run's
cp "$db" "$T/r3.db"
sqlite3 "$T/r3.db" "UPDATE runs SET run = 'runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy.88413' WHERE run = 'careful';
  UPDATE runs SET run = 'runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy.382685' WHERE run = 'sloppy'"
got=$("$CARD" --db "$T/r3.db" --html --all -o "$T/twins" 2>&1; echo "exit $?"; ls "$T/twins")
ok "two names of one file name: two pages" "card: $T/twins: index.html, 3 run pages, 0 compare pages, 3 episode pages; 0 pages gone removed
exit 0
episode-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-sloppy_arguments-baddata-b1-s1-58686d8e13.html
episode-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-sloppy_arguments-base-s1-56ea5acc3d.html
episode-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-sloppy_arguments-landed-l1-s1-c798d29a8c.html
index.html
run-careful-reformatted-edf43a5a73.html
run-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-8cd8c5cb09-2.html
run-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-8cd8c5cb09.html" "$got"
twin=$T/twins/run-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-8cd8c5cb09
got=$(for f in "$twin.html" "$twin-2.html"; do grep -o 'runyyyy*\.[0-9]*' "$f" | sort -u; done;
      grep -o 'href="run-runy[^"]*"' "$T/twins/index.html")
ok "each twin's page shows its own run (the first in the list keeps the name), and the index links both" "runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy.382685
runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy.88413
href=\"run-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-8cd8c5cb09.html\"
href=\"run-runyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy-8cd8c5cb09-2.html\"" "$got"

# --- a page of another's where card would write one: nothing is written
mkdir "$T/theirs" && echo '<p>their index</p>' > "$T/theirs/index.html"
got=$("$CARD" --db "$db" --html --all -o "$T/theirs" 2>&1; echo "exit $?"; ls "$T/theirs")
ok "another's index.html stops the run" "card: $T/theirs/index.html is not a page card wrote; nothing was written
exit 3
index.html" "$got"

# --- a failure while writing (files limited to 10 or 20 KB, as the
# --- shell counts blocks, smaller than a run's page; the database out of
# --- WAL mode, whose index file would pass it): card stops, says which
# --- page, leaves no .tmp; every page in the folder is whole, and the
# --- index the last run's
cp "$db" "$T/r3.db" && sqlite3 "$T/r3.db" "PRAGMA journal_mode = DELETE" >/dev/null
got=$( (ulimit -f 20; trap '' XFSZ; exec "$CARD" --db "$T/r3.db" --html --all -o "$N") 2>&1; echo "exit $?")
ok "a page that cannot be written" "card: cannot write $N/run-careful-4ac3998497.html: File too large; the pages written before it are whole, and the index is the last run's
exit 3" "$got"
got=$(ls "$N" | grep '\.tmp$'; for f in "$N"/index.html "$N"/run-*-??????????.html; do
          printf '%s %s\n' "${f##*/}" "$(tail -c 15 "$f")"; done
      sed '/<section class="trend">/,$d' "$N/index.html" | grep -c 'sloppy 2/\.\.')
ok "no half-written page" "run-empty.html.tmp
index.html </body></html>
run-careful-4ac3998497.html </body></html>
run-careful-reformatted-edf43a5a73.html </body></html>
run-sloppy-2-c80c28d7aa.html </body></html>
2" "$got"

# --- a real browser, with no network: it draws the pages without a
# --- console message, and each plot has its marks where their values put
# --- them; then everything a reader sees is measured
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
def svg(cls, ident):
    s = re.search(r'<svg class="%s"[^>]*aria-labelledby="%s-t.*?</svg>' % (cls, ident), dom, re.S).group(0)
    return ET.fromstring(re.sub(r"&nbsp;", " ", s))
def named(root, tag, cls=None):
    return [e for e in root.iter() if e.tag.split("}")[-1] == tag
            and (cls is None or cls in (e.get("class") or "").split())]
def axis(root):  # the x of 0% and of 100%: the first and last grid lines
    xs = [float(l.get("x1")) for l in named(root, "line", "grid") if l.get("x1") == l.get("x2")]
    return xs[0], xs[-1]
bad = []
n = 0
for cls in ("wide", "narrow"):
    arms = svg(cls, "arms1")
    x0, x1 = axis(arms)
    circles = [c for c in named(arms, "circle", "mark")][1:]   # after the legend's
    squares = [q for q in named(arms, "rect", "mark")][1:]
    rows = [j] + j["arms"]
    if len(circles) != len(rows) or len(squares) != len(rows):
        bad.append("marks per row, " + cls)
    for c, q, a in zip(circles, squares, rows):
        if abs(float(c.get("cx")) - (x0 + (x1 - x0) * a["pass"]["rate"])) > 0.06: bad.append("pass %s %s" % (a.get("arm", "all"), cls))
        side = float(q.get("width"))
        if abs(float(q.get("x")) + side / 2 - (x0 + (x1 - x0) * a["reached"]["rate"])) > 0.06: bad.append("reached " + a.get("arm", "all"))
    n += len(circles)
    parts = [named(g, "title")[0].text for g in named(svg(cls, "dials1"), "g", "part")]
    want = ["%s %d" % kv for d in j["dials"] for kv in d["outcomes"].items() if kv[1]]
    if parts != want: bad.append("dial parts " + cls)
h = open(sys.argv[3], encoding="utf-8").read()
heading = re.search(r"<h2>(.*?)</h2>", h, re.S).group(1)
if "<script" in h.lower() or not heading.startswith("Card: \"q'&lt;script&gt;alert(2)&lt;/script&gt;\\u{202e}evil"):
    bad.append("hostile heading")
print("%d rows' marks in both pictures, %d dial parts; wrong: %s" % (n, len(parts), ", ".join(bad) or "none"))
PY
)
    ok "the plots' marks, through the DOM" "50 rows' marks in both pictures, 15 dial parts; wrong: none" "$got"
    "$CARD" --db "$db" --json --compare careful sloppy > "$T/cmp.json"
    got=$("$PY" - "$T/cmp.dom" "$T/cmp.json" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
dom = open(sys.argv[1], encoding="utf-8").read()
j = json.loads(open(sys.argv[2]).read())
out = []
for ident, rows, name in (("paired-pass", [r for r in j["paired"] if r["measure"] == "pass"], "paired"),
                          ("diff", [a for a in j["arms"] if a["a"]["episodes"] and a["b"]["episodes"]], "unpaired")):
    for cls in ("wide", "narrow"):
        s = ET.fromstring(re.search(r'<svg class="%s"[^>]*aria-labelledby="%s-t.*?</svg>' % (cls, ident), dom, re.S).group(0))
        grid = [float(l.get("x1")) for l in s.iter() if l.tag.endswith("line") and l.get("class") in ("grid", "zero mark") and l.get("x1") == l.get("x2")]
        x0, x1 = grid[0], grid[-1]
        marks = [e for e in s.iter() if e.tag.endswith("circle")][1:]  # after the legend's
        wrong = [r["arm"] for m, r in zip(marks, rows)
                 if abs(float(m.get("cx")) - (x0 + (x1 - x0) * (r["difference"] + 1) / 2)) > 0.06]
        out.append("%s %s: %d marks for %d arms, wrong: %s" % (name, cls, len(marks), len(rows), ", ".join(wrong) or "none"))
print("\n".join(out))
PY
)
    ok "the compare's marks, through the DOM" "paired wide: 25 marks for 25 arms, wrong: none
paired narrow: 25 marks for 25 arms, wrong: none
unpaired wide: 25 marks for 25 arms, wrong: none
unpaired narrow: 25 marks for 25 arms, wrong: none" "$got"

    # Measured in Chromium through its DevTools protocol (the pages hold
    # no script; tests/card_browser.py runs the test's own in them): each
    # page at 1280x800 and as a 390x844 phone, light and dark, and
    # printed from either scheme.
    "$CARD" --db "$observed" --html --all -o "$T/onight" 2>/dev/null
    pages="$T/sloppy.html $T/steady.html $T/cmp.html $T/ocmp.html $T/refused.html $T/hostile.html $T/night/index.html $T/night/run-careful-4ac3998497.html $T/onight/index.html"
    # the folder of the first run, with its compare, back
    "$CARD" --db "$db" --html --all -o "$T/night" --baseline careful 2>/dev/null
    pages="$pages $T/night/compare-sloppy-vs-careful-823a14c538.html $T/episode.html $T/longcmp.html"
    # shellcheck disable=SC2086
    if ! timeout 600 "$PY" "$TOP_SRCDIR/tests/card_browser.py" measure "$chromium" \
        "$T/measured.json" $pages 2> "$T/measure.log"; then
        echo "FAIL: the pages could not be measured:"; tail -5 "$T/measure.log"
        fail=$((fail + 1))
    else
        got=$("$PY" - "$T/measured.json" "$T" <<'PY'
import json, os, sys
m = json.load(open(sys.argv[1]))
top = sys.argv[2]
out = []
def name(p): return os.path.relpath(p, top)
# no sideways scroll, the headline within the first 800 pixels, no
# console message
for page, modes in m.items():
    for mode, r in modes.items():
        if mode == "console":
            if r: out.append("%s: %d console messages" % (name(page), r))
            continue
        if r["scrollWidth"] > r["width"]:
            out.append("%s %s: %d pixels wide in %d" % (name(page), mode, r["scrollWidth"], r["width"]))
        if r["headline"] is None or r["headline"]["bottom"] > 800:
            out.append("%s %s: the headline ends at %s" % (name(page), mode, r["headline"] and r["headline"]["bottom"]))
        for o in r["overlaps"]:
            out.append("%s %s: texts overlap: %s" % (name(page), mode, o))
print("\n".join(out) or "no sideways scroll, every headline within 800 px, no overlap, no console message")
# the lowest contrast of a text and of a mark, in each mode, over every page
for mode in ("desktop-light", "desktop-dark", "phone-light", "phone-dark", "print-light", "print-dark"):
    texts = [t for p in m.values() for t in p[mode]["texts"]]
    marks = [k for p in m.values() for k in p[mode]["marks"]]
    t, k = min(texts, key=lambda x: x["ratio"]), min(marks, key=lambda x: x["ratio"])
    print("%s: %d texts, at least %.2f:1 (%s); %d marks, at least %.2f:1 (%s)" % (
        mode, len(texts), t["ratio"], t["text"], len(marks), k["ratio"], k["cls"]))
# the smallest text as seen, of the pictures and of the page
for mode in ("desktop-light", "phone-light"):
    svg = [t["px"] for p in m.values() for t in p[mode]["texts"] if t["tag"] == "text"]
    rest = [t["px"] for p in m.values() for t in p[mode]["texts"] if t["tag"] != "text"]
    print("%s: pictures' text at least %.1f px, the page's at least %.1f px" % (mode, min(svg), min(rest)))
# every dial part named by a visible label, in a legend that has its outcome
for mode in ("desktop-light", "phone-light"):
    r = m[os.path.join(top, "sloppy.html")][mode]
    parts = r["parts"]
    unnamed = [p["title"] for p in parts if not p["shown"] or p["label"] != p["title"] or not p["fits"]]
    legend = sorted(set(p["outcome"] for p in parts)) == sorted(r["legend"])
    print("%s: %d dial parts, %d inside, %d under the bar; unnamed: %s; the legend has each outcome: %s" % (
        mode, len(parts), sum(1 for p in parts if p["inside"]), sum(1 for p in parts if not p["inside"]),
        ", ".join(unnamed) or "none", "yes" if legend else "no"))
# the tables wider than a phone, which scroll in a box of their own
print("phone: tables that scroll in their box: " + "; ".join(
    "%s %s" % (name(p), ", ".join(r["phone-light"]["scrolling"]))
    for p, r in m.items() if r["phone-light"]["scrolling"]))
# the index's links: files that exist, each run's page once
for index in ("night/index.html", "onight/index.html"):
    r = m[os.path.join(top, index)]["phone-light"]
    links = [l["href"] for l in r["links"]]
    missing = [h for h in links if not os.path.isfile(os.path.join(top, os.path.dirname(index), h))]
    runs = sorted(l["text"] for l in r["links"] if l["href"].startswith("run-"))
    print("%s: %d links, missing: %s; runs: %s" % (index, len(links), ", ".join(missing) or "none", ", ".join(runs)))
PY
)
        ok "Chromium's measures of the pages" "no sideways scroll, every headline within 800 px, no overlap, no console message
desktop-light: 3670 texts, at least 4.61:1 (trusted 3); 521 marks, at least 3.06:1 (seg)
desktop-dark: 3670 texts, at least 4.61:1 (trusted 3); 521 marks, at least 3.50:1 (seg)
phone-light: 3697 texts, at least 4.61:1 (trusted 3); 524 marks, at least 3.06:1 (seg)
phone-dark: 3697 texts, at least 4.61:1 (trusted 3); 524 marks, at least 3.50:1 (seg)
print-light: 3679 texts, at least 4.61:1 (trusted 3); 521 marks, at least 3.06:1 (seg)
print-dark: 3679 texts, at least 4.61:1 (trusted 3); 521 marks, at least 3.06:1 (seg)
desktop-light: pictures' text at least 12.0 px, the page's at least 12.8 px
phone-light: pictures' text at least 12.0 px, the page's at least 12.8 px
desktop-light: 15 dial parts, 9 inside, 6 under the bar; unnamed: none; the legend has each outcome: yes
phone-light: 15 dial parts, 6 inside, 9 under the bar; unnamed: none; the legend has each outcome: yes
phone: tables that scroll in their box: sloppy.html arms, dials; steady.html tools; cmp.html rates, paired, diffs; ocmp.html rates, paired; hostile.html arms; night/run-careful-4ac3998497.html arms; night/compare-sloppy-vs-careful-823a14c538.html rates, paired, diffs; longcmp.html rates, paired, diffs
night/index.html: 4 links, missing: none; runs: careful, careful-reformatted, sloppy
onight/index.html: 2 links, missing: none; runs: erratic, steady" "$got"
    fi
    browse sloppy --hide-scrollbars --window-size=900,2000 \
        --screenshot="$TEST_TMP/card_html-sloppy.png" >/dev/null 2>&1
    ok "chromium takes a picture of the page" "PNG" \
        "$(head -c 4 "$TEST_TMP/card_html-sloppy.png" 2>/dev/null | tail -c 3)"
fi

echo "card --html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
