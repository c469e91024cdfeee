import { t } from '../i18n';

/** What the search box has to say besides its results. */
export type SearchStatusValue =
  | { kind: 'loading' }
  | { kind: 'searching' }
  | { kind: 'failed'; message: string; retry: () => void }
  | { kind: 'none'; query: string; filtered: boolean }
  | { kind: 'results'; count: number };

/** The status in words, as the live region announces it. */
export function statusText(status: SearchStatusValue | null): string {
  switch (status?.kind) {
    case 'loading':
      return t('search.loading');
    case 'searching':
      return '';
    case 'failed':
      return status.message;
    case 'none':
      return t('search.noResults', { query: status.query });
    case 'results':
      return status.count === 1 ? t('search.countOne') : t('search.count', { count: status.count });
    default:
      return '';
  }
}

export interface SearchStatusProps {
  status: SearchStatusValue | null;
  onAllFilters: () => void;
}

/** The visible line above the results: loading, searching, no results, or what failed. */
export function SearchStatus({ status, onAllFilters }: SearchStatusProps) {
  if (!status || status.kind === 'results') return null;
  return (
    <p className="dg-search-status">
      {status.kind === 'searching' ? t('search.searching') : statusText(status)}
      {status.kind === 'failed' && (
        <button type="button" className="dg-search-link" onClick={status.retry}>
          {t('search.retry')}
        </button>
      )}
      {status.kind === 'none' && status.filtered && (
        <button type="button" className="dg-search-link" onClick={onAllFilters}>
          {t('search.allFilters')}
        </button>
      )}
    </p>
  );
}
