// The business constants of the specification (§9) that the app's behaviour depends on. The
// sizes have CSS twins in styles/theme.css (custom properties of the same meaning).

export const POPOVER_AUTO_HIDE_MS = 3000;
export const POPOVER_DELAYED_HIDE_MS = 50;
export const TOOLTIP_MAX_WIDTH_PX = 300;
export const ANCHOR_OFFSET_PX = 115;
export const MENU_EXPAND_MAX_PX = 1500;
export const MENU_OPEN_MS = 600;
export const MENU_CLOSE_MS = 400;
export const IN_VIEW_POLL_MS = 100;
export const VISIBILITY_THRESHOLD_PX = 120;
export const TABLE_PAGE_SIZES = [50, 100, 500] as const;
export const TABLE_DEFAULT_PAGE_SIZE = 50;
export const COPIED_FEEDBACK_MS = 2000;
export const SDK_KEY_PLACEHOLDER = 'YOUR_SDK_KEY';
/** Ad Review's key is the reader's safe-ad (SafeDK) key. */
export const AD_REVIEW_KEY_PLACEHOLDER = 'YOUR_AD_REVIEW_KEY';
/** New-tab links carry this prefix; the server leads `/o/...` to the page itself. */
export const OPEN_PREFIX = '/o';

/** How far down (in window heights) the "Back to top" button appears. */
export const BACK_TO_TOP_SCREENS = 1.5;
