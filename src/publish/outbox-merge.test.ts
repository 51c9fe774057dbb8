/**
 * Pings owed at the same moment to one sink for one feed go out as one request (issue 14): a ping
 * means "this feed changed", so three posts saved in one burst (or saves re-run after a kill -9)
 * ping the cloud and an HTTP GET sink once each, and every post shows the answer. Fat pings
 * (RSS Ping) carry their own post: one each.
 */
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../net/test-server.ts';
import { startHarness, untilState } from './testdata/harness.ts';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

it('merges pings owed at once to one sink for one feed, and settles every post with the answer', async () => {
  const sink: TestServer = await startServer((req, res) => {
    if (req.url?.startsWith('/ping')) return res.end('<result success="true" msg="Thanks for the ping."/>');
    res.end('ok');
  });
  closers.push(() => sink.close());
  const h = await startHarness(
    {
      cloud: { domain: '127.0.0.1', port: sink.port, path: '/pleaseNotify', protocol: 'http-post' },
      pingSinks: [
        { kind: 'httpGet', url: `${sink.url}/get` },
        { kind: 'rssPing', url: `${sink.url}/fat` },
      ],
    },
    { start: false },
  );
  closers.push(() => h.close());
  const ids: number[] = [];
  for (const text of ['one', 'two', 'three']) {
    const r = await h.publisher.post({ text });
    if (r.ok) ids.push(r.value.id);
  }
  h.publisher.start();
  for (const id of ids) {
    const v = await untilState(h, id, 'published');
    expect(v.pings.map((p) => [p.kind, p.ok])).toEqual([
      ['cloud', true],
      ['httpGet', true],
      ['rssPing', true],
    ]);
    expect(v.pings[0]!.message).toBe('Thanks for the ping.');
  }
  const paths = sink.requests.map((r) => r.path.replace(/\?.*$/, ''));
  expect(paths.filter((p) => p === '/ping')).toHaveLength(1);
  expect(paths.filter((p) => p === '/get')).toHaveLength(1);
  expect(paths.filter((p) => p === '/fat')).toHaveLength(3);
});
