import { useLayoutEffect, useState } from 'react';
import { TABLE_DEFAULT_PAGE_SIZE, TABLE_PAGE_SIZES } from '../constants';
import { t } from '../i18n';
import { Button } from '../ui/Button';

export interface TableProps {
  /** The table's body rows, as docgen rendered them (all of them). */
  rows: HTMLTableRowElement[];
}

/** The rows of a table docgen pre-rendered; the table stays where it is. */
export function readTable(host: HTMLElement): TableProps {
  const table = host.querySelector(':scope > table');
  if (!(table instanceof HTMLTableElement)) return { rows: [] };
  return { rows: Array.from(table.tBodies).flatMap((body) => Array.from(body.rows)) };
}

/**
 * The table's box is a focusable region in the server's HTML, so keyboard readers can scroll a
 * table wider than the column even without scripts. A box that does not scroll would only be an
 * extra stop for the Tab key: it is taken out of the tab order while its table fits.
 */
export function syncScrollFocus(host: HTMLElement): void {
  if (host.getAttribute('role') !== 'region') return;
  if (host.scrollWidth > host.clientWidth) host.setAttribute('tabindex', '0');
  else host.removeAttribute('tabindex');
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The page index kept within the pages that exist. */
export function clampPage(page: number, total: number, size: number): number {
  return Math.min(Math.max(0, Math.floor(page)), pageCount(total, size) - 1);
}

/**
 * A table shown a page at a time: 50 rows (or 100 or 500) per page, with a pager when there are
 * more than 50 rows, and "No Results" when it has no rows. The server's rows stay in its table,
 * those of other pages hidden; the pager and the message are rendered after the table.
 */
export function PagedTable({ rows, host }: TableProps & { host: HTMLElement }) {
  const [size, setSize] = useState<number>(TABLE_DEFAULT_PAGE_SIZE);
  const [wanted, setPage] = useState(0);
  const total = rows.length;
  const page = clampPage(wanted, total, size);
  const pages = pageCount(total, size);
  const paged = total > TABLE_DEFAULT_PAGE_SIZE;
  const from = page * size;

  // Before paint: the page's rows only (the style sheet showed the first 50 until now).
  useLayoutEffect(() => {
    rows.forEach((row, i) => {
      row.hidden = i < from || i >= from + size;
    });
  }, [rows, from, size]);

  // Whether the box scrolls changes with the window, the page of rows and the fonts.
  useLayoutEffect(() => {
    syncScrollFocus(host);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      syncScrollFocus(host);
    });
    observer.observe(host);
    const table = host.querySelector(':scope > table');
    if (table) observer.observe(table);
    return () => {
      observer.disconnect();
    };
  }, [host]);

  return (
    <>
      {total === 0 && <div className="dg-table-empty">{t('table.noResults')}</div>}
      {paged && (
        <div className="dg-pager" role="group" aria-label={t('table.pages')}>
          <label className="dg-pager-size">
            <span>{t('table.rowsPerPage')}</span>
            <select
              value={size}
              onChange={(e) => {
                const next = Number(e.target.value);
                setSize(next);
                setPage(clampPage(Math.floor(from / next), total, next));
              }}
            >
              {TABLE_PAGE_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <span className="dg-pager-range">{t('table.range', { from: from + 1, to: Math.min(from + size, total), total })}</span>
          <Button variant="quiet" className="dg-pager-prev" disabled={page === 0} onClick={() => { setPage(clampPage(page - 1, total, size)); }}>
            <span aria-hidden="true">‹</span>
            <span className="dg-visually-hidden">{t('table.previous')}</span>
          </Button>
          <span className="dg-pager-page" aria-live="polite">
            {t('table.page', { page: page + 1, pages })}
          </span>
          <Button variant="quiet" className="dg-pager-next" disabled={page >= pages - 1} onClick={() => { setPage(clampPage(page + 1, total, size)); }}>
            <span aria-hidden="true">›</span>
            <span className="dg-visually-hidden">{t('table.next')}</span>
          </Button>
        </div>
      )}
    </>
  );
}
