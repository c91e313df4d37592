"""success^k, the runs' rates with their intervals (clustered by task),
and the paired compare of two observed runs, computed from
their transcripts (not from the database), checked against the card:

    observed_oracle.py A.jsonl B.jsonl CARDS.jsonl COMPARE.json

CARDS.jsonl holds `card --json A B`, COMPARE.json `card --json --compare
A B`.  Prints one line per run and one for the compare."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats_oracle import by_task, mean, mcnemar, mean_of_tasks, tango  # noqa: E402


def trials(path):
    """task -> [success of each trial, in order], from a transcript"""
    task_of, out = {}, {}
    for line in open(path, encoding="utf-8"):
        rec = json.loads(line)
        if rec["type"] == "episode":
            task_of[rec["episode"]] = rec["task_name"]
        elif rec["type"] == "end" and "success" in rec:
            out.setdefault(task_of[rec["episode"]], []).append(rec["success"])
    return out


def success_hat_k(t):
    top = max(len(v) for v in t.values())
    rows = []
    for k in range(1, top + 1):
        vals = [math.comb(sum(v), k) / math.comb(len(v), k)
                for v in t.values() if len(v) >= k]
        lo, hi = mean_of_tasks(vals, sum(len(v) for v in t.values()
                                         if len(v) >= k))
        rows.append((k, sum(vals) / len(vals), len(vals), lo, hi))
    return rows


a_path, b_path, cards_path, compare_path = sys.argv[1:5]
ta, tb = trials(a_path), trials(b_path)
cards = {c["run"]: c for c in map(json.loads, open(cards_path))}
for path, t in ((a_path, ta), (b_path, tb)):
    run = os.path.basename(path)[:-len(".jsonl")]
    want = success_hat_k(t)
    got = [(r["k"], r["rate"], r["tasks"], r["ci95"][0], r["ci95"][1])
           for r in cards[run]["success_hat_k"]]
    same = len(want) == len(got) and all(
        w[0] == g[0] and abs(w[1] - g[1]) < 1e-6 and w[2] == g[2] and
        abs(w[3] - g[3]) < 1e-6 and abs(w[4] - g[4]) < 1e-6
        for w, g in zip(want, got))
    print("%s: success^k and its intervals %s (k = 1..%d)"
          % (run, "agree" if same else "DIFFER %s %s" % (want, got),
             len(want)))
    rate = cards[run]["harness"]["observed"]["success"]
    lo, hi = by_task([[1 if s else 0 for s in v] for v in t.values()])
    same = (rate["ci_method"] == "clustered_by_task" and
            rate["tasks"] == len(t) and abs(rate["ci95"][0] - lo) < 1e-6 and
            abs(rate["ci95"][1] - hi) < 1e-6)
    print("%s: success %d of %d, 95%% CI %.4f-%.4f clustered by %d tasks: %s"
          % (run, rate["count"], sum(len(v) for v in t.values()), lo, hi,
             len(t), "agrees" if same else "DIFFERS %s" % rate))

shared = sorted(set(ta) & set(tb))
diffs = [sum(ta[t]) / len(ta[t]) - sum(tb[t]) / len(tb[t]) for t in shared]
m, lo, hi = mean(diffs)
first = [(ta[t][0], tb[t][0]) for t in shared]
x = sum(1 for a, b in first if a and not b)
y = sum(1 for a, b in first if b and not a)
d1, lo1, hi1 = tango(x, y, len(first))
p = mcnemar(x, y)
row = [r for r in json.load(open(compare_path))["paired"]
       if r["measure"] == "success" and r["arm"] == "all"][0]
pairs = row["pairs"]
agree = (row["shared"] == len(shared) and not row["one_trial"] and
         abs(row["difference"] - m) < 1e-6 and
         abs(row["ci95"][0] - lo) < 1e-6 and abs(row["ci95"][1] - hi) < 1e-6 and
         pairs["a_only"] == x and pairs["b_only"] == y and
         abs(pairs["difference"] - d1) < 1e-6 and
         abs(pairs["ci95"][0] - lo1) < 1e-6 and
         abs(pairs["ci95"][1] - hi1) < 1e-6 and
         abs(pairs["mcnemar_p"] - p) <= 1e-6 * p)
print("paired: %d tasks; first trials %d/%d discordant; interval and p %s"
      % (len(shared), x, y, "agree" if agree else "DIFFER: %s" % row))
