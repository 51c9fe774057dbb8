/**
 * The rssCloud receiver: where clouds call us back (RSSCLOUD.md "Verification" and
 * "Notification"). A Request -> Response handler on a path that carries a per-install secret, so
 * only clouds we gave the callback to can find it. It answers in microseconds and never fetches:
 * a notification for a feed we asked about is handed to `onNotify` (the app maps it to the
 * scheduler's one "fetch now"), everything else is a 404, logged, nothing fetched.
 *
 * Accepted forms, as peers send them:
 * - POST url=<feed> as a form body or in the query string (http-post / https-post);
 * - an XML-RPC methodCall of our notify procedure with one string param (typed or untyped);
 * - GET ?url=<feed>&challenge=<random>: echo the challenge exactly, only for a feed we have a
 *   pending or live request for.
 */
import { timingSafeEqual } from 'node:crypto';
import { type Clock, systemClock } from '../common/clock.ts';
import { forwardedPeer } from '../net/forwarded-peer.ts';
import { maskUrl } from '../net/mask.ts';
import type { ActivityInput } from '../store/realtime.ts';
import { decodeMethodCall, encodeFault, encodeMethodResponse } from '../wire/xmlrpc.ts';

/** The procedure we ask XML-RPC clouds to call (any name XML-RPC allows would do). */
export const DEFAULT_NOTIFY_PROCEDURE = 'tidings.notify';
/** Notifications are a URL; verifications a URL and a short challenge. */
export const DEFAULT_RECEIVER_MAX_BODY_BYTES = 16 * 1024;
const MAX_CHALLENGE_LENGTH = 1024;

export interface ReceiverDeps {
  /** Per-install secret carried in the path ([A-Za-z0-9_-], at least 16 characters). */
  token: string;
  /** True when we have a pending or live request for this exact feed URL. */
  isSubscribed(feedUrl: string): boolean;
  /**
   * A cloud says the feed changed: queue a fetch (must not fetch inline). May return the log's
   * result text (e.g. for a cloud's verification call that needs no fetch); default "fetch queued".
   */
  onNotify(feedUrl: string): string | undefined;
  /** Every call in, as an activity log entry. */
  log(entry: ActivityInput): void;
  maxBodyBytes?: number;
  notifyProcedure?: string;
  clock?: Clock;
}

export interface Receiver {
  /** e.g. /rsscloud/<token>/notify: the callback path we register with clouds. */
  readonly path: string;
  readonly notifyProcedure: string;
  readonly maxBodyBytes: number;
  handle(req: Request, info: { remoteAddress: string }): Promise<Response>;
  /**
   * The same answers on plain values: the socket layer's fast path (serve.ts `raw`), so a storm
   * of notifications costs no Request/Response/Headers/stream objects per call (bench:latency).
   */
  handleRaw(req: RawCall): RawAnswer;
}

/** What the receiver reads of a call; the body is whole (the caller enforced maxBodyBytes). */
export interface RawCall {
  method: string;
  /** Path and query as sent, e.g. /rsscloud/<token>/notify?url=... */
  target: string;
  contentType: string;
  forwardedFor: string | null;
  remoteAddress: string;
  body: Uint8Array;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
  nosniff?: boolean;
}

export function receiverPath(token: string): string {
  return `/rsscloud/${token}/notify`;
}

export function createReceiver(deps: ReceiverDeps): Receiver {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(deps.token)) {
    throw new TypeError('The receiver token must be at least 16 characters of [A-Za-z0-9_-].');
  }
  const path = receiverPath(deps.token);
  const pathBytes = Buffer.from(path);
  const procedure = deps.notifyProcedure ?? DEFAULT_NOTIFY_PROCEDURE;
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_RECEIVER_MAX_BODY_BYTES;
  const clock = deps.clock ?? systemClock;
  const decoder = new TextDecoder();
  // A storm names the same few feeds over and over: mask each once (URL parsing per call showed
  // in the profile). Bounded: cleared when full.
  const maskedUrls = new Map<string, string>();
  const masked = (feedUrl: string): string => {
    let out = maskedUrls.get(feedUrl);
    if (out === undefined) {
      if (maskedUrls.size >= 256) maskedUrls.clear();
      out = maskUrl(feedUrl);
      maskedUrls.set(feedUrl, out);
    }
    return out;
  };

  /** Constant time in the token: the path is the only secret between us and strangers. */
  const isOurPath = (pathname: string): boolean => {
    const given = Buffer.from(pathname);
    return given.length === pathBytes.length && timingSafeEqual(given, pathBytes);
  };

  async function handle(req: Request, info: { remoteAddress: string }): Promise<Response> {
    const url = new URL(req.url);
    // Refused before the body is read, as the socket layer does with a declared length.
    const declared = Number(req.headers.get('content-length'));
    const tooBig = req.method === 'POST' && Number.isFinite(declared) && declared > maxBodyBytes;
    const body =
      req.method === 'POST' && !tooBig && isOurPath(url.pathname)
        ? new Uint8Array(await req.arrayBuffer())
        : new Uint8Array(0);
    const answer = handleCall(
      {
        method: req.method,
        target: `${url.pathname}${url.search}`,
        contentType: req.headers.get('content-type') ?? '',
        forwardedFor: req.headers.get('x-forwarded-for'),
        remoteAddress: info.remoteAddress,
        body,
      },
      tooBig,
    );
    const headers: Record<string, string> = { 'content-type': answer.contentType };
    if (answer.nosniff) headers['x-content-type-options'] = 'nosniff';
    return new Response(answer.body, { status: answer.status, headers });
  }

  function handleCall(call: RawCall, declaredTooBig = false): RawAnswer {
    const started = performance.now();
    const q = call.target.indexOf('?');
    const pathname = q < 0 ? call.target : call.target.slice(0, q);
    const search = q < 0 ? '' : call.target.slice(q);
    if (!isOurPath(pathname)) return notFound();
    const peer = forwardedPeer(call.forwardedFor, call.remoteAddress, 'first');
    const record = (procedureName: string, feedUrl: string | null, result: string, ok: boolean) =>
      deps.log({
        at: clock.now(),
        direction: 'in',
        peer,
        procedure: procedureName,
        feedUrl: feedUrl === null ? null : masked(feedUrl),
        result,
        ok,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
      });

    if (call.method === 'GET' || call.method === 'HEAD')
      return challenge(new URLSearchParams(search), record);
    if (call.method !== 'POST') return notFound();

    const body = call.body;
    if (declaredTooBig || body.byteLength > maxBodyBytes) return tooLarge(record);

    const type = call.contentType.toLowerCase();
    if (type.includes('xml') || startsWithAngle(body)) return xmlRpc(body, record);

    // Some clouds send the form without a content type, or as text/plain: the body is still url=...
    const form =
      type === '' || type.startsWith('application/x-www-form-urlencoded') || type.startsWith('text/plain');
    const feedUrl = (
      (search === '' && form ? onlyUrlParam(body) : null) ?? urlParam(search, form ? body : null)
    ).trim();
    if (!feedUrl) {
      record('notify', null, '400: no url in the notification', false);
      return text(400, 'The notification has no url parameter.');
    }
    return notify('notify', feedUrl, record, THANKS);
  }

  /** The first url parameter of the query, then of the form body; '' when none. */
  function urlParam(search: string, body: Uint8Array | null): string {
    const params = new URLSearchParams(search);
    if (body) for (const [k, v] of new URLSearchParams(decoder.decode(body))) params.append(k, v);
    return params.get('url') ?? '';
  }

  type Recorder = (procedureName: string, feedUrl: string | null, result: string, ok: boolean) => void;

  function challenge(params: URLSearchParams, record: Recorder): RawAnswer {
    const feedUrl = params.get('url')?.trim() ?? '';
    const value = params.get('challenge');
    if (!feedUrl || value === null || value.length > MAX_CHALLENGE_LENGTH) {
      record('challenge', feedUrl || null, '404: not a verification request', false);
      return notFound();
    }
    if (!deps.isSubscribed(feedUrl)) {
      record('challenge', feedUrl, '404: not a feed we asked about', false);
      return notFound();
    }
    record('challenge', feedUrl, 'challenge answered', true);
    // Exactly the challenge, nothing around it: the reference cloud compares for equality.
    return { status: 200, contentType: 'text/plain; charset=utf-8', body: value, nosniff: true };
  }

  function xmlRpc(body: Uint8Array, record: Recorder): RawAnswer {
    const call = decodeMethodCall(body, { maxBytes: maxBodyBytes });
    if (!call.ok) {
      record('xml-rpc', null, `400: ${call.error.message}`, false);
      return fault(400, call.error.message);
    }
    const { methodName, params } = call.value;
    if (methodName.toLowerCase() !== procedure.toLowerCase()) {
      record(methodName, null, `404: "${methodName}" is not our notify procedure`, false);
      return fault(404, `Can't make the call because "${methodName}" is not defined.`);
    }
    const first = params[0];
    if (params.length !== 1 || typeof first !== 'string' || first.trim() === '') {
      record(methodName, null, '400: expected one string parameter, the feed URL', false);
      return fault(400, `Can't call "${methodName}": it takes one parameter, the feed URL.`);
    }
    return notify(methodName, first.trim(), record, xml(200, encodeMethodResponse(true)), true);
  }

  function notify(
    name: string,
    feedUrl: string,
    record: Recorder,
    answer: RawAnswer,
    rpc = false,
  ): RawAnswer {
    if (!deps.isSubscribed(feedUrl)) {
      record(name, feedUrl, '404: not subscribed; nothing fetched', false);
      return rpc
        ? fault(404, 'Not a feed this reader subscribed to.')
        : text(404, 'Not a feed this reader subscribed to.');
    }
    const note = deps.onNotify(feedUrl);
    record(name, feedUrl, typeof note === 'string' ? note : 'fetch queued', true);
    return answer;
  }

  function tooLarge(record: Recorder): RawAnswer {
    record('notify', null, `413: body over ${maxBodyBytes} bytes`, false);
    return text(413, 'Payload Too Large');
  }

  return { path, notifyProcedure: procedure, maxBodyBytes, handle, handleRaw: (call) => handleCall(call) };
}

/** The caller: through a tunnel the socket is loopback and the proxy names the real peer. */
export function peerOf(req: Request, remoteAddress: string): string {
  return forwardedPeer(req.headers.get('x-forwarded-for'), remoteAddress, 'first');
}

/**
 * A body that is exactly `url=<value>` (what clouds send), decoded as URLSearchParams would; null
 * for anything else (more parameters, escapes it cannot read), which the general parser takes. A
 * storm of notifications spent a tenth of the receiver's own time building parameter lists.
 */
export function onlyUrlParam(body: Uint8Array): string | null {
  if (body.length < 4 || body[0] !== 0x75 || body[1] !== 0x72 || body[2] !== 0x6c || body[3] !== 0x3d)
    return null; // not "url="
  let plus = false;
  let escaped = false;
  for (let i = 4; i < body.length; i++) {
    const byte = body[i]!;
    if (byte === 0x26 || byte === 0x3d || byte >= 0x80) return null; // & or = or non-ASCII
    if (byte === 0x2b) plus = true;
    else if (byte === 0x25) escaped = true;
  }
  const raw = Buffer.from(body.buffer, body.byteOffset + 4, body.length - 4).toString('latin1');
  const text = plus ? raw.replaceAll('+', ' ') : raw;
  if (!escaped) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return null; // a malformed escape: URLSearchParams keeps it as it is
  }
}

function startsWithAngle(body: Uint8Array): boolean {
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (
      byte === 0x20 ||
      byte === 0x09 ||
      byte === 0x0a ||
      byte === 0x0d ||
      byte === 0xef ||
      byte === 0xbb ||
      byte === 0xbf
    ) {
      continue; // whitespace and a UTF-8 BOM
    }
    return byte === 0x3c;
  }
  return false;
}

const TEXT = 'text/plain; charset=utf-8';
const XML = 'text/xml; charset=utf-8';
const THANKS: RawAnswer = { status: 200, contentType: TEXT, body: 'Thanks for the notification.' };
const notFound = (): RawAnswer => text(404, 'Not found');

function text(status: number, body: string): RawAnswer {
  return { status, contentType: TEXT, body };
}

function xml(status: number, body: string): RawAnswer {
  return { status, contentType: XML, body };
}

function fault(status: number, message: string): RawAnswer {
  return xml(status, encodeFault(4, message));
}
