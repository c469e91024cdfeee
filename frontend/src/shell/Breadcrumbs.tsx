import { t } from '../i18n';
import { cx } from '../lib/cx';
import { withBase } from '../lib/routes';
import type { Crumb } from '../types';

/**
 * The menu items on the way to the current page, from the top down, by the menu's names (docgen
 * derives them from the menu tree): earlier ones are links, the last is the current page
 * (aria-current). With a single page the trail is hidden and the
 * bar stays, so the layout does not move.
 */
export function Breadcrumbs({ crumbs, base }: { crumbs: Crumb[]; base: string }) {
  return (
    <nav id="dg-breadcrumbs" className={cx('dg-breadcrumbs', crumbs.length < 2 && 'is-single')} aria-label={t('breadcrumbs.label')}>
      <ol>
        {crumbs.map((c, i) => (
          <li key={`${i}-${c.url}`}>{i === crumbs.length - 1 ? <span aria-current="page">{c.displayName}</span> : <a href={withBase(base, c.url)}>{c.displayName}</a>}</li>
        ))}
      </ol>
    </nav>
  );
}
