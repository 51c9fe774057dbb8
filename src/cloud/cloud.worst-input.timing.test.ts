/**
 * No single request freezes the cloud (issue 31): each door gets the worst input it allows (its
 * body cap filled with what costs a parser most: unclosed tags, a megabyte of digits, hundreds of
 * thousands of fields or elements), and must answer within a second while a `GET /` sent meanwhile
 * is answered within 100 ms. One unclosed `<payload_hash a` document held the event loop 74 s.
 *
 * Real sockets, a real cloud. `GET /` is sent again and again while the door works, and the
 * slowest counts. The machine is shared: each case is tried up to five times and one clean run
 * is required (a cloud that blocks its loop fails every one: the blocking is the input's,
 * not the machine's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addCloudUser,
  type CloudProcess,
  Peer,
  startCloudProcess,
  storeFlags,
} from '../testing/cloud-kit.ts';
import { encodeMethodCall } from '../wire/xmlrpc.ts';

let peer: Peer;
let cloud: CloudProcess & { home: string };

/**
 * A cloud of its own (a child process: the test's own event loop must not be the one measured),
 * with `args`, stopped after the test file.
 */
async function cloudProcess(args: string[], before?: (flags: string[]) => Promise<void>) {
  const home = mkdtempSync(join(tmpdir(), 'tidings-worst-'));
  await before?.(await storeFlags(home));
  const started = await startCloudProcess(args, home);
  processes.push(started);
  return started;
}
const processes: (CloudProcess & { home: string })[] = [];

beforeAll(async () => {
  peer = await new Peer().start();
  peer.route('GET', '/feed.xml', 200, '<rss version="2.0"><channel><title>t</title></channel></rss>');
  peer.route('POST', '/cb', 200, 'ok');
  peer.route('GET', '/site', 200, { body: '<html></html>', headers: { 'content-type': 'text/html' } });
  // The budgets are not what is tested: every case must reach its parser.
  cloud = await cloudProcess(['--pings-per-minute', '1000000', '--work-per-minute', '1000000'], (flags) =>
    addCloudUser(flags, 'alice', 'pw'),
  );
});

afterAll(async () => {
  for (const p of processes) {
    p.child.kill('SIGTERM');
    await p.exited;
    rmSync(p.home, { recursive: true, force: true });
  }
  await peer.close();
});

const MiB = 1024 * 1024;
/** `prefix`, then `unit` repeated to fill `size` bytes with `suffix`. */
function fill(size: number, prefix: string, unit: string, suffix = ''): string {
  const n = Math.max(0, Math.floor((size - prefix.length - suffix.length) / unit.length));
  return prefix + unit.repeat(n) + suffix;
}

interface Timing {
  status: number;
  answerMs: number;
  getMs: number;
}

/**
 * Sends the request and, until it is answered, one `GET /` after another (10 ms apart): how long
 * the request took, and the slowest GET sent meanwhile (a door holding the event loop holds them).
 */
async function timed(send: () => Promise<Response>): Promise<Timing> {
  const started = performance.now();
  let answered = false;
  const answer = send().then(async (res) => {
    await res.arrayBuffer();
    answered = true;
    return { status: res.status, ms: performance.now() - started };
  });
  let getMs = 0;
  while (!answered) {
    await new Promise((r) => setTimeout(r, 10));
    if (answered) break;
    const getStarted = performance.now();
    const get = await fetch(`${cloud.url}/`);
    await get.arrayBuffer();
    expect(get.status).toBe(200);
    getMs = Math.max(getMs, performance.now() - getStarted);
  }
  const done = await answer;
  return { status: done.status, answerMs: done.ms, getMs };
}

/** Up to five tries; the first within both limits wins. All tries are shown when none is. */
async function withinLimits(send: () => Promise<Response>, status: number | number[]): Promise<void> {
  const tries: Timing[] = [];
  for (let i = 0; i < 5; i++) {
    const t = await timed(send);
    expect([status].flat()).toContain(t.status);
    tries.push(t);
    if (t.answerMs < 1000 && t.getMs < 100) return;
  }
  expect(tries.map((t) => ({ answerMs: Math.round(t.answerMs), getMs: Math.round(t.getMs) }))).toEqual(
    'one try answered within 1000 ms with GET / within 100 ms',
  );
}

const post =
  (path: string, body: string, type: string, query = '') =>
  () =>
    fetch(`${cloud.url}${path}${query}`, { method: 'POST', headers: { 'content-type': type }, body });

describe('RSS Ping v2 (POST /rssPing)', () => {
  const cap = 256 * 1024;
  it.each([
    [
      'unclosed <payload_hash a',
      fill(cap, '<rss_ping version="2"><feed_uri>http://x.test/f</feed_uri>', '<payload_hash a'),
    ],
    ['unclosed <feed_uri>', fill(cap, '<rss_ping version="2">', '<feed_uri>')],
    [
      'unclosed <payload>',
      fill(cap, '<rss_ping version="2"><feed_uri>http://x.test/f</feed_uri>', '<payload>'),
    ],
    ['a payload of elements', fill(cap, '<rss_ping version="2"><payload>', '<b/>', '</payload></rss_ping>')],
  ])('%s, at its cap: a readable 400 in time', async (_label, doc) => {
    await withinLimits(post('/rssPing', doc, 'application/xml'), 400);
  });

  it('a megabyte (the old cap) is refused unread', async () => {
    await withinLimits(
      post(
        '/rssPing',
        fill(MiB, '<rss_ping version="2"><feed_uri>http://x.test/f</feed_uri>', '<payload_hash a'),
        'application/xml',
      ),
      413,
    );
  });
});

describe('XML-RPC (POST /RPC2): weblogUpdates, rssCloud, saveRss', () => {
  const cap = MiB; // under the door's cap (a whole feed for saveRss)
  const P = '<methodCall><methodName>weblogUpdates.ping</methodName><params><param><value>';
  const S = '</value></param></params></methodCall>';
  it.each([
    ['a megabyte of digits as a double', fill(cap, `${P}<double>`, '1', `x</double>${S}`)],
    [
      'a megabyte of digits as a date',
      fill(cap, `${P}<dateTime.iso8601>19980717T14:08:55.`, '1', `x</dateTime.iso8601>${S}`),
    ],
    [
      'a hundred thousand parameters',
      fill(
        cap,
        '<methodCall><methodName>rssCloud.ping</methodName><params>',
        '<param><value>a</value></param>',
        '</params></methodCall>',
      ),
    ],
    [
      'a struct of a hundred thousand members',
      fill(cap, `${P}<struct>`, '<member><name>a</name><value>b</value></member>', `</struct>${S}`),
    ],
    ['a megabyte of entities', fill(cap, `${P}<string>`, '&amp;', `</string>${S}`)],
    ['unclosed tags', fill(cap, '<methodCall>', '<a>')],
    ['an unknown method named by a megabyte', encodeMethodCall(`x${'y'.repeat(cap - 200)}`, [])],
  ])('%s: a fault in time', async (_label, xml) => {
    await withinLimits(post('/RPC2', xml, 'text/xml'), 200);
  });

  it('saveRss of a megabyte of feed entries is read off the event loop', async () => {
    // As CDATA, the feed fills the door's cap unescaped (escaped, its markup would double).
    const feed = fill(
      cap - 256,
      '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>x</id><updated>2026-01-01T00:00:00Z</updated>',
      '<entry><title>a</title><id>i</id></entry>',
      '</feed>',
    );
    const param = (v: string) => `<param><value><string>${v}</string></value></param>`;
    const call = `<methodCall><methodName>rssCloud.saveRss</methodName><params>${param('alice')}${param('pw')}${param(`<![CDATA[${feed}]]>`)}</params></methodCall>`;
    await withinLimits(post('/RPC2', call, 'text/xml'), 200);
    const saved = await fetch(`${cloud.url}/feeds/alice.xml`);
    expect([saved.status, (await saved.text()).length]).toEqual([200, feed.length]);
  });
});

describe('REST forms (POST /pleaseNotify, /ping) and the WebSub hub (POST /websub)', () => {
  // Hundreds of thousands of fields in the body, and a query of thousands more (the query fills
  // in what the body lacks: looked up one by one, that was a million lookups per query field).
  const query = `?${Array.from({ length: 2000 }, (_, i) => `q${i}=`).join('&')}`;
  it.each([
    ['/pleaseNotify', () => fill(MiB, 'port=1&path=/cb&protocol=http-post&', 'a=&')],
    ['/pleaseNotify', () => fill(MiB, 'port=1&path=/cb&protocol=http-post&', `url=${peer.url}/feed.xml&`)],
    ['/ping', () => fill(MiB, `url=${peer.url}/feed.xml&`, 'a=&')],
    // Not a URL, so logged as given: masking it by pattern was quadratic in its `;`.
    ['/ping', () => fill(MiB, 'url=', ';')],
  ])('%s with a megabyte of fields: its answer in time', async (path, body) => {
    await withinLimits(post(path, body(), 'application/x-www-form-urlencoded', query), 200);
  });

  it('/websub at its cap with thousands of topics: refused in time', async () => {
    // A budget this time: every topic is parsed, then the publish is refused (429), nothing read.
    const main = cloud;
    cloud = await cloudProcess(['--pings-per-minute', '200']);
    let i = 0;
    const topics: string[] = [];
    for (let size = 20; size < 100 * 1024 - 40; i++) {
      const t = `hub.topic=${encodeURIComponent(`http://x.test/${i}`)}`;
      topics.push(t);
      size += t.length + 1;
    }
    await withinLimits(
      post('/websub', `hub.mode=publish&${topics.join('&')}`, 'application/x-www-form-urlencoded', query),
      429,
    );
    cloud = main;
  });
});

describe('GET /pingSiteForm', () => {
  it('a query as long as a request line may be, control characters included: answered in time', async () => {
    const name = '\u0001<&>'.repeat(1000);
    const q = new URLSearchParams({ name, url: `${peer.url}/site` }).toString();
    await withinLimits(() => fetch(`${cloud.url}/pingSiteForm?${q}`), [200, 422]);
  });
});
