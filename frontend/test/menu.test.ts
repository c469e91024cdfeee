import { describe, expect, it } from 'vitest';
import { activePath, fromNav, menuKey, parseMenu, type MenuNode } from '../src/lib/menu';
import { bannersMenuHtml, nav } from './fixtures';

const M = '/documentation/mediation';
const ids = (path: MenuNode[]) => path.map((n) => n.id);

function parse(html: string) {
  const host = document.createElement('div');
  host.innerHTML = html;
  return parseMenu(host.querySelector('#dg-menu'), '');
}

describe('menu from nav.json', () => {
  it('shows the area whose url is the longest prefix of the route', () => {
    expect(fromNav(nav, `${M}/android`, '', []).root?.displayName).toBe('Mediation');
    expect(fromNav(nav, '/documentation/dsp/testing', '', []).root?.displayName).toBe('Demand Partners');
    expect(fromNav(nav, '/elsewhere', '', []).root).toBeNull();
  });

  it('hides items whose feature is not enabled', () => {
    const names = (features: string[]) => fromNav(nav, M, '', features).root!.children!.map((n) => n.displayName);
    expect(names(['beta-tools'])).toEqual(['Getting Started', 'Android', 'Reporting', 'Reporting API', 'Beta Tools']);
    expect(names([])).not.toContain('Beta Tools');
    expect(names(['secret-labs', 'beta-tools'])).toContain('Labs');
  });

  it('lists the external links apart from the tree', () => {
    const menu = fromNav(nav, M, '', []);
    expect(menu.links.map((l) => [l.displayName, l.href])).toEqual([
      ['Success Stories', 'https://example.test/stories'],
      ['Help Center', 'https://example.test/help'],
    ]);
  });

  it('gives a menu group no route of its own', () => {
    const android = fromNav(nav, M, '', []).root!.children![1]!;
    const setup = android.children![1]!;
    expect(setup.children![0]).toMatchObject({ displayName: 'Bidders', route: null, isSection: true });
    expect(setup.children![0]!.children![0]!.route).toBe(`${M}/android/setup/acme`);
  });

  it('strips the base path from routes but keeps it in hrefs', () => {
    const based = JSON.parse(JSON.stringify(nav).replace(/"url":"\//g, '"url":"/docs/'));
    const menu = fromNav(based, `${M}/android`, '/docs', []);
    expect(menu.root?.route).toBe(M);
    expect(menu.root?.href).toBe(`/docs${M}`);
  });
});

describe('longest-match activation', () => {
  const root = fromNav(nav, M, '', ['beta-tools']).root;

  it('activates the page of the route and opens its ancestors', () => {
    expect(ids(activePath(root, `${M}/android/ad-formats/native/manual`))).toEqual([
      'documentation-mediation',
      'documentation-mediation-android',
      'documentation-mediation-android-ad-formats',
      'documentation-mediation-android-ad-formats-native',
      'documentation-mediation-android-ad-formats-native-manual',
    ]);
  });

  it('activates the nearest ancestor of a route that has no item', () => {
    expect(ids(activePath(root, `${M}/android/ad-formats/banners/extra`)).pop()).toBe('documentation-mediation-android-ad-formats-banners');
  });

  it('does not take a route for the prefix of a longer name', () => {
    expect(ids(activePath(root, `${M}/reporting-api`)).pop()).toBe('documentation-mediation-reporting-api');
    expect(ids(activePath(root, `${M}/reporting`)).pop()).toBe('documentation-mediation-reporting');
  });

  it('goes through menu groups to the pages in them', () => {
    expect(ids(activePath(root, `${M}/android/setup/acme`))).toEqual([
      'documentation-mediation',
      'documentation-mediation-android',
      'documentation-mediation-android-setup',
      'documentation-mediation-android-setup--bidders',
      'documentation-mediation-android-setup-acme',
    ]);
  });

  it('finds nothing outside the area', () => {
    expect(activePath(root, '/documentation/dsp')).toEqual([]);
  });
});

describe('menu pre-rendered by the server', () => {
  const menu = parse(bannersMenuHtml);

  it('reads the root, the items and their state', () => {
    expect(menu.root).toMatchObject({ id: 'documentation-mediation', displayName: 'Mediation', route: M });
    const [start, android, reporting] = menu.root!.children!;
    expect(start).toMatchObject({ id: 'documentation-mediation-start', displayName: 'Getting Started', isSection: true, isPage: false, route: null, children: null });
    expect(start!.icon).toEqual({ src: '/s/icons/start.svg', alt: 'Start' });
    expect(android).toMatchObject({ id: 'documentation-mediation-android', isSection: true, isPage: true, route: `${M}/android` });
    // A page without children has no id in the markup; its route stands in.
    expect(reporting).toMatchObject({ id: `${M}/reporting`, isSection: false, children: [] });
  });

  it('knows the children of the open branch only', () => {
    const android = menu.root!.children![1]!;
    const formats = android.children![0]!;
    expect(formats.children!.map((n) => n.displayName)).toEqual(['Banners', 'Native Ads']);
    expect(formats.children![1]!.children).toBeNull();
  });

  it('reads the nav ids docgen writes, so the open state carries over to nav.json', () => {
    const full = fromNav(nav, M, '', ['beta-tools']);
    const route = `${M}/android/ad-formats/banners`;
    const sections = (path: MenuNode[]) => path.filter((n) => n.isSection).map((n) => n.id);
    expect(sections(activePath(menu.root, route))).toEqual(sections(activePath(full.root, route)));
    expect(sections(activePath(menu.root, route))).toEqual([
      'documentation-mediation',
      'documentation-mediation-android',
      'documentation-mediation-android-ad-formats',
    ]);
  });

  it('keys every item alike in both sources, so switching to nav.json keeps the elements', () => {
    const full = fromNav(nav, M, '', ['beta-tools']);
    const route = `${M}/android/ad-formats/banners`;
    expect(activePath(menu.root, route).map(menuKey)).toEqual(activePath(full.root, route).map(menuKey));
    expect(menu.root!.children!.map(menuKey)).toEqual(full.root!.children!.map(menuKey));
  });

  it('reads the external links', () => {
    expect(menu.links.map((l) => l.id)).toEqual(['external-success-stories', 'external-help-center']);
  });

  it('is empty without a menu', () => {
    expect(parseMenu(null, '')).toEqual({ root: null, links: [] });
  });
});
