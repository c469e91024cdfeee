// The page data docgen writes into every page (`<script id="dg-page-data">`).

import type { PageView } from '../types';

/** The page data of `doc`, or null when it has none or it does not parse. */
export function readPageData(doc: Document = document): PageView | null {
  const script = doc.getElementById('dg-page-data');
  if (!script?.textContent) return null;
  try {
    return JSON.parse(script.textContent) as PageView;
  } catch {
    return null;
  }
}
