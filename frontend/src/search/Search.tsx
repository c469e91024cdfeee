import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useDismiss } from '../hooks/useDismiss';
import { useSearchEngine } from '../hooks/useSearchEngine';
import { useSearchResults } from '../hooks/useSearchResults';
import { useSearchShortcuts } from '../hooks/useSearchShortcuts';
import { t } from '../i18n';
import { cx } from '../lib/cx';
import type { SiteSearch } from '../types';
import { SearchIcon } from './icons';
import { SearchField } from './SearchField';
import { contextOf, SearchFilters } from './SearchFilters';
import { SearchResults, searchOptions } from './SearchResults';
import { SearchStatus, statusText, type SearchStatusValue } from './SearchStatus';

/** Results shown at first, and added by each "Show more". */
const PAGE_SIZE = 8;

/** Why the search failed, in words: the status of the file that failed, or the code not loading. */
function reasonOf(error: unknown): string {
  const status = typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : null;
  if (status === null) return t('search.reason.code');
  if (status === 0) return t('search.reason.offline');
  if (status >= 400) return t('search.reason.http', { status });
  return t('search.reason.format');
}

/**
 * The site search in the top bar: a combobox whose listbox shows the results as the reader
 * types, with area and platform filters. Below the narrow breakpoint it is a button that opens
 * a full-screen panel. The engine loads on the first focus.
 */
export function Search({ site }: { site: SiteSearch }) {
  const id = useId();
  const inputId = `${id}input`;
  const listboxId = `${id}results`;
  const optionId = useCallback((i: number) => `${id}option-${i}`, [id]);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  /** Where focus goes back to on Escape: what had it when a shortcut or the button opened the search. */
  const opener = useRef<HTMLElement | null>(null);

  const [text, setText] = useState('');
  const [area, setArea] = useState<string | null>(null);
  /** The platform filter as the reader set it; undefined: the platform of the page they are on. */
  const [chosenPlatform, setPlatform] = useState<string | null | undefined>(undefined);
  const [limit, setLimit] = useState(PAGE_SIZE);
  /** The page the reader is on when they open the search: its platform and area rank first. */
  const [path, setPath] = useState('');
  /** The reader is using the search: the results may show. */
  const [active, setActive] = useState(false);
  /** The full-screen panel of narrow screens is open. */
  const [panelOpen, setPanelOpen] = useState(false);
  const [highlight, setHighlight] = useState(-1);
  const [focusRequest, setFocusRequest] = useState(0);

  const { state: engineState, start } = useSearchEngine(site);
  const engine = engineState.status === 'ready' ? engineState.engine : null;
  const context = useMemo(() => (engineState.status === 'ready' ? contextOf(engineState.filters, path) : { area: null, platform: null }), [engineState, path]);
  const platform = chosenPlatform === undefined ? context.platform : chosenPlatform;
  const request = useMemo(() => ({ text, area, platform, limit, context }), [text, area, platform, limit, context]);
  // A new query or filter shows the first results again.
  useEffect(() => { setLimit(PAGE_SIZE); }, [text, area, platform]);
  const found = useSearchResults(engine, request);
  const options = useMemo(() => searchOptions(found.results), [found.results]);

  const expanded = active && text.trim() !== '';
  const listed = expanded && options.length > 0;

  useEffect(() => { setHighlight(-1); }, [found.results]);
  // Focus after the render that shows the input (on narrow screens it is hidden until then).
  useLayoutEffect(() => {
    if (focusRequest === 0) return;
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [focusRequest]);
  useEffect(() => {
    // jsdom, which the component tests run in, has no scrollIntoView.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    if (highlight >= 0) document.getElementById(optionId(highlight))?.scrollIntoView?.({ block: 'nearest' });
  }, [highlight, optionId]);

  const open = useCallback(
    (from: HTMLElement | null) => {
      opener.current = from;
      setPath(window.location.pathname);
      setActive(true);
      setPanelOpen(true);
      setFocusRequest((n) => n + 1);
      start();
    },
    [start],
  );

  const close = useCallback((restoreFocus: boolean) => {
    setActive(false);
    setPanelOpen(false);
    setHighlight(-1);
    const to = opener.current;
    opener.current = null;
    if (!restoreFocus || !to) return;
    if (to === document.body || !to.isConnected) inputRef.current?.blur();
    else to.focus();
  }, []);

  useSearchShortcuts(() => {
    const root = rootRef.current;
    // Not while a modal dialog has made the page inert.
    if (!root || root.closest('[inert]')) return false;
    const at = document.activeElement;
    open(at instanceof HTMLElement && !root.contains(at) ? at : opener.current);
    return true;
  });
  useDismiss(rootRef, active || panelOpen, () => { close(false); });

  const onBlur = (e: FocusEvent) => {
    const next = e.relatedTarget;
    if (next instanceof Node && rootRef.current?.contains(next)) return;
    setActive(false);
    setPanelOpen(false);
    opener.current = null;
  };

  const onRootKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    if (expanded || panelOpen || opener.current) close(true);
    else setText('');
  };

  const onInputKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    const n = options.length;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        e.preventDefault();
        if (!expanded) {
          setActive(true);
          return;
        }
        if (n === 0) return;
        const down = e.key === 'ArrowDown';
        setHighlight((h) => (h < 0 ? (down ? 0 : n - 1) : (h + (down ? 1 : n - 1)) % n));
        return;
      }
      case 'Enter': {
        if (!listed) return;
        e.preventDefault();
        // A click on the link: the app navigates as for any other link, and onSelect closes.
        document.getElementById(optionId(highlight >= 0 ? highlight : 0))?.click();
        return;
      }
    }
  };

  // The buttons of the status line go away once used: focus goes back to the input first.
  const refocus = (then: () => void) => () => {
    inputRef.current?.focus();
    then();
  };
  let status: SearchStatusValue | null = null;
  if (engineState.status === 'loading') status = { kind: 'loading' };
  else if (engineState.status === 'failed') status = { kind: 'failed', message: t('search.failedLoad', { reason: reasonOf(engineState.error) }), retry: refocus(start) };
  else if (found.error) status = { kind: 'failed', message: t('search.failedQuery', { reason: reasonOf(found.error) }), retry: refocus(found.retry) };
  else if (found.searching && options.length === 0) status = { kind: 'searching' };
  else if (found.answered && options.length === 0) status = { kind: 'none', query: found.answered.text.trim(), filtered: area !== null || platform !== null };
  else if (found.answered) status = { kind: 'results', count: found.total };

  return (
    <div ref={rootRef} role="search" className={cx('dg-search', panelOpen && 'is-open')} onBlur={onBlur} onKeyDown={onRootKeyDown}>
      <button
        type="button"
        className="dg-search-toggle"
        aria-label={t('search.label')}
        aria-expanded={panelOpen}
        aria-controls={`${id}panel`}
        onClick={(e) => { if (panelOpen) close(true); else open(e.currentTarget); }}
      >
        <SearchIcon />
      </button>
      {/* Focusable, so that pressing inside the panel does not count as leaving it. */}
      <div id={`${id}panel`} className="dg-search-panel" tabIndex={-1}>
        <SearchField
          ref={inputRef}
          id={inputId}
          listboxId={listboxId}
          value={text}
          expanded={listed}
          activeOption={listed && highlight >= 0 ? optionId(highlight) : undefined}
          onChange={(value) => {
            setText(value);
            setActive(true);
          }}
          onFocus={() => {
            setPath(window.location.pathname);
            setActive(true);
            start();
          }}
          onKeyDown={onInputKeyDown}
          onClose={() => { close(true); }}
        />
        <div className="dg-search-popup" hidden={!expanded}>
          {engineState.status === 'ready' && (
            <SearchFilters filters={engineState.filters} area={area} platform={platform} onArea={setArea} onPlatform={setPlatform} />
          )}
          <SearchStatus
            status={status}
            onAllFilters={refocus(() => {
              setArea(null);
              setPlatform(null);
            })}
          />
          {listed && found.suggestion !== null && <p className="dg-search-corrected">{t('search.corrected', { suggestion: found.suggestion })}</p>}
          <SearchResults
            id={listboxId}
            optionId={optionId}
            options={options}
            hidden={!listed}
            busy={found.searching}
            active={highlight}
            onHover={setHighlight}
            onSelect={() => { close(false); }}
          />
          {listed && found.total > found.results.length && (
            <button type="button" className="dg-search-more" onClick={refocus(() => { setLimit((n) => n + PAGE_SIZE); })}>
              {t('search.more', { count: found.total - found.results.length })}
            </button>
          )}
        </div>
      </div>
      <div className="dg-visually-hidden" role="status">
        {expanded ? statusText(status) : ''}
      </div>
    </div>
  );
}
