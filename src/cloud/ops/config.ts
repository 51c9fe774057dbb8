/**
 * The configuration of a cloud, read once at start from its flags and environment (options.ts):
 * a flag wins over its variable, a variable over the default. A wrong value is refused with a
 * sentence naming where it came from (the flag or the variable), before anything opens.
 * `--print-config` prints what is in force as a file of variables, secrets masked.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../../cli/paths.ts';
import { maskUrl } from '../../net/mask.ts';
import { type LogLevel, OPTIONS, type OptionSpec, parseRetryDelays } from './options.ts';

/** A wrong command line or setting: the caller prints the message and exits 2. */
export class ConfigError extends Error {}

export type Source = 'flag' | 'env' | 'default';

export interface Setting {
  spec: OptionSpec;
  /** As given or defaulted (a switch: a boolean); undefined when not set and without a default. */
  value: string | boolean | undefined;
  source: Source;
}

export type Settings = ReadonlyMap<string, Setting>;

/** Where the cloud keeps its state. */
export type StoreLocation = { kind: 'sqlite'; dir: string } | { kind: 'postgres'; url: string };

export interface CloudConfig {
  port: number;
  host: string;
  store: StoreLocation;
  publicUrl: string | null;
  trustProxy: boolean;
  logLevel: LogLevel;
  /** null: /healthz, /readyz and /metrics are served with the doors. */
  adminPort: number | null;
  adminHost: string;
  metrics: boolean;
  allowLoopback: boolean;
  allowPrivate: boolean;
  minPingIntervalSec: number;
  maxResources: number;
  workPerMinute: number;
  pingsPerMinute: number;
  subscriptionLifetimeSec: number;
  leases: { defaultSeconds: number; minSeconds: number; maxSeconds: number };
  maxSubscriptionsPerCallback: number;
  answerAfterDelivery: boolean;
  testApi: boolean;
  deliveryLeaseSec: number;
  deliveryBatch: number;
  /** null: the store's default (PostgreSQL only). */
  databaseStatements: number | null;
  /** Milliseconds before each new try of a failed WebSub delivery ([]: none). */
  deliveryRetriesMs: number[];
}

/** Switches of the command itself, not settings (they have no variable): --help and the like. */
const ACTIONS: Record<string, { type: 'boolean'; short?: string }> = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  'print-config': { type: 'boolean' },
};

/** How a setting is named to the operator: the flag or the variable it came from. */
function nameOf(setting: Setting): string {
  return setting.source === 'env' ? setting.spec.env : `--${setting.spec.flag}`;
}

/** A value as it may be shown (a secret's password masked). */
export function shown(spec: OptionSpec, value: string | boolean | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return spec.secret ? maskUrl(text) : text;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/**
 * The command line and the environment read against `specs` (by default every setting):
 * settings checked one by one, the positionals, and which of the command's own switches were
 * given (--help, --version, --print-config, and `switches`).
 */
export function readSettings(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  { specs = OPTIONS, switches = [] }: { specs?: readonly OptionSpec[]; switches?: readonly string[] } = {},
): { settings: Settings; positionals: string[]; actions: Set<string> } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { ...ACTIONS };
  for (const name of switches) options[name] = { type: 'boolean' };
  for (const spec of specs) options[spec.flag] = { type: spec.kind.type === 'bool' ? 'boolean' : 'string' };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (e) {
    throw new ConfigError((e as Error).message.replace(/\. To specify.*$/s, ''));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const settings = new Map<string, Setting>();
  for (const spec of specs) {
    const fromFlag = values[spec.flag];
    const fromEnv = env[spec.env];
    const setting: Setting =
      fromFlag !== undefined
        ? { spec, value: fromFlag, source: 'flag' }
        : fromEnv !== undefined && fromEnv !== ''
          ? { spec, value: fromEnv, source: 'env' }
          : {
              spec,
              value: typeof spec.fallback === 'function' ? spec.fallback() : spec.fallback,
              source: 'default',
            };
    settings.set(spec.flag, check(setting));
  }
  const actions = new Set([...Object.keys(ACTIONS), ...switches].filter((name) => values[name] === true));
  return { settings, positionals: parsed.positionals, actions };
}

/** The setting with its value in its kind's form (a variable's "yes" made true), or a ConfigError. */
function check(setting: Setting): Setting {
  const { spec, value } = setting;
  if (value === undefined || typeof value === 'boolean') return setting;
  const kind = spec.kind;
  const wrong = (what: string) => new ConfigError(`${nameOf(setting)} ${what}, not "${shown(spec, value)}"`);
  switch (kind.type) {
    case 'bool': {
      const word = value.trim().toLowerCase();
      if (TRUE.has(word)) return { ...setting, value: true };
      if (FALSE.has(word)) return { ...setting, value: false };
      throw wrong('must be true or false (or 1/0, yes/no, on/off)');
    }
    case 'int':
      if (!/^\d+$/.test(value) || Number(value) < kind.min || Number(value) > kind.max)
        throw wrong(`must be a whole number from ${kind.min} to ${kind.max}`);
      return setting;
    case 'enum':
      if (!kind.values.includes(value)) throw wrong(`must be one of ${kind.values.join(', ')}`);
      return setting;
    default: {
      const reason = kind.check?.(value);
      if (reason) throw wrong(reason);
      return setting;
    }
  }
}

const text = (s: Settings, flag: string): string | null => {
  const v = s.get(flag)?.value;
  return typeof v === 'string' ? v : null;
};
const num = (s: Settings, flag: string): number => Number(text(s, flag));
const on = (s: Settings, flag: string): boolean => s.get(flag)?.value === true;
const given = (s: Settings, flag: string): Setting | null => {
  const setting = s.get(flag);
  return setting && setting.source !== 'default' ? setting : null;
};

/** The folder a cloud keeps its SQLite file in when none is named. */
function defaultCloudDir(): string {
  return join(defaultDataDir(), 'cloud');
}

/**
 * Where the state lives: a database URL (flag or variable) wins; a data folder named by a flag
 * beside it is a mistake, one from the environment (a container's or a unit's default) is unused.
 */
export function storeLocation(s: Settings): StoreLocation {
  const database = given(s, 'database');
  const data = given(s, 'data');
  if (database) {
    if (data?.source === 'flag') throw new ConfigError('give --data or --database, not both');
    return { kind: 'postgres', url: String(database.value) };
  }
  const dir = text(s, 'data');
  return { kind: 'sqlite', dir: dir ? resolve(dir) : defaultCloudDir() };
}

/** The typed configuration, with the checks that span settings. */
export function cloudConfig(s: Settings): CloudConfig {
  const store = storeLocation(s);
  const leases = {
    defaultSeconds: num(s, 'lease-default'),
    minSeconds: num(s, 'lease-min'),
    maxSeconds: num(s, 'lease-max'),
  };
  if (leases.minSeconds > leases.maxSeconds)
    throw new ConfigError(
      `${nameOf(s.get('lease-min')!)} (${leases.minSeconds}) is longer than ${nameOf(s.get('lease-max')!)} (${leases.maxSeconds})`,
    );
  const statements = given(s, 'database-statements');
  if (statements && store.kind !== 'postgres')
    throw new ConfigError(`${nameOf(statements)} applies to a PostgreSQL cloud (--database) only`);
  const port = num(s, 'port');
  const adminPort = given(s, 'admin-port') ? num(s, 'admin-port') : null;
  const host = text(s, 'host')!;
  const adminHost = text(s, 'admin-host')!;
  if (adminPort !== null && adminPort !== 0 && adminPort === port && adminHost === host)
    throw new ConfigError(
      `${nameOf(s.get('admin-port')!)} must differ from ${nameOf(s.get('port')!)} (${port})`,
    );
  return {
    port,
    host,
    store,
    publicUrl: text(s, 'public-url'),
    trustProxy: on(s, 'trust-proxy'),
    logLevel: text(s, 'log-level') as LogLevel,
    adminPort,
    adminHost,
    metrics: on(s, 'metrics'),
    allowLoopback: on(s, 'allow-loopback'),
    allowPrivate: on(s, 'allow-private'),
    minPingIntervalSec: num(s, 'min-ping-interval'),
    maxResources: num(s, 'max-resources'),
    workPerMinute: num(s, 'work-per-minute'),
    pingsPerMinute: num(s, 'pings-per-minute'),
    subscriptionLifetimeSec: num(s, 'subscription-lifetime'),
    leases,
    maxSubscriptionsPerCallback: num(s, 'max-subscriptions-per-callback'),
    answerAfterDelivery: on(s, 'answer-after-delivery'),
    testApi: on(s, 'test-api'),
    deliveryLeaseSec: num(s, 'delivery-lease'),
    deliveryBatch: num(s, 'delivery-batch'),
    databaseStatements: statements ? Number(statements.value) : null,
    deliveryRetriesMs: parseRetryDelays(text(s, 'delivery-retries')!)!.map((sec) => sec * 1000),
  };
}

/**
 * The configuration in force as a file of variables (what a container's environment or a
 * unit's EnvironmentFile takes), each with its flag and where its value came from; secrets masked.
 */
export function printedConfig(s: Settings, program: string): string {
  const store = storeLocation(s);
  const lines = [
    `# ${program}: the configuration in force (a flag wins over its variable, a variable over the default).`,
    '# Secrets are masked. Every line can go in an environment file as it is.',
  ];
  const rows = [...s.values()].map((setting) => {
    const { spec, source } = setting;
    let value = setting.value;
    let note: string = source === 'env' ? 'from the environment' : source;
    if (spec.flag === 'data' && store.kind === 'sqlite') {
      value = store.dir;
      if (source === 'default') note = 'default: the Tidings data folder + /cloud';
    }
    if (spec.flag === 'data' && store.kind === 'postgres' && value !== undefined)
      note += '; unused: the state is in PostgreSQL';
    if (value === undefined) note = 'not set';
    return { left: `${spec.env}=${quoteForEnvFile(shown(spec, value))}`, note: `--${spec.flag}, ${note}` };
  });
  const width = Math.min(60, Math.max(...rows.map((r) => r.left.length)));
  for (const r of rows) lines.push(`${r.left.padEnd(width)}  # ${r.note}`);
  return `${lines.join('\n')}\n`;
}

function quoteForEnvFile(value: string): string {
  return /^[\w@%+=:,./*-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
