// Loads the bid-response validator when the reader first uses it: the evaluator (validator.js,
// a bundle of its own) and the compiled rules (`_docgen/bid-rules.json`). Only types are
// imported here, so the first load of a page stays one script.

import type { BidRules } from '../generated/BidRules';
import type { SiteValidator } from '../generated/SiteValidator';
import type { Validator, createValidator } from './engine';

interface EngineModule {
  createValidator: typeof createValidator;
}

const validators = new Map<string, Promise<Validator>>();

/** The validator of a site, loaded once; a failed load is tried again on the next call. */
export function loadValidator({ rules, script }: SiteValidator): Promise<Validator> {
  const key = `${script}\n${rules}`;
  let validator = validators.get(key);
  if (!validator) {
    const engine = import(/* @vite-ignore */ script) as Promise<Partial<EngineModule>>;
    const doc = fetch(rules).then((r) => {
      if (!r.ok) throw new Error(`${rules}: HTTP ${r.status}`);
      return r.json() as Promise<BidRules>;
    });
    validator = Promise.all([engine, doc]).then(([mod, json]) => {
      if (typeof mod.createValidator !== 'function') throw new Error(`${script} is not the validator`);
      const v = mod.createValidator(json);
      // A cold evaluator takes some 10 ms for its first checks; run it over the examples, one
      // per task, while the reader is still pasting, so their first check is at full speed.
      json.examples.forEach((ex, i) => setTimeout(() => v.validate(ex.response, ex.request), 20 * (i + 1)));
      return v;
    });
    validators.set(key, validator);
    validator.catch(() => validators.delete(key));
  }
  return validator;
}
