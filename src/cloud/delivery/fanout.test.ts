/**
 * fanOut itself against real loopback subscribers: every subscriber notified once, the per-host
 * bound held on the wire, hosts served side by side, outcomes recorded in batches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../common/clock.ts';
import { createHttpClient } from '../../net/http-client.ts';
import { startServer, type TestServer } from '../../net/test-server.ts';
import { waitFor } from '../../testing/wait.ts';
import type { DeliveryResult, DeliveryTarget } from '../store/store.ts';
import { fanOut } from './fanout.ts';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** Requests in flight across every subscriber host of a test, and the most seen at once. */
const across = { now: 0, most: 0 };

async function subscriberHost(delayMs = 0): Promise<TestServer & { most: () => number }> {
  let inFlight = 0;
  let most = 0;
  const s = await startServer(async (_req, res) => {
    most = Math.max(most, ++inFlight);
    across.most = Math.max(across.most, ++across.now);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    inFlight--;
    across.now--;
    res.end('ok');
  });
  open.push(s);
  return Object.assign(s, { most: () => most });
}

const targets = (base: string, n: number, from = 0): DeliveryTarget[] =>
  Array.from({ length: n }, (_, i) => ({
    id: from + i,
    callbackUrl: `${base}/cb/${from + i}`,
    protocol: 'http-post' as const,
    notifyProcedure: null,
  }));

describe('fanOut', () => {
  it('notifies 3,000 subscribers on two hosts, each host within its bound, and records every outcome', async () => {
    const a = await subscriberHost(2);
    const b = await subscriberHost(2);
    const http = createHttpClient({ hostPolicy: { allowLoopback: true }, maxSocketsPerHost: 8 });
    open.push({ close: () => http.close() });
    const recorded: DeliveryResult[] = [];
    let batches = 0;
    const report = await fanOut(
      {
        http,
        clock: systemClock,
        record: (r) => {
          batches++;
          recorded.push(...r);
        },
        limits: { perHost: 8, total: 12 },
        policy: { allowLoopback: true, allowPrivate: false },
      },
      'http://feed.example/rss',
      [...targets(a.url, 2000), ...targets(b.url, 1000, 2000)],
    );
    expect(report).toMatchObject({ subscribers: 3000, delivered: 3000, failed: 0 });
    expect(a.requests).toHaveLength(2000);
    expect(b.requests).toHaveLength(1000);
    expect(new Set(a.requests.map((r) => r.path)).size).toBe(2000);
    expect(a.most()).toBeLessThanOrEqual(8);
    expect(a.connections()).toBeLessThanOrEqual(8);
    expect(b.most()).toBeLessThanOrEqual(8);
    // Both hosts were busy at once: the total bound (12) is shared, not spent on one host.
    expect(b.most()).toBeGreaterThan(1);
    expect(recorded.map((r) => r.id).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 3000 }, (_, i) => i),
    );
    expect(batches).toBeGreaterThanOrEqual(6); // batches of 500, not one giant write
  });

  it('without a host policy every delivery goes through the given client, with the same result', async () => {
    const a = await subscriberHost();
    const http = createHttpClient({ hostPolicy: { allowLoopback: true }, maxSocketsPerHost: 4 });
    open.push({ close: () => http.close() });
    const report = await fanOut(
      { http, clock: systemClock, record: () => undefined, limits: { perHost: 4 } },
      'http://feed.example/rss',
      targets(a.url, 50),
    );
    expect(report).toMatchObject({ delivered: 50, failed: 0 });
    expect(a.connections()).toBeLessThanOrEqual(4);
  });

  it('a refused and a dead subscriber fail with reasons while the others are notified', async () => {
    const a = await subscriberHost();
    const http = createHttpClient({ hostPolicy: { allowLoopback: true } });
    open.push({ close: () => http.close() });
    const results: DeliveryResult[] = [];
    const report = await fanOut(
      {
        http,
        clock: systemClock,
        record: (r) => {
          results.push(...r);
        },
        policy: { allowLoopback: true, allowPrivate: false },
      },
      'http://feed.example/rss',
      [
        ...targets(a.url, 10),
        { id: 100, callbackUrl: 'http://169.254.169.254/cb', protocol: 'http-post', notifyProcedure: null },
        { id: 101, callbackUrl: 'http://127.0.0.1:1/cb', protocol: 'http-post', notifyProcedure: null },
      ],
    );
    expect(report).toMatchObject({ delivered: 10, failed: 2 });
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get(100)?.error).toMatch(/Refused to connect/);
    expect(byId.get(101)?.error).toMatch(/connection refused/);
  });

  it('a stop lets the deliveries in flight finish and starts no more; a close ends them at once', async () => {
    // One socket to the host: one delivery in flight (300 ms), the other four waiting for it.
    const run = async (which: 'signal' | 'endInFlight') => {
      const a = await subscriberHost(300);
      const http = createHttpClient({ hostPolicy: { allowLoopback: true } });
      open.push({ close: () => http.close() });
      const stop = new AbortController();
      const results: DeliveryResult[] = [];
      const fanout = fanOut(
        {
          http,
          clock: systemClock,
          record: (r) => {
            results.push(...r);
          },
          limits: { perHost: 1 },
          policy: { allowLoopback: true, allowPrivate: false },
          // A queue's instance stopping gives `signal`; the cloud closing gives both.
          signal: stop.signal,
          ...(which === 'endInFlight' ? { endInFlight: stop.signal } : {}),
        },
        'http://feed.example/rss',
        targets(a.url, 5),
      );
      await waitFor(() => a.requests.length > 0, 10_000, 'the first delivery in flight');
      stop.abort();
      return { report: await fanout, results };
    };
    const stopped = await run('signal');
    // The one sent was answered and recorded as delivered; the rest were never tried (a queue
    // hands those back for another instance).
    expect(stopped.report).toMatchObject({ delivered: 1, failed: 0 });
    expect(stopped.results).toEqual([expect.objectContaining({ id: 0, ok: true })]);
    const closed = await run('endInFlight');
    expect(closed.report).toMatchObject({ delivered: 0, failed: 1 });
  });

  it('reads a paged source as it goes: every subscriber once, and hosts of later pages get full parallelism', async () => {
    const a = await subscriberHost(1);
    const b = await subscriberHost(3);
    const http = createHttpClient({ hostPolicy: { allowLoopback: true } });
    open.push({ close: () => http.close() });
    // 1,000 on host A first, then 1,000 on B: B arrives while A holds its bound (4) and the
    // other workers had nothing to take; they must wake up for B, not have ended.
    const all = [...targets(a.url, 1000), ...targets(b.url, 1000, 1000)];
    let served = 0;
    let pagesRead = 0;
    across.most = 0;
    const source = async () => {
      pagesRead++;
      const page = all.slice(served, served + 250);
      served += page.length;
      return page;
    };
    const ids: number[] = [];
    const report = await fanOut(
      {
        http,
        clock: systemClock,
        record: (r) => {
          ids.push(...r.map((x) => x.id));
        },
        limits: { perHost: 4, total: 12 },
        policy: { allowLoopback: true, allowPrivate: false },
      },
      'http://feed.example/rss',
      source,
    );
    expect(report).toMatchObject({ subscribers: 2000, delivered: 2000, failed: 0 });
    expect(pagesRead).toBe(9); // eight pages and the empty one that ends it
    expect(ids.sort((x, y) => x - y)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    expect(a.most()).toBeLessThanOrEqual(4);
    expect(b.most()).toBe(4);
    expect(across.most).toBeGreaterThan(4); // A and B at once: the idle workers woke for B
  });
  it('a fan-out soon after another reuses its kept-alive sockets; the owner closing ends them', async () => {
    const a = await subscriberHost();
    const http = createHttpClient({ hostPolicy: { allowLoopback: true } });
    open.push({ close: () => http.close() });
    const run = (endInFlight: AbortSignal) =>
      fanOut(
        {
          http,
          clock: systemClock,
          record: () => undefined,
          limits: { perHost: 2 },
          policy: { allowLoopback: true, allowPrivate: false },
          endInFlight,
        },
        'http://feed.example/rss',
        targets(a.url, 20),
      );
    const owner = new AbortController();
    // One after the other, never overlapping (as an instance answering one ping at a time).
    for (let i = 0; i < 3; i++) expect(await run(owner.signal)).toMatchObject({ delivered: 20 });
    expect(a.connections()).toBeLessThanOrEqual(2);
    // The owner closing (Cloud.close) ends the idle pool: the next fan-out dials afresh.
    owner.abort();
    expect(await run(new AbortController().signal)).toMatchObject({ delivered: 20 });
    expect(a.connections()).toBeGreaterThan(2);
  });
});
