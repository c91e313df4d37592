// engines.mjs: does the Node.js running this script meet the `engines.node`
// range of every package package-lock.json installs?
//
//   node tests/mcp/engines.mjs
//
// Exit 0 and one line naming the highest need when it does; exit 1 and one
// line naming what is missing and how to get it when it does not, or when a
// range is written in a form this script cannot read (it then cannot vouch
// for the clients).  Packages the lock marks optional and that are not
// installed (another platform's Node.js) are left out.  Ranges are read the
// way npm reads them: comparators (<, <=, >, >=, =), caret and tilde ranges,
// x-ranges and partial versions, hyphen ranges, and sets joined by ||.
import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

// "1.2" -> [1, 2, null]; x, X and * are wildcards (null); null when not a
// version at all.  A pre-release or build suffix is dropped.
function partial(text) {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+].*)?$/.exec(text);
  if (!m) return null;
  const part = (s) => (s === undefined || /^[xX*]$/.test(s) ? null : Number(s));
  const v = [part(m[1]), part(m[2]), part(m[3])];
  // a wildcard makes every later part a wildcard too: 1.x.3 is 1.x
  for (let i = 1; i < 3; i++) if (v[i - 1] === null) v[i] = null;
  return v;
}

function cmp(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// The lowest version above every version that matches the partial p,
// where p's first unset part is the one that moves: [1, 2, null] -> 1.3.0.
function bumpPast(p) {
  if (p[0] === null) return null;
  if (p[1] === null) return [p[0] + 1, 0, 0];
  if (p[2] === null) return [p[0], p[1] + 1, 0];
  return null;
}

const zero = (p) => p.map((x) => (x === null ? 0 : x));

// One comparator ("^1.2", ">=20", "1.x") as a list of [op, version] pairs
// that must all hold; null when it cannot be read.
function comparator(text) {
  const m = /^(<=|>=|<|>|=|\^|~>?|)(.*)$/.exec(text);
  const op = m[1];
  const p = partial(m[2]);
  if (!p) return null;
  const low = zero(p);
  if (p[0] === null) {
    // *, x: anything, except that < * and > * match nothing
    return op === "<" || op === ">" ? [["<", [0, 0, 0]]] : [];
  }
  switch (op) {
    case ">=": return [[">=", low]];
    case ">": return bumpPast(p) ? [[">=", bumpPast(p)]] : [[">", low]];
    case "<": return [["<", low]];
    case "<=": return bumpPast(p) ? [["<", bumpPast(p)]] : [["<=", low]];
    case "^": {
      let high;
      if (p[0] > 0 || p[1] === null) high = [p[0] + 1, 0, 0];
      else if (p[1] > 0 || p[2] === null) high = [0, p[1] + 1, 0];
      else high = [0, 0, p[2] + 1];
      return [[">=", low], ["<", high]];
    }
    case "~":
    case "~>": {
      const high = p[1] === null ? [p[0] + 1, 0, 0] : [p[0], p[1] + 1, 0];
      return [[">=", low], ["<", high]];
    }
    default: // "" or "=": a partial version is the range it spans
      return bumpPast(p) ? [[">=", low], ["<", bumpPast(p)]] : [["=", low]];
  }
}

// A whole range: the alternatives joined by ||, each a list of pairs.
function parseRange(text) {
  const alternatives = [];
  for (const alt of text.split("||")) {
    // ">= 0.6" is ">=0.6"
    const s = alt.trim().replace(/(<=|>=|<|>|=|\^|~>?)\s+/g, "$1");
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(s);
    if (hyphen) {
      const a = partial(hyphen[1]);
      const b = partial(hyphen[2]);
      if (!a || !b) return null;
      const lowPart = a[0] === null ? [] : [[">=", zero(a)]];
      const highPart = b[0] === null ? [] :
        bumpPast(b) ? [["<", bumpPast(b)]] : [["<=", b]];
      alternatives.push([...lowPart, ...highPart]);
      continue;
    }
    const pairs = [];
    for (const word of s === "" ? [] : s.split(/\s+/)) {
      const c = comparator(word);
      if (!c) return null;
      pairs.push(...c);
    }
    alternatives.push(pairs);
  }
  return alternatives;
}

function holds([op, v], version) {
  const c = cmp(version, v);
  return op === ">=" ? c >= 0 : op === ">" ? c > 0 : op === "<" ? c < 0 :
    op === "<=" ? c <= 0 : c === 0;
}

const satisfies = (alternatives, version) =>
  alternatives.some((pairs) => pairs.every((pair) => holds(pair, version)));

// The lowest version a range asks for, to name the highest need.
const floorOf = (alternatives) => alternatives
  .map((pairs) => pairs.filter(([op]) => op === ">=" || op === "=" || op === ">")
    .map(([, v]) => v).reduce((a, b) => (cmp(a, b) >= 0 ? a : b), [0, 0, 0]))
  .reduce((a, b) => (cmp(a, b) <= 0 ? a : b));

const lock = JSON.parse(readFileSync(join(here, "package-lock.json"), "utf8"));
const version = partial(process.versions.node);
const node = `Node.js v${process.versions.node} (${process.execPath})`;
let highest = null;
const unmet = [];
for (const [path, pkg] of Object.entries(lock.packages)) {
  const range = pkg.engines && pkg.engines.node;
  if (path === "" || !range) continue;
  if (pkg.optional && !existsSync(join(here, path))) continue;
  const name = `${path.replace(/^.*node_modules\//, "")} ${pkg.version}`;
  const parsed = parseRange(range);
  if (!parsed) {
    console.log(`cannot read the Node.js range "${range}" that ` +
      `${name} asks for in tests/mcp/package-lock.json; check it by hand`);
    process.exit(1);
  }
  if (!satisfies(parsed, version)) unmet.push(`${name} needs ${range}`);
  const floor = floorOf(parsed);
  if (!highest || cmp(floor, highest.floor) > 0)
    highest = { floor, range, name };
}
if (unmet.length > 0) {
  console.log(`the MCP test clients cannot run on ${node}: ` +
    `${unmet.slice(0, 3).join("; ")}${unmet.length > 3 ? `; and ${unmet.length - 3} more` : ""}` +
    `; run npm ci in tests/mcp, which installs the Node.js they are pinned with`);
  process.exit(1);
}
// Which Node.js this is: the one the lock pins (a node-<os>-<cpu>
// package of the npm registry), or another one found on PATH.
const pin = Object.entries(lock.packages).find(([path, pkg]) =>
  /^node_modules\/node-[a-z]+-[a-z0-9]+$/.test(path) &&
  process.execPath.startsWith(join(here, path) + "/"));
const which = pin
  ? `the Node.js pinned in tests/mcp/package-lock.json (${pin[0].slice(13)} ` +
    `${pin[1].version}, installed by npm ci)`
  : `Node.js v${process.versions.node} (${process.execPath})`;
const need = highest
  ? `the pinned packages need ${highest.range} (${highest.name})`
  : "no pinned package names a Node.js version";
console.log(`the MCP test clients run on ${which}: ${need}` +
  (pin ? ", more than Debian 12's Node.js 18 gives" : ""));
