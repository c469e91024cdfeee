// The shapes the app reads (the page data embedded in every page, the site, the nav tree and
// its shards under _docgen/), generated from docgen's view structs (src/view) into
// ./generated: never written by hand.
export type * from './generated';
