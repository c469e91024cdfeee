// Code tabs chosen by label, the same on every box and every page (in the spirit of Docusaurus'
// `groupId` and Starlight's `syncKey`, without naming groups): choosing "Java" in one box selects
// "Java" in every box that has it, and later pages open on it. The reader's choices are kept most
// recent first, so an Android page can open on Java while an iOS page opens on Swift.

/** The localStorage key of the chosen labels (a JSON array, most recent first). */
export const CODE_TABS_STORAGE_KEY = 'dg-code-tabs';
/** How many labels are remembered. */
export const CODE_TABS_REMEMBERED = 12;

const none: readonly string[] = [];
let cached: readonly string[] | null = null;
const listeners = new Set<() => void>();

function normal(label: string): string {
  return label.trim().toLowerCase();
}

function read(): readonly string[] {
  try {
    const v: unknown = JSON.parse((globalThis.localStorage as Storage | undefined)?.getItem(CODE_TABS_STORAGE_KEY) ?? 'null');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, CODE_TABS_REMEMBERED) : none;
  } catch {
    return none;
  }
}

/** The chosen labels, most recent first (the same array until they change). */
export function chosenLabels(): readonly string[] {
  if (cached === null) cached = read();
  return cached;
}

/** The tab to show among `labels`: the most recently chosen one it has, else the first. */
export function preferredTab(labels: readonly string[], chosen: readonly string[] = chosenLabels()): number {
  const own = labels.map(normal);
  for (const label of chosen) {
    const i = own.indexOf(normal(label));
    if (i >= 0) return i;
  }
  return 0;
}

/** Chooses `label` on every box (now and on later pages). */
export function chooseLabel(label: string): void {
  const current = chosenLabels();
  if (current.length > 0 && normal(current[0]) === normal(label)) return;
  cached = [label, ...current.filter((l) => normal(l) !== normal(label))].slice(0, CODE_TABS_REMEMBERED);
  try {
    (globalThis.localStorage as Storage | undefined)?.setItem(CODE_TABS_STORAGE_KEY, JSON.stringify(cached));
  } catch {
    // Without storage the choice holds for this page.
  }
  for (const l of listeners) l();
}

/** Calls `onChange` when the chosen labels change, here or in another tab. */
export function subscribeCodeTabs(onChange: () => void): () => void {
  listeners.add(onChange);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== null && e.key !== CODE_TABS_STORAGE_KEY) return;
    cached = null;
    onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** Forgets the cached labels (tests; storage cleared behind the module's back). */
export function resetCodeTabs(): void {
  cached = null;
}
