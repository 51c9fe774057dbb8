/**
 * The cloud's handler as `tidings cloud` serves it: each request gets an id (answered as
 * X-Request-Id, carried by every log line its work writes) and its door (request-context.ts), is
 * counted for /metrics and logged at debug; and the operator's routes (/healthz, /readyz,
 * /metrics) are answered here, beside the doors or on an admin port of their own.
 */
import type { Handler } from '../../net/serve.ts';
import type { Cloud } from '../cloud.ts';
import { healthz, readyz } from '../pages/health.ts';
import { metricsPage } from '../pages/metrics.ts';
import { doorOf } from '../routes.ts';
import { within } from './deadline.ts';
import { type Logger, logFailure, logRequest } from './logging.ts';
import type { CloudMetrics } from './metrics.ts';
import { requestContext, requestIdFor } from './request-context.ts';

/** How long /readyz waits for the store (a balancer's check usually allows a few seconds). */
const READY_DEADLINE_MS = 2000;

export interface OpsDeps {
  cloud: Cloud;
  logger: Logger;
  /** null: --no-metrics (GET /metrics is 404). */
  metrics: CloudMetrics | null;
  trustProxy: boolean;
  startedAt: number;
  readyDeadlineMs?: number;
}

const ADMIN_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Answers /healthz, /readyz and /metrics; null for any other path. */
function adminRoutes(deps: OpsDeps): (req: Request) => Promise<Response> | null {
  let wasReady: boolean | null = null;
  return (req) => {
    const path = new URL(req.url).pathname;
    if (!ADMIN_PATHS.has(path)) return null;
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return Promise.resolve(
        new Response('Method Not Allowed\n', { status: 405, headers: { allow: 'GET, HEAD' } }),
      );
    if (path === '/healthz') return Promise.resolve(healthz(deps.startedAt, Date.now()));
    if (path === '/metrics') {
      if (!deps.metrics)
        return Promise.resolve(new Response('Not Found (metrics are off)\n', { status: 404 }));
      return deps.metrics.text().then(metricsPage);
    }
    return (async () => {
      const started = performance.now();
      const deadline = deps.readyDeadlineMs ?? READY_DEADLINE_MS;
      const probe = await within(deps.cloud.store.probe(), deadline);
      const ms = Math.round(performance.now() - started);
      // Said once when it changes, not at every check: the cause for the operator, masked.
      if (probe.ok !== wasReady) {
        if (probe.ok) deps.logger.info({ store: deps.cloud.store.kind, ms }, 'ready: the store answers');
        else
          deps.logger.warn(
            { store: deps.cloud.store.kind, cause: probe.reason },
            'not ready: the store does not answer',
          );
        wasReady = probe.ok;
      }
      return readyz({
        ready: probe.ok,
        store: deps.cloud.store.kind,
        ms,
        ...(probe.ok
          ? {}
          : {
              reason: probe.timedOut
                ? `the database did not answer within ${deadline / 1000} s`
                : 'the database refused or could not be reached',
            }),
      });
    })();
  };
}

/**
 * The handler served: with `admin` the operator's routes answer on this listener too (no
 * --admin-port); without, they are the admin listener's alone (404 here, like any unknown path).
 */
export function opsHandler(deps: OpsDeps, opts: { admin: boolean }): Handler {
  const admin = opts.admin ? adminRoutes(deps) : null;
  const { logger, metrics, cloud, trustProxy } = deps;
  return (req, info) => {
    const started = performance.now();
    const url = new URL(req.url);
    const id = requestIdFor(req.headers, trustProxy);
    const adminAnswer = admin?.(req) ?? null;
    const door = adminAnswer ? 'admin' : doorOf(url.pathname);
    return requestContext.run({ id, door: door === 'admin' ? 'page' : door }, async () => {
      let res: Response;
      try {
        res = await (adminAnswer ?? cloud.handle(req, info));
      } catch (e) {
        logFailure(logger, 'request failed', e);
        res = new Response('Internal Server Error\n', { status: 500 });
      }
      try {
        res.headers.set('x-request-id', id);
      } catch {
        // A response with immutable headers (none of ours today): it goes without.
      }
      metrics?.answered(door, res.status);
      logRequest(
        logger,
        {
          method: req.method,
          url,
          remoteAddress: info.remoteAddress,
          forwardedFor: trustProxy ? req.headers.get('x-forwarded-for') : null,
        },
        res.status,
        performance.now() - started,
      );
      return res;
    });
  };
}

/** The admin listener's handler (--admin-port): the operator's routes, 404 for the rest. */
export function adminHandler(deps: OpsDeps): Handler {
  const admin = adminRoutes(deps);
  return async (req) => {
    const answer = admin(req);
    const res = answer ? await answer : new Response('Not Found\n', { status: 404 });
    deps.metrics?.answered('admin', res.status);
    return res;
  };
}
