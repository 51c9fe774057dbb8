/**
 * `tidings cloud` on PostgreSQL while its database goes away and comes back (a TCP proxy between
 * them refuses, then drops, then relays again): /readyz answers 503 within its deadline and says
 * why without naming the database, /metrics says the store is down and counts the failed
 * statements, /healthz stays 200, and neither the log nor --print-config shows the password.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { testDatabase } from '../../testing/cloud-kit.ts';
import { CLOUD_CLI, type LoggedCloud, startLoggedCloud } from '../../testing/logged-cloud.ts';
import { startTcpProxy, type TcpProxy } from '../../testing/tcp-proxy.ts';

const PASSWORD = 'pw-secret-4242';
let proxy: TcpProxy;
let cloud: LoggedCloud;
let url: string;

beforeAll(async () => {
  const direct = new URL(await testDatabase(`/tmp/readiness-${Date.now()}`));
  proxy = await startTcpProxy(Number(direct.port));
  // The test server trusts every local connection: the password is sent and never checked.
  url = `postgres://tidings:${PASSWORD}@127.0.0.1:${proxy.port}${direct.pathname}`;
  cloud = await startLoggedCloud(['--port', '0', '--database', url]);
});

afterAll(async () => {
  await proxy.set('forward');
  await cloud?.stop();
  await proxy?.close();
});

async function ready(): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${cloud.url}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    ms: performance.now() - started,
  };
}

async function sample(series: string): Promise<number | undefined> {
  const text = await (await fetch(`${cloud.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

it('answers /readyz 503 while the database is away, 200 once it is back; /healthz stays 200', async () => {
  // A failure shows what the cloud said (a fetch reset once in CI, with nothing else to go by).
  onTestFailed(() => {
    console.error(`the cloud's output (exit code ${cloud.child.exitCode}):\n${cloud.output()}`);
  });
  expect(cloud.started).toMatchObject({
    store: 'postgres',
    location: expect.stringContaining('tidings:***@'),
  });
  expect(await ready()).toMatchObject({ status: 200, body: { ready: true, store: 'postgres' } });
  expect(await sample('tidings_cloud_store_up')).toBe(1);
  expect(await sample('tidings_cloud_db_errors_total')).toBe(0);

  await proxy.set('refuse');
  const refused = await ready();
  expect(refused.status).toBe(503);
  expect(refused.body).toEqual({
    ready: false,
    store: 'postgres',
    ms: expect.any(Number),
    reason: 'the database refused or could not be reached',
  });
  expect((await fetch(`${cloud.url}/healthz`)).status).toBe(200);
  const warned = await cloud.waitFor((l) => l.msg === 'not ready: the store does not answer');
  expect(warned).toMatchObject({ level: 'warn', cause: expect.any(String) });
  expect(await sample('tidings_cloud_store_up')).toBe(0);
  expect(await sample('tidings_cloud_db_errors_total')).toBeGreaterThanOrEqual(1);

  // Packets dropped: nothing answers, the deadline does.
  await proxy.set('blackhole');
  const dropped = await ready();
  expect(dropped.status).toBe(503);
  expect(dropped.body.reason).toBe('the database did not answer within 2 s');
  expect(dropped.ms).toBeGreaterThanOrEqual(1900);
  expect(dropped.ms).toBeLessThan(5000);

  await proxy.set('forward');
  let back = await ready();
  // The pool drops the connections the blackhole held as they fail; a few checks may see them go.
  for (let i = 0; i < 20 && back.status !== 200; i++) back = await ready();
  expect(back).toMatchObject({ status: 200, body: { ready: true } });
  await cloud.waitFor((l) => l.msg === 'ready: the store answers' && l.time > warned.time);
  expect(await sample('tidings_cloud_store_up')).toBe(1);
});

it('never shows the database password: not in the log, not in --print-config', async () => {
  const printed = spawnSync(process.execPath, [CLOUD_CLI, '--print-config'], {
    env: { ...process.env, TIDINGS_CLOUD_DATABASE: url },
    encoding: 'utf8',
  });
  expect(printed.status).toBe(0);
  expect(printed.stdout).toContain(`TIDINGS_CLOUD_DATABASE=postgres://tidings:***@127.0.0.1:${proxy.port}/`);
  expect(printed.stdout + printed.stderr).not.toContain(PASSWORD);
  expect(cloud.output()).not.toContain(PASSWORD);
});
