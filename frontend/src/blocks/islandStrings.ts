// The strings of the data-driven islands (dependency builder, SKAdNetwork generator, changelog),
// by id, filled in like those of ../i18n.ts: `{name}` is replaced by the value of that name.

export const islandStrings = {
  'deps.legend': 'Networks',
  'deps.selectAll': 'Select all',
  'deps.clear': 'Clear',
  'deps.selected': '{count} of {total} networks selected',
  'deps.bidding': 'Bidding',
  'deps.removed': 'Removed',
  'deps.removedHint': 'Removed from AppLovin’s public repositories',
  'deps.empty': 'Tick the networks you use to get their lines.',
  'deps.none': 'No network of this catalogue has an adapter for this platform.',
  'deps.loadFailed': 'The network list could not be loaded, so the builder is not available. The table lists every network.',
  'deps.skadFailed': 'The SKAdNetwork IDs could not be loaded, so the Info.plist entries are not shown.',
  'skad.legend': 'Mediated networks',
  'skad.coreNote': 'The core list ({count} IDs) is always included.',
  'skad.extra': '{count} more IDs',
  'skad.extraOne': '1 more ID',
  'skad.inCore': 'All in the core list',
  'skad.count': '{count} SKAdNetwork IDs',
  'skad.countOne': '1 SKAdNetwork ID',
  'skad.loadFailed': 'The SKAdNetwork IDs could not be loaded, so the generator is not available. The snippet holds the core list.',
  'changelog.filter': 'Filter by version or text',
  'changelog.released': 'Released {date}.',
  'changelog.shown': '{shown} of {total} releases',
  'changelog.loadFailed': 'The release notes could not be loaded, so they cannot be filtered.',
} as const;

export type IslandStringId = keyof typeof islandStrings;

export function ts(id: IslandStringId, params?: Record<string, string | number>): string {
  const text: string = islandStrings[id];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

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
