// The bundles of the ad-platform extension, built by `node build.mjs --extension adplatform`
// (from the extension crate's build.rs): name → entry, relative to this folder.
// validator.js: the bid-response validator's evaluator, which the validator island imports on
// first use.
export const bundles = {
  validator: 'validator/engine.ts',
};
