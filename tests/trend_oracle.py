"""card --trend, computed again from the tables.

    trend_oracle.py RESULTS_DB TREND_JSON [PATTERN]

Reads runs, tool_files and episode_rows (not the views card reads),
orders the runs matching PATTERN (fnmatch, as GLOB matches the names the
tests give) by replay time then name, finds where a series starts again
(another contract; for runs replayed against tasks, another file or
generator; another measure), and in the last series each task failing in its latest night
with the night its failing began (after its last pass), as docs/card.md
says; checks card's JSON against it and prints one line."""
import fnmatch
import json
import sqlite3
import sys

dbpath, path = sys.argv[1], sys.argv[2]
pattern = sys.argv[3] if len(sys.argv) > 3 else "*"
card = json.load(open(path, encoding="utf-8"))
db = sqlite3.connect(dbpath)
runs = [r for r in db.execute(
    "SELECT r.run, r.replayed_at, r.file_sha256, t.contract_sha256, "
    "r.generator_version, r.generator_fingerprint, r.run_id FROM runs r "
    "JOIN tool_files t ON t.file_sha256 = r.file_sha256")
    if fnmatch.fnmatchcase(r[0], pattern)]
runs.sort(key=lambda r: (r[1], r[0].encode()))
bad = []
if [r[0] for r in runs] != [r["run"] for r in card["runs"]]:
    bad.append("the runs or their order")


def simulated(run_id):
    return db.execute("SELECT count(seed) FROM episode_rows WHERE run_id = ?",
                      (run_id,)).fetchone()[0] > 0


def measure(run):
    """pass, success or None: what the run's headline figure measures."""
    if simulated(run[6]):
        return "pass"
    judged = db.execute("SELECT count(success) FROM episode_rows "
                        "WHERE run_id = ?", (run[6],)).fetchone()[0]
    return "success" if judged else None


series = 0
for i in range(1, len(runs)):
    a, b = runs[i - 1], runs[i]
    drawn = simulated(a[6]) and simulated(b[6])
    why = []
    if a[3] != b[3]:
        why.append("contract")
    elif drawn and a[2] != b[2]:
        why.append("file")
    if drawn and (a[4] != b[4] or a[5] != b[5]):
        why.append("generator")
    if measure(a) != measure(b):
        why.append("measure")
    if why:
        series = i
    if i < len(card["runs"]) and card["runs"][i]["new_series"] != why:
        bad.append("%s: new series %r, the card %r" %
                   (b[0], why, card["runs"][i]["new_series"]))

# each task's outcome in each night of the last series: passed when every
# trial the night judged passed
outcomes = {}
for i in range(series, len(runs)):
    rows = db.execute(
        "SELECT seed IS NULL, coalesce(task_id, task_name), min(arm), "
        "CASE WHEN seed IS NULL THEN count(success) ELSE count(*) END, "
        "CASE WHEN seed IS NULL THEN coalesce(sum(success), 0) "
        "ELSE sum(pass) END FROM episode_rows WHERE run_id = ? "
        "AND coalesce(task_id, task_name) IS NOT NULL "
        "GROUP BY seed IS NULL, coalesce(task_id, task_name)",
        (runs[i][6],)).fetchall()
    for observed, task, arm, n, c in rows:
        if n:
            outcomes.setdefault((observed, task.encode()), (task, arm, []))[2] \
                .append((i, c == n))
want = []
for key, (task, arm, nights) in outcomes.items():
    if nights[-1][1]:
        continue
    passes = [k for k, (_, ok) in enumerate(nights) if ok]
    start = passes[-1] + 1 if passes else 0
    want.append((nights[start][0], key, {
        "task": task, "arm": arm, "since": runs[nights[start][0]][0],
        "nights": len(nights) - start, "passed_before": bool(passes)}))
want.sort(key=lambda w: (w[0], w[1]))
got = card["failing"]
if [w[2] for w in want] != got:
    bad.append("failing tasks: %d, the card %d" % (len(want), len(got)))
print("trend: %d runs, %d failing in the last series (from %s): %s" % (
    len(runs), len(want), runs[series][0] if runs else "-",
    "as the card says" if not bad else "; ".join(bad)))
sys.exit(1 if bad else 0)
