/**
 * The bench's lean subscribers count what bench:cluster reports as delivered, lost and
 * duplicated: each request once, whatever the client and however its bytes arrive.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NotifyPool } from '../../src/cloud/delivery/notify-pool.ts';
import { type Sink, startLeanSink } from './lean-sink.ts';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function sink(): Promise<{ sink: Sink; posts: string[] }> {
  const posts: string[] = [];
  const s = await startLeanSink({
    get: (path) => ({
      type: 'application/rss+xml',
      body: `<rss version="2.0"><channel><title>${path}</title></channel></rss>`,
    }),
    post: (path) => posts.push(path),
  });
  open.push(s);
  return { sink: s, posts };
}

/** A raw connection to the sink: what it wrote back so far. */
function raw(port: number): { socket: net.Socket; got: () => string } {
  const socket = net.connect(port, '127.0.0.1');
  open.push({ close: () => socket.destroy() });
  let got = '';
  socket.on('data', (d) => (got += d.toString('latin1')));
  return { socket, got: () => got };
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the lean bench sink', () => {
  it("counts every notification the cloud's own client sends, reusing its connections", async () => {
    const { sink: s, posts } = await sink();
    const pool = new NotifyPool({
      policy: { allowLoopback: true, allowPrivate: false },
      maxSocketsPerHost: 4,
    });
    open.push({ close: () => pool.destroy() });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        pool.request({
          method: 'POST',
          url: `http://127.0.0.1:${s.port}/cb/${i}?x=1`,
          body: `url=${'f'.repeat(i * 50)}`,
        }),
      ),
    );
    expect(results.every((r) => r?.ok && r.value.status === 200)).toBe(true);
    expect(posts.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `/cb/${i}`).sort());
    expect(s.connections()).toBeLessThanOrEqual(4);
  });

  it('answers GETs with the feed and POSTs from fetch', async () => {
    const { sink: s, posts } = await sink();
    const feed = await fetch(`http://127.0.0.1:${s.port}/feed/a.xml?t=1`);
    expect(feed.headers.get('content-type')).toBe('application/rss+xml');
    expect(await feed.text()).toContain('<title>/feed/a.xml</title>');
    const res = await fetch(`http://127.0.0.1:${s.port}/cb/z`, { method: 'POST', body: 'url=x' });
    expect(await res.text()).toBe('ok');
    expect(posts).toEqual(['/cb/z']);
  });

  it('reads requests split anywhere and several in one read, each once', async () => {
    const { sink: s, posts } = await sink();
    const req = (p: string, body: string) =>
      `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const one = req('/a', 'url=aaaa');
    const two = req('/b', 'url=bb') + req('/c', '');
    const c = raw(s.port);
    for (const part of [one.slice(0, 7), one.slice(7, 40), one.slice(40, -3)]) {
      c.socket.write(part);
      await pause(20); // each part its own read
    }
    // The head and part of the body are in: nothing is counted or answered until the rest comes.
    expect(posts).toEqual([]);
    expect(c.got()).toBe('');
    c.socket.write(one.slice(-3) + two);
    while ((c.got().match(/HTTP\/1\.1 200 OK/g) ?? []).length < 3) await pause(5);
    expect(posts).toEqual(['/a', '/b', '/c']);
  });

  it('refuses a chunked body instead of miscounting it, and says so', async () => {
    const { sink: s, posts } = await sink();
    const socket = net.connect(s.port, '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      socket.on('data', (d) => (got += d.toString()));
      socket.on('end', () => resolve(got));
      socket.write(
        'POST /cb HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nurl=x\r\n0\r\n\r\n',
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 501 /);
    expect(posts).toEqual([]);
    expect(s.refused()).toBe(1);
  });
});
