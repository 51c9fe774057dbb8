/**
 * Issue 35: "a failed Retry does not double the back-off". A fetch the person asked for (Retry
 * now, Refresh) that fails is not one more error: the count and the try already planned stay.
 * A real feed host on loopback answers 503; the app's own scheduler runs every fetch.
 */
import { describe, expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import type { FeedHost } from '../testing/feed-host.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;

startAppEachTest('tidings-retry-', (fx) => ({ host, app } = fx));

const settle = () => app.context.scheduler.idle();
const row = (id: number) => app.context.store.getFeed(id)!;
const RSS =
  '<?xml version="1.0"?><rss version="2.0"><channel><title>Flaky</title><item><title>one</title><guid>1</guid></item></channel></rss>';

async function failingFeed(): Promise<number> {
  host.set('/flaky.xml', RSS);
  const sub = await app.subscribe({ url: `${host.url}/flaky.xml` });
  if (!sub.ok) throw new Error(sub.error.message);
  await settle();
  host.set('/flaky.xml', { status: 503, body: 'down for maintenance', type: 'text/plain' });
  return sub.value.id;
}

/** A fetch nobody asked for, as a due time or a cloud's notification starts it. */
async function unaskedFetch(id: number): Promise<void> {
  app.context.scheduler.fetchNow(id);
  await settle();
}

describe('Retry now', () => {
  it('a Retry that fails keeps the error count and the next try; an unasked failure still backs off', async () => {
    const id = await failingFeed();
    await unaskedFetch(id);
    const afterOne = row(id);
    expect(afterOne).toMatchObject({ status: 'error', consecutiveErrors: 1 });
    expect(afterOne.dueReason).toBe('back-off after 1 error');
    const hitsBefore = host.hits('/flaky.xml');

    await app.refresh(id);
    await settle();
    expect(host.hits('/flaky.xml')).toBe(hitsBefore + 1);
    const afterRetry = row(id);
    expect(afterRetry).toMatchObject({ status: 'error', consecutiveErrors: 1 });
    expect(afterRetry.nextDueAt).toBe(afterOne.nextDueAt);
    expect(afterRetry.dueReason).toBe('back-off after 1 error');
    // The retry was tried and logged, with the server's answer.
    const [last] = await app.fetchLog({ feedId: id, limit: 1 });
    expect(last).toMatchObject({ outcome: 'error', status: 503 });
    expect(afterRetry.lastFetchedAt).toBeGreaterThanOrEqual(afterOne.lastFetchedAt!);

    // Retrying again and again changes nothing either.
    await app.refresh(id);
    await settle();
    await app.refresh(id);
    await settle();
    expect(row(id)).toMatchObject({ consecutiveErrors: 1, nextDueAt: afterOne.nextDueAt });

    // A failure nobody asked for is one more error: the wait doubles.
    await unaskedFetch(id);
    const afterTwo = row(id);
    expect(afterTwo.consecutiveErrors).toBe(2);
    expect(afterTwo.dueReason).toBe('back-off after 2 errors');
    expect(afterTwo.nextDueAt! - afterTwo.lastFetchedAt!).toBeGreaterThan(
      afterOne.nextDueAt! - afterOne.lastFetchedAt!,
    );
  });

  it('a Retry that works clears the errors and plans the usual interval', async () => {
    const id = await failingFeed();
    await unaskedFetch(id);
    await unaskedFetch(id);
    expect(row(id).consecutiveErrors).toBe(2);
    host.set(
      '/flaky.xml',
      RSS.replace('</channel>', '<item><title>two</title><guid>2</guid></item></channel>'),
    );
    await app.refresh(id);
    await settle();
    expect(row(id)).toMatchObject({ status: 'ok', consecutiveErrors: 0 });
    expect(row(id).dueReason).toBe('interval 60 min');
  });

  it('a Retry whose answer does not parse keeps the back-off too', async () => {
    const id = await failingFeed();
    await unaskedFetch(id);
    const afterOne = row(id);
    host.set('/flaky.xml', { body: '<html><body>Maintenance</body></html>', type: 'text/html' });
    await app.refresh(id);
    await settle();
    expect(row(id)).toMatchObject({ status: 'error', consecutiveErrors: 1, nextDueAt: afterOne.nextDueAt });
  });
});
