import { useEffect, useState, type MouseEvent } from 'react';
import { useActiveHeading } from '../hooks/useActiveHeading';
import { t } from '../i18n';
import { cx } from '../lib/cx';
import type { TocEntry } from '../types';

/**
 * The right-hand "Table of Contents": the page's headings, the active one following the URL
 * hash and, while scrolling, the heading in view. Where the window is too narrow for a third
 * column it folds above the article behind an "On this page" button (styles), closed on each
 * new page and after an entry is followed.
 */
export function TableOfContents({ toc, hash }: { toc: TocEntry[]; hash: string }) {
  const active = useActiveHeading(toc, hash);
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [toc]);
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (e.target instanceof Element && e.target.closest('a[href]')) setOpen(false);
  };
  return (
    <aside id="dg-toc" className="dg-toc">
      {toc.length > 0 && (
        <nav aria-label={t('toc.title')} onClick={onClick}>
          <h2 className="dg-toc-title">{t('toc.title')}</h2>
          <button type="button" className="dg-toc-toggle" aria-expanded={open} aria-controls="dg-toc-list" onClick={() => setOpen((o) => !o)}>
            {t('toc.toggle')}
          </button>
          <ul id="dg-toc-list">
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
