// Bundles the app for docgen: `node build.mjs --outdir DIR` writes exactly DIR/app.js (one ES
// module, minified), DIR/app.css (every style sheet) and DIR/search.js (the search engine, an
// ES module of its own that the app imports only when the reader first uses the search box).
// `node build.mjs --extension NAME --outdir DIR` writes instead the bundles of the site
// extension in src/extensions/NAME/ (its bundles.mjs names them: NAME.js for each entry),
// which docgen publishes only for a site that enables the extension. An extension's imports of
// React and of the app's shared modules (src/blocks/shared.mjs) are not bundled: they resolve
// to what the app lends at run time (src/blocks/host.ts), so React is loaded once.
// Names are not hashed: docgen hashes them when it publishes them. Works from any working
// directory.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, 'src');
const { HOST_GLOBAL, shared } = await import(pathToFileURL(path.join(src, 'blocks/shared.mjs')).href);

function outdirArg(argv) {
  const i = argv.indexOf('--outdir');
  const inline = argv.find((a) => a.startsWith('--outdir='));
  const value = inline ? inline.slice('--outdir='.length) : i >= 0 ? argv[i + 1] : undefined;
  if (!value) {
    console.error('usage: node build.mjs --outdir DIR');
    process.exit(2);
  }
  return path.resolve(process.cwd(), value);
}

function extensionArg(argv) {
  const i = argv.indexOf('--extension');
  const inline = argv.find((a) => a.startsWith('--extension='));
  return inline ? inline.slice('--extension='.length) : i >= 0 ? argv[i + 1] : undefined;
}

async function entriesOf(extension) {
  if (!extension) {
    return {
      app: path.join(here, 'src/main.tsx'),
      search: path.join(here, 'src/search/engine.ts'),
    };
  }
  const folder = path.join(here, 'src/extensions', extension);
  const { bundles } = await import(pathToFileURL(path.join(folder, 'bundles.mjs')).href);
  return Object.fromEntries(Object.entries(bundles).map(([name, entry]) => [name, path.join(folder, entry)]));
}

/**
 * For an extension's bundles: React and the app's modules come from the app at run time. An
 * import of a shared module becomes a module that reads it from `globalThis[HOST_GLOBAL]`; an
 * import of another module of the app (outside the extension's folder) or of a part of React
 * the app does not lend fails the build, since a copy of it would not share the app's state.
 */
function hostModules(extension) {
  const own = path.join(src, 'extensions', extension) + path.sep;
  const keyOf = (args) => {
    if (/^react(-dom)?(\/|$)/.test(args.path)) return args.path;
    if (!args.path.startsWith('.')) return null;
    const file = path.resolve(args.resolveDir, args.path);
    if (file.startsWith(own) || !file.startsWith(src + path.sep)) return null;
    return path.relative(src, file).split(path.sep).join('/').replace(/\.(tsx?|mjs|js)$/, '');
  };
  return {
    name: 'docgen-host',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'docgen-host' || args.kind === 'entry-point') return undefined;
        const key = keyOf(args);
        if (key === null) return undefined;
        if (!shared.includes(key)) {
          return { errors: [{ text: `${args.path} is a module of the app that src/blocks/shared.mjs does not share with extensions: share it there and in src/blocks/host.ts, or move it into src/extensions/${extension}/` }] };
        }
        return { path: key, namespace: 'docgen-host' };
      });
      b.onLoad({ filter: /.*/, namespace: 'docgen-host' }, (args) => ({
        contents: `const host = globalThis[${JSON.stringify(HOST_GLOBAL)}];
if (!host) throw new Error('docgen: an extension bundle was loaded without the app');
module.exports = host.modules[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

const args = process.argv.slice(2);
const outdir = outdirArg(args);
const extension = extensionArg(args);
mkdirSync(outdir, { recursive: true });
const entryPoints = await entriesOf(extension);
const expected = [...Object.keys(entryPoints).map((name) => `${name}.js`), ...(extension ? [] : ['app.css'])].sort();
for (const stale of expected) rmSync(path.join(outdir, stale), { force: true });

const result = await build({
  absWorkingDir: here,
  entryPoints,
  outdir,
  entryNames: '[name]',
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  sourcemap: false,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Small images used by the styles are inlined so the bundle stays these files.
  loader: { '.svg': 'dataurl' },
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
  plugins: extension ? [hostModules(extension)] : [],
});

const written = Object.keys(result.metafile.outputs).map((f) => path.relative(outdir, path.resolve(here, f))).sort();
if (written.join(',') !== expected.join(',')) {
  console.error(`build.mjs: expected ${expected.join(', ')}, esbuild wrote: ${written.join(', ')}`);
  process.exit(1);
}
const missing = expected.filter((f) => !readdirSync(outdir).includes(f));
if (missing.length > 0) {
  console.error(`build.mjs: ${missing.join(', ')} missing`);
  process.exit(1);
}
