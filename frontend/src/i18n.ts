// Every string the app shows, by id. Components call t(id) or t(id, {name: value});
// `{name}` in a string is replaced by the value of the same name. A site extension's islands
// keep their strings in their own bundle (src/extensions/NAME/i18n.ts), filled by `fill`.

export const strings = {
  'anchor.label': 'Link to this section: {text}',
  'code.variants': 'Code variants',
  'code.copy': 'Copy',
  'code.copied': 'Copied',
  'code.copyFailed': 'Copy failed',
  'code.copyHint': 'Copy the code to the clipboard',
  'code.copiedStatus': 'The code was copied to the clipboard',
  'code.copyFailedStatus': 'The code could not be copied',
  'table.noResults': 'No Results',
  'table.pages': 'Table pages',
  'table.rowsPerPage': 'Rows per page',
  'table.range': '{from}–{to} of {total}',
  'table.previous': 'Previous page',
  'table.next': 'Next page',
  'table.page': 'Page {page} of {pages}',
  'button.loading': 'Loading',
  'consent.title': 'Cookie settings',
  'consent.intro':
    'We use cookies to run this site and, with your consent, to learn how it is used and to show relevant offers. Choose which kinds of cookies you allow.',
  'consent.necessary': 'Strictly necessary',
  'consent.necessaryHint': 'Always on: the site cannot work without them. They keep the settings you choose, such as the colour theme and the code language.',
  'consent.performance': 'Performance',
  'consent.performanceHint': 'Count visits and find out which pages help readers most.',
  'consent.functional': 'Functional',
  'consent.functionalHint': 'Remember more about your visits to make the site more personal.',
  'consent.targeting': 'Targeting',
  'consent.targetingHint': 'Show offers that match your interests on other sites.',
  'consent.rejectAll': 'Reject all',
  'consent.confirm': 'Confirm my choices',
  'consent.allowAll': 'Allow all',
  'consent.close': 'Close',
  'deps.selectAll': 'Select all',
  'deps.clear': 'Clear',
  'deps.selected': '{count} of {total} networks selected',
  'changelog.filter': 'Filter by version or text',
  'changelog.released': 'Released {date}.',
  'changelog.shown': '{shown} of {total} releases',
  'changelog.loadFailed': 'The release notes could not be loaded, so they cannot be filtered.',
  'search.label': 'Search',
  'search.close': 'Close search',
  'search.results': 'Search results',
  'search.area': 'Area',
  'search.allAreas': 'All areas',
  'search.platform': 'Platform',
  'search.allPlatforms': 'All platforms',
  'search.loading': 'Loading search…',
  'search.searching': 'Searching…',
  'search.noResults': 'No results for “{query}”',
  'search.allFilters': 'Search all areas and platforms',
  'search.count': '{count} results',
  'search.countOne': '1 result',
  'search.retry': 'Try again',
  'search.failedLoad': 'Search could not be loaded: {reason}.',
  'search.failedQuery': 'Search failed: {reason}.',
  'search.reason.code': 'its code did not load',
  'search.reason.offline': 'the site could not be reached',
  'search.reason.http': 'the server answered {status}',
  'search.reason.format': 'the search index is not in the expected format',
} as const;

export type StringId = keyof typeof strings;

export function t(id: StringId, params?: Record<string, string | number>): string {
  return fill(strings[id], params);
}

/** `text` with each `{name}` replaced by the value of the same name (the others kept). */
export function fill(text: string, params?: Record<string, string | number>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
