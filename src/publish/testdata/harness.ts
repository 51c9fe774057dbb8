/**
 * A Publisher on real loopback sockets for the publish tests (and the kill -9 child): its hosted
 * site served by the real hosting handler under /site, a real HTTP client allowed onto loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostView, PublishSettings } from '../../app/api.ts';
import { systemClock } from '../../common/clock.ts';
import { createHttpClient } from '../../net/http-client.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { type RunningServer, serve } from '../../net/serve.ts';
import { createHostingHandler, SITE_PREFIX } from '../hosting.ts';
import { Publisher } from '../publisher.ts';
import { DEFAULT_PUBLISH_SETTINGS } from '../settings.ts';

export interface Harness {
  publisher: Publisher;
  dir: string;
  /** http://127.0.0.1:port of the hosting server */
  base: string;
  http: HttpClient;
  changes: PostView[];
  /** Pretends the public address changed (a new tunnel URL). */
  setPublicBase(url: string | null): void;
  close(): Promise<void>;
}

export async function startHarness(
  settings: Partial<PublishSettings>,
  opts: { dir?: string; leaseMs?: number; start?: boolean; publicBase?: boolean; maxAttempts?: number } = {},
): Promise<Harness> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'tidings-publisher-'));
  const http = createHttpClient({ hostPolicy: { allowLoopback: true, allowPrivate: true } });
  let server: RunningServer | null = null;
  let publicOverride: string | null | undefined;
  const changes: PostView[] = [];
  const publisher = new Publisher({
    dbPath: join(dir, 'publish.db'),
    mediaDir: join(dir, 'media'),
    http,
    clock: systemClock,
    generator: 'Tidings test',
    publicBase: () => (publicOverride !== undefined ? publicOverride : opts.publicBase === false ? null : (server?.url ?? null)),
    localBase: () => server?.url ?? null,
    ownCloud: () => null,
    blogroll: () => null,
    onChange: (v) => changes.push(v),
    onDeleted: () => {},
    retry: { baseMs: 40, capMs: 150, ...(opts.maxAttempts ? { maxAttempts: opts.maxAttempts } : {}) },
    leaseMs: opts.leaseMs ?? 30_000,
    pollMs: 50,
  });
  // Settings written as they are, without the rebuild an API update queues.
  publisher.store.setValue('settings', { ...DEFAULT_PUBLISH_SETTINGS, ...settings });
  const hosting = createHostingHandler({
    store: publisher.store,
    mediaDir: join(dir, 'media'),
    now: () => Date.now(),
    login: () => publisher.settings().hosting.private,
  });
  server = await serve((req, info) => {
    const url = new URL(req.url);
    if (!url.pathname.startsWith(`${SITE_PREFIX}/`)) return new Response('nope', { status: 404 });
    url.pathname = url.pathname.slice(SITE_PREFIX.length);
    return hosting(new Request(url, req), info);
  });
  if (opts.start !== false) publisher.start();
  return {
    publisher,
    dir,
    base: server.url,
    http,
    changes,
    setPublicBase(url) {
      publicOverride = url;
    },
    async close() {
      await publisher.stop();
      await server?.close();
      http.close();
    },
  };
}

/** Waits (bounded) until the post reaches a state. */
export async function untilState(h: Harness, id: number, state: PostView['state'], timeoutMs = 10_000): Promise<PostView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = h.publisher.get(id);
    if (v?.state === state) return v;
    if (Date.now() > deadline) throw new Error(`post ${id} is ${v?.state}, not ${state}: ${JSON.stringify(v?.pings ?? v?.saves)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
