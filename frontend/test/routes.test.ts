import { describe, expect, it } from 'vitest';
import { isPrefix, notFoundArea, normalizeRoute, openPrefixedHref, pageFileUrl, stripBase, stripOpenPrefix, withBase } from '../src/lib/routes';

describe('routes', () => {
  it('normalizes trailing slashes', () => {
    expect(normalizeRoute('/a/b/')).toBe('/a/b');
    expect(normalizeRoute('/')).toBe('/');
    expect(normalizeRoute('')).toBe('/');
  });

  it('matches prefixes on segment boundaries only', () => {
    expect(isPrefix('/documentation/mediation', '/documentation/mediation/android')).toBe(true);
    expect(isPrefix('/documentation/mediation/android', '/documentation/mediation/android')).toBe(true);
    expect(isPrefix('/documentation/mediation/reporting', '/documentation/mediation/reporting-api')).toBe(false);
    expect(isPrefix('/', '/anything')).toBe(true);
  });

  it('strips and adds the base path', () => {
    expect(stripBase('/docs/documentation/x', '/docs')).toBe('/documentation/x');
    expect(stripBase('/docs', '/docs')).toBe('/');
    expect(stripBase('/documentation/x/', '')).toBe('/documentation/x');
    expect(withBase('/docs', '/documentation/x')).toBe('/docs/documentation/x');
    expect(withBase('', '/')).toBe('/');
  });

  it('reads and writes new-tab addresses with the /o prefix', () => {
    expect(stripOpenPrefix('/o/documentation/mediation/android')).toBe('/documentation/mediation/android');
    expect(stripOpenPrefix('/o')).toBe('/');
    expect(stripOpenPrefix('/other/o/x')).toBe('/other/o/x');
    expect(stripOpenPrefix('/oracle')).toBe('/oracle');
    expect(openPrefixedHref('', '/documentation/mediation/android', '?q=1', '#top')).toBe('/o/documentation/mediation/android?q=1#top');
    expect(openPrefixedHref('/docs', '/documentation/x')).toBe('/docs/o/documentation/x');
  });

  it('finds the page file of a route', () => {
    expect(pageFileUrl('', '/documentation/mediation')).toBe('/documentation/mediation/index.html');
    expect(pageFileUrl('/docs', '/')).toBe('/docs/index.html');
  });

  it('finds the area whose own not-found page a route without a page shows', () => {
    const areas = [
      { url: '/x', notFound: { title: 'Gone', subtitle: 'Look elsewhere.' } },
      { url: '/x/y', notFound: { title: 'Deeper', subtitle: 'Elsewhere.' } },
      { url: '/z' },
    ];
    expect(notFoundArea('/x/q', { areas })?.url).toBe('/x');
    expect(notFoundArea('/x/y/q', { areas })?.url).toBe('/x/y');
    expect(notFoundArea('/z/q', { areas })).toBeNull();
    expect(notFoundArea('/xy', { areas })).toBeNull();
  });
});
