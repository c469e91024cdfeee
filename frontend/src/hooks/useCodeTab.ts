import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { chooseLabel, chosenLabels, preferredTab, subscribeCodeTabs } from '../lib/codeTabs';

const none: readonly string[] = [];

/**
 * The selected tab of a code box with `labels`, synced by label with every other box and
 * remembered across pages (lib/codeTabs), and the way to choose one.
 */
export function useCodeTab(labels: readonly string[]): { selected: number; choose: (index: number) => void } {
  const chosen = useSyncExternalStore(subscribeCodeTabs, chosenLabels, () => none);
  const selected = useMemo(() => preferredTab(labels, chosen), [labels, chosen]);
  const choose = useCallback(
    (index: number) => {
      const label = labels[index] as string | undefined;
      if (label !== undefined) chooseLabel(label);
    },
    [labels],
  );
  return { selected, choose };
}
