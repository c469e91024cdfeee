// The bid-response validator's evaluator over the rules docgen compiled from this site's data
// (test/fixtures/bid-rules.json, kept equal to the compiler's output by a Rust test): the spec's
// examples pass, and each rule is caught, alone, by a response that breaks it.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BidRules } from '../generated/BidRules';
import { FORMAT, createValidator, macros, markupKind, seconds, tier1, type Report } from '../validator/engine';
import { JsonSyntaxError, parseJson } from '../validator/json';
import { parseXml, XmlSyntaxError } from '../validator/xml';

const rules = JSON.parse(readFileSync(path.join(__dirname, 'fixtures/bid-rules.json'), 'utf8')) as BidRules;
const validator = createValidator(rules);

// Bid JSON is reached into and rewritten by path all over these tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const example = (id: string) => {
  const ex = rules.examples.find((e) => e.id === id);
  if (!ex) throw new Error(`no example ${id}`);
  return { response: JSON.parse(ex.response) as Json, request: JSON.parse(ex.request) as Json };
};
const bidOf = (r: Json) => r.seatbid[0].bid[0];

function findings(report: Report) {
  if (report.status !== 'checked') throw new Error(`not checked: ${JSON.stringify(report)}`);
  return report.findings;
}

/** The rule ids a response (and request) break, each once. */
function broken(response: Json | string, request?: Json | string): string[] {
  const text = (v: Json | string) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  return [...new Set(findings(validator.validate(text(response), request === undefined ? undefined : text(request))).map((f) => f.ruleId))].sort();
}

/** An example's response and request, changed by `change`. */
function changed(id: string, change: (response: Json, request: Json) => void) {
  const { response, request } = example(id);
  change(response, request);
  return { response, request };
}

const withAdm = (r: Json, f: (adm: string) => string) => {
  bidOf(r).adm = f(bidOf(r).adm);
};
const nativeAdm = (r: Json, f: (n: Json) => void) => {
  const n = JSON.parse(bidOf(r).adm);
  f(n.native);
  bidOf(r).adm = JSON.stringify(n);
};
const asset = (n: Json, id: number) => n.assets.find((a: Json) => a.id === id);
const html = (markup: string) => encodeURIComponent(markup);
const skadn = (b: Json) => {
  b.bundle = '9876543210';
  b.ext = { ...(b.ext ?? {}), skadn: { version: '4.0', network: 'yourdspid1.skadnetwork', campaign: '42', itunesitem: '9876543210', sourceapp: '1234567890' } };
};

describe('the examples of the specification', () => {
  it('are its banner, SKAdNetwork video, native and connected-TV responses, each of its kind', () => {
    expect(rules.examples.map((e) => [e.id, e.label])).toEqual([
      ['banner', 'Banner'],
      ['video', 'Video with SKAdNetwork'],
      ['native', 'Native'],
      ['ctv', 'Connected TV'],
    ]);
    const kinds = rules.examples.map((e) => markupKind(bidOf(JSON.parse(e.response)).adm));
    expect(kinds).toEqual(['html', 'vast', 'native', 'vast']);
    // The spec's SKAdNetwork example is its video one: skadn in the bid, skadnetids in the request.
    const video = example('video');
    expect(bidOf(video.response).ext.skadn).toBeTruthy();
    expect(video.request.imp[0].video).toBeTruthy();
    expect(video.request.imp[0].ext.skadn.skadnetids).toContain(bidOf(video.response).ext.skadn.network);
    expect(example('ctv').request.device.devicetype).toBe(3);
  });

  for (const ex of rules.examples) {
    it(`${ex.label}: the response passes every rule against its request, and alone`, () => {
      expect(findings(validator.validate(ex.response, ex.request))).toEqual([]);
      const alone = validator.validate(ex.response);
      expect(findings(alone)).toEqual([]);
      expect(alone.status === 'checked' && alone.skipped).toBeGreaterThan(0);
    });
    it(`${ex.label}: its request passes the rules about requests`, () => {
      expect(findings(validator.validate(ex.response, ex.request)).filter((f) => f.which === 'request')).toEqual([]);
    });
  }
});

/** For each rule of the specification: a message that breaks it and no other rule. */
const cases: Partial<Record<string, () => { response: Json | string; request?: Json }>> = {
  'basics-05': () => changed('banner', (r) => (bidOf(r).ext.imptrackers = [`https://measure.example.com/imp?c=${'x'.repeat(3000)}`])),
  'basics-07': () => changed('banner', (r) => (r.id = 'another-auction')),
  'basics-08': () => ({ response: changed('banner', (r) => (r.cur = 'EUR')).response }),
  'basics-09': () => changed('banner', (_r, q) => (q.at = 2)),
  'basics-10': () => ({ response: changed('banner', (r) => (bidOf(r).adomain = ['https://advertiser.example.com/'])).response }),
  'basics-11': () => changed('banner', (r, q) => (bidOf(r).bundle = q.app.bundle)),
  'basics-12': () => ({ response: changed('video', (r) => delete bidOf(r).bundle).response }),
  'basics-13': () => changed('banner', (r) => (bidOf(r).bundle = 'com.example.rival')),
  'basics-14': () => changed('banner', (r) => (bidOf(r).adomain = ['blocked-brand.example'])),
  'basics-15': () => ({ response: changed('banner', (r) => (r.seatbid[0].seat = 'seat_1!')).response }),
  'basics-16': () => ({ response: changed('banner', (r) => delete bidOf(r).burl).response }),
  'basics-17': () => ({ response: changed('banner', (r) => (bidOf(r).adm = '<div><a href="https://advertiser.example.com">Play</a></div>')).response }),
  'basics-18': () => ({ response: changed('banner', (r) => (bidOf(r).adm = html('<div>\n<a href="https://advertiser.example.com">Play</a>\n</div>'))).response }),
  'basics-19': () => ({ response: changed('banner', (r) => delete bidOf(r).adm).response }),
  'basics-20': () => ({ response: changed('banner', (r) => (bidOf(r).nurl = 'https://bidder.example.com/win?price=${auction_price}')).response }),
  'formats-02': () =>
    changed('native', (_r, q) => {
      q.imp[0].video = { mimes: ['video/3gpp'], linearity: 1 };
      q.imp[0].instl = 1;
    }),
  'formats-03': () => ({ response: changed('video', (r) => { withAdm(r, (a) => a.replace('version="4.1"', 'version="5.0"')); }).response }),
  'formats-04': () => ({ response: changed('banner', (r) => (bidOf(r).api = 2)).response }),
  'formats-05': () =>
    ({
      response: changed('video', (r) => {
        bidOf(r).w = 300;
        bidOf(r).h = 250;
      }).response,
    }),
  'formats-06': () =>
    changed('banner', (r) => {
      bidOf(r).w = 300;
      bidOf(r).h = 600;
    }),
  'formats-07': () => changed('banner', (_r, q) => (q.imp[0].instl = 1)),
  'formats-08': () => ({ response: changed('native', (r) => { nativeAdm(r, (n) => (asset(n, 1).title.text = 'T'.repeat(51))); }).response }),
  'formats-09': () => ({ response: changed('native', (r) => { nativeAdm(r, (n) => (asset(n, 4).data.value = 'D'.repeat(151))); }).response }),
  'formats-10': () => ({ response: changed('native', (r) => { nativeAdm(r, (n) => (asset(n, 5).data.value = 'Install the app now')); }).response }),
  'formats-11': () => ({ response: changed('native', (r) => { nativeAdm(r, (n) => (asset(n, 8).data.value = 'S'.repeat(26))); }).response }),
  'formats-12': () => ({ response: changed('native', (r) => { nativeAdm(r, (n) => (asset(n, 2).img.w = 600)); }).response }),
  'formats-13': () => ({ response: changed('native', (r) => { nativeAdm(r, (n) => (asset(n, 3).img.h = 40)); }).response }),
  'formats-14': () =>
    changed('native', (_r, q) => {
      const native = JSON.parse(q.imp[0].native.request);
      asset(native, 3).img.wmin = 50;
      q.imp[0].native.request = JSON.stringify(native);
    }),
  'formats-15': () => ({ response: changed('native', (r) => { nativeAdm(r, (n) => delete n.link.url); }).response }),
  'blocked-01': () => ({ response: changed('banner', (r) => (bidOf(r).attr = [17])).response }),
  'blocked-02': () =>
    changed('banner', (r, q) => {
      bidOf(r).attr = [13];
      q.imp[0].banner.battr.push(13);
    }),
  'blocked-03': () => ({ response: changed('banner', (r) => (bidOf(r).cat = ['IAB25'])).response }),
  'blocked-04': () => changed('banner', (_r, q) => (q.app.cat = ['IAB9-7'])),
  'blocked-05': () => changed('banner', (_r, q) => (q.imp[0].banner.btype = [1])),
  'vast-01': () =>
    ({
      response: changed('video', (r) => { withAdm(r, (a) => a.replace('</Creatives>', '<Creative id="nl"><NonLinearAds><NonLinear width="320" height="50"></NonLinear></NonLinearAds></Creative></Creatives>')); },
      ).response,
    }),
  'vast-02': () => changed('video', (_r, q) => (q.imp[0].instl = 0)),
  'vast-03': () => ({ response: changed('video', (r) => { withAdm(r, (a) => a.replace('https://cdn.example.com/video', 'http://cdn.example.com/video')); }).response }),
  'vast-04': () => ({ response: changed('video', (r) => { withAdm(r, (a) => encodeURIComponent(a)); }).response }),
  'vast-05': () => ({ response: changed('video', (r) => { withAdm(r, (a) => a.replace('00:00:30', '00:00:03')); }).response }),
  'vast-06': () => changed('video', (r) => { withAdm(r, (a) => a.replace('00:00:30', '00:00:10')); }),
  'vast-09': () => ({ response: changed('video', (r) => { withAdm(r, (a) => a.replace('type="video/mp4"', 'type="video/x-flv"')); }).response }),
  'vast-10': () => changed('video', (r) => { withAdm(r, (a) => a.replace('type="video/mp4"', 'type="video/3gpp"')); }),
  'vast-12': () =>
    ({
      response: changed('video', (r) => { withAdm(r, (a) => a.replace('<VideoClicks>', '<VideoClicks><ClickThrough><![CDATA[exampleapp://open/level-3]]></ClickThrough>')); }).response,
    }),
  // A video bid (protocol 7) whose adm links to the VAST instead of holding it.
  'vast-13': () =>
    ({
      response: changed('video', (r) => {
        const bid = bidOf(r);
        bid.adm = 'https://ads.example.com/vast/123.xml';
        delete bid.ext.skadn;
      }).response,
    }),
  'mraid-02': () =>
    changed('banner', (r, q) => {
      q.imp[0].rwdd = 1;
      bidOf(r).ext.duration = 45;
    }),
  'mraid-03': () =>
    ({
      response: changed('banner', (r) => (bidOf(r).adm = html('<script src="mraid.js"></script><a onclick="window.open(\'https://advertiser.example.com\')">Play</a>'))).response,
    }),
  'ctv-01': () =>
    changed('ctv', (r, q) => {
      withAdm(r, (a) => a.replace('type="video/mp4"', 'type="video/webm"'));
      q.imp[0].video.mimes.push('video/webm');
    }),
  'ctv-02': () => changed('ctv', (r) => delete bidOf(r).ext.duration),
  'ctv-03': () => changed('ctv', (r) => { withAdm(r, (a) => a.replace('bitrate="4500"', 'bitrate="9000"')); }),
  'ctv-04': () =>
    changed('ctv', (r) => {
      bidOf(r).w = 1024;
      bidOf(r).h = 768;
    }),
  'skadnetwork-03': () =>
    ({
      response: changed('video', (r) => { withAdm(r, (a) => a.replace('<VideoClicks>', '<VideoClicks><ClickThrough><![CDATA[https://advertiser.example.com]]></ClickThrough>')); }).response,
    }),
  'skadnetwork-04': () => ({ response: changed('banner', (r) => { skadn(bidOf(r)); }).response }),
  'skadnetwork-05': () =>
    ({
      response: changed('video', (r) => {
        bidOf(r).ext.skadn.version = '3.0';
        bidOf(r).ext.skadn.campaign = '150';
      }).response,
    }),
  'skadnetwork-06': () => ({ response: changed('video', (r) => (bidOf(r).ext.skadn.version = '1.0')).response }),
  'skadnetwork-07': () => changed('video', (r) => (bidOf(r).ext.skadn.network = 'someoneelse.skadnetwork')),
  'viewability-01': () => ({ response: changed('banner', (r) => (bidOf(r).ext.vendor = 'comscore')).response }),
  'viewability-02': () =>
    ({
      response: changed('video', (r) => { withAdm(r, (a) =>
          a.replace(
            '<Creatives>',
            '<AdVerifications><Verification vendor="ias"><JavaScriptResource apiFramework="omid"><![CDATA[https://verify.example.com/omid.js]]></JavaScriptResource></Verification></AdVerifications><Creatives>',
          ),
        ); },
      ).response,
    }),
  'viewability-03': () => ({ response: changed('banner', (r) => (bidOf(r).adm = html('<script src="http://verify.example.com/omid.js"></script><img src="https://cdn.example.com/a.png">'))).response }),
};

describe('each rule of the specification', () => {
  const specRules = rules.rules.filter((r) => r.origin === 'rule');

  it('has a case here, and every case names a compiled rule', () => {
    expect(Object.keys(cases).sort()).toEqual(specRules.map((r) => r.id).sort());
  });

  for (const rule of specRules) {
    it(`${rule.id} is caught alone: ${rule.text}`, () => {
      const c = cases[rule.id];
      if (!c) throw new Error(`no case for ${rule.id}`);
      const { response, request } = c();
      expect(broken(response, request)).toEqual([rule.id]);
      const report = validator.validate(typeof response === 'string' ? response : JSON.stringify(response), request && JSON.stringify(request));
      for (const f of findings(report)) {
        expect(f.severity).toBe(rule.severity);
        expect(f.href).toBe(rule.href);
        expect(f.which).toBe(rule.message);
      }
    });
  }
});

describe('blocked categories', () => {
  const withCat = (cat: string[], bcat?: string[]) =>
    changed('banner', (r, q) => {
      bidOf(r).cat = cat;
      if (bcat) q.bcat = bcat;
    });

  it('a subcategory of a blocked tier-1 category is blocked, by the spec list and by bcat', () => {
    expect(broken(withCat(['IAB25-3']).response)).toEqual(['blocked-03']);
    expect(broken(...(Object.values(withCat(['IAB7-1'], ['IAB7'])) as [Json, Json]))).toEqual(['blocked-03']);
    expect(broken(...(Object.values(withCat(['IAB9-30', 'IAB7-12'], ['IAB7'])) as [Json, Json]))).toEqual(['blocked-03']);
  });

  it('a blocked subcategory leaves its parent and its siblings open', () => {
    expect(broken(withCat(['IAB8']).response)).toEqual([]);
    expect(broken(withCat(['IAB8-4', 'IAB11-3']).response)).toEqual([]);
    expect(broken(...(Object.values(withCat(['IAB7'], ['IAB7-1'])) as [Json, Json]))).toEqual([]);
    expect(broken(...(Object.values(withCat(['IAB7-2'], ['IAB7-1'])) as [Json, Json]))).toEqual([]);
    // A tier-1 category is matched whole, not as a prefix.
    expect(broken(...(Object.values(withCat(['IAB17-1'], ['IAB1'])) as [Json, Json]))).toEqual([]);
  });
});

describe('notification macros', () => {
  const withUrl = (field: 'nurl' | 'lurl' | 'burl', url: string) => changed('banner', (r) => (bidOf(r)[field] = url)).response;

  it('a URL-encoded macro is not written inside ${...}, in nurl, lurl and burl', () => {
    for (const field of ['nurl', 'lurl', 'burl'] as const) {
      expect(broken(withUrl(field, 'https://bidder.example.com/n?price=%24%7BAUCTION_PRICE%7D'))).toEqual(['basics-20']);
      expect(broken(withUrl(field, 'https://bidder.example.com/n?price=%24%7bAUCTION_PRICE%7d'))).toEqual(['basics-20']);
      expect(broken(withUrl(field, 'https://bidder.example.com/n?price=$%7BAUCTION_PRICE%7D'))).toEqual(['basics-20']);
      expect(broken(withUrl(field, 'https://bidder.example.com/n?price=%7BAUCTION_PRICE%7D'))).toEqual(['basics-20']);
    }
    const [f] = findings(validator.validate(JSON.stringify(withUrl('burl', 'https://bidder.example.com/b?p=%24%7BAUCTION_PRICE%7D'))));
    expect(f).toMatchObject({ ruleId: 'basics-20', path: 'seatbid[0].bid[0].burl', severity: 'error' });
  });

  it('other percent-escapes around a written macro pass', () => {
    expect(broken(withUrl('burl', 'https://bidder.example.com/b?to=https%3A%2F%2Fx.example%2F&p=${AUCTION_PRICE}'))).toEqual([]);
  });

  it('macros in HTML markup are not read: the spec asks for that markup URL-encoded', () => {
    const adm = html('<img src="https://bidder.example.com/imp?p=${AUCTION_PRICE}"><a href="https://advertiser.example.com">Play</a>');
    expect(broken(changed('banner', (r) => (bidOf(r).adm = adm)).response)).toEqual([]);
  });
});

/** A value of another type than the field table's, for each table type. */
function wrongValue(condition: string): unknown {
  if (condition.includes('is array')) return 'not-a-list';
  if (condition.includes('is float')) return '1.25';
  if (condition.includes('is integer')) return 1.5;
  if (condition.includes('is object')) return 'not-an-object';
  return 42;
}

describe('the field tables', () => {
  const fieldRules = rules.rules.filter((r) => r.origin === 'field' && !r.id.startsWith('native-asset.'));
  const bidFields = (id: string) => (id.startsWith('bid-ext-skadn.') || id === 'bid.ext.skadn' ? 'video' : 'banner');

  for (const rule of fieldRules) {
    const name = rule.field.replace(/^response\.(seatbid\[\]\.bid\[\]\.(ext\.skadn\.)?|seatbid\[\]\.)?/, '');
    it(`${rule.id}: a value of the wrong type is caught by it alone`, () => {
      const { response } = example(bidFields(rule.id));
      const holder = rule.field.startsWith('response.seatbid[].bid[].ext.skadn.')
        ? bidOf(response).ext.skadn
        : rule.field.startsWith('response.seatbid[].bid[].')
          ? bidOf(response)
          : rule.field.startsWith('response.seatbid[].')
            ? response.seatbid[0]
            : response;
      const parts = name.split('.');
      let obj = holder;
      for (const p of parts.slice(0, -1)) obj = obj[p] ??= {};
      obj[parts[parts.length - 1]] = wrongValue(rule.condition);
      expect(broken(response)).toEqual([rule.id]);
    });
    if (rule.condition.startsWith('present')) {
      it(`${rule.id}: a missing value is caught by it alone`, () => {
        const { response } = example('banner');
        const holder = rule.field.startsWith('response.seatbid[].bid[].') ? bidOf(response) : rule.field.startsWith('response.seatbid[].') ? response.seatbid[0] : response;
        Reflect.deleteProperty(holder, name);
        expect(broken(response)).toEqual([rule.id]);
      });
    }
  }

  it('an empty list of bids is caught as such', () => {
    expect(broken(changed('banner', (r) => (r.seatbid = [])).response)).toEqual(['bid-response.seatbid']);
    expect(broken(changed('banner', (r) => (r.seatbid[0].bid = [])).response)).toEqual(['seatbid.bid']);
    expect(broken(changed('banner', (r) => (bidOf(r).adomain = [])).response)).toEqual(['bid.adomain']);
  });

  it('price is a float: an integer is a number too, a string is not', () => {
    expect(broken(changed('banner', (r) => (bidOf(r).price = 2)).response)).toEqual([]);
    expect(broken(changed('banner', (r) => (bidOf(r).price = '2.5')).response)).toEqual(['bid.price']);
  });

  for (const id of [1, 2, 5]) {
    it(`native-asset.${id}: a native response without the required asset ${id}`, () => {
      const { response } = changed('native', (r) => { nativeAdm(r, (n) => (n.assets = n.assets.filter((a: Json) => a.id !== id))); });
      expect(broken(response)).toEqual([`native-asset.${id}`]);
    });
  }
});

describe('findings', () => {
  it('name the JSON path, the line and column, the rule and what was found', () => {
    const { response } = changed('banner', (r) => (bidOf(r).adomain = ['https://advertiser.example.com/']));
    const text = JSON.stringify(response, null, 2);
    const [f] = findings(validator.validate(text));
    expect(f).toMatchObject({
      severity: 'error',
      ruleId: 'basics-10',
      path: 'seatbid[0].bid[0].adomain[0]',
      which: 'response',
      detail: 'found "https://advertiser.example.com/"',
      href: '/documentation/dsp/ortb-spec/bid-response#rule-basics-10',
    });
    const line = text.split('\n').findIndex((l) => l.includes('"https://advertiser.example.com/"')) + 1;
    expect(f.line).toBe(line);
    expect(f.column).toBe(text.split('\n')[line - 1].indexOf('"') + 1);
  });

  it('inside markup, point at the markup and name the element', () => {
    const { response } = changed('video', (r) => { withAdm(r, (a) => a.replace('00:00:30', '00:00:03')); });
    const [f] = findings(validator.validate(JSON.stringify(response)));
    expect(f.path).toBe('seatbid[0].bid[0].adm//Linear/Duration');
    expect(f.detail).toBe('found "00:00:03"');
    expect(f.line).toBe(1);
  });

  it('of the request carry its prefix', () => {
    const { response, request } = changed('banner', (_r, q) => (q.at = 2));
    const [f] = findings(validator.validate(JSON.stringify(response), JSON.stringify(request)));
    expect(f).toMatchObject({ path: 'request.at', which: 'request', detail: 'found 2' });
  });

  it('count lines and columns in the text as pasted, blank lines before it included', () => {
    const { response } = changed('banner', (r) => (bidOf(r).adomain = ['https://advertiser.example.com/']));
    const text = JSON.stringify(response, null, 2);
    const [plain] = findings(validator.validate(text));
    const [padded] = findings(validator.validate(`\n\n   ${text}\n`));
    expect(padded.line).toBe(plain.line! + 2);
    expect(padded.column).toBe(plain.column);
  });

  it('of two fields checked together name both', () => {
    const { response, request } = changed('banner', (r) => {
      bidOf(r).w = 300;
      bidOf(r).h = 600;
    });
    const [f] = findings(validator.validate(JSON.stringify(response), JSON.stringify(request)));
    expect(f).toMatchObject({ path: 'seatbid[0].bid[0].{w, h}', detail: 'found w: 300, h: 600' });
  });

  it('of each bid are reported at that bid', () => {
    const { response } = changed('banner', (r) => {
      const second = JSON.parse(JSON.stringify(bidOf(r)));
      second.id = 'bid-2';
      second.cat = ['IAB26'];
      r.seatbid[0].bid.push(second);
    });
    const found = findings(validator.validate(JSON.stringify(response)));
    expect(found.map((f) => f.path)).toEqual(['seatbid[0].bid[1].cat[0]']);
  });

  it('are listed in the order of the text: by line, then column', () => {
    const { response } = changed('banner', (r) => {
      r.cur = 'EUR';
      bidOf(r).cat = ['IAB26'];
    });
    // cur after the bids: the error comes first.
    expect(findings(validator.validate(JSON.stringify(response, null, 2))).map((f) => f.severity)).toEqual(['error', 'warning']);
    // cur before them: the warning does.
    const found = findings(validator.validate(JSON.stringify({ cur: 'EUR', ...response }, null, 2)));
    expect(found.map((f) => [f.ruleId, f.severity])).toEqual([['basics-08', 'warning'], ['blocked-03', 'error']]);
    expect(found[0].line).toBeLessThan(found[1].line ?? 0);
    // On one line, by column.
    const oneLine = findings(validator.validate(JSON.stringify({ cur: 'EUR', ...response })));
    expect(oneLine.map((f) => f.ruleId)).toEqual(['basics-08', 'blocked-03']);
    expect(oneLine[0].column).toBeLessThan(oneLine[1].column ?? 0);
  });

  it('carry the rule’s message and fix', () => {
    const { response } = changed('banner', (r) => (bidOf(r).price = '2.35'));
    const [price] = findings(validator.validate(JSON.stringify(response)));
    expect(price).toMatchObject({ ruleId: 'bid.price', problem: 'price is required and must be a number', fix: 'send "price": 2.35, not "2.35"' });
    for (const rule of rules.rules) expect(rule.problem.length * rule.fix.length, rule.id).toBeGreaterThan(0);
  });

  it('a guard that cannot be decided keeps its rule out; a check that cannot be decided passes', () => {
    // Without imp.instl, neither the banner nor the fullscreen sizes apply.
    expect(broken(...Object.values(changed('banner', (_r, q) => delete q.imp[0].instl)) as [Json, Json])).toEqual([]);
    // Without skadn.version, a campaign above 100 may be a SKAdNetwork 4 one.
    const unversioned = changed('video', (r) => {
      delete bidOf(r).ext.skadn.version;
      bidOf(r).ext.skadn.campaign = '500';
    }).response;
    expect(broken(unversioned)).toEqual([]);
    bidOf(unversioned).ext.skadn.version = '3.0';
    expect(broken(unversioned)).toEqual(['skadnetwork-05']);
  });

  it('report a value of the wrong type once, by its field', () => {
    expect(broken(changed('banner', (r) => (r.cur = 5)).response)).toEqual(['bid-response.cur']);
    expect(broken(changed('video', (r) => (bidOf(r).ext.skadn.campaign = 42)).response)).toEqual(['bid-ext-skadn.campaign']);
  });
});

describe('messages that are not JSON, and empty ones', () => {
  it('say where the JSON breaks, by line and column of the text as pasted', () => {
    const report = validator.validate('\n{\n  "id": "1",\n  "seatbid": [,]\n}');
    expect(report).toEqual({ status: 'invalid', which: 'response', message: 'unexpected `,`', line: 4, column: 15 });
    expect(validator.validate('{"id": "1",}')).toMatchObject({ status: 'invalid', line: 1, column: 12 });
    expect(validator.validate('{"id": "1"}', '{"id": ')).toMatchObject({ status: 'invalid', which: 'request', line: 1, column: 8 });
  });

  it('an empty response is a no-bid, and is said to be empty', () => {
    expect(validator.validate('   \n')).toEqual({ status: 'empty' });
  });

  it('a document of another format is refused', () => {
    expect(() => createValidator({ ...rules, format: FORMAT + 1 })).toThrow(`format ${FORMAT + 1}`);
  });
});

describe('helpers', () => {
  it('JSON positions and errors', () => {
    const p = parseJson('{\n  "a": [1, {"b": "x"}]\n}');
    expect(p.position(p.offsets.get('a[1].b')!)).toEqual({ line: 2, column: 18 });
    expect(() => parseJson('{"a": "x\ny"}')).toThrow(JsonSyntaxError);
    expect(() => parseJson("{'a': 1}")).toThrow(/field name in double quotes/);
    expect(() => parseJson('[1, 2,]')).toThrow(/trailing comma/);
    expect(parseJson('"\\u00e9\\n"').value).toBe('é\n');
  });

  it('XML elements, attributes, CDATA and mistakes', () => {
    const doc = parseXml('<?xml version="1.0"?><!-- c --><VAST version="4.1"><Ad><Linear><Duration> 00:00:15 </Duration><MediaFile type="video/mp4"><![CDATA[https://x/a.mp4]]></MediaFile></Linear></Ad></VAST>');
    const vast = doc.elements()[0];
    expect(vast.attributes.version).toBe('4.1');
    expect(vast.descendants().map((e) => e.name)).toEqual(['Ad', 'Linear', 'Duration', 'MediaFile']);
    expect(vast.descendants()[3].text).toBe('https://x/a.mp4');
    expect(() => parseXml('<VAST><Ad></VAST>')).toThrow(XmlSyntaxError);
    expect(() => parseXml('<VAST a="1" a="2"/>')).toThrow(/repeated/);
    expect(() => parseXml('<VAST>&nbsp;</VAST>')).toThrow(/not defined/);
  });

  it('durations, macros and markup kinds', () => {
    expect(seconds('00:00:30')).toBe(30);
    expect(seconds('01:02:03.500')).toBe(3723.5);
    expect(seconds('30')).toBeNaN();
    expect(macros('a=${AUCTION_PRICE}&b=$AUCTION_ID&c={auction_loss}&d=AUCTION_BID_ID&e=${x}')).toEqual(['${AUCTION_PRICE}', '$AUCTION_ID', '{auction_loss}', 'AUCTION_BID_ID', '${x}']);
    expect(macros('a=%24%7BAUCTION_PRICE%7D&b=%7bauction_id%7d&c=$%7BAUCTION_LOSS}&d=%24%7Bx%7D&e=%3AAUCTION_BID_ID')).toEqual([
      '%24%7BAUCTION_PRICE%7D',
      '%7bauction_id%7d',
      '$%7BAUCTION_LOSS}',
      '%24%7Bx%7D',
      'AUCTION_BID_ID',
    ]);
    expect(macros('p=${AUCTION_PRICE}&to=https%3A%2F%2Fx.example%2F')).toEqual(['${AUCTION_PRICE}']);
    expect(tier1('IAB7-1')).toBe('IAB7');
    expect(tier1('IAB7')).toBe('IAB7');
    expect(tier1('IAB7-x')).toBe('IAB7-x');
    expect(markupKind('<?xml version="1.0"?>\n<VAST version="3.0"></VAST>')).toBe('vast');
    expect(markupKind(encodeURIComponent('<VAST version="3.0"></VAST>'))).toBe('vast');
    expect(markupKind('{"native":{}}')).toBe('native');
    expect(markupKind('%3Cdiv%3E')).toBe('html');
    expect(markupKind('')).toBe('none');
    expect(markupKind(undefined)).toBe('none');
  });
});
