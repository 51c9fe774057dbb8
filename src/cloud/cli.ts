/**
 * `tidings cloud` (and `tidings-cloud`, the cloud's own package): run the rssCloud server alone,
 * and manage the saveRss accounts.
 *
 *   tidings cloud [options]            the server (--help lists the options, each with its
 *                                      environment variable; --print-config shows what is in force)
 *   tidings cloud healthcheck          exit 0 when the running server answers /healthz (containers)
 *   tidings cloud user add NAME [--data DIR | --database URL] [--password-stdin]
 *   tidings cloud user passwd NAME | remove NAME | list
 *
 * The server logs JSON lines on stdout (ops/logging.ts): one when it listens (where, which store,
 * which doors), one per thing it does, one when it stops. SIGTERM or SIGINT closes the sockets
 * and the database and resolves 0. Bad input: a one-line reason on stderr and exit 2; a failure
 * to start (port in use, database unreachable): one line and exit 1. Also runnable directly:
 * `node src/cloud/cli.ts ...` (Node 24).
 */
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { systemClock } from '../common/clock.ts';
import { describeError } from '../common/errors.ts';
import { hashPassword } from '../common/password-hash.ts';
import { APP_VERSION, PROJECT_URL } from '../common/version.ts';
import { classifyAddress } from '../net/address-class.ts';
import { createHttpClient } from '../net/http-client.ts';
import { maskUrl } from '../net/mask.ts';
import { type RunningServer, serve } from '../net/serve.ts';
import { createCloud } from './cloud.ts';
import { addAccount, MAX_PASSWORD_LENGTH, validateAccountName } from './core/accounts.ts';
import {
  type CloudConfig,
  ConfigError,
  cloudConfig,
  printedConfig,
  readSettings,
  type StoreLocation,
  storeLocation,
} from './ops/config.ts';
import { adminHandler, type OpsDeps, opsHandler } from './ops/handler.ts';
import { serverHelp } from './ops/help.ts';
import { closeLogger, createLogger, flushLogger, type Logger, logEntry, logFailure } from './ops/logging.ts';
import { CloudMetrics } from './ops/metrics.ts';
import { OPTIONS } from './ops/options.ts';
import { openCloudStore } from './store/open.ts';
import type { PgStoreOptions } from './store/pg.ts';
import type { CloudStore } from './store/store.ts';

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /** Resolves when the server should stop (default: SIGTERM or SIGINT). */
  stopSignal?: Promise<void>;
  /** Where settings' variables are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** How the command is named in its help and messages (default "tidings cloud"). */
  program?: string;
}

const userHelp = (
  program: string,
) => `Usage: ${program} user <add|passwd|remove|list> [NAME] [--data DIR | --database URL] [--password-stdin]

  add NAME       Create an account for rssCloud.saveRss; the password is read from stdin
  passwd NAME    Set a new password
  remove NAME    Delete the account and its saved feed
  list           Names, creation dates and saved feed URLs

The password is read from stdin (first line), or typed at a prompt when stdin is a terminal.
Only its scrypt hash is stored. --data and --database also read TIDINGS_CLOUD_DATA and
TIDINGS_CLOUD_DATABASE, as the server does.`;

/** The command was right and the operation failed (port in use, no such account): exit 1. */
class Failed extends Error {}

/** Named in refusals of loopback/private feeds and callbacks, so the operator knows the switch. */
const HOW_TO_ALLOW = {
  loopback: 'start the cloud with --allow-loopback',
  private: 'start the cloud with --allow-private',
};

export async function runCloudCli(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const out: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, ...io };
  const program = out.program ?? 'tidings cloud';
  const args = argv[0] === 'cloud' ? argv.slice(1) : argv;
  try {
    if (args[0] === 'user') return await runUser(args.slice(1), out, program);
    if (args[0] === 'healthcheck') return await runHealthcheck(args.slice(1), out, program);
    return await runServer(args, out, program);
  } catch (e) {
    out.stderr.write(`${program}: ${describeError(e)}\n`);
    return e instanceof ConfigError ? 2 : 1;
  }
}

/** The file or URL a store location opens, and how the operator is told of it (no password). */
function opened(where: StoreLocation): { path: string; shown: string } {
  return where.kind === 'postgres'
    ? { path: where.url, shown: `database: ${maskUrl(where.url)}` }
    : { path: join(where.dir, 'cloud.sqlite'), shown: `data: ${where.dir}` };
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

/** The doors a cloud opens, for its first log line. */
function doorsOf(config: CloudConfig): string[] {
  return [
    'rssCloud REST /pleaseNotify /ping',
    'XML-RPC /RPC2 (rssCloud, weblogUpdates)',
    'WebSub /websub',
    'weblogUpdates /pingSiteForm',
    'RSS Ping /rssPing',
    ...(config.testApi ? ['the reference test API /test/*'] : []),
  ];
}

async function runServer(args: string[], io: CliIo, program: string): Promise<number> {
  const { settings, positionals, actions } = readSettings(args, io.env ?? process.env);
  if (actions.has('help')) {
    io.stdout.write(`${serverHelp(program)}\n`);
    return 0;
  }
  if (actions.has('version')) {
    io.stdout.write(`${APP_VERSION}\n`);
    return 0;
  }
  if (positionals.length > 0)
    throw new ConfigError(`unexpected argument "${positionals[0]}" (try ${program} --help)`);
  const config = cloudConfig(settings);
  if (actions.has('print-config')) {
    io.stdout.write(printedConfig(settings, program));
    return 0;
  }
  const where = opened(config.store);
  const store = await openReady(
    where.path,
    config.databaseStatements === null ? {} : { cloudStatements: config.databaseStatements },
  );
  const logger = createLogger(config.logLevel, io.stdout);
  try {
    return await serveCloud(config, store, where, logger, io);
  } finally {
    await closeLogger(logger);
  }
}

async function serveCloud(
  config: CloudConfig,
  store: CloudStore,
  where: { path: string; shown: string },
  logger: Logger,
  io: CliIo,
): Promise<number> {
  const allow = { loopback: config.allowLoopback, private: config.allowPrivate };
  const http = createHttpClient({
    version: APP_VERSION,
    projectUrl: PROJECT_URL,
    hostPolicy: { allowLoopback: allow.loopback, allowPrivate: allow.private, howToAllow: HOW_TO_ALLOW },
  });
  const metrics = config.metrics ? new CloudMetrics({ version: APP_VERSION }) : null;
  const { workPerMinute, pingsPerMinute } = config;
  const cloud = createCloud({
    dbPath: where.path,
    store,
    queue: { leaseMs: config.deliveryLeaseSec * 1000, batch: config.deliveryBatch },
    contentRetryMs: config.deliveryRetriesMs,
    http,
    clock: systemClock,
    allow,
    howToAllow: HOW_TO_ALLOW,
    trustProxy: config.trustProxy,
    minPingIntervalSec: config.minPingIntervalSec,
    callerLimits: {
      maxUrlsPerRequest: config.maxResources,
      perMinute: workPerMinute,
      burst: workPerMinute * 5,
    },
    pingLimits: { perMinute: pingsPerMinute, burst: pingsPerMinute * 5 },
    subscriptionTtlMs: config.subscriptionLifetimeSec * 1000,
    leases: config.leases,
    maxSubscriptionsPerCallback: config.maxSubscriptionsPerCallback,
    // The reference's timing: its per-notification budget (4 s) and a second for the answer.
    ...(config.answerAfterDelivery ? { pingWaitMs: ANSWER_AFTER_DELIVERY_MS } : {}),
    testApi: config.testApi,
    ...(config.publicUrl ? { publicBaseUrl: config.publicUrl } : {}),
    ...(metrics ? { observer: metrics } : {}),
  });
  const unlog = cloud.on('log', (entry) => logEntry(logger, entry));
  const unwatch = metrics?.watch(cloud);
  const deps: OpsDeps = { cloud, logger, metrics, trustProxy: config.trustProxy, startedAt: Date.now() };
  const servers: RunningServer[] = [];
  try {
    servers.push(
      await listen(config.port, config.host, '--port', () =>
        serve(opsHandler(deps, { admin: config.adminPort === null }), {
          port: config.port,
          host: config.host,
          maxBodyBytes: 2 * 1024 * 1024,
          onError: (e) => logFailure(logger, 'request failed', e),
          // Behind a reverse proxy every connection comes from the proxy: a per-peer cap would be a
          // cap on everyone. The total cap and the time limits still hold.
          ...(config.trustProxy ? { limits: { maxConnectionsPerPeer: Number.POSITIVE_INFINITY } } : {}),
        }),
      ),
    );
    if (config.adminPort !== null) {
      const port = config.adminPort;
      servers.push(
        await listen(port, config.adminHost, '--admin-port', () =>
          serve(adminHandler(deps), { port, host: config.adminHost }),
        ),
      );
    }
  } catch (e) {
    for (const s of servers) await s.close();
    await cloud.close();
    http.close();
    throw e;
  }
  const [main, admin] = servers as [RunningServer, RunningServer | undefined];
  const operator = admin?.url ?? main.url;
  logger.info(
    {
      url: `${main.url}/`,
      store: store.kind,
      location: where.shown,
      doors: doorsOf(config),
      health: `${operator}/healthz`,
      ready: `${operator}/readyz`,
      ...(metrics ? { metrics: `${operator}/metrics` } : {}),
      publicUrl: config.publicUrl,
      version: APP_VERSION,
      node: process.version,
    },
    `Tidings cloud listening on ${main.url}/ (${where.shown})`,
  );
  if (config.testApi) {
    const exposed = !isLoopbackHost(config.host);
    logger.warn(
      `the test API is mounted at ${main.url}/test/ (it can erase every subscription)${
        exposed ? `; WARNING: ${config.host} is reachable beyond this machine, use it on loopback only` : ''
      }`,
    );
  }

  await (io.stopSignal ?? untilSignal(logger));
  logger.info('Stopping the cloud (closing connections and the database)...');
  for (const s of servers) await s.close();
  await cloud.close();
  unlog();
  unwatch?.();
  http.close();
  logger.info('Cloud stopped.');
  return 0;
}

/** Listens, or a one-line reason naming the flag to change. */
async function listen(
  port: number,
  host: string,
  flag: string,
  start: () => Promise<RunningServer>,
): Promise<RunningServer> {
  try {
    return await start();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Failed(
        `port ${port} on ${host} is already in use; choose another with ${flag} N (0 takes any free one)`,
      );
    if (code === 'EADDRNOTAVAIL')
      throw new Failed(
        `cannot listen on ${host}: no such address here (${flag === '--port' ? '--host' : '--admin-host'})`,
      );
    throw e;
  }
}

/**
 * The first SIGTERM/SIGINT/SIGHUP starts the stop; later ones (a second Ctrl-C) wait for it
 * instead of killing the process while the database closes. A stop stuck for 15 s ends the
 * process (SQLite's WAL keeps what was committed).
 */
function untilSignal(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn(`already stopping (${signal} ignored)`);
        return;
      }
      stopping = true;
      logger.info({ signal }, `${signal} received`);
      setTimeout(() => {
        logger.error(`still stopping after ${STOP_DEADLINE_MS / 1000} s: exiting`);
        flushLogger(logger);
        process.exit(1);
      }, STOP_DEADLINE_MS).unref();
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

/**
 * `healthcheck`: asks the server this configuration describes (its port, or its admin port) for
 * /healthz, as a container's HEALTHCHECK does; exit 0 when it answers 200 within 5 s.
 */
async function runHealthcheck(args: string[], io: CliIo, program: string): Promise<number> {
  const { settings, positionals } = readSettings(args, io.env ?? process.env);
  if (positionals.length > 0) throw new ConfigError(`unexpected argument "${positionals[0]}"`);
  const config = cloudConfig(settings);
  const host = config.adminPort !== null ? config.adminHost : config.host;
  const port = config.adminPort ?? config.port;
  // A server on every interface is asked on loopback.
  const target =
    host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${target}:${port}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (res.ok) return 0;
    io.stderr.write(`${program}: ${url} answered ${res.status}\n`);
  } catch (e) {
    io.stderr.write(`${program}: ${url} did not answer: ${describeError(e)}\n`);
  }
  return 1;
}

async function runUser(args: string[], io: CliIo, program: string): Promise<number> {
  const { settings, positionals, actions } = readSettings(args, io.env ?? process.env, {
    specs: OPTIONS.filter((o) => o.flag === 'data' || o.flag === 'database'),
    switches: ['password-stdin'],
  });
  const [action, name, ...extra] = positionals;
  if (actions.has('help') || action === undefined) {
    io.stdout.write(`${userHelp(program)}\n`);
    return actions.has('help') ? 0 : 2;
  }
  if (extra.length > 0)
    throw new ConfigError(`unexpected argument "${extra[0]}" (try ${program} user --help)`);
  const needsName = action === 'add' || action === 'passwd' || action === 'remove';
  if (!['add', 'passwd', 'remove', 'list'].includes(action)) {
    throw new ConfigError(`unknown user command "${action}" (try ${program} user --help)`);
  }
  if (needsName && !name) throw new ConfigError(`${program} user ${action} needs a NAME`);
  if (needsName) {
    const valid = validateAccountName(name!);
    if (!valid.ok) throw new ConfigError(valid.error.message);
  }
  const store = await openReady(opened(storeLocation(settings)).path);
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

if (import.meta.main) {
  const code = await runCloudCli(process.argv.slice(2));
  // Exit at once rather than letting the loop drain: draining closes the signal handles first,
  // and a second Ctrl-C landing in that window would kill the process by signal (seen under load).
  process.exit(code);
}
