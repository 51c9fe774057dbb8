/**
 * How bench:latency finds the highest rate a receiver holds in one trial: up the coarse ladder
 * until a step fails, then `refine` more steps, each half way between the highest rate held and
 * the lowest that failed (rounded to 100/s). With the ladder alone, a capacity a hair under a
 * step read as the step below (11,981/s in two runs, 5,993/s in a third).
 */

/** Runs one step at `rate` (offered per second) and says whether it held. */
export type Step = (rate: number) => Promise<boolean>;

/** The highest offered rate that held (0 when none did). */
export async function searchCapacity(rates: readonly number[], refine: number, step: Step): Promise<number> {
  let held = 0;
  let failed = Number.POSITIVE_INFINITY;
  const tryRate = async (rate: number) => {
    if (await step(rate)) held = Math.max(held, rate);
    else failed = Math.min(failed, rate);
  };
  for (const rate of rates) {
    await tryRate(rate);
    if (Number.isFinite(failed)) break;
  }
  for (let k = 0; k < refine && Number.isFinite(failed); k++) {
    const mid = Math.round((held + failed) / 2 / 100) * 100;
    if (mid <= held || mid >= failed) break;
    await tryRate(mid);
  }
  return held;
}
