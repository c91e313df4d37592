"""card --junit's test cases, computed again from the tables.

    junit_oracle.py RESULTS_DB RUN                      (a run alone)
    junit_oracle.py RESULTS_DB BASE NEW [fail|ignore]   (NEW against BASE)

Reads episode_rows, runs and the class of each episode (episode_outcomes),
groups the episodes by task as the trials view does (an episode of no
task is a case of its own), and prints what a JUnit reader should find,
in the order docs/card.md gives: a line for the suite ("suite NAME: T
tests, F failures, S skipped"), then "CLASSNAME | NAME | passed", "... |
failed TYPE" or "... | skipped" per case.  tests/gate.sh compares it with
what tests/mcp/junit_read.mjs reads from the file card wrote."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
db.text_factory = lambda b: b.decode("utf-8", "surrogateescape")


def tasks(run):
    rows = db.execute(
        "SELECT e.seed IS NULL, coalesce(e.task_id, e.task_name), e.arm, "
        "e.episode, o.class, CASE WHEN e.seed IS NULL THEN e.success "
        "ELSE e.pass END, e.episode_id FROM episode_rows e "
        "JOIN runs r ON r.run_id = e.run_id "
        "JOIN episode_outcomes o ON o.episode_id = e.episode_id "
        "WHERE r.run = ?", (run,)).fetchall()
    groups = {}
    for observed, task, arm, episode, cls, ok, eid in rows:
        key = (observed, 0, task.encode("utf-8", "surrogateescape"), 0) \
            if task is not None else (observed, 1, b"", eid)
        g = groups.setdefault(key, {"task": task, "arm": None, "trials": [],
                                    "first": eid})
        g["trials"].append((eid, episode, cls, ok))
        if eid <= g["first"]:
            g["first"], g["arm"] = eid, arm
        if task is None:
            g["episode"] = episode
    for g in groups.values():
        g["trials"].sort()
        judged = [t for t in g["trials"] if t[3] is not None]
        g["judged"] = len(judged)
        g["passed"] = sum(1 for t in judged if t[3])
        failed = [t for t in judged if not t[3]]
        g["failed_cls"] = failed[0][2] if failed else None
    return groups


def classname(run, g):
    return run + ("." + g["arm"] if g["arm"] is not None else "")


def name(g):
    return g["task"] if g["task"] is not None else g["episode"]


def alone(g):
    if g["judged"] == 0:
        return "skipped"
    if g["failed_cls"] is not None:
        return "failed " + g["failed_cls"]
    return "passed"


def pair(b, n, missing_fail):
    if n is None:
        return "failed missing" if missing_fail else "skipped"
    if n["judged"] == 0:
        return "skipped"
    if b is None or b["judged"] == 0:
        return "skipped" if n["failed_cls"] else "passed"
    if n["passed"] * b["judged"] < b["passed"] * n["judged"]:
        return "failed " + (n["failed_cls"] or "regressed")
    return "skipped" if n["failed_cls"] else "passed"


out = []
if len(sys.argv) == 3:
    run = sys.argv[2]
    suite = run
    groups = tasks(run)
    for key in sorted(groups):
        g = groups[key]
        out.append((classname(run, g), name(g), alone(g)))
else:
    base, run = sys.argv[2], sys.argv[3]
    missing_fail = (sys.argv[4] if len(sys.argv) > 4 else "fail") == "fail"
    suite = "%s against %s" % (run, base)
    gb, gn = tasks(base), tasks(run)
    keys = sorted(set(k for k in gb if k[1] == 0) | set(gn))
    for key in keys:
        b, n = gb.get(key), gn.get(key)
        if key[1] == 1:  # NEW's episode of no task: alone
            out.append((classname(run, n), name(n), alone(n)))
        else:
            g = n if n is not None else b
            out.append((classname(run, g), name(g),
                        pair(b, n, missing_fail)))
fails = sum(1 for c in out if c[2].startswith("failed"))
skips = sum(1 for c in out if c[2] == "skipped")
print("suite %s: %d tests, %d failures, %d skipped" % (suite, len(out), fails,
                                                      skips))
for c in out:
    print("%s | %s | %s" % c)
