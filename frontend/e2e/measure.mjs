// Measurements shared by the browser tests and the benchmarks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { firstVisit } from './harness.mjs';

/**
 * Navigates inside the app to each route in turn by clicking a link, and returns for each the
 * milliseconds from the click to the first frame showing the new page (its title set and its
 * content in place, measured at the next animation frame).
 */
export async function navigationTimes(page, routes) {
  const times = [];
  for (const route of routes) {
    const ms = await page.evaluate(
      (to) =>
        new Promise((resolve, reject) => {
          const link = document.createElement('a');
          link.href = to;
          link.textContent = 'next';
          document.querySelector('.dg-article').appendChild(link);
          const before = document.title;
          const title = document.querySelector('title');
          const timer = setTimeout(() => reject(new Error(`no navigation to ${to}`)), 5000);
          let t0 = 0;
          const seen = new MutationObserver(() => {
            if (document.title === before) return;
            seen.disconnect();
            requestAnimationFrame(() => {
              clearTimeout(timer);
              resolve(performance.now() - t0);
            });
          });
          seen.observe(title, { childList: true, characterData: true, subtree: true });
          t0 = performance.now();
          link.click();
        }),
      route,
    );
    times.push(ms);
  }
  return times;
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The routes of a built site's pages (from _docgen/routes.json). */
export function pageRoutes(siteDir) {
  const routes = JSON.parse(readFileSync(path.join(siteDir, '_docgen/routes.json'), 'utf8'));
  return routes.pages.map((p) => p.route);
}

/**
 * The JavaScript a first visit to `url` downloads, with sizes: every script response, raw and
 * gzip -9. Files are read from the site folder, as served.
 */
export async function firstLoadScripts(page, url, siteDir) {
  const scripts = new Set();
  page.on('response', (r) => {
    const p = new URL(r.url()).pathname;
    if (r.request().resourceType() === 'script' || /\.m?js$/.test(p)) scripts.add(p);
  });
  await firstVisit(page);
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  return [...scripts].map((p) => {
    const bytes = readFileSync(path.join(siteDir, p));
    return { path: p, raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
  });
}

/**
 * The time the bid-response validator takes over a response of `bytes` bytes (the banner
 * example, its impression trackers padded to the size, checked with its request: every rule
 * runs), in a page of a built site: the evaluator and the rules as the site publishes them.
 * Returns the size, the first call (compiling the regular expressions) and the per-call mean of
 * each batch, in milliseconds.
 */
export async function validationTimes(page, { bytes = 4096, batches = 20, batch = 50 } = {}) {
  return page.evaluate(
    async ({ bytes, batches, batch }) => {
      const site = JSON.parse(document.getElementById('dg-page-data').textContent).site.validator;
      const mod = await import(site.script);
      const rules = await (await fetch(site.rules)).json();
      const v = mod.createValidator(rules);
      const ex = rules.examples.find((e) => e.id === 'banner');
      const response = JSON.parse(ex.response);
      const trackers = response.seatbid[0].bid[0].ext.imptrackers;
      const size = () => new TextEncoder().encode(JSON.stringify(response, null, 2)).length;
      trackers.push('https://measure.example.com/imp?p=');
      trackers[trackers.length - 1] += 'x'.repeat(Math.max(0, bytes - size()));
      const text = JSON.stringify(response, null, 2);
      const t0 = performance.now();
      const first = v.validate(text, ex.request);
      const firstMs = performance.now() - t0;
      const means = [];
      for (let b = 0; b < batches; b++) {
        const s = performance.now();
        for (let i = 0; i < batch; i++) v.validate(text, ex.request);
        means.push((performance.now() - s) / batch);
      }
      return { bytes: new TextEncoder().encode(text).length, findings: first.findings.map((f) => f.ruleId), checked: first.checked, firstMs, means };
    },
    { bytes, batches, batch },
  );
}
