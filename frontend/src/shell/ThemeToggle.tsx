import { useTheme } from '../hooks/useTheme';
import { t } from '../i18n';

/**
 * The light/dark switch of the top bar: a toggle button, pressed in the dark theme. Its icon is
 * drawn by the style sheet from the theme on screen, so it is right before the app runs too.
 */
export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  return <button type="button" className="dg-theme-toggle" aria-label={t('theme.dark')} aria-pressed={theme === 'dark'} onClick={toggle} />;
}
