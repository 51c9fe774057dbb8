/**
 * The request a piece of work belongs to: its id (in every log line it causes, and in the
 * answer's X-Request-Id) and the door it came in by (the protocol label of /metrics' pings).
 * Carried by AsyncLocalStorage, so the core needs no parameter for it: a log entry or a ping
 * counted while a request's work runs (its fan-out included) finds it here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Door } from '../routes.ts';

export interface RequestContext {
  id: string;
  door: Door;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** This process's prefix and a counter: unique across instances, cheap per request. */
const PREFIX = randomBytes(4).toString('hex');
let next = 0;

/** An id a proxy sent (X-Request-Id), when trusted and well-formed; else a new one. */
export function requestIdFor(headers: Headers, trustProxy: boolean): string {
  if (trustProxy) {
    const given = headers.get('x-request-id');
    if (given && /^[\w.:@/+=-]{1,128}$/.test(given)) return given;
  }
  next = (next + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}-${next.toString(36)}`;
}
