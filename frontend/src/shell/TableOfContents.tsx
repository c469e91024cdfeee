import { useActiveHeading } from '../hooks/useActiveHeading';
import { t } from '../i18n';
import { cx } from '../lib/cx';
import type { TocEntry } from '../types';

/**
 * The right-hand "Table of Contents": the page's headings, the active one following the URL
 * hash and, while scrolling, the heading in view.
 */
export function TableOfContents({ toc, hash }: { toc: TocEntry[]; hash: string }) {
  const active = useActiveHeading(toc, hash);
  return (
    <aside id="dg-toc" className="dg-toc">
      {toc.length > 0 && (
        <nav aria-label={t('toc.title')}>
          <h2 className="dg-toc-title">{t('toc.title')}</h2>
          <ul>
            {toc.map((entry, i) => {
              const on = entry.hashName === active;
              return (
                <li key={`${i}-${entry.hashName}`} className={cx('dg-toc-entry', on && 'is-active')} data-level={entry.level}>
                  <a href={entry.hashName} aria-current={on ? 'true' : undefined}>
                    {entry.displayName}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
      )}
    </aside>
  );
}
