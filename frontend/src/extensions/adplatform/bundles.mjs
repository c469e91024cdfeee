// The bundles of the ad-platform extension, built by `node build.mjs --extension adplatform`
// (from the extension crate's build.rs): name → entry, relative to this folder.
// adplatform.js: the site's islands (dependency builder, SKAdNetwork generator, bid-response
// validator), which the app imports on a page that holds one of them.
// validator.js: the bid-response validator's evaluator, which the validator island imports on
// first use.
export const bundles = {
  adplatform: 'islands.tsx',
  validator: 'validator/engine.ts',
};
