import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { AD_REVIEW_KEY_PLACEHOLDER, COPIED_FEEDBACK_MS, SDK_KEY_PLACEHOLDER } from '../constants';
import { useTabList, useTabsInPlace } from '../hooks/useTabList';
import { t } from '../i18n';
import { useDocumentation, useResource } from '../state/DocumentationContext';
import { Button } from '../ui/Button';
import { Tooltip } from '../ui/Tooltip';
import { escapeHtml } from '../lib/html';

export interface CodePanel {
  id: string;
  lang: string;
  /** Highlighted HTML of the code (token spans), as docgen wrote it. */
  html: string;
}

export interface CodeBoxProps {
  /** The id of the box (`dg-code-N`); tab and panel ids derive from it. */
  boxId: string;
  labels: string[];
  panels: CodePanel[];
  /** The single snippet's label is its file name (`title="app.js"`). */
  file?: boolean;
  /** The `.dg-code` element the box is mounted in. */
  host?: HTMLElement;
}

/** Reads a code box docgen pre-rendered (see the output of fenced code and code groups). */
export function readCodeBox(host: HTMLElement): CodeBoxProps {
  const tabs = Array.from(host.querySelectorAll(':scope > .dg-code-bar [role="tab"]'));
  const single = host.querySelector(':scope > .dg-code-bar .dg-code-label');
  const panels = Array.from(host.querySelectorAll<HTMLElement>(':scope > .dg-code-panel')).map((p, i) => ({
    id: p.id || `${host.id}-panel-${i}`,
    lang: p.getAttribute('data-lang') ?? '',
    html: p.querySelector('code')?.innerHTML ?? p.innerHTML,
  }));
  const labels = tabs.length > 0 ? tabs.map((b) => b.textContent) : [single?.textContent ?? ''];
  const file = tabs.length === 0 && single?.classList.contains('dg-code-file') === true;
  return { boxId: host.id, labels, panels, ...(file ? { file } : {}) };
}


/** The code with the reader's keys in place of their placeholders, for the keys there are. */
export function withKeys(html: string, keys: Record<string, string | null>): string {
  let out = html;
  for (const [placeholder, key] of Object.entries(keys)) if (key) out = out.split(placeholder).join(escapeHtml(key));
  return out;
}

async function copyText(text: string): Promise<void> {
  // Pages served over plain http have no Clipboard API.
  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (clipboard?.writeText) {
    await clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  // The one way to copy without the Clipboard API.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

type CopyState = 'idle' | 'pending' | 'copied' | 'failed';

const noLabels: readonly string[] = [];

/**
 * The copy button of a code box's bar and its spoken status: puts `text()` (the selected
 * snippet) on the clipboard and says so for a while.
 */
function CopyAction({ text }: { text: () => string }) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => { window.clearTimeout(timer.current); }, []);

  const onCopy = () => {
    setCopy('pending');
    window.clearTimeout(timer.current);
    copyText(text()).then(
      () => { setCopy('copied'); },
      () => { setCopy('failed'); },
    ).finally(() => {
      timer.current = window.setTimeout(() => { setCopy('idle'); }, COPIED_FEEDBACK_MS);
    });
  };

  const copyLabel = copy === 'copied' ? t('code.copied') : copy === 'failed' ? t('code.copyFailed') : t('code.copy');
  const status = copy === 'copied' ? t('code.copiedStatus') : copy === 'failed' ? t('code.copyFailedStatus') : '';
  return (
    <>
      <Tooltip content={t('code.copyHint')}>
        <Button variant="quiet" className="dg-code-copy" loading={copy === 'pending'} onClick={onCopy}>
          {copyLabel}
        </Button>
      </Tooltip>
      <span className="dg-visually-hidden" role="status">
        {status}
      </span>
    </>
  );
}

/**
 * The light/dark background switch of a box the app renders, the same as the server's (see the
 * Markdown stage's code boxes): one choice for every box, made by the shell's click handler
 * (shell/attach.ts) for all of them, kept in the documentation state.
 */
function BackgroundToggle() {
  const dark = useDocumentation().state.codeSnippetBackgroundStyle === 'dark';
  return <button type="button" className="dg-code-bg-toggle" aria-label={t('code.darkBackground')} title={t('code.darkBackground')} aria-pressed={dark} />;
}

/** The reader's keys, where the snippets have their placeholders (on a static site the calls fail and the placeholders stay). */
function useKeys(htmls: readonly string[]): Record<string, string | null> {
  const sdkKey = useResource('sdkKey', htmls.some((h) => h.includes(SDK_KEY_PLACEHOLDER))).object;
  const safedkKey = useResource('safedkKey', htmls.some((h) => h.includes(AD_REVIEW_KEY_PLACEHOLDER))).object;
  return useMemo(() => ({ [SDK_KEY_PLACEHOLDER]: sdkKey, [AD_REVIEW_KEY_PLACEHOLDER]: safedkKey }), [sdkKey, safedkKey]);
}

export interface CodeBoxInPlaceProps {
  /** The box's bar, which gets the copy button. */
  bar: HTMLElement | null;
  /** The tab buttons (none for a single snippet). */
  buttons: HTMLButtonElement[];
  panels: HTMLElement[];
  /** Each panel's `code` element and its HTML as docgen wrote it. */
  codes: { el: HTMLElement; html: string }[];
}

/** Finds the parts of a code box docgen pre-rendered; the box stays where it is. */
export function readCodeBoxInPlace(host: HTMLElement): CodeBoxInPlaceProps {
  const panels = Array.from(host.querySelectorAll<HTMLElement>(':scope > .dg-code-panel'));
  return {
    bar: host.querySelector<HTMLElement>(':scope > .dg-code-bar'),
    buttons: Array.from(host.querySelectorAll<HTMLButtonElement>(':scope > .dg-code-bar [role="tab"]')),
    panels,
    codes: panels.flatMap((p) => {
      const el = p.querySelector<HTMLElement>('code');
      return el ? [{ el, html: el.innerHTML }] : [];
    }),
  };
}

/**
 * A code box docgen rendered, given its behaviour where it is: its tabs switch (chosen by label
 * for the whole site), a copy button joins its bar beside the background switch, and the reader's keys replace their
 * placeholders in its code.
 */
export function CodeBoxInPlace({ bar, buttons, panels, codes }: CodeBoxInPlaceProps) {
  const htmls = useMemo(() => codes.map((c) => c.html), [codes]);
  const keys = useKeys(htmls);
  const selected = useTabsInPlace(buttons, panels);
  useLayoutEffect(() => {
    // A snippet wider than the box scrolls: it takes focus, so the keyboard can scroll it.
    for (const pre of panels.map((p) => p.querySelector('pre'))) if (pre && !pre.hasAttribute('tabindex')) pre.tabIndex = 0;
  }, [panels]);
  useLayoutEffect(() => {
    for (const { el, html } of codes) {
      const shown = withKeys(html, keys);
      if (el.innerHTML !== shown) el.innerHTML = shown;
    }
  }, [codes, keys]);
  // The copy button goes into the slot the server left for it, before the background switch, in
  // place of the server's stand-in (the same markup): removed in the same frame, nothing moves.
  const actions = bar?.querySelector<HTMLElement>(':scope > .dg-code-actions > .dg-code-copy-slot') ?? bar;
  useLayoutEffect(() => {
    actions?.querySelector(':scope > [data-dg-placeholder]')?.remove();
  }, [actions]);
  return actions ? createPortal(<CopyAction text={() => panels[selected]?.querySelector('code')?.textContent ?? ''} />, actions) : null;
}

/**
 * A box of code rendered by the app (generated code, which has no server markup): one snippet, or several as tabs (arrow keys, Home and End move between tabs).
 * The tab shown is chosen by label for the whole site: choosing "Java" here selects "Java" in
 * every box of the page and of later pages (useCodeTab); the page stays where it is under the
 * reader's pointer while boxes above change height. Copy puts the selected snippet on the
 * clipboard. The background is light or dark as the reader chose for every box. The reader's SDK and Ad Review keys replace
 * YOUR_SDK_KEY and YOUR_AD_REVIEW_KEY when the site can tell them.
 */
export function CodeSnippetBox({ boxId, labels, panels, file = false }: CodeBoxProps) {
  const htmls = useMemo(() => panels.map((p) => p.html), [panels]);
  const keys = useKeys(htmls);
  const tabbed = panels.length > 1;
  const { selected, tabProps } = useTabList(tabbed ? labels : noLabels, panels.length);
  const codes = useRef<Array<HTMLElement | null>>([]);

  return (
    <>
      <div className="dg-code-bar">
        {tabbed ? (
          <div className="dg-code-tabs" role="tablist" aria-label={t('code.variants')}>
            {labels.map((label, i) => (
              <button key={i} {...tabProps(i)} id={`${boxId}-tab-${i}`} aria-controls={panels[i]?.id}>
                {label}
              </button>
            ))}
          </div>
        ) : (
          <span className={file ? 'dg-code-label dg-code-file' : 'dg-code-label'} title={labels[0]}>{labels[0]}</span>
        )}
        <div className="dg-code-actions">
          <CopyAction text={() => codes.current[selected]?.textContent ?? ''} />
          <BackgroundToggle />
        </div>
      </div>
      {panels.map((p, i) => (
        <div
          key={p.id}
          className="dg-code-panel"
          id={p.id}
          data-lang={p.lang}
          {...(tabbed ? { role: 'tabpanel', 'aria-labelledby': `${boxId}-tab-${i}` } : {})}
          hidden={tabbed && i !== selected}
        >
          <pre className="dg-hl" tabIndex={0}>
            <code
              ref={(el) => {
                codes.current[i] = el;
              }}
              dangerouslySetInnerHTML={{ __html: withKeys(p.html, keys) }}
            />
          </pre>
        </div>
      ))}
    </>
  );
}
