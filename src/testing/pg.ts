/**
 * A real PostgreSQL server for tests and the cluster bench: initdb in a temporary folder, the
 * server on 127.0.0.1 and a unix socket in that folder, stopped and removed by stop(). Debian's
 * `postgresql` package provides the binaries (scripts/test.cjs installs it when missing, as it
 * does Chromium). The server refuses to run as root: as root, the folder is given to the
 * `postgres` user and every binary runs through `runuser -u postgres`.
 *
 * One server serves a whole test run; each cloud gets a database of its own (createDatabase).
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** The folder holding initdb, pg_ctl and postgres, or a sentence saying why there is none. */
export function findPostgresBin(): { dir: string } | { missing: string } {
  const fromEnv = process.env.TIDINGS_PG_BIN;
  const candidates = fromEnv
    ? [fromEnv]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => join('/usr/lib/postgresql', v, 'bin'))
      : [];
  for (const dir of candidates)
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return { dir };
  return {
    missing: `PostgreSQL binaries not found (looked in ${fromEnv ?? '/usr/lib/postgresql/*/bin'}; install Debian's postgresql package or set TIDINGS_PG_BIN)`,
  };
}

export interface TestPostgres {
  /** postgres://tidings@127.0.0.1:PORT/postgres (the maintenance database). */
  adminUrl: string;
  port: number;
  /** The server's first process (the bench reads its and its children's CPU time from /proc). */
  pid: number;
  /** A new empty database; its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server at once (every connection cut, as a crash) and starts it again on its port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
function pgRun(bin: string, args: string[]): Promise<{ stdout: string }> {
  return isRoot() ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
}

/**
 * `settings`: more server settings (`-c name=value`), e.g. the bench's trace loading
 * pg_stat_statements.
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<TestPostgres> {
  const found = findPostgresBin();
  if ('missing' in found) throw new Error(found.missing);
  const home = mkdtempSync(join(tmpdir(), 'tidings-pg-'));
  const data = join(home, 'data');
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(home, uid, gid);
  }
  chmodSync(home, 0o700);
  await pgRun(join(found.dir, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'tidings',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const port = await freePort();
  // fsync off: a test server's data need not survive a power cut, and it is the disk we share.
  const server = {
    listen_addresses: '127.0.0.1',
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '300',
    ...settings,
  };
  const opts = [`-k ${home} -p ${port}`, ...Object.entries(server).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
  const pgCtl = (...args: string[]) => pgRun(join(found.dir, 'pg_ctl'), ['-D', data, ...args]);
  const start = () => pgCtl('-l', join(home, 'server.log'), '-o', opts, '-w', 'start');
  const stopNow = () => pgCtl('-m', 'immediate', '-w', 'stop');
  await start();
  const adminUrl = `postgres://tidings@127.0.0.1:${port}/postgres`;
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let n = 0;
  return {
    adminUrl,
    port,
    pid,
    async createDatabase(name) {
      const db = name ?? `t${process.pid}_${Date.now().toString(36)}_${n++}`;
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${db.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://tidings@127.0.0.1:${port}/${db}`;
    },
    async restart() {
      await stopNow();
      await start();
    },
    async stop() {
      await stopNow().catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs one statement on its own connection (tests: what the database holds, whatever the instances). */
export async function pgRows<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Statements of the database at `url` running now whose text is LIKE `pattern` (this query not counted). */
export async function runningNow(url: string, pattern: string): Promise<number> {
  const [row] = await pgRows<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`,
    [pattern],
  );
  return row?.n ?? 0;
}
