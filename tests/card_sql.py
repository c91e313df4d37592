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
        else:
            want = db.execute(sql, {"run": run}).fetchone()[0]
            check("%s %s" % (run, path), want or 0, get(card, path))
            continue
        for item in items:
            want = db.execute(sql, {"run": run, key: item[key]}).fetchone()[0]
            check("%s %s %s" % (run, item[key], path), want or 0,
                  get(item, field))
print("card sql: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
