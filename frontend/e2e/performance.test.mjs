// Budgets: first-load JavaScript and the time a client-side navigation takes to render.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { M, ready, start } from './harness.mjs';
import { firstLoadScripts, median, navigationTimes, pageRoutes } from './measure.mjs';

const JS_BUDGET_GZIP = 90 * 1024;
const NAVIGATION_BUDGET_MS = 100;

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

describe('budgets', () => {
  it(`downloads at most ${JS_BUDGET_GZIP / 1024} KB of JavaScript (gzip) on a first load`, async () => {
    const page = await env.page();
    const scripts = await firstLoadScripts(page, `${env.url}${M}/android/ad-formats/banners`, env.dir);
    assert.equal(scripts.length, 1, `one script: ${scripts.map((s) => s.path).join(', ')}`);
    const total = scripts.reduce((n, s) => n + s.gzip, 0);
    assert.ok(total <= JS_BUDGET_GZIP, `${total} bytes gzip`);
    await page.context().close();
  });

  it(`renders a client-side navigation within ${NAVIGATION_BUDGET_MS} ms (median, pages not visited before)`, async () => {
    const page = await env.page();
    await page.goto(`${env.url}${M}`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    const routes = pageRoutes(env.dir).filter((r) => r !== M && (r.startsWith(`${M}/`) || r.startsWith('/documentation/dsp'))).slice(0, 12);
    const times = await navigationTimes(page, routes);
    assert.ok(median(times) < NAVIGATION_BUDGET_MS, `median ${median(times).toFixed(1)} ms of ${times.map((t) => t.toFixed(1)).join(', ')}`);
    await page.context().close();
  });
});
