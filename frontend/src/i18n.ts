// Every string the app shows, by id. Components call t(id) or t(id, {name: value});
// `{name}` in a string is replaced by the value of the same name.

export const strings = {
  'topbar.areas': 'Documentation areas',
  'breadcrumbs.label': 'Breadcrumbs',
  'menu.label': 'Main menu',
  'menu.toggle': '{name} pages',
  'toc.title': 'Table of Contents',
  'footer.label': 'Footer',
  'error.dsp.title': 'Unable to load the current page.',
  'error.dsp.subtitle': 'Please try again.',
  'error.notFound.title': 'Page not found',
  'error.notFound.subtitle': 'The page you are looking for does not exist or has moved.',
  'error.home': 'Go to the documentation home',
  'anchor.label': 'Link to this section: {text}',
  'code.variants': 'Code variants',
  'code.copy': 'Copy',
  'code.copied': 'Copied',
  'code.copyFailed': 'Copy failed',
  'code.copyHint': 'Copy the code to the clipboard',
  'code.copiedStatus': 'The code was copied to the clipboard',
  'code.copyFailedStatus': 'The code could not be copied',
  'code.dark': 'Dark',
  'code.darkHint': 'Show code on a dark background',
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
  'consent.necessaryHint': 'Always on: the site cannot work without them.',
  'consent.performance': 'Performance',
  'consent.performanceHint': 'Count visits and find out which pages help readers most.',
  'consent.functional': 'Functional',
  'consent.functionalHint': 'Remember choices such as the code background.',
  'consent.targeting': 'Targeting',
  'consent.targetingHint': 'Show offers that match your interests on other sites.',
  'consent.rejectAll': 'Reject all',
  'consent.confirm': 'Confirm my choices',
  'consent.allowAll': 'Allow all',
  'consent.close': 'Close',
} as const;

export type StringId = keyof typeof strings;

export function t(id: StringId, params?: Record<string, string | number>): string {
  const text: string = strings[id];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
