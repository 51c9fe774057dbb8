import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { findPostgresBin } from './src/testing/pg.ts';

// The cloud's behaviour suite runs twice: on SQLite (in `unit`) and on a real PostgreSQL server
// (`cloud-pg`, started by its global setup) where the binaries exist; scripts/test.cjs installs them.
const CLOUD_BEHAVIOUR = [
  'src/cloud/cloud.*.test.ts',
  'src/cloud/doors/websub.test.ts',
  'src/cloud/doors/weblog-updates.test.ts',
  'src/cloud/doors/test-api.test.ts',
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

/**
 * Seconds each of the slowest files took in a full run on a busy 2-core machine (3 workers, this
 * order), by project and path. Without a previous run's timings (a fresh clone) Vitest orders files by
 * project, then by size: the slow `unit` files started after every `cloud-pg` file, last, and
 * the run waited on them at its end. Only the order of files depends on these figures.
 */
const SLOW_FILES: Record<string, number> = {
  'unit:packaging/container/container.test.ts': 100,
  'cloud-pg:src/cloud/cloud.ping.test.ts': 51,
  'unit:src/net/slow-sockets.test.ts': 49,
  'unit:src/cloud/cli.test.ts': 33,
  'cloud-pg:src/cloud/cluster.pg.test.ts': 28,
  'unit:src/cli/cli.test.ts': 25,
  'cloud-pg:src/cloud/cloud.please-notify.test.ts': 23,
  'unit:src/cli/cli-post.test.ts': 18,
  'unit:src/cloud/cloud.ping.test.ts': 17,
  'unit:main/packaging.test.ts': 15,
  'unit:packaging/cloud-package.test.ts': 15,
  'unit:main/app-stop.test.ts': 12,
  'unit:src/cli/cli-refusals.test.ts': 11,
  'unit:src/realtime/websub/websub.tunnel.test.ts': 10,
  'cloud-pg:src/cloud/cloud.saverss.test.ts': 10,
  'cloud-pg:src/cloud/cloud.behaviour.test.ts': 10,
  'unit:src/app/huge-document.test.ts': 9,
  'unit:src/net/http-client.limits.test.ts': 9,
  'unit:src/cli/cli-serve-tunnel.test.ts': 8,
  'unit:src/feed/discover.test.ts': 8,
  'unit:src/cli/cli-serve.test.ts': 8,
  'cloud-pg:src/cloud/delivery/queue.pg.test.ts': 8,
  'cloud-pg:src/cloud/doors/websub.test.ts': 7,
  'unit:src/feed/parse-pool.test.ts': 7,
  'cloud-pg:src/cloud/doors/weblog-updates.test.ts': 5,
  'unit:src/app/publish-local-only.test.ts': 5,
  'unit:bin/launcher.test.ts': 5,
};

/**
 * Longest first, whatever the project (so the last files to finish are short ones): a file's
 * duration in the previous run when Vitest kept it, else SLOW_FILES, else none (then larger
 * files first, as Vitest does). Files that failed last time still run first.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const rank = new Map(bySize.map((spec, i) => [spec, i]));
    const root = `${this.ctx.config.root}/`;
    const known = (spec: TestSpecification) => {
      const last = this.ctx.cache.getTestSpecificationResult(spec);
      const path = spec.moduleId.startsWith(root) ? spec.moduleId.slice(root.length) : spec.moduleId;
      return {
        failed: last?.failed === true,
        ms: last?.duration ?? (SLOW_FILES[`${spec.project.name}:${path}`] ?? 0) * 1000,
      };
    };
    const est = new Map(files.map((spec) => [spec, known(spec)]));
    return [...files].sort((a, b) => {
      const x = est.get(a)!;
      const y = est.get(b)!;
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.ms - x.ms || rank.get(a)! - rank.get(b)!;
    });
  }
}

export default defineConfig({
  test: {
    maxWorkers,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', '{bin,main,bench,scripts,packaging}/**/*.test.ts'],
          exclude: [
            '**/node_modules/**',
            'src/cloud/cluster*.test.ts',
            'src/cloud/**/*.pg.test.ts',
            '**/*.timing.test.ts',
          ],
          ...shared,
        },
      },
      {
        // Tests that a server stays responsive (a GET answered in under 100 ms while it takes a
        // worst-case request) measure wall time, which another test on the same 2 cores can
        // steal. They run one file at a time, and `npm test` runs this project on its own after
        // the others (scripts/test.cjs), so the time they see is the server's.
        test: {
          name: 'timing',
          include: ['src/**/*.timing.test.ts'],
          ...shared,
          fileParallelism: false,
        },
      },
      {
        // The renderer's tests are of pure functions (no DOM, no mocks, no fake timers, no
        // environment): a worker runs file after file without a new process and imports for each
        // (its 29 files on their own: 6.5 s -> 1.4 s; in a full run they came last, on a loaded
        // machine, at about a second of start-up each).
        test: {
          name: 'renderer',
          include: ['renderer/src/**/*.test.ts'],
          ...shared,
          isolate: false,
        },
      },
      ...('dir' in pg
        ? [
            {
              test: {
                name: 'cloud-pg',
                include: [...CLOUD_BEHAVIOUR, 'src/cloud/cluster*.test.ts', 'src/cloud/**/*.pg.test.ts'],
                exclude: ['**/node_modules/**', '**/*.timing.test.ts'],
                globalSetup: ['src/testing/pg-global-setup.ts'],
                ...shared,
              },
            },
            {
              // The cloud's timing tests on PostgreSQL, alone like `timing` (scripts/test.cjs).
              test: {
                name: 'timing-pg',
                include: ['src/cloud/**/*.timing.test.ts'],
                globalSetup: ['src/testing/pg-global-setup.ts'],
                ...shared,
                fileParallelism: false,
              },
            },
          ]
        : []),
    ],
  },
});
