// Bundles the app for docgen: `node build.mjs --outdir DIR` writes exactly DIR/app.js (one ES
// module, minified), DIR/app.css (every style sheet), DIR/search.js (the search engine, an
// ES module of its own that the app imports only when the reader first uses the search box) and
// DIR/validator.js (the bid-response validator's evaluator, likewise imported on first use).
// Names are not hashed: docgen hashes them when it publishes them. Works from any working
// directory.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

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

const outdir = outdirArg(process.argv.slice(2));
mkdirSync(outdir, { recursive: true });
const expected = ['app.css', 'app.js', 'search.js', 'validator.js'];
for (const stale of expected) rmSync(path.join(outdir, stale), { force: true });

const result = await build({
  absWorkingDir: here,
  entryPoints: {
    app: path.join(here, 'src/main.tsx'),
    search: path.join(here, 'src/search/engine.ts'),
    validator: path.join(here, 'src/validator/engine.ts'),
  },
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
  // Small images used by the styles are inlined so the bundle stays these four files.
  loader: { '.svg': 'dataurl' },
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
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
