// The validator island: loads the evaluator and the compiled rules on first use, loads the
// spec's examples, and lists findings by severity, path, message and rule link.

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
beforeEach(() => {
  fetches = [];
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
    expect(items[0]).toHaveTextContent('adomain is a bare top-level domain');
    expect(items[0]).toHaveTextContent('found "https://advertiser.example.com/"');
    expect(within(items[0]).getByRole('link', { name: 'Rule basics-10' })).toHaveAttribute('href', '/docs/documentation/dsp/ortb-spec/bid-response#rule-basics-10');
    expect(items[1]).toHaveTextContent('Warning');
    expect(within(items[1]).getByRole('link', { name: 'Rule basics-08' })).toBeInTheDocument();
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
