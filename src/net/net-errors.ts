/**
 * The one place where network failures become readable values (STYLE §7, Miniflux's two faces):
 * a stable `http.*` code for the UI and tests, args, a sentence, and the original cause for logs.
 * URLs in messages and args always go through maskUrl; causes never carry request headers.
 *
 * Codes: http.badUrl, http.badRedirect, http.blockedHost, http.tooLarge, http.tooManyRedirects,
 * http.connectTimeout, http.timeout, http.aborted, http.status, http.badEncoding,
 * http.connectionRefused, http.connectionReset, http.dnsFailed, http.unreachable, http.tls,
 * http.badHeader, http.protocol, http.failed.
 */
import { STATUS_CODES } from 'node:http';
import { type TidingsError, tidingsError } from '../common/errors.ts';
import type { AddressClass } from './address-class.ts';
import { maskUrl } from './mask.ts';
import type { HostPolicy } from './types.ts';

/** Carries a TidingsError through sockets and streams (lookup callbacks, stream destroys). */
export class NetFailure extends Error {
  readonly error: TidingsError;
  constructor(error: TidingsError) {
    super(error.message);
    this.name = 'NetFailure';
    this.error = error;
  }
}

export function formatSeconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s} ${s === 1 ? 'second' : 'seconds'}`;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}

function hostOf(url: URL | string): string {
  try {
    return (typeof url === 'string' ? new URL(url) : url).host || String(url);
  } catch {
    return maskUrl(String(url));
  }
}

export function badUrl(url: string, reason: string): TidingsError {
  const masked = maskUrl(url);
  return tidingsError('http.badUrl', `"${masked}" is not a web address Tidings can fetch: ${reason}.`, {
    url: masked,
  });
}

export function badRedirect(from: URL, location: string): TidingsError {
  const masked = maskUrl(location);
  return tidingsError(
    'http.badRedirect',
    `${from.host} redirected to "${masked}", which is not an http or https address.`,
    { url: maskUrl(from.href), location: masked },
  );
}

const CLASS_LABEL: Record<AddressClass, string> = {
  public: 'a public',
  loopback: 'a loopback (this computer)',
  private: 'a private-network',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique-local (private IPv6)',
  metadata: 'a cloud metadata',
  multicast: 'a multicast',
  unspecified: 'an unspecified',
  reserved: 'a reserved',
  invalid: 'an invalid',
};

export function blockedHost(
  host: string,
  address: string,
  kind: AddressClass,
  howToAllow: HostPolicy['howToAllow'] = {},
): TidingsError {
  const how =
    kind === 'loopback' || kind === 'unspecified'
      ? `Addresses on this computer are refused by default; to allow them, ${howToAllow.loopback ?? 'turn on hostPolicy.allowLoopback'}.`
      : kind === 'private' || kind === 'uniqueLocal'
        ? `Private-network addresses are refused by default; to allow them, ${howToAllow.private ?? 'turn on "Allow local network feeds" in Settings (hostPolicy.allowPrivate)'}.`
        : 'Tidings never connects to addresses of this kind.';
  // The host as the person gave it, not what it resolved to: a refusal must not tell a page
  // (or an OPML file) what the local network's names point at.
  return tidingsError(
    'http.blockedHost',
    `Refused to connect to ${host}: it is ${CLASS_LABEL[kind]} address. ${how}`,
    { host, address, kind },
  );
}

export function tooLarge(url: URL | string, maxBytes: number): TidingsError {
  const masked = maskUrl(String(url));
  return tidingsError(
    'http.tooLarge',
    `The response from ${masked} is larger than ${formatBytes(maxBytes)}, the most Tidings reads.`,
    { url: masked, maxBytes },
  );
}

export function tooManyRedirects(url: URL | string, max: number): TidingsError {
  const masked = maskUrl(String(url));
  return tidingsError(
    'http.tooManyRedirects',
    `${masked} redirected more than ${max} times; Tidings stopped following.`,
    { url: masked, max },
  );
}

export function connectTimeout(url: URL, ms: number): TidingsError {
  return tidingsError(
    'http.connectTimeout',
    `Could not connect to ${url.host}: no answer within ${formatSeconds(ms)}.`,
    { host: url.host, url: maskUrl(url.href), timeoutMs: ms },
  );
}

export function totalTimeout(url: URL, ms: number): TidingsError {
  return tidingsError('http.timeout', `${url.host} did not finish answering within ${formatSeconds(ms)}.`, {
    host: url.host,
    url: maskUrl(url.href),
    timeoutMs: ms,
  });
}

export function aborted(url: URL): TidingsError {
  return tidingsError('http.aborted', `The request to ${url.host} was cancelled.`, {
    host: url.host,
    url: maskUrl(url.href),
  });
}

export function badEncoding(url: URL, encoding: string, cause?: unknown): TidingsError {
  return tidingsError(
    'http.badEncoding',
    `The response from ${url.host} could not be decoded (Content-Encoding: ${encoding}).`,
    { host: url.host, url: maskUrl(url.href), encoding },
    cause,
  );
}

export function statusError(status: number, url: URL | string): TidingsError {
  const reason = STATUS_CODES[status];
  return tidingsError('http.status', `The server answered ${status}${reason ? ` ${reason}` : ''}.`, {
    status,
    url: maskUrl(String(url)),
    host: hostOf(url),
  });
}

const TLS_REASONS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  CERT_REVOKED: 'its certificate has been revoked',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT: 'its certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate is not signed by a trusted authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for a different name',
};

function errorCode(err: unknown): string {
  if (!err || typeof err !== 'object') return '';
  const e = err as { code?: unknown; errors?: unknown };
  if (typeof e.code === 'string') return e.code;
  // autoSelectFamily (happy eyeballs) reports every failed address in an AggregateError.
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  return '';
}

/** Maps anything a request can throw to a TidingsError about `url` (the URL being requested). */
export function mapNetError(err: unknown, url: URL): TidingsError {
  if (err instanceof NetFailure) return err.error;
  const code = errorCode(err);
  const host = url.host;
  const args = { host, url: maskUrl(url.href), ...(code ? { errno: code } : {}) };
  const make = (c: string, message: string) => tidingsError(c, message, args, err);
  switch (code) {
    case 'ECONNREFUSED':
      return make('http.connectionRefused', `Could not connect to ${host}: connection refused.`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'UND_ERR_SOCKET':
      return make(
        'http.connectionReset',
        `The connection to ${host} was closed before the answer was complete.`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return make(
        'http.dnsFailed',
        code === 'EAI_AGAIN'
          ? `Could not look up ${url.hostname}: the name server did not answer (try again later).`
          : `Could not find ${url.hostname}: no such host name.`,
      );
    case 'ETIMEDOUT':
      return make('http.connectTimeout', `Could not connect to ${host}: the connection timed out.`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return make('http.unreachable', `Could not reach ${host}: the network has no route to it.`);
    case 'Z_DATA_ERROR':
    case 'Z_BUF_ERROR':
    case 'ERR_BROTLI_DECOMPRESSION_FAILED':
      return make('http.badEncoding', `The response from ${host} could not be decompressed.`);
  }
  if (TLS_REASONS[code]) {
    return make('http.tls', `The secure connection to ${host} failed: ${TLS_REASONS[code]}.`);
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO') {
    return make('http.tls', `The secure connection to ${host} failed: the TLS handshake did not succeed.`);
  }
  if (code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN') {
    return make('http.badHeader', `A header for ${host} contains characters HTTP does not allow.`);
  }
  if (code.startsWith('HPE_') || code === 'ERR_INVALID_HTTP_RESPONSE') {
    return make('http.protocol', `${host} sent an answer that is not valid HTTP.`);
  }
  return make('http.failed', `The request to ${host} failed${code ? ` (${code})` : ''}.`);
}
