"""card --trend and card --flaky, computed again from the tables.

    trend_oracle.py RESULTS_DB TREND_JSON [PATTERN]
    trend_oracle.py --flaky RESULTS_DB FLAKY_JSON [PATTERN]

Reads runs, tool_files and episode_rows (not the views card reads),
orders the runs matching PATTERN (fnmatch, as GLOB matches the names the
tests give) by replay time then name, finds where a series starts again
(another contract; for runs replayed against tasks, another file or
generator; another measure), and in the last series each task failing in its latest night
with the night its failing began (after its last pass), as docs/card.md
says; checks card's JSON against it and prints one line.  With --flaky:
every task of a run whose trials disagree, and every task whose outcome
changed twice or more across the nights of one series."""
import fnmatch
import json
import sqlite3
import sys

flaky = sys.argv[1] == "--flaky"
args = sys.argv[2:] if flaky else sys.argv[1:]
dbpath, path = args[0], args[1]
pattern = args[2] if len(args) > 2 else "*"
card = json.load(open(path, encoding="utf-8"))
db = sqlite3.connect(dbpath)
runs = [r for r in db.execute(
    "SELECT r.run, r.replayed_at, r.file_sha256, t.contract_sha256, "
    "r.generator_version, r.generator_fingerprint, r.run_id FROM runs r "
    "JOIN tool_files t ON t.file_sha256 = r.file_sha256")
    if fnmatch.fnmatchcase(r[0], pattern)]
runs.sort(key=lambda r: (r[1], r[0].encode()))
bad = []
if [r[0] for r in runs] != [r if flaky else r["run"] for r in card["runs"]]:
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
starts = [0]  # the series each night is in (its first night)
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
    starts.append(series)
    if not flaky and i < len(card["runs"]) and \
            card["runs"][i]["new_series"] != why:
        bad.append("%s: new series %r, the card %r" %
                   (b[0], why, card["runs"][i]["new_series"]))

# each task's outcome in each night (of the last series, for --trend):
# passed when every trial the night judged passed
outcomes = {}
within = []
for i in range(0 if flaky else series, len(runs)):
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
            outcomes.setdefault((starts[i], observed, task.encode()),
                                (task, arm, []))[2].append((i, c == n))
        if 0 < c < n:
            within.append((i, observed, task.encode(), {
                "run": runs[i][0], "task": task, "arm": arm, "passed": c,
                "trials": n}))
if flaky:
    within.sort(key=lambda w: w[:3])
    across = []
    for key, (task, arm, nights) in outcomes.items():
        changes = sum(1 for a, b in zip(nights, nights[1:]) if a[1] != b[1])
        if changes >= 2:
            across.append((-changes, key[1], key[2], {
                "task": task, "arm": arm, "from": runs[nights[0][0]][0],
                "to": runs[nights[-1][0]][0], "nights": len(nights),
                "passed": sum(1 for n in nights if n[1]), "changes": changes,
                "outcomes": "".join("+" if n[1] else "-" for n in nights)}))
    across.sort(key=lambda a: a[:3])
    if [w[3] for w in within] != card["within"]:
        bad.append("within runs: %d, the card %d" % (len(within),
                                                    len(card["within"])))
    if [a[3] for a in across] != card["across"]:
        bad.append("across nights: %d, the card %d" % (len(across),
                                                      len(card["across"])))
    print("flaky: %d runs, %d within runs, %d across nights: %s" % (
        len(runs), len(within), len(across),
        "as the card says" if not bad else "; ".join(bad)))
    sys.exit(1 if bad else 0)
want = []
for key, (task, arm, nights) in outcomes.items():
    key = key[1:]
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
