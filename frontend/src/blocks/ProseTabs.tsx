import { useLayoutEffect, useMemo, useRef } from 'react';
import { useTabList } from '../hooks/useTabList';
import { renderIslands, useIslands } from './mount';

export interface ProsePanel {
  id: string;
  label: string;
  /** The panel's pre-rendered content, kept as it is (with the islands it holds). */
  nodes: Node[];
}

export interface ProseTabsProps {
  /** The id of the set (`dg-tabs-N`); tab ids derive from it. */
  setId: string;
  labels: string[];
  panels: ProsePanel[];
  /** The `.dg-tabs` element the set is mounted in. */
  host: HTMLElement;
}

/** Reads a tab set of prose docgen pre-rendered (Docusaurus `<Tabs>` whose tabs hold prose). */
export function readProseTabs(host: HTMLElement): Omit<ProseTabsProps, 'host'> {
  const labels = Array.from(host.querySelectorAll(':scope > .dg-tabs-list [role="tab"]'), (b) => b.textContent ?? '');
  const panels = Array.from(host.querySelectorAll<HTMLElement>(':scope > .dg-tabs-panel'), (p, i) => ({
    id: p.id || `${host.id}-panel-${i}`,
    label: p.getAttribute('data-label') ?? labels[i] ?? '',
    nodes: Array.from(p.childNodes),
  }));
  return { setId: host.id, labels: labels.slice(0, panels.length), panels };
}

function Panel({ panel, labelledBy, hidden }: { panel: ProsePanel; labelledBy: string; hidden: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  // Runs before the set's useIslands, so the nodes are in place when it looks for islands.
  useLayoutEffect(() => {
    ref.current?.replaceChildren(...panel.nodes);
  }, [panel.nodes]);
  return <div ref={ref} className="dg-tabs-panel" role="tabpanel" id={panel.id} aria-labelledby={labelledBy} data-label={panel.label} hidden={hidden} />;
}

/**
 * A tab set of prose: one panel at a time, switched like a code box's tabs (click, arrow keys,
 * Home and End) and chosen by label with them for the whole site, so choosing "macOS" here
 * selects it in every set and code box that has it. The panels keep docgen's nodes, and the
 * islands inside them (code boxes, tables) come to life.
 */
export function ProseTabs({ setId, labels, panels, host }: ProseTabsProps) {
  const { selected, tabProps } = useTabList(labels, panels.length);
  const root = useMemo(() => ({ current: host }), [host]);
  const islands = useIslands(root, panels);
  return (
    <>
      <div className="dg-tabs-list" role="tablist">
        {labels.map((label, i) => (
          <button key={i} {...tabProps(i)} id={`${setId}-tab-${i}`} aria-controls={panels[i]?.id}>
            {label}
          </button>
        ))}
      </div>
      {panels.map((p, i) => (
        <Panel key={p.id} panel={p} labelledBy={`${setId}-tab-${i}`} hidden={i !== selected} />
      ))}
      {renderIslands(islands)}
    </>
  );
}
