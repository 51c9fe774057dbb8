import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { wsseHeaders, wssePasswordDigest } from './auth.ts';
import { createHttpClient } from './http-client.ts';
import type { HttpClient } from './http-client-types.ts';
import { startServer, type TestServer } from './test-server.ts';
import type { Credentials } from './types.ts';

const USER = 'reader';
const PASSWORD = 'pa:ss wörd"1';

/** What a server does: decode Basic and compare. */
function basicOk(headers: IncomingHttpHeaders): boolean {
  const h = headers.authorization ?? '';
  if (!h.startsWith('Basic ')) return false;
  return Buffer.from(h.slice(6), 'base64').toString('utf8') === `${USER}:${PASSWORD}`;
}

/** What a WSSE server does: parse X-WSSE and recompute the digest from the raw nonce. */
function wsseOk(headers: IncomingHttpHeaders): boolean {
  if (headers.authorization !== 'WSSE profile="UsernameToken"') return false;
  const x = String(headers['x-wsse'] ?? '');
  if (!x.startsWith('UsernameToken ')) return false;
  const fields: Record<string, string> = {};
  for (const m of x.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) fields[m[1]!] = m[2]!.replace(/\\(.)/g, '$1');
  const nonce = Buffer.from(fields.Nonce ?? '', 'base64');
  const expected = createHash('sha1')
    .update(Buffer.concat([nonce, Buffer.from(fields.Created ?? ''), Buffer.from(PASSWORD)]))
    .digest('base64');
  return fields.Username === USER && nonce.length >= 16 && fields.PasswordDigest === expected;
}

let site: TestServer;
let elsewhere: TestServer;
let client: HttpClient;

beforeAll(async () => {
  elsewhere = await startServer((req, res) => {
    if (req.url === '/back') {
      res.writeHead(302, { location: `${site.url}/basic` }).end();
      return;
    }
    res.end('elsewhere');
  });
  site = await startServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/basic' || path === '/wsse') {
      const good = path === '/basic' ? basicOk(req.headers) : wsseOk(req.headers);
      res.writeHead(good ? 200 : 401, { 'www-authenticate': 'Basic realm="feeds"' });
      res.end(good ? 'private feed' : 'who are you?');
      return;
    }
    if (path === '/same-origin-hop') res.writeHead(302, { location: '/basic' }).end();
    else if (path === '/leave') res.writeHead(302, { location: `${elsewhere.url}/landing` }).end();
    else if (path === '/leave-and-return') res.writeHead(302, { location: `${elsewhere.url}/back` }).end();
    else res.writeHead(404).end();
  });
  client = createHttpClient({
    hostPolicy: { allowLoopback: true },
    clock: new ManualClock('2026-05-01T08:00:00Z'),
  });
});

afterAll(async () => {
  client.close();
  await site.close();
  await elsewhere.close();
});

afterEach(() => {
  site.requests.length = 0;
  elsewhere.requests.length = 0;
});

const basic: Credentials = { scheme: 'basic', username: USER, password: PASSWORD };
const wsse: Credentials = { scheme: 'wsse', username: USER, password: PASSWORD };

describe('credentials', () => {
  it('HTTP Basic is accepted by the server', async () => {
    const r = await client.fetchFeed({ url: `${site.url}/basic`, credentials: basic });
    expect(r.kind).toBe('ok');
    expect(r.kind === 'ok' && Buffer.from(r.body).toString()).toBe('private feed');
  });

  it('without credentials the server answers 401, readably', async () => {
    const r = await client.fetchFeed({ url: `${site.url}/basic` });
    expect(r.kind === 'error' && r.error.message).toBe('The server answered 401 Unauthorized.');
  });

  it('a wrong password is refused (the server check can fail)', async () => {
    const r = await client.fetchFeed({ url: `${site.url}/wsse`, credentials: { ...wsse, password: 'nope' } });
    expect(r.status).toBe(401);
  });

  it('WSSE UsernameToken is verified by the server, with a fresh nonce per request', async () => {
    const a = await client.fetchFeed({ url: `${site.url}/wsse`, credentials: wsse });
    const b = await client.fetchFeed({ url: `${site.url}/wsse`, credentials: wsse });
    expect(a.kind).toBe('ok');
    expect(b.kind).toBe('ok');
    const [x1, x2] = site.requests.map((r) => String(r.headers['x-wsse']));
    expect(x1).toMatch(
      /^UsernameToken Username="reader", PasswordDigest="[^"]+", Nonce="[^"]+", Created="2026-05-01T08:00:00Z"$/,
    );
    expect(x1).not.toBe(x2);
    expect(x1).not.toContain(PASSWORD);
  });

  it('user:password@ in the URL becomes Basic credentials', async () => {
    const u = new URL(`${site.url}/basic`);
    u.username = encodeURIComponent(USER);
    u.password = encodeURIComponent(PASSWORD);
    const r = await client.fetchFeed({ url: u.href });
    expect(r.kind).toBe('ok');
    expect(r.kind === 'ok' && r.finalUrl).toBe(`${site.url}/basic`);
  });

  it('keeps credentials on a same-origin redirect', async () => {
    const r = await client.fetchFeed({ url: `${site.url}/same-origin-hop`, credentials: basic });
    expect(r.kind).toBe('ok');
  });

  it.each([basic, wsse])('never forwards $scheme credentials to another origin', async (credentials) => {
    const r = await client.fetchFeed({ url: `${site.url}/leave`, credentials });
    expect(r.kind).toBe('ok');
    expect(site.requests[0]!.headers.authorization).toBeDefined();
    const seen = elsewhere.requests[0]!.headers;
    expect(seen.authorization).toBeUndefined();
    expect(seen['x-wsse']).toBeUndefined();
  });

  it('does not send them again when the chain comes back to the first origin', async () => {
    const r = await client.fetchFeed({ url: `${site.url}/leave-and-return`, credentials: basic });
    expect(r.status).toBe(401);
    expect(site.requests.map((q) => q.headers.authorization === undefined)).toEqual([false, true]);
  });

  it('request() drops caller-given Authorization and Cookie headers on a cross-origin redirect', async () => {
    const r = await client.request({
      method: 'GET',
      url: `${site.url}/leave`,
      headers: { Authorization: 'Bearer abc', Cookie: 'session=1', 'X-Keep': 'yes' },
      maxRedirects: 2,
    });
    expect(r.ok).toBe(true);
    const seen = elsewhere.requests[0]!.headers;
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    expect(seen['x-keep']).toBe('yes');
  });

  it('credentials never appear in errors', async () => {
    const u = new URL(`${site.url}/nowhere?api_key=k3y`);
    u.username = USER;
    u.password = 'hunter2';
    for (const r of [
      await client.fetchFeed({ url: u.href }),
      await client.fetchFeed({ url: `${site.url}/nowhere`, credentials: { ...basic, password: 'hunter2' } }),
    ]) {
      expect(r.kind).toBe('error');
      if (r.kind !== 'error') continue;
      const text = JSON.stringify({ message: r.error.message, args: r.error.args, movedTo: r.movedTo });
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('k3y');
    }
  });
});

describe('WSSE digest', () => {
  it('is base64(sha1(raw nonce + created + password))', () => {
    const nonce = Buffer.from('0123456789abcdef');
    const created = '2003-12-15T14:43:07Z';
    const expected = createHash('sha1').update(`0123456789abcdef${created}taadtaadpstcsm`).digest('base64');
    expect(wssePasswordDigest(nonce, created, 'taadtaadpstcsm')).toBe(expected);
    const h = wsseHeaders('bob', 'taadtaadpstcsm', Date.parse(created), nonce);
    expect(h['x-wsse']).toBe(
      `UsernameToken Username="bob", PasswordDigest="${expected}", Nonce="${nonce.toString('base64')}", Created="${created}"`,
    );
  });
});
