import type { MouseEvent, RefObject } from 'react';
import { useMenuState } from '../hooks/useMenuState';
import { t } from '../i18n';
import { cx } from '../lib/cx';
import type { MenuData } from '../lib/menu';
import { withBase } from '../lib/routes';
import type { SiteView } from '../types';
import { MenuList } from './MenuItem';

export interface LeftMenuProps {
  menu: MenuData;
  route: string;
  site: SiteView;
  base: string;
  /** Narrow screens: the drawer is open. */
  open?: boolean;
  onClose?(): void;
  navRef?: RefObject<HTMLElement>;
}

/**
 * The left menu: the current area's root (level 0), its tree below (levels 1 to 4, icons on
 * level 1), and the external links, which open in a new tab. On narrow screens it is a drawer
 * (useDrawer) with a head (the home link, a close button) and, on phones, the areas (when
 * there are several); following any of its links closes it. Behind the open drawer a backdrop
 * closes it when pressed.
 */
export function LeftMenu({ menu, route, site, base, open = false, onClose, navRef }: LeftMenuProps) {
  const state = { ...useMenuState(menu.root, route), load: menu.loadSection };
  const root = menu.root;
  const rootCurrent = root !== null && root.route === route;
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (open && e.target instanceof Element && e.target.closest('a[href]')) onClose?.();
  };
  return (
    <>
      <nav ref={navRef} id="dg-menu" className={cx('dg-menu', open && 'is-open')} aria-label={t('menu.label')} onClick={onClick}>
        <div className="dg-menu-head">
          <a className="dg-menu-home" href={withBase(base, site.home)}>
            <img src={site.logo} alt="" width={24} height={24} />
            {site.title}
          </a>
          <button type="button" className="dg-menu-close" aria-label={t('menu.close')} onClick={onClose} />
        </div>
        {site.areas.length > 1 && (
          <ul className="dg-menu-areas" aria-label={t('topbar.areas')}>
            {site.areas.map((a) => (
              <li key={a.url}>
                <a href={withBase(base, a.url)} aria-current={root !== null && a.url === root.route ? 'true' : undefined}>
                  {a.displayName}
                </a>
              </li>
            ))}
          </ul>
        )}
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
      {open && <div className="dg-menu-backdrop" onClick={onClose} aria-hidden="true" />}
    </>
  );
}
