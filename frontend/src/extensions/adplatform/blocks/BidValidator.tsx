import { useCallback, useEffect, useRef, useState, type FormEvent, type RefObject, type TextareaHTMLAttributes } from 'react';
import { readPageData } from '../../../data/pageData';
import { t } from '../i18n';
import type { SiteValidator } from '../generated/SiteValidator';
import { Button } from '../../../ui/Button';
import type { Finding, Report, Validator } from '../validator/engine';
import { loadValidator } from '../validator/load';
import { Fallback, LoadError, readFallback, useDomId } from '../../../blocks/Fallback';

export interface BidValidatorProps {
  fallback: Node[];
  /** Where the rules and the evaluator are; null on a site without them. */
  site: SiteValidator | null;
  /** The base path of the site, for the links to the rules. */
  base: string;
  /** The examples the fallback lists (`data-example` items), in order. */
  examples: Array<{ id: string; label: string }>;
}

export function readBidValidator(host: HTMLElement): BidValidatorProps {
  const doc = host.ownerDocument;
  const data = readPageData(doc);
  return {
    fallback: readFallback(host),
    // The extension's own entry of the site view, absent where it is not enabled.
    site: (data as WithValidator | null | undefined)?.site.validator ?? null,
    base: doc.documentElement.getAttribute('data-base') ?? data?.site.base ?? '',
    examples: Array.from(host.querySelectorAll<HTMLElement>('[data-example]')).map((el) => ({
      id: el.getAttribute('data-example') ?? '',
      label: el.textContent.trim(),
    })),
  };
}

/** The page data with the extension's entry of the site view (`validator`). */
type WithValidator = { site: { validator?: SiteValidator | null } };

type Loading = { status: 'idle' | 'loading' | 'failed' } | { status: 'ready'; validator: Validator };

/** The offset of a 1-based line and column in a text. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + column - 1);
}

/** Puts the caret at a line and column of a text box and scrolls that line into view. */
export function moveCaret(area: HTMLTextAreaElement, line: number, column: number) {
  const at = offsetOf(area.value, line, column);
  area.focus({ preventScroll: true });
  area.setSelectionRange(at, at);
  // A text box does not scroll to a caret set from script in every browser: the line is put
  // in the middle of the box, the column in view (the box does not wrap its lines).
  const style = getComputedStyle(area);
  const lineHeight = parseFloat(style.lineHeight) || 1.45 * (parseFloat(style.fontSize) || 13);
  area.scrollTop = Math.max(0, (line - 1) * lineHeight - area.clientHeight / 2 + lineHeight / 2);
  const charWidth = 0.6 * (parseFloat(style.fontSize) || 13);
  const x = (column - 1) * charWidth;
  if (x < area.scrollLeft || x > area.scrollLeft + area.clientWidth - 4 * charWidth) {
    area.scrollLeft = Math.max(0, x - area.clientWidth / 2);
  }
  area.dispatchEvent(new Event('scroll'));
  area.scrollIntoView({ block: 'nearest' });
}

type AreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'wrap'> & {
  areaRef: RefObject<HTMLTextAreaElement>;
  value: string;
  onText: (text: string) => void;
};

/**
 * A text box with line numbers beside it: the gutter scrolls with the text, and its width is
 * set for at least three digits so typing does not move the box. Lines do not wrap, so each
 * number stands beside its line.
 */
function NumberedText({ areaRef, value, onText, ...props }: AreaProps) {
  const gutter = useRef<HTMLDivElement>(null);
  const lines = value === '' ? 1 : value.split('\n').length;
  const digits = Math.max(3, String(lines).length);
  const follow = () => {
    if (gutter.current && areaRef.current) gutter.current.scrollTop = areaRef.current.scrollTop;
  };
  // A new text (an example loaded) may scroll the box; the gutter follows.
  useEffect(() => {
    if (gutter.current && areaRef.current) gutter.current.scrollTop = areaRef.current.scrollTop;
  }, [value, areaRef]);
  return (
    <div className="dg-validator-editor" style={{ ['--dg-gutter-digits' as string]: digits }}>
      <div ref={gutter} className="dg-validator-gutter" aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          <span key={i}>{i + 1}</span>
        ))}
      </div>
      <textarea
        {...props}
        ref={areaRef}
        wrap="off"
        value={value}
        onScroll={follow}
        onChange={(e) => { onText(e.target.value); }}
      />
    </div>
  );
}

/**
 * The bid-response validator: a response (and, optionally, the request it answers) checked
 * against the rules docgen compiled from the bidding specification, in the browser. The
 * evaluator and the rules load on first use; the findings link to the rules' rows.
 */
export function BidValidator({ fallback, site, base, examples }: BidValidatorProps) {
  const [response, setResponse] = useState('');
  const [request, setRequest] = useState('');
  const [loading, setLoading] = useState<Loading>({ status: 'idle' });
  const [report, setReport] = useState<Report | null>(null);
  const responseRef = useRef<HTMLTextAreaElement>(null);
  const requestRef = useRef<HTMLTextAreaElement>(null);
  const live = useRef(true);
  const id = useDomId('dg-validator');
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  /** The validator, loaded (once) for an action the reader asked for, showing that it loads. */
  const load = useCallback((): Promise<Validator> | null => {
    if (!site) return null;
    if (loading.status === 'ready') return Promise.resolve(loading.validator);
    setLoading({ status: 'loading' });
    const p = loadValidator(site);
    p.then(
      (validator) => { if (live.current) setLoading({ status: 'ready', validator }); },
      () => { if (live.current) setLoading({ status: 'failed' }); },
    );
    return p;
  }, [site, loading]);

  // The first focus inside the form starts loading quietly, so Validate answers at once.
  const start = () => {
    if (!site || loading.status !== 'idle') return;
    loadValidator(site).then(
      (validator) => { if (live.current) setLoading((l) => (l.status === 'ready' ? l : { status: 'ready', validator })); },
      () => undefined,
    );
  };

  const check = (validator: Validator, res: string, req: string) => {
    const result = validator.validate(res, req);
    setReport(result);
    if (result.status === 'invalid') {
      const area = result.which === 'response' ? responseRef.current : requestRef.current;
      if (area) moveCaret(area, result.line, result.column);
    }
  };

  /** A finding followed: the caret goes to its place in the text it was found in. */
  const jump = (which: 'response' | 'request', line: number, column: number) => {
    const area = which === 'response' ? responseRef.current : requestRef.current;
    if (area) moveCaret(area, line, column);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const res = response;
    const req = request;
    load()
      ?.then((v) => { if (live.current) check(v, res, req); })
      .catch(() => undefined);
  };

  const loadExample = (exampleId: string) => {
    load()
      ?.then((v) => {
        const ex = v.rules.examples.find((x) => x.id === exampleId);
        if (!ex || !live.current) return;
        setResponse(ex.response);
        setRequest(ex.request);
        setReport(null);
      })
      .catch(() => undefined);
  };

  if (!site) return <Fallback nodes={fallback} />;

  const invalid = report?.status === 'invalid' ? report.which : null;
  return (
    <div className="dg-validator">
      {examples.length > 0 && (
        <div className="dg-validator-examples" role="group" aria-labelledby={`${id}-examples`}>
          <span id={`${id}-examples`} className="dg-validator-examples-label">
            {t('validator.examples')}
          </span>
          {examples.map((ex) => (
            <Button key={ex.id} onClick={() => { loadExample(ex.id); }} onFocus={start}>
              {ex.label}
            </Button>
          ))}
        </div>
      )}
      <form className="dg-validator-form" onSubmit={submit} onFocus={start} noValidate>
        <label className="dg-validator-label" htmlFor={`${id}-response`}>
          {t('validator.response')}
        </label>
        <NumberedText
          id={`${id}-response`}
          areaRef={responseRef}
          className="dg-validator-text"
          rows={12}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          value={response}
          aria-invalid={invalid === 'response' || undefined}
          onText={setResponse}
        />
        <label className="dg-validator-label" htmlFor={`${id}-request`}>
          {t('validator.request')}
        </label>
        <p id={`${id}-request-hint`} className="dg-validator-hint">
          {t('validator.requestHint')}
        </p>
        <NumberedText
          id={`${id}-request`}
          areaRef={requestRef}
          className="dg-validator-text"
          rows={6}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          value={request}
          aria-describedby={`${id}-request-hint`}
          aria-invalid={invalid === 'request' || undefined}
          onText={setRequest}
        />
        <div className="dg-validator-bar">
          <Button type="submit" variant="primary" loading={loading.status === 'loading'}>
            {t('validator.validate')}
          </Button>
          <span className="dg-validator-hint">{t('validator.private')}</span>
        </div>
      </form>
      {loading.status === 'failed' && <LoadError>{t('validator.loadFailed')}</LoadError>}
      <section className="dg-validator-results" aria-label={t('validator.results')}>
        <Results report={report} base={base} onJump={jump} />
      </section>
    </div>
  );
}

function count(n: number, one: 'validator.errorsOne' | 'validator.warningsOne', many: 'validator.errors' | 'validator.warnings') {
  return n === 1 ? t(one) : t(many, { count: n });
}

type Jump = (which: 'response' | 'request', line: number, column: number) => void;

function Results({ report, base, onJump }: { report: Report | null; base: string; onJump: Jump }) {
  if (!report) return null;
  if (report.status === 'empty') {
    return (
      <p className="dg-validator-status" role="status">
        {t('validator.empty')}
      </p>
    );
  }
  if (report.status === 'invalid') {
    return (
      <p className="dg-validator-status dg-validator-status-error" role="status">
        {t('validator.invalid', {
          which: t(report.which === 'response' ? 'validator.which.response' : 'validator.which.request'),
          message: report.message,
          line: report.line,
          column: report.column,
        })}
      </p>
    );
  }
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.length - errors;
  return (
    <>
      <p className={`dg-validator-status${errors > 0 ? ' dg-validator-status-error' : report.findings.length === 0 ? ' dg-validator-status-clean' : ''}`} role="status">
        {report.findings.length === 0
          ? t('validator.clean', { count: report.checked })
          : t('validator.summary', {
              errors: count(errors, 'validator.errorsOne', 'validator.errors'),
              warnings: count(warnings, 'validator.warningsOne', 'validator.warnings'),
              count: report.checked,
            })}
        {report.skipped > 0 && ` ${t('validator.skipped', { count: report.skipped })}`}
      </p>
      {report.findings.length > 0 && (
        <ol className="dg-validator-findings">
          {report.findings.map((f, i) => (
            <FindingItem key={`${f.ruleId} ${f.path} ${i}`} finding={f} base={base} onJump={onJump} />
          ))}
        </ol>
      )}
    </>
  );
}

/**
 * One finding: what is wrong and what to send instead first, then where it was found (a
 * button that puts the caret there), the rule's own wording and expression on demand, and
 * the link to the rule's row.
 */
function FindingItem({ finding: f, base, onJump }: { finding: Finding; base: string; onJump: Jump }) {
  const which = t(f.which === 'response' ? 'validator.which.response' : 'validator.which.request');
  return (
    <li className={`dg-finding dg-finding-${f.severity}`}>
      <div className="dg-finding-head">
        <span className={`dg-badge dg-finding-badge`}>{t(f.severity === 'error' ? 'validator.error' : 'validator.warning')}</span>
        <p className="dg-finding-text">
          {f.problem}: {f.fix}
        </p>
      </div>
      <p className="dg-finding-detail">
        {f.line !== undefined && (
          <button
            type="button"
            className="dg-finding-where"
            aria-label={t('validator.goTo', { line: f.line, column: f.column ?? 1, which })}
            onClick={() => { onJump(f.which, f.line ?? 1, f.column ?? 1); }}
          >
            {f.line}:{f.column ?? 1}
          </button>
        )}
        <code className="dg-finding-path">{f.path}</code>
        {f.detail && <span>{f.detail}</span>}
      </p>
      <details className="dg-finding-rule-expression">
        <summary>{t('validator.expression')}</summary>
        <p>{f.text}</p>
        <p>
          <code>{f.field}</code>: <code>{f.condition}</code>
        </p>
      </details>
      {f.href && (
        <a className="dg-finding-rule" href={`${base}${f.href}`}>
          {t(f.origin === 'rule' ? 'validator.rule' : 'validator.field', { id: f.ruleId })}
        </a>
      )}
    </li>
  );
}
