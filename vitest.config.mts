import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { findPostgresBin } from './src/cloud/pg-testkit.ts';

// The cloud's behaviour suite runs twice: on SQLite (in `unit`) and on a real PostgreSQL server
// (`cloud-pg`, started by its global setup) where the binaries exist; scripts/test.cjs installs them.
const CLOUD_BEHAVIOUR = [
  'src/cloud/cloud.*.test.ts',
  'src/cloud/websub.test.ts',
  'src/cloud/doors.test.ts',
  'src/cloud/test-api.test.ts',
];
// The tests start hundreds of `tidings` and `tidings cloud` processes from the TypeScript sources;
// with Node's compile cache (inherited by every child) each starts in half the CPU time.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'tidings-node-compile-cache');

const pg = findPostgresBin();
if ('missing' in pg) console.warn(`cloud-pg tests skipped: ${pg.missing}`);

const shared = { pool: 'forks' as const, testTimeout: 30_000, hookTimeout: 30_000 };
// Most files wait on sockets, child processes and timers more than they compute: three at once
// on 2 cores (Vitest's default there is one), one per core on bigger machines.
const maxWorkers = Math.max(3, availableParallelism());

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'renderer/src/**/*.test.ts', 'bin/**/*.test.ts', 'main/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'src/cloud/cluster*.test.ts', 'src/cloud/*.pg.test.ts'],
          ...shared,
        },
      },
      ...('dir' in pg
        ? [
            {
              test: {
                name: 'cloud-pg',
                include: [...CLOUD_BEHAVIOUR, 'src/cloud/cluster*.test.ts', 'src/cloud/*.pg.test.ts'],
                globalSetup: ['src/cloud/pg-global-setup.ts'],
                ...shared,
              },
            },
          ]
        : []),
    ],
  },
});
