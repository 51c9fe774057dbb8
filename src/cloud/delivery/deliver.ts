/**
 * Calls from the cloud to a subscriber: the notification (POST `url=<feed>`, or an XML-RPC call
 * of the notify procedure), and the verifications before a subscription is accepted (the same
 * call as a test, or a GET challenge that must be echoed exactly).
 *
 * Redirects are followed here, not by the client, at most 5 hops, re-sending the same request as
 * the reference cloud does (a 302 to a POST handler stays a POST). All hops share one deadline
 * (4 s by default, the reference's per-call budget), so a subscriber cannot stretch it by
 * redirecting.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { fail, ok, type Result, tidingsError } from '../../common/errors.ts';
import type { HttpClient, HttpResponse } from '../../net/http-client-types.ts';
import { decodeMethodResponse, encodeMethodCall, XMLRPC_REQUEST_HEADERS } from '../../wire/xmlrpc.ts';
import type { NotifyProtocol } from '../core/types.ts';

export interface Target {
  callbackUrl: string;
  protocol: NotifyProtocol;
  notifyProcedure: string | null;
}

export interface DeliveryOptions {
  /** Budget for the whole call including redirects (default 4,000 ms, as the reference cloud). */
  timeoutMs?: number;
  /** Redirect hops to follow (default 5). */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export const NOTIFY_TIMEOUT_MS = 4000;
export const MAX_CALLBACK_REDIRECTS = 5;
/** Subscribers' answers are ignored beyond a status (and an XML-RPC fault): read little of them. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface Prepared {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** What a WebSub subscriber receives: the topic's body as read, and its Content-Type. */
export interface TopicContent {
  body: Uint8Array;
  contentType: string | null;
}

/**
 * WebSub content distribution (W3C WebSub 7): the topic's full body with its Content-Type, Link
 * headers naming the hub and the topic, and with a secret `X-Hub-Signature: sha256=<hex HMAC>`.
 * The body goes as `text` when the caller gives it (the lean pool then carries it), else as bytes.
 */
export function contentRequest(
  content: TopicContent,
  topicUrl: string,
  hubUrl: string,
  secret: string | null | undefined,
  text: string | null = null,
): Prepared {
  const headers: Record<string, string> = {
    'content-type': content.contentType ?? 'application/octet-stream',
    link: `<${hubUrl}>; rel="hub", <${topicUrl}>; rel="self"`,
  };
  if (secret)
    headers['x-hub-signature'] = `sha256=${createHmac('sha256', secret).update(content.body).digest('hex')}`;
  return { method: 'POST', headers, body: text ?? content.body };
}

/** The body as a string when it decodes to the same bytes (the common case: UTF-8 feeds). */
export function textIfUtf8(body: Uint8Array): string | null {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return Buffer.byteLength(text) === body.byteLength && !text.includes('\uFFFD') ? text : null;
}

/** One content distribution. `gone` when the subscriber answered 410 (it wants no more). */
export async function deliverContent(
  http: HttpClient,
  callbackUrl: string,
  prepared: Prepared,
  opts: DeliveryOptions = {},
): Promise<Result<void> & { gone?: boolean }> {
  const res = await send(http, callbackUrl, prepared, opts);
  if (res.ok) return ok(undefined);
  return res.error.args?.status === 410 ? { ...res, gone: true } : res;
}

/**
 * WebSub intent verification (W3C WebSub 5.3): `GET {callback}?hub.mode=..&hub.topic=..
 * &hub.challenge=..[&hub.lease_seconds=..]`; confirmed only by a 2xx whose body is exactly the
 * challenge. Redirects are not followed (the callback named is the one verified).
 */
export async function verifyIntent(
  http: HttpClient,
  callbackUrl: string,
  query: { mode: 'subscribe' | 'unsubscribe'; topic: string; leaseSeconds?: number },
  opts: DeliveryOptions = {},
  challenge = makeChallenge(),
): Promise<Result<void>> {
  const url = new URL(callbackUrl);
  url.searchParams.append('hub.mode', query.mode);
  url.searchParams.append('hub.topic', query.topic);
  url.searchParams.append('hub.challenge', challenge);
  if (query.leaseSeconds !== undefined)
    url.searchParams.append('hub.lease_seconds', String(query.leaseSeconds));
  const res = await send(http, url.href, { method: 'GET', headers: {} }, { ...opts, maxRedirects: 0 });
  if (!res.ok) return res;
  if (new TextDecoder().decode(res.value.body) !== challenge) {
    return fail(
      tidingsError('cloud.challengeMismatch', 'The subscriber did not echo the challenge exactly.'),
    );
  }
  return ok(undefined);
}

/** Precomputes the request so a fan-out to 10,000 subscribers builds each body once. */
export function notificationRequest(
  target: Pick<Target, 'protocol' | 'notifyProcedure'>,
  feedUrl: string,
): Result<Prepared> {
  if (target.protocol === 'xml-rpc') {
    try {
      const body = encodeMethodCall(target.notifyProcedure ?? '', [feedUrl]);
      return ok({ method: 'POST', headers: { ...XMLRPC_REQUEST_HEADERS }, body });
    } catch (e) {
      return fail(
        tidingsError(
          'cloud.badProcedure',
          `The notify procedure "${target.notifyProcedure ?? ''}" is not a valid XML-RPC method name.`,
          {},
          e,
        ),
      );
    }
  }
  return ok({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ url: feedUrl }).toString(),
  });
}

/** One notification (or the test call before accepting). Ok on 2xx that is not an XML-RPC fault. */
export async function notifyOne(
  http: HttpClient,
  target: Target,
  feedUrl: string,
  opts: DeliveryOptions = {},
  prepared?: Prepared,
): Promise<Result<void>> {
  const req = prepared ? ok(prepared) : notificationRequest(target, feedUrl);
  if (!req.ok) return req;
  const res = await send(http, target.callbackUrl, req.value, opts);
  if (!res.ok) return res;
  if (target.protocol === 'xml-rpc' && res.value.body.byteLength > 0) {
    const answer = decodeMethodResponse(res.value.body);
    if (answer.ok && answer.value.kind === 'fault') {
      return fail(
        tidingsError(
          'cloud.subscriberFault',
          `The subscriber answered with fault ${answer.value.faultCode}: ${answer.value.faultString}`,
        ),
      );
    }
  }
  return ok(undefined);
}

/** `GET {callback}?url=<feed>&challenge=<random>`; the body must be exactly the challenge. */
export async function challengeOne(
  http: HttpClient,
  callbackUrl: string,
  feedUrl: string,
  opts: DeliveryOptions = {},
  challenge = makeChallenge(),
): Promise<Result<void>> {
  const sep = callbackUrl.includes('?') ? '&' : '?';
  const url = `${callbackUrl}${sep}url=${encodeURIComponent(feedUrl)}&challenge=${encodeURIComponent(challenge)}`;
  const res = await send(http, url, { method: 'GET', headers: {} }, opts);
  if (!res.ok) return res;
  const echoed = new TextDecoder().decode(res.value.body);
  if (echoed !== challenge) {
    return fail(
      tidingsError('cloud.challengeMismatch', 'The subscriber did not echo the challenge exactly.'),
    );
  }
  return ok(undefined);
}

/**
 * The check before accepting (RSSCLOUD.md "Verification"): a named domain over REST gets the GET
 * challenge; otherwise (no domain, or xml-rpc) the handler gets a real test notification.
 */
export function verifyHandler(
  http: HttpClient,
  target: Target,
  feedUrl: string,
  diffDomain: boolean,
  opts: DeliveryOptions = {},
): Promise<Result<void>> {
  if (diffDomain && target.protocol !== 'xml-rpc')
    return challengeOne(http, target.callbackUrl, feedUrl, opts);
  return notifyOne(http, target, feedUrl, opts);
}

/** 20 letters and digits, as the reference cloud's challenge. */
export function makeChallenge(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(40);
  let out = '';
  for (const b of bytes) {
    if (b < 248) out += alphabet[b % 62];
    if (out.length === 20) break;
  }
  return out.length === 20 ? out : makeChallenge();
}

async function send(
  http: HttpClient,
  startUrl: string,
  req: Prepared,
  opts: DeliveryOptions,
): Promise<Result<HttpResponse>> {
  const maxRedirects = opts.maxRedirects ?? MAX_CALLBACK_REDIRECTS;
  let remaining = opts.timeoutMs ?? NOTIFY_TIMEOUT_MS;
  let url = startUrl;
  for (let hop = 0; ; hop++) {
    const res = await http.request({
      method: req.method,
      url,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      timeoutMs: Math.max(1, remaining),
      maxBodyBytes: MAX_ANSWER_BYTES,
      maxRedirects: 0,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (!res.ok) return res;
    const { status, headers, elapsedMs } = res.value;
    remaining -= elapsedMs;
    if (status >= 300 && status < 400 && headers.location) {
      if (hop >= maxRedirects) {
        return fail(
          tidingsError(
            'cloud.tooManyRedirects',
            `The subscriber redirected more than ${maxRedirects} times.`,
          ),
        );
      }
      if (remaining <= 0)
        return fail(tidingsError('cloud.timeout', 'The subscriber did not answer in time.'));
      try {
        url = new URL(headers.location, url).href;
      } catch {
        return fail(
          tidingsError('cloud.badRedirect', 'The subscriber redirected to an address that is not a URL.'),
        );
      }
      continue;
    }
    if (status < 200 || status > 299) {
      return fail(
        tidingsError('cloud.subscriberStatus', `The subscriber answered HTTP ${status}.`, { status }),
      );
    }
    return ok(res.value);
  }
}
