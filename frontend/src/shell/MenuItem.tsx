import { forwardRef, useEffect, type KeyboardEvent } from 'react';
import { t } from '../i18n';
import { useCollapse } from '../hooks/useCollapse';
import type { MenuState } from '../hooks/useMenuState';
import { cx } from '../lib/cx';
import { menuKey, type MenuNode } from '../lib/menu';

interface ListProps {
  items: MenuNode[];
  state: MenuState;
  route: string;
}

/** A level of the menu; nested lists are the deeper levels (docgen's menu_items macro). */
export const MenuList = forwardRef<HTMLUListElement, ListProps>(function MenuList({ items, state, route }, ref) {
  return (
    <ul ref={ref} className="dg-menu-list">
      {items.map((node) => (
        <MenuItem key={menuKey(node)} node={node} state={state} route={route} />
      ))}
    </ul>
  );
});

function Icon({ node }: { node: MenuNode }) {
  return node.icon ? <img className="dg-menu-icon" src={node.icon.src} alt={node.icon.alt} width={20} height={20} /> : null;
}

/**
 * One item of the left menu (docgen's menu_item macro). A leaf is a link. A section with its
 * own page is a link plus a caret that opens and closes it (by pointer; from the keyboard the
 * link's arrow keys do); a section without one is a single disclosure button. Opening and closing animate the height of the nested list (useCollapse).
 */
export function MenuItem({ node, state, route }: { node: MenuNode; state: MenuState; route: string }) {
  const open = node.isSection && state.isOpen(node.id);
  const active = state.activeId === node.id;
  const current = active && node.isPage && node.route === route;
  const children = node.children ?? [];
  const { rendered, ref } = useCollapse<HTMLUListElement>(open && children.length > 0);
  const { load } = state;
  useEffect(() => {
    if (open && node.children === null && node.sharded) load?.(node.id);
  }, [open, node.children, node.sharded, node.id, load]);

  if (!node.isSection) {
    return (
      <li className={active ? 'is-active' : undefined}>
        <a href={node.href} aria-current={current ? 'page' : undefined}>
          <Icon node={node} />
          {node.displayName}
        </a>
      </li>
    );
  }
  const toggle = () => state.toggle(node.id);
  // The caret is out of the Tab order (one stop per section): its link opens the section with
  // ArrowRight and closes it with ArrowLeft.
  const onLinkKey = (e: KeyboardEvent<HTMLAnchorElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if ((e.key === 'ArrowRight' && !open) || (e.key === 'ArrowLeft' && open)) {
      e.preventDefault();
      toggle();
    }
  };
  return (
    <li data-id={node.id} className={cx('dg-menu-section', active && 'is-active', open && 'is-open')}>
      {node.isPage ? (
        <>
          <a href={node.href} aria-current={current ? 'page' : undefined} onKeyDown={onLinkKey}>
            <Icon node={node} />
            {node.displayName}
          </a>
          <button type="button" className="dg-menu-caret" tabIndex={-1} aria-expanded={open} aria-label={t('menu.toggle', { name: node.displayName })} onClick={toggle} />
        </>
      ) : (
        <button type="button" className="dg-menu-toggle" aria-expanded={open} onClick={toggle}>
          <Icon node={node} />
          {node.displayName}
        </button>
      )}
      {rendered && children.length > 0 && <MenuList ref={ref} items={children} state={state} route={route} />}
    </li>
  );
}
