// The ad formats of the catalogue's `size` field, as the pages name and order them.

/** The label of an ad format of a catalogue entry's `size`. */
export const formatLabels: Record<string, string> = {
  BANNER: 'Banner',
  MREC: 'MREC',
  INTER: 'Interstitial',
  REWARD: 'Rewarded',
  APPOPEN: 'App Open',
  NATIVE: 'Native',
  NATIVE_SOON: 'Native (coming soon)',
};

/** The order the pages list formats in. */
export const formatOrder = ['BANNER', 'MREC', 'INTER', 'REWARD', 'APPOPEN', 'NATIVE', 'NATIVE_SOON'];
