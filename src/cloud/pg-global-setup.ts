/**
 * Global setup of the `cloud-pg` test project: one PostgreSQL server for the whole run (initdb
 * about 1 s), its maintenance URL handed to the test workers in TIDINGS_TEST_PG_ADMIN (they
 * inherit the environment), stopped at the end. The project exists only where the binaries do
 * (vitest.config.mts says why it is left out otherwise).
 */
import { startPostgres, type TestPostgres } from './pg-testkit.ts';

let server: TestPostgres | null = null;

export async function setup(): Promise<void> {
  server = await startPostgres();
  process.env.TIDINGS_TEST_PG_ADMIN = server.adminUrl;
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = null;
}
