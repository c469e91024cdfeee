// The ad-platform site's islands, registered with the app's registry. Bundled as adplatform.js
// (bundles.mjs), which docgen publishes only for a site that enables the extension and the app
// imports only on a page that holds one of these islands; the imports of the app's modules
// resolve to the app's own at run time (src/blocks/host.ts), so React is not bundled twice.

import { registerIsland } from '../../blocks/registry';
import { BidValidator, readBidValidator } from './blocks/BidValidator';
import { DependencyBuilder, readDependencyBuilder } from './blocks/DependencyBuilder';
import { SkAdNetworkGenerator, readSkAdNetworkGenerator } from './blocks/SkAdNetworkGenerator';

registerIsland('dependency-builder', { read: readDependencyBuilder, Component: DependencyBuilder });
registerIsland('skadnetwork-generator', { read: readSkAdNetworkGenerator, Component: SkAdNetworkGenerator });
registerIsland('bid-validator', { read: readBidValidator, Component: BidValidator });
