// Reference tables on the real site at every size, light and dark: the page never scrolls
// sideways, the column of prose keeps at least 40 % of a laptop table, field tables become one
// card per row on phones, and a table box that still scrolls can be reached and scrolled from the
// keyboard (axe's scrollable-region-focusable).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { M, REAL_SITE, VIEWPORTS as SIZES, ready, start } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let env;
before(async () => {
  env = await start({ sources: REAL_SITE });
});
after(async () => {
  await env?.stop();
});

const ERROR_CODES = ['android', 'unity', 'react-native'].map((p) => `${M}/${p}/getting-started/errorcodes`);
const BID_RESPONSE = '/documentation/dsp/ortb-spec/bid-response';
const BID_REQUEST = '/documentation/dsp/ortb-spec/bid-request';
const PAGES = [...ERROR_CODES, BID_RESPONSE, BID_REQUEST];

async function open(path, viewport, options = {}) {
  const page = await env.page({ viewport, ...options });
  await page.goto(env.url + path);
  if (options.javaScriptEnabled !== false) await ready(page);
  return page;
}

/** How far the page scrolls sideways (0 when it fits the window). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Each table of the page: its box, whether it scrolls, its prose column's width, cards or rows. */
const tables = (page) =>
  page.locator('.dg-table').evaluateAll((boxes) =>
    boxes.map((box) => {
      const table = box.querySelector(':scope > table');
      const prose = table.querySelector('thead th.dg-col-text');
      const firstRow = table.querySelector('tbody tr');
      return {
        label: box.getAttribute('aria-label'),
        role: box.getAttribute('role'),
        tabindex: box.getAttribute('tabindex'),
        scrolls: box.scrollWidth > box.clientWidth,
        width: box.clientWidth,
        prose: prose ? prose.getBoundingClientRect().width : null,
        fields: table.classList.contains('dg-fields'),
        rowDisplay: firstRow ? getComputedStyle(firstRow).display : null,
      };
    }),
  );

describe('tables at every size, light and dark', () => {
  for (const [name, viewport] of Object.entries(SIZES)) {
    for (const colorScheme of ['light', 'dark']) {
      it(`${name} (${viewport.width} px, ${colorScheme}): the Error Codes and Bid pages do not scroll sideways`, async () => {
        await env.visitEach(PAGES, { viewport, colorScheme }, async (page, path) => {
          assert.equal(await sideways(page), 0, `${path} scrolls sideways`);
          const all = await tables(page);
          assert.ok(all.length > 0, `${path} has tables`);
          for (const t of all) {
            assert.equal(t.role, 'region', `${path}: ${t.label}`);
            assert.ok(t.label, `${path}: every table box is named`);
            // The box is in the tab order exactly when it scrolls.
            assert.equal(t.tabindex, t.scrolls ? '0' : null, `${path}: ${t.label} (scrolls: ${t.scrolls})`);
          }
          if (viewport.width >= 1280) {
            for (const t of all.filter((t) => t.prose !== null)) {
              assert.ok(t.prose >= 0.4 * t.width - 1, `${path}: the prose of ${t.label} has ${t.prose} of ${t.width} px`);
            }
            // On a laptop these reference tables fit their column.
            assert.deepEqual(
              all.filter((t) => t.scrolls).map((t) => t.label),
              [],
              `${path}: tables that scroll at ${viewport.width} px`,
            );
          }
          const cards = all.filter((t) => t.fields).map((t) => t.rowDisplay);
          assert.ok(cards.length > 0, `${path} has field tables`);
          assert.ok(
            cards.every((d) => d === (viewport.width <= 600 ? 'block' : 'table-row')),
            `${path}: rows of field tables are ${cards.join(', ')}`,
          );
          assert.deepEqual(page.errors, []);
        });
      });
    }
  }
});

describe('field tables on a phone', () => {
  it('the Bid Object table is a card per field, each description within the window under its label', async () => {
    const page = await open(BID_RESPONSE, SIZES.phone);
    const table = page.locator('h2#bid-object ~ .dg-table').first().locator('table');
    assert.equal(await table.getAttribute('class'), 'dg-fields');
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const cell = tr.querySelector('td.dg-col-text');
        const r = cell.getBoundingClientRect();
        return {
          field: tr.querySelector('td').textContent,
          left: r.left,
          right: r.right,
          height: r.height,
          label: getComputedStyle(cell, '::before').content,
          type: getComputedStyle(tr.querySelector('td[data-label="Type"]'), '::before').content,
        };
      }),
    );
    assert.ok(rows.length > 10, `${rows.length} fields`);
    for (const r of rows) {
      assert.ok(r.left >= 0 && r.right <= SIZES.phone.width, `${r.field}: the description is within the window (${r.left}–${r.right})`);
      assert.ok(r.height > 0, `${r.field}: the description is shown`);
      assert.equal(r.label, '"Description"');
      assert.equal(r.type, '"Type"');
    }
    // The header stays for screen readers but takes no room.
    const head = await table.locator('thead').evaluate((h) => h.getBoundingClientRect().height);
    assert.ok(head <= 1, `the header is ${head} px high`);
    await page.context().close();
  });

  it('cards need no script: the server writes the labels', async () => {
    const page = await open(BID_RESPONSE, SIZES.phone, { javaScriptEnabled: false });
    assert.equal(await sideways(page), 0);
    const display = await page.locator('table.dg-fields tbody tr').first().evaluate((tr) => getComputedStyle(tr).display);
    assert.equal(display, 'block');
    const box = page.locator('.dg-table').first();
    assert.equal(await box.getAttribute('tabindex'), '0', 'without the app every box stays focusable');
    assert.ok(await box.getAttribute('aria-label'));
    await page.context().close();
  });

  it('the Error Codes table is cards too, with the constant beside its label', async () => {
    const page = await open(ERROR_CODES[1], SIZES.phone);
    const table = page.locator('table.dg-fields').first();
    const card = await table.locator('tbody tr').nth(3).evaluate((tr) => ({
      width: tr.getBoundingClientRect().width,
      labels: Array.from(tr.querySelectorAll('td')).map((td) => td.getAttribute('data-label')),
      meaning: tr.querySelector('td.dg-col-text').getBoundingClientRect().right,
    }));
    assert.deepEqual(card.labels, ['Code', 'Name', 'Constant', 'L/D', 'Meaning']);
    assert.ok(card.width <= SIZES.phone.width && card.meaning <= SIZES.phone.width, JSON.stringify(card));
    await page.context().close();
  });
});

describe('a table box that scrolls', () => {
  it('is focusable, named, scrolled by the arrow keys, and passes axe', async () => {
    const page = await open(BID_RESPONSE, SIZES.phone);
    // A table that is not a field table and is wider than a phone: the notice macros.
    const box = page.locator('.dg-table[tabindex="0"]').first();
    assert.ok((await box.count()) > 0, 'some table of the page scrolls on a phone');
    const label = await box.getAttribute('aria-label');
    assert.ok(label && label.length > 0);
    await box.focus();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), label);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((l) => document.querySelector(`.dg-table[aria-label="${l}"]`).scrollLeft > 0, label);
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['scrollable-region-focusable', 'landmark-unique', 'aria-allowed-role', 'th-has-data-cells'] }));
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
    await page.context().close();
  });

  it('prints whole: no box clips a table', async () => {
    for (const path of [ERROR_CODES[1], `${M}/android/mediation-adapters`]) {
      const page = await open(path, SIZES.laptop);
      await page.emulateMedia({ media: 'print' });
      const clipped = await page.locator('.dg-table').evaluateAll((boxes) =>
        boxes.filter((b) => b.scrollWidth > b.clientWidth || getComputedStyle(b).overflowX !== 'visible').map((b) => b.getAttribute('aria-label')),
      );
      assert.deepEqual(clipped, [], path);
      await page.context().close();
    }
  });
});

describe('a paged table', () => {
  it('pages on a phone and a laptop, and prints every row', async () => {
    for (const viewport of [SIZES.phone, SIZES.laptop]) {
      const page = await open(`${M}/android/getting-started/skadnetwork-info`, viewport);
      const box = page.locator('.dg-table[aria-label="All IDs"]');
      const rows = box.locator('tbody tr');
      assert.equal(await rows.count(), 258);
      assert.equal(await box.locator('tbody tr:visible').count(), 50);
      const row51 = await rows.nth(50).textContent();
      await box.getByRole('button', { name: 'Next page' }).click();
      assert.equal(await box.locator('tbody tr:visible').first().textContent(), row51);
      assert.equal(await sideways(page), 0);
      await page.emulateMedia({ media: 'print' });
      assert.equal(await box.locator('tbody tr:visible').count(), 258, 'every row prints');
      await page.context().close();
    }
  });
});
