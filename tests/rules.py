#!/usr/bin/env python3
"""The simulator's rules, held against what it answered.

Usage: python3 rules.py [--show N] [FILE...]   (standard input without FILE)

It reads the lines tests/survey writes (a "file" line per tool file, then
its episodes) and checks each rule of docs/simulator.md below on every
case the episodes hold, written from the rules' words, not from the
simulator's code.  It prints one line per rule,

    RULE: N cases, M deviations

in the order of RULES, then up to N deviations of each rule that has any
(default 3), and exits 1 when some rule has a deviation.

The rules:

hands.field_said      A task whose handed field is named as one of step
                      1's arguments says so ("field_named_as_argument":
                      true), and only then.
hands.in_field        Step 1's answer holds the handed value in the
                      handed field (the wrong value, the first time, on a
                      baddata arm).
request.unsaid        The request never holds the handed value as a word.
answers.plain         A tool without output schema answers an accepted
                      call {"ok": true, "id": "<string>"}, with the
                      arguments the write rule places beside them and
                      nothing else: a write's own; a read's, on baddata
                      and lagged arms; those of the kept writes a read
                      names; the handed value in step 1's answer last.
answers.says_asked    On baddata and lagged arms, a read of a tool without
                      output schema says each argument it was asked under
                      its name (the other record's, for b1's first
                      answer), unless the task said that the handed field
                      is one of them.
baddata.b3_small      b3's wrong value is the handed value with one small
                      thing changed: one digit, or letter, one up or down;
                      a date moved by one day.
steps.not_ready       A write matching step 3 before step 2 is done answers
                      not_ready.
store.duplicate       The target write made again is a duplicate write.
errors.idiom          An error has the shape of the file's idiom.
formats.NAME          A string or integer drawn for a schema with format
                      NAME is what NAME says (the formats people write:
                      date-time, date, time, email, uri, url,
                      uri-reference, uriref, uuid, hostname, ipv4, ipv6,
                      ip-address, cidr, byte, base64, dateTime, int8 ...
                      int64, uint8 ... uint64).  The values checked are
                      the arguments of tasks and the answers of reads on
                      which nothing was placed.
"""

import base64
import datetime
import ipaddress
import json
import re
import sys

RULES = ["hands.field_said", "hands.in_field", "request.unsaid",
         "answers.plain", "answers.says_asked", "baddata.b3_small",
         "steps.not_ready", "store.duplicate", "errors.idiom"]

counts = {}
shown = {}


def case(rule, ok, what):
    c = counts.setdefault(rule, [0, 0])
    c[0] += 1
    if not ok:
        c[1] += 1
        shown.setdefault(rule, []).append(what)


def same(a, b):
    """JSON equality: numbers by value, true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b


def scalar(v):
    return v is not None and not isinstance(v, (dict, list))


# ------------------------------------------------------------------ formats

def is_date(s):
    try:
        return bool(re.fullmatch(r"\d{4}-\d\d-\d\d", s)) and \
            datetime.date.fromisoformat(s) is not None
    except ValueError:
        return False


TIME = r"([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]\d\d:\d\d)"


def is_time(s):
    return bool(re.fullmatch(TIME, s, re.I))


def is_date_time(s):
    m = re.fullmatch(r"(\d{4}-\d\d-\d\d)[Tt ](.*)", s)
    return bool(m) and is_date(m.group(1)) and is_time(m.group(2))


def is_ip(s, version=None):
    try:
        ip = ipaddress.ip_address(s)
    except ValueError:
        return False
    return version is None or ip.version == version


def is_cidr(s):
    try:
        ipaddress.ip_network(s, strict=False)
    except ValueError:
        return False
    return "/" in s


def is_base64(s):
    try:
        base64.b64decode(s, validate=True)
    except ValueError:
        return False
    return True


def is_uri(s):
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*", s))


def is_hostname(s):
    return len(s) <= 253 and all(
        re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?", p)
        for p in s.split("."))


def int_range(bits, signed):
    if signed:
        return lambda v: -(1 << (bits - 1)) <= v < (1 << (bits - 1))
    return lambda v: 0 <= v < (1 << bits)


STRING_FORMATS = {
    "date-time": is_date_time, "dateTime": is_date_time, "date": is_date,
    "time": is_time,
    "email": lambda s: bool(re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", s)),
    "uri": is_uri, "url": is_uri, "uri-reference": lambda s: " " not in s,
    "uriref": lambda s: " " not in s,
    "uuid": lambda s: bool(re.fullmatch(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", s,
        re.I)),
    "hostname": is_hostname,
    "ipv4": lambda s: is_ip(s, 4), "ipv6": lambda s: is_ip(s, 6),
    "ip-address": is_ip, "cidr": is_cidr, "CIDR": is_cidr,
    "byte": is_base64, "base64": is_base64,
}
INT_FORMATS = {"int%d" % b: int_range(b, True) for b in (8, 16, 32, 64)}
INT_FORMATS.update({"uint%d" % b: int_range(b, False)
                    for b in (8, 16, 32, 64)})


class Doc:
    def __init__(self, root):
        self.root = root

    def deref(self, s, seen=0):
        while isinstance(s, dict) and isinstance(s.get("$ref"), str) and \
                s["$ref"].startswith("#") and seen < 64:
            node = self.root
            for part in s["$ref"][1:].split("/")[1:]:
                part = part.replace("~1", "/").replace("~0", "~")
                if isinstance(node, list):
                    try:
                        node = node[int(part)]
                    except (ValueError, IndexError):
                        return None
                elif isinstance(node, dict) and part in node:
                    node = node[part]
                else:
                    return None
            s = node
            seen += 1
        return s

    def parts(self, s):
        """s and the schemas its allOf lists, $refs followed."""
        s = self.deref(s)
        if not isinstance(s, dict):
            return []
        out = [s]
        for sub in s.get("allOf") or []:
            out += self.parts(sub)
        return out

    def walk(self, v, s, depth=0):
        """Checks the formats of v against schema s, into formats.NAME.
        A oneOf or anyOf is walked only when one branch alone could
        hold v (by its type)."""
        if depth > 40:
            return
        ps = self.parts(s)
        for p in ps:
            f = p.get("format")
            if isinstance(f, str):
                if isinstance(v, str) and f in STRING_FORMATS:
                    case("formats." + f, STRING_FORMATS[f](v), repr(v))
                elif isinstance(v, int) and not isinstance(v, bool) and \
                        f in INT_FORMATS:
                    case("formats." + f, INT_FORMATS[f](v), repr(v))
            for k in ("oneOf", "anyOf"):
                branches = [self.deref(b) for b in p.get(k) or []]
                fit = [b for b in branches if isinstance(b, dict) and
                       type_fits(v, b.get("type"))]
                if len(fit) == 1:
                    self.walk(v, fit[0], depth + 1)
        if isinstance(v, dict):
            for k, x in v.items():
                for p in ps:
                    props = p.get("properties")
                    if isinstance(props, dict) and k in props:
                        self.walk(x, props[k], depth + 1)
        elif isinstance(v, list):
            for p in ps:
                if isinstance(p.get("items"), dict):
                    for x in v:
                        self.walk(x, p["items"], depth + 1)


def type_fits(v, t):
    if t is None:
        return False
    ts = t if isinstance(t, list) else [t]
    kind = ("boolean" if isinstance(v, bool) else
            "integer" if isinstance(v, int) else
            "number" if isinstance(v, float) else
            "string" if isinstance(v, str) else
            "object" if isinstance(v, dict) else
            "array" if isinstance(v, list) else "null")
    return kind in ts or (kind == "integer" and "number" in ts)


# --------------------------------------------------------------------- b3

def one_small_thing(right, wrong):
    """Whether wrong is right with one digit or letter one up or down, or
    with the date it holds one day away."""
    if not isinstance(right, str) or not isinstance(wrong, str):
        return False
    if len(right) == len(wrong):
        diff = [i for i in range(len(right)) if right[i] != wrong[i]]
        if len(diff) == 1:
            a, b = right[diff[0]], wrong[diff[0]]
            if (a.isdigit() and b.isdigit()) or (a.isalpha() and b.isalpha()):
                if abs(ord(a) - ord(b)) == 1:
                    return True
    m = re.search(r"\d{4}-\d\d-\d\d", right)
    n = re.search(r"\d{4}-\d\d-\d\d", wrong)
    if m and n and m.start() == n.start() and \
            right[:m.start()] == wrong[:n.start()] and \
            right[m.end():] == wrong[n.end():]:
        try:
            d1 = datetime.date.fromisoformat(m.group(0))
            d2 = datetime.date.fromisoformat(n.group(0))
        except ValueError:
            return False
        return abs((d1 - d2).days) == 1
    return False


# --------------------------------------------------------------- episodes

def error_shape(fmt, a):
    if fmt == "openai":
        e = a.get("error") if isinstance(a, dict) else None
        return isinstance(e, dict) and set(a) == {"error"} and \
            isinstance(e.get("code"), str) and \
            isinstance(e.get("message"), str) and \
            set(e) <= {"code", "message", "retry_after"}
    if fmt == "mcp":
        return isinstance(a, dict) and a.get("isError") is True and \
            set(a) == {"content", "isError"} and \
            isinstance(a["content"], list) and len(a["content"]) == 1 and \
            a["content"][0].get("type") == "text" and \
            isinstance(a["content"][0].get("text"), str)
    return isinstance(a, dict) and isinstance(a.get("status"), int) and \
        isinstance(a.get("detail"), str) and \
        set(a) <= {"status", "detail", "retry_after"}


def is_error(fmt, a):
    if fmt == "openai":
        return isinstance(a, dict) and set(a) == {"error"}
    if fmt == "mcp":
        return isinstance(a, dict) and a.get("isError") is True
    return isinstance(a, dict) and set(a) <= {"status", "detail",
                                               "retry_after"} and \
        "status" in a and "detail" in a


def match_step(task, tool, args):
    for s in task["steps"]:
        if s["tool"] == tool and isinstance(args, dict) and all(
                k in args and same(args[k], v)
                for k, v in s["arguments"].items()):
            return s["step"]
    return 0


def names_write(args, wargs):
    checkable = [k for k, v in args.items() if scalar(v)]
    return bool(checkable) and all(
        k in wargs and same(wargs[k], args[k]) for k in checkable)


def place(answer, args):
    for k, v in args.items():
        answer[k] = v


class File:
    def __init__(self, line):
        self.format = line["format"]
        self.doc = Doc(line["root"])
        self.tools = {t["name"]: t for t in line["tools"]}

    def arg_names(self, tool):
        s = self.doc.deref(self.tools[tool]["input"])
        props = s.get("properties") if isinstance(s, dict) else None
        return set(props) if isinstance(props, dict) else set()


def episode(f, line):
    t = line["task"]
    calls = line["calls"]
    arm = t["arm"]
    bad = arm.startswith("baddata:") and arm != "baddata:b0"
    shows_asked = (bad or arm.startswith("lagged:")) and \
        arm not in ("lagged:g0", "baddata:b0")
    lagged = arm == "lagged:g1"
    depth = t["depth"]
    where = "%s seed %s %s" % (line["file"], t["seed"], arm)

    # the task's own rules once a task: on the script's episode
    once = line.get("policy") == "script"
    for s in t["steps"] if once else []:
        f.doc.walk(s["arguments"], f.tools[s["tool"]]["input"])

    hands = t["steps"][0].get("hands") if depth >= 2 else None
    if hands and once:
        named = hands["field"] in f.arg_names(t["steps"][0]["tool"])
        said = hands.get("field_named_as_argument") is True
        case("hands.field_said", named == said,
             "%s: %s hands field %r, %s" % (
                 where, t["steps"][0]["tool"], hands["field"],
                 "an argument, not said" if named else "said, not one"))
        v = hands["value"]
        word = r"(?<![A-Za-z0-9])" + re.escape(v) + r"(?![A-Za-z0-9])" \
            if isinstance(v, str) else None
        case("request.unsaid",
             not word or not re.search(word, t["request"], re.I),
             "%s: %r in the request" % (where, v))
    if arm == "baddata:b3" and once:
        case("baddata.b3_small",
             one_small_thing(hands["value"], t["baddata"]["wrong"]),
             "%s: %r becomes %r" % (where, hands["value"],
                                    t["baddata"]["wrong"]))

    writes = []  # the arguments of accepted writes, in order
    done = set()
    bad_fired = lag_fired = target_landed = False
    target_again = False
    for i, c in enumerate(calls):
        tool, args, ans = c["tool"], c["arguments"], c["answer"]
        td = f.tools[tool]
        step = match_step(t, tool, args)
        err = is_error(f.format, ans)
        what = "%s call %d %s %s -> %s" % (
            where, i + 1, tool, json.dumps(args, sort_keys=True),
            json.dumps(ans, sort_keys=True))
        if err:
            case("errors.idiom", error_shape(f.format, ans), what)
        if td["kind"] == "write" and step >= 3 and (step - 1) not in done:
            case("steps.not_ready", err and c["error"] == "not_ready", what)
            continue
        if td["kind"] == "write" and step == depth and step in done and \
                not err:
            case("store.duplicate", c["effect"] == "duplicate_write", what)
            target_again = True
        landed = c["effect"] in ("expected_write", "side_effect",
                                 "duplicate_write")
        if err and not landed:
            continue
        first_bad = bad and step == 1 and not bad_fired and not err
        if td["kind"] == "read":
            asked = args
            if first_bad:
                bad_fired = True
                asked = t["baddata"].get("arguments", args)
            expect = {}
            if shows_asked:
                place(expect, asked)
            reflected = False
            if not (first_bad and "arguments" in t["baddata"]):
                lag_now = False
                for w, target in writes:
                    if not names_write(args, w):
                        continue
                    if target and lagged and not lag_fired:
                        lag_fired = lag_now = True
                    if target and lag_now:
                        continue
                    place(expect, w)
                    reflected = True
            hand = None
            if step == 1 and hands:
                hand = (t["baddata"]["wrong"] if first_bad
                        else hands["value"])
                expect[hands["field"]] = hand
                case("hands.in_field",
                     isinstance(ans, dict) and
                     same(ans.get(hands["field"]), hand), what)
            if td["output"] is None:
                plain(what, ans, expect)
                if shows_asked:
                    keep = {k: v for k, v in asked.items()
                            if not (hands and step == 1 and
                                    k == hands["field"] and
                                    hands.get("field_named_as_argument"))}
                    case("answers.says_asked", isinstance(ans, dict) and all(
                        k in ans and same(ans[k], v) for k, v in keep.items()
                        if not any(k in w for w, _ in writes)), what)
            elif not shows_asked and not reflected and step != 1:
                f.doc.walk(ans, td["output"])
        else:
            if td["output"] is None and not err:
                expect = {}
                place(expect, args)
                plain(what, ans, expect)
            if landed:
                writes.append((args, step == depth))
                if step:
                    done.add(step)
        if td["kind"] == "read" and step:
            done.add(step)
    del target_again, target_landed


def plain(what, ans, placed):
    """answers.plain: ok true, an id, and what was placed, nothing else."""
    ok = isinstance(ans, dict) and ans.get("ok") is True
    if ok and "id" in placed:
        ok = same(ans.get("id"), placed["id"])
    elif ok:
        ok = isinstance(ans.get("id"), str)
    if ok:
        want = set(placed) | {"ok", "id"}
        ok = set(ans) == want and all(
            same(ans[k], v) for k, v in placed.items() if k != "ok")
    case("answers.plain", ok, what)


def main(argv):
    show = 3
    if argv[:1] == ["--show"]:
        show = int(argv[1])
        argv = argv[2:]
    streams = [open(p, encoding="utf-8") for p in argv] or [sys.stdin]
    files = {}
    for stream in streams:
        for text in stream:
            line = json.loads(text)
            if line["type"] == "file":
                files[line["file"]] = File(line)
            elif line["type"] == "episode":
                episode(files[line["file"]], line)
    names = RULES + sorted(k for k in counts if k not in RULES)
    failed = False
    for r in names:
        n, m = counts.get(r, [0, 0])
        print("%s: %d cases, %d deviations" % (r, n, m))
        failed |= m > 0
    for r in names:
        for what in shown.get(r, [])[:show]:
            print("  %s: %s" % (r, what[:600]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
