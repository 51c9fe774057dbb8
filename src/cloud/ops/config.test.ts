/**
 * One configuration: every setting has a flag and a variable, the flag wins, a wrong value is
 * refused naming where it came from, --print-config shows what is in force with secrets masked,
 * and --help lists the common options apart from the advanced and cluster ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, cloudConfig, printedConfig, readSettings } from './config.ts';
import { serverHelp } from './help.ts';
import { OPTIONS, type OptionSpec } from './options.ts';

/** A value each kind accepts that differs from its default. */
function someValue(spec: OptionSpec): string {
  switch (spec.kind.type) {
    case 'bool':
      return spec.fallback === true ? 'false' : 'true';
    case 'int':
      return String(spec.kind.max);
    case 'enum':
      return spec.kind.values.find((v) => v !== spec.fallback)!;
    default:
      if (spec.flag === 'database') return 'postgres://u:p@db.example/cloud';
      if (spec.flag === 'public-url') return 'https://cloud.example.org';
      if (spec.flag === 'delivery-retries') return '30,90';
      return spec.flag === 'data' ? '/srv/cloud' : '10.1.2.3';
  }
}

describe('settings', () => {
  it('every setting reads TIDINGS_CLOUD_<FLAG> and --<flag>, the flag winning', () => {
    for (const spec of OPTIONS) {
      expect(spec.env, spec.flag).toBe(`TIDINGS_CLOUD_${spec.flag.toUpperCase().replace(/-/g, '_')}`);
      const value = someValue(spec);
      const fromEnv = readSettings([], { [spec.env]: value }).settings.get(spec.flag)!;
      expect(fromEnv.source, spec.env).toBe('env');
      expect(String(fromEnv.value), spec.env).toBe(value);
      const flag =
        spec.kind.type === 'bool'
          ? [value === 'true' ? `--${spec.flag}` : `--no-${spec.flag}`]
          : [`--${spec.flag}`, value];
      const both = readSettings(flag, {
        [spec.env]: spec.kind.type === 'bool' ? String(value !== 'true') : value,
      });
      expect(both.settings.get(spec.flag)!.source, spec.flag).toBe('flag');
      expect(String(both.settings.get(spec.flag)!.value), spec.flag).toBe(value);
    }
  });

  it('the defaults make a cloud on SQLite on 127.0.0.1:5337 with metrics on', () => {
    const config = cloudConfig(readSettings([], {}).settings);
    expect(config).toMatchObject({
      port: 5337,
      host: '127.0.0.1',
      store: { kind: 'sqlite' },
      logLevel: 'info',
      adminPort: null,
      metrics: true,
      trustProxy: false,
      leases: { defaultSeconds: 86_400, minSeconds: 300, maxSeconds: 864_000 },
      databaseStatements: null,
      deliveryRetriesMs: [60_000, 300_000, 1_800_000],
    });
    expect(cloudConfig(readSettings(['--delivery-retries', 'none'], {}).settings).deliveryRetriesMs).toEqual(
      [],
    );
  });

  it.each([
    [
      [],
      { TIDINGS_CLOUD_PORT: 'eighty' },
      'TIDINGS_CLOUD_PORT must be a whole number from 0 to 65535, not "eighty"',
    ],
    [['--port', '70000'], {}, '--port must be a whole number from 0 to 65535, not "70000"'],
    [
      [],
      { TIDINGS_CLOUD_TRUST_PROXY: 'maybe' },
      'TIDINGS_CLOUD_TRUST_PROXY must be true or false (or 1/0, yes/no, on/off), not "maybe"',
    ],
    [
      [],
      { TIDINGS_CLOUD_LOG_LEVEL: 'chatty' },
      'TIDINGS_CLOUD_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "chatty"',
    ],
    [
      [],
      { TIDINGS_CLOUD_DATABASE: 'mysql://u:hunter2@h/db' },
      'TIDINGS_CLOUD_DATABASE must be a postgres:// or postgresql:// URL, not "mysql://u:***@h/db"',
    ],
    [
      [],
      { TIDINGS_CLOUD_PUBLIC_URL: 'ftp://x' },
      'TIDINGS_CLOUD_PUBLIC_URL must be an http or https address, not "ftp://x"',
    ],
    [
      ['--lease-min', '900'],
      { TIDINGS_CLOUD_LEASE_MAX: '300' },
      '--lease-min (900) is longer than TIDINGS_CLOUD_LEASE_MAX (300)',
    ],
    [
      [],
      { TIDINGS_CLOUD_DATABASE_STATEMENTS: '4' },
      'TIDINGS_CLOUD_DATABASE_STATEMENTS applies to a PostgreSQL cloud (--database) only',
    ],
    [
      ['--data', '/srv/x'],
      { TIDINGS_CLOUD_DATABASE: 'postgres://h/db' },
      'give --data or --database, not both',
    ],
    [['--admin-port', '5337'], {}, '--admin-port must differ from --port (5337)'],
    [
      [],
      { TIDINGS_CLOUD_DELIVERY_RETRIES: '60,5m' },
      'TIDINGS_CLOUD_DELIVERY_RETRIES must be "none" or seconds from 1 to 86400 separated by commas, not "60,5m"',
    ],
    [['--no-port'], {}, "Unknown option '--no-port'"],
  ])('%j with %j is refused: %s', (args, env, message) => {
    const read = () => cloudConfig(readSettings(args, env).settings);
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(message);
  });

  it('a data folder from the environment gives way to a database (a container or unit default)', () => {
    const config = cloudConfig(
      readSettings([], {
        TIDINGS_CLOUD_DATA: '/var/lib/tidings-cloud',
        TIDINGS_CLOUD_DATABASE: 'postgres://db/c',
      }).settings,
    );
    expect(config.store).toEqual({ kind: 'postgres', url: 'postgres://db/c' });
  });

  it('an empty variable is unset', () => {
    expect(cloudConfig(readSettings([], { TIDINGS_CLOUD_PORT: '' }).settings).port).toBe(5337);
  });
});

describe('--print-config', () => {
  it('prints every setting as a variable, with its flag and source, the password masked', () => {
    const { settings } = readSettings(['--port', '8080'], {
      TIDINGS_CLOUD_DATABASE: 'postgres://cloud:s3cret@db.internal:5432/tidings',
      TIDINGS_CLOUD_DATA: '/var/lib/tidings-cloud',
    });
    const text = printedConfig(settings, 'tidings-cloud');
    expect(text).not.toContain('s3cret');
    const lines = text.split('\n').filter((l) => l.startsWith('TIDINGS_CLOUD_'));
    expect(lines).toHaveLength(OPTIONS.length);
    expect(lines.find((l) => l.startsWith('TIDINGS_CLOUD_PORT='))).toMatch(
      /^TIDINGS_CLOUD_PORT=8080 +# --port, flag$/,
    );
    expect(lines.find((l) => l.startsWith('TIDINGS_CLOUD_DATABASE='))).toMatch(
      /^TIDINGS_CLOUD_DATABASE=postgres:\/\/cloud:\*\*\*@db\.internal:5432\/tidings +# --database, from the environment$/,
    );
    expect(lines.find((l) => l.startsWith('TIDINGS_CLOUD_DATA='))).toContain(
      'unused: the state is in PostgreSQL',
    );
    expect(lines.find((l) => l.startsWith('TIDINGS_CLOUD_ADMIN_PORT='))).toMatch(
      /^TIDINGS_CLOUD_ADMIN_PORT= +# --admin-port, not set$/,
    );
    expect(lines.find((l) => l.startsWith('TIDINGS_CLOUD_METRICS='))).toMatch(
      /^TIDINGS_CLOUD_METRICS=true +# --metrics, default$/,
    );
  });
});

describe('the operator guide', () => {
  it('docs/cloud-operations.md names every setting with its variable, flag and default', () => {
    const guide = readFileSync(new URL('../../../docs/cloud-operations.md', import.meta.url), 'utf8');
    for (const spec of OPTIONS) {
      const row = guide.split('\n').find((l) => l.startsWith(`| \`${spec.env}\` |`));
      expect(row, spec.env).toBeDefined();
      expect(row, spec.env).toContain(`\`--${spec.flag}`);
      if (typeof spec.fallback === 'string') expect(row, spec.env).toContain(` ${spec.fallback} |`);
    }
  });
});

describe('--help', () => {
  const help = serverHelp('tidings-cloud');
  it('lists the common options first, then the advanced ones, then the cluster ones', () => {
    const common = help.indexOf('Common options:');
    const advanced = help.indexOf('Advanced options');
    const cluster = help.indexOf('Cluster options');
    expect(common).toBeGreaterThan(0);
    expect(advanced).toBeGreaterThan(common);
    expect(cluster).toBeGreaterThan(advanced);
    const section = (from: number, to: number) => help.slice(from, to);
    expect(section(common, advanced)).toMatch(
      /--port N[\s\S]*--database URL[\s\S]*--log-level LEVEL[\s\S]*--admin-port N/,
    );
    expect(section(common, advanced)).not.toContain('--lease-min');
    expect(section(advanced, cluster)).toContain('--lease-min S');
    expect(section(cluster, help.length)).toMatch(
      /--delivery-lease S[\s\S]*--delivery-batch N[\s\S]*--database-statements N/,
    );
  });

  it('names every option with its variable, and stays within 100 columns', () => {
    for (const spec of OPTIONS) {
      expect(help, spec.flag).toMatch(
        new RegExp(`--${spec.flag}\\b[^\\n]*\\n(?:[^\\n]*\\n)*? +${spec.env}\\n`),
      );
    }
    expect(help.split('\n').filter((l) => l.length > 100)).toEqual([]);
    expect(help).toContain('Usage: tidings-cloud [options]');
    expect(help).toMatch(/Commands \(tidings-cloud COMMAND\):\n {2}healthcheck {13}Exit 0 when/);
    expect(help).toContain('Accounts for rssCloud.saveRss (tidings-cloud user --help)');
  });
});
