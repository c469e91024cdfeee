import { useId } from 'react';
import { t } from '../i18n';
import type { Filters } from './engine';

export interface SearchFiltersProps {
  filters: Filters;
  area: string | null;
  platform: string | null;
  onArea: (area: string | null) => void;
  onPlatform: (platform: string | null) => void;
}

interface FilterProps {
  id: string;
  label: string;
  /** The first choice, which filters nothing. */
  all: string;
  names: readonly string[];
  value: string | null;
  onChange: (value: string | null) => void;
}

function Filter({ id, label, all, names, value, onChange }: FilterProps) {
  return (
    <span className="dg-search-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => { onChange(e.currentTarget.value || null); }}>
        <option value="">{all}</option>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </span>
  );
}

/** The area and platform whose section holds `path` (the longest that does), or null. */
export function contextOf(filters: Filters, path: string): { area: string | null; platform: string | null } {
  const within = (href: string) => href !== '' && (path === href || path.startsWith(href.endsWith('/') ? href : `${href}/`));
  const longest = (names: readonly string[], hrefs: readonly string[]) => {
    let best = -1;
    hrefs.forEach((href, i) => {
      if (within(href) && (best < 0 || href.length > hrefs[best].length)) best = i;
    });
    return best < 0 ? null : (names[best] ?? null);
  };
  return { area: longest(filters.areas, filters.areaHrefs), platform: longest(filters.platforms, filters.platformHrefs) };
}

/**
 * The area filter (when there are areas to choose between) and the platform filter (when the
 * index knows platforms: it keeps that platform's pages and the pages of no platform). The
 * platform filter starts at the platform of the page the reader is on; "All platforms" is its
 * first choice.
 */
export function SearchFilters({ filters, area, platform, onArea, onPlatform }: SearchFiltersProps) {
  const id = useId();
  if (filters.areas.length < 2 && filters.platforms.length === 0) return null;
  return (
    <div className="dg-search-filters">
      {filters.areas.length > 1 && (
        <Filter id={`${id}-area`} label={t('search.area')} all={t('search.allAreas')} names={filters.areas} value={area} onChange={onArea} />
      )}
      {filters.platforms.length > 0 && (
        <Filter id={`${id}-platform`} label={t('search.platform')} all={t('search.allPlatforms')} names={filters.platforms} value={platform} onChange={onPlatform} />
      )}
    </div>
  );
}
