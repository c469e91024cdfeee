// The data-driven islands in a browser, on the data the fixture site publishes (docs/v1/...):
// the dependency builder, the SKAdNetwork generator and the changelog.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { M, ready, start } from './harness.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

const PAGE = `${M}/reference/generators`;

async function open(options) {
  const page = await env.page(options);
  await page.goto(env.url + PAGE);
  await ready(page);
  return page;
}

describe('dependency builder', () => {
  it('writes the Gradle lines of the networks the reader ticks', async () => {
    const page = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
    const builder = page.locator('[data-dg-block="dependency-builder"]');
    const acme = builder.getByRole('checkbox', { name: 'Acme Ads' });
    await acme.waitFor();
    // The catalogue replaced the fallback table; the SDK entry and the iOS-only network are not offered.
    assert.equal(await builder.locator('table').count(), 0);
    assert.deepEqual(await builder.locator('.dg-picker-name').allTextContents(), ['Acme Ads', 'Zeta Exchange']);
    assert.equal(await builder.locator('.dg-code').count(), 0);

    // Keyboard: focus the first checkbox and tick it with the space bar.
    await acme.focus();
    await page.keyboard.press('Space');
    assert.equal(await acme.isChecked(), true);
    const gradle = builder.locator('.dg-code-panel[data-lang="groovy"] code');
    assert.equal(
      await gradle.textContent(),
      "repositories {\n    maven { url 'https://maven.acme.example.test/releases' }\n}\n\ndependencies {\n    implementation 'com.example.mediation:acme-adapter:+'\n}\n",
    );

    await builder.getByText('Zeta Exchange', { exact: true }).click();
    assert.equal(
      await gradle.textContent(),
      "repositories {\n    maven { url 'https://maven.acme.example.test/releases' }\n}\n\ndependencies {\n    implementation 'com.example.mediation:acme-adapter:+'\n    implementation 'com.example.mediation:zeta-adapter:+'\n    implementation 'com.example.zeta:zeta-sdk:4.2.0'\n}\n",
    );

    await acme.click();
    const zetaOnly = "dependencies {\n    implementation 'com.example.mediation:zeta-adapter:+'\n    implementation 'com.example.zeta:zeta-sdk:4.2.0'\n}\n";
    assert.equal(await gradle.textContent(), zetaOnly);
    await builder.getByRole('button', { name: 'Copy' }).click();
    await builder.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), zetaOnly);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('leaves the table readable without JavaScript', async () => {
    const page = await env.page({ javaScriptEnabled: false });
    await page.goto(env.url + PAGE);
    const table = page.locator('[data-dg-block="dependency-builder"] table');
    assert.equal(await table.isVisible(), true);
    assert.match(await table.textContent(), /com\.example\.mediation:zeta-adapter/);
    await page.context().close();
  });
});

describe('SKAdNetwork generator', () => {
  it('adds the IDs of the ticked networks to the core list, each once, sorted', async () => {
    const page = await open();
    const generator = page.locator('[data-dg-block="skadnetwork-generator"]');
    await generator.getByRole('checkbox', { name: 'Acme Ads' }).check();
    await generator.getByText('4 SKAdNetwork IDs').waitFor();
    const ids = await generator.locator('.dg-code-panel code').evaluate((code) => Array.from(code.textContent.matchAll(/<string>([^<]+)<\/string>/g), (m) => m[1]));
    assert.deepEqual(ids, ['22mmun2rn5.skadnetwork', '3qcr597p9d.skadnetwork', '4dzt52r2t5.skadnetwork', 'x44k69ngh6.skadnetwork']);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('changelog', () => {
  it('narrows the releases as the reader types', async () => {
    const page = await open();
    const changelog = page.locator('[data-dg-block="changelog"]');
    const filter = changelog.getByRole('searchbox', { name: 'Filter by version or text' });
    const versions = () => changelog.locator('h3').evaluateAll((hs) => hs.map((h) => h.id));
    await filter.waitFor();
    assert.deepEqual(await versions(), ['2.10.0', '2.9.0', '2.1.0']);
    await filter.pressSequentially('context');
    assert.deepEqual(await versions(), ['2.9.0']);
    await filter.fill('nothing like this');
    await changelog.getByText('No Results').waitFor();
    assert.deepEqual(await versions(), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('accessibility (axe-core)', () => {
  it('finds no violations with every island loaded and in use', async () => {
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const page = await open();
    await page.locator('[data-dg-block="dependency-builder"]').getByRole('checkbox', { name: 'Zeta Exchange' }).check();
    await page.locator('[data-dg-block="skadnetwork-generator"]').getByRole('checkbox', { name: 'Iota' }).check();
    await page.locator('[data-dg-block="changelog"]').getByRole('searchbox').fill('no such release');
    await page.getByText('No Results').waitFor();
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    assert.deepEqual(
      result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })),
      [],
    );
    await page.context().close();
  });
});
