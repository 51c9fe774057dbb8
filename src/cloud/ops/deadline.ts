/**
 * Work given a time limit: its value, or why not (it failed, or took longer than `ms`). The work
 * itself is not cancelled; a late answer is dropped.
 */
import { describeError } from '../../common/errors.ts';

export type Within<T> = { ok: true; value: T } | { ok: false; reason: string; timedOut: boolean };

export async function within<T>(work: Promise<T>, ms: number): Promise<Within<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Within<T>>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `no answer within ${ms / 1000} s`, timedOut: true }),
      ms,
    );
  });
  try {
    return await Promise.race([
      work.then(
        (value): Within<T> => ({ ok: true, value }),
        (e: unknown): Within<T> => ({ ok: false, reason: describeError(e), timedOut: false }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
