/**
 * What load balancers, container runtimes and service managers ask: /healthz, the process is
 * alive and answering (nothing else is looked at: restarting it would not bring a database back);
 * /readyz, it can serve, its store answers a trivial statement within a deadline (503 while the
 * database is away, so a balancer sends the traffic to other instances). The answers name no
 * address or driver error (they may be public): the cause goes to the log.
 */

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function healthz(startedAt: number, now: number): Response {
  return new Response(
    `${JSON.stringify({ alive: true, uptimeSeconds: Math.round((now - startedAt) / 1000) })}\n`,
    {
      headers: HEADERS,
    },
  );
}

export interface Readiness {
  ready: boolean;
  /** 'sqlite' or 'postgres'. */
  store: string;
  /** How long the store took to answer, or how long it was waited for. */
  ms: number;
  /** Why not ready, in words that name no address (e.g. "the database did not answer within 2 s"). */
  reason?: string;
}

export function readyz(r: Readiness): Response {
  return new Response(`${JSON.stringify(r)}\n`, { status: r.ready ? 200 : 503, headers: HEADERS });
}
