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

/**
 * The area filter (when there are areas to choose between) and the platform filter (when the
 * index knows platforms: pages without one are left out by it).
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
