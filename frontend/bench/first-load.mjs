// First-load JavaScript of one page of the fixture site: every script a cold visit downloads,
// raw and gzip -9, and the total against the 90 KB budget. Uses the shared benchmark
// (../shared/bench/first-load-js.mjs) when it is there, for numbers comparable across tools.
//
//   node bench/first-load.mjs [ROUTE]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { M, buildSite, chromiumPath, frontend, launch, serve } from '../e2e/harness.mjs';
import { firstLoadScripts } from '../e2e/measure.mjs';

const route = process.argv[2] ?? `${M}/android/ad-formats/banners`;
const BUDGET = 90 * 1024;
const shared = path.resolve(frontend, '../../shared/bench/first-load-js.mjs');

const site = buildSite();
try {
  if (existsSync(shared)) {
    const out = execFileSync(process.execPath, [shared, site.dir, route, '--chromium', chromiumPath], {
      env: { ...process.env, NODE_PATH: path.join(frontend, 'node_modules') },
      encoding: 'utf8',
    });
    console.log(out.trim());
  }
  const server = await serve(site.dir);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const scripts = await firstLoadScripts(page, server.url + route, site.dir);
    const total = scripts.reduce((n, s) => n + s.gzip, 0);
    console.log(JSON.stringify({ route, scripts, totalGzip: total, budgetGzip: BUDGET, withinBudget: total <= BUDGET }, null, 2));
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  site.cleanup();
}
