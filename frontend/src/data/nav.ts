// The whole menu tree, loaded once: `_docgen/nav.json`.

import type { NavNode } from '../types';
import type { Fetch } from './api';

export async function fetchNav(url: string, fetchImpl: Fetch = (i, init) => fetch(i, init)): Promise<NavNode[]> {
  const response = await fetchImpl(url, { headers: { accept: 'application/json' } });
  if (!response.ok) {
    await response.text().catch(() => undefined);
    throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  }
  const body: unknown = await response.json();
  if (!Array.isArray(body)) throw new Error(`${url} is not a list of navigation nodes`);
  return body as NavNode[];
}
