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

/** The asynchronous stdout writers this module made, by their logger (a caller's stream is its own). */
const ownWriters = new WeakMap<Logger, pino.DestinationStream & SonicBoomLike>();

/** What is used of pino's asynchronous writer (sonic-boom) to close it in order. */
interface SonicBoomLike {
  end(): void;
  once(event: 'close' | 'error', listener: () => void): void;
}

/**
 * A logger writing JSON lines to `out`: stdout through pino's asynchronous writer by default
 * (closed in order by `closeLogger` before the process exits), or any stream (tests).
 */
export function createLogger(level: LogLevel, out?: Writable): Logger {
  const own = out && out !== process.stdout ? null : pino.destination({ dest: 1, sync: false });
  const destination: DestinationStream = own ?? (out as Writable);
  const logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  if (own) ownWriters.set(logger, own as unknown as pino.DestinationStream & SonicBoomLike);
  return logger;
}

/**
 * Writes what the logger holds at once, for a process about to exit on an emergency. A line whose
 * asynchronous write is under way may then come after later ones: closeLogger keeps the order.
 */
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

/**
 * Ends the logger's output once every line has been written, in the order logged (stdout is
 * written asynchronously: flushing synchronously while a write was under way put "SIGINT
 * received" after "Cloud stopped." on a loaded machine). The logger writes nothing after. Waits
 * at most `waitMs` (stdout gone, a reader stalled), then writes what is left synchronously.
 */
export async function closeLogger(logger: Logger, waitMs = 2_000): Promise<void> {
  const own = ownWriters.get(logger);
  if (!own) return;
  ownWriters.delete(logger);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), waitMs);
    const done = (ok: boolean) => () => {
      clearTimeout(timer);
      resolve(ok);
    };
    own.once('close', done(true));
    own.once('error', done(false));
    try {
      own.end();
    } catch {
      done(false)();
    }
  });
  if (!closed) flushLogger(logger);
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
