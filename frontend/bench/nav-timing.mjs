// Client-side navigation timing: builds the fixture site (see e2e/harness.mjs for DOCGEN_BIN
// and CHROMIUM), opens it in headless Chromium and navigates 20 times by clicking links, each
// to a page not visited before when the site has enough pages. Prints the median and the
// spread, in milliseconds from the click to the first frame of the new page.
//
//   node bench/nav-timing.mjs [--count 20]
import { M, ready, start } from '../e2e/harness.mjs';
import { median, navigationTimes, pageRoutes } from '../e2e/measure.mjs';

const i = process.argv.indexOf('--count');
const count = i > 0 ? Number(process.argv[i + 1]) : 20;

const env = await start();
try {
  const page = await env.page();
  await page.goto(`${env.url}${M}`);
  await ready(page);
  await page.waitForLoadState('networkidle');
  // Pages of the shell only: a page with a layout of its own is loaded as a whole document.
  const all = pageRoutes(env.dir).filter((r) => r !== M && (r.startsWith(`${M}/`) || r.startsWith('/documentation/dsp')));
  const routes = Array.from({ length: count }, (_, n) => all[n % all.length]);
  const times = await navigationTimes(page, routes);
  const sorted = [...times].sort((a, b) => a - b);
  const round = (n) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify(
      {
        navigations: times.length,
        distinctPages: new Set(routes).size,
        medianMs: round(median(times)),
        minMs: round(sorted[0]),
        p90Ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))]),
        maxMs: round(sorted[sorted.length - 1]),
      },
      null,
      2,
    ),
  );
} finally {
  await env.stop();
}
