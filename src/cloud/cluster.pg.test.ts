/**
 * Three `tidings cloud` instances on one PostgreSQL database are one cloud: registrations spread
 * over them are all kept, one change reaches each of 10,000 subscribers exactly once, an
 * instance killed with SIGKILL mid fan-out loses nothing (its leased deliveries go to another,
 * repeating at most what it held), and a rolling restart under a steady ping load loses no
 * notification. Instances are real child processes of the CLI; subscribers a loopback server
 * counting what it receives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  type CloudProcess,
  delay,
  Peer,
  postForm,
  spawnCloudCli,
  testDatabase,
} from '../testing/cloud-kit.ts';
import { pgRows } from '../testing/pg.ts';
import { waitFor as waitUntil } from '../testing/wait.ts';
import { SUBSCRIPTION_TTL_MS } from './core/core.ts';
import { PgCloudStore } from './store/pg.ts';

/** Counts notifications per callback path; answers at once (or after `slowMs`). */
class Subscribers {
  readonly hits = new Map<string, number>();
  total = 0;
  slowMs = 0;
  private server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      this.total++;
      const answer = () => res.end('ok');
      if (this.slowMs > 0) setTimeout(answer, this.slowMs);
      else answer();
    });
  });
  port = 0;
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    this.server.keepAliveTimeout = 30_000;
  }
  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`;
  }
  duplicates() {
    let d = 0;
    for (const n of this.hits.values()) d += n - 1;
    return d;
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

type Instance = CloudProcess;

let db: string;
let peer: Peer;
let subs: Subscribers;
const instances = new Set<Instance>();

async function startInstance(...extra: string[]): Promise<Instance> {
  const inst = await spawnCloudCli([
    '--port',
    '0',
    '--database',
    db,
    '--allow-loopback',
    '--pings-per-minute',
    '1000000',
    ...extra,
  ]);
  instances.add(inst);
  return inst;
}

async function stop(inst: Instance, signal: NodeJS.Signals = 'SIGTERM') {
  inst.child.kill(signal);
  await inst.exited;
  instances.delete(inst);
}

const query = <T>(text: string, params: unknown[] = []) => pgRows<T>(db, text, params);

/** The shared waitFor (src/testing/wait.ts), named first as these tests read best. */
const waitFor = (what: string, cond: () => boolean | Promise<boolean>, ms = 60_000) =>
  waitUntil(cond, ms, what);

/** Subscribers set up in bulk through the store (registering 10,000 over HTTP is not the point). */
async function seed(feedUrl: string, n: number, prefix: string) {
  const store = new PgCloudStore(db);
  try {
    await store.insertSubscriptions(
      Array.from({ length: n }, (_, i) => ({
        feedUrl,
        callbackUrl: subs.url(`${prefix}/${i}`),
        protocol: 'http-post' as const,
        notifyProcedure: null,
        expiresAt: Date.now() + SUBSCRIPTION_TTL_MS,
      })),
      Date.now(),
    );
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  peer = new Peer();
  await peer.start();
  subs = new Subscribers();
  await subs.start();
});
afterAll(async () => {
  await peer.close();
  await subs.close();
});
beforeEach(async () => {
  db = await testDatabase(`/cluster/${Date.now()}-${Math.random()}`);
  subs.hits.clear();
  subs.total = 0;
  subs.slowMs = 0;
});
afterEach(async () => {
  for (const i of instances) i.child.kill('SIGKILL');
  await Promise.all([...instances].map((i) => i.exited));
  instances.clear();
});

it('keeps the registrations of 16 concurrent callers spread over three instances', async () => {
  const three = await Promise.all([startInstance(), startInstance(), startInstance()]);
  peer.route('GET', '/rss.xml', 200, '<rss>one</rss>');
  for (let i = 0; i < 16; i++) peer.route('POST', `/cb${i}`, 200, 'ok');
  const answers = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      postForm(`${three[i % 3]!.url}/pleaseNotify`, {
        port: peer.port,
        path: `/cb${i}`,
        registerProcedure: '',
        protocol: 'http-post',
        url1: `${peer.url}/rss.xml`,
      }),
    ),
  );
  expect(answers.filter((a) => !/success="true"/.test(a.text)).map((a) => a.text)).toEqual([]);
  const rows = await query<{ n: number }>('SELECT COUNT(*)::int AS n FROM subscriptions');
  expect(rows[0]!.n).toBe(16);
  // Every instance reads the same list and counters.
  const views = await Promise.all(
    three.map(async (i) => (await fetch(`${i.url}/subscriptions.json`)).json()),
  );
  expect(new Set(views.map((v) => JSON.stringify(v))).size).toBe(1);
  const status = await Promise.all(three.map(async (i) => (await fetch(`${i.url}/`)).text()));
  for (const s of status) expect(s).toContain('Live subscriptions</th><td>16<');
});

it('delivers one ping to 10,000 subscribers exactly once each, whichever instance answered it', {
  timeout: 120_000,
}, async () => {
  const three = await Promise.all([startInstance(), startInstance(), startInstance()]);
  const feed = `${peer.url}/big.xml`;
  peer.route('GET', '/big.xml', 200, '<rss>v1</rss>');
  await seed(feed, 10_000, '/big');
  await postForm(`${three[1]!.url}/ping`, { url: feed });
  await waitFor('10,000 deliveries', () => subs.hits.size === 10_000);
  await waitFor(
    'an empty queue',
    async () => (await query('SELECT 1 FROM delivery_chunks WHERE NOT done LIMIT 1')).length === 0,
  );
  expect(subs.total).toBe(10_000);
  expect(subs.duplicates()).toBe(0);
});

it('loses nothing when an instance is killed mid fan-out; repeats no more than it held', {
  timeout: 180_000,
}, async () => {
  const batch = 250;
  const three = await Promise.all(
    [0, 1, 2].map(() => startInstance('--delivery-lease', '2', '--delivery-batch', String(batch))),
  );
  const feed = `${peer.url}/kill.xml`;
  peer.route('GET', '/kill.xml', 200, '<rss>v1</rss>');
  await seed(feed, 10_000, '/kill');
  subs.slowMs = 20; // a fan-out long enough to kill an instance in the middle of it
  await postForm(`${three[0]!.url}/ping`, { url: feed });
  await waitFor('a quarter delivered', () => subs.total >= 2500);
  await stop(three[2]!, 'SIGKILL');
  await waitFor('10,000 delivered', () => subs.hits.size === 10_000, 120_000);
  await waitFor(
    'an empty queue',
    async () => (await query('SELECT 1 FROM delivery_chunks WHERE NOT done LIMIT 1')).length === 0,
  );
  // The killed instance held at most 4 batches (core: DEFAULT_QUEUE_LIMITS.batches).
  expect(subs.duplicates()).toBeLessThanOrEqual(4 * batch);
});

it('a rolling restart of all three under a steady ping load loses no notification', {
  timeout: 180_000,
}, async () => {
  const live: Instance[] = await Promise.all([0, 1, 2].map(() => startInstance('--delivery-lease', '2')));
  // Subscribers a little slow, so an instance told to stop has notifications in flight: they must
  // be answered, not cut off and counted failed (fanout.test.ts shows that cause on its own).
  subs.slowMs = 100;
  const feeds = 20;
  let version = 0;
  for (let f = 0; f < feeds; f++) {
    peer.route('GET', `/r${f}.xml`, 200, () => `<rss>${f} v${version}</rss>`);
  }
  for (let f = 0; f < feeds; f++) await seed(`${peer.url}/r${f}.xml`, 1, `/r${f}`);
  let running = true;
  let answered = 0;
  const load = (async () => {
    let n = 0;
    while (running) {
      version++;
      const feed = `${peer.url}/r${n % feeds}.xml`;
      const target = live[n++ % live.length];
      if (!target) continue;
      try {
        const r = await postForm(`${target.url}/ping`, { url: feed });
        if (/success="true"/.test(r.text)) answered++;
      } catch {
        // that instance is stopping: the next ping goes to another
      }
      await delay(5);
    }
  })();
  for (let i = 0; i < 3; i++) {
    await delay(300);
    const old = live.shift()!;
    await stop(old, 'SIGTERM');
    live.push(await startInstance('--delivery-lease', '2'));
  }
  await delay(300);
  running = false;
  await load;
  await waitFor(
    'an empty queue',
    async () => (await query('SELECT 1 FROM delivery_chunks WHERE NOT done LIMIT 1')).length === 0,
  );
  const changesCounted = async () =>
    (await query<{ value: number }>("SELECT value::int FROM counters WHERE name = 'changes'"))[0]!.value;
  expect(answered).toBeGreaterThan(20);
  // Every change detected reached its subscriber: one notification per change, none lost. The
  // running instances write their counts every 200 ms (pg-counters.ts): wait for both to agree.
  await waitFor(
    'as many notifications as changes counted',
    async () => subs.total === (await changesCounted()),
    10_000,
  ).catch(() => undefined);
  expect(subs.total).toBe(await changesCounted());
});

it.each([['kill -9', 'SIGKILL'] as const, ['SIGTERM', 'SIGTERM'] as const])(
  'a WebSub retry kept by an instance %s before it was due is delivered by another, exactly once',
  { timeout: 90_000 },
  async (_label, signal) => {
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => startInstance('--delivery-retries', '4')));
    let version = 1;
    peer.route('GET', '/ws.xml', 200, () => `<rss><channel><title>v${version}</title></channel></rss>`);
    peer.route('GET', '/ws', 200, (r) => r.query['hub.challenge'] ?? '');
    const got: { status: number; body: string }[] = [];
    peer.route('POST', '/ws', 200, (r) => {
      const status = got.length === 0 ? 500 : 200;
      got.push({ status, body: r.text });
      return { status, body: 'x' };
    });
    const feed = `${peer.url}/ws.xml`;
    await postForm(`${a!.url}/websub`, {
      'hub.mode': 'subscribe',
      'hub.callback': `${peer.url}/ws`,
      'hub.topic': feed,
    });
    await waitFor(
      'the subscription verified',
      async () => (await query("SELECT 1 FROM subscriptions WHERE state = 'active'")).length === 1,
    );
    version = 2;
    await postForm(`${a!.url}/ping`, { url: feed }); // a delivers it (its own lease) and keeps the retry
    await waitFor(
      'the failure and its retry kept',
      async () =>
        (await query('SELECT 1 FROM delivery_chunks WHERE NOT done AND attempt = 1')).length === 1 &&
        (await query('SELECT 1 FROM subscriptions WHERE ct_consecutive_errors = 1')).length === 1,
    );
    await stop(a!, signal);
    expect(got.map((g) => g.status)).toEqual([500]);
    await waitFor('the retry', () => got.length >= 2, 30_000);
    await delay(5000); // no second copy comes
    expect(got.map((g) => [g.status, g.body.includes('v2')])).toEqual([
      [500, true],
      [200, true],
    ]);
    // b and c are still up and agree: one subscription, no error in a row.
    for (const i of [b!, c!]) expect((await fetch(`${i.url}/`)).status).toBe(200);
    expect((await query<{ n: number }>('SELECT ct_consecutive_errors AS n FROM subscriptions'))[0]!.n).toBe(
      0,
    );
  },
);
