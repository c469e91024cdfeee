import { forwardRef, type KeyboardEvent } from 'react';
import { t } from '../i18n';
import { CloseIcon, SearchIcon } from './icons';

export interface SearchFieldProps {
  id: string;
  listboxId: string;
  value: string;
  /** The listbox is shown. */
  expanded: boolean;
  activeOption: string | undefined;
  onChange: (value: string) => void;
  onFocus: () => void;
  onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => void;
  /** Closes the full-screen panel of narrow screens (the button shows only there). */
  onClose: () => void;
}

/** The search input, a combobox over the results listbox, with its label and icons. */
export const SearchField = forwardRef<HTMLInputElement, SearchFieldProps>(function SearchField(
  { id, listboxId, value, expanded, activeOption, onChange, onFocus, onKeyDown, onClose },
  ref,
) {
  return (
    <div className="dg-search-bar">
      <label className="dg-visually-hidden" htmlFor={id}>
        {t('search.label')}
      </label>
      <SearchIcon />
      <input
        ref={ref}
        id={id}
        className="dg-search-input"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={activeOption}
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        enterKeyHint="search"
        placeholder={t('search.label')}
        value={value}
        onChange={(e) => { onChange(e.currentTarget.value); }}
        onFocus={onFocus}
        onKeyDown={onKeyDown}
      />
      {value === '' && (
        <kbd className="dg-search-key" aria-hidden="true">
          /
        </kbd>
      )}
      <button type="button" className="dg-search-close" aria-label={t('search.close')} onClick={onClose}>
        <CloseIcon />
      </button>
    </div>
  );
});
