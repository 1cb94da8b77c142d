// Lints documents of `fitz openapi` the way their users' tools will read them: swagger-parser
// validates each (schema, $refs, duplicate operation ids), then Redocly lints them all with its
// recommended ruleset (redocly.yaml). Prints one line per document and a summary; exits 1 when
// either reports an error (Redocly's warnings are printed, not fatal).
// usage: node lint.mjs DOC.json...
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";

const here = dirname(fileURLToPath(import.meta.url));
const docs = process.argv.slice(2);
if (docs.length === 0) {
  console.error("usage: node lint.mjs DOC.json...");
  process.exit(2);
}

let failed = 0;
for (const doc of docs) {
  try {
    // validate() dereferences the document it is given: each run parses its own copy.
    await SwaggerParser.validate(doc);
    console.log(`swagger-parser: valid: ${doc}`);
  } catch (e) {
    failed++;
    console.log(`swagger-parser: INVALID: ${doc}: ${e.message}`);
  }
}

// Redocly sends usage data and checks for updates unless told not to; a test must do neither.
// Its stylish report (one line per problem) goes to stdout; stderr carries only notices (such
// as its Node.js deprecation banner) and, when it fails without reporting a problem, why.
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" };
const redocly = spawnSync(
  process.execPath,
  [join(here, "node_modules/@redocly/cli/bin/cli.js"), "lint", "--config", join(here, "redocly.yaml"),
   "--format", "stylish", ...docs],
  { env, encoding: "utf8", maxBuffer: 64 << 20 },
);
const report = redocly.stdout ?? "";
const count = (severity) => report.split("\n").filter((l) => new RegExp(`^\\s+\\d+:\\d+\\s+${severity}\\s`).test(l)).length;
const errors = count("error");
const warnings = count("warning");
if (report.trim()) console.log(report.trimEnd());
if (redocly.status !== 0 || errors > 0) {
  failed++;
  // Errors are in the report; a failure without any is Redocly's own, explained on stderr.
  console.log(`redocly: failed (exit ${redocly.status})${errors > 0 ? "" : `: ${redocly.stderr ?? ""}`}`);
}
console.log(`redocly: ${docs.length} documents, ${errors} errors, ${warnings} warnings (recommended ruleset)`);
process.exit(failed > 0 ? 1 : 0);
