import { useMenuState } from '../hooks/useMenuState';
import { t } from '../i18n';
import { cx } from '../lib/cx';
import type { MenuData } from '../lib/menu';
import { MenuList } from './MenuItem';

/**
 * The left menu: the current area's root (level 0), its tree below (levels 1 to 4, icons on
 * level 1), and the external links, which open in a new tab.
 */
export function LeftMenu({ menu, route }: { menu: MenuData; route: string }) {
  const state = { ...useMenuState(menu.root, route), load: menu.loadSection };
  const root = menu.root;
  const rootCurrent = root !== null && root.route === route;
  return (
    <nav id="dg-menu" className="dg-menu" aria-label={t('menu.label')}>
      {root && (
        <a data-id={root.id} className={cx('dg-menu-root', rootCurrent && 'is-active')} href={root.href} aria-current={rootCurrent ? 'page' : undefined}>
          {root.displayName}
        </a>
      )}
      <MenuList items={root?.children ?? []} state={state} route={route} />
      {menu.links.length > 0 && (
        <ul className="dg-menu-external">
          {menu.links.map((link) => (
            <li key={link.id} data-id={link.id}>
              <a className="dg-menu-link" href={link.href} target="_blank" rel="noopener noreferrer">
                {link.icon && <img className="dg-menu-icon" src={link.icon.src} alt={link.icon.alt} width={20} height={20} />}
                <span className="dg-menu-label">{link.displayName}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
