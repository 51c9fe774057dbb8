/**
 * Delivery outcomes written to their subscriptions on PostgreSQL, as common table expressions of
 * ONE statement (parameters $1..$4, from outcomeParams): delivered ones counted and their errors
 * cleared, failed ones counted with their error, gone ones (410) deleted. The one-instance
 * fan-out runs them alone (store/pg.ts recordDeliveries); the shared queue runs them with the
 * settling of its chunks (queue-outcomes.ts). The counters are bumped apart (pg-counters.ts).
 */
import type { DeliveryResult } from './store.ts';

/** Outcome kinds in the statement's arrays. */
const OK = 0;
const FAILED = 1;
const GONE = 2;

export const OUTCOME_CTES = `
v AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::text[]) AS t(id, at, kind, err)),
ok AS (
  UPDATE subscriptions s SET ct_updates = s.ct_updates + 1, ct_consecutive_errors = 0, when_last_update = v.at
  FROM v WHERE v.kind = ${OK} AND s.id = v.id RETURNING 1),
failed AS (
  UPDATE subscriptions s SET ct_errors = s.ct_errors + 1, ct_consecutive_errors = s.ct_consecutive_errors + 1,
    when_last_error = v.at, last_error = v.err
  FROM v WHERE v.kind = ${FAILED} AND s.id = v.id RETURNING 1),
gone AS (DELETE FROM subscriptions s USING v WHERE v.kind = ${GONE} AND s.id = v.id RETURNING 1)`;

/** The four arrays OUTCOME_CTES reads as $1..$4: ids, times, kinds, errors. */
export function outcomeParams(
  results: readonly DeliveryResult[],
): [number[], number[], number[], (string | null)[]] {
  const ids: number[] = [];
  const at: number[] = [];
  const kind: number[] = [];
  const err: (string | null)[] = [];
  for (const r of results) {
    ids.push(r.id);
    at.push(r.at);
    kind.push(r.ok ? OK : r.gone ? GONE : FAILED);
    err.push(r.ok ? null : (r.error ?? null));
  }
  return [ids, at, kind, err];
}
