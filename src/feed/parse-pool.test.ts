/**
 * The parse pool: big documents on a worker thread with the same answer as inline, small ones
 * inline, a heap ceiling that fails one parse and not the app, and the event loop kept free.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseFeed } from './parse.ts';
import { createParsePool, PARSE_STOPPED, type ParsePool } from './parse-pool.ts';

let pool: ParsePool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

function rss(n: number): Buffer {
  const items: string[] = [];
  for (let i = n; i > 0; i--) {
    items.push(
      `<item><title>Item ${i}</title><guid>g${i}</guid><description>Text of ${i}</description></item>`,
    );
  }
  return Buffer.from(
    `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://example.com/</link>${items.join('')}</channel></rss>`,
  );
}

describe('parse pool', () => {
  it('parses a big document off the main thread with the same answer as inline', async () => {
    pool = createParsePool({ offThreadBytes: 1024 });
    const body = rss(3_000);
    const inline = parseFeed(body, { maxItems: 1_000 });
    const off = await pool.parse(Buffer.from(body), { maxItems: 1_000 });
    expect(pool.offThread).toBe(1);
    expect(off).toEqual(inline);
    expect(off.kind === 'feed' && off.feed.items.length).toBe(1_000);
    expect(off.kind === 'feed' && off.notes.map((n) => n.code)).toEqual(['feed.itemsCapped']);
  });

  it('keeps small documents inline', async () => {
    pool = createParsePool({ offThreadBytes: 1024 * 1024 });
    const r = await pool.parse(rss(3), {});
    expect(r.kind).toBe('feed');
    expect(pool.offThread).toBe(0);
  });

  it('leaves the event loop free while a big document is read', async () => {
    pool = createParsePool({ offThreadBytes: 1024 });
    const body = rss(150_000); // ~15 MB
    let worst = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const r = await pool.parse(body, { maxParseMs: 60_000 });
    const took = performance.now() - started;
    clearInterval(timer);
    expect(r.kind).toBe('feed');
    // The parse takes a while; the loop never waits more than a small part of it (read inline, the
    // loop would wait the whole parse at once). No bound in milliseconds: on a machine kept busy by
    // others the OS alone can hold the loop back 250 ms (seen in .ci/run).
    expect(took).toBeGreaterThan(worst * 3);
  });

  it('fails one parse past the heap ceiling, with a reason, and reads the next document', async () => {
    pool = createParsePool({ offThreadBytes: 1024, maxHeapMb: 16 });
    const huge = await pool.parse(rss(300_000), { maxItems: Number.POSITIVE_INFINITY, maxParseMs: 60_000 });
    expect(huge).toMatchObject({ kind: 'error', error: { code: 'feed.tooLarge' } });
    const next = await pool.parse(rss(100), {});
    expect(next.kind).toBe('feed');
  });

  it('answers every queued document, in order', async () => {
    pool = createParsePool({ offThreadBytes: 1024 });
    const answers = await Promise.all([1, 2, 3].map((n) => pool!.parse(rss(n * 100), {})));
    expect(answers.map((a) => (a.kind === 'feed' ? a.feed.items.length : -1))).toEqual([100, 200, 300]);
  });

  it('close() does not wait for a big document: it answers "stopping" at once, and later big ones too', async () => {
    const p = createParsePool({ offThreadBytes: 1024 });
    const reading = p.parse(rss(150_000), { maxParseMs: 60_000 });
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await p.close();
    expect(await reading).toMatchObject({ kind: 'error', error: { code: PARSE_STOPPED } });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await p.parse(rss(3_000), {})).toMatchObject({ kind: 'error', error: { code: PARSE_STOPPED } });
    expect((await p.parse(rss(2), {})).kind).toBe('feed'); // small ones are still read inline
  });
});
