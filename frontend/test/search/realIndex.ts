// The real site's search index: `docgen build` of the repository's site into a temporary folder
// (the binary from $DOCGEN_BIN or ../target/release/docgen), and a fetch that reads its files,
// counting what each query would transfer.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const repo = path.resolve(__dirname, '../../..');

/** Builds the site at `root` into `out` (`extra`: more arguments of `docgen build`). */
export function buildSite(root: string, out: string, extra: string[] = []): void {
  const bin = process.env.DOCGEN_BIN ?? path.join(repo, 'target/release/docgen');
  execFileSync(bin, ['build', '--quiet', '--root', root, '--out', out, ...extra], { stdio: 'inherit' });
}

/**
 * Builds the repository's site once; returns its output folder and a cleanup. Its latest
 * version only: the search index at the root is the same without the earlier version's pages
 * (read from git, in their own folder with an index of their own), in half the time.
 */
export function buildRealSite(): { out: string; remove: () => void } {
  const out = mkdtempSync(path.join(tmpdir(), 'docgen-judged-'));
  buildSite(repo, out, ['--latest-only']);
  return { out, remove: () => { rmSync(out, { recursive: true, force: true }); } };
}

/** A fetch over a built site's files, recording each file and its gzip size. */
export function fileFetch(out: string) {
  const fetched: Array<[string, number]> = [];
  const fetchImpl = (url: string): Promise<Response> => {
    try {
      const body = readFileSync(path.join(out, url.split('?')[0]));
      fetched.push([url, gzipSync(body, { level: 9 }).length]);
      return Promise.resolve(new Response(body, { status: 200 }));
    } catch {
      return Promise.resolve(new Response('', { status: 404 }));
    }
  };
  return { fetchImpl, fetched };
}
