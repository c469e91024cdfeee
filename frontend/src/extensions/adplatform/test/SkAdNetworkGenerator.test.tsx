import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { extraCount, skadIds, toSpecs } from '../blocks/snippets';
import { respond } from '../../../../test/fixtures';
import { SKAD_URL, plistItems, routeApi, specs } from '../../../../test/islandData';
import { renderContent } from '../../../../test/render';
// The extension's islands, registered as its bundle (adplatform.js) registers them.
import '../islands';

const flush = () => act(async () => {});

const p = (s: string) => `<span class="hl-p">${s}</span>`;
const g = (s: string) => `<span class="hl-g">${s}</span>`;
const open = (name: string) => `${p('&lt;')}${g(name)}${p('&gt;')}`;
const close = (name: string) => `${p('&lt;/')}${g(name)}${p('&gt;')}`;
const item = (id: string, pad: string) =>
  `${pad}${open('dict')}\n${pad}    ${open('key')}SKAdNetworkIdentifier${close('key')}\n${pad}    ${open('string')}${id}${close('string')}\n${pad}${close('dict')}\n`;

/** The generator as the SKAdNetwork pages write it: the core list in the platform's snippet. */
function generatorHtml({ label, before, after, pad, withKey }: { label: string; before: string[]; after: string[]; pad: string; withKey: boolean }) {
  const lines = [...before, ...(withKey ? [`${pad}${open('key')}SKAdNetworkItems${close('key')}`] : []), `${pad}${open('array')}`];
  const code = `${lines.join('\n')}\n${['c1.skadnetwork', 'c2.skadnetwork', 'm5.skadnetwork'].map((id) => item(id, `${pad}    `)).join('')}${pad}${close('array')}\n${after.join('\n')}`;
  return `<div data-dg-block="skadnetwork-generator" data-platform="cordova">
<div class="dg-code" data-dg-block="code" id="dg-code-4">
<div class="dg-code-bar"><span class="dg-code-label">${label}</span></div>
<div class="dg-code-panel" id="dg-code-4-panel-0" data-lang="xml"><pre class="dg-hl"><code>${code}</code></pre></div>
</div>
</div>`;
}

const cordova = generatorHtml({
  label: 'config.xml',
  before: [open('platform').replace(g('platform'), `${g('platform')} <span class="hl-e">name</span>=<span class="hl-s">&quot;ios&quot;</span>`), `    ${open('config-file')}`],
  after: [`    ${close('config-file')}`, close('platform'), ''],
  pad: '        ',
  withKey: false,
});
const plain = generatorHtml({ label: 'Info.plist', before: [], after: [''], pad: '', withKey: true });

async function mount(html: string, routes: Parameters<typeof routeApi>[0]) {
  const { api, fetch } = routeApi(routes);
  const result = renderContent(html, { api });
  await flush();
  return { ...result, fetch, host: result.article.querySelector<HTMLElement>('[data-dg-block="skadnetwork-generator"]')! };
}

const loaded = () => ({ [SKAD_URL]: respond({ mediationSKAdnetworkIdsSpecs: specs }) });
const snippet = () => document.querySelector('.dg-builder .dg-code-panel code')!.textContent;
const tick = (name: string) => fireEvent.click(screen.getByRole('checkbox', { name }));

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

describe('SKAdNetwork generator', () => {
  it('offers every network but the core list, which is always in the snippet', async () => {
    const { fetch } = await mount(plain, loaded());
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([SKAD_URL]);
    expect(screen.getByRole('group', { name: 'Mediated networks' })).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((b) => document.getElementById(b.getAttribute('aria-labelledby')!)!.textContent)).toEqual(['Alpha Ads', 'Beta Exchange', 'Gamma', 'Epsilon']);
    expect(screen.getByRole('checkbox', { name: 'Alpha Ads' })).toHaveAccessibleDescription('2 more IDs');
    expect(screen.getByRole('checkbox', { name: 'Gamma' })).toHaveAccessibleDescription('1 more ID');
    expect(screen.getByRole('checkbox', { name: 'Epsilon' })).toHaveAccessibleDescription('All in the core list');
    expect(screen.getByText('The core list (3 IDs) is always included.')).toBeInTheDocument();
    expect(screen.getByText('3 SKAdNetwork IDs')).toBeInTheDocument();
    expect(snippet()).toBe(`<key>SKAdNetworkItems</key>\n<array>\n${plistItems(['c1.skadnetwork', 'c2.skadnetwork', 'm5.skadnetwork'])}</array>\n`);
    // The generated box keeps the pre-rendered one's id and label.
    expect(document.querySelector('.dg-builder .dg-code')).toHaveAttribute('id', 'dg-code-4');
    expect(document.querySelector('.dg-builder .dg-code-label')).toHaveTextContent('Info.plist');
  });

  it('adds the ticked networks’ IDs to the core list, each once, sorted, and counts them', async () => {
    await mount(plain, loaded());
    tick('Beta Exchange');
    expect(screen.getByText('5 SKAdNetwork IDs')).toBeInTheDocument();
    // B1 is written in capitals in the data: IDs are compared and written in lower case.
    expect(snippet()).toBe(
      '<key>SKAdNetworkItems</key>\n<array>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>a1.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>b1.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>c1.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>c2.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>m5.skadnetwork</string>\n    </dict>\n' +
        '</array>\n',
    );
    tick('Alpha Ads');
    // a1 is in Alpha and Beta, c1 in Alpha and the core list: each appears once.
    expect(screen.getByText('6 SKAdNetwork IDs')).toBeInTheDocument();
    expect(snippet()).toBe(`<key>SKAdNetworkItems</key>\n<array>\n${plistItems(['a1.skadnetwork', 'b1.skadnetwork', 'c1.skadnetwork', 'c2.skadnetwork', 'm5.skadnetwork', 'z9.skadnetwork'])}</array>\n`);
    tick('Epsilon');
    expect(screen.getByText('6 SKAdNetwork IDs')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByText('3 SKAdNetwork IDs')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getByText('7 SKAdNetwork IDs')).toBeInTheDocument();
    expect(screen.getByText('4 of 4 networks selected')).toBeInTheDocument();
  });

  it('keeps the platform’s own wrapper around the entries, and copies the whole snippet', async () => {
    await mount(cordova, loaded());
    tick('Gamma');
    const expected =
      '<platform name="ios">\n    <config-file>\n        <array>\n' +
      plistItems(['c1.skadnetwork', 'c2.skadnetwork', 'g1.skadnetwork', 'm5.skadnetwork'], '            ') +
      '        </array>\n    </config-file>\n</platform>\n';
    expect(snippet()).toBe(expected);
    expect(document.querySelector('.dg-builder .dg-code-label')).toHaveTextContent('config.xml');
    // The wrapper keeps its highlighting.
    expect(document.querySelector('.dg-builder .dg-code-panel code .hl-e')).toHaveTextContent('name');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await flush();
    expect(writeText).toHaveBeenCalledWith(expected);
  });

  it('keeps the pre-rendered snippet while the IDs load, and when they cannot be loaded says so', async () => {
    let answer!: (r: Response) => void;
    const waiting = await mount(plain, { [SKAD_URL]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const fallbackCode = () => within(waiting.host).getByText(/SKAdNetworkItems/).closest('code');
    expect(fallbackCode()).toHaveTextContent('c2.skadnetwork');
    expect(screen.queryByRole('checkbox')).toBeNull();
    // The fallback's code box works as one.
    expect(within(waiting.host).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    await act(async () => { answer(respond({ mediationSKAdnetworkIdsSpecs: specs })); });
    expect(screen.getAllByRole('checkbox')).toHaveLength(4);
    waiting.unmount();

    const failed = await mount(plain, { [SKAD_URL]: new TypeError('Failed to fetch') });
    expect(screen.getByRole('alert')).toHaveTextContent('The SKAdNetwork IDs could not be loaded');
    expect(within(failed.host).getByText(/SKAdNetworkItems/).closest('code')).toHaveTextContent('m5.skadnetwork');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

describe('SKAdNetwork IDs', () => {
  it('are the core list and the chosen specs’ IDs, once each, in order', () => {
    const all = toSpecs(specs);
    expect(skadIds(all, [])).toEqual(['c1.skadnetwork', 'c2.skadnetwork', 'm5.skadnetwork']);
    expect(skadIds(all, ['gamma', 'alpha', 'nope'])).toEqual(['a1.skadnetwork', 'c1.skadnetwork', 'c2.skadnetwork', 'g1.skadnetwork', 'm5.skadnetwork', 'z9.skadnetwork']);
    expect(skadIds(toSpecs([{ slug: 'core', core: true, skAdNetworkIds: [' x.skadnetwork ', 'X.skadnetwork', '', 'a.skadnetwork'] }]), [])).toEqual(['a.skadnetwork', 'x.skadnetwork']);
    expect(extraCount(all[1], all[0])).toBe(2);
    expect(toSpecs({ not: 'a list' })).toEqual([]);
  });
});
