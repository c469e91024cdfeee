// The bid-response validator's time over a 4 KB response, in Chromium, with the evaluator and
// the compiled rules of this repository's own site as docgen publishes them: the first call
// (which compiles the regular expressions) and the per-call mean of 20 batches of 50 calls.
//
//   node bench/validate-time.mjs [BYTES]
import { REAL_SITE, buildSite, launch, ready, serve } from '../e2e/harness.mjs';
import { median, validationTimes } from '../e2e/measure.mjs';

const bytes = Number(process.argv[2] ?? 4096);
const site = buildSite({ sources: REAL_SITE });
try {
  const server = await serve(site.dir);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/documentation/dsp/testing`);
    await ready(page);
    const t = await validationTimes(page, { bytes });
    const sorted = [...t.means].sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          bytes: t.bytes,
          rulesChecked: t.checked,
          findings: t.findings,
          firstCallMs: Number(t.firstMs.toFixed(3)),
          medianMs: Number(median(t.means).toFixed(3)),
          maxMs: Number(sorted[sorted.length - 1].toFixed(3)),
          frameMs: 16.7,
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  site.cleanup();
}
