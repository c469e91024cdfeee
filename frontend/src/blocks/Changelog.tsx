import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import { sdkChangeLogs, type Api } from '../data/api';
import { t } from '../i18n';
import { Fallback, LoadError, readFallback, useDomId } from './Fallback';
import { Heading } from '../ui/Heading';
import { readPageData } from '../data/pageData';
import type { AnchorRule } from '../types';
import { siteApi } from './siteApi';

export interface Release {
  version: string;
  date: string | null;
  notes: string[];
}

export interface ChangelogProps {
  /** The changelog's id (docs/v1/sdk-change-logs/{id}). */
  id: string;
  fallback: Node[];
  /** The level of the releases' headings: that of the pre-rendered ones (2 on the changelog pages). */
  level: 2 | 3;
  /** The site's anchor rule, for the releases' heading ids. */
  anchors?: AnchorRule;
}

export function readChangelog(host: HTMLElement): ChangelogProps {
  const heading = host.querySelector('h2, h3, h4, h5, h6');
  return {
    id: host.getAttribute('data-id') ?? '',
    fallback: readFallback(host),
    level: heading && heading.tagName !== 'H2' ? 3 : 2,
    anchors: readPageData(host.ownerDocument)?.site.anchors,
  };
}

/** The releases of a loaded changelog, shape-checked. */
export function toReleases(data: unknown): Release[] {
  if (!Array.isArray(data)) return [];
  const out: Release[] = [];
  for (const raw of data) {
    if (raw === null || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    const version = typeof r.version === 'string' ? r.version.trim() : typeof r.version === 'number' ? String(r.version) : '';
    if (!version) continue;
    const notes = Array.isArray(r.notes) ? r.notes.filter((n): n is string => typeof n === 'string') : [];
    out.push({ version, date: typeof r.date === 'string' && r.date.trim() !== '' ? r.date : null, notes });
  }
  return out;
}

/** Compares versions part by part (numbers as numbers): negative when `a` is older. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.\-+_ ]/);
  const pb = b.split(/[.\-+_ ]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    // One more number is newer (1.0.0.1 after 1.0.0); a pre-release word is older (1.0.0-beta before 1.0.0).
    if (x === '') return ny ? -1 : 1;
    if (y === '') return nx ? 1 : -1;
    if (nx && ny) return Number(x) - Number(y);
    // A number ranks above a word (1.0.0 after 1.0.beta).
    if (nx !== ny) return nx ? 1 : -1;
    return x.localeCompare(y);
  }
  return 0;
}

/** Newest first: by version, then by date. */
export function newestFirst(releases: readonly Release[]): Release[] {
  return releases.slice().sort((a, b) => compareVersions(b.version, a.version) || (b.date ?? '').localeCompare(a.date ?? ''));
}

/** Whether a release has every word of the query in its version, date or notes (any case). */
export function matches(release: Release, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [release.version, release.date ?? '', ...release.notes].join('\n').replace(/`/g, '').toLowerCase();
  return words.every((w) => text.includes(w));
}

/** A note's text, with its `code` spans. */
function noteContent(note: string): ReactNode {
  const parts = note.split('`');
  // An odd number of backticks leaves the last one as it is.
  if (parts.length % 2 === 0) return note;
  return parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>));
}

/** No releases yet: one array, so the filtered list is not recomputed on every render. */
const NO_RELEASES: readonly Release[] = [];

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; releases: Release[] };

function useReleases(api: Api, id: string): Load {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    setLoad((l) => (l.state === 'loading' ? l : { state: 'loading' }));
    api.load<unknown>(sdkChangeLogs(id), abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setLoad({ state: 'loaded', releases: newestFirst(toReleases(data)) });
      },
      () => {
        if (!abort.signal.aborted) setLoad({ state: 'failed' });
      },
    );
    return () => { abort.abort(); };
  }, [api, id]);
  return load;
}

/**
 * The release notes of an SDK or plugin, newest first, with a filter that narrows them as the
 * reader types. Until they are loaded, and when they cannot be, the pre-rendered notes stay.
 */
export function Changelog({ id, fallback, level, anchors, host }: ChangelogProps & { host?: HTMLElement }) {
  const api = useMemo(() => siteApi(host?.ownerDocument ?? document), [host]);
  const load = useReleases(api, id);
  const [query, setQuery] = useState('');
  const inputId = useDomId('dg-changelog');
  const releases = load.state === 'loaded' ? load.releases : NO_RELEASES;
  const shown = useMemo(() => releases.filter((r) => matches(r, query)), [releases, query]);

  // A changelog without releases keeps its pre-rendered text (where its notes are kept instead).
  if (load.state !== 'loaded' || releases.length === 0) {
    return (
      <>
        {load.state === 'failed' && <LoadError>{t('changelog.loadFailed')}</LoadError>}
        <Fallback nodes={fallback} />
      </>
    );
  }

  return (
    <div className="dg-changelog">
      <div className="dg-changelog-bar">
        <input
          id={inputId}
          className="dg-changelog-filter"
          type="search"
          value={query}
          placeholder={t('changelog.filter')}
          aria-label={t('changelog.filter')}
          aria-controls={`${inputId}-list`}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => { setQuery(e.currentTarget.value); }}
        />
        <span className="dg-changelog-count" role="status">
          {t('changelog.shown', { shown: shown.length, total: releases.length })}
        </span>
      </div>
      <div id={`${inputId}-list`}>
        {shown.map((r) => (
          <section key={r.version} className="dg-changelog-release">
            <Heading level={level} text={r.version} anchors={anchors} />
            {r.date && <p>{t('changelog.released', { date: r.date })}</p>}
            <ul>
              {r.notes.map((note, i) => (
                <li key={i}>{noteContent(note)}</li>
              ))}
            </ul>
          </section>
        ))}
        {shown.length === 0 && <p className="dg-changelog-empty">{t('table.noResults')}</p>}
      </div>
    </div>
  );
}
