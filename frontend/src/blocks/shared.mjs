// The app's modules that the bundles of site extensions share with it at run time instead of
// bundling copies (one React, one island registry, the same contexts): `node build.mjs
// --extension NAME` resolves an import of one of them to `globalThis[HOST_GLOBAL].modules[KEY]`,
// which the app sets before it mounts anything (./host.ts). KEY: a package, or the module's path
// under src/ without its extension. An extension importing another module of the app fails its
// build: add the module here and to host.ts, or move it into the extension.
export const HOST_GLOBAL = '__docgen';

export const shared = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'blocks/CodeSnippetBox',
  'blocks/Fallback',
  'blocks/registry',
  'data/pageData',
  'i18n',
  'lib/html',
  'state/DocumentationContext',
  'ui/Button',
  'ui/Picker',
];
