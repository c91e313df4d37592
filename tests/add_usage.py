"""Gives a night's end lines the usage a harness would log.

    add_usage.py SCALE < NIGHT.jsonl > NIGHT-WITH-USAGE.jsonl

Every end line gains input_tokens, output_tokens and duration drawn from
a hash of its run and episode (so the same night always gets the same
figures), SCALE times larger in tokens; one episode in 7 logs no tokens
and one in 5 no duration, as real logs leave figures out.  Other lines
pass through unchanged, byte for byte."""
import hashlib
import json
import sys

scale = float(sys.argv[1])
for line in sys.stdin:
    if not line.startswith('{"type":"end"'):
        sys.stdout.write(line)
        continue
    end = json.loads(line)
    h = hashlib.sha256(("%s|%s" % (end["run"], end["episode"])).encode())
    d = h.digest()
    if d[0] % 7:
        end["input_tokens"] = int((500 + int.from_bytes(d[1:3], "big") % 1500)
                                  * scale)
        end["output_tokens"] = int((50 + d[3] % 200) * scale)
    if d[4] % 5:
        end["duration"] = round(1 + int.from_bytes(d[5:7], "big") % 2000 / 100,
                                2)
    sys.stdout.write(json.dumps(end, separators=(",", ":")) + "\n")
