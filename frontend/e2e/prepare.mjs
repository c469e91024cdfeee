// Builds, ahead of its test file, the site the whole suite's slowest setup makes: the benchmark
// corpus (search-scale.test.mjs), shared through E2E_SHARED. e2e/run.mjs starts it beside the
// first batch, at the lowest priority: it takes the CPU the browser tests leave idle, and the
// file that needs it, run later and alone, finds it built (or waits for it).
import os from 'node:os';
import { CORPUS_PAGES, buildSite } from './harness.mjs';

os.setPriority(19);
buildSite({ corpus: CORPUS_PAGES });
