import { useTabsInPlace } from '../hooks/useTabList';

export interface ProseTabsProps {
  /** The tab buttons docgen rendered, in order. */
  buttons: HTMLButtonElement[];
  /** The panels docgen rendered, in order (with the islands they hold). */
  panels: HTMLElement[];
}

/** Finds the tabs and panels of a tab set of prose docgen pre-rendered (Docusaurus `<Tabs>`). */
export function readProseTabs(host: HTMLElement): ProseTabsProps {
  return {
    buttons: Array.from(host.querySelectorAll<HTMLButtonElement>(':scope > .dg-tabs-list [role="tab"]')),
    panels: Array.from(host.querySelectorAll<HTMLElement>(':scope > .dg-tabs-panel')),
  };
}

/**
 * A tab set of prose, on docgen's markup where it is: one panel at a time, switched like a code
 * box's tabs (click, arrow keys, Home and End) and chosen by label with them for the whole site,
 * so choosing "macOS" here selects it in every set and code box that has it. The islands inside
 * the panels (code boxes, tables) are islands of the page like any other.
 */
export function ProseTabs({ buttons, panels }: ProseTabsProps) {
  useTabsInPlace(buttons, panels);
  return null;
}
