"""The output blocks of the documents, made again by the programs.

    docs_blocks.py WORKDIR FILE...

A block the documents show as a program's output is marked, on the line
before its opening fence, with the command that prints it:

    <!-- output: card --db night.db sloppy -->
    ```
    card: sloppy
    ...
    ```

The command runs in WORKDIR (bash -c, stdout and stderr together, the
programs on PATH) and its output must be the block: line for line, where
a line of the block that is "..." alone (indented or not) stands for any
lines, none included.  Prints one line a block ("FILE:LINE: ok" or what
differs, with the command's output) and exits 1 when any differs.  With
UPDATE_DOCS=1 a block without "..." is rewritten with the output."""
import os
import re
import subprocess
import sys

MARK = re.compile(r"^<!-- output: (.*) -->$")


def matches(block, out):
    """whether out's lines are block's, each "..." line standing for any"""
    memo = {}

    def at(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(block):
            r = j == len(out)
        elif block[i].strip() == "...":
            r = any(at(i + 1, k) for k in range(j, len(out) + 1))
        else:
            r = j < len(out) and block[i] == out[j] and at(i + 1, j + 1)
        memo[(i, j)] = r
        return r
    sys.setrecursionlimit(100000)
    return at(0, 0)


def main():
    work, files = sys.argv[1], sys.argv[2:]
    update = os.environ.get("UPDATE_DOCS") == "1"
    bad = blocks = 0
    for f in files:
        lines = open(f, encoding="utf-8").read().split("\n")
        changed = False
        i = 0
        while i < len(lines):
            m = MARK.match(lines[i])
            if not m:
                i += 1
                continue
            if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
                print("%s:%d: a mark with no block after it" % (f, i + 1))
                bad += 1
                i += 1
                continue
            end = i + 2
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            block = lines[i + 2:end]
            run = subprocess.run(["bash", "-c", m.group(1)], cwd=work,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=120)
            out = run.stdout.decode("utf-8", "replace").rstrip("\n").split("\n")
            blocks += 1
            if matches(block, out):
                print("%s:%d: ok" % (f, i + 1))
            elif update and not any(b.strip() == "..." for b in block):
                lines[i + 2:end] = out
                changed = True
                print("%s:%d: rewritten" % (f, i + 1))
                end = i + 2 + len(out)
            else:
                bad += 1
                print("%s:%d: the block is not what `%s` prints now; it "
                      "prints:" % (f, i + 1, m.group(1)))
                for o in out:
                    print("    " + o)
                print("  (UPDATE_DOCS=1 rewrites a block without \"...\"; "
                      "else edit it)")
            i = end + 1
        if changed:
            open(f, "w", encoding="utf-8").write("\n".join(lines))
    print("docs blocks: %d of %d as the programs print them" % (blocks - bad,
                                                                blocks))
    return 1 if bad else 0


sys.exit(main())
