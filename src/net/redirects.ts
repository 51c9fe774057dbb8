/**
 * Redirect rules, as pure functions: which statuses redirect, where a Location points, when the
 * subscription should move (only while every hop so far was permanent), how the method changes,
 * and when credentials may still be sent (never to another origin).
 */

import type { TidingsError } from '../common/errors.ts';
import { badRedirect } from './net-errors.ts';

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
export const PERMANENT_STATUSES = new Set([301, 308]);

export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/** Resolves a (possibly relative) Location against the URL that answered; only http(s) allowed. */
export function resolveLocation(from: URL, location: string): { url: URL } | { error: TidingsError } {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return { error: badRedirect(from, location) };
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') return { error: badRedirect(from, location) };
  // Credentials never come from a Location header; the fragment never goes on the wire.
  next.username = '';
  next.password = '';
  next.hash = '';
  return { url: next };
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * May a request that started at `origin` still carry credentials to `next`? Same origin, or the
 * same host upgraded from http to https on default ports (a common, safer hop). Never a downgrade.
 */
export function mayKeepCredentials(origin: URL, next: URL): boolean {
  if (origin.origin === next.origin) return true;
  return (
    origin.protocol === 'http:' &&
    next.protocol === 'https:' &&
    origin.hostname === next.hostname &&
    (origin.port || DEFAULT_PORT['http:']) === DEFAULT_PORT['http:'] &&
    (next.port || DEFAULT_PORT['https:']) === DEFAULT_PORT['https:']
  );
}

/** Headers that identify the user to an origin: dropped when a redirect leaves it. */
export const ORIGIN_BOUND_HEADERS = ['authorization', 'x-wsse', 'cookie', 'proxy-authorization'];

/** 303 (and 301/302 after a POST, as browsers do) turn into a GET without a body. */
export function methodAfterRedirect(status: number, method: string): { method: string; keepBody: boolean } {
  if (status === 303 && method !== 'GET' && method !== 'HEAD') return { method: 'GET', keepBody: false };
  if ((status === 301 || status === 302) && method === 'POST') return { method: 'GET', keepBody: false };
  return { method, keepBody: true };
}

/** Tracks where a subscription should move: the last permanent hop of an all-permanent prefix. */
export class MoveTracker {
  private allPermanent = true;
  movedTo: URL | null = null;

  hop(status: number, next: URL): void {
    if (this.allPermanent && PERMANENT_STATUSES.has(status)) this.movedTo = next;
    else this.allPermanent = false;
  }
}
