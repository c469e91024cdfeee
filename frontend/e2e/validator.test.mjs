// The bid-response validator on this repository's own site: it loads only when used, the
// specification's examples validate clean, broken responses are reported by the rule's message
// and fix, path, line:column (a button that puts the caret there) and rule link (the link leads
// to the rule's row, which stands out), invalid JSON by line and column; on
// a desktop and on a 390 px phone, without overflow, and axe finds nothing. It also measures
// the validation of a 4 KB response against the time of a frame.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { REAL_SITE, ready, start } from './harness.mjs';
import { median, validationTimes } from './measure.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const TESTING = '/documentation/dsp/testing';
const MIRROR = '/documentation/mediation/auctions/dsps/testing';
const DESKTOP = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
const EXAMPLES = ['Banner', 'Video with SKAdNetwork', 'Native', 'Connected TV'];

let env;
before(async () => {
  env = await start({ sources: REAL_SITE });
});
after(async () => {
  await env?.stop();
});

/** Opens a page and records the validator's requests. */
async function open(route, viewport) {
  const page = await env.page({ viewport, isMobile: viewport === PHONE, hasTouch: viewport === PHONE });
  page.loaded = [];
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (/\/validator\.[0-9a-f]+\.js$/.test(p) || p.endsWith('/_docgen/bid-rules.json')) page.loaded.push(p);
  });
  await page.goto(env.url + route);
  await ready(page);
  await page.waitForLoadState('networkidle');
  return page;
}

const response = (page) => page.getByRole('textbox', { name: 'Bid response', exact: true });
const request = (page) => page.getByRole('textbox', { name: 'Bid request', exact: true });
const results = (page) => page.getByRole('region', { name: 'Validation results' });
const status = (page) => results(page).getByRole('status');

async function validate(page) {
  await page.getByRole('button', { name: 'Validate' }).click();
  await status(page).waitFor();
  return (await status(page).textContent()).trim();
}

async function violations(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
}

/** The banner example's response, changed. */
async function bannerWith(page, change) {
  await page.getByRole('button', { name: 'Banner', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('.dg-validator-text')?.value.length > 0);
  const json = JSON.parse(await response(page).inputValue());
  change(json);
  await response(page).fill(JSON.stringify(json, null, 2));
}

for (const [name, viewport] of [
  ['a desktop', DESKTOP],
  ['a 390 px phone', PHONE],
]) {
  describe(`the bid-response validator on ${name}`, () => {
    it('loads its code and rules only when used, and every example of the specification validates clean', async () => {
      const page = await open(TESTING, viewport);
      assert.deepEqual(page.loaded, [], 'nothing of the validator on page load');
      await response(page).waitFor();
      await request(page).waitFor();
      for (const label of EXAMPLES) {
        await page.getByRole('button', { name: label, exact: true }).click();
        await page.waitForFunction(() => document.querySelector('.dg-validator-text')?.value.length > 0);
        assert.ok((await request(page).inputValue()).includes('"imp"'), `${label}: its request is loaded too`);
        assert.match(await validate(page), /^No problems found: the response passes all \d+ checks\.$/, label);
        assert.equal(await results(page).getByRole('listitem').count(), 0, label);
      }
      assert.equal(page.loaded.filter((p) => p.endsWith('.js')).length, 1, `the evaluator once: ${page.loaded}`);
      assert.equal(page.loaded.filter((p) => p.endsWith('.json')).length, 1, `the rules once: ${page.loaded}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    it('lists the findings of a broken response, and its rule links lead to the rules', async () => {
      const page = await open(TESTING, viewport);
      await bannerWith(page, (r) => {
        r.cur = 'EUR';
        r.seatbid[0].bid[0].adomain = ['https://advertiser.example.com/'];
        r.seatbid[0].bid[0].price = '1.25';
      });
      assert.match(await validate(page), /^2 errors and 1 warning in \d+ checks\./);
      const items = results(page).getByRole('listitem');
      assert.equal(await items.count(), 3);
      const first = items.nth(0);
      const texts = await items.allTextContents();
      assert.ok(texts.some((t) => t.includes('Error') && t.includes('seatbid[0].bid[0].adomain[0]') && t.includes('adomain must be a bare domain: send "advertiser.com", not "https://advertiser.com/"')), texts.join('\n'));
      assert.ok(texts.some((t) => t.includes('Error') && t.includes('seatbid[0].bid[0].price') && t.includes('price is required and must be a number: send "price": 2.35, not "2.35"')), texts.join('\n'));
      assert.ok(texts[2].startsWith('Warning') && texts[2].includes('cur is not USD'), texts[2]);
      // The rule's expression is there on demand only.
      const expression = first.locator('details');
      assert.equal(await expression.locator('summary').textContent(), 'Rule expression');
      assert.equal(await expression.locator('code').first().isVisible(), false);
      assert.ok(await first.isVisible());
      // On a phone nothing is wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      const box = await results(page).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= viewport.width + 1, JSON.stringify(box));
      assert.deepEqual(await violations(page), []);

      // line:column puts the caret at the value in the text box, and scrolls it into view.
      const text = await response(page).inputValue();
      const at = text.indexOf('"https://advertiser.example.com/"');
      const line = text.slice(0, at).split('\n').length;
      const column = at - text.lastIndexOf('\n', at - 1);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await results(page).getByRole('button', { name: `${line}:${column}, go to line ${line}, column ${column} of the bid response` }).click();
      const caret = await response(page).evaluate((el) => ({
        focused: document.activeElement === el,
        start: el.selectionStart,
        end: el.selectionEnd,
        top: el.scrollTop,
        lineHeight: parseFloat(getComputedStyle(el).lineHeight),
        height: el.clientHeight,
        box: el.getBoundingClientRect().toJSON(),
        gutter: el.parentElement.querySelector('.dg-validator-gutter').scrollTop,
      }));
      assert.ok(caret.focused, 'the response box has the focus');
      assert.equal(caret.start, at);
      assert.equal(caret.end, at);
      const y = (line - 1) * caret.lineHeight - caret.top;
      assert.ok(y >= 0 && y < caret.height, `line ${line} is inside the box: ${JSON.stringify(caret)}`);
      assert.ok(caret.box.bottom > 0 && caret.box.top < viewport.height, `the box is in view: ${JSON.stringify(caret.box)}`);
      assert.equal(caret.gutter, caret.top, 'the line numbers scroll with the text');

      const link = results(page).getByRole('link', { name: 'Rule basics-10' });
      assert.equal(await link.getAttribute('href'), '/documentation/dsp/ortb-spec/bid-response#rule-basics-10');
      await link.click();
      await page.waitForURL('**/documentation/dsp/ortb-spec/bid-response#rule-basics-10');
      await page.locator('#rule-basics-10').waitFor();
      assert.ok(await page.locator('#rule-basics-10').isVisible());
      // The rule's row stands out from the other rows.
      const backgrounds = await page.evaluate(() => {
        const row = document.getElementById('rule-basics-10').closest('tr');
        const other = document.getElementById('rule-basics-11').closest('tr');
        const bg = (tr) => getComputedStyle(tr.cells[1]).backgroundColor;
        return { row: bg(row), other: bg(other) };
      });
      assert.notEqual(backgrounds.row, backgrounds.other, JSON.stringify(backgrounds));
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });

    it('checks a response against its request, and says where invalid JSON breaks', async () => {
      const page = await open(MIRROR, viewport);
      await bannerWith(page, (r) => {
        r.id = 'another-auction';
        r.seatbid[0].bid[0].bundle = 'com.example.rival';
      });
      const text = await validate(page);
      assert.match(text, /^2 errors and 0 warnings in \d+ checks\.$/);
      const paths = await results(page).locator('.dg-finding-path').allTextContents();
      assert.deepEqual(paths, ['id', 'seatbid[0].bid[0].bundle']);

      await request(page).fill('');
      assert.match(await validate(page), /^No problems found: the response passes all \d+ checks\. Paste the bid request too to run \d+ more checks\.$/);

      await response(page).fill('{\n  "id": "1",\n  "seatbid": [\n    {"bid": [}\n  ]\n}');
      assert.equal(await validate(page), 'The bid response is not valid JSON: unexpected `}` (line 4, column 14).');
      assert.equal(await response(page).getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  });
}

describe('the bid-response validator on the spec readings', () => {
  it('blocks a subcategory of a blocked category, and reports a URL-encoded macro', async () => {
    const page = await open(TESTING, DESKTOP);
    await bannerWith(page, (r) => {
      r.seatbid[0].bid[0].cat = ['IAB25-3'];
      r.seatbid[0].bid[0].burl = 'https://bidder.example.com/bill?price=%24%7BAUCTION_PRICE%7D';
    });
    assert.match(await validate(page), /^2 errors and 0 warnings in \d+ checks\.$/);
    const paths = await results(page).locator('.dg-finding-path').allTextContents();
    assert.deepEqual([...paths].sort(), ['seatbid[0].bid[0].burl', 'seatbid[0].bid[0].cat[0]']);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('the validation time', () => {
  it('validates a 4 KB response against every rule well within a frame', async () => {
    const page = await open(TESTING, DESKTOP);
    const t = await validationTimes(page, { bytes: 4096 });
    assert.equal(t.bytes, 4096);
    assert.deepEqual(t.findings, [], 'the padded example is still valid');
    const ms = median(t.means);
    console.log(`# validation of ${t.bytes} bytes: first call ${t.firstMs.toFixed(2)} ms, median ${ms.toFixed(3)} ms per call`);
    // Well within a frame (16.7 ms): half of one, on a shared machine.
    assert.ok(ms < 8, `median ${ms} ms`);
    // The cold first call (the evaluator is warmed up on the examples as it loads).
    assert.ok(t.firstMs < 100, `first call ${t.firstMs} ms`);
    await page.context().close();
  });
});
