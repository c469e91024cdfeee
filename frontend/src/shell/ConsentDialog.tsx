import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '../ui/Button';
import { useFocusTrap } from '../hooks/useFocusTrap';
import { t, type StringId } from '../i18n';

export interface ConsentChoices {
  performance: boolean;
  functional: boolean;
  targeting: boolean;
}

export const CONSENT_STORAGE_KEY = 'dg-consent';

const optional: Array<{ key: keyof ConsentChoices; label: StringId; hint: StringId }> = [
  { key: 'performance', label: 'consent.performance', hint: 'consent.performanceHint' },
  { key: 'functional', label: 'consent.functional', hint: 'consent.functionalHint' },
  { key: 'targeting', label: 'consent.targeting', hint: 'consent.targetingHint' },
];

export function readConsent(storage: Storage | undefined = globalThis.localStorage): ConsentChoices {
  const none = { performance: false, functional: false, targeting: false };
  try {
    // globalThis.localStorage, the default, is missing outside browsers.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    const saved = JSON.parse(storage?.getItem(CONSENT_STORAGE_KEY) ?? 'null') as Partial<ConsentChoices> | null;
    return saved ? { performance: !!saved.performance, functional: !!saved.functional, targeting: !!saved.targeting } : none;
  } catch {
    return none;
  }
}

function writeConsent(choices: ConsentChoices) {
  try {
    localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify(choices));
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

/**
 * The cookie settings, a modal dialog: the rest of the page is inert while it is open, focus
 * stays inside, Escape closes it, and focus returns to the button that opened it.
 */
export function ConsentDialog({ open, onClose, opener = null }: { open: boolean; onClose: () => void; opener?: HTMLElement | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const introId = useId();
  const [choices, setChoices] = useState<ConsentChoices>(() => readConsent());

  useEffect(() => {
    if (open) setChoices(readConsent());
  }, [open]);
  // Declared before the focus trap: the page is inert before focus moves into the dialog, and
  // no longer inert when focus goes back to the opener.
  useEffect(() => {
    if (!open) return;
    const outside = Array.from(document.body.children).filter((el) => !el.contains(ref.current) && !el.hasAttribute('inert'));
    for (const el of outside) el.setAttribute('inert', '');
    return () => {
      for (const el of outside) el.removeAttribute('inert');
    };
  }, [open]);
  useFocusTrap(ref, open, onClose, opener);

  if (!open) return null;
  const decide = (c: ConsentChoices) => {
    writeConsent(c);
    onClose();
  };
  return createPortal(
    <div className="dg-consent-backdrop">
      <div ref={ref} className="dg-consent" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={introId} tabIndex={-1}>
        <div className="dg-consent-head">
          <h2 id={titleId}>{t('consent.title')}</h2>
          <button type="button" className="dg-consent-close" aria-label={t('consent.close')} onClick={onClose}>
            ×
          </button>
        </div>
        <p id={introId}>{t('consent.intro')}</p>
        <ul className="dg-consent-choices">
          <li>
            <label>
              <input type="checkbox" checked disabled />
              <span className="dg-consent-name">{t('consent.necessary')}</span>
            </label>
            <p>{t('consent.necessaryHint')}</p>
          </li>
          {optional.map(({ key, label, hint }) => (
            <li key={key}>
              <label>
                <input type="checkbox" name={key} checked={choices[key]} onChange={(e) => { setChoices({ ...choices, [key]: e.target.checked }); }} />
                <span className="dg-consent-name">{t(label)}</span>
              </label>
              <p>{t(hint)}</p>
            </li>
          ))}
        </ul>
        <div className="dg-consent-actions">
          <Button onClick={() => { decide({ performance: false, functional: false, targeting: false }); }}>{t('consent.rejectAll')}</Button>
          <Button onClick={() => { decide(choices); }}>{t('consent.confirm')}</Button>
          <Button variant="primary" onClick={() => { decide({ performance: true, functional: true, targeting: true }); }}>
            {t('consent.allowAll')}
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
