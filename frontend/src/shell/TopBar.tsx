import { t } from '../i18n';
import { withBase } from '../lib/routes';
import { Search } from '../search/Search';
import type { SiteView } from '../types';
import { ThemeToggle } from './ThemeToggle';

export interface TopBarProps {
  site: SiteView;
  base: string;
  area: string | null;
  /** The menu drawer of narrow screens is open. */
  menuOpen?: boolean;
  /** Opens the menu drawer; `opener` gets focus back when it closes. */
  onMenu?(opener: HTMLElement): void;
}

/**
 * The dark bar at the top: on narrow screens the menu button (a link to the menu below the page
 * without scripts), the site's logo and title, the documentation areas (in the menu on phones),
 * the search (which exists only with the app, so appearing moves nothing) and the theme switch.
 */
export function TopBar({ site, base, area, menuOpen = false, onMenu }: TopBarProps) {
  return (
    <header id="dg-topbar" className="dg-topbar">
      <button type="button" className="dg-menu-button" aria-label={t('topbar.menu')} aria-expanded={menuOpen} aria-controls="dg-menu" onClick={(e) => onMenu?.(e.currentTarget)} />
      <a className="dg-menu-jump" href="#dg-menu">
        {t('topbar.menuJump')}
      </a>
      <a className="dg-topbar-home" href={withBase(base, site.home)}>
        <img className="dg-topbar-logo" src={site.logo} alt="" width={28} height={28} />
        <span className="dg-topbar-title">{site.title}</span>
      </a>
      <nav className="dg-topbar-areas" aria-label={t('topbar.areas')}>
        <ul>
          {site.areas.map((a) => (
            <li key={a.url}>
              <a href={withBase(base, a.url)} aria-current={a.url === area ? 'true' : undefined}>
                {a.displayName}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {site.search && <Search site={site.search} />}
      <ThemeToggle />
    </header>
  );
}
