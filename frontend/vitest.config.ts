import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    // happy-dom: its environments take half of jsdom's time to set up (21 s of the workers' time
    // against 46 s, for 39 files); the files that need what it lacks say `@vitest-environment jsdom`.
    environment: 'happy-dom',
    include: ['test/**/*.test.{ts,tsx}', 'src/extensions/*/test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    restoreMocks: true,
    // One test file per core: the default leaves one core idle on a two-core machine.
    maxWorkers: os.availableParallelism(),
    minWorkers: 1,
  },
});
