// junit_read.mjs: JUnit XML read back by a JUnit report reader from npm
// (junit2json, pinned in package-lock.json), as a CI's test view reads it.
//
//   node tests/mcp/junit_read.mjs FILE...
//
// Prints, for each file, a line per suite ("suite NAME: T tests, F
// failures, S skipped") and a line per test case in the file's order
// ("CLASSNAME | NAME | passed", "... | failed TYPE", "... | skipped"), as
// the reader understood them; exit 1 when a file cannot be read or
// parsed, with the reader's reason.
import { readFileSync } from "node:fs";
import { parse } from "junit2json";

let status = 0;
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = await parse(readFileSync(file, "utf8"));
  } catch (e) {
    console.log(`${file}: cannot be read: ${e.message.split("\n")[0]}`);
    status = 1;
    continue;
  }
  for (const suite of report.testsuite ?? []) {
    console.log(`suite ${suite.name}: ${suite.tests} tests, ${suite.failures} failures, ${suite.skipped} skipped`);
    for (const c of suite.testcase ?? []) {
      let outcome = "passed";
      if (c.failure) outcome = `failed ${c.failure.map((f) => f.type).join(",")}`;
      else if (c.error) outcome = "error";
      else if (c.skipped) outcome = "skipped";
      console.log(`${c.classname} | ${c.name} | ${outcome}`);
    }
  }
}
process.exit(status);
