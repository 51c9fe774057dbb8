/**
 * Each ping kind against loopback servers that speak its wire format: a REST cloud (our real
 * cloud, which reads the hosted feed before answering), an XML-RPC cloud that refuses an Accept
 * naming only text/xml (as the reference cloud does), weblogUpdates (flerror/message read), an
 * HTTP GET ping, and an RSS Ping v2 receiver that checks the payload against the hash we publish.
 * And a sink that is down: retried, the post is fine.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startServer, type TestServer } from '../net/test-server.ts';
import { type RealCloud, startRealCloud } from '../testing/clouds.ts';
import { decodeMethodCall, encodeFault, encodeMethodResponse } from '../wire/xmlrpc.ts';
import { type Harness, startHarness, untilState } from './testdata/harness.ts';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

async function harness(settings: Parameters<typeof startHarness>[0]): Promise<Harness> {
  const h = await startHarness(settings);
  closers.push(() => h.close());
  return h;
}

async function server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  closers.push(() => s.close());
  return s;
}

const xmlrpc = (res: http.ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/xml' });
  res.end(body);
};

describe('pinging after a save', () => {
  it('pings a REST cloud once per public URL, after the cloud can read the saved feed', async () => {
    const cloud: RealCloud = await startRealCloud();
    closers.push(() => cloud.close());
    const h = await harness({ cloud: cloud.element('http-post') as never });
    const r = await h.publisher.post({ text: 'to the cloud' });
    const id = r.ok ? r.value.id : 0;
    const v = await untilState(h, id, 'published');
    expect(v.pings).toEqual([
      expect.objectContaining({
        kind: 'cloud',
        url: `${h.base}/site/feed.xml`,
        ok: true,
        message: 'Thanks for the ping.',
      }),
    ]);
    expect(v.cloudAnswer).toEqual({
      ok: true,
      message: 'Thanks for the ping.',
      cloud: `127.0.0.1:${cloud.port}`,
    });
  });

  it('speaks XML-RPC rssCloud.ping with an Accept the reference cloud takes (406 for text/xml alone)', async () => {
    const rpc = await server((req, res, body) => {
      const accept = String(req.headers.accept ?? '');
      if (!/application\/xml|\*\/\*/.test(accept)) return xmlrpc(res, 'Not Acceptable', 406);
      const call = decodeMethodCall(body);
      if (!call.ok || call.value.methodName !== 'rssCloud.ping')
        return xmlrpc(res, encodeFault(4, 'no such method'));
      return xmlrpc(res, encodeMethodResponse(true));
    });
    const h = await harness({
      cloud: {
        domain: '127.0.0.1',
        port: rpc.port,
        path: '/RPC2',
        protocol: 'xml-rpc',
        registerProcedure: 'rssCloud.pleaseNotify',
      },
    });
    const r = await h.publisher.post({ text: 'rpc' });
    const v = await untilState(h, r.ok ? r.value.id : 0, 'published');
    expect(v.pings[0]).toMatchObject({
      kind: 'cloud',
      ok: true,
      endpoint: `http://127.0.0.1:${rpc.port}/RPC2`,
    });
    const call = decodeMethodCall(rpc.requests[0]!.body);
    expect(call.ok && call.value.params).toEqual([`${h.base}/site/feed.xml`]);
    // The feed names that cloud.
    const feed = await (await fetch(`${h.base}/site/feed.xml`)).text();
    expect(feed).toContain(
      `<cloud domain="127.0.0.1" port="${rpc.port}" path="/RPC2" registerProcedure="rssCloud.pleaseNotify" protocol="xml-rpc"/>`,
    );
  });

  it('reads weblogUpdates answers (flerror/message), and retries a refusal until accepted', async () => {
    let refuse = 2;
    const seen: string[] = [];
    const wu = await server((_req, res, body) => {
      const call = decodeMethodCall(body);
      if (!call.ok) return xmlrpc(res, encodeFault(1, 'bad call'));
      seen.push(`${call.value.methodName}(${call.value.params.length})`);
      if (refuse-- > 0)
        return xmlrpc(res, encodeMethodResponse({ flerror: true, message: 'Slow down, please.' }));
      return xmlrpc(res, encodeMethodResponse({ flerror: false, message: 'Thanks for the ping.' }));
    });
    const cloud = await server((_req, res) =>
      xmlrpc(res, '<result success="true" msg="Thanks for the ping."/>'),
    );
    const h = await harness({
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
      pingSinks: [{ kind: 'weblogUpdates', url: `${wu.url}/RPC2` }],
    });
    const r = await h.publisher.post({ text: 'weblogs', tags: ['a', 'b'] });
    const id = r.ok ? r.value.id : 0;
    await untilState(h, id, 'retrying');
    const retrying = h.publisher.get(id)!.pings.find((p) => p.kind === 'weblogUpdates')!;
    expect(retrying).toMatchObject({ ok: false, message: 'Slow down, please.' });
    expect(retrying.nextRetryAt).not.toBeNull();
    const v = await untilState(h, id, 'published');
    expect(v.pings.find((p) => p.kind === 'weblogUpdates')).toMatchObject({
      ok: true,
      message: 'Thanks for the ping.',
    });
    expect(seen).toEqual([
      'weblogUpdates.extendedPing(5)',
      'weblogUpdates.extendedPing(5)',
      'weblogUpdates.extendedPing(5)',
    ]);
    expect(cloud.requests.filter((q) => q.path === '/ping')).toHaveLength(1);
  });

  it('falls back to weblogUpdates.ping where extendedPing is unknown; sends HTTP GET pings', async () => {
    const wu = await server((_req, res, body) => {
      const call = decodeMethodCall(body);
      if (call.ok && call.value.methodName === 'weblogUpdates.ping') {
        return xmlrpc(res, encodeMethodResponse({ flerror: false, message: 'ok, old style' }));
      }
      return xmlrpc(res, encodeFault(-32601, 'method not found'));
    });
    const get = await server((_req, res) => res.end('ok'));
    const cloud = await server((_req, res) => xmlrpc(res, '{"success":true,"msg":"Thanks for the ping."}'));
    const h = await harness({
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
      title: 'My & posts',
      pingSinks: [
        { kind: 'weblogUpdates', url: wu.url },
        { kind: 'httpGet', url: `${get.url}/ping?x=1` },
      ],
    });
    const r = await h.publisher.post({ text: 'old style' });
    const v = await untilState(h, r.ok ? r.value.id : 0, 'published');
    expect(v.pings.map((p) => [p.kind, p.ok, p.message])).toEqual([
      ['cloud', true, 'Thanks for the ping.'],
      ['weblogUpdates', true, 'ok, old style'],
      ['httpGet', true, 'HTTP 200'],
    ]);
    const q = new URL(get.requests[0]!.path, get.url).searchParams;
    expect([q.get('x'), q.get('name'), q.get('url')]).toEqual(['1', 'My & posts', `${h.base}/site/feed.xml`]);
  });

  it('sends an RSS Ping v2 fat ping whose payload hash is published on our host', async () => {
    const checks: boolean[] = [];
    const receiver = await server(async (_req, res, body) => {
      const hash = /<payload_hash type="SHA1">([0-9a-f]{40})<\/payload_hash>/.exec(body)?.[1];
      const uri = /<payload_hash_uri>([^<]+)<\/payload_hash_uri>/.exec(body)?.[1];
      const payload = /<payload type="RSS 2.0 fragment">([\s\S]*)<\/payload>/.exec(body)?.[1] ?? '';
      const text = payload.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      const published = uri ? await (await fetch(uri)).text() : '';
      const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
      checks.push(sha1(text) === hash && published === text && text.includes('fat ping &amp;lt;3'));
      res.end('ok');
    });
    const cloud = await server((_req, res) =>
      xmlrpc(res, '<result success="true" msg="Thanks for the ping."/>'),
    );
    const h = await harness({
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
      pingSinks: [{ kind: 'rssPing', url: receiver.url }],
    });
    const r = await h.publisher.post({ text: 'fat ping <3' });
    await untilState(h, r.ok ? r.value.id : 0, 'published');
    expect(checks).toEqual([true]);
    expect(receiver.requests[0]!.body).toContain(
      `<feed_uri type="RSS 2.0">${h.base}/site/feed.xml</feed_uri>`,
    );
  });

  it('a ping sink that is down is retried; the post is saved and fine meanwhile', async () => {
    const port = await freePort();
    const cloud = await server((_req, res) =>
      xmlrpc(res, '<result success="true" msg="Thanks for the ping."/>'),
    );
    const h = await harness({
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
      pingSinks: [{ kind: 'httpGet', url: `http://127.0.0.1:${port}/ping` }],
    });
    const r = await h.publisher.post({ text: 'sink down' });
    const id = r.ok ? r.value.id : 0;
    const v = await untilState(h, id, 'retrying');
    expect(v.saves[0]).toMatchObject({ target: 'hosting', ok: true });
    expect(await (await fetch(`${h.base}/site/feed.xml`)).text()).toContain('sink down');
    const down = v.pings.find((p) => p.kind === 'httpGet')!;
    expect(down.ok).toBe(false);
    expect(down.message).toMatch(/refused|connect/i);

    // The sink comes up: the next retry gets through, once.
    let hits = 0;
    const up = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => up.listen(port, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          up.closeAllConnections();
          up.close(() => resolve());
        }),
    );
    await untilState(h, id, 'published');
    expect(hits).toBe(1);
    expect(cloud.requests.filter((q) => q.path === '/ping')).toHaveLength(1);
  });
});

describe('giving up', () => {
  it('after the last try the post shows failed with the reason; new settings try again', async () => {
    const port = await freePort();
    const h = await startHarness(
      { cloud: { domain: '127.0.0.1', port, path: '/pleaseNotify', protocol: 'http-post' } },
      { maxAttempts: 3 },
    );
    closers.push(() => h.close());
    const r = await h.publisher.post({ text: 'nobody listens' });
    const id = r.ok ? r.value.id : 0;
    const v = await untilState(h, id, 'failed');
    expect(v.saves[0]).toMatchObject({ ok: true });
    expect(v.pings[0]).toMatchObject({ kind: 'cloud', ok: false, nextRetryAt: null });
    expect(v.cloudAnswer?.ok).toBe(false);

    // The cloud is fixed in settings: what failed is tried again, and gets through.
    const cloud = await server((_req, res) =>
      xmlrpc(res, '<result success="true" msg="Thanks for the ping."/>'),
    );
    h.publisher.updateSettings({
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
    });
    await untilState(h, id, 'published');
  });
});

describe('a new public address', () => {
  it('rebuilds the hosted feed with the new self URL and pings the cloud at it', async () => {
    const cloud = await server((_req, res) =>
      xmlrpc(res, '<result success="true" msg="Thanks for the ping."/>'),
    );
    const h = await harness({
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
    });
    const r = await h.publisher.post({ text: 'before the move' });
    await untilState(h, r.ok ? r.value.id : 0, 'published');
    expect(await (await fetch(`${h.base}/site/feed.xml`)).text()).toContain(`href="${h.base}/site/feed.xml"`);

    // The tunnel came back at another URL (here: the same server by another name).
    const moved = h.base.replace('127.0.0.1', 'localhost');
    h.setPublicBase(moved);
    const deadline = Date.now() + 5000;
    while (
      !cloud.requests.some((q) => q.body.includes(encodeURIComponent(`${moved}/site/feed.xml`))) &&
      Date.now() < deadline
    ) {
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(await (await fetch(`${h.base}/site/feed.xml`)).text()).toContain(`href="${moved}/site/feed.xml"`);
    expect(cloud.requests.filter((q) => q.path === '/ping').map((q) => decodeURIComponent(q.body))).toEqual([
      `url=${h.base}/site/feed.xml`,
      `url=${moved}/site/feed.xml`,
    ]);
  });
});

describe('edit and delete', () => {
  it('rebuild the feed and ping again each time', async () => {
    const cloud = await server((_req, res) =>
      xmlrpc(res, '<result success="true" msg="Thanks for the ping."/>'),
    );
    const h = await harness({
      cloud: { domain: '127.0.0.1', port: cloud.port, path: '/pleaseNotify', protocol: 'http-post' },
    });
    const pings = () => cloud.requests.filter((q) => q.path === '/ping').length;
    const r = await h.publisher.post({ text: 'first words' });
    const id = r.ok ? r.value.id : 0;
    await untilState(h, id, 'published');
    expect(pings()).toBe(1);
    const e = await h.publisher.edit(id, { text: 'better words', tags: ['edited'] });
    expect(e.ok && e.value.state).toBe('queued');
    await untilState(h, id, 'published');
    expect(pings()).toBe(2);
    expect(await (await fetch(`${h.base}/site/feed.xml`)).text()).toContain(
      '<description>better words</description>',
    );
    expect(h.publisher.delete(id).ok).toBe(true);
    const deadline = Date.now() + 5000;
    while (pings() < 3 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    expect(pings()).toBe(3);
    expect(await (await fetch(`${h.base}/site/feed.xml`)).text()).not.toContain('<item>');
    expect(h.publisher.delete(id)).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'post.notFound' }),
    });
  });
});
