import { describe, expect, it } from 'vitest';
import { initialState, phaseOf, reducer, upsert, type Action, type DocumentationState } from '../src/state/documentation';

const run = (actions: Action[], from: DocumentationState = initialState) => actions.reduce(reducer, from);

describe('documentation state', () => {
  it('starts with every object initial and the code background light', () => {
    expect(Object.keys(initialState).sort()).toEqual(['codeSnippetBackgroundStyle', 'networks', 'safedkKey', 'sdkKey', 'skAdnetworkIds']);
    expect(initialState.codeSnippetBackgroundStyle).toBe('light');
    for (const key of ['networks', 'skAdnetworkIds', 'sdkKey', 'safedkKey'] as const) {
      expect(initialState[key]).toEqual({ object: null, isLoading: false, loadError: null, isSaving: false, saveError: null });
      expect(phaseOf(initialState[key])).toBe('initial');
    }
  });

  it('replaces the code background with the choice, and nothing else', () => {
    const dark = reducer(initialState, { type: 'codeSnippetBackgroundChosen', style: 'dark' });
    expect(dark).toEqual({ ...initialState, codeSnippetBackgroundStyle: 'dark' });
    expect(reducer(dark, { type: 'codeSnippetBackgroundChosen', style: 'dark' })).toBe(dark);
    expect(reducer(dark, { type: 'codeSnippetBackgroundChosen', style: 'light' }).codeSnippetBackgroundStyle).toBe('light');
  });

  it('moves initial → loading → loaded', () => {
    const loading = run([{ type: 'loadStarted', key: 'networks' }]);
    expect(phaseOf(loading.networks)).toBe('loading');
    const loaded = reducer(loading, { type: 'loadSucceeded', key: 'networks', object: [{ name: 'A' }] });
    expect(loaded.networks).toEqual({ object: [{ name: 'A' }], isLoading: false, loadError: null, isSaving: false, saveError: null });
    expect(phaseOf(loaded.networks)).toBe('loaded');
  });

  it('moves initial → loading → load failed', () => {
    const error = new Error('offline');
    const failed = run([{ type: 'loadStarted', key: 'sdkKey' }, { type: 'loadFailed', key: 'sdkKey', error }]);
    expect(failed.sdkKey).toMatchObject({ object: null, isLoading: false, loadError: error });
    expect(phaseOf(failed.sdkKey)).toBe('loadFailed');
  });

  it('keeps the old object while reloading, and after a failed reload next to the error', () => {
    const loaded = run([{ type: 'loadStarted', key: 'networks' }, { type: 'loadSucceeded', key: 'networks', object: [{ name: 'A' }] }]);
    const reloading = reducer(loaded, { type: 'loadStarted', key: 'networks' });
    expect(reloading.networks).toMatchObject({ object: [{ name: 'A' }], isLoading: true });
    const failed = reducer(reloading, { type: 'loadFailed', key: 'networks', error: 'not_found' });
    expect(failed.networks).toMatchObject({ object: [{ name: 'A' }], isLoading: false, loadError: 'not_found' });
    const retried = reducer(failed, { type: 'loadStarted', key: 'networks' });
    expect(retried.networks.loadError).toBeNull();
  });

  it('moves saving → saved and saving → save failed keeping the object', () => {
    const loaded = run([{ type: 'loadSucceeded', key: 'safedkKey', object: 'old' }]);
    const saving = reducer(loaded, { type: 'saveStarted', key: 'safedkKey' });
    expect(phaseOf(saving.safedkKey)).toBe('saving');
    expect(reducer(saving, { type: 'saveSucceeded', key: 'safedkKey', object: 'new' }).safedkKey).toMatchObject({ object: 'new', isSaving: false, saveError: null });
    const failed = reducer(saving, { type: 'saveFailed', key: 'safedkKey', error: 'save_failed' });
    expect(failed.safedkKey).toMatchObject({ object: 'old', isSaving: false, saveError: 'save_failed' });
    expect(phaseOf(failed.safedkKey)).toBe('saveFailed');
  });

  it('replaces the matching array element or appends it', () => {
    const list = [
      { name: 'A', platform: 'ios', v: 1 },
      { name: 'A', platform: 'android', v: 1 },
    ];
    expect(upsert(list, { name: 'A', platform: 'android', v: 2 }, ['name', 'platform'])).toEqual([list[0], { name: 'A', platform: 'android', v: 2 }]);
    expect(upsert(list, { name: 'B', platform: 'ios', v: 1 }, ['name', 'platform'])).toHaveLength(3);
    expect(list[1].v).toBe(1);
    const state = run([
      { type: 'upsertElement', key: 'networks', element: { name: 'A', platform: 'ios' }, by: ['name', 'platform'] },
      { type: 'upsertElement', key: 'networks', element: { name: 'A', platform: 'ios', bidding: true }, by: ['name', 'platform'] },
    ]);
    expect(state.networks.object).toEqual([{ name: 'A', platform: 'ios', bidding: true }]);
  });
});
