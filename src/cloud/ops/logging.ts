/**
 * The cloud's log for operators: JSON lines on stdout (pino), one per thing that happened, each
 * with the id of the request that caused it. The lines are the cloud's own log entries
 * (core/log.ts, the same that /viewLog shows: URLs already masked), plus one per request at
 * debug, one when the cloud starts and stops, and errors. Nothing secret is written: URLs go
 * through maskUrl, request bodies (saveRss passwords, WebSub secrets) are never logged.
 */
import type { Writable } from 'node:stream';
import pino, { type DestinationStream, type Logger } from 'pino';
import { describeError } from '../../common/errors.ts';
import { maskUrl } from '../../net/mask.ts';
import type { CloudLogEntry, CloudLogKind } from '../core/log.ts';
import type { LogLevel } from './options.ts';
import { requestContext } from './request-context.ts';

export type { Logger } from 'pino';

/** What a log entry's kind says, and how loud it is. */
const ENTRIES: Record<CloudLogKind, { level: 'debug' | 'info' | 'warn' | 'error'; msg: string }> = {
  subscribe: { level: 'info', msg: 'subscribed' },
  subscribeFailed: { level: 'info', msg: 'registration refused' },
  ping: { level: 'info', msg: 'pinged' },
  pingFailed: { level: 'info', msg: 'ping failed' },
  pingRefused: { level: 'info', msg: 'ping refused' },
  // One per subscriber: a fan-out's summary line (fanout) says how many were and were not reached.
  notify: { level: 'debug', msg: 'notified' },
  notifyFailed: { level: 'debug', msg: 'notification failed' },
  fanout: { level: 'info', msg: 'fan-out done' },
  saveRss: { level: 'info', msg: 'feed saved' },
  saveRssFailed: { level: 'info', msg: 'saveRss refused' },
  xmlrpc: { level: 'debug', msg: 'XML-RPC call' },
  refused: { level: 'info', msg: 'request refused' },
  expired: { level: 'info', msg: 'sweep' },
  websub: { level: 'info', msg: 'WebSub' },
  websubFailed: { level: 'info', msg: 'WebSub request failed' },
  weblogUpdates: { level: 'info', msg: 'weblogUpdates ping' },
  rssPing: { level: 'info', msg: 'RSS Ping' },
  rssPingFailed: { level: 'info', msg: 'RSS Ping refused' },
  // The cloud's own failure (its database away): the operator's business, the cause in detail.
  error: { level: 'error', msg: 'the cloud failed to answer' },
};

/**
 * A logger writing JSON lines to `out`: stdout through pino's asynchronous writer by default
 * (flushed by `flushLogger` before the process exits), or any stream (tests).
 */
export function createLogger(level: LogLevel, out?: Writable): Logger {
  const destination: DestinationStream =
    out && out !== process.stdout ? out : pino.destination({ dest: 1, sync: false });
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** Writes what the logger holds before the process exits (its stdout writer is asynchronous). */
export function flushLogger(logger: Logger): void {
  try {
    logger.flush();
    const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as {
      flushSync?: () => void;
    };
    stream.flushSync?.();
  } catch {
    // Nothing to flush, or stdout went away: nothing more can be said.
  }
}

/** The request id of the work under way, if a request caused it. */
function reqId(): { reqId?: string } {
  const ctx = requestContext.getStore();
  return ctx ? { reqId: ctx.id } : {};
}

/** Writes each of the cloud's log entries as a line (call with `cloud.on('log', ...)`'s entries). */
export function logEntry(logger: Logger, entry: CloudLogEntry): void {
  const { level, msg } = ENTRIES[entry.kind] ?? { level: 'info', msg: entry.kind };
  // The hourly sweep failing is the operator's business (the database, most likely).
  const loud = entry.kind === 'expired' && entry.detail?.startsWith('sweep failed') ? 'error' : level;
  if (!logger.isLevelEnabled(loud)) return;
  const { at: _at, ...fields } = entry;
  logger[loud]({ ...reqId(), ...fields }, msg);
}

/** One line per request (debug): what was asked, how it was answered, how long it took. */
export function logRequest(
  logger: Logger,
  req: { method: string; url: URL; remoteAddress: string; forwardedFor?: string | null },
  status: number,
  ms: number,
): void {
  if (!logger.isLevelEnabled('debug')) return;
  logger.debug(
    {
      ...reqId(),
      method: req.method,
      path: maskUrl(`${req.url.pathname}${req.url.search}`),
      status,
      ms: Math.round(ms * 10) / 10,
      remote: req.remoteAddress,
      // Behind a trusted proxy, who it says it forwarded for (the cloud takes the last entry).
      ...(req.forwardedFor ? { forwardedFor: req.forwardedFor } : {}),
    },
    'request',
  );
}

/** A request the cloud could not answer (a 500): the cause for the operator, masked. */
export function logFailure(logger: Logger, what: string, e: unknown): void {
  logger.error(
    {
      ...reqId(),
      err: { message: describeError(e), stack: e instanceof Error ? maskUrl(e.stack ?? '') : undefined },
    },
    what,
  );
}
