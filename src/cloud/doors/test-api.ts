/**
 * The reference cloud's test-only API (rsscloud-server's ENABLE_TEST_API), mounted only with
 * `tidings cloud --test-api`, so the reference's own end-to-end suite can seed and inspect our
 * store. POST with a JSON body; every answer is `{"success": true, ...fields}`, or HTTP 500 with
 * `{"success": false, "error": "..."}`.
 *
 *   /test/clear             forget every subscription and resource
 *   /test/setResource       {feedUrl, resource}       /test/getResource       {feedUrl}
 *   /test/setSubscriptions  {feedUrl, subscriptions}  /test/getSubscriptions  {feedUrl}
 *   /test/getData           every feed: {resource, subscriptions}
 *   /test/removeExpired     the hourly sweep, now
 *
 * The shapes are the reference's JSON (ISO dates, `url` for the callback, WebSub extras under
 * `details`); rows are converted here and written through store methods only.
 */
import { subscriptionJson } from '../pages/status.ts';
import type { CloudStore, ResourceRow, SeedSubscription, SubscriberProtocol } from '../store/store.ts';

const PROTOCOLS: readonly SubscriberProtocol[] = ['http-post', 'https-post', 'xml-rpc', 'websub'];

export interface TestApiDeps {
  store: CloudStore;
  /** The sweep (core.sweep with its store result). */
  sweep: () => Promise<unknown>;
}

/** The answer for `/test/{name}`, or null when there is no such route. */
export async function testApi(deps: TestApiDeps, name: string, body: Buffer): Promise<Response | null> {
  const route = ROUTES[name.toLowerCase()];
  if (!route) return null;
  try {
    const input = body.byteLength > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
    return json(200, { success: true, ...((await route(deps, input)) ?? {}) });
  } catch (e) {
    return json(500, { success: false, error: e instanceof Error ? e.message : String(e) });
  }
}

type Route = (
  deps: TestApiDeps,
  input: Record<string, unknown>,
) => Promise<Record<string, unknown> | undefined>;

const ROUTES: Record<string, Route> = {
  clear: async ({ store }) => {
    await store.clearFeeds();
    return undefined;
  },
  setresource: async ({ store }, input) => {
    const url = feedUrlOf(input);
    const r = (input.resource ?? {}) as Record<string, unknown>;
    await store.putResource({
      url,
      lastHash: typeof r.lastHash === 'string' ? r.lastHash : null,
      lastSize: typeof r.lastSize === 'number' ? r.lastSize : null,
      ctChecks: typeof r.ctChecks === 'number' ? r.ctChecks : 0,
      whenLastCheck: time(r.whenLastCheck),
      ctUpdates: typeof r.ctUpdates === 'number' ? r.ctUpdates : 0,
      whenLastUpdate: time(r.whenLastUpdate),
    });
    return undefined;
  },
  getresource: async ({ store }, input) => {
    const row = await store.getResource(feedUrlOf(input));
    return { found: row !== undefined, resource: row ? resourceJson(row) : null };
  },
  setsubscriptions: async ({ store }, input) => {
    const url = feedUrlOf(input);
    if (!Array.isArray(input.subscriptions)) throw new Error('subscriptions must be an array');
    await store.replaceSubscriptions(url, input.subscriptions.map(fromJson));
    return undefined;
  },
  getsubscriptions: async ({ store }, input) => {
    const url = feedUrlOf(input);
    const subs = (await store.subscriptionsOf(url)).filter((s) => s.state === 'active');
    const found = subs.length > 0 || (await store.getResource(url)) !== undefined;
    return { found, subscriptions: subs.map((sub) => subscriptionJson(sub, 'test')) };
  },
  getdata: async ({ store }) => {
    const data: Record<string, { resource: unknown; subscriptions: unknown[] }> = {};
    const entry = (url: string) => {
      data[url] ??= { resource: null, subscriptions: [] };
      return data[url];
    };
    for (const r of await store.allResources()) entry(r.url).resource = resourceJson(r);
    for (const s of await store.allSubscriptions())
      if (s.state === 'active') entry(s.feedUrl).subscriptions.push(subscriptionJson(s, 'test'));
    return { data };
  },
  removeexpired: async ({ sweep }) => ({ result: await sweep() }),
};

function feedUrlOf(input: Record<string, unknown>): string {
  if (typeof input.feedUrl !== 'string' || input.feedUrl === '') throw new Error('feedUrl is required');
  return input.feedUrl;
}

/** An ISO date (or ms) to ms; absent, unparseable or the epoch (the reference's "never"): null. */
function time(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const ms = typeof v === 'number' ? v : Date.parse(String(v));
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

function resourceJson(r: ResourceRow) {
  return {
    url: r.url,
    lastHash: r.lastHash ?? '',
    lastSize: r.lastSize ?? 0,
    ctChecks: r.ctChecks,
    whenLastCheck: new Date(r.whenLastCheck ?? 0).toISOString(),
    ctUpdates: r.ctUpdates,
    whenLastUpdate: new Date(r.whenLastUpdate ?? 0).toISOString(),
  };
}

function fromJson(raw: unknown): SeedSubscription {
  const j = (raw ?? {}) as Record<string, unknown>;
  if (typeof j.url !== 'string' || j.url === '') throw new Error('a subscription needs its url');
  const protocol = j.protocol as SubscriberProtocol;
  if (!PROTOCOLS.includes(protocol)) throw new Error(`unknown protocol ${String(j.protocol)}`);
  const details = (j.details ?? {}) as Record<string, unknown>;
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    callbackUrl: j.url,
    protocol,
    notifyProcedure: typeof j.notifyProcedure === 'string' ? j.notifyProcedure : null,
    ctUpdates: count(j.ctUpdates),
    ctErrors: count(j.ctErrors),
    ctConsecutiveErrors: count(j.ctConsecutiveErrors),
    whenCreated: time(j.whenCreated) ?? Date.now(),
    whenLastUpdate: time(j.whenLastUpdate),
    whenLastError: time(j.whenLastError),
    whenExpires: time(j.whenExpires) ?? 0,
    secret: typeof details.secret === 'string' ? details.secret : null,
    leaseSeconds: typeof details.leaseSeconds === 'number' ? details.leaseSeconds : null,
    state: 'active',
  };
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
