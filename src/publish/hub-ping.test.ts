/**
 * The writer's WebSub side: the feeds name each configured hub, and after each save every hub is
 * told hub.mode=publish&hub.topic=<feed>, retried by the outbox until it accepts, its answer shown
 * with the post. The hub here refuses twice (503) before taking the publish (202), as a busy hub.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { parseFeed } from '../feed/parse.ts';
import { type Harness, startHarness, untilState } from './testdata/harness.ts';

let h: Harness | null = null;
const closers: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  for (const c of closers.splice(0)) c();
});

it('names the hubs in every format and publishes to each after the save, retried until accepted', async () => {
  const bodies: string[] = [];
  let refuse = 2;
  const hub = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      if (refuse-- > 0) res.writeHead(503, { 'content-type': 'text/plain' }).end('Busy, try later');
      else res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => hub.listen(0, '127.0.0.1', r));
  closers.push(() => hub.close());
  const hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/hub`;
  const cloud = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/xml' })
      .end('<result success="true" msg="Thanks for the ping."/>'),
  );
  await new Promise<void>((r) => cloud.listen(0, '127.0.0.1', r));
  closers.push(() => cloud.close());
  const cloudPort = (cloud.address() as AddressInfo).port;

  h = await startHarness({
    cloud: { domain: '127.0.0.1', port: cloudPort, path: '/pleaseNotify', protocol: 'http-post' },
    // 'own' is named only while the own cloud serves the feed: not here.
    hubs: ['own', hubUrl],
  });
  const r = await h.publisher.post({ text: 'to the hub' });
  const id = r.ok ? r.value.id : 0;
  await untilState(h, id, 'retrying');
  const retrying = h.publisher.get(id)!.pings.find((p) => p.kind === 'hub')!;
  expect(retrying).toMatchObject({ ok: false, message: 'The hub answered HTTP 503: Busy, try later' });
  const v = await untilState(h, id, 'published');
  const feedUrl = `${h.base}/site/feed.xml`;
  expect(v.pings.filter((p) => p.kind === 'hub')).toEqual([
    expect.objectContaining({
      endpoint: hubUrl,
      url: feedUrl,
      ok: true,
      message: 'The hub answered HTTP 202.',
    }),
  ]);
  expect(bodies).toEqual(Array(3).fill(`hub.mode=publish&hub.topic=${encodeURIComponent(feedUrl)}`));

  for (const path of ['feed.xml', 'feed.atom', 'feed.json']) {
    const doc = parseFeed(await (await fetch(`${h.base}/site/${path}`)).text());
    if (doc.kind !== 'feed') throw new Error(`${path} does not parse`);
    expect(doc.feed.hubs).toEqual([hubUrl]);
  }
});
