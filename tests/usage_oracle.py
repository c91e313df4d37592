"""Usage by task in a compare, computed again from the tables.

    usage_oracle.py RESULTS_DB RUN_A RUN_B COMPARE_JSON

Reads every episode of both runs from episode_rows (not from the card's
queries), groups them by task as the trials view does, takes each task's
mean tokens (input plus output, over the episodes that give either) and
mean duration (over those that give one), pairs the tasks both runs give
a figure for, and checks the card's "usage_by_task": the count, the
means, the mean difference and its interval (mean +- z s / sqrt(m), s
with m - 1), and every task in the order the docs give (the largest
|A - B| first, then simulated before observed, then by task).  Prints one
line per measure."""
import json
import math
import sqlite3
import sys

Z = 1.959963984540054
dbpath, run_a, run_b, path = sys.argv[1:5]
card = json.load(open(path, encoding="utf-8"))["usage_by_task"]
db = sqlite3.connect(dbpath)


def tasks(run):
    out = {}
    for seed, tid, name, arm, tin, tout, dur in db.execute(
            "SELECT e.seed, e.task_id, e.task_name, e.arm, e.input_tokens, "
            "e.output_tokens, e.duration FROM episode_rows e "
            "JOIN runs r ON r.run_id = e.run_id WHERE r.run = ?", (run,)):
        task = tid if tid is not None else name
        if task is None:
            continue
        t = out.setdefault((seed is None, task), {"arm": arm, "tokens": [],
                                                  "seconds": []})
        if tin is not None or tout is not None:
            t["tokens"].append((tin or 0) + (tout or 0))
        if dur is not None:
            t["seconds"].append(dur)
    return out


ta, tb = tasks(run_a), tasks(run_b)
bad = 0


def near(x, y):
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


for measure in ("tokens", "seconds"):
    before = bad
    rows = []
    for key in sorted(set(ta) & set(tb)):
        va, vb = ta[key][measure], tb[key][measure]
        if va and vb:
            rows.append((key, ta[key]["arm"], len(va), sum(va) / len(va),
                         len(vb), sum(vb) / len(vb)))
    got = card[measure]
    m = len(rows)
    if got["tasks"] != m:
        print("%s: the card pairs %d tasks, the tables %d" %
              (measure, got["tasks"], m))
        bad += 1
        continue
    if m:
        d = [r[3] - r[5] for r in rows]
        mean = sum(d) / m
        want = [sum(r[3] for r in rows) / m, sum(r[5] for r in rows) / m, mean]
        if not all(near(x, y) for x, y in
                   zip(want, [got["a"], got["b"], got["difference"]])):
            print("%s: means %r, the card %r" %
                  (measure, want, [got["a"], got["b"], got["difference"]]))
            bad += 1
        if m >= 2:
            s = math.sqrt(sum((x - mean) ** 2 for x in d) / (m - 1))
            ci = [mean - Z * s / math.sqrt(m), mean + Z * s / math.sqrt(m)]
            if got["ci95"] is None or not all(
                    near(x, y) for x, y in zip(ci, got["ci95"])):
                print("%s: interval %r, the card %r" % (measure, ci,
                                                        got["ci95"]))
                bad += 1
        elif got["ci95"] is not None:
            print("%s: one task, yet an interval" % measure)
            bad += 1
    rows.sort(key=lambda r: (-abs(r[3] - r[5]), r[0][0], r[0][1]))
    for r, g in zip(rows, got["per_task"]):
        if (g["task"] != r[0][1] or g["arm"] != r[1] or
                g["a"]["episodes"] != r[2] or g["b"]["episodes"] != r[4] or
                not near(g["a"]["mean"], r[3]) or
                not near(g["b"]["mean"], r[5])):
            print("%s: task %r, the card %r" % (measure, r, g))
            bad += 1
            break
    print("%s %s %s: %d task%s, as the card says" %
          (measure, run_a, run_b, m, "" if m == 1 else "s")
          if bad == before else "%s: %d differences" % (measure, bad - before))
sys.exit(1 if bad else 0)
