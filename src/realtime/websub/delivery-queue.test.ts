/**
 * A hub delivering faster than we parse: one parse per feed at a time, the newest body waiting
 * replaces older ones (each is the whole feed), a byte budget past which the feed is fetched
 * instead, and never a delivery without a parse or a fetch after it.
 */
import { describe, expect, it } from 'vitest';
import { DeliveryQueue, type IngestResult } from './delivery-queue.ts';

function harness(maxBytes = 1024) {
  const parsed: string[] = [];
  const fetched: number[] = [];
  const release: (() => void)[] = [];
  let blocked = true;
  const queue = new DeliveryQueue({
    maxBytes,
    fetchNow: (id) => fetched.push(id),
    ingest: async (_id, body): Promise<IngestResult> => {
      const text = new TextDecoder().decode(body);
      if (blocked) await new Promise<void>((r) => release.push(r));
      parsed.push(text);
      return text.startsWith('junk') ? 'notFeed' : 'stored';
    },
  });
  const unblock = () => {
    blocked = false;
    for (const r of release.splice(0)) r();
  };
  return { queue, parsed, fetched, unblock };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe('the delivery queue', () => {
  it('coalesces a flood for one feed to the newest body, parsed once after the one in progress', async () => {
    const h = harness();
    expect(h.queue.push(1, bytes('feed v0'), null, null)).toBe('parsing');
    for (let i = 1; i <= 500; i++) h.queue.push(1, bytes(`feed v${i}`), null, null);
    expect(h.queue.waitingBytes()).toBe(bytes('feed v500').byteLength);
    h.unblock();
    await h.queue.idle();
    expect(h.parsed).toEqual(['feed v0', 'feed v500']);
    expect(h.fetched).toEqual([]);
  });

  it('past the byte budget keeps no body and fetches the feed once the parse in progress is done', async () => {
    const h = harness(100);
    h.queue.push(1, bytes('feed v0'), null, null);
    h.queue.push(2, bytes('other v0'), null, null);
    expect(h.queue.push(1, bytes('x'.repeat(80)), null, null)).toBe('queued');
    expect(h.queue.push(2, bytes('y'.repeat(80)), null, null)).toMatch(/queue is full: the feed is fetched/);
    expect(h.queue.waitingBytes()).toBe(80);
    h.unblock();
    await h.queue.idle();
    expect(h.parsed).toEqual(['feed v0', 'other v0', 'x'.repeat(80)]);
    expect(h.fetched).toEqual([2]);
  });

  it('fetches instead of an empty body or one that is not a feed', async () => {
    const h = harness();
    h.unblock();
    expect(h.queue.push(1, bytes('  \n'), null, null)).toMatch(/empty body/);
    expect(h.fetched).toEqual([1]);
    h.queue.push(2, bytes('junk'), null, null);
    await h.queue.idle();
    expect(h.fetched).toEqual([1, 2]);
  });
});
