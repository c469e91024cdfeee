// @vitest-environment jsdom
// (happy-dom has no table sections, `HTMLTableElement.tBodies`, which the pre-rendered tables are read by.)
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { adapterNetworks, gradleSnippet, nativesFor, networksFor, podfileSnippet } from '../blocks/snippets';
import { HttpError } from '../../../data/api';
import { respond } from '../../../../test/fixtures';
import { NETWORKS_URL, SKAD_URL, catalogue, plistItems, published, routeApi, specs } from '../../../../test/islandData';
import { renderContent } from '../../../../test/render';
// The extension's islands, registered as its bundle (adplatform.js) registers them.
import '../islands';

const flush = () => act(async () => {});

/** A dependency builder as the adapter pages write it: the table of every network as fallback. */
function builderHtml(platform: string, native?: string) {
  return `<p>Before</p><div data-dg-block="dependency-builder" data-platform="${platform}"${native ? ` data-native="${native}"` : ''}>
<div class="dg-table" data-dg-block="table">
<table><thead><tr><th>Network</th><th>Android (Gradle)</th></tr></thead><tbody>
<tr><td>Alpha Ads</td><td><code>implementation 'com.example:alpha-adapter:+'</code></td></tr>
<tr><td>Beta Exchange</td><td><code>implementation 'com.example:beta-adapter:+'</code></td></tr>
</tbody></table>
</div>
</div><p>After</p>`;
}

async function mount(platform: string, native?: string, routes: Parameters<typeof routeApi>[0] = published) {
  const { api, fetch } = routeApi(routes);
  const result = renderContent(builderHtml(platform, native), { api });
  await flush();
  return { ...result, fetch, host: result.article.querySelector<HTMLElement>('[data-dg-block="dependency-builder"]')! };
}

const tick = (name: string) => fireEvent.click(screen.getByRole('checkbox', { name }));
const names = () => screen.getAllByRole('checkbox').map((c) => c.getAttribute('aria-labelledby') && document.getElementById(c.getAttribute('aria-labelledby')!)!.textContent);
const code = (lang: string) => document.querySelector(`.dg-builder .dg-code-panel[data-lang="${lang}"] code`)?.textContent ?? null;

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

describe('dependency builder', () => {
  it('lists the Android adapters of the catalogue as labelled checkboxes in a fieldset, in catalogue order', async () => {
    const { host, fetch } = await mount('android');
    expect(host).toHaveAttribute('data-dg-mounted');
    const group = screen.getByRole('group', { name: 'Networks' });
    expect(group.tagName).toBe('FIELDSET');
    // Gamma ships for iOS only; Alpha Bidding is listed under Alpha; the SDK entry is no adapter.
    expect(names()).toEqual(['Beta Exchange', 'Alpha Ads', 'Delta']);
    const alpha = screen.getByRole('checkbox', { name: 'Alpha Ads' });
    expect(alpha).not.toBeChecked();
    expect(alpha).toHaveAccessibleDescription('Bidding Banner, Interstitial, Rewarded');
    expect(screen.getByRole('checkbox', { name: 'Beta Exchange' })).toHaveAccessibleDescription('App Open, Native');
    expect(screen.getByText('0 of 3 networks selected')).toBeInTheDocument();
    expect(screen.getByText('Tick the networks you use to get their lines.')).toBeInTheDocument();
    expect(host.querySelector('.dg-code')).toBeNull();
    // The fallback table is gone; the page around it stays.
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Before')).toBeInTheDocument();
    // An Android page needs no SKAdNetwork IDs.
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([NETWORKS_URL]);
  });

  it('writes the Gradle lines of exactly the ticked networks, repositories first, each line once', async () => {
    await mount('android');
    tick('Alpha Ads');
    expect(code('groovy')).toBe(
      "repositories {\n    maven { url 'https://repo.alpha.test/maven' }\n}\n\ndependencies {\n    implementation 'com.example:alpha-adapter:+'\n    implementation 'com.example:shared:1.0'\n}\n",
    );
    expect(screen.queryByRole('tab')).toBeNull();
    expect(document.querySelector('.dg-builder .dg-code-label')).toHaveTextContent('Gradle');

    tick('Beta Exchange');
    expect(code('groovy')).toBe(
      "repositories {\n    maven { url 'https://repo.alpha.test/maven' }\n}\n\ndependencies {\n    implementation 'com.example:beta-adapter:+'\n    implementation 'com.example:shared:1.0'\n    implementation 'com.example:alpha-adapter:+'\n}\n",
    );

    tick('Alpha Ads');
    expect(code('groovy')).toBe("dependencies {\n    implementation 'com.example:beta-adapter:+'\n    implementation 'com.example:shared:1.0'\n}\n");
    expect(screen.getByText('1 of 3 networks selected')).toBeInTheDocument();

    tick('Beta Exchange');
    expect(code('groovy')).toBeNull();
    expect(screen.getByText('Tick the networks you use to get their lines.')).toBeInTheDocument();
  });

  it('copies the Gradle snippet through the code box', async () => {
    await mount('android');
    tick('Delta');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await flush();
    expect(writeText).toHaveBeenCalledWith("repositories {\n    maven { url 'https://repo.delta.test' }\n}\n\ndependencies {\n    implementation 'com.example:delta-adapter:+'\n}\n");
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('selects all and clears', async () => {
    await mount('android');
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getAllByRole('checkbox').every((c) => (c as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByText('3 of 3 networks selected')).toBeInTheDocument();
    expect(code('groovy')).toBe(
      [
        'repositories {',
        "    maven { url 'https://repo.alpha.test/maven' }",
        "    maven { url 'https://repo.delta.test' }",
        '}',
        '',
        'dependencies {',
        "    implementation 'com.example:beta-adapter:+'",
        "    implementation 'com.example:shared:1.0'",
        "    implementation 'com.example:alpha-adapter:+'",
        "    implementation 'com.example:delta-adapter:+'",
        '}',
        '',
      ].join('\n'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getAllByRole('checkbox').some((c) => (c as HTMLInputElement).checked)).toBe(false);
    expect(code('groovy')).toBeNull();
  });

  it('on iOS writes the Podfile lines and the Info.plist entries: the core list and the ticked networks’ IDs, once each, sorted', async () => {
    const { fetch } = await mount('ios');
    expect(names()).toEqual(['Beta Exchange', 'Alpha Ads', 'Gamma']);
    expect(screen.getByRole('checkbox', { name: 'Gamma' })).toHaveAccessibleDescription('Removed: Removed from AppLovin’s public repositories MREC');
    expect(fetch.mock.calls.map((c) => c[0]).sort()).toEqual([NETWORKS_URL, SKAD_URL]);

    tick('Alpha Ads');
    tick('Beta Exchange');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Podfile', 'Info.plist']);
    expect(code('ruby')).toBe("pod 'BetaAdapter'\npod 'BetaSDK'\npod 'AlphaAdapter'\n");
    expect(code('xml')).toBe(
      '<key>SKAdNetworkItems</key>\n<array>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>a1.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>b1.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>c1.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>c2.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>m5.skadnetwork</string>\n    </dict>\n' +
        '    <dict>\n        <key>SKAdNetworkIdentifier</key>\n        <string>z9.skadnetwork</string>\n    </dict>\n' +
        '</array>\n',
    );

    fireEvent.click(screen.getByRole('tab', { name: 'Info.plist' }));
    expect(screen.getByRole('tabpanel')).toHaveAttribute('data-lang', 'xml');

    tick('Alpha Ads');
    tick('Gamma');
    expect(code('ruby')).toBe("pod 'BetaAdapter'\npod 'BetaSDK'\npod 'GammaAdapter'\n");
    expect(code('xml')).toBe(
      `<key>SKAdNetworkItems</key>\n<array>\n${plistItems(['a1.skadnetwork', 'b1.skadnetwork', 'c1.skadnetwork', 'c2.skadnetwork', 'g1.skadnetwork', 'm5.skadnetwork'])}</array>\n`,
    );
  });

  it('on a plugin page lists both sides’ adapters and gives each side its lines', async () => {
    await mount('unity');
    expect(names()).toEqual(['Beta Exchange', 'Alpha Ads', 'Gamma', 'Delta']);
    tick('Gamma');
    // Gamma has no Android adapter: no Gradle snippet.
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Podfile', 'Info.plist']);
    expect(code('groovy')).toBeNull();
    tick('Delta');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Gradle', 'Podfile', 'Info.plist']);
    expect(code('groovy')).toBe("repositories {\n    maven { url 'https://repo.delta.test' }\n}\n\ndependencies {\n    implementation 'com.example:delta-adapter:+'\n}\n");
    expect(code('ruby')).toBe("pod 'GammaAdapter'\n");
    // Delta has no iOS adapter, so it adds no IDs.
    expect(code('xml')).toBe(`<key>SKAdNetworkItems</key>\n<array>\n${plistItems(['c1.skadnetwork', 'c2.skadnetwork', 'g1.skadnetwork', 'm5.skadnetwork'])}</array>\n`);
  });

  it('on a plugin’s Android or iOS page keeps to that side', async () => {
    const { fetch } = await mount('unity', 'android');
    expect(names()).toEqual(['Beta Exchange', 'Alpha Ads', 'Delta']);
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.queryByRole('tab')).toBeNull();
    expect(code('groovy')).toContain("implementation 'com.example:delta-adapter:+'");
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([NETWORKS_URL]);
  });

  it('keeps the fallback table while the catalogue loads', async () => {
    let answer!: (r: Response) => void;
    const { host } = await mount('android', undefined, { [NETWORKS_URL]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    expect(host).toHaveAttribute('data-dg-mounted');
    expect(within(host).getByRole('table')).toHaveTextContent("implementation 'com.example:alpha-adapter:+'");
    // The fallback's own table island works (it is a paged table now).
    expect(host.querySelector('.dg-table')).toHaveAttribute('data-dg-mounted');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => { answer(respond({ networks: catalogue })); });
    expect(within(host).queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
  });

  it('keeps the fallback table and says so when the catalogue cannot be loaded', async () => {
    const { host } = await mount('android', undefined, { [NETWORKS_URL]: respond('gone', 500, 'text/plain') });
    expect(screen.getByRole('alert')).toHaveTextContent('The network list could not be loaded');
    expect(within(host).getByRole('table')).toHaveTextContent('Beta Exchange');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('keeps the fallback when the answer has no catalogue in it', async () => {
    const { host } = await mount('ios', undefined, { [NETWORKS_URL]: respond({ other: [] }), [SKAD_URL]: respond({ mediationSKAdnetworkIdsSpecs: specs }) });
    expect(screen.getByRole('alert')).toHaveTextContent('The network list could not be loaded');
    expect(within(host).getByRole('table')).toBeInTheDocument();
  });

  it('without the SKAdNetwork IDs still builds the Podfile, and says the Info.plist entries are missing', async () => {
    await mount('ios', undefined, { [NETWORKS_URL]: respond({ networks: catalogue }), [SKAD_URL]: new HttpError(404, SKAD_URL) });
    expect(screen.getByRole('alert')).toHaveTextContent('The SKAdNetwork IDs could not be loaded');
    tick('Alpha Ads');
    expect(screen.queryByRole('tab')).toBeNull();
    expect(code('ruby')).toBe("pod 'AlphaAdapter'\n");
    expect(code('xml')).toBeNull();
  });
});

describe('the networks and lines of a platform', () => {
  it('takes the natives of a page from its platform and data-native', () => {
    expect(nativesFor('android', null)).toEqual(['android']);
    expect(nativesFor('ios', null)).toEqual(['ios']);
    expect(nativesFor('flutter', null)).toEqual(['android', 'ios']);
    expect(nativesFor('godot', 'ios')).toEqual(['ios']);
    expect(nativesFor('react-native', 'nonsense')).toEqual(['android', 'ios']);
  });

  it('reads only adapters on the adapter list, and survives odd entries', () => {
    const all = adapterNetworks([...catalogue, null, 'x', { type: 'adapter' }, { type: 'adapter', displayName: 'Odd', platform: 'android', headerCode: 'no' }]);
    expect(all.map((n) => n.key)).toEqual(['alpha', 'beta', 'gamma', 'delta', 'Odd']);
    expect(networksFor(all, ['android']).map((n) => n.key)).toEqual(['beta', 'alpha', 'delta', 'Odd']);
    expect(gradleSnippet(networksFor(all, ['android']).filter((n) => n.key === 'Odd'))).toBe('');
    expect(podfileSnippet([])).toBe('');
    expect(adapterNetworks(null)).toEqual([]);
  });
});
