// axe-core finds no violations on representative pages, with the app running.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { M, ready, start } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

async function violations(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

async function open(path) {
  const page = await env.page();
  await page.goto(env.url + path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  return page;
}

describe('accessibility (axe-core)', () => {
  it('finds no violations on a page with code, a table and admonitions', async () => {
    const page = await open(`${M}/android/ad-formats/banners`);
    assert.deepEqual(await violations(page), []);
    await page.getByRole('banner').getByRole('button', { name: 'Dark theme' }).click();
    assert.deepEqual(await violations(page), [], 'in the dark theme too');
    await page.context().close();
  });

  it('finds no violations on a page with a paged table, an empty one and the menu opened deeper', async () => {
    const page = await open(`${M}/reference/tables`);
    await page.getByRole('button', { name: 'Android pages' }).click();
    await page.getByRole('button', { name: 'Mediation Setup pages' }).click();
    await page.waitForTimeout(700);
    assert.deepEqual(await violations(page), []);
    await page.context().close();
  });

  it('finds no violations with the consent dialog open, and on the blocks page', async () => {
    const page = await open(`${M}/reference/blocks`);
    await page.getByRole('button', { name: 'Supported formats' }).click();
    assert.deepEqual(await violations(page), []);
    await page.locator('#dg-footer button[data-action="consent"]').click();
    assert.deepEqual(await violations(page), []);
    await page.context().close();
  });

  it('finds no violations on the DSP error page and on a page with a layout of its own', async () => {
    for (const path of ['/documentation/dsp/nope', '/documentation/faq']) {
      const page = await open(path);
      assert.deepEqual(await violations(page), [], path);
      await page.context().close();
    }
  });
});
