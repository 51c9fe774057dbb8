/** When notifications fetch: at once, unless a storm for a feed that is not changing. */
import { expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { NotifyGate } from './notify-gate.ts';

function setup() {
  const clock = new ManualClock(1_000_000);
  const fetched: number[] = [];
  const gate = new NotifyGate({ clock, fetchNow: () => fetched.push(clock.now()), gapMs: 250 });
  return { clock, fetched, gate };
}

it('a storm for an unchanged feed fetches once at once and once at the end of the gap', () => {
  const { clock, fetched, gate } = setup();
  expect(gate.notified(1)).toBe('fetch queued');
  for (let i = 0; i < 200; i++) {
    clock.advance(1);
    gate.notified(1); // the first fetch found nothing new (no changed() call)
  }
  // Before the gate: 201 fetches asked for. Now: the first, and one planned.
  expect(fetched).toEqual([1_000_000]);
  clock.advance(50); // past the 250 ms gap from the first
  expect(fetched).toEqual([1_000_000, 1_000_250]);
  // The storm goes on: again at most one fetch per gap.
  for (let i = 0; i < 100; i++) {
    clock.advance(2);
    gate.notified(1);
  }
  expect(fetched.length).toBeLessThanOrEqual(3);
  clock.advance(1_000);
  // The last notification of the storm was followed by a fetch.
  expect(fetched.at(-1)).toBeGreaterThan(1_000_450);
});

it('a feed that changes with each notification is never held back', () => {
  const { clock, fetched, gate } = setup();
  for (let i = 0; i < 20; i++) {
    gate.notified(1);
    clock.advance(5);
    gate.changed(1); // that fetch found a new document
    clock.advance(1);
  }
  expect(fetched).toHaveLength(20);
});

it('feeds are gated apart; stop and forget cancel what was planned', () => {
  const { clock, fetched, gate } = setup();
  gate.notified(1);
  gate.notified(2);
  clock.advance(10);
  gate.notified(1);
  gate.notified(2);
  expect(fetched).toHaveLength(2);
  gate.forget(1);
  gate.stop();
  clock.advance(1_000);
  expect(fetched).toHaveLength(2);
});
