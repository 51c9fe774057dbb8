/**
 * Every setting of `tidings cloud` (and `tidings-cloud`) in one table: its flag, its environment
 * variable, its help and its check. The command line, the environment, --help and --print-config
 * are all read from here (config.ts), so a setting cannot have a flag without a variable, or a
 * help line that says another default than the one in force.
 */

export type OptionGroup = 'common' | 'advanced' | 'cluster';

export type OptionKind =
  | { type: 'int'; min: number; max: number }
  | { type: 'bool' }
  | { type: 'enum'; values: readonly string[] }
  /** Free text, checked by `check` (a reason when wrong). */
  | { type: 'text'; check?: (value: string) => string | null };

export interface OptionSpec {
  /** Without the dashes: `port` for --port. */
  flag: string;
  env: string;
  group: OptionGroup;
  kind: OptionKind;
  /** What --help shows after the flag: `N`, `ADDR`... (none for switches). */
  arg?: string;
  /** The value when neither the flag nor the variable is given (a function: computed at start). */
  fallback?: string | boolean | (() => string);
  /** --help's text (wrapped to the terminal's width by help.ts). */
  help: string;
  /** Shown masked by --print-config and in logs (a URL's password). */
  secret?: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const DAY = 86_400;
const int = (min: number, max: number): OptionKind => ({ type: 'int', min, max });
const bool: OptionKind = { type: 'bool' };

const httpUrl = (value: string) =>
  /^https?:\/\/[^/]+/i.test(value) ? null : 'must be an http or https address';
const postgresUrl = (value: string) => {
  if (!/^postgres(ql)?:\/\//i.test(value)) return 'must be a postgres:// or postgresql:// URL';
  try {
    new URL(value);
    return null;
  } catch {
    return 'is not a valid URL';
  }
};

/** `none`, or seconds from 1 to a day separated by commas (the WebSub delivery retries). */
export function parseRetryDelays(value: string): number[] | null {
  if (value.trim() === 'none') return [];
  const parts = value.split(',').map((t) => t.trim());
  if (!parts.every((t) => /^\d{1,6}$/.test(t))) return null;
  const seconds = parts.map(Number);
  return seconds.every((n) => n >= 1 && n <= DAY) ? seconds : null;
}
const retryDelays = (value: string) =>
  parseRetryDelays(value) ? null : `must be "none" or seconds from 1 to ${DAY} separated by commas`;

export const OPTIONS: readonly OptionSpec[] = [
  // Common: what most operators set.
  {
    flag: 'port',
    env: 'TIDINGS_CLOUD_PORT',
    group: 'common',
    kind: int(0, 65535),
    arg: 'N',
    fallback: '5337',
    help: 'Port to listen on; 0 picks a free one',
  },
  {
    flag: 'host',
    env: 'TIDINGS_CLOUD_HOST',
    group: 'common',
    kind: { type: 'text' },
    arg: 'ADDR',
    fallback: '127.0.0.1',
    help: 'Address to bind; 0.0.0.0 or :: for every interface',
  },
  {
    flag: 'data',
    env: 'TIDINGS_CLOUD_DATA',
    group: 'common',
    kind: { type: 'text' },
    arg: 'DIR',
    help: 'Folder of the SQLite database; default: the Tidings data folder + /cloud',
  },
  {
    flag: 'database',
    env: 'TIDINGS_CLOUD_DATABASE',
    group: 'common',
    kind: { type: 'text', check: postgresUrl },
    arg: 'URL',
    secret: true,
    help: 'Keep everything in PostgreSQL instead (postgres://user:pass@host/db): every instance naming the same database is one cloud, so several can run behind a load balancer',
  },
  {
    flag: 'public-url',
    env: 'TIDINGS_CLOUD_PUBLIC_URL',
    group: 'common',
    kind: { type: 'text', check: httpUrl },
    arg: 'URL',
    help: 'How peers reach this cloud, e.g. https://cloud.example.org (saveRss URLs, the <cloud> element, WebSub Link headers)',
  },
  {
    flag: 'trust-proxy',
    env: 'TIDINGS_CLOUD_TRUST_PROXY',
    group: 'common',
    kind: bool,
    fallback: false,
    help: "A reverse proxy is in front: take the caller's address from X-Forwarded-For and a request id from X-Request-Id",
  },
  {
    flag: 'log-level',
    env: 'TIDINGS_CLOUD_LOG_LEVEL',
    group: 'common',
    kind: { type: 'enum', values: LOG_LEVELS },
    arg: 'LEVEL',
    fallback: 'info',
    help: `Least important log lines written (${LOG_LEVELS.join(', ')}); debug adds a line per request`,
  },
  {
    flag: 'admin-port',
    env: 'TIDINGS_CLOUD_ADMIN_PORT',
    group: 'common',
    kind: int(0, 65535),
    arg: 'N',
    help: 'Serve /healthz, /readyz and /metrics on this port instead, not with the doors',
  },

  // Advanced: limits and behaviour.
  {
    flag: 'admin-host',
    env: 'TIDINGS_CLOUD_ADMIN_HOST',
    group: 'advanced',
    kind: { type: 'text' },
    arg: 'ADDR',
    fallback: '127.0.0.1',
    help: 'Address of the --admin-port listener',
  },
  {
    flag: 'metrics',
    env: 'TIDINGS_CLOUD_METRICS',
    group: 'advanced',
    kind: bool,
    fallback: true,
    help: 'Count what the cloud does for /metrics; --no-metrics: nothing counted, no /metrics',
  },
  {
    flag: 'allow-loopback',
    env: 'TIDINGS_CLOUD_ALLOW_LOOPBACK',
    group: 'advanced',
    kind: bool,
    fallback: false,
    help: 'Let feeds and callbacks be on this machine (127.0.0.0/8, ::1)',
  },
  {
    flag: 'allow-private',
    env: 'TIDINGS_CLOUD_ALLOW_PRIVATE',
    group: 'advanced',
    kind: bool,
    fallback: false,
    help: 'Let feeds and callbacks be on private networks (10/8, 192.168/16, fc00::/7...)',
  },
  {
    flag: 'min-ping-interval',
    env: 'TIDINGS_CLOUD_MIN_PING_INTERVAL',
    group: 'advanced',
    kind: int(0, DAY),
    arg: 'S',
    fallback: '0',
    help: 'Refuse pings of one feed closer together than S seconds; 0: no limit',
  },
  {
    flag: 'max-resources',
    env: 'TIDINGS_CLOUD_MAX_RESOURCES',
    group: 'advanced',
    kind: int(1, 100_000),
    arg: 'N',
    fallback: '100',
    help: 'Resources one pleaseNotify may name',
  },
  {
    flag: 'work-per-minute',
    env: 'TIDINGS_CLOUD_WORK_PER_MINUTE',
    group: 'advanced',
    kind: int(1, 10_000_000),
    arg: 'N',
    fallback: '1000',
    help: "Feed reads and handler tests one caller's registrations may cause per minute, on average; up to 5x that at once after a quiet spell",
  },
  {
    flag: 'pings-per-minute',
    env: 'TIDINGS_CLOUD_PINGS_PER_MINUTE',
    group: 'advanced',
    kind: int(1, 10_000_000),
    arg: 'N',
    fallback: '1000',
    help: 'Pings and publishes one caller may send per minute, a budget apart from registrations; up to 5x that at once',
  },
  {
    flag: 'subscription-lifetime',
    env: 'TIDINGS_CLOUD_SUBSCRIPTION_LIFETIME',
    group: 'advanced',
    kind: int(1, 31 * DAY),
    arg: 'S',
    fallback: '90000',
    help: 'How long an rssCloud subscription lasts after it was made; 90000 s is 25 hours',
  },
  {
    flag: 'lease-default',
    env: 'TIDINGS_CLOUD_LEASE_DEFAULT',
    group: 'advanced',
    kind: int(1, 365 * DAY),
    arg: 'S',
    fallback: '86400',
    help: 'WebSub lease when none is asked, in seconds',
  },
  {
    flag: 'lease-min',
    env: 'TIDINGS_CLOUD_LEASE_MIN',
    group: 'advanced',
    kind: int(1, 365 * DAY),
    arg: 'S',
    fallback: '300',
    help: 'Shortest WebSub lease granted, in seconds',
  },
  {
    flag: 'lease-max',
    env: 'TIDINGS_CLOUD_LEASE_MAX',
    group: 'advanced',
    kind: int(1, 365 * DAY),
    arg: 'S',
    fallback: '864000',
    help: 'Longest WebSub lease granted, in seconds; 864000 is 10 days',
  },
  {
    flag: 'max-subscriptions-per-callback',
    env: 'TIDINGS_CLOUD_MAX_SUBSCRIPTIONS_PER_CALLBACK',
    group: 'advanced',
    kind: int(1, 10_000_000),
    arg: 'N',
    fallback: '10000',
    help: 'WebSub subscriptions one callback URL may hold',
  },
  {
    flag: 'answer-after-delivery',
    env: 'TIDINGS_CLOUD_ANSWER_AFTER_DELIVERY',
    group: 'advanced',
    kind: bool,
    fallback: false,
    help: 'Answer a ping only after its notifications were delivered or timed out (at most 5 s), as the reference cloud does; otherwise a ping is answered at once',
  },
  {
    flag: 'delivery-retries',
    env: 'TIDINGS_CLOUD_DELIVERY_RETRIES',
    group: 'advanced',
    kind: { type: 'text', check: retryDelays },
    arg: 'S,S',
    fallback: '60,300,1800',
    help: 'Seconds before each new try of a failed WebSub delivery ("none": no retries); kept in the database, so a restart loses none',
  },
  {
    flag: 'test-api',
    env: 'TIDINGS_CLOUD_TEST_API',
    group: 'advanced',
    kind: bool,
    fallback: false,
    help: "Mount the reference cloud's test API under /test for its e2e suite; anyone who reaches it can erase the subscriptions: loopback only",
  },

  // Cluster: several instances on one PostgreSQL database.
  {
    flag: 'delivery-lease',
    env: 'TIDINGS_CLOUD_DELIVERY_LEASE',
    group: 'cluster',
    kind: int(1, 3600),
    arg: 'S',
    fallback: '60',
    help: 'Seconds deliveries an instance claimed stay its own before another instance takes them over, if it died',
  },
  {
    flag: 'delivery-batch',
    env: 'TIDINGS_CLOUD_DELIVERY_BATCH',
    group: 'cluster',
    kind: int(1, 100_000),
    arg: 'N',
    fallback: '1000',
    help: 'Subscribers per queued chunk and per claim; a killed instance may repeat up to 4 batches',
  },
  {
    flag: 'database-statements',
    env: 'TIDINGS_CLOUD_DATABASE_STATEMENTS',
    group: 'cluster',
    kind: int(1, 1000),
    arg: 'N',
    fallback: '8',
    help: "Statements the whole cloud runs at once, shared by the instances connected: about the database server's cores, the same on every instance",
  },
];
