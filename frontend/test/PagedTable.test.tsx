// @vitest-environment jsdom
// (happy-dom has no table sections, `HTMLTableElement.tBodies`, which the pre-rendered tables are read by.)
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PagedTable, clampPage, pageCount, syncScrollFocus } from '../src/blocks/PagedTable';
import { tableHtml } from './fixtures';
import { renderContent } from './render';

const bodyRows = () => within(document.querySelector('tbody')!).queryAllByRole('row');
const firstCell = () => bodyRows()[0]?.querySelector('td')?.textContent;

describe('paged table', () => {
  it('clamps the page to the pages that exist', () => {
    expect(pageCount(120, 50)).toBe(3);
    expect(pageCount(0, 50)).toBe(1);
    expect(clampPage(7, 120, 50)).toBe(2);
    expect(clampPage(-1, 120, 50)).toBe(0);
    expect(clampPage(2, 120, 100)).toBe(1);
    expect(clampPage(1, 0, 50)).toBe(0);
  });

  it('shows 50 of 120 rows with a pager, and pages through them', () => {
    renderContent(tableHtml(120));
    expect(bodyRows()).toHaveLength(50);
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Col 1', 'Col 2']);
    const pager = screen.getByRole('group', { name: 'Table pages' });
    expect(pager).toHaveTextContent('1–50 of 120');
    expect(pager).toHaveTextContent('Page 1 of 3');
    const prev = screen.getByRole('button', { name: 'Previous page' });
    const next = screen.getByRole('button', { name: 'Next page' });
    expect(prev).toBeDisabled();
    fireEvent.click(next);
    expect(firstCell()).toBe('r51c1');
    fireEvent.click(next);
    expect(bodyRows()).toHaveLength(20);
    expect(firstCell()).toBe('r101c1');
    expect(pager).toHaveTextContent('101–120 of 120');
    expect(next).toBeDisabled();
    fireEvent.click(next);
    expect(firstCell()).toBe('r101c1');
  });

  it('offers 50, 100 and 500 rows per page and keeps the page in range', () => {
    renderContent(tableHtml(120));
    const size = screen.getByRole('combobox', { name: 'Rows per page' });
    expect(within(size).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '100', '500']);
    expect(size).toHaveValue('50');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.change(size, { target: { value: '100' } });
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(firstCell()).toBe('r101c1');
    fireEvent.change(size, { target: { value: '500' } });
    expect(bodyRows()).toHaveLength(120);
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
  });

  it('keeps the box in the tab order only while its table scrolls', () => {
    renderContent(tableHtml(3));
    const box = screen.getByRole('region', { name: 'Table 1' });
    // jsdom lays nothing out: the box is as wide as its content, so it does not scroll.
    expect(box).not.toHaveAttribute('tabindex');
    Object.defineProperty(box, 'scrollWidth', { configurable: true, value: 900 });
    Object.defineProperty(box, 'clientWidth', { configurable: true, value: 400 });
    syncScrollFocus(box);
    expect(box).toHaveAttribute('tabindex', '0');
    const plain = document.createElement('div');
    syncScrollFocus(plain);
    expect(plain).not.toHaveAttribute('tabindex');
  });

  it('has no pager for 50 rows or fewer', () => {
    renderContent(tableHtml(50));
    expect(bodyRows()).toHaveLength(50);
    expect(screen.queryByRole('group', { name: 'Table pages' })).toBeNull();
  });

  it('has a pager from 51 rows: the total exceeds 50', () => {
    renderContent(tableHtml(51));
    expect(screen.getByRole('group', { name: 'Table pages' })).toHaveTextContent(/1–50 of 51.*Page 1 of 2/);
  });

  it('says "No Results" when the table has no rows', () => {
    renderContent(tableHtml(0));
    expect(screen.getByText('No Results')).toBeInTheDocument();
    expect(document.querySelectorAll('tbody tr')).toHaveLength(0);
    render(<PagedTable rows={[]} host={document.createElement('div')} />);
    expect(screen.getAllByText('No Results')).toHaveLength(2);
  });

  it('pages the server’s own rows in place, the table kept', () => {
    const { article } = renderContent(tableHtml(120));
    const table = article.querySelector('table')!;
    const rows = Array.from(table.tBodies[0].rows);
    expect(rows).toHaveLength(120);
    expect(rows.filter((r) => !r.hidden)).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(article.querySelector('table')).toBe(table);
    expect(table.tBodies[0].rows[50]).toBe(rows[50]);
    expect(rows.findIndex((r) => !r.hidden)).toBe(50);
    // The pager follows the table.
    expect(table.nextElementSibling).toHaveClass('dg-pager');
  });
});
