import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Child processes and fake HTTP servers: keep parallelism modest on 2-core machines.
    maxWorkers: 2,
  },
});
