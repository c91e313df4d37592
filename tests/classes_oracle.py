"""Why episodes ended, and which tasks flipped, computed again from the
database's tables (not its views), checked against what replay and card
give:

    classes_oracle.py RESULTS_DB [A B COMPARE.json]...

For every episode: its class by the rules sql/schema.sql states for the
view episode_outcomes (the first that holds), with the call, step, tool,
error and dial it points at, against the view's row.  For each A B pair:
the flipped tasks, their order and the trial shown on each side, against
`card --json --compare A B` in COMPARE.json.  Prints one line each."""
import json
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
db.row_factory = sqlite3.Row
failed = 0


def rows(sql, *args):
    return db.execute(sql, args).fetchall()


def outcome(episode_id, name):
    """the first dial event of that outcome: (dial, step, seq) or None"""
    for o in rows("SELECT dial, step, seq FROM outcome_rows "
                  "WHERE episode_id = ? AND outcome = ? ORDER BY event",
                  episode_id, name):
        return o["dial"], o["step"], o["seq"]
    return None


def classify(e, calls):
    """(class, seq, step, dial) of an episode row and its calls"""
    def first(pred):
        seqs = [c["seq"] for c in calls if pred(c)]
        return min(seqs) if seqs else None

    if e["seed"] is None:
        if e["success"] == 1:
            return "passed", None, None, None
        if e["success"] == 0:
            bad = [c["seq"] for c in calls
                   if c["error"] is not None or c["arguments_valid"] == 0]
            return "failed", max(bad) if bad else None, None, None
        return ("unfinished" if e["unfinished"] else "unjudged",
                None, None, None)
    if e["pass"]:
        return "passed", None, None, None
    if e["diverged"] and e["diverged"] > 0:
        return "diverged", first(lambda c: c["diverged"] == 1), None, None
    for name in ("fooled", "duplicated"):
        o = outcome(e["episode_id"], name)
        if o:
            effect = "side_effect" if name == "fooled" else "duplicate_write"
            return name, first(lambda c: c["effect"] == effect), o[1], o[0]
    if e["duplicate_writes"]:
        return ("duplicate_write",
                first(lambda c: c["effect"] == "duplicate_write"), None, None)
    if e["side_effects"]:
        return ("side_effect", first(lambda c: c["effect"] == "side_effect"),
                None, None)
    for name in ("gave_up", "stalled"):
        o = outcome(e["episode_id"], name)
        if o:
            return name, o[2], o[1], o[0]
    if e["unfinished"]:
        return "unfinished", None, None, None
    last = calls[-1] if calls else None
    if last is not None and last["error"] is not None:
        kind = {"invalid_arguments": "invalid_arguments",
                "not_found": "unknown_tool"}.get(last["error"],
                                                 "stopped_after_error")
        return kind, last["seq"], None, None
    steps = json.loads(rows("SELECT steps FROM task_rows WHERE task_id = ?",
                            e["task_id"])[0]["steps"])
    done = {c["step"] for c in calls if c["effect"] == "expected_write"}
    missed = [s["step"] for s in steps
              if s["kind"] == "write" and s["step"] not in done]
    return "not_reached", None, min(missed) if missed else None, None


def expected(e, calls):
    cls, seq, step, dial = classify(e, calls)
    call = next((c for c in calls if c["seq"] == seq), None)
    tool = error = None
    if call is not None:
        tool = call["tool"]
        error = call["error"]
        if error is None and call["arguments_valid"] == 0:
            error = "invalid_arguments"
        if step is None:
            step = call["step"]
    if cls == "not_reached" and step is not None:
        steps = json.loads(rows("SELECT steps FROM task_rows WHERE task_id = ?",
                                e["task_id"])[0]["steps"])
        tool = steps[step - 1]["tool"]
    return (cls, seq, step, tool, error, dial)


episodes = rows("SELECT * FROM episode_rows ORDER BY episode_id")
view = {r["episode_id"]: r for r in
        rows("SELECT * FROM episode_outcomes")}
classes_of = {}
bad = 0
for e in episodes:
    calls = rows("SELECT * FROM call_rows WHERE episode_id = ? ORDER BY seq",
                 e["episode_id"])
    want = expected(e, calls)
    v = view.get(e["episode_id"])
    got = None if v is None else (v["class"], v["seq"], v["step"], v["tool"],
                                  v["error"], v["dial"])
    classes_of[e["episode_id"]] = want[0]
    if got != want:
        bad += 1
        if bad <= 5:
            print("FAIL episode %s: the view gives %r, the rules %r" %
                  (e["episode"], got, want))
print("classes: %d episodes, %d as the rules say, %d not; %d classes seen"
      % (len(episodes), len(episodes) - bad, bad,
         len(set(classes_of.values()))))
failed += bad > 0 or len(view) != len(episodes)


def tasks(run):
    """(observed, task) -> [n, passes, episode id shown, arm]"""
    out = {}
    for e in rows("SELECT e.* FROM episode_rows e JOIN runs r "
                  "ON r.run_id = e.run_id WHERE r.run = ? "
                  "ORDER BY e.episode_id", run):
        observed = e["seed"] is None
        task = e["task_id"] if e["task_id"] is not None else e["task_name"]
        ok = e["success"] if observed else e["pass"]
        if task is None or ok is None:
            continue
        t = out.setdefault((observed, task), [0, 0, None, e["arm"], None])
        t[0] += 1
        t[1] += ok
        if t[4] is None:
            t[4] = e["episode_id"]  # the first trial
        if not ok and t[2] is None:
            t[2] = e["episode_id"]  # the first that failed
    return out


def name_of(episode_id):
    return rows("SELECT episode FROM episode_rows WHERE episode_id = ?",
                episode_id)[0]["episode"]


args = sys.argv[2:]
for i in range(0, len(args) - 2, 3):
    a, b, path = args[i:i + 3]
    got = json.load(open(path, encoding="utf-8"))["flipped"]
    ta, tb = tasks(a), tasks(b)
    flips = []
    for key in sorted(set(ta) & set(tb)):
        x, y = ta[key], tb[key]
        if x[1] * y[0] == y[1] * x[0]:
            continue
        sides = []
        for t in (x, y):
            shown = t[2] if t[2] is not None else t[4]
            sides.append({"trials": t[0], "passed": t[1],
                          "class": classes_of[shown],
                          "episode": name_of(shown)})
        change = abs(x[1] / x[0] - y[1] / y[0])
        better_a = x[1] * y[0] > y[1] * x[0]
        flips.append(((-change, not better_a, key[0], key[1]),
                      {"task": key[1], "arm": None if key[0] else x[3],
                       "measure": "success" if key[0] else "pass",
                       "a": sides[0], "b": sides[1]}, better_a))
    flips.sort(key=lambda f: f[0])
    want = {"shared": len(set(ta) & set(tb)),
            "better_in_a": sum(1 for f in flips if f[2]),
            "better_in_b": sum(1 for f in flips if not f[2]),
            "tasks": [f[1] for f in flips]}
    ok = want == got
    print("flipped %s %s: %d tasks (%d better in A), %s" %
          (a, b, len(flips), want["better_in_a"],
           "as the card says" if ok else "NOT as the card says"))
    if not ok:
        failed += 1
        for w, g in zip(want["tasks"], got["tasks"]):
            if w != g:
                print("  first difference: want %r, card %r" % (w, g))
                break
sys.exit(1 if failed else 0)
