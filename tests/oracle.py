#!/usr/bin/env python3
"""Reference contract hash of tool files, for comparison with `replay hash`.

Usage: python3 oracle.py [--canonical] FILE...   (FILE may be - for stdin)

The rule (SPEC.md 2.3, after the reference page "Your tool file's contract
hash"):

  1. b = the file's bytes; its file hash is sha256(b).
  2. doc = json.loads(b); on ValueError (which covers JSONDecodeError and
     UnicodeDecodeError) doc = yaml.safe_load(b) instead.  Any other failure
     (a YAML error, a RecursionError, ...) refuses the file.
  3. Convert doc to JSON's own terms: a dict key that is not text becomes
     its JSON text (True -> "true", None -> "null", 1 -> "1", 1.5 -> "1.5",
     a date -> its isoformat()); a NaN or infinite key, or a key of any other
     type, refuses the file, as do two keys of one dict that become the same
     text.  A date or datetime value becomes its isoformat(); a tuple becomes
     a list; everything else is kept as it is.  (A cycle, which a recursive
     YAML alias makes, ends here in a RecursionError.)
  4. canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"),
     ensure_ascii=False, allow_nan=False).encode("utf-8"); NaN, infinities,
     bytes, sets and lone surrogates fail here and refuse the file.
  5. The contract hash is sha256(canonical), lower-case hex.

For a JSON file step 3 would change nothing and is skipped, so the JSON
half is exactly the reference page's three lines of Python.

Output per file, as `replay hash` prints it: `FILE_SHA256  CONTRACT_SHA256
PATH` on stdout, or with --canonical the canonical text and a newline.  A
refused file gets one line `PATH: reason` on stderr, and the exit status is
then 1.
"""

import datetime
import hashlib
import json
import math
import sys

import yaml


class Refused(Exception):
    pass


def key_text(k):
    if isinstance(k, str):
        return k
    if isinstance(k, bool):  # before int: bool is an int
        return "true" if k else "false"
    if k is None:
        return "null"
    if isinstance(k, int):
        return str(k)
    if isinstance(k, float):
        if math.isnan(k) or math.isinf(k):
            raise Refused("a key is %r, which JSON cannot carry" % k)
        return repr(k)
    if isinstance(k, (datetime.date, datetime.datetime)):
        return k.isoformat()
    raise Refused("a key of type %s cannot become text" % type(k).__name__)


def convert(v):
    if isinstance(v, dict):
        out = {}
        for k, item in v.items():
            text = key_text(k)
            if text in out:
                raise Refused("two keys become one: %r" % text)
            out[text] = convert(item)
        return out
    if isinstance(v, (list, tuple)):
        return [convert(item) for item in v]
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return v


def canonical(b):
    try:
        doc = json.loads(b)  # JSON text has nothing to convert
    except ValueError:
        doc = convert(yaml.safe_load(b))
    return json.dumps(doc, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False).encode("utf-8")


def encode(text):
    """UTF-8, with a path's undecodable bytes given back as they were."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")


def one_line(e):
    text = " ".join(str(e).split()) or type(e).__name__
    return "%s: %s" % (type(e).__name__, text)


def main(argv):
    show_canonical = False
    paths = []
    opts_done = False
    for a in argv:
        if not opts_done and a == "--":
            opts_done = True
        elif not opts_done and a == "--canonical":
            show_canonical = True
        else:
            paths.append(a)
    if not paths:
        sys.stderr.write("usage: oracle.py [--canonical] FILE...\n")
        return 2
    out = sys.stdout.buffer
    status = 0
    for path in paths:
        try:
            if path == "-":
                b = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as f:
                    b = f.read()
            text = canonical(b)
        except Exception as e:  # every failure refuses the file
            out.flush()
            sys.stderr.buffer.write(encode("%s: %s\n" % (path, one_line(e))))
            sys.stderr.flush()
            status = 1
            continue
        if show_canonical:
            out.write(text + b"\n")
        else:
            out.write(encode("%s  %s  %s\n" % (
                hashlib.sha256(b).hexdigest(),
                hashlib.sha256(text).hexdigest(), path)))
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
