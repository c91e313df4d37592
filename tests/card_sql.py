"""Every figure of a card is the query docs/card.md gives for it.

    card_sql.py DOCS_CARD_MD RESULTS_DB CARD_JSON_LINES

Reads the table of figures and queries from docs/card.md, runs each query
on the database (python's own sqlite3) for every run of the card --json
lines, and for every arm and dial of those runs, and compares the result
with the figure in the card.  Prints "card sql: N passed, M failed"."""
import json
import re
import sqlite3
import sys

doc, dbpath, cards = sys.argv[1], sys.argv[2], sys.argv[3]
rows = re.findall(r"^\| `([a-z_.\[\]]+)` \| `(SELECT [^`]+)` \|$",
                  open(doc, encoding="utf-8").read(), re.M)
if len(rows) < 10:
    sys.exit("card sql: found %d figures in %s; expected the table" %
             (len(rows), doc))
db = sqlite3.connect(dbpath)
passed = failed = 0


def get(obj, path):
    for part in path.split("."):
        obj = obj[part]
    return obj


def check(what, want, got):
    global passed, failed
    if got is None or want is None:  # NULL in SQL, null in the card
        ok = got is None and want is None
    else:
        ok = (abs(want - got) < 1e-6 if isinstance(got, float) else want == got)
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: the query gives %r, the card %r" % (what, want, got))


for line in open(cards, encoding="utf-8"):
    card = json.loads(line)
    run = card["run"]
    for path, sql in rows:
        if path.startswith("arms[]."):
            items, key, field = card["arms"], "arm", path[len("arms[]."):]
        elif path.startswith("dials[]."):
            items, key, field = card["dials"], "dial", path[len("dials[]."):]
        elif path.startswith("tools[]."):
            items, key, field = card["tools"], "tool", path[len("tools[]."):]
        elif path.startswith("unknown_tools[]."):
            items, key, field = (card["unknown_tools"], "tool",
                                 path[len("unknown_tools[]."):])
        elif path.startswith("pass_hat_k[]."):
            items, key, field = card["pass_hat_k"], "k", path[len("pass_hat_k[]."):]
        elif path.startswith("classes[]."):
            items, key, field = (card["classes"], "class",
                                 path[len("classes[]."):])
        elif path.startswith("success_hat_k[]."):
            items, key, field = (card["success_hat_k"], "k",
                                 path[len("success_hat_k[]."):])
        else:
            row = db.execute(sql, {"run": run}).fetchone()
            want = row[0] if row else None  # no row: nothing to show
            got = get(card, path)
            check("%s %s" % (run, path), want if got is None else want or 0, got)
            continue
        for item in items:
            row = db.execute(sql, {"run": run, key: item[key]}).fetchone()
            want = row[0] if row else None
            got = get(item, field)
            check("%s %s %s" % (run, item[key], path),
                  want if got is None else want or 0, got)
print("card sql: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
