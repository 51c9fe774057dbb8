/**
 * "Several at a time, but the earliest that works wins": discovery tries candidate addresses
 * concurrently yet must prefer the page's first advertised feed over a faster second one.
 */
/**
 * Runs `test` over `items`, `limit` at a time in order, and resolves with the earliest item (in
 * order, not in time) whose test gave a value, as soon as every item before it has finished;
 * null when none did or `signal` stopped it.
 */
export async function firstInOrder<T, V>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  test: (item: T) => Promise<V | null>,
): Promise<{ candidate: T; value: V } | null> {
  const results: ({ done: false } | { done: true; value: V | null })[] = items.map(() => ({ done: false }));
  return new Promise((resolve) => {
    let next = 0;
    let running = 0;
    let settled = false;
    const finish = (r: { candidate: T; value: V } | null) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    const check = () => {
      if (settled) return;
      if (signal.aborted) return finish(null);
      for (let i = 0; i < items.length; i++) {
        const r = results[i]!;
        if (!r.done) break;
        if (r.value !== null) return finish({ candidate: items[i]!, value: r.value });
      }
      if (next >= items.length && running === 0) finish(null);
    };
    const launch = () => {
      while (!settled && !signal.aborted && running < limit && next < items.length) {
        const i = next++;
        running++;
        test(items[i]!)
          .catch(() => null)
          .then((value) => {
            running--;
            results[i] = { done: true, value };
            check();
            launch();
          });
      }
      check();
    };
    signal.addEventListener('abort', () => finish(null), { once: true });
    launch();
  });
}
