import { defineConfig } from 'vitest/config';

// Two projects (`--project unit` is `npm run test:unit`; `npm test` runs both):
//  - unit: files named *.unit.test.ts. Pure units: no inject(), startApi/startStack, database or
//    Temporal, so no global setup; the whole project runs in seconds.
//  - stack: every other test file, after test/support/globalSetup.ts has started a Temporal dev server
//    and a migrated PostgreSQL database (and the renders' heavy tests).
const UNIT = 'test/**/*.unit.test.ts';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    reporters: ['default'],
    env: { LOG_LEVEL: 'silent' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: [UNIT] },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: [UNIT],
          globalSetup: ['test/support/globalSetup.ts'],
          // Every answer of the in-process API is checked against the OpenAPI document.
          setupFiles: ['test/support/contractSetup.ts'],
        },
      },
    ],
  },
});
