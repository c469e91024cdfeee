import { chromium } from 'playwright-core';
import { disabledFeatures, serve, buildSite } from './harness.mjs';
import { readFileSync } from 'node:fs';
const extra = process.argv.slice(2);
const site = buildSite();
const server = await serve(site.dir);
const features = await disabledFeatures();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync',`--disable-features=${features}`, ...extra] });
function cpu() {
  // all chromium processes' CPU (utime+stime) in ticks
  const { execSync } = require_();
  return Number(execSync("cat /proc/[0-9]*/stat 2>/dev/null | awk '$2 ~ /chromium/ {s+=$14+$15} END {print s/100}'").toString());
}
function require_() { return { execSync: globalThis.__exec }; }
globalThis.__exec = (await import('node:child_process')).execSync;
async function phase(name, n, fn) {
  const c0 = cpu(); const t0 = Date.now();
  for (let i = 0; i < n; i++) await fn(i);
  console.log(name.padEnd(12), 'cpu', cpu() - c0, 's  wall', Date.now() - t0, 'ms');
}
await phase('contexts', 10, async () => { const c = await browser.newContext(); const p = await c.newPage(); await p.goto('about:blank'); await c.close(); });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
const types = () => Object.fromEntries(globalThis.__exec("for f in /proc/[0-9]*; do c=$(tr '\\0' ' ' < $f/cmdline 2>/dev/null); case \"$c\" in *chromium*) echo \"$(basename $f) $(awk '{print $14+$15}' $f/stat) $c\";; esac; done").toString().trim().split('\n').map((l) => { const [pid, t] = l.trim().split(/\s+/); const ty = (l.match(/--type=(\S+)/) || [0, 'browser'])[1]; return [pid + ' ' + ty, Number(t) / 100]; }));
const a0 = types();
await phase('navigations', 20, async () => { await page.goto(server.url + '/documentation/mediation/android/ad-formats/banners'); await page.waitForLoadState('networkidle'); });
const b0 = types();
for (const k of Object.keys(b0)) if (b0[k] - (a0[k] ?? 0) > 0.05) console.log('  ', k, (b0[k] - (a0[k] ?? 0)).toFixed(2));
await phase('screenshots', 10, async () => { await page.screenshot({ fullPage: true }); });
const types2 = () => Object.fromEntries(globalThis.__exec("ps -C chromium -o pid=,times=,args=").toString().trim().split('\n').map((l) => { const [pid, t] = l.trim().split(/\s+/); const ty = (l.match(/--type=(\S+)/) || [0, 'browser'])[1]; return [pid + ' ' + ty, Number(t)]; }));
const a = types2();
await phase('idle 5s', 1, async () => { await new Promise(r => setTimeout(r, 5000)); });
const b = types2();
for (const k of Object.keys(b)) if (b[k] - (a[k] ?? 0) > 0) console.log('  ', k, b[k] - (a[k] ?? 0));
await page.goto('about:blank');
await phase('idle blank', 1, async () => { await new Promise(r => setTimeout(r, 5000)); });
await browser.close(); await server.close(); site.cleanup();
