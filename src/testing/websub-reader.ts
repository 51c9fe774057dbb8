/**
 * A reader that reads a feed through the strict hub (src/testing/websub-hub.ts), on the driven
 * clock, for the WebSub tests that restart it or attack its callback: the app on a fixed receiver
 * port (so a restart keeps its callback address), its activity log collected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ActivityEntry } from '../app/api.ts';
import { createTidings, type Tidings } from '../app/tidings.ts';
import { ManualClock } from '../common/clock.ts';
import { freePort } from '../net/test-server.ts';
import { type FeedHost, rssFeed, startFeedHost, type TestItem } from './feed-host.ts';
import { waitFor } from './wait.ts';
import { type StrictHub, startStrictHub } from './websub-hub.ts';

const ATOM = 'xmlns:atom="http://www.w3.org/2005/Atom"';

/** An RSS feed naming `hub` (and `self`, when given). */
export function hubbedFeed(hub: StrictHub, items: TestItem[], self?: string): string {
  const selfLink = self ? `<atom:link ${ATOM} rel="self" href="${self}"/>` : '';
  return rssFeed('Hubbed', items, `<atom:link ${ATOM} rel="hub" href="${hub.url}"/>${selfLink}`);
}

export interface WebSubReaderOptions {
  dataDir: string;
  clock: ManualClock;
  /** The receiver's port on 127.0.0.1. */
  port: number;
  /** The public address hubs call (default http://127.0.0.1:<port>). */
  publicBaseUrl?: string;
  activity: ActivityEntry[];
}

export async function startWebSubReader(o: WebSubReaderOptions): Promise<Tidings> {
  const a = createTidings({
    dataDir: o.dataDir,
    clock: o.clock,
    random: () => 0,
    realtime: {
      tunnelHost: false,
      publicBaseUrl: o.publicBaseUrl ?? `http://127.0.0.1:${o.port}`,
      receiverPort: o.port,
    },
  });
  a.on('activity', (e) => o.activity.push(e));
  a.start();
  await a.realtimeStarted();
  return a;
}

/** Subscribes to `url` and waits until the hub serves it; returns the feed's id. */
export async function subscribeLive(a: Tidings, hub: StrictHub, url: string): Promise<number> {
  const res = await a.subscribe({ url });
  if (!res.ok) throw new Error(res.error.message);
  await a.context.scheduler.idle();
  await waitFor(
    async () =>
      (await a.listFeeds()).find((f) => f.id === res.value.id)?.delivery.startsWith(hubLine(hub)) ?? false,
    10_000,
    'WebSub live',
  );
  await hub.idle();
  return res.value.id;
}

/** How the feed row begins while the hub serves it. */
export const hubLine = (hub: StrictHub) => `real-time via WebSub hub ${new URL(hub.url).host}`;

/** What each WebSub reader test starts with: a feed host, a strict hub, data, a port, a clock. */
export interface WebSubWorld {
  host: FeedHost;
  hub: StrictHub;
  dataDir: string;
  port: number;
  clock: ManualClock;
  activity: ActivityEntry[];
  /** The reader the test started (stopped after it). */
  app: Tidings | null;
  /** Starts the reader on this world's data, port and clock (again: a restart). */
  startReader(opts?: { publicBaseUrl?: string }): Promise<Tidings>;
}

/**
 * A fresh world for each test of the file (vitest's beforeEach/afterEach), `/feed.xml` naming the
 * hub; the reader the test started is stopped after it and everything removed.
 */
export function webSubWorld(prefix: string): WebSubWorld {
  const world = { app: null } as WebSubWorld;
  beforeEach(async () => {
    world.host = await startFeedHost();
    world.hub = await startStrictHub();
    world.dataDir = mkdtempSync(join(tmpdir(), prefix));
    world.port = await freePort();
    world.clock = new ManualClock(Date.now());
    world.activity = [];
    world.app = null;
    world.host.set('/feed.xml', hubbedFeed(world.hub, [{ title: 'one', guid: '1' }]));
  });
  afterEach(async () => {
    await world.app?.stop();
    world.app = null;
    await world.hub.close();
    await world.host.close();
    rmSync(world.dataDir, { recursive: true, force: true });
  });
  world.startReader = async (opts = {}) => {
    world.app = await startWebSubReader({ ...world, ...opts });
    return world.app;
  };
  return world;
}
