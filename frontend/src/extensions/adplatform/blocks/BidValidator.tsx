import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
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
      const text = result.which === 'response' ? res : req;
      if (area) {
        area.focus();
        const at = offsetOf(text, result.line, result.column);
        area.setSelectionRange(at, at);
      }
    }
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
        <textarea
          id={`${id}-response`}
          ref={responseRef}
          className="dg-validator-text"
          rows={12}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          value={response}
          aria-invalid={invalid === 'response' || undefined}
          onChange={(e) => { setResponse(e.target.value); }}
        />
        <label className="dg-validator-label" htmlFor={`${id}-request`}>
          {t('validator.request')}
        </label>
        <p id={`${id}-request-hint`} className="dg-validator-hint">
          {t('validator.requestHint')}
        </p>
        <textarea
          id={`${id}-request`}
          ref={requestRef}
          className="dg-validator-text"
          rows={6}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          value={request}
          aria-describedby={`${id}-request-hint`}
          aria-invalid={invalid === 'request' || undefined}
          onChange={(e) => { setRequest(e.target.value); }}
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
        <Results report={report} base={base} />
      </section>
    </div>
  );
}

function count(n: number, one: 'validator.errorsOne' | 'validator.warningsOne', many: 'validator.errors' | 'validator.warnings') {
  return n === 1 ? t(one) : t(many, { count: n });
}

function Results({ report, base }: { report: Report | null; base: string }) {
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
            <FindingItem key={`${f.ruleId} ${f.path} ${i}`} finding={f} base={base} />
          ))}
        </ol>
      )}
    </>
  );
}

function FindingItem({ finding: f, base }: { finding: Finding; base: string }) {
  return (
    <li className={`dg-finding dg-finding-${f.severity}`}>
      <div className="dg-finding-head">
        <span className={`dg-badge dg-finding-badge`}>{t(f.severity === 'error' ? 'validator.error' : 'validator.warning')}</span>
        <code className="dg-finding-path">{f.path}</code>
        {f.line !== undefined && <span className="dg-finding-where">{t('validator.where', { line: f.line, column: f.column ?? 1 })}</span>}
      </div>
      <p className="dg-finding-text">{f.text}</p>
      <p className="dg-finding-detail">
        {f.detail && <span>{f.detail}. </span>}
        <span>
          {t('validator.check')}: <code>{f.condition}</code>
        </span>
      </p>
      {f.href && (
        <a className="dg-finding-rule" href={`${base}${f.href}`}>
          {t(f.origin === 'rule' ? 'validator.rule' : 'validator.field', { id: f.ruleId })}
        </a>
      )}
    </li>
  );
}
