// The strings of the ad-platform site's islands, by id, as the app's (src/i18n.ts) but bundled
// with the islands (adplatform.js), so the app of every other site does not carry them.

import { fill } from '../../i18n';

export const strings = {
  'deps.legend': 'Networks',
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
  'validator.examples': 'Load an example',
  'validator.response': 'Bid response',
  'validator.request': 'Bid request',
  'validator.requestHint':
    'Optional. With the request the response answers, the validator also checks the id match, the bundle against the publisher’s app, the SKAdNetwork network, the block lists (bcat, badv, bapp) and the connected-TV size.',
  'validator.validate': 'Validate',
  'validator.results': 'Validation results',
  'validator.loadFailed': 'The validator could not be loaded. Check the connection and try again.',
  'validator.empty': 'Paste a bid response first. (To decline, a bidder sends no body at all, with HTTP status 204.)',
  'validator.invalid': 'The {which} is not valid JSON: {message} (line {line}, column {column}).',
  'validator.which.response': 'bid response',
  'validator.which.request': 'bid request',
  'validator.clean': 'No problems found: the response passes all {count} checks.',
  'validator.summary': '{errors} and {warnings} in {count} checks.',
  'validator.errors': '{count} errors',
  'validator.errorsOne': '1 error',
  'validator.warnings': '{count} warnings',
  'validator.warningsOne': '1 warning',
  'validator.skipped': 'Paste the bid request too to run {count} more checks.',
  'validator.error': 'Error',
  'validator.warning': 'Warning',
  'validator.where': 'line {line}, column {column}',
  'validator.check': 'Check',
  'validator.rule': 'Rule {id}',
  'validator.field': 'Field {id}',
  'validator.private': 'Nothing you paste leaves this page: the rules run in your browser.',
} as const;

export type StringId = keyof typeof strings;

export function t(id: StringId, params?: Record<string, string | number>): string {
  return fill(strings[id], params);
}
