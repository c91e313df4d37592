#!/usr/bin/env python3
"""Generated tool files for the contract hash differential test.

Usage: python3 gen_docs.py OUTDIR --count N --seed S

Writes N documents into OUTDIR, most of them twice: NNNNN.json and
NNNNN.yaml are two renderings (different bytes) of one document, so both
must get the same contract hash.  A document that only YAML can say (dates,
tags, anchors...) gets its JSON twin from what the oracle made of the YAML;
a document that must be refused may have one file or two.  OUTDIR/MANIFEST.tsv
lists every file with its category and what the oracle says of it.

Everything follows from the seed: document i draws from its own
random.Random("S/i"), so a document can be regenerated alone (--first i
--count 1) and nothing depends on hash randomisation.

Every file is put to the oracle (imported) as it is written, so that each
one either hashes or is refused with a clean error; a rendering that says
something else than its document, or an unexpected failure of the oracle,
is a bug here and stops the run.  The one exception is safe_dump's YAML
rendering, checked with libyaml when PyYAML has it (ten times faster than
the pure loader): hash_differential.sh checks it with the oracle's own
answers, which must give both files of a document one contract hash.
"""

import argparse
import codecs
import decimal
import json
import math
import os
import struct
import sys
import random

import yaml

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

MAX_DEPTH = 90  # well under the C side's 256 and PyYAML's recursion limit

# ------------------------------------------------------------------ words

WORDS = """order customer id name amount reason channel email sms query notes
status type function description parameters properties required items enum
format minimum maximum default example title version info paths get post put
delete patch operationId summary responses content schema tools inputSchema
outputSchema annotations readOnlyHint destructiveHint result jsonrpc refund
search list notify invoice user account price currency date time limit offset
page token weather city country unit value label tag tags filter sort field
message code error detail retry after strict additionalProperties pattern
minLength maxLength multipleOf oneOf anyOf allOf nullable deprecated servers
url components schemas security scheme bearer api key header cookie path
in style explode items uniqueItems minItems maxItems const readOnly writeOnly
""".split()

TOOLISH_NAMES = ["get_order", "search_orders", "refund_order", "listChannels",
                 "notify-customer", "lookup.user", "createInvoice", "fetch_w",
                 "delete_account", "query", "x", "get__double", "Show-Item"]

ODD_KEYS = ["a.b", "a[0]", "with space", "", " ", "$ref", "x-custom", "@type",
            "#/defs", "a:b", "- dash", "? q", "key\twith tab", "new\nline",
            "ключ", "名前", "é", "e\u0301", "😀", "\u2028", "\x00", "\x7f",
            "\"quoted\"", "back\\slash", "/slash/", "{}", "[]", "*", "&", "!",
            "%", "@", "`", "|", ">", "'", "...", "---", "<<", "=", "~",
            "null", "true", "False", "yes", "NO", "on", "200", "404",
            "1.5", "-0", "2001-12-14", "1e5", "0x1F", "012", "1:30", ".inf",
            ".nan", "1_000", "\ufeff", "\u00a0", "\u0085", "tab\t", "\r\n",
            # code point order, which is not UTF-16 order
            "\ue000", "\uffef", "\U00010000", "\U0001f600x", "a\x00", "a",
            "ab", "B", "b", "Z", "e", "\x7f", "\x1f", "\u00e9"]

YAML_SPECIAL_STRINGS = [
    "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off",
    "OFF", "y", "n", "Y", "N", "true", "True", "TRUE", "false", "False",
    "~", "null", "Null", "NULL", "NuLL", "", " ", "1e5", "1.0e5", "1.0e+5",
    "1E5", "0x1F", "0x_1f", "012", "09", "0o17", "0b101", "0b", "1:30",
    "190:20:30", "1:60", "2001-12-14", "2001-12-14 21:59:43.10 -5",
    "2001-12-14T21:59:43Z", "2001-1-2", "2001-02-30", ".inf", "-.inf",
    "+.inf", ".Inf", ".NaN", ".nan", "NaN", "nan", "inf", "Infinity",
    "-Infinity", "=", "<<", "1_000", "+5", "-0", "+0", "0.", "-.5", ".5",
    "1.", "1__0", "1_", "_1", "3.0", "3.0.3", "1.0", "100.00", " leading",
    "trailing ", "#hash", "a # b", "a #b", "a: b", "a:b", "- x", "-x", "[x]",
    "{x}", "*x", "&x", "!x", "!!str", "|", ">", "%x", "@x", "`x", "'", '"',
    "---", "...", "--- x", "? x", ": x", ",x", "x,", "\t", "\n", "a\n",
    "multi\nline\n\ntext", "trailing\n\n", " \n ", "\r", "\u2028", "\u0085",
]

NON_ASCII = ["é", "ü", "ß", "ñ", "Ω", "я", "中文", "日本語", "한국어", "😀",
             "𝄞", "\u2028", "\u2029", "\u00a0", "\u0085", "\ufeff", "\u200b",
             "e\u0301", "\U0010fffd", "\ufffd", "\u00ff", "\u0100", "\u07ff",
             "\u0800", "\uffef", "\U00010000", "ﬁ", "İ", "ǅ", "\u202e"]

SPECIAL_INTS = [0, 1, -1, 7, 10, 100, 200, 404, 2**31 - 1, -2**31, 2**32,
                2**53, 2**53 + 1, 2**63 - 1, 2**63, -2**63, -2**63 - 1,
                2**64 - 1, 2**64, 2**64 + 1, -2**64 - 1,
                1234567890123456789012345678901234567890,
                -9999999999999999999999999999999999999999, 10**100 + 7]

SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 100.0, 1e-7, 1e-5, 1e-4,
                  0.0001, 0.00011, 123456789012345678.0, 1e15, 1e16,
                  9999999999999998.0, 1e21, 1e22, 1e23, 5e-324, 1e-320,
                  2.2250738585072014e-308, 2.225073858507201e-308,
                  1.7976931348623157e308, 0.1 + 0.2, 0.1, 0.3, 2.5, 3.14159,
                  123456.789, 1e100, 1.5e300, 9007199254740993.0,
                  4.35, 0.01, 99.99, 1e-10, 6.02214076e23, 1.0e-4 * 3]


def chance(rng, p):
    return rng.random() < p


def word(rng):
    return rng.choice(WORDS)


def words(rng, lo=1, hi=6):
    return " ".join(word(rng) for _ in range(rng.randint(lo, hi)))


def rand_char(rng):
    r = rng.random()
    if r < 0.4:
        return chr(rng.randint(0x20, 0x7e))
    if r < 0.5:
        return chr(rng.choice(list(range(0x20)) + [0x7f]))
    if r < 0.65:
        return chr(rng.randint(0x80, 0x7ff))
    if r < 0.85:
        c = rng.randint(0x800, 0xfffd)
        return chr(c if not 0xd800 <= c <= 0xdfff else 0x4e2d)
    return chr(rng.randint(0x10000, 0x10ffff))


def rand_string(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(["_", "-", "", " ", "."]).join(
            word(rng) for _ in range(rng.randint(1, 3)))
    if r < 0.45:
        return words(rng, 3, 12).capitalize() + rng.choice([".", "!", "?", ""])
    if r < 0.57:
        return rng.choice(YAML_SPECIAL_STRINGS)
    if r < 0.65:
        return "".join(rng.choice(['"', "\\", "/", "\b", "\f", "\n", "\r",
                                   "\t", "a", " ", "é"])
                       for _ in range(rng.randint(1, 10)))
    if r < 0.75:
        return "".join(rng.choice(NON_ASCII + [word(rng), " "])
                       for _ in range(rng.randint(1, 5)))
    if r < 0.8:
        return ""
    if r < 0.99:
        return "".join(rand_char(rng) for _ in range(rng.randint(1, 20)))
    return words(rng, 10, 60)


def rand_key(rng):
    r = rng.random()
    if r < 0.7:
        return word(rng)
    if r < 0.8:
        return rng.choice(TOOLISH_NAMES)
    if r < 0.93:
        return rng.choice(ODD_KEYS)
    return rand_string(rng)


def float_from_bits(rng):
    while True:
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if math.isfinite(x):
            return x


def rand_int(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(SPECIAL_INTS)
    if r < 0.75:
        return rng.randint(-1000, 100000)
    n = rng.getrandbits(rng.randint(1, 200))
    return -n if chance(rng, 0.3) else n


def rand_float(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice(SPECIAL_FLOATS)
    if r < 0.5:
        return float_from_bits(rng)
    if r < 0.7:
        return float("%de%d" % (rng.randint(-10**6, 10**6),
                                rng.randint(-30, 30)))
    if r < 0.85:
        return rng.randint(-100000, 100000) / rng.choice([1, 10, 100, 1000])
    return float(rng.randint(-10**6, 10**6))


def rand_scalar(rng):
    r = rng.random()
    if r < 0.5:
        return rand_string(rng)
    if r < 0.65:
        return rand_int(rng)
    if r < 0.8:
        return rand_float(rng)
    if r < 0.9:
        return rng.choice([True, False])
    return None


# ------------------------------------------------------------ value trees

class Budget:
    def __init__(self, nodes):
        self.left = nodes

    def take(self, n=1):
        self.left -= n
        return self.left > 0


def rand_tree(rng, budget, depth, max_depth):
    budget.take()
    if depth >= max_depth or budget.left <= 0 or (depth and chance(rng, 0.35)):
        return rand_scalar(rng)
    n = rng.randint(0, 6)
    if chance(rng, 0.55):
        d = {}
        while n and budget.left > 0:
            d[rand_key(rng)] = rand_tree(rng, budget, depth + 1, max_depth)
            n -= 1
        return d
    v = []
    while n and budget.left > 0:
        v.append(rand_tree(rng, budget, depth + 1, max_depth))
        n -= 1
    return v


def rand_schema(rng, budget, depth):
    budget.take(2)
    t = rng.choice(["string", "string", "number", "integer", "boolean",
                    "array", "object", "object", ["string", "null"]])
    if depth > 4 or budget.left <= 0:
        t = rng.choice(["string", "integer", "number"])
    s = {"type": t}
    if budget.left <= 0:
        return s
    if chance(rng, 0.6):
        s["description"] = rand_string(rng) if chance(rng, 0.2) else words(
            rng, 3, 10)
    if t == "string":
        if chance(rng, 0.3):
            s["enum"] = [rand_string(rng) for _ in range(rng.randint(1, 4))]
        if chance(rng, 0.3):
            s["minLength"] = rng.randint(0, 6)
            s["maxLength"] = rng.randint(6, 64)
        if chance(rng, 0.2):
            s["format"] = rng.choice(["date", "date-time", "email", "uuid"])
        if chance(rng, 0.15):
            s["pattern"] = rng.choice(["^[A-Z]-\\d{4}$", "^\\w+@\\w+$",
                                       "[\\u0000-\\u001f]", "a/b\\/c"])
        if chance(rng, 0.2):
            s["example"] = rng.choice(["2001-12-14", "A-3317", "yes", "1e5"])
    elif t in ("number", "integer"):
        if chance(rng, 0.5):
            s["minimum"] = rand_float(rng) if t == "number" and chance(
                rng, 0.5) else rng.randint(-10, 10)
        if chance(rng, 0.3):
            s["maximum"] = rand_int(rng) if t == "integer" else rand_float(rng)
        if chance(rng, 0.2):
            s["multipleOf"] = rng.choice([0.01, 0.5, 1, 1.0, 100.0, 1e-5])
        if chance(rng, 0.2):
            s["default"] = rand_int(rng) if t == "integer" else rand_float(rng)
    elif t == "array":
        s["items"] = rand_schema(rng, budget, depth + 1)
        if chance(rng, 0.3):
            s["minItems"] = rng.randint(0, 3)
    elif t == "object" or isinstance(t, list):
        props = {}
        for _ in range(rng.randint(0, 5)):
            if budget.left <= 0:
                break
            props[rand_key(rng) if chance(rng, 0.2) else word(rng)] = \
                rand_schema(rng, budget, depth + 1)
        s["properties"] = props
        if props and chance(rng, 0.6):
            s["required"] = rng.sample(sorted(props), rng.randint(
                1, len(props)))
        if chance(rng, 0.2):
            s["additionalProperties"] = chance(rng, 0.5)
    if chance(rng, 0.05):
        s["x-extra"] = rand_tree(rng, budget, depth + 1, depth + 4)
    budget.take(len(s))
    return s


def tool_name(rng):
    return rng.choice(TOOLISH_NAMES) if chance(rng, 0.5) else "_".join(
        word(rng) for _ in range(rng.randint(1, 3)))


def openai_tools(rng, budget):
    tools = []
    for _ in range(rng.randint(0, 5)):
        if tools and budget.left <= 0:
            break
        budget.take(5)
        params = rand_schema(rng, budget, 0)
        if chance(rng, 0.8):
            params["type"] = "object"
            params.setdefault("properties", {})
        if chance(rng, 0.85):
            t = {"type": "function", "function": {
                "name": tool_name(rng), "description": words(rng, 1, 6),
                "parameters": params}}
            if chance(rng, 0.2):
                t["function"]["strict"] = True
        else:
            t = {"type": "function", "name": tool_name(rng),
                 "parameters": params}
        tools.append(t)
    return tools


def mcp_tools(rng, budget):
    tools = []
    for _ in range(rng.randint(0, 5)):
        if tools and budget.left <= 0:
            break
        budget.take(4)
        t = {"name": tool_name(rng), "description": words(rng, 1, 6),
             "inputSchema": rand_schema(rng, budget, 0)}
        if chance(rng, 0.4):
            t["outputSchema"] = rand_schema(rng, budget, 0)
        if chance(rng, 0.4):
            t["annotations"] = {"readOnlyHint": chance(rng, 0.5),
                                "title": words(rng, 1, 3)}
        tools.append(t)
    r = rng.random()
    if r < 0.5:
        return {"tools": tools}
    if r < 0.8:
        return {"jsonrpc": "2.0", "id": rng.randint(0, 99),
                "result": {"tools": tools}}
    return tools


def openapi_doc(rng, budget):
    paths = {}
    for _ in range(rng.randint(1, 4)):
        if paths and budget.left <= 0:
            break
        path = "/" + "/".join(rng.choice([word(rng), "{id}", "v1"])
                              for _ in range(rng.randint(1, 3)))
        item = {}
        for method in rng.sample(["get", "post", "put", "delete", "patch"],
                                 rng.randint(1, 3)):
            if item and budget.left <= 0:
                break
            budget.take(4)
            op = {"operationId": tool_name(rng), "summary": words(rng, 1, 5)}
            if chance(rng, 0.5) and budget.left > 0:
                op["parameters"] = [
                    {"name": word(rng), "in": rng.choice(["path", "query"]),
                     "required": chance(rng, 0.5),
                     "schema": rand_schema(rng, budget, 2)}
                    for _ in range(rng.randint(1, 3))]
            responses = {}
            for code in rng.sample(["200", "201", "204", "400", "404",
                                    "default"], rng.randint(1, 3)):
                budget.take(2)
                resp = {"description": words(rng, 1, 5)}
                if chance(rng, 0.6) and budget.left > 0:
                    resp["content"] = {"application/json": {
                        "schema": rand_schema(rng, budget, 1)}}
                responses[code] = resp
            op["responses"] = responses
            item[method] = op
        paths[path] = item
    doc = {rng.choice(["openapi", "swagger"]): rng.choice(
        ["3.0.3", "3.1.0", "2.0"]),
        "info": {"title": words(rng, 1, 4), "version": rng.choice(
            ["1.0.0", "1.0", "2024-01-01"])},
        "paths": paths}
    if chance(rng, 0.4) and budget.left > 0:
        doc["components"] = {"schemas": {word(rng).capitalize(): rand_schema(
            rng, budget, 1) for _ in range(rng.randint(1, 3))}}
    return doc


def deep_doc(rng):
    depth = rng.randint(20, MAX_DEPTH)
    v = rand_scalar(rng)
    for _ in range(depth):
        v = [v] if chance(rng, 0.5) else {word(rng): v}
    return v


# ------------------------------------------------------------ JSON writer

class Raw:
    """Text put into a JSON rendering as it is (NaN, a bad escape...)."""

    def __init__(self, text):
        self.text = text


def u_escape(code, rng):
    if code > 0xffff:
        code -= 0x10000
        return (u_escape(0xd800 + (code >> 10), rng) +
                u_escape(0xdc00 + (code & 0x3ff), rng))
    text = "%04x" % code
    r = rng.random()
    if r < 0.3:
        text = text.upper()
    elif r < 0.4:
        text = "".join(c.upper() if chance(rng, 0.5) else c for c in text)
    return "\\u" + text


SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f",
                 "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def json_float_text(x, rng):
    r = repr(x)
    p = rng.random()
    if p < 0.45:
        return r
    if p < 0.55:
        t = "%.17g" % x
        return t if any(c in t for c in ".e") else t + ".0"
    if p < 0.6 and abs(x) < 1e30 and (x == 0 or abs(x) > 1e-30):
        t = str(decimal.Decimal(x))  # the exact binary value
        return t if any(c in t for c in ".eE") else t + ".0"
    sign = "-" if r.startswith("-") else ""
    t = decimal.Decimal(r).as_tuple()
    digits = "".join(map(str, t.digits)).lstrip("0") or "0"
    exp = t.exponent + len("".join(map(str, t.digits))) - len(digits)
    # the value is digits * 10**exp; write d.ddd * 10**e for a chosen point
    k = rng.randint(0, len(digits))
    if k == 0:
        mant = "0." + "0" * rng.randint(0, 2)
        e = exp + len(digits) + (len(mant) - 2)
        mant += digits
    else:
        mant = digits[:k]
        frac = digits[k:] + "0" * rng.randint(0, 3)
        if frac or chance(rng, 0.5):
            mant += "." + (frac or "0")
        e = exp + len(digits) - k
    if e == 0 and "." in mant and chance(rng, 0.5):
        return sign + mant
    etext = str(abs(e)).zfill(rng.choice([1, 1, 2, 3]))
    return (sign + mant + rng.choice("eE") +
            ("-" if e < 0 else rng.choice(["", "+"])) + etext)


class JsonStyle:
    def __init__(self, rng):
        self.rng = rng
        self.indent = rng.choice([None, None, None, "", "  ", "    ", "\t",
                                  " "])
        self.item_sep = rng.choice([",", ", ", ",", " , "])
        self.key_sep = rng.choice([":", ": ", ": ", " : ", ":\t"])
        self.ensure_ascii = chance(rng, 0.35)
        self.sort = chance(rng, 0.3)
        self.fancy = chance(rng, 0.4)  # escapes drawn per character
        self.slash = chance(rng, 0.2)
        self.noise = 0.05 if chance(rng, 0.15) else 0.0
        self.dup = rng.choice([0.0, 0.0, 0.0, 0.05, 0.3])
        self.dup_junk = chance(rng, 0.1)  # NaN and the like, overwritten
        self.float_variety = chance(rng, 0.5)
        self.minus_zero = chance(rng, 0.2)

    def ws(self):
        if self.noise and chance(self.rng, self.noise):
            return self.rng.choice([" ", "\t", "\n", "\r\n", "\r", "  \n\t"])
        return ""


def json_string(s, st):
    rng = st.rng
    if not st.fancy and not st.slash:
        return json.dumps(s, ensure_ascii=st.ensure_ascii)
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append(SHORT_ESCAPES[ch] if chance(rng, 0.9)
                       else u_escape(o, rng))
        elif ch == "/" and st.slash:
            out.append("\\/")
        elif o < 0x20:
            out.append(SHORT_ESCAPES[ch] if ch in SHORT_ESCAPES and chance(
                rng, 0.7) else u_escape(o, rng))
        elif o < 0x7f:
            out.append(u_escape(o, rng) if st.fancy and chance(rng, 0.03)
                       else ch)
        elif st.ensure_ascii or (st.fancy and chance(rng, 0.2)):
            out.append(u_escape(o, rng))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def junk_value(st):
    rng = st.rng
    if st.dup_junk and chance(rng, 0.6):
        return Raw(rng.choice(["NaN", "Infinity", "-Infinity", "1e400",
                               '"\\ud800"', '"\\udc00\\ud800"',
                               '[NaN, {"x": -Infinity}]', "-1e999"]))
    return rand_scalar(rng)


def json_text(v, st, level=0):
    rng = st.rng
    if isinstance(v, Raw):
        return v.text
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        if v == 0 and st.minus_zero and chance(rng, 0.5):
            return "-0"
        return str(v)
    if isinstance(v, float):
        return json_float_text(v, rng) if st.float_variety else repr(v)
    if isinstance(v, str):
        return json_string(v, st)
    if st.indent is None:
        nl = inner = ""
    else:
        nl = "\n" + st.indent * level
        inner = "\n" + st.indent * (level + 1)
    if isinstance(v, dict):
        if not v:
            return "{" + st.ws() + "}"
        items = list(v.items())
        if st.sort:
            items.sort()
        if st.dup and chance(rng, st.dup):
            j = rng.randrange(len(items))
            items.insert(j, (items[j][0], junk_value(st)))
        parts = [inner + st.ws() + json_string(k, st) + st.ws() + st.key_sep +
                 st.ws() + json_text(item, st, level + 1) + st.ws()
                 for k, item in items]
        return "{" + st.item_sep.join(parts) + nl + "}"
    if not v:
        return "[" + st.ws() + "]"
    parts = [inner + st.ws() + json_text(item, st, level + 1) + st.ws()
             for item in v]
    return "[" + st.item_sep.join(parts) + nl + "]"


def encode_json(text, rng):
    r = rng.random()
    if r < 0.82:
        return text.encode("utf-8")
    if r < 0.87:
        return codecs.BOM_UTF8 + text.encode("utf-8")
    enc = rng.choice(["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
    bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
           "utf-32-le": codecs.BOM_UTF32_LE,
           "utf-32-be": codecs.BOM_UTF32_BE}[enc]
    return (bom if chance(rng, 0.5) else b"") + text.encode(enc)


def render_json(v, rng, st=None):
    st = st or JsonStyle(rng)
    text = json_text(v, st)
    if chance(rng, 0.15):
        text = rng.choice([" ", "\n", "\t", "\r\n", "  \n"]) + text
    if chance(rng, 0.5):
        text += rng.choice(["\n", "\n", " ", "\n\n", "\t\r\n"])
    return encode_json(text, rng)


# ------------------------------------------------------------ YAML dumper

def render_yaml(v, rng, want=None):
    """safe_dump with drawn options.  safe_dump writes some strings (with
    U+0085 in them, for one) so that they read back otherwise; when want is
    given and the first rendering misses it, every scalar is double-quoted."""
    data = _render_yaml(v, rng)
    if want is not None and verdict(data) != want:
        data = yaml.safe_dump(v, default_style='"', allow_unicode=chance(
            rng, 0.5), sort_keys=False, width=rng.choice([40, 100000]),
            default_flow_style=rng.choice([True, False])).encode("utf-8")
    return data


def _render_yaml(v, rng):
    opts = dict(default_flow_style=rng.choice([False, False, True, None]),
                indent=rng.choice([2, 2, 2, 3, 4, 8]),
                width=rng.choice([20, 60, 80, 80, 120, 100000]),
                allow_unicode=chance(rng, 0.6),
                explicit_start=chance(rng, 0.3),
                explicit_end=chance(rng, 0.1),
                sort_keys=chance(rng, 0.2))
    if chance(rng, 0.05):
        opts["canonical"] = True
    r = rng.random()
    if r < 0.92:
        data = yaml.safe_dump(v, **opts).encode("utf-8")
        return codecs.BOM_UTF8 + data if r < 0.03 else data
    return yaml.safe_dump(v, encoding=rng.choice(["utf-16-le", "utf-16-be"]),
                          **opts)


# ------------------------------------------------------ hand-written YAML

def plain_text(rng):
    """A plain scalar that is safe in block and flow context."""
    r = rng.random()
    if r < 0.6:
        return words(rng, 1, 4)
    if r < 0.75:
        return rng.choice(["é", "中文", "ключ", "😀", "naïve", "a\u00a0b"]) \
            + " " + word(rng)
    if r < 0.9:
        return word(rng) + rng.choice(["-", "_", ".", "/", "'", '"', "(",
                                       "@", "%", "=", "!", "*", ":x", "#x"]) \
            + word(rng)
    return rng.choice(["1e5", "1.0e5", "-.5", "+.5", "0o17", "09", "1:60",
                       "2001-1-2", "yes please", "y", "n", "NaN", "nan",
                       "Infinity", "1_", "0x", "1.2.3", "3.0.3", "v1",
                       "1e+5", "0b2", "0xg", "+", ".", "1,5"])


def dq_text(s, rng):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "/" and chance(rng, 0.3):
            out.append("\\/")
        elif o < 0x20 or o == 0x7f or ch in "\x85\u2028\u2029\ufeff" or \
                0xfffe <= o <= 0xffff or (0x80 <= o < 0xa0):
            named = {"\0": "\\0", "\a": "\\a", "\b": "\\b", "\t": "\\t",
                     "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r",
                     "\x1b": "\\e", "\x85": "\\N", "\u2028": "\\L",
                     "\u2029": "\\P"}
            if ch == "\t" and chance(rng, 0.3):
                out.append(ch)
            elif ch in named and chance(rng, 0.6):
                out.append(named[ch])
            elif o <= 0xff and chance(rng, 0.5):
                out.append("\\x%02x" % o)
            else:
                out.append("\\u%04X" % o)
        elif o > 0x7e and chance(rng, 0.3):
            if ch == "\xa0" and chance(rng, 0.5):
                out.append("\\_")
            elif o > 0xffff or chance(rng, 0.3):
                out.append("\\U%08x" % o)
            elif o <= 0xff:
                out.append("\\x%02X" % o)
            else:
                out.append("\\u%04x" % o)
        elif ch == " " and chance(rng, 0.1):
            out.append("\\ ")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def sq_text(s):
    return "'" + s.replace("'", "''") + "'"


def yaml_safe_string(rng):
    """A string without surrogates, for quoting."""
    s = rand_string(rng)
    return "".join(c for c in s if not 0xd800 <= ord(c) <= 0xdfff)


def int_text(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice(["0", "-0", "+0", "+5", "-17", "0b101", "-0b1_01",
                           "017", "-017", "0_17", "0x1F", "0x_1f", "-0xFF",
                           "1_000", "190:20:30", "-1:30", "+1:0", "1:5",
                           "9223372036854775808", "18446744073709551617",
                           "0x7fffffffffffffffff", "1__0", "00", "0000_1",
                           "0b0", "-0x0", "404", "200"])
    n = rand_int(rng) if chance(rng, 0.5) else rng.randint(0, 5000)
    sign = "-" if n < 0 else rng.choice(["", "", "", "+"])
    n = abs(n)
    style = rng.choice(["dec", "dec", "dec", "under", "hex", "oct", "bin",
                        "sexa"])
    if style == "hex":
        body = "0x" + "".join(c.upper() if chance(rng, 0.3) else c
                              for c in "%x" % n)
    elif style == "oct" and n > 0:
        body = "0" + "%o" % n
    elif style == "bin":
        body = "0b" + "{:b}".format(n)
    elif style == "sexa" and n >= 60:
        parts = []
        m = n
        while m >= 60 and len(parts) < 4:
            parts.append(m % 60)
            m //= 60
        parts = ["%02d" % p if chance(rng, 0.7) else str(p)
                 for p in reversed(parts)]
        body = str(m) + ":" + ":".join(parts)
    else:
        body = str(n)
    if style == "under" or chance(rng, 0.1):
        head = 2 if body[:2] in ("0x", "0b") else 1
        chars = list(body[head:])
        for _ in range(rng.randint(1, 3)):
            chars.insert(rng.randint(0, len(chars)), "_")
        body = body[:head] + "".join(chars)
        if body.startswith("_") or ":_" in body or "_:" in body:
            body = str(n)
    return sign + body


def float_text(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(["1.5", "1.0e+5", "1.e-3", ".5", "1_0.5",
                           "6.8523015e+5", "685.230_15e+03", "685_230.15",
                           "190:20:30.15", "-1.5", "+1.5", "0.0", "-0.0",
                           "1.", "3.", "1.7976931348623157e+308",
                           "4.9e-324", "2.5E-3", "0.1", "100.00", "1.0",
                           "-0.", "1:30.5", "0.000_1", "1.5_", "12.e+02",
                           "1e+5.0"])
    x = rand_float(rng)
    t = repr(x)
    if "e" in t:
        mant, e = t.split("e")
        if "." not in mant:
            mant += "." + "0" * rng.randint(0, 2)
        t = mant + rng.choice("eE") + e
    if chance(rng, 0.2) and not t.startswith("-"):
        t = "+" + t
    if chance(rng, 0.1):
        i = t.index(".")
        if i > 1 and t[i - 1].isdigit() and t[i - 2].isdigit():
            t = t[:i - 1] + "_" + t[i - 1:]
    return t


def month_days(y, m):
    if m == 2:
        return 29 if (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)) else 28
    return 30 if m in (4, 6, 9, 11) else 31


def timestamp_text(rng, date_only=None):
    y = rng.choice([rng.randint(1970, 2040), rng.randint(1, 9999)])
    m = rng.randint(1, 12)
    d = rng.randint(1, month_days(y, m))
    if chance(rng, 0.03):
        y, m, d = 2000, 2, 29
    if date_only is None:
        date_only = chance(rng, 0.5)
    if date_only:
        return "%04d-%02d-%02d" % (y, m, d)
    date = "%04d-%s-%s" % (y, rng.choice(["%02d", "%d"]) % m,
                           rng.choice(["%02d", "%d"]) % d)
    if len(date) < 10 and chance(rng, 0.5):
        date = "%04d-%02d-%02d" % (y, m, d)
    sep = rng.choice(["T", "t", " ", "  "])
    hour = rng.choice(["%02d", "%d"]) % rng.randint(0, 23)
    text = "%s%s%s:%02d:%02d" % (date, sep, hour, rng.randint(0, 59),
                                 rng.randint(0, 59))
    if chance(rng, 0.6):
        text += "." + "".join(rng.choice("0123456789")
                              for _ in range(rng.randint(0, 9)))
    tz = rng.choice(["", "", "Z", " Z", "+05:30", "-5", " -05", "+0", "-00:00",
                     "+14:00", "-12:45", " +1", "+05:75", "-23:59"])
    return text + tz


def block_scalar(rng, ind, parent):
    """Header and content lines of a | or > scalar indented by ind, whose
    parent node sits in column parent."""
    style = rng.choice("|>")
    chomp = rng.choice(["", "", "-", "+"])
    lines = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.15:
            lines.append("")
        elif r < 0.25 and lines:
            lines.append(ind + "  " + words(rng, 1, 4))
        elif r < 0.3:
            lines.append(ind + rng.choice(["# not a comment", "- not a list",
                                           "key: not a map", "'quoted'",
                                           "\"dq\\n\"", "tab\there", "é😀"]))
        else:
            lines.append(ind + words(rng, 1, 8))
    step = len(ind) - parent  # what an indentation indicator would say
    if lines and lines[0].startswith(ind + " ") and not 0 < step < 10:
        lines[0] = ind + lines[0].lstrip()
    if lines and lines[0].startswith(ind + " "):
        header = style + str(step) + chomp
    elif chance(rng, 0.1) and 0 < step < 10:
        header = style + chomp + str(step)
    else:
        header = style + chomp
    if chance(rng, 0.3):
        lines += [""] * rng.randint(1, 2)
    return header, lines


class HandYaml:
    """Writes YAML by hand, with what safe_dump never writes."""

    def __init__(self, rng):
        self.rng = rng
        self.step = rng.choice([2, 2, 2, 4, 3, 1])
        self.anchors = []  # (name, kind) of finished anchored nodes
        self.n_anchors = 0
        self.budget = Budget(rng.choice([8, 12, 20, 32, 100]))
        self.max_depth = rng.randint(2, 8)
        self.comments = chance(rng, 0.4)
        self.openapi = chance(rng, 0.3)

    def new_anchor(self):
        self.n_anchors += 1
        return self.rng.choice(["a", "anchor", "x-", "base_", "A"]) + str(
            self.n_anchors)

    def comment(self):
        return " # " + words(self.rng, 0, 4) if (
            self.comments and chance(self.rng, 0.15)) else ""

    # scalars: the text of a scalar usable in flow and block context
    def scalar(self):
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            return plain_text(rng)
        if r < 0.4:
            return dq_text(yaml_safe_string(rng), rng)
        if r < 0.45:
            return sq_text("".join(c for c in yaml_safe_string(rng)
                                   if c == "\t" or ord(c) >= 0x20 and
                                   ord(c) != 0x7f and not 0x80 <= ord(c) < 0xa0
                                   and c not in "\n\r\x85\u2028\u2029\ufeff"
                                   and ord(c) < 0xfffe))
        if r < 0.55:
            return int_text(rng)
        if r < 0.63:
            return float_text(rng)
        if r < 0.69:
            return rng.choice(["yes", "Yes", "YES", "no", "No", "NO", "true",
                               "True", "TRUE", "false", "False", "FALSE",
                               "on", "On", "ON", "off", "Off", "OFF"])
        if r < 0.73:
            return rng.choice(["~", "null", "Null", "NULL", "''", '""'])
        if r < 0.8:
            return timestamp_text(rng)
        if r < 0.88:
            return self.tagged()
        if r < 0.92:
            return rng.choice(["'yes'", '"200"', "'2001-12-14'", '"~"',
                               "'1.5'", '"1e5"', "'0x1F'", "'<<'", "'='"])
        return rng.choice(["1e5", "1.0e5", "1.0e+5", "-.5", "0o17", "1:30",
                           "<<x", "=x", "x=", "!!str", "-0.0", "0.", "+.inf2"])

    def tagged(self):
        rng = self.rng
        return rng.choice([
            "!!str 123", "!!str yes", "!!str ~", "!!str 2001-12-14",
            "!!str 1.5", '!!int "42"', "!!int '0x1F'", "!!int -0b11",
            "!!int 0o17", "!!int --5", "!!int -+5", "!!int ' 42'",
            "!!int 1_0", "!!float 1", "!!float '1e5'", "!!float -+1.5",
            "!!float --1.5", "!!float 1_000", "!!float 190:20:30",
            "!!float '  2.5 '", "!!bool yes", "!!bool OFF", "!!bool 'True'",
            "!!null ''", "!!null x", "!!null", "!!timestamp 2001-12-14",
            "!!timestamp '2001-12-14 1:02:03.5 +1'", "! 123", "! yes",
            "!<tag:yaml.org,2002:str> 12", "!<tag:yaml.org,2002:int> '7'",
            "!!str", '!!str ""', "!!float 1.5e3", "!!int 190:20:30",
            "!!float .5", '!!float "-0"', "!!int 0x_F",
        ])

    def key(self):
        rng = self.rng
        r = rng.random()
        if r < 0.65:
            return word(rng) if chance(rng, 0.8) else plain_text(rng)
        if r < 0.75:
            return rng.choice(["200", "404", "201", "default", "500", "0",
                               "-1", "1.5", "~", "null", "true", "false",
                               "yes",
                               "no", "2001-12-14", "2001-12-14 12:00:00",
                               "0x10", "0b11", "1:30", "1.0e+3", "'200'",
                               '"404"', "'true'", "!!str 1", "!!int '3'"])
        if r < 0.85:
            return dq_text(yaml_safe_string(rng)[:100], rng)
        if r < 0.9:
            return sq_text(word(rng) + "'" + word(rng))
        return rng.choice(["$ref", "x-name", "a.b", "a[0]", "with space",
                           "é", "ключ", "'with: colon'", '"# hash"', "'-'",
                           '"? q"', "'[x]'", "'{}'", "'*'", '"&"'])

    def flow(self, depth):
        rng = self.rng
        self.budget.take()
        r = rng.random()
        if self.anchors and r < 0.07:
            return "*" + rng.choice(self.anchors)[0]
        if depth >= self.max_depth or self.budget.left <= 0 or r < 0.6:
            return self.scalar()
        anchor = self.new_anchor() if chance(rng, 0.08) else None
        pre = "&" + anchor + " " if anchor else ""
        sp = rng.choice(["", " "])
        if chance(rng, 0.5):
            items = []
            keys = set()
            for _ in range(rng.randint(0, 4)):
                k = self.key()
                if k in keys:
                    continue
                keys.add(k)
                if chance(rng, 0.1):
                    items.append(k)  # a key with no value
                else:
                    items.append(k + ": " + self.flow(depth + 1))
            if self.map_anchors() and chance(rng, 0.1):
                items.insert(0, "<<: *" + rng.choice(self.map_anchors()))
            trail = "," if items and chance(rng, 0.1) else ""
            text = "{" + sp + ", ".join(items) + trail + sp + "}"
            kind = "map"
        else:
            items = [self.flow(depth + 1) for _ in range(rng.randint(0, 5))]
            if chance(rng, 0.1):
                items.append(self.key() + ": " + self.scalar())  # [a: b]
            trail = "," if items and chance(rng, 0.1) else ""
            text = "[" + sp + ", ".join(items) + trail + sp + "]"
            kind = "seq"
        if anchor:
            self.anchors.append((anchor, kind))
        return pre + text

    def map_anchors(self):
        return [name for name, kind in self.anchors if kind == "map"]

    def value(self, ind, parent, depth):
        """(head, lines, kind): head follows `key:` or `- ` written in
        column parent; lines come after, indented at least by ind."""
        rng = self.rng
        self.budget.take()
        r = rng.random()
        leaf = depth >= self.max_depth or self.budget.left <= 0
        if self.anchors and r < 0.05:
            return " *" + rng.choice(self.anchors)[0], [], "alias"
        if not leaf and r < 0.45:
            anchor = self.new_anchor() if chance(rng, 0.1) else None
            kind = "map" if r < 0.3 else "seq"
            tag = "!!" + kind if chance(rng, 0.1) else ""
            head = (" &" + anchor if anchor else "") + (" " + tag if tag
                                                        else "")
            if kind == "map":
                lines = self.block_map(ind, depth + 1)
            else:
                lines = self.block_seq(ind, depth + 1)
            if anchor:
                self.anchors.append((anchor, kind))
            return head, lines, kind
        if r < 0.5 and not leaf:
            return " " + self.flow(depth), [], "flow"
        if r < 0.55:
            header, lines = block_scalar(rng, ind, parent)
            return " " + header + self.comment(), lines, "block"
        if r < 0.58:
            return "", [], "empty"
        if r < 0.61:
            cont = words(rng, 1, 3)
            return (" " + words(rng, 1, 3),
                    [ind + cont] + ([ind + word(rng)] if chance(rng, 0.3)
                                    else []), "multiline")
        if r < 0.63:
            return (' "' + words(rng, 1, 3) + rng.choice(["", "\\", " "]),
                    [ind + words(rng, 1, 2)] + ([""] if chance(rng, 0.4)
                                                else []) +
                    [ind + word(rng) + '"'], "multiline")
        anchor = self.new_anchor() if chance(rng, 0.06) else None
        text = self.scalar()
        if anchor:
            self.anchors.append((anchor, "scalar"))
            text = "&" + anchor + " " + text
        return " " + text + self.comment(), [], "scalar"

    def block_map(self, ind, depth):
        rng = self.rng
        child = ind + " " * self.step
        lines = []
        keys = set()
        n = rng.randint(1, 6)
        merge_at = rng.randrange(n) if self.map_anchors() and chance(
            rng, 0.2) else -1
        for i in range(n):
            if i == merge_at:
                names = self.map_anchors()
                if len(names) > 1 and chance(rng, 0.4):
                    picked = rng.sample(names, 2)
                    lines.append(ind + "<<: [*" + ", *".join(picked) + "]")
                else:
                    lines.append(ind + "<<: *" + rng.choice(names))
            if self.comments and chance(rng, 0.05):
                lines.append(" " * rng.randint(0, len(ind)) + "# " +
                             words(rng, 0, 5))
            k = self.key()
            scalars = [n for n, kind in self.anchors if kind == "scalar"]
            if scalars and chance(rng, 0.05):
                k = "*" + rng.choice(scalars) + " "  # an alias as a key
            if k in keys:
                continue
            keys.add(k)
            if self.openapi and depth <= 3 and chance(rng, 0.2):
                k = rng.choice(["200", "404", "201", "default", "'200'"])
                if k in keys:
                    continue
                keys.add(k)
            head, sub, kind = self.value(child, len(ind), depth)
            if kind == "alias" and chance(rng, 0.3):
                k += " "  # `key : *a`
            if chance(rng, 0.05) and kind in ("scalar", "flow", "alias"):
                lines.append(ind + "? " + k)
                lines.append(ind + ":" + head)
                continue
            if kind == "seq" and not head and chance(rng, 0.5):
                # the same sequence, written in the key's own column
                sub = [line[self.step:] if line.startswith(child) else line
                       for line in sub]
            lines.append(ind + k + ":" + head)
            lines.extend(sub)
        return lines

    def block_seq(self, ind, depth):
        rng = self.rng
        child = ind + "  "
        lines = []
        for _ in range(rng.randint(1, 5)):
            head, sub, kind = self.value(child, len(ind), depth)
            if not head and sub and kind in ("map", "seq") and \
                    sub[0].startswith(child) and not sub[0].startswith(
                        child + " "):
                lines.append(ind + "- " + sub[0][len(child):])
                lines.extend(sub[1:])
            else:
                lines.append(ind + "-" + (head if head else ""))
                lines.extend(sub)
        return lines

    def document(self):
        rng = self.rng
        r = rng.random()
        if r < 0.65:
            body = self.block_map("", 0)
        elif r < 0.9:
            body = self.block_seq("", 0)
        elif r < 0.95:
            body = [self.flow(0)]
        else:
            head, sub, kind = self.value("  ", 0, 0)
            body = ["---" + head] + sub if head else sub
        pre = []
        if chance(rng, 0.2):
            pre.append("# " + words(rng, 1, 6))
        if body and body[0].startswith("---"):
            pass
        elif chance(rng, 0.05):
            pre += ["%YAML 1.1", "---"]
        elif chance(rng, 0.25):
            pre.append(rng.choice(["---", "--- # start", "--- "]))
        post = []
        if chance(rng, 0.1):
            post.append("...")
        if chance(rng, 0.1):
            post.append("# end")
        lines = pre + body + post
        if lines and chance(rng, 0.02):  # PyYAML takes tabs in scalars only
            i = rng.randrange(len(lines))
            lines[i] = lines[i].replace(": ", ":\t", 1) if chance(
                rng, 0.5) else lines[i] + "\t"
        eol = "\r\n" if chance(rng, 0.05) else "\n"
        text = eol.join(lines)
        if not chance(rng, 0.05):
            text += eol
        return text


# ------------------------------------------------- refusals and look-alikes

def refusal_files(rng):
    """Documents both implementations must refuse, as (ext, bytes)."""
    base = word(rng)
    cases = [
        ("json", '{"%s": NaN}' % base),
        ("json", '[1, Infinity]'),
        ("json", '{"a": {"b": [-Infinity]}}'),
        ("json", '[1e400]'),
        ("json", '{"x": -1.5e309}'),
        ("json", '{"%s": "\\ud800"}' % base),
        ("json", '{"\\udfff": 1}'),
        ("json", '["\\ude00\\ud83d"]'),
        ("json", '["a\\ud800b"]'),
        ("json", '{"a": 1}}'),
        ("json", '{"a": [1, 2}'),
        ("json", '{"a": "x\x01y"}'),
        ("json", "// comment\n{\"a\": 1}"),
        ("yaml", "%s: .nan\n" % base),
        ("yaml", "a: [.inf]\n"),
        ("yaml", "a: -.Inf\n"),
        ("yaml", "a: !!float nan\n"),
        ("yaml", "a: !!float -inf\n"),
        ("yaml", "data: !!binary aGVsbG8=\n"),
        ("yaml", "? !!binary aGk=\n: v\n"),
        ("yaml", "s: !!set {a, b}\n"),
        ("yaml", "s: !!set {}\n"),
        ("yaml", "a: !foo x\n"),
        ("yaml", "a: !foo {b: 1}\n"),
        ("yaml", "%TAG !e! tag:example.com,2000:\n---\na: !e!thing 1\n"),
        ("yaml", "a: !!python/tuple [1, 2]\n"),
        ("yaml", "200: a\n'200': b\n"),
        ("yaml", '1: a\n"1": b\n'),
        ("yaml", "true: a\n'true': b\n"),
        ("yaml", "~: a\n'null': b\n"),
        ("yaml", "1.5: a\n'1.5': b\n"),
        ("yaml", "2001-12-14: a\n'2001-12-14': b\n"),
        ("yaml", "responses:\n  200: {description: ok}\n  \"200\": {}\n"),
        ("yaml", "yes: 1\n'true': 2\n"),
        ("yaml", "0x10: a\n'16': b\n"),
        ("yaml", "a: 2001-02-30\n"),
        ("yaml", "a: 2001-13-01\n"),
        ("yaml", "a: 0000-01-01\n"),
        ("yaml", "a: 2001-12-14 24:00:00\n"),
        ("yaml", "a: 2001-12-14 12:60:00\n"),
        ("yaml", "a: 2001-12-14 12:00:60\n"),
        ("yaml", "a: 2001-12-14 12:00:00 +24:00\n"),
        ("yaml", "a: 2001-12-14 12:00:00 +23:60\n"),
        ("yaml", 'a: "\\ud800"\n'),
        ("yaml", 'a: "\\ud83d\\ude00"\n'),
        ("yaml", "a: &x 1\nb: &x 2\n"),
        ("yaml", "a: *nope\n"),
        ("yaml", "a: &x [1, *x]\n"),
        ("yaml", "example: =\n"),
        ("yaml", "a: [=]\n"),
        ("yaml", "a: 1\n---\nb: 2\n"),
        ("yaml", "a: 1\n---\n"),
        ("yaml", "--- a\n--- b\n"),
        ("yaml", "? [a, b]\n: c\n"),
        ("yaml", "{[1]: 2}\n"),
        ("yaml", "? {a: 1}\n: c\n"),
        ("yaml", "<<: 5\na: 1\n"),
        ("yaml", "b: &b [1]\n<<: *b\n"),
        ("yaml", "a: &a {x: 1}\nb:\n  <<: [*a, 5]\n"),
        ("yaml", "a: !!int abc\n"),
        ("yaml", "a: !!int ''\n"),
        ("yaml", "a: !!float x\n"),
        ("yaml", "a: !!float ''\n"),
        ("yaml", "a: !!float '-'\n"),
        ("yaml", "a: !!bool maybe\n"),
        ("yaml", "a: !!timestamp nope\n"),
        ("yaml", "a: !!int 0b_\n"),
        ("yaml", "a: 0b_\n"),
        ("yaml", "a: 0x_\n"),
        ("yaml", "a: !!int 1.5\n"),
        ("yaml", "a: !!str [1]\n"),
        ("yaml", "a: !!map [1]\n"),
        ("yaml", "a: !!omap [1]\n"),
        ("yaml", "a: !!omap {a: 1}\n"),
        ("yaml", "a: !!pairs [{a: 1, b: 2}]\n"),
        ("yaml", "a:\n\tb: 1\n"),
        ("yaml", "a: [1, 2\n"),
        ("yaml", "a: 'unclosed\n"),
        ("yaml", "a: b: c\n"),
        ("yaml", "- a\nb: c\n"),
        ("yaml", "a: 1\n a: 2\n"),
        ("yaml", "a: \x01\n"),
        ("yaml", "a: \x7f\n"),
        ("yaml", "a: \ufffe\n"),
        ("yaml", ".nan: 1\n"),
        ("yaml", "{.inf: 1}\n"),
        ("yaml", "a: !!float 1e400\n"),
        ("yaml", "a: 1.0e+400\n"),
        ("yaml", "a: !!str\n  b: 1\n"),
        ("yaml", "a: |\n  x\n b: 1\n"),
        ("yaml", "a: !!int 99999999999999999999999999999.0\n"),
        ("yaml", "a: !!set\n  ? x\n"),
        ("yaml", "a: !!binary |\n  aGVs\n  bG8=\n"),
        ("yaml", "a: *\n"),
        ("yaml", "key: !!null x\nkey2: !!nonsense\n"),
        ("yaml", "a:\t1\n"),
        ("yaml", "a: 1\t\n"),
        ("yaml", "a: 1 \t# c\n"),
        ("yaml", "- \tx\n"),
        ("yaml", "a: x\ty\n"),
        ("yaml", "\ta: 1\n"),
        ("yaml", "a: 1\n\t# c\n"),
        ("yaml", "a: [1,\t2]\n"),
        ("yaml", "a: {b:\t1}\n"),
        ("yaml", "a\t: 1\n"),
        ("yaml", "a: >\n  x\n\t\n"),
        ("yaml", "[!!str, x]\n"),
        ("yaml", "{a: !!str, b: 1}\n"),
        ("yaml", '{"a":\t1, "b": "\t"}\n'),
    ]
    bytes_cases = [
        ("yaml", b"a: \xff\n"),
        ("yaml", b"a: caf\xc3\n"),
        ("yaml", b"a: \xc0\xaf\n"),
        ("yaml", b"a: \xed\xa0\x80\n"),
        ("json", b'{"a": "\xc3\x28"}'),
        ("json", b'{"a": "\xf4\x90\x80\x80"}'),
        ("json", b'{"a": "\xe0\x80\xaf"}'),
        ("json", b'"\xed\xa0\x80"'),
        ("json", codecs.BOM_UTF16_LE + '{"a": 1}'.encode("utf-16-le")[:-1]),
        ("json", codecs.BOM_UTF32_LE + '{"a": NaN}'.encode("utf-32-le")),
        ("json", codecs.BOM_UTF32_BE + "a: 1\n".encode("utf-32-be")),
        ("json", "[NaN]".encode("utf-16-be")),
        ("json", b"\x00"),
    ]
    r = rng.random()
    if r < 0.75:
        ext, text = rng.choice(cases)
        data = text.encode("utf-8")
    elif r < 0.9:
        ext, data = rng.choice(bytes_cases)
    else:
        # a bad value placed deep inside a tool file
        doc = openai_tools(rng, Budget(30)) or [{}]
        bad = rng.choice(["NaN", "Infinity", "-Infinity", '"\\udc00"',
                          "1e999"])
        st = JsonStyle(rng)
        text = json_text(doc, st)
        i = text.rfind("}")
        text = text[:i] + (', "bad": ' if text[i - 1] != "{" else
                           '"bad": ') + bad + text[i:]
        return [("json", text.encode("utf-8"))]
    files = [(ext, data)]
    # the same document in the other syntax, when it has one
    twin = {"NaN": ".nan", "Infinity": ".inf", "-Infinity": "-.inf"}
    if ext == "json" and chance(rng, 0.5):
        for k, v in twin.items():
            if data == ('{"%s": %s}' % (base, k)).encode():
                files.append(("yaml", ("%s: %s\n" % (base, v)).encode()))
    return files


def lookalike_files(rng):
    """Documents that look refused but are accepted."""
    w = word(rng)
    cases = [
        ("json", '{"a": NaN, "a": 1}'),
        ("json", '{"a": [Infinity, -Infinity], "b": 2, "a": "ok"}'),
        ("json", '{"a": 1e400, "a": 2}'),
        ("json", '{"%s": "\\ud800", "%s": "fine"}' % (w, w)),
        ("json", '{"x": {"y": "\\udc00\\ud800"}, "x": null}'),
        ("json", '["\\ud83d\\ude00", "\\uD834\\uDD1E"]'),
        ("json", '{"a": -0, "b": -0.0, "c": 0e0, "d": -0E-0}'),
        ("json", '"NaN"'),
        ("json", '{"NaN": "Infinity"}'),
        ("json", "[1e-400, -1e-400, 2.4703282292062328e-324, "
                 "2.4703282292062327e-324, 1e0000000000000000000001, "
                 "1.7976931348623158e308, 9007199254740993, "
                 "9007199254740993.0]"),
        ("yaml", "[1.0e-400, -1.0e-400, 1.7976931348623158e+308]\n"),
        ("yaml", "{1: a, true: c}\n"),
        ("yaml", "1: a\n1.0: b\n"),
        ("yaml", "0: x\nfalse: y\n"),
        ("yaml", "~: a\nnull: b\n"),
        ("yaml", "yes: 1\ntrue: 2\non: 3\n"),
        ("yaml", "2001-12-14: a\n2001-12-14: b\n"),
        ("yaml", "a: 1\na: 2\n"),
        ("yaml", "a: .nan\na: 1\n"),
        ("yaml", "a: !!binary aGk=\na: 1\n"),
        ("yaml", "a: !!set {x}\na: [x]\n"),
        ("yaml", "<<: {a: .nan}\na: 1\n"),
        ("yaml", "b: &b {x: .inf, y: 1}\nc:\n  <<: *b\n  x: 0\nb: 2\n"),
        ("yaml", "a: !!null .nan\nb: !!str .inf\nc: '.nan'\n"),
        ("yaml", "x: !!null\n  y\n"),
        ("yaml", "\"200\": a\n201: b\n"),
        ("yaml", "a:\n  200: x\nb:\n  '200': y\n"),
        ("yaml", "a: 2000-02-29\nb: 1900-02-28\n"),
        ("yaml", "a: 2001-12-14 12:00:00 -0\n"),
        ("yaml", "a: 2001-12-14 12:00:00 +05:75\n"),
        ("yaml", "a: 2001-12-14 12:00:00.\n"),
        ("yaml", "a: 2001-12-14t01:02:03.1234567891Z\n"),
        ("yaml", "a: !!omap [{a: 1}, {b: 2}]\n"),
        ("yaml", "a: !!pairs [{a: 1}, {a: 2}]\n"),
        ("yaml", "a: [a: b, c: d]\n"),
        ("yaml", "a: 1_\nb: 0_\nc: 1:0:0\n"),
        ("yaml", "a: !!int ١٢\n"),
        ("yaml", "a: !!float ١.٥\n"),
        ("yaml", ""),
        ("yaml", "   \n"),
        ("yaml", "# only a comment\n"),
        ("yaml", "---\n"),
        ("yaml", "--- |\n  text\n...\n"),
        ("yaml", "a: 1\n...\n"),
        ("yaml", "%YAML 1.1\n--- !!map\n? a\n: b\n"),
        ("yaml", 'a: "\\U0001F600 \\x41 \\N\\_\\L\\P"\n'),
        ("yaml", "key: !!null x\n"),
        ("yaml", "a: &x 1\nb: *x\nc: &y [*x, *x]\nd: *y\n"),
        ("yaml", "a: &x\nb: *x\n"),
        ("yaml", "a: |\n \tx\n"),
        ("yaml", "a: \"x\ty\"\nb: 'x\ty'\n"),
        ("yaml", "a: \"x\n\ty\"\n"),
        ("yaml", "a: 1 # c\t\n"),
        ("yaml", "a: |\n  x\t\n"),
        ("yaml", "<<: {}\n"),
        ("yaml", "a: &e {}\nb:\n  <<: [*e]\n  c: 1\n"),
    ]
    bytes_cases = [
        ("json", b'{"a": "\xed\xa0\x80", "a": 1}'),
        ("json", b'{"a": "\xed\xb0\x80x", "b": 2, "a": []}'),
        ("json", b"\xef\xbb\xbf" + b'{"a": 1}'),
        ("json", codecs.BOM_UTF16_BE + '{"é": 1}'.encode("utf-16-be")),
        ("json", "1".encode("utf-16-le")),
        ("json", "7".encode("utf-32-be")),
        ("json", '{"a": "\U0001F600"}'.encode("utf-16-le")),
        ("yaml", codecs.BOM_UTF16_LE + "a: é\n".encode("utf-16-le")),
        ("yaml", codecs.BOM_UTF16_BE + "- 1\n- yes\n".encode("utf-16-be")),
        ("yaml", codecs.BOM_UTF8 + b"a: 1\n"),
        ("json", b"  {\"a\": 1}\r\n\t "),
    ]
    if chance(rng, 0.8):
        ext, text = rng.choice(cases)
        return [(ext, text.encode("utf-8"))]
    return [rng.choice(bytes_cases)]


def jsonish_files(rng, value):
    """JSON text that Python's json refuses, so that YAML reads it."""
    st = JsonStyle(rng)
    st.ensure_ascii = False
    st.fancy = False
    st.dup = 0.0
    text = json_text(value, st)
    muts = ["tab", "trailing_comma", "hash_comment", "number", "single",
            "bare_key", "trailing_doc_end", "nan_yaml"]
    mut = rng.choice(muts)
    if mut == "tab" and '": "' in text:
        i = text.index('": "') + 4
        text = text[:i] + "\t" + text[i:]
    elif mut == "trailing_comma" and text.rstrip().endswith(("]", "}")):
        text = text.rstrip()
        j = len(text) - 1
        if text[j - 1] not in "[{":
            text = text[:j] + ", " + text[j:]
    elif mut == "hash_comment":
        text = "# " + words(rng) + "\n" + text
    elif mut == "number":
        text = rng.choice(["[1e5, 1.0E+5, 0x1F, 017, +5, .5, 1_000]",
                           '{"a": 1e5, "b": 0o17, "c": 2001-12-14}',
                           '{"x": [yes, no, ~, .inf2]}'])
    elif mut == "single":
        text = "{'%s': '%s'}" % (word(rng), word(rng))
    elif mut == "bare_key":
        text = "{%s: 1, b: [true, false, null]}" % word(rng)
    elif mut == "trailing_doc_end":
        text += "\n...\n"
    elif mut == "nan_yaml":
        text = '{"a": "\t", "b": NaN}'
    return text.encode("utf-8")


# -------------------------------------------------------------- documents

def canonical_of(value):
    return json.dumps(oracle.convert(value), sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


_verdicts = {}  # the oracle's answers for the document being made
_unasked = set()  # its files checked with libyaml only


def verdict(data):
    """The oracle's canonical bytes, or the exception it refused with."""
    if data not in _verdicts:
        _verdicts[data] = _verdict(data)
    return _verdicts[data]


def _verdict(data):
    try:
        return oracle.canonical(data)
    except (oracle.Refused, yaml.YAMLError, ValueError, TypeError, KeyError,
            AttributeError, IndexError, OverflowError) as e:
        return e
    except RecursionError as e:
        # Only the few-byte refusal `a: &x [1, *x]` may recurse; anything
        # else would depend on the interpreter's stack.
        if len(data) > 40:
            raise AssertionError("generated file recursed: %r" % data[:200])
        return e


def said_by_libyaml(data):
    """What data says when libyaml reads it (PyYAML's C loader): a quick
    check of safe_dump's output, which the pure loader reads the same but
    ten times slower."""
    if not getattr(yaml, "__with_libyaml__", False):
        return verdict(data)
    try:
        return canonical_of(yaml.load(data, Loader=yaml.CSafeLoader))
    except Exception as e:
        return e


def twins(rng, value, category):
    """A value rendered as JSON and as YAML; both must say value.  The
    JSON rendering is checked with the oracle.  The YAML one is checked with
    libyaml, and with the oracle only when libyaml disagrees; the test
    script then checks, from the oracle's own answers, that the two files
    of a document say the same."""
    want = canonical_of(value)
    j = render_json(value, rng)
    y = _render_yaml(value, rng)
    if said_by_libyaml(y) == want:
        _unasked.add(y)
    else:
        y = render_yaml(value, rng, want)
    for ext, data in (("json", j), ("yaml", y)):
        got = want if data in _unasked else verdict(data)
        if got != want:
            raise AssertionError("%s %s rendering differs:\nwant %r\ngot %r\n"
                                 "file %r" % (category, ext, want, got,
                                              data[:2000]))
    return [("json", j), ("yaml", y)]


def with_json_twin(rng, ext, data):
    """data plus a JSON (or YAML) rendering of what the oracle made of it."""
    got = verdict(data)
    files = [(ext, data)]
    if isinstance(got, bytes):
        value = json.loads(got)
        other = "yaml" if ext == "json" else "json"
        twin = render_json(value, rng) if other == "json" else render_yaml(
            value, rng, got)
        if verdict(twin) != got:
            raise AssertionError("twin differs: %r vs %r" % (data, twin))
        files.append((other, twin))
    return files


def make_document(rng):
    """(category, [(ext, bytes), ...]) for one document."""
    r = rng.random()
    nodes = rng.choice([6, 12, 20, 32, 48]) if chance(rng, 0.97) \
        else rng.randint(100, 250)
    budget = Budget(nodes)
    if r < 0.12:
        return "openai", twins(rng, openai_tools(rng, budget), "openai")
    if r < 0.22:
        return "mcp", twins(rng, mcp_tools(rng, budget), "mcp")
    if r < 0.32:
        budget.left = min(nodes, 32) if nodes <= 64 else nodes
        return "openapi", twins(rng, openapi_doc(rng, budget), "openapi")
    if r < 0.45:
        v = rand_tree(rng, budget, 0, rng.randint(1, 12))
        return "tree", twins(rng, v, "tree")
    if r < 0.51:
        v = [rand_float(rng) for _ in range(rng.randint(1, 60))] + \
            [rand_int(rng) for _ in range(rng.randint(0, 10))]
        if chance(rng, 0.5):
            v = {"n%d" % i: x for i, x in enumerate(v)}
        return "numbers", twins(rng, v, "numbers")
    if r < 0.57:
        v = {rand_key(rng): rand_string(rng) for _ in range(rng.randint(
            1, 20))}
        return "strings", twins(rng, v, "strings")
    if r < 0.59:
        v = rng.choice([deep_doc(rng), rand_scalar(rng), {}, [], "", [[]],
                        {"": {}},
                        rand_string(rng)[:50] * rng.randint(10, 400)])
        return "edge", twins(rng, v, "edge")
    if r < 0.86:
        text = HandYaml(rng).document()
        return "handyaml", with_json_twin(rng, "yaml", text.encode("utf-8"))
    if r < 0.91:
        data = jsonish_files(rng, rand_tree(rng, Budget(30), 0, 5))
        return "jsonish", with_json_twin(rng, "json", data)
    if r < 0.97:
        return "refusal", refusal_files(rng)
    return "lookalike", lookalike_files(rng)


def describe(got):
    if got is None:
        return "hash (as its JSON twin, by libyaml)"
    if isinstance(got, bytes):
        return "hash"
    text = " ".join(str(got).split())[:100]
    return "refused: %s: %s" % (type(got).__name__, text)


def generate(args):
    outdir, seed, i, width = args
    rng = random.Random("%s/%d" % (seed, i))
    _verdicts.clear()
    _unasked.clear()
    try:
        category, files = make_document(rng)
    except Exception as e:
        raise RuntimeError("document %d of seed %s: %s: %s"
                           % (i, seed, type(e).__name__, e)) from e
    rows = []
    for ext, data in files:
        name = "%0*d.%s" % (width, i, ext)
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
        got = None if data in _unasked else verdict(data)
        rows.append("%s\t%s\t%s\n" % (name, category, describe(got)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--first", type=int, default=0,
                    help="number of the first document (to regenerate one)")
    cpus = len(os.sched_getaffinity(0)) if hasattr(
        os, "sched_getaffinity") else os.cpu_count() or 1
    ap.add_argument("--jobs", type=int, default=min(cpus, 4))
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    width = max(5, len(str(args.first + args.count - 1)))
    work = [(args.outdir, args.seed, i, width)
            for i in range(args.first, args.first + args.count)]
    if args.jobs > 1 and args.count >= 200:
        import multiprocessing
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(generate, work, chunksize=50)
    else:
        results = [generate(w) for w in work]
    with open(os.path.join(args.outdir, "MANIFEST.tsv"), "w",
              encoding="utf-8") as f:
        f.write("file\tcategory\toracle\n")
        for rows in results:
            f.writelines(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
