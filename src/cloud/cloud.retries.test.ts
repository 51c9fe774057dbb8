/**
 * A WebSub delivery is never lost across a restart (issue 31): a subscriber answers 500 to the
 * first delivery of a change, the cloud is stopped (kill -9, or a plain SIGTERM as in any deploy)
 * between that delivery and its retry, and started again on the same store: the content arrives,
 * exactly once. The retries were memory timers: after either stop the content never came. Real
 * `tidings cloud` processes, on SQLite and (cloud-pg) on PostgreSQL.
 */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CloudProcess,
  delay,
  Peer,
  postForm,
  spawnCloudCli,
  startCloudProcess,
} from '../testing/cloud-kit.ts';
import { waitFor } from '../testing/wait.ts';

let peer: Peer;
let running: CloudProcess[] = [];
let homes: string[] = [];
let version = 1;

/** The subscriber's deliveries: the body each carried and what it was answered. */
const deliveries: { body: string; status: number }[] = [];

beforeEach(async () => {
  version = 1;
  deliveries.length = 0;
  peer = await new Peer().start();
  peer.route('GET', '/feed.xml', 200, () => ({
    body: `<rss version="2.0"><channel><title>v${version}</title></channel></rss>`,
    headers: { 'content-type': 'application/rss+xml' },
  }));
  peer.route('GET', '/cb', 200, (r) => r.query['hub.challenge'] ?? '');
  // The first delivery fails; every later one is taken.
  peer.route('POST', '/cb', 200, (r) => {
    const status = deliveries.length === 0 ? 500 : 200;
    deliveries.push({ body: r.text, status });
    return { status, body: status === 200 ? 'ok' : 'busy' };
  });
});

afterEach(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  running = [];
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  homes = [];
  await peer.close();
});

const RETRY_AFTER_S = 5;

async function start(flags?: string[]): Promise<CloudProcess & { flags: string[] }> {
  const args = ['--delivery-retries', String(RETRY_AFTER_S)];
  if (flags) {
    const p = await spawnCloudCli(['--port', '0', '--allow-loopback', ...flags, ...args]);
    running.push(p);
    return { ...p, flags };
  }
  const p = await startCloudProcess(args);
  running.push(p);
  homes.push(p.home);
  return p;
}

/** The subscription's errors in a row, as the cloud's subscriptions.json says. */
async function consecutiveErrors(url: string): Promise<number> {
  const json = (await (await fetch(`${url}/subscriptions.json`)).json()) as {
    feeds: Record<string, { subscriptions: { ctConsecutiveErrors: number }[] }>;
  };
  return json.feeds[`${peer.url}/feed.xml`]?.subscriptions[0]?.ctConsecutiveErrors ?? 0;
}

describe.each([['kill -9', 'SIGKILL'] as const, ['SIGTERM', 'SIGTERM'] as const])(
  'stopped by %s between a failed delivery and its retry',
  (_label, signal) => {
    it('the content arrives once the cloud is back, exactly once', async () => {
      const first = await start();
      const hub = await postForm(`${first.url}/websub`, {
        'hub.mode': 'subscribe',
        'hub.callback': `${peer.url}/cb`,
        'hub.topic': `${peer.url}/feed.xml`,
      });
      expect(hub.status).toBe(202);
      await waitFor(
        async () => (await fetch(`${first.url}/subscriptions.json`)).text().then((t) => t.includes('websub')),
        10_000,
        'the subscription',
      );
      await delay(200); // verified, and active
      version = 2;
      const ping = await postForm(`${first.url}/ping`, { url: `${peer.url}/feed.xml` }, 'application/json');
      expect(JSON.parse(ping.text)).toMatchObject({ success: true });
      // The failure is recorded, and with it (same transaction) its retry.
      await waitFor(async () => (await consecutiveErrors(first.url)) === 1, 10_000, 'the failure recorded');
      first.child.kill(signal);
      await first.exited;
      expect(deliveries).toEqual([{ body: expect.stringContaining('<title>v2</title>'), status: 500 }]);

      const second = await start(first.flags);
      await waitFor(() => deliveries.length >= 2, 20_000, 'the retry');
      // Nothing more comes: no second copy from a retry the stopped process held too.
      await delay(RETRY_AFTER_S * 1000 + 1000);
      expect(deliveries.map((d) => [d.status, d.body.includes('<title>v2</title>')])).toEqual([
        [500, true],
        [200, true],
      ]);
      expect(await consecutiveErrors(second.url)).toBe(0);
    });
  },
);
