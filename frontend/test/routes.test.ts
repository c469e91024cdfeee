import { describe, expect, it } from 'vitest';
import { errorTextFor, isPrefix, normalizeRoute, openPrefixedHref, pageFileUrl, stripBase, stripOpenPrefix, withBase } from '../src/lib/routes';
import { site } from './fixtures';

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

  it('gives the DSP area its own error text and everything else a not-found text', () => {
    expect(errorTextFor('/documentation/dsp/unknown', site)).toEqual({ title: 'Unable to load the current page.', subtitle: 'Please try again.' });
    expect(errorTextFor('/documentation/dsp', site).title).toBe('Unable to load the current page.');
    expect(errorTextFor('/documentation/dspx', site).title).toBe('Page not found');
    expect(errorTextFor('/documentation/mediation/nope', site).title).toBe('Page not found');
  });

  it('prefers an area’s own not-found text when the page data has one', () => {
    const areas = [{ displayName: 'X', url: '/x', notFound: { title: 'Gone', subtitle: 'Look elsewhere.' } }];
    expect(errorTextFor('/x/y', { areas })).toEqual({ title: 'Gone', subtitle: 'Look elsewhere.' });
  });
});
