import { t } from '../i18n';
import { withBase } from '../lib/routes';
import { Search } from '../search/Search';
import type { SiteView } from '../types';

/**
 * The dark bar at the top: the site's logo and title, the documentation areas and the search
 * (which exists only with the app, at the bar's end, so appearing moves nothing).
 */
export function TopBar({ site, base, area }: { site: SiteView; base: string; area: string | null }) {
  return (
    <header id="dg-topbar" className="dg-topbar">
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
    </header>
  );
}
