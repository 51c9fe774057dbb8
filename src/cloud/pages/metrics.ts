/** GET /metrics: the exposition ops/metrics.ts writes, in Prometheus' text format, never cached. */
export function metricsPage(exposition: { contentType: string; body: string }): Response {
  return new Response(exposition.body, {
    headers: { 'content-type': exposition.contentType, 'cache-control': 'no-store' },
  });
}
