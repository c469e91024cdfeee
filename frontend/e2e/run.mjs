// Runs the browser tests: two files at a time (Chromium waits on frames and timers as much as
// it computes), then, alone, the files whose assertions depend on timing — the search requests
// made while typing a query, the navigation budget, layout shifts between the first paint and
// the app's mount — so a busy neighbour cannot change what they measure (a neighbour spaces
// the keys typed out, and each prefix is then looked up). The sites the files build alike are
// built once (harness.mjs, E2E_SHARED); the benchmark corpus a timed file needs is built beside
// the first batch, on the CPU it leaves idle (prepare.mjs). Arguments (test files) run those
// files alone.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { disabledFeatures } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const TIMED = new Set(['performance.test.mjs', 'search-budget.test.mjs', 'search-scale.test.mjs', 'stability.test.mjs']);

// Every failure is also written to a file of its own, printed once all files ran: the end of a
// long run then says which tests failed and why.
const failuresDir = mkdtempSync(path.join(os.tmpdir(), 'docgen-e2e-failures-'));
const shared = mkdtempSync(path.join(os.tmpdir(), 'docgen-e2e-shared-'));
process.env.E2E_SHARED = shared;
let batches = 0;

function run(files, concurrency) {
  if (files.length === 0) return 0;
  const failures = path.join(failuresDir, `${batches++}.txt`);
  const reporters = ['--test-reporter=tap', '--test-reporter-destination=stdout', `--test-reporter=${path.join(here, 'failures-reporter.mjs')}`, `--test-reporter-destination=${failures}`];
  const args = ['--test', `--test-concurrency=${concurrency}`, ...reporters, ...files];
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
}

function failuresSoFar() {
  return readdirSync(failuresDir)
    .sort()
    .map((f) => readFileSync(path.join(failuresDir, f), 'utf8'))
    .join('');
}

process.env.E2E_DISABLED_FEATURES = await disabledFeatures();
const asked = process.argv.slice(2);
let failed;
if (asked.length) {
  failed = run(asked, 1);
} else {
  const files = readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort();
  const inBatch = (batch) => files.filter(batch).map((f) => path.join(here, f));
  // Its failure is the waiting test file's to report (harness.mjs, `once`).
  const prepared = new Promise((resolve) => spawn(process.execPath, [path.join(here, 'prepare.mjs')], { stdio: 'inherit' }).on('exit', resolve));
  // Both batches run, so one failure does not hide the other's.
  const first = run(inBatch((f) => !TIMED.has(f)), Math.min(2, os.availableParallelism()));
  failed = run(inBatch((f) => TIMED.has(f)), 1) || first;
  await prepared;
}
const report = failuresSoFar();
rmSync(failuresDir, { recursive: true, force: true });
rmSync(shared, { recursive: true, force: true });
if (report) process.stdout.write(`\nFailed browser tests:\n\n${report}`);
process.exit(failed);
