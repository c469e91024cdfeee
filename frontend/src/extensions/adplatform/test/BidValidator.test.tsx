// The validator island: loads the evaluator and the compiled rules on first use, loads the
// spec's examples, and lists findings in the order of the text: the rule's message and fix, the
// place (a button that puts the caret there), the rule's expression on demand and its link.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadValidator } from '../validator/load';
import { site as fixtureSite } from '../../../../test/fixtures';
import { renderContent } from '../../../../test/render';
// The extension's islands, registered as its bundle (adplatform.js) registers them.
import '../islands';

// The app's sources, and the extension's own folder inside them.
const src = path.resolve(__dirname, '../../..');
const extension = path.resolve(__dirname, '..');
const engineFile = path.join(extension, 'validator/engine.ts');
const RULES = '/docs/_docgen/bid-rules.json';
const rulesText = readFileSync(path.join(__dirname, 'fixtures/bid-rules.json'), 'utf8');
const rules = JSON.parse(rulesText) as { examples: Array<{ id: string; label: string; response: string; request: string }> };

function pageData(validator: unknown) {
  const script = document.createElement('script');
  script.id = 'dg-page-data';
  script.type = 'application/json';
  script.textContent = JSON.stringify({ site: { ...fixtureSite, base: '/docs', validator } });
  document.head.append(script);
  document.documentElement.setAttribute('data-base', '/docs');
}

const ISLAND = `<div data-dg-block="bid-validator"><p>The validator needs JavaScript. Examples:
${rules.examples.map((e) => `<span data-example="${e.id}"><a href="/docs/documentation/dsp/ortb-spec/bid-response#x">${e.label}</a></span>`).join(', ')}</p></div>`;

let fetches: string[];
let scrolled: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetches = [];
  // jsdom lays nothing out and has no scrollIntoView.
  scrolled = vi.fn();
  Element.prototype.scrollIntoView = scrolled;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      fetches.push(url);
      return new Response(rulesText, { status: url.startsWith(RULES) ? 200 : 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.getElementById('dg-page-data')?.remove();
  document.documentElement.removeAttribute('data-base');
});

describe('the bid-response validator island', () => {
  it('loads nothing until used, then validates an example clean', async () => {
    pageData({ rules: RULES, script: engineFile });
    const user = userEvent.setup();
    renderContent(ISLAND);
    const response = screen.getByRole('textbox', { name: 'Bid response' });
    const request = screen.getByRole('textbox', { name: 'Bid request' });
    expect(request).toHaveAccessibleDescription(/cross|id match|block lists/i);
    expect(fetches).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Banner' }));
    const banner = rules.examples.find((e) => e.id === 'banner')!;
    await waitFor(() => expect(response).toHaveValue(banner.response));
    expect(request).toHaveValue(banner.request);
    expect(fetches).toEqual([RULES]);

    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const results = screen.getByRole('region', { name: 'Validation results' });
    await waitFor(() => expect(within(results).getByRole('status')).toHaveTextContent(/^No problems found: the response passes all \d+ checks\.$/));
    expect(within(results).queryByRole('listitem')).toBeNull();
  });

  it('lists each finding with its severity, path, message and rule link', async () => {
    pageData({ rules: RULES, script: engineFile });
    const user = userEvent.setup();
    renderContent(ISLAND);
    const response = JSON.parse(rules.examples[0].response);
    response.cur = 'EUR';
    response.seatbid[0].bid[0].adomain = ['https://advertiser.example.com/'];
    fireEvent.change(screen.getByRole('textbox', { name: 'Bid response' }), { target: { value: JSON.stringify(response, null, 2) } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const results = screen.getByRole('region', { name: 'Validation results' });
    const items = await within(results).findAllByRole('listitem');
    expect(within(results).getByRole('status')).toHaveTextContent(/^1 error and 1 warning in \d+ checks\. Paste the bid request too to run \d+ more checks\.$/);
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Error');
    expect(items[0]).toHaveTextContent('seatbid[0].bid[0].adomain[0]');
    // The sentence and the fix first, from the rule's message and fix.
    const sentence = items[0].querySelector('.dg-finding-text');
    expect(sentence).toHaveTextContent(/^adomain must be a bare domain: send "advertiser.com", not "https:\/\/advertiser.com\/"$/);
    expect(items[0]).toHaveTextContent('found "https://advertiser.example.com/"');
    // The rule's wording and expression on demand.
    const details = items[0].querySelector('details');
    expect(details).not.toBeNull();
    expect(details).not.toHaveAttribute('open');
    expect(within(details as HTMLElement).getByText('Rule expression').tagName).toBe('SUMMARY');
    expect(details).toHaveTextContent('adomain is a bare top-level domain');
    expect(details).toHaveTextContent('matches /^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$/');
    expect(within(items[0]).getByRole('link', { name: 'Rule basics-10' })).toHaveAttribute('href', '/docs/documentation/dsp/ortb-spec/bid-response#rule-basics-10');
    expect(items[1]).toHaveTextContent('Warning');
    expect(items[1].querySelector('.dg-finding-text')).toHaveTextContent('cur is not USD, so the exchange ignores it: send "USD" or leave cur out');
    expect(within(items[1]).getByRole('link', { name: 'Rule basics-08' })).toBeInTheDocument();
    // A field table's check speaks the same way.
    response.cur = 'USD';
    response.seatbid[0].bid[0].adomain = ['advertiser.example.com'];
    response.seatbid[0].bid[0].price = '2.35';
    fireEvent.change(screen.getByRole('textbox', { name: 'Bid response' }), { target: { value: JSON.stringify(response, null, 2) } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    await waitFor(() => { expect(within(results).getAllByRole('listitem')).toHaveLength(1); });
    expect(within(results).getByRole('listitem').querySelector('.dg-finding-text')).toHaveTextContent('price is required and must be a number: send "price": 2.35, not "2.35"');
  });

  it('lists findings in the order of the text, and line:column puts the caret there', async () => {
    pageData({ rules: RULES, script: engineFile });
    const user = userEvent.setup();
    renderContent(ISLAND);
    const parsed = JSON.parse(rules.examples[0].response);
    // cur written first: its warning comes before the errors further down.
    const broken = { cur: 'EUR', ...parsed };
    broken.seatbid[0].bid[0].adomain = ['https://advertiser.example.com/'];
    broken.seatbid[0].bid[0].cat = ['IAB26'];
    const text = JSON.stringify(broken, null, 2);
    const area = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Bid response' });
    fireEvent.change(area, { target: { value: text } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const results = screen.getByRole('region', { name: 'Validation results' });
    const items = await within(results).findAllByRole('listitem');
    expect(items.map((i) => i.querySelector('.dg-finding-path')?.textContent)).toEqual(['cur', 'seatbid[0].bid[0].adomain[0]', 'seatbid[0].bid[0].cat[0]']);
    const places = items.map((i) => (i.querySelector('.dg-finding-where')?.textContent ?? '').split(':').map(Number));
    for (let k = 1; k < places.length; k++) expect(places[k][0]).toBeGreaterThan(places[k - 1][0]);

    // The adomain finding's place is its value in the text.
    const at = text.indexOf('"https://advertiser.example.com/"');
    const line = text.slice(0, at).split('\n').length;
    const column = at - text.lastIndexOf('\n', at - 1);
    const go = within(items[1]).getByRole('button', { name: `${line}:${column}, go to line ${line}, column ${column} of the bid response` });
    expect(go).toHaveTextContent(`${line}:${column}`);
    area.setSelectionRange(0, 0);
    await user.click(go);
    expect(area).toHaveFocus();
    expect(area.selectionStart).toBe(at);
    expect(area.selectionEnd).toBe(at);
    expect(scrolled).toHaveBeenCalled();
  });

  it('numbers the lines of each text box beside it, and the numbers scroll with the text', () => {
    pageData({ rules: RULES, script: engineFile });
    renderContent(ISLAND);
    const area = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Bid response' });
    const gutter = area.parentElement?.querySelector('.dg-validator-gutter') as HTMLElement;
    expect(gutter).toHaveAttribute('aria-hidden', 'true');
    expect(area).toHaveAttribute('wrap', 'off');
    expect(gutter.textContent).toBe('1');
    fireEvent.change(area, { target: { value: '{\n  "id": "1"\n}' } });
    expect([...gutter.children].map((c) => c.textContent)).toEqual(['1', '2', '3']);
    // Wide enough for three digits from the start, so the box does not move as lines come.
    expect(gutter.parentElement?.style.getPropertyValue('--dg-gutter-digits')).toBe('3');
    fireEvent.change(area, { target: { value: Array.from({ length: 1200 }, () => '1').join('\n') } });
    expect(gutter.children).toHaveLength(1200);
    expect(gutter.parentElement?.style.getPropertyValue('--dg-gutter-digits')).toBe('4');
    area.scrollTop = 300;
    fireEvent.scroll(area);
    expect(gutter.scrollTop).toBe(300);
  });

  it('says where invalid JSON breaks and puts the caret there', async () => {
    pageData({ rules: RULES, script: engineFile });
    const user = userEvent.setup();
    renderContent(ISLAND);
    const response = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Bid response' });
    fireEvent.change(response, { target: { value: '{\n  "id": "1",\n  "seatbid": [}\n}' } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const results = screen.getByRole('region', { name: 'Validation results' });
    await waitFor(() => expect(within(results).getByRole('status')).toHaveTextContent('The bid response is not valid JSON: unexpected `}` (line 3, column 15).'));
    expect(response).toHaveAttribute('aria-invalid', 'true');
    expect(response).toHaveFocus();
    expect(response.selectionStart).toBe('{\n  "id": "1",\n  "seatbid": ['.length);
  });

  it('reports an empty response as such', async () => {
    pageData({ rules: RULES, script: engineFile });
    const user = userEvent.setup();
    renderContent(ISLAND);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/Paste a bid response first/));
  });

  it('says so when the rules cannot be loaded', async () => {
    pageData({ rules: '/docs/_docgen/missing.json', script: engineFile });
    const user = userEvent.setup();
    renderContent(ISLAND);
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The validator could not be loaded');
  });

  it('keeps its fallback on a site without the validator', () => {
    pageData(null);
    renderContent(ISLAND);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Banner' })).toBeInTheDocument();
  });
});

describe('loadValidator', () => {
  it('imports the evaluator from its URL once and reads the rules', async () => {
    const site = { rules: `${RULES}?once`, script: engineFile };
    const v = await loadValidator(site);
    expect(await loadValidator(site)).toBe(v);
    expect(v.rules.examples.length).toBeGreaterThan(0);
    expect(fetches).toEqual([`${RULES}?once`]);
  });

  it('fails for a module that is not the evaluator, and tries again on the next call', async () => {
    const site = { rules: RULES, script: path.join(src, 'lib/cx.ts') };
    await expect(loadValidator(site)).rejects.toThrow('is not the validator');
    await expect(loadValidator(site)).rejects.toThrow('is not the validator');
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('the app bundle', () => {
  it('takes only types from the evaluator, so it stays out of app.js', () => {
    const own = new Set(['engine.ts', 'json.ts', 'xml.ts'].map((f) => path.join(extension, 'validator', f)));
    const importers = sources(src)
      .filter((f) => !own.has(f) && !f.includes(`${path.sep}test${path.sep}`))
      .filter((f) => /^\s*import\s+(?!type\s)[^;]*from\s+'[./]*(validator\/)?(engine|json|xml)'/m.test(readFileSync(f, 'utf8')));
    expect(importers.map((f) => path.relative(src, f))).toEqual([]);
  });
});
