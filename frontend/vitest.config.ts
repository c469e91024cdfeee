import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}', 'src/extensions/*/test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    restoreMocks: true,
    // One test file per core: the default leaves one core idle on a two-core machine.
    maxWorkers: os.availableParallelism(),
    minWorkers: 1,
  },
});
