// The documentation state (spec §3 "Documentation state", §4 transitions) as a pure reducer.
//
// A loaded object moves initial → loading → loaded | load failed. A reload keeps the old object
// while it runs; a failed reload keeps it and adds the error. A save moves to saving → saved |
// save failed, a failed save keeping the object next to the error.
//
// codeSnippetBackgroundStyle is the code boxes' background (light by default): a choice replaces
// it. The choice itself is made, shown and remembered by lib/codeBackground.ts (it must be on
// screen before the app runs); DocumentationProvider keeps this field in step with it.

import { DEFAULT_CODE_BACKGROUND, type CodeSnippetBackgroundStyle } from '../lib/codeBackground';

export interface Loaded<T> {
  object: T | null;
  isLoading: boolean;
  loadError: unknown;
  isSaving: boolean;
  saveError: unknown;
}

export type NetworkEntry = Record<string, unknown> & { name?: string; platform?: string };
export type SkAdnetworkIdsSpec = Record<string, unknown>;

export interface DocumentationState {
  codeSnippetBackgroundStyle: CodeSnippetBackgroundStyle;
  networks: Loaded<NetworkEntry[]>;
  skAdnetworkIds: Loaded<SkAdnetworkIdsSpec[]>;
  sdkKey: Loaded<string>;
  safedkKey: Loaded<string>;
}

export type ResourceKey = 'networks' | 'skAdnetworkIds' | 'sdkKey' | 'safedkKey';
export type ArrayKey = 'networks' | 'skAdnetworkIds';
type ObjectOf<K extends ResourceKey> = NonNullable<DocumentationState[K]['object']>;

export type Action =
  | { type: 'codeSnippetBackgroundChosen'; style: CodeSnippetBackgroundStyle }
  | { type: 'loadStarted'; key: ResourceKey }
  | { type: 'loadSucceeded'; key: ResourceKey; object: unknown }
  | { type: 'loadFailed'; key: ResourceKey; error: unknown }
  | { type: 'saveStarted'; key: ResourceKey }
  | { type: 'saveSucceeded'; key: ResourceKey; object: unknown }
  | { type: 'saveFailed'; key: ResourceKey; error: unknown }
  /** Replaces the element of an array whose `by` fields all equal the new one's, or appends it. */
  | { type: 'upsertElement'; key: ArrayKey; element: Record<string, unknown>; by: readonly string[] };

export function initialLoaded<T>(): Loaded<T> {
  return { object: null, isLoading: false, loadError: null, isSaving: false, saveError: null };
}

export const initialState: DocumentationState = {
  codeSnippetBackgroundStyle: DEFAULT_CODE_BACKGROUND,
  networks: initialLoaded(),
  skAdnetworkIds: initialLoaded(),
  sdkKey: initialLoaded(),
  safedkKey: initialLoaded(),
};

/** The array with `element` in place of the first element that matches it on `by`, or appended. */
export function upsert<T extends Record<string, unknown>>(list: readonly T[], element: T, by: readonly string[]): T[] {
  const index = list.findIndex((e) => by.length > 0 && by.every((k) => e[k] === element[k]));
  if (index < 0) return [...list, element];
  const copy = list.slice();
  copy[index] = element;
  return copy;
}

function update<K extends ResourceKey>(state: DocumentationState, key: K, change: Partial<Loaded<ObjectOf<K>>>): DocumentationState {
  return { ...state, [key]: { ...state[key], ...change } };
}

export function reducer(state: DocumentationState, action: Action): DocumentationState {
  switch (action.type) {
    case 'codeSnippetBackgroundChosen':
      return state.codeSnippetBackgroundStyle === action.style ? state : { ...state, codeSnippetBackgroundStyle: action.style };
    case 'loadStarted':
      return update(state, action.key, { isLoading: true, loadError: null });
    case 'loadSucceeded':
      return update(state, action.key, { object: action.object as never, isLoading: false, loadError: null });
    case 'loadFailed':
      return update(state, action.key, { isLoading: false, loadError: action.error });
    case 'saveStarted':
      return update(state, action.key, { isSaving: true, saveError: null });
    case 'saveSucceeded':
      return update(state, action.key, { object: action.object as never, isSaving: false, saveError: null });
    case 'saveFailed':
      return update(state, action.key, { isSaving: false, saveError: action.error });
    case 'upsertElement': {
      const list = (state[action.key].object ?? []) as Record<string, unknown>[];
      return update(state, action.key, { object: upsert(list, action.element, action.by) });
    }
  }
}

/** Where the phase of a loaded object stands, for display and tests. */
export type Phase = 'initial' | 'loading' | 'loaded' | 'loadFailed' | 'saving' | 'saveFailed';

export function phaseOf(l: Loaded<unknown>): Phase {
  if (l.isSaving) return 'saving';
  if (l.isLoading) return 'loading';
  if (l.saveError !== null) return 'saveFailed';
  if (l.loadError !== null) return 'loadFailed';
  return l.object === null ? 'initial' : 'loaded';
}
