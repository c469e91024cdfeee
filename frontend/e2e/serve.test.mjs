// The writer's loop in a browser: `docgen serve` reloads an open page after a save, keeping its
// scroll position, shows a content error over the page and clears it when the file is fixed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { docgenBin, fixture, launch, M } from './harness.mjs';

let tmp;
let server;
let url;
let browser;

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'docgen-serve-e2e-'));
  cpSync(fixture, path.join(tmp, 'site'), { recursive: true });
  server = spawn(docgenBin, ['serve', '--port', '0', '--root', path.join(tmp, 'site'), '--out', path.join(tmp, 'out')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise((resolve, reject) => {
    let log = '';
    server.stderr.on('data', (chunk) => {
      log += chunk;
      const m = log.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) resolve(m[0]);
    });
    server.on('exit', (code) => reject(new Error(`docgen serve exited with ${code}: ${log}`)));
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('docgen serve', () => {
  it('reloads after a save, keeps the scroll position, and shows and clears an error overlay', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
    await page.goto(`${url}${M}/android/advanced-settings`);
    await page.waitForFunction(() => document.documentElement.classList.contains('dg-js'));
    await page.evaluate(() => window.scrollTo(0, 900));
    const file = path.join(tmp, 'site', 'content/documentation/mediation/android/advanced-settings.md');
    const good = readFileSync(file, 'utf8');

    // A save reloads the open page where the reader was.
    const reloaded = page.waitForEvent('load');
    writeFileSync(file, `${good}\n\nA sentence added while the page was open.\n`);
    await reloaded;
    await page.waitForFunction(() => window.scrollY > 800, undefined, { timeout: 5000 });
    assert.ok(await page.getByText('A sentence added while the page was open.').count());

    // A broken front matter shows the terminal's diagnostic over the page.
    writeFileSync(file, good.replace(/^title:/m, 'titel:'));
    const overlay = page.locator('#docgen-error-overlay');
    await overlay.waitFor({ timeout: 10000 });
    const text = await overlay.textContent();
    assert.match(text, /content\/documentation\/mediation\/android\/advanced-settings\.md:\d+:\d+/);
    assert.match(text, /did you mean `title`\?/);

    // Fixing the file clears it.
    writeFileSync(file, good);
    await overlay.waitFor({ state: 'detached', timeout: 10000 });
    await page.close();
  });

  it('finds the words of a save through search once the writer pauses', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
    const file = path.join(tmp, 'site', 'content/documentation/mediation/android/advanced-settings.md');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, `${good}\n\nThe zanzibarquux setting is new.\n`);
    const box = page.getByRole('combobox', { name: 'Search' });
    const found = page.locator('[role="listbox"] .dg-search-page[href$="/android/advanced-settings"]');
    // The index is written after the page, when the writer pauses: ask again until it is.
    let hit = false;
    for (let attempt = 0; attempt < 20 && !hit; attempt++) {
      await page.goto(`${url}${M}/android/advanced-settings`);
      await page.waitForFunction(() => document.documentElement.classList.contains('dg-js'));
      await page.keyboard.press('/');
      await box.fill('zanzibarquux');
      hit = await found
        .first()
        .waitFor({ timeout: 1000 })
        .then(() => true)
        .catch(() => false);
    }
    assert.ok(hit, 'the new word leads to the edited page');
    writeFileSync(file, good);
    await page.close();
  });
});
