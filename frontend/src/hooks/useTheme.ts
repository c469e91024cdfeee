import { useCallback, useSyncExternalStore } from 'react';
import { currentTheme, setTheme, subscribeTheme, type Theme } from '../lib/theme';

/** The site's colour theme on screen, and a switch between light and dark (remembered). */
export function useTheme(): { theme: Theme; toggle(): void } {
  const theme = useSyncExternalStore(subscribeTheme, () => currentTheme(), (): Theme => 'light');
  const toggle = useCallback(() => setTheme(currentTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggle };
}
