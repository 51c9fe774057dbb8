/**
 * Global setup of the `cloud-pg` test project: one PostgreSQL server for the whole run (initdb
 * about 1 s), its maintenance URL provided to that project's test files only (`inject('pgAdminUrl')`
 * in src/testing/cloud-kit.ts), stopped at the end. Not an environment variable: every worker of the run, the
 * `unit` project's too, inherits the main process's environment, and the behaviour suite's SQLite
 * run then ran on PostgreSQL as well. The project exists only where the binaries do
 * (vitest.config.mts says why it is left out otherwise).
 */
import type { TestProject } from 'vitest/node';
import { startPostgres, type TestPostgres } from './pg.ts';

let server: TestPostgres | null = null;

export async function setup(project: TestProject): Promise<void> {
  server = await startPostgres();
  project.provide('pgAdminUrl', server.adminUrl);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = null;
}
