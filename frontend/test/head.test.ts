import { afterEach, describe, expect, it } from 'vitest';
import { applyHead, readHead } from '../src/lib/head';

const pageHead = (title: string, route: string, description?: string) => `<meta charset="utf-8">
<title>${title} | Docs</title>
${description ? `<meta name="description" content="${description}">` : ''}
<link rel="canonical" href="https://docs.test${route}">
<meta property="og:type" content="article">
<meta property="og:title" content="${title}">
${description ? `<meta property="og:description" content="${description}">` : ''}
<meta property="og:url" content="https://docs.test${route}">
<meta name="twitter:card" content="summary">
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/s/app.css">`;

const parse = (head: string) => new DOMParser().parseFromString(`<html><head>${head}</head><body></body></html>`, 'text/html');

afterEach(() => {
  document.head.innerHTML = '';
});

describe('the head of the page on screen', () => {
  it('reads the tags that describe a page, not those of the site', () => {
    const tags = readHead(parse(pageHead('Banners', '/a/banners', 'Show banners.')));
    expect(tags.map((t) => `${t.tag} ${t.attrs.map(([n, v]) => `${n}=${v}`).join(' ')}`)).toEqual([
      'meta name=description content=Show banners.',
      'link rel=canonical href=https://docs.test/a/banners',
      'meta property=og:type content=article',
      'meta property=og:title content=Banners',
      'meta property=og:description content=Show banners.',
      'meta property=og:url content=https://docs.test/a/banners',
      'meta name=twitter:card content=summary',
    ]);
  });

  it('takes the languages of another page in place of the old ones', () => {
    const alternates = (langs: string[], route: string) => langs.map((l) => `<link rel="alternate" hreflang="${l}" href="https://docs.test${l === 'en' || l === 'x-default' ? '' : `/${l}`}${route}">`).join('');
    document.head.innerHTML = pageHead('Setup', '/a/setup') + alternates(['en', 'zh-Hans', 'x-default'], '/a/setup');
    applyHead(readHead(parse(pageHead('Rewarded', '/a/rewarded') + alternates(['en', 'ar', 'x-default'], '/a/rewarded'))));
    const langs = Array.from(document.head.querySelectorAll('link[hreflang]'), (l) => `${l.getAttribute('hreflang') ?? ''} ${l.getAttribute('href') ?? ''}`);
    expect(langs).toEqual(['en https://docs.test/a/rewarded', 'ar https://docs.test/ar/a/rewarded', 'x-default https://docs.test/a/rewarded']);
  });

  it('takes another page’s tags in place of the old ones, keeping the rest of the head', () => {
    document.head.innerHTML = pageHead('Banners', '/a/banners', 'Show banners.');
    applyHead(readHead(parse(pageHead('Changelog', '/a/changelog', 'What changed.'))));
    const q = (s: string) => document.head.querySelector(s)?.getAttribute('content') ?? document.head.querySelector(s)?.getAttribute('href');
    expect(q('meta[name="description"]')).toBe('What changed.');
    expect(q('link[rel="canonical"]')).toBe('https://docs.test/a/changelog');
    expect(q('meta[property="og:url"]')).toBe('https://docs.test/a/changelog');
    expect(q('meta[property="og:title"]')).toBe('Changelog');
    expect(document.head.querySelectorAll('link[rel="canonical"], meta[name="description"]')).toHaveLength(2);
    // In the same place: after the title, before the icon and the style sheet.
    const order = Array.from(document.head.children).map((el) => el.getAttribute('rel') ?? el.getAttribute('name') ?? el.getAttribute('property') ?? el.tagName);
    expect(order.indexOf('TITLE')).toBeLessThan(order.indexOf('description'));
    expect(order.indexOf('twitter:card')).toBeLessThan(order.indexOf('icon'));
    expect(q('link[rel="stylesheet"]')).toBe('/s/app.css');
  });

  it('leaves out what the new page does not have', () => {
    document.head.innerHTML = pageHead('Banners', '/a/banners', 'Show banners.');
    applyHead(readHead(parse(pageHead('Plain', '/a/plain'))));
    expect(document.head.querySelector('meta[name="description"]')).toBeNull();
    expect(document.head.querySelector('meta[property="og:description"]')).toBeNull();
    applyHead([]);
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
    expect(document.head.querySelector('link[rel="icon"]')).not.toBeNull();
  });

  it('changes nothing when the tags are the same', () => {
    document.head.innerHTML = pageHead('Banners', '/a/banners', 'Show banners.');
    const canonical = document.head.querySelector('link[rel="canonical"]');
    applyHead(readHead(document));
    expect(document.head.querySelector('link[rel="canonical"]')).toBe(canonical);
  });
});
