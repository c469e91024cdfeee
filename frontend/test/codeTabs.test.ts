import { describe, expect, it, vi } from 'vitest';
import { CODE_TABS_REMEMBERED, CODE_TABS_STORAGE_KEY, chooseLabel, chosenLabels, preferredTab, resetCodeTabs, subscribeCodeTabs } from '../src/lib/codeTabs';

describe('code tabs chosen by label', () => {
  it('picks the most recently chosen label a box has, ignoring case, else the first tab', () => {
    expect(preferredTab(['Kotlin', 'Java'], [])).toBe(0);
    expect(preferredTab(['Kotlin', 'Java'], ['Swift', 'java', 'Kotlin'])).toBe(1);
    expect(preferredTab(['Objective-C', 'Swift'], ['Java', 'Swift'])).toBe(1);
    expect(preferredTab(['Gradle'], ['Maven'])).toBe(0);
  });

  it('keeps the choices most recent first, each once, a bounded number, in localStorage', () => {
    chooseLabel('Java');
    chooseLabel('Swift');
    chooseLabel('JAVA');
    expect(chosenLabels()).toEqual(['JAVA', 'Swift']);
    expect(JSON.parse(localStorage.getItem(CODE_TABS_STORAGE_KEY)!)).toEqual(['JAVA', 'Swift']);
    for (let i = 0; i < 20; i++) chooseLabel(`L${i}`);
    expect(chosenLabels()).toHaveLength(CODE_TABS_REMEMBERED);
    expect(chosenLabels()[0]).toBe('L19');
  });

  it('tells subscribers, here and when another tab chooses', () => {
    const seen = vi.fn();
    const stop = subscribeCodeTabs(seen);
    chooseLabel('Kotlin');
    expect(seen).toHaveBeenCalledTimes(1);
    chooseLabel('Kotlin');
    expect(seen).toHaveBeenCalledTimes(1);
    localStorage.setItem(CODE_TABS_STORAGE_KEY, JSON.stringify(['Groovy']));
    window.dispatchEvent(new StorageEvent('storage', { key: CODE_TABS_STORAGE_KEY }));
    expect(seen).toHaveBeenCalledTimes(2);
    expect(chosenLabels()).toEqual(['Groovy']);
    stop();
  });

  it('ignores stored values that are not a list of labels', () => {
    localStorage.setItem(CODE_TABS_STORAGE_KEY, '{"x":1}');
    resetCodeTabs();
    expect(chosenLabels()).toEqual([]);
    localStorage.setItem(CODE_TABS_STORAGE_KEY, 'not json');
    resetCodeTabs();
    expect(chosenLabels()).toEqual([]);
  });
});
