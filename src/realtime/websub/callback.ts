/**
 * Where hubs call us (WebSub §5.3 and §8), at <public address>/websub/<callback id>, one
 * unguessable id per subscription:
 * - GET: the hub verifies a subscribe or unsubscribe we asked for (or denies one): exactly the
 *   challenge back, or 404 (WebSubManager.verify decides);
 * - POST: the hub delivers the topic's whole new body. With a secret, X-Hub-Signature must match,
 *   else the body is acknowledged (2xx, as the spec says) and ignored. The body goes to the
 *   delivery queue, which parses it into the store: no second fetch. A Link self naming another
 *   topic: 404, logged, nothing stored. A callback id we do not hold (any more): 410 Gone, which
 *   tells the hub to drop the subscription (an unsubscribe lost to a crash ends there).
 * Nothing a caller sends makes us fetch before its signature is checked: a body too large to
 * check, on a subscription that owes one, is refused and nothing is fetched. The fetches a
 * delivery may fall back to (too large, empty, not a feed) go through `fetchNow`, which the owner
 * rate-limits per feed (reading.ts), since anyone who learns an unsigned callback can call it.
 * Every call is logged. The hub gets its answer before the body is parsed.
 */
import type { Clock } from '../../common/clock.ts';
import { maskUrl } from '../../net/mask.ts';
import type { Handler } from '../../net/serve.ts';
import type { ActivityInput } from '../../store/realtime.ts';
import type { WebSubRow } from '../../store/websub.ts';
import { peerOf } from '../receiver.ts';
import type { DeliveryQueue } from './delivery-queue.ts';
import { parseLinkHeader } from './link-header.ts';
import { checkSignature } from './signature.ts';
import type { WebSubManager } from './websub-subscriptions.ts';

/** Where WebSub callbacks live on the receiver's server. */
export const WEBSUB_PREFIX = '/websub';
/** A delivery is a whole feed: beyond this it is refused (413) and the feed fetched instead. */
export const DEFAULT_DELIVERY_MAX_BYTES = 8 * 1024 * 1024;

export interface WebSubCallbackDeps {
  manager: WebSubManager;
  queue: DeliveryQueue;
  clock: Clock;
  log(entry: ActivityInput): void;
  /** A delivery too big to take (and owing no signature): the feed is fetched instead. */
  fetchNow(feedId: number): void;
  maxBodyBytes?: number;
}

export interface WebSubCallback {
  /** Takes paths without the prefix: /<callback id>. */
  handle: Handler;
  /** The socket layer refused a body over the cap before routing: log it, fetch instead. */
  tooLarge(path: string, remoteAddress: string): void;
  readonly maxBodyBytes: number;
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };

export function createWebSubCallback(deps: WebSubCallbackDeps): WebSubCallback {
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_DELIVERY_MAX_BYTES;

  const answer = (status: number, body = '') => new Response(body, { status, headers: TEXT });

  function record(
    peer: string,
    procedure: string,
    topic: string | null,
    result: string,
    ok: boolean,
    started: number,
  ): void {
    deps.log({
      at: deps.clock.now(),
      direction: 'in',
      peer,
      procedure,
      feedUrl: topic === null ? null : maskUrl(topic),
      result,
      ok,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
    });
  }

  const idOf = (pathname: string): string | null => {
    const m = /^\/([A-Za-z0-9_-]{16,64})$/.exec(pathname);
    return m ? m[1]! : null;
  };

  const handle: Handler = async (req, info) => {
    const started = performance.now();
    const url = new URL(req.url);
    const peer = peerOf(req, info.remoteAddress);
    const id = idOf(url.pathname);
    if (req.method === 'GET' || req.method === 'HEAD') {
      const topic = url.searchParams.get('hub.topic');
      const mode = url.searchParams.get('hub.mode') ?? '';
      if (!id) {
        record(peer, 'websub verify', topic, '404: not one of our callbacks', false, started);
        return answer(404, 'Not found');
      }
      const v = deps.manager.verify(id, url.searchParams);
      record(peer, `websub verify ${mode}`.trim(), topic, v.ok ? v.note : `404: ${v.note}`, v.ok, started);
      if (!v.ok) return answer(404, 'Not found');
      // Exactly the challenge, nothing around it (the strictest hubs compare for equality).
      return answer(200, v.challenge);
    }
    if (req.method !== 'POST') return answer(405, 'Method Not Allowed');
    const row = id ? deps.manager.rowByCallback(id) : null;
    if (!row) {
      if (!id) {
        record(peer, 'websub deliver', null, '404: not one of our callbacks; ignored', false, started);
        return answer(404, 'Not found');
      }
      record(
        peer,
        'websub deliver',
        null,
        '410: a delivery for a subscription we do not have (any more); ignored',
        false,
        started,
      );
      return answer(410, 'Gone');
    }
    const declared = Number(req.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      refuseTooBig(row, peer, started);
      return answer(413, 'Payload Too Large');
    }
    const body = new Uint8Array(await req.arrayBuffer());
    if (body.byteLength > maxBodyBytes) {
      refuseTooBig(row, peer, started);
      return answer(413, 'Payload Too Large');
    }
    if (signatureOwed(row)) {
      const sig = checkSignature(req.headers.get('x-hub-signature'), row.secret!, body);
      if (!sig.ok) {
        record(
          peer,
          'websub deliver',
          row.topic,
          `ignored: ${sig.why} (acknowledged, as the spec says)`,
          false,
          started,
        );
        return answer(202, 'Accepted');
      }
    }
    const link = req.headers.get('link');
    const self = parseLinkHeader(link, row.topic).self;
    if (self !== null && !sameUrl(self, row.topic)) {
      record(
        peer,
        'websub deliver',
        self,
        `404: a delivery for a topic we never asked for; ignored`,
        false,
        started,
      );
      return answer(404, 'Not found');
    }
    deps.manager.delivered(row.feedId);
    const note = deps.queue.push(row.feedId, body, req.headers.get('content-type'), link);
    record(peer, 'websub deliver', row.topic, `${body.byteLength} bytes: ${note}`, true, started);
    return answer(202, 'Accepted');
  };

  /**
   * A body over the cap. Unsigned subscriptions fetch the feed instead (rate-limited by the
   * owner); one that owes a signature cannot have it checked, so nothing is fetched: a stranger
   * must not be able to make us fetch by declaring a large body (issue 31).
   */
  function refuseTooBig(row: WebSubRow, peer: string, started: number): void {
    const owed = signatureOwed(row);
    record(
      peer,
      'websub deliver',
      row.topic,
      owed
        ? `413: body over ${maxBodyBytes} bytes refused; its signature cannot be checked, so nothing is fetched`
        : `413: body over ${maxBodyBytes} bytes refused; the feed is fetched instead`,
      false,
      started,
    );
    if (!owed) deps.fetchNow(row.feedId);
  }

  return {
    handle,
    maxBodyBytes,
    tooLarge(path, remoteAddress) {
      const started = performance.now();
      const id = idOf(path.replace(/\?.*$/, '').slice(WEBSUB_PREFIX.length));
      const row = id ? deps.manager.rowByCallback(id) : null;
      const peer = remoteAddress.replace(/^::ffff:/, '') || 'unknown';
      if (row) refuseTooBig(row, peer, started);
      else
        record(
          peer,
          'websub deliver',
          null,
          '413: an oversized body for no subscription of ours',
          false,
          started,
        );
    },
  };
}

/** The secret was given only over https: only then is a signature owed. */
function signatureOwed(row: WebSubRow): boolean {
  return row.secret !== null && row.callbackUrl?.startsWith('https:') === true;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}
