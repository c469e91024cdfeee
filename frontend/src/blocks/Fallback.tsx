import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { renderIslands, useIslands } from './mount';
import { CodeSnippetBox, type CodePanel } from './CodeSnippetBox';

/** The pre-rendered content of an island, kept to be shown again. */
export function readFallback(host: HTMLElement): Node[] {
  return Array.from(host.childNodes);
}

/**
 * An island's pre-rendered content, shown again while its data loads or when it cannot load:
 * the same nodes, with the islands inside them (tables, code boxes) brought to life.
 */
export function Fallback({ nodes }: { nodes: Node[] }) {
  const ref = useRef<HTMLDivElement>(null);
  // Runs before useIslands' effect, so the nodes are in place when it looks for islands.
  useLayoutEffect(() => {
    ref.current?.replaceChildren(...nodes);
  }, [nodes]);
  const islands = useIslands(ref, nodes);
  return (
    <div ref={ref} className="dg-island-fallback">
      {renderIslands(islands)}
    </div>
  );
}

/** A short message next to an island that could not load its data. */
export function LoadError({ children }: { children: string }) {
  return (
    <p className="dg-island-error" role="alert">
      {children}
    </p>
  );
}

/** An id for an island's elements, unique on the page and usable in selectors. */
export function useDomId(prefix: string): string {
  const raw = useId();
  return `${prefix}-${raw.replace(/[^a-zA-Z0-9_-]/g, '')}`;
}

export interface Output {
  /** Stable per kind of output (gradle, podfile, plist): the panel's id derives from it. */
  key: string;
  label: string;
  lang: string;
  /** Highlighted HTML. */
  html: string;
}

/** Generated code in a code box: one tab per output, copy, light/dark. */
export function GeneratedCode({ boxId, outputs }: { boxId: string; outputs: Output[] }) {
  const [host, setHost] = useState<HTMLDivElement | null>(null);
  const panels = useMemo<CodePanel[]>(() => outputs.map((o) => ({ id: `${boxId}-panel-${o.key}`, lang: o.lang, html: o.html })), [boxId, outputs]);
  const labels = outputs.map((o) => o.label);
  return (
    <div className="dg-code" id={boxId} data-dg-mounted="" ref={setHost}>
      {/* A new set of tabs starts again from the first. */}
      <CodeSnippetBox key={outputs.map((o) => o.key).join(' ')} boxId={boxId} labels={labels} panels={panels} host={host ?? undefined} />
    </div>
  );
}
