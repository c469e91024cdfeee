// Renders content the way the app does: docgen's HTML in an article, islands mounted.

import { render } from '@testing-library/react';
import { vi } from 'vitest';
// The site's islands, registered as the app registers them.
import '../src/blocks/islands';
import type { Api, Endpoint } from '../src/data/api';
import { Article } from '../src/shell/Article';
import { AccessContext } from '../src/state/AccessContext';
import { DocumentationProvider } from '../src/state/DocumentationContext';

export function fakeApi(values: Record<string, unknown | Error> = {}): Api & { load: ReturnType<typeof vi.fn> } {
  const load = vi.fn(async (endpoint: Endpoint) => {
    const v = values[endpoint.path];
    if (v instanceof Error) throw v;
    if (v === undefined) throw new Error(`no value for ${endpoint.path}`);
    return v;
  });
  return { load, save: vi.fn(async (_e: Endpoint, o: unknown) => o) } as unknown as Api & { load: ReturnType<typeof vi.fn> };
}

export function renderContent(html: string, { api = fakeApi(), features = ['beta-tools'] }: { api?: Api; features?: string[] } = {}) {
  const access = { features, permissions: [] };
  const content = { key: 1, html };
  const result = render(
    <DocumentationProvider api={api}>
      <AccessContext.Provider value={access}>
        <Article content={content} />
      </AccessContext.Provider>
    </DocumentationProvider>,
  );
  return { ...result, article: result.container.querySelector('article')! };
}
