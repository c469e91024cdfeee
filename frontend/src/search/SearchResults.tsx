import type { MouseEvent } from 'react';
import { t } from '../i18n';
import { cx } from '../lib/cx';
import type { Result, SubResult } from './engine';
import { Excerpt } from './Excerpt';

/** A row of the list: a page, or one of its sections (then `section` is set). */
export interface SearchOption {
  key: string;
  url: string;
  result: Result;
  section: SubResult | null;
}

/** The rows of the results in reading order: each page, then its matching sections. */
export function searchOptions(results: readonly Result[]): SearchOption[] {
  return results.flatMap((result) => [
    { key: String(result.doc), url: result.url, result, section: null },
    ...result.sections.map((section) => ({ key: `${result.doc}#${section.anchor}`, url: section.url, result, section })),
  ]);
}

interface OptionProps {
  id: string;
  option: SearchOption;
  active: boolean;
  onHover: () => void;
  onSelect: () => void;
}

function optionProps({ id, option, active, onHover, onSelect }: OptionProps, kind: string) {
  return {
    id,
    role: 'option',
    href: option.url,
    // The input keeps focus (aria-activedescendant points here); links are reached by arrows.
    tabIndex: -1,
    'aria-selected': active,
    className: cx('dg-search-option', kind, active && 'is-active'),
    // A real link: the app's link handling navigates, a Ctrl/Cmd-click opens a tab.
    onClick: onSelect,
    onMouseMove: active ? undefined : onHover,
  } as const;
}

function PageOption(props: OptionProps) {
  const { result } = props.option;
  return (
    <a {...optionProps(props, 'dg-search-page')}>
      <span className="dg-search-title">{result.title}</span>
      {result.breadcrumb.length > 0 && <span className="dg-search-crumbs">{result.breadcrumb.join(' › ')}</span>}
      <Excerpt segments={result.excerpt} />
    </a>
  );
}

function SectionOption(props: OptionProps) {
  const { result, section } = props.option;
  if (!section) return null;
  return (
    <a {...optionProps(props, 'dg-search-section')}>
      <span className="dg-search-heading">{section.heading}</span>
      {/* The page's excerpt already comes from this section. */}
      {section.anchor !== result.excerptAnchor && <Excerpt segments={section.excerpt} />}
    </a>
  );
}

export interface SearchResultsProps {
  id: string;
  optionId: (index: number) => string;
  options: readonly SearchOption[];
  hidden: boolean;
  /** A newer query is waiting for its answer: the options shown answer an older one. */
  busy: boolean;
  active: number;
  onHover: (index: number) => void;
  onSelect: () => void;
}

/** The listbox of results. Pressing in it does not take focus from the input. */
export function SearchResults({ id, optionId, options, hidden, busy, active, onHover, onSelect }: SearchResultsProps) {
  return (
    <div
      role="listbox"
      id={id}
      className="dg-search-results"
      aria-label={t('search.results')}
      hidden={hidden}
      aria-busy={busy || undefined}
      onMouseDown={(e: MouseEvent) => { e.preventDefault(); }}
    >
      {options.map((option, i) => {
        const props: OptionProps = { id: optionId(i), option, active: i === active, onHover: () => { onHover(i); }, onSelect };
        return option.section ? <SectionOption key={option.key} {...props} /> : <PageOption key={option.key} {...props} />;
      })}
    </div>
  );
}
