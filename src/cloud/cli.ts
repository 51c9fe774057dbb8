/**
 * `tidings cloud`: run the rssCloud server alone, and manage the saveRss accounts.
 *
 *   tidings cloud [--port 5337] [--host 127.0.0.1] [--data DIR | --database postgres://...]
 *                 [--delivery-retries S,S,...]
 *                 [--allow-loopback] [--allow-private]
 *                 [--trust-proxy] [--public-url URL] [--min-ping-interval SECONDS]
 *                 [--max-resources N] [--work-per-minute N] [--pings-per-minute N]
 *                 [--subscription-lifetime S] [--lease-default S] [--lease-min S] [--lease-max S]
 *                 [--max-subscriptions-per-callback N] [--answer-after-delivery] [--test-api]
 *   tidings cloud user add NAME [--data DIR] [--password-stdin]
 *   tidings cloud user passwd NAME [--data DIR] [--password-stdin]
 *   tidings cloud user remove NAME [--data DIR]
 *   tidings cloud user list [--data DIR]
 *
 * Prints one line with the URL once listening; SIGTERM or SIGINT says it is stopping, closes the
 * sockets and the database, says it stopped and resolves 0. Bad input: a one-line reason and a non-zero code. Also runnable
 * directly: `node src/cloud/cli.ts ...` (Node 24).
 */
import { join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../cli/paths.ts';
import { systemClock } from '../common/clock.ts';
import { describeError } from '../common/errors.ts';
import { hashPassword } from '../common/password-hash.ts';
import { classifyAddress } from '../net/address-class.ts';
import { createHttpClient } from '../net/http-client.ts';
import { serve } from '../net/serve.ts';
import { createCloud } from './cloud.ts';
import { addAccount, MAX_PASSWORD_LENGTH, validateAccountName } from './core/accounts.ts';
import { isPostgresUrl, openCloudStore } from './store/open.ts';
import type { PgStoreOptions } from './store/pg.ts';
import type { CloudStore } from './store/store.ts';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /** Resolves when the server should stop (default: SIGTERM or SIGINT). */
  stopSignal?: Promise<void>;
}

const SERVER_HELP = `Usage: tidings cloud [options]

Runs an rssCloud server and WebSub hub over one list of subscribers: REST /pleaseNotify and /ping,
XML-RPC /RPC2 (rssCloud and weblogUpdates), WebSub /websub, /pingSiteForm, RSS Ping at /rssPing,
/changes.xml, a status page at / and documentation at /docs.

Options:
  --port N                Port to listen on (default 5337; 0 picks a free one)
  --host ADDR             Address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --data DIR              Where the database lives (default: the Tidings data folder + /cloud)
  --database URL          Keep everything in PostgreSQL instead (postgres://user:pass@host/db; also
                          TIDINGS_CLOUD_DATABASE): every instance naming the same database is one
                          cloud, so several can run behind a load balancer
  --delivery-lease S      PostgreSQL: how long deliveries an instance claimed stay its own before
                          another instance takes them over, if it died (default 60 s)
  --delivery-batch N      PostgreSQL: subscribers per queued chunk and per claim (default 1000; a
                          killed instance may repeat up to 4 batches)
  --delivery-retries S,S  Seconds before each new try of a failed WebSub delivery (default
                          60,300,1800; "none": no retries); kept in the database, so a restart loses none
  --database-statements N PostgreSQL: statements the whole cloud runs at once, shared by the
                          instances connected (default 8; about the database server's cores; give
                          every instance the same)
  --public-url URL        How peers reach this cloud, e.g. https://cloud.example.org (for saveRss URLs)
  --allow-loopback        Let feeds and callbacks be on this machine (127.0.0.0/8, ::1)
  --allow-private         Let feeds and callbacks be on private networks (10/8, 192.168/16, fc00::/7...)
  --trust-proxy           A reverse proxy is in front: take the caller's address from X-Forwarded-For
  --min-ping-interval S   Refuse pings of one feed closer together than S seconds (default 0: no limit)
  --max-resources N       Resources one pleaseNotify may name (default 100)
  --work-per-minute N     Feed reads and handler tests one caller's registrations may cause per
                          minute, on average (default 1000; up to 5x that at once after a quiet spell)
  --pings-per-minute N    Pings and publishes one caller may send per minute, a budget apart from
                          registrations (default 1000; up to 5x that at once)
  --subscription-lifetime S
                          How long an rssCloud subscription lasts after it was made (default 90000 s,
                          25 hours)
  --lease-default S       WebSub lease when none is asked (default 86400 s, 1 day)
  --lease-min S           Shortest WebSub lease granted (default 300 s)
  --lease-max S           Longest WebSub lease granted (default 864000 s, 10 days)
  --max-subscriptions-per-callback N
                          WebSub subscriptions one callback URL may hold (default 10000)
  --answer-after-delivery Answer a ping only after its notifications were delivered or timed out
                          (at most 5 s), as the reference cloud does; default: answer at once
  --test-api              Mount the reference cloud's test API under /test (for its e2e suite;
                          anyone who reaches it can erase the subscriptions: loopback only)
  -h, --help              This text

Accounts for rssCloud.saveRss: tidings cloud user --help`;

const USER_HELP = `Usage: tidings cloud user <add|passwd|remove|list> [NAME] [--data DIR | --database URL] [--password-stdin]

  add NAME       Create an account for rssCloud.saveRss; the password is read from stdin
  passwd NAME    Set a new password
  remove NAME    Delete the account and its saved feed
  list           Names, creation dates and saved feed URLs

The password is read from stdin (first line), or typed at a prompt when stdin is a terminal.
Only its scrypt hash is stored.`;

/** The command line is wrong: exit 2. */
class CliError extends Error {}
/** The command was right and the operation failed (port in use, no such account): exit 1. */
class Failed extends Error {}

/** Named in refusals of loopback/private feeds and callbacks, so the operator knows the switch. */
const HOW_TO_ALLOW = {
  loopback: 'start the cloud with --allow-loopback',
  private: 'start the cloud with --allow-private',
};

export async function runCloudCli(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const out: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, ...io };
  const args = argv[0] === 'cloud' ? argv.slice(1) : argv;
  try {
    if (args[0] === 'user') return await runUser(args.slice(1), out);
    return await runServer(args, out);
  } catch (e) {
    out.stderr.write(`tidings cloud: ${describeError(e)}\n`);
    return e instanceof CliError ? 2 : 1;
  }
}

/** parseArgs with a one-line reason for bad input. */
function parse<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new CliError(describeError(e).replace(/\. To specify.*$/s, ''));
  }
}

const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

function dataDir(value: unknown): string {
  return typeof value === 'string' && value !== '' ? resolve(value) : join(defaultDataDir(), 'cloud');
}

/**
 * Where the cloud keeps its state: --database (or TIDINGS_CLOUD_DATABASE), a PostgreSQL URL,
 * else the SQLite file in --data. `shown` is what the operator is told (no password).
 */
function location(values: { data?: string | undefined; database?: string | undefined }): {
  path: string;
  shown: string;
} {
  const database = values.database ?? process.env.TIDINGS_CLOUD_DATABASE ?? '';
  if (database !== '') {
    if (values.data !== undefined) throw new CliError('give --data or --database, not both');
    if (!isPostgresUrl(database))
      throw new CliError(`--database must be a postgres:// or postgresql:// URL, not "${database}"`);
    let shown = database;
    try {
      const u = new URL(database);
      if (u.password) u.password = '***';
      shown = u.href;
    } catch {
      throw new CliError('--database is not a valid URL');
    }
    return { path: database, shown: `database: ${shown}` };
  }
  const dir = dataDir(values.data);
  return { path: join(dir, 'cloud.sqlite'), shown: `data: ${dir}` };
}

/** Opens the store and waits until it can be used (a PostgreSQL server reached and migrated). */
async function openReady(path: string, pg: PgStoreOptions = {}): Promise<CloudStore> {
  const store = openCloudStore(path, pg);
  try {
    await store.ready();
    return store;
  } catch (e) {
    await store.close().catch(() => undefined);
    throw new Failed(`cannot use the database: ${describeError(e)}`);
  }
}

async function runServer(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...HELP_OPTION,
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        database: { type: 'string' },
        'delivery-lease': { type: 'string' },
        'delivery-batch': { type: 'string' },
        'delivery-retries': { type: 'string' },
        'database-statements': { type: 'string' },
        'public-url': { type: 'string' },
        'allow-loopback': { type: 'boolean' },
        'allow-private': { type: 'boolean' },
        'trust-proxy': { type: 'boolean' },
        'min-ping-interval': { type: 'string' },
        'max-resources': { type: 'string' },
        'work-per-minute': { type: 'string' },
        'pings-per-minute': { type: 'string' },
        'subscription-lifetime': { type: 'string' },
        'lease-default': { type: 'string' },
        'lease-min': { type: 'string' },
        'lease-max': { type: 'string' },
        'max-subscriptions-per-callback': { type: 'string' },
        'answer-after-delivery': { type: 'boolean' },
        'test-api': { type: 'boolean' },
      },
    }),
  );
  if (values.help) {
    io.stdout.write(`${SERVER_HELP}\n`);
    return 0;
  }
  if (positionals.length > 0)
    throw new CliError(`unexpected argument "${positionals[0]}" (try tidings cloud --help)`);
  const port = integer(values.port ?? '5337', '--port', 0, 65535);
  const minPingIntervalSec = integer(values['min-ping-interval'] ?? '0', '--min-ping-interval', 0, 86_400);
  const maxUrlsPerRequest = integer(values['max-resources'] ?? '100', '--max-resources', 1, 100_000);
  const perMinute = integer(values['work-per-minute'] ?? '1000', '--work-per-minute', 1, 10_000_000);
  const pingsPerMinute = integer(values['pings-per-minute'] ?? '1000', '--pings-per-minute', 1, 10_000_000);
  const lifetimeSec = integer(
    values['subscription-lifetime'] ?? '90000',
    '--subscription-lifetime',
    1,
    31 * 86_400,
  );
  const leaseMin = integer(values['lease-min'] ?? '300', '--lease-min', 1, 365 * 86_400);
  const leaseMax = integer(values['lease-max'] ?? '864000', '--lease-max', 1, 365 * 86_400);
  const leaseDefault = integer(values['lease-default'] ?? '86400', '--lease-default', 1, 365 * 86_400);
  if (leaseMin > leaseMax)
    throw new CliError(`--lease-min (${leaseMin}) is longer than --lease-max (${leaseMax})`);
  const perCallback = integer(
    values['max-subscriptions-per-callback'] ?? '10000',
    '--max-subscriptions-per-callback',
    1,
    10_000_000,
  );
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/i.test(publicUrl)) {
    throw new CliError(`--public-url must be an http or https address, not "${publicUrl}"`);
  }
  const host = values.host ?? '127.0.0.1';
  const leaseSec = integer(values['delivery-lease'] ?? '60', '--delivery-lease', 1, 3600);
  const batch = integer(values['delivery-batch'] ?? '1000', '--delivery-batch', 1, 100_000);
  const retries = values['delivery-retries'];
  const contentRetryMs =
    retries === undefined
      ? undefined
      : retries.trim() === 'none'
        ? []
        : retries.split(',').map((t) => integer(t.trim(), '--delivery-retries', 1, 86_400) * 1000);
  const where = location(values);
  const statements = values['database-statements'];
  if (statements !== undefined && !isPostgresUrl(where.path))
    throw new CliError('--database-statements applies to a PostgreSQL cloud (--database) only');
  const store = await openReady(
    where.path,
    statements === undefined
      ? {}
      : { cloudStatements: integer(statements, '--database-statements', 1, 1000) },
  );
  const allow = { loopback: values['allow-loopback'] === true, private: values['allow-private'] === true };
  const http = createHttpClient({
    hostPolicy: { allowLoopback: allow.loopback, allowPrivate: allow.private, howToAllow: HOW_TO_ALLOW },
  });
  const cloud = createCloud({
    dbPath: where.path,
    store,
    queue: { leaseMs: leaseSec * 1000, batch },
    ...(contentRetryMs ? { contentRetryMs } : {}),
    http,
    clock: systemClock,
    allow,
    howToAllow: HOW_TO_ALLOW,
    trustProxy: values['trust-proxy'] === true,
    minPingIntervalSec,
    callerLimits: { maxUrlsPerRequest, perMinute, burst: perMinute * 5 },
    pingLimits: { perMinute: pingsPerMinute, burst: pingsPerMinute * 5 },
    subscriptionTtlMs: lifetimeSec * 1000,
    leases: { defaultSeconds: leaseDefault, minSeconds: leaseMin, maxSeconds: leaseMax },
    maxSubscriptionsPerCallback: perCallback,
    // The reference's timing: its per-notification budget (4 s) and a second for the answer.
    ...(values['answer-after-delivery'] ? { pingWaitMs: ANSWER_AFTER_DELIVERY_MS } : {}),
    testApi: values['test-api'] === true,
    ...(publicUrl ? { publicBaseUrl: publicUrl } : {}),
  });
  let server: Awaited<ReturnType<typeof serve>>;
  try {
    server = await serve((req, info) => cloud.handle(req, info), {
      port,
      host,
      maxBodyBytes: 2 * 1024 * 1024,
      // Behind a reverse proxy every connection comes from the proxy: a per-peer cap would be a
      // cap on everyone. The total cap and the time limits still hold.
      ...(values['trust-proxy'] === true
        ? { limits: { maxConnectionsPerPeer: Number.POSITIVE_INFINITY } }
        : {}),
    });
  } catch (e) {
    await cloud.close();
    http.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Failed(
        `port ${port} on ${host} is already in use; choose another with --port N (0 takes any free one)`,
      );
    if (code === 'EADDRNOTAVAIL') throw new Failed(`cannot listen on ${host}: no such address here (--host)`);
    throw e;
  }
  io.stdout.write(`Tidings cloud listening on ${server.url}/ (${where.shown})\n`);
  if (values['test-api']) {
    const exposed = !isLoopbackHost(host);
    io.stderr.write(
      `tidings cloud: the test API is mounted at ${server.url}/test/ (it can erase every subscription)${
        exposed ? `; WARNING: ${host} is reachable beyond this machine, use it on loopback only` : ''
      }\n`,
    );
  }

  await (io.stopSignal ?? untilSignal());
  io.stdout.write('Stopping the cloud (closing connections and the database)...\n');
  await server.close();
  await cloud.close();
  http.close();
  io.stdout.write('Cloud stopped.\n');
  return 0;
}

/**
 * The first SIGTERM/SIGINT/SIGHUP starts the stop; later ones (a second Ctrl-C) wait for it
 * instead of killing the process while the database closes. A stop stuck for 15 s ends the
 * process (SQLite's WAL keeps what was committed).
 */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`tidings cloud: already stopping (${signal} ignored)\n`);
        return;
      }
      stopping = true;
      setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
      resolve();
    };
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal);
  });
}

const STOP_DEADLINE_MS = 15_000;
const ANSWER_AFTER_DELIVERY_MS = 5_000;

/** 127.0.0.0/8, ::1 and localhost: the only binds where the test API stays on this machine. */
export function isLoopbackHost(host: string): boolean {
  return host.trim().toLowerCase() === 'localhost' || classifyAddress(host) === 'loopback';
}

async function runUser(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(() =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...HELP_OPTION,
        data: { type: 'string' },
        database: { type: 'string' },
        'password-stdin': { type: 'boolean' },
      },
    }),
  );
  const [action, name, ...extra] = positionals;
  if (values.help || action === undefined) {
    io.stdout.write(`${USER_HELP}\n`);
    return values.help ? 0 : 2;
  }
  if (extra.length > 0)
    throw new CliError(`unexpected argument "${extra[0]}" (try tidings cloud user --help)`);
  const needsName = action === 'add' || action === 'passwd' || action === 'remove';
  if (!['add', 'passwd', 'remove', 'list'].includes(action)) {
    throw new CliError(`unknown user command "${action}" (try tidings cloud user --help)`);
  }
  if (needsName && !name) throw new CliError(`tidings cloud user ${action} needs a NAME`);
  if (needsName) {
    const valid = validateAccountName(name!);
    if (!valid.ok) throw new CliError(valid.error.message);
  }
  const store = await openReady(location(values).path);
  try {
    switch (action) {
      case 'list': {
        const accounts = await store.listAccounts();
        if (accounts.length === 0) io.stdout.write('No accounts.\n');
        for (const a of accounts) {
          const feed = await store.savedFeedByName(a.name);
          io.stdout.write(
            `${a.name}\tcreated ${new Date(a.whenCreated).toISOString()}${feed ? `\t${feed.publicUrl}` : ''}\n`,
          );
        }
        return 0;
      }
      case 'remove':
        if (!(await store.removeAccount(name!))) throw new Failed(`no account named "${name}"`);
        io.stdout.write(`Removed ${name}.\n`);
        return 0;
      case 'add': {
        if (await store.getAccount(name!)) throw new Failed(`an account named "${name}" already exists`);
        const password = await readPassword(io, `Password for ${name}: `);
        const added = await addAccount(store, name!, password, Date.now());
        if (!added.ok) throw new Failed(added.error.message);
        io.stdout.write(`Added ${name}.\n`);
        return 0;
      }
      default: {
        if (!(await store.getAccount(name!))) throw new Failed(`no account named "${name}"`);
        const password = await readPassword(io, `New password for ${name}: `);
        if (password === '') throw new Failed('the password is empty');
        if (password.length > MAX_PASSWORD_LENGTH)
          throw new Failed(`the password is longer than ${MAX_PASSWORD_LENGTH} characters`);
        await store.setPassword(name!, await hashPassword(password));
        io.stdout.write(`Password set for ${name}.\n`);
        return 0;
      }
    }
  } finally {
    await store.close();
  }
}

/** The first line of stdin; at a terminal, typed without echo. */
async function readPassword(io: CliIo, prompt: string): Promise<string> {
  const { stdin } = io;
  if (stdin.isTTY && stdin.setRawMode) {
    io.stderr.write(prompt);
    stdin.setRawMode(true);
    try {
      return await new Promise<string>((resolvePw, reject) => {
        let typed = '';
        const onData = (chunk: Buffer) => {
          for (const ch of chunk.toString('utf8')) {
            if (ch === '\r' || ch === '\n') return done(() => resolvePw(typed));
            if (ch === '\u0003') return done(() => reject(new Failed('cancelled')));
            if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
            else typed += ch;
          }
        };
        const done = (fn: () => void) => {
          stdin.off('data', onData);
          stdin.pause();
          io.stderr.write('\n');
          fn();
        };
        stdin.on('data', onData);
        stdin.resume();
      });
    } finally {
      stdin.setRawMode(false);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    if (Buffer.concat(chunks).includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

function integer(text: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new CliError(`${flag} must be a whole number from ${min} to ${max}, not "${text}"`);
  }
  return Number(text);
}

if (import.meta.main) {
  const code = await runCloudCli(process.argv.slice(2));
  // Exit at once rather than letting the loop drain: draining closes the signal handles first,
  // and a second Ctrl-C landing in that window would kill the process by signal (seen under load).
  process.exit(code);
}
