/**
 * WebSub reading across a restart of the reader, on the driven clock, against the strict hub: a
 * renewal whose verification the hub sends while the reader is down (lost) or after it is back
 * (late). Before issue 31 the row stayed `live` with no next step: the late verification got 404,
 * the lost one was never asked again, the lease lapsed and the feed fell back to polling for good.
 */
import { expect, it } from 'vitest';
import type { Tidings } from '../../app/tidings.ts';
import { waitFor } from '../../testing/wait.ts';
import { hubLine as lineOf, subscribeLive, webSubWorld } from '../../testing/websub-reader.ts';

const DAY = 86_400_000;
const w = webSubWorld('tidings-websub-restart-');
/** The reader on the same data, port and clock each time (a restart). */
const startReader = () => w.startReader();

const delivery = async (a: Tidings) => (await a.listFeeds())[0]!.delivery;
const subscribes = () => w.hub.requests.filter((r) => r.mode === 'subscribe').length;
const hubLine = () => lineOf(w.hub);

/** Subscribed and live, then the renewal asked at 9 days with the hub holding its verification. */
async function renewalWaiting(): Promise<Tidings> {
  const a = await startReader();
  await subscribeLive(a, w.hub, `${w.host.url}/feed.xml`);
  w.hub.knobs.holdVerifications = true;
  w.clock.advance(9 * DAY);
  await waitFor(() => w.hub.heldVerifications() === 1, 10_000, 'the renewal asked');
  expect(subscribes()).toBe(2);
  return a;
}

it('a renewal whose verification was lost while the reader was down is asked again at once after the restart', async () => {
  const first = await renewalWaiting();
  await first.stop();
  w.app = null;
  // The hub verifies while nobody answers: refused, so the hub never records the renewal.
  await w.hub.releaseVerifications();
  expect(w.hub.verifications.at(-1)).toMatchObject({ mode: 'subscribe', accepted: false, status: null });
  w.hub.knobs.holdVerifications = false;

  const a = await startReader();
  await waitFor(() => subscribes() === 3, 10_000, 'the renewal asked again after the restart');
  await waitFor(async () => (await delivery(a)) === `${hubLine()} (renews in 9 d)`, 10_000, 'renewed');
  await w.hub.idle();
  expect(w.hub.verifications.at(-1)).toMatchObject({ mode: 'subscribe', accepted: true });
  // Past the old lease's end it is still live: the renewal counted.
  w.clock.advance(DAY + 60_000);
  expect(await delivery(a)).toMatch(new RegExp(`^${hubLine()} \\(renews in \\d d\\)$`));
  expect(w.activity.map((e) => e.procedure)).toContain('websub renew');
});

it("the hub's late verification of a renewal asked before the restart is taken, not refused", async () => {
  const first = await renewalWaiting();
  await first.stop();
  w.app = null;

  const a = await startReader();
  // The restart asks again (held too); the hub now sends the verification of the earlier request.
  await waitFor(() => w.hub.heldVerifications() === 2, 10_000, 'the renewal asked again');
  w.hub.knobs.holdVerifications = false;
  await w.hub.releaseVerifications();
  expect(w.hub.verifications.map((v) => [v.mode, v.accepted])).toEqual([
    ['subscribe', true], // the first subscription
    ['subscribe', true], // the renewal asked before the restart, verified after it
    ['subscribe', false], // the one asked again: already verified
  ]);
  await waitFor(async () => (await delivery(a)) === `${hubLine()} (renews in 9 d)`, 10_000, 'renewed');
  const verified = w.activity.filter((e) => e.procedure === 'websub verify subscribe').map((e) => e.result);
  expect(verified).toEqual([
    'subscription verified; lease 10 d',
    'renewal verified; lease 10 d', // the one asked before the restart
    '404: a verification we are not waiting for (already verified)',
  ]);
  // The row always has its next step: the next renewal, 9 days on.
  const row = a.context.realtime!.websub.manager.row(1)!;
  expect(row.nextRenewalAt).toBe(w.clock.now() + 9 * DAY);
  expect(row.verifyUntil).toBeNull();
});
