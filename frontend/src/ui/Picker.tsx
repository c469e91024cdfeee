import type { ReactNode } from 'react';
import { Button } from './Button';
import { t } from '../i18n';

export interface PickerItem {
  key: string;
  name: string;
  /** Shown after the name and read as the checkbox's description. */
  details?: ReactNode;
}

export interface PickerProps {
  /** Prefix of the checkboxes' ids, unique on the page. */
  idPrefix: string;
  legend: string;
  items: PickerItem[];
  selected: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
  /** Shown under the buttons. */
  note?: string;
}

/** A set of checkboxes in a fieldset, with Select all and Clear, and how many are ticked. */
export function Picker({ idPrefix, legend, items, selected, onChange, note }: PickerProps) {
  const ticked = items.filter((item) => selected.has(item.key)).length;
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    onChange(next);
  };
  return (
    <fieldset className="dg-picker">
      <legend>{legend}</legend>
      <div className="dg-picker-bar">
        <Button onClick={() => { onChange(new Set(items.map((item) => item.key))); }}>{t('deps.selectAll')}</Button>
        <Button onClick={() => { onChange(new Set()); }}>{t('deps.clear')}</Button>
        <span className="dg-picker-count" role="status">
          {t('deps.selected', { count: ticked, total: items.length })}
        </span>
      </div>
      {note && <p className="dg-picker-note">{note}</p>}
      <ul className="dg-picker-list">
        {items.map((item, i) => {
          const id = `${idPrefix}-${i}`;
          return (
            <li key={item.key}>
              <label className="dg-picker-item">
                <input
                  type="checkbox"
                  id={id}
                  checked={selected.has(item.key)}
                  onChange={(e) => { toggle(item.key, e.currentTarget.checked); }}
                  aria-labelledby={`${id}-name`}
                  aria-describedby={item.details ? `${id}-details` : undefined}
                />
                <span className="dg-picker-name" id={`${id}-name`}>
                  {item.name}
                </span>
                {item.details && (
                  <span className="dg-picker-details" id={`${id}-details`}>
                    {item.details}
                  </span>
                )}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
