/**
 * A WebSub hub for tests and the latency bench, on 127.0.0.1, written to the spec's strictest
 * reading (W3C WebSub §5-§8, RSSCLOUD.md "WebSub", as the reference hub behaves):
 * - subscribe/unsubscribe: a form POST; 400 unless hub.mode, hub.topic and an absolute http(s)
 *   hub.callback are there, hub.secret is under 200 bytes and only over an https callback;
 *   otherwise 202, and the verification follows out of band, after the answer;
 * - verification: GET callback?hub.mode&hub.topic&hub.challenge&hub.lease_seconds with the lease
 *   clamped to [5 min, 10 days] (1 day when none asked); only a 2xx whose body is exactly the
 *   challenge counts (no trimming, no "contains");
 * - denial (`deny`): hub.mode=denied&hub.topic&hub.reason instead of a verification;
 * - publish: hub.mode=publish&hub.topic (or hub.url): 202, then the topic is fetched once and its
 *   body POSTed to every verified subscriber with its Content-Type, Link rel=hub and rel=self,
 *   and X-Hub-Signature when the subscriber gave a secret.
 * Knobs make it misbehave the ways real hubs do (never verify, verify twice, deliver junk).
 */
import { randomBytes } from 'node:crypto';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { type RunningServer, serve } from '../net/serve.ts';
import { signBody } from '../realtime/websub/signature.ts';
import { resolveLocalhostSubdomains } from './localhost-http.ts';

export const MIN_LEASE = 300;
export const MAX_LEASE = 864_000;
export const DEFAULT_LEASE = 86_400;

export interface HubSubscription {
  callback: string;
  topic: string;
  secret: string | null;
  leaseSeconds: number;
  verifiedAt: number;
}

export interface Verification {
  callback: string;
  mode: string;
  challenge: string;
  status: number | null;
  body: string;
  accepted: boolean;
}

export interface Delivery {
  callback: string;
  topic: string;
  status: number | null;
  bytes: number;
  /** ms from the publish (or deliver call) to the subscriber's answer. */
  ms: number;
}

export interface StrictHub {
  /** The hub's address (what rel="hub" names). */
  url: string;
  requests: { mode: string; params: Record<string, string>; status: number }[];
  verifications: Verification[];
  deliveries: Delivery[];
  subscriptions(): HubSubscription[];
  /** Misbehaviour knobs. */
  knobs: {
    deny: string | null;
    neverVerify: boolean;
    verifyTwice: boolean;
    /** Keep verifications until `releaseVerifications()` (a hub slow to verify; a reader dies meanwhile). */
    holdVerifications: boolean;
    /** Sign with this method (default sha256). */
    method: 'sha1' | 'sha256' | 'sha384' | 'sha512';
    /** Rewrite a callback before dialling it (an https public address -> the receiver on loopback). */
    reach: (callback: string) => string;
  };
  /** POSTs `body` as the topic's new content to every verified subscriber; resolves when answered. */
  deliver(
    topic: string,
    body: string | Uint8Array,
    opts?: { type?: string; signature?: string | null; self?: string; to?: string },
  ): Promise<Delivery[]>;
  /** Verifications held back by `knobs.holdVerifications` (how many). */
  heldVerifications(): number;
  /** Sends the held verifications now, oldest first; resolves when they have been answered. */
  releaseVerifications(): Promise<void>;
  /** Resolves when every verification and delivery started so far has been answered. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startStrictHub(opts: { http?: HttpClient } = {}): Promise<StrictHub> {
  const own = !opts.http;
  const http =
    opts.http ??
    resolveLocalhostSubdomains(
      createHttpClient({ hostPolicy: { allowLoopback: true }, maxSocketsPerHost: 64 }),
    );
  const subs = new Map<string, HubSubscription>(); // key: callback + topic
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  };
  let url = '';
  const held: (() => Promise<void>)[] = [];
  const hub: StrictHub = {
    url: '',
    requests: [],
    verifications: [],
    deliveries: [],
    subscriptions: () => [...subs.values()],
    knobs: {
      deny: null,
      neverVerify: false,
      verifyTwice: false,
      holdVerifications: false,
      method: 'sha256',
      reach: (c) => c,
    },
    heldVerifications: () => held.length,
    async releaseVerifications() {
      for (const send of held.splice(0)) await track(send());
    },
    deliver: (topic, body, o = {}) => track(deliverAll(topic, body, o)),
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      await hub.idle();
      await server.close();
      if (own) http.close();
    },
  };

  async function verify(
    mode: string,
    callback: string,
    topic: string,
    lease: number | null,
    secret: string | null,
  ) {
    const challenge = randomBytes(12).toString('hex');
    const target = new URL(hub.knobs.reach(callback));
    target.searchParams.set('hub.mode', mode);
    target.searchParams.set('hub.topic', topic);
    target.searchParams.set('hub.challenge', challenge);
    if (lease !== null) target.searchParams.set('hub.lease_seconds', String(lease));
    const res = await http.request({ method: 'GET', url: target.href, timeoutMs: 5_000 });
    const status = res.ok ? res.value.status : null;
    const text = res.ok ? new TextDecoder().decode(res.value.body) : '';
    const accepted = status !== null && status >= 200 && status < 300 && text === challenge;
    hub.verifications.push({ callback, mode, challenge, status, body: text, accepted });
    if (!accepted) return;
    const key = `${callback} ${topic}`;
    if (mode === 'subscribe')
      subs.set(key, {
        callback,
        topic,
        secret,
        leaseSeconds: lease ?? DEFAULT_LEASE,
        verifiedAt: Date.now(),
      });
    else subs.delete(key);
  }

  async function deny(callback: string, topic: string, reason: string) {
    const target = new URL(hub.knobs.reach(callback));
    target.searchParams.set('hub.mode', 'denied');
    target.searchParams.set('hub.topic', topic);
    target.searchParams.set('hub.reason', reason);
    const res = await http.request({ method: 'GET', url: target.href, timeoutMs: 5_000 });
    hub.verifications.push({
      callback,
      mode: 'denied',
      challenge: '',
      status: res.ok ? res.value.status : null,
      body: '',
      accepted: false,
    });
  }

  async function deliverAll(
    topic: string,
    body: string | Uint8Array,
    o: { type?: string; signature?: string | null; self?: string; to?: string },
  ): Promise<Delivery[]> {
    const started = performance.now();
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    const out = await Promise.all(
      [...subs.values()]
        .filter((s) => s.topic === topic && (o.to === undefined || s.callback === o.to))
        .map(async (s) => {
          const headers: Record<string, string> = {
            'content-type': o.type ?? 'application/rss+xml; charset=utf-8',
            link: `<${url}>; rel="hub", <${o.self ?? topic}>; rel="self"`,
          };
          const sig =
            o.signature === undefined
              ? s.secret
                ? signBody(hub.knobs.method, s.secret, bytes)
                : null
              : o.signature;
          if (sig) headers['x-hub-signature'] = sig;
          const res = await http.request({
            method: 'POST',
            url: hub.knobs.reach(s.callback),
            headers,
            body: bytes,
            timeoutMs: 10_000,
          });
          const d: Delivery = {
            callback: s.callback,
            topic,
            status: res.ok ? res.value.status : null,
            bytes: bytes.byteLength,
            ms: performance.now() - started,
          };
          hub.deliveries.push(d);
          return d;
        }),
    );
    return out;
  }

  async function publish(topic: string) {
    const res = await http.fetchFeed({ url: topic });
    if (res.kind !== 'ok') return;
    await deliverAll(topic, res.body, { type: res.contentType ?? undefined });
  }

  const server: RunningServer = await serve(
    async (req) => {
      if (req.method !== 'POST') return new Response('This is a WebSub hub: POST a form.', { status: 405 });
      const params = new URLSearchParams(await req.text());
      const mode = params.get('hub.mode') ?? '';
      const record = (status: number, text: string) => {
        hub.requests.push({ mode, params: Object.fromEntries(params), status });
        return new Response(text, { status, headers: { 'content-type': 'text/plain' } });
      };
      if (mode === 'publish') {
        const topic = params.get('hub.topic') ?? params.get('hub.url') ?? '';
        if (!isHttp(topic)) return record(400, 'hub.topic must be an http(s) URL');
        setImmediate(() => void track(publish(topic)));
        return record(202, '');
      }
      if (mode !== 'subscribe' && mode !== 'unsubscribe') return record(400, `unknown hub.mode "${mode}"`);
      const callback = params.get('hub.callback') ?? '';
      const topic = params.get('hub.topic') ?? '';
      const secret = params.get('hub.secret');
      if (!isHttp(callback)) return record(400, 'hub.callback must be an absolute http(s) URL');
      if (!isHttp(topic)) return record(400, 'hub.topic must be an http(s) URL');
      if (secret !== null && Buffer.byteLength(secret) >= 200)
        return record(400, 'hub.secret must be under 200 bytes');
      if (secret !== null && !callback.startsWith('https:'))
        return record(400, 'hub.secret is only allowed with an https callback');
      const asked = params.get('hub.lease_seconds');
      const lease =
        mode === 'unsubscribe'
          ? null
          : asked === null || !/^\d+$/.test(asked)
            ? DEFAULT_LEASE
            : Math.min(MAX_LEASE, Math.max(MIN_LEASE, Number(asked)));
      // Out of band: after the 202 has gone.
      setImmediate(() => {
        if (hub.knobs.deny !== null && mode === 'subscribe') {
          void track(deny(callback, topic, hub.knobs.deny));
          return;
        }
        if (hub.knobs.neverVerify) return;
        const send = async () => {
          await verify(mode, callback, topic, lease, secret);
          if (hub.knobs.verifyTwice) await verify(mode, callback, topic, lease, secret);
        };
        if (hub.knobs.holdVerifications) held.push(send);
        else void track(send());
      });
      return record(202, '');
    },
    { maxBodyBytes: 64 * 1024 },
  );
  url = `${server.url}/`;
  hub.url = url;
  return hub;
}

function isHttp(u: string): boolean {
  try {
    const p = new URL(u).protocol;
    return p === 'http:' || p === 'https:';
  } catch {
    return false;
  }
}
