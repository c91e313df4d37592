"""Checks a tools/list result of `replay serve` against the tool table
`replay tools --json` prints for the same file (tests/serve.sh):

  - the same tools, in the same order, and readOnlyHint true exactly for
    the reads;
  - every inputSchema, and every outputSchema, has "type": "object" at its
    top, and stands alone: each "$ref" in it is "#/$defs/NAME" and NAME is
    in that schema's own "$defs";
  - every tool has a description.

    serve_check.py LIST.json TOOLS.json LABEL

Prints "LABEL: N tools, every schema standalone", or one line per fault
and exits 1."""
import json
import sys


def refs(node, out):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                out.append(v)
            else:
                refs(v, out)
    elif isinstance(node, list):
        for v in node:
            refs(v, out)
    return out


def standalone(schema, where, faults):
    if not isinstance(schema, dict) or schema.get("type") != "object":
        faults.append(f"{where}: the top is not \"type\": \"object\"")
        return
    defs = schema.get("$defs", {})
    for r in refs(schema, []):
        if not r.startswith("#/$defs/") or r[len("#/$defs/"):] not in defs:
            faults.append(f"{where}: $ref {r!r} is not one of its own $defs")


def main():
    listed = json.load(open(sys.argv[1]))["result"]["tools"]
    table = json.load(open(sys.argv[2]))
    label = sys.argv[3]
    faults = []
    names = [t["name"] for t in listed]
    want = [t["name"] for t in table["tools"]]
    if names != want:
        faults.append(f"names {names} != replay tools' {want}")
    for got, t in zip(listed, table["tools"]):
        where = f"{label}: {t['name']}"
        hint = got.get("annotations", {}).get("readOnlyHint")
        if hint is not (t["kind"] == "read"):
            faults.append(f"{where}: readOnlyHint {hint} for a {t['kind']}")
        if not got.get("description"):
            faults.append(f"{where}: no description")
        standalone(got.get("inputSchema"), where + " inputSchema", faults)
        if "outputSchema" in got:
            standalone(got["outputSchema"], where + " outputSchema", faults)
    if faults:
        print("\n".join(faults))
        sys.exit(1)
    print(f"{label}: {len(listed)} tools, every schema standalone")


if __name__ == "__main__":
    main()
