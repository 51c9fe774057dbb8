/**
 * Reconnect delays for the event socket: exponential from `baseMs`, capped at `capMs`, with jitter
 * in [50%, 100%] so many windows do not reconnect in lock-step after the server restarts.
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  baseMs = 500,
  capMs = 30_000,
) {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(exp * (0.5 + random() / 2));
}
