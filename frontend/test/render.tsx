// Renders content the way the app does: docgen's HTML in an article, its gated elements shown or
// hidden and its islands mounted.

import { render } from '@testing-library/react';
import { useLayoutEffect, useRef, useState } from 'react';
import { vi } from 'vitest';
// The site's islands, registered as the app registers them.
import '../src/blocks/islands';
import { renderIslands } from '../src/blocks/mount';
import { collectIslands, type MountedIsland } from '../src/blocks/registry';
import type { Api, Endpoint } from '../src/data/api';
import { applyGates } from '../src/lib/access';
import { AccessContext } from '../src/state/AccessContext';
import { DocumentationProvider } from '../src/state/DocumentationContext';

export function fakeApi(values: Record<string, unknown> = {}): Api & { load: ReturnType<typeof vi.fn> } {
  const load = vi.fn(async (endpoint: Endpoint) => {
    const v = values[endpoint.path];
    if (v instanceof Error) throw v;
    if (v === undefined) throw new Error(`no value for ${endpoint.path}`);
    return v;
  });
  return { load, save: vi.fn(async (_e: Endpoint, o: unknown) => o) } as unknown as Api & { load: ReturnType<typeof vi.fn> };
}

/** The article with the server's HTML, its islands mounted in place (as start.tsx does). */
function Article({ html, features }: { html: string; features: string[] }) {
  const ref = useRef<HTMLElement>(null);
  const [islands, setIslands] = useState<MountedIsland[]>([]);
  useLayoutEffect(() => {
    const el = ref.current!;
    el.innerHTML = html;
    applyGates(el, { features, permissions: [] });
    setIslands(collectIslands(el));
  }, [html, features]);
  return <article ref={ref} className="dg-article">{renderIslands(islands)}</article>;
}

export function renderContent(html: string, { api = fakeApi(), features = ['beta-tools'] }: { api?: Api; features?: string[] } = {}) {
  const access = { features, permissions: [] };
  const result = render(
    <DocumentationProvider api={api}>
      <AccessContext.Provider value={access}>
        <Article html={html} features={features} />
      </AccessContext.Provider>
    </DocumentationProvider>,
  );
  return { ...result, article: result.container.querySelector('article')! };
}
