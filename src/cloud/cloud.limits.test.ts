/**
 * The cloud is not a request cannon (issue 10): one pleaseNotify names at most 100 resources, and
 * one caller may make it read and test at most so many times per minute. Refusals carry a sentence
 * in the reference cloud's style, and nothing is read or tested for a refused request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../common/clock.ts';
import { Peer, postForm, restXml, rpcCall, startCloud, type TestCloud } from '../testing/cloud-kit.ts';
import { runCloudCli } from './cli.ts';
import { CallerBudget } from './core/budget.ts';
import { messages } from './core/messages.ts';

let peer: Peer;
let cloud: TestCloud;

beforeEach(async () => {
  peer = await new Peer().start(false);
});

afterEach(async () => {
  await cloud?.close();
  await peer.close();
});

function form(urls: string[]): Record<string, string | number> {
  const f: Record<string, string | number> = { port: peer.port, path: '/feedupdated', protocol: 'http-post' };
  urls.forEach((u, i) => {
    f[`url${i + 1}`] = u;
  });
  return f;
}

describe('resources per pleaseNotify', () => {
  it('refuses 15,000 URLs in one request (about 1 MB) without reading or testing any', async () => {
    cloud = await startCloud();
    const urls = Array.from({ length: 15_000 }, (_, i) => `${peer.url}/feed-${i}.xml`);
    const res = await postForm(`${cloud.url}/pleaseNotify`, form(urls));
    expect(res.text).toBe(restXml('notifyResult', false, messages.tooManyResources(100, 15_000)));
    await cloud.cloud.idle();
    expect(peer.requests).toHaveLength(0);
  });

  it('refuses 101 over XML-RPC with a fault, accepts 100', async () => {
    cloud = await startCloud();
    peer.route('POST', '/feedupdated', 200, 'Thanks!');
    const urls = Array.from({ length: 101 }, (_, i) => `${peer.url}/f${i}.xml`);
    for (const u of urls) peer.route('GET', new URL(u).pathname, 200, '<rss/>');
    const call = (list: string[]) =>
      rpcCall(`${cloud.url}/RPC2`, 'rssCloud.pleaseNotify', [
        '',
        peer.port,
        '/feedupdated',
        'http-post',
        list,
      ]);
    const refused = await call(urls);
    expect(refused.answer).toEqual({
      kind: 'fault',
      faultCode: 4,
      faultString: messages.tooManyResources(100, 101),
    });
    expect(peer.requests).toHaveLength(0);
    const accepted = await call(urls.slice(0, 100));
    expect(accepted.answer).toEqual({ kind: 'value', value: true });
  });
});

describe('work per caller per minute', () => {
  it('cuts a burst short with a readable sentence, and lets the caller back in as the minute passes', async () => {
    cloud = await startCloud({
      callerLimits: { perMinute: 10, burst: 10 },
      pingLimits: { perMinute: 2, burst: 2 },
    });
    const clock = cloud.clock as ManualClock;
    peer.route('POST', '/feedupdated', 200, 'Thanks!');
    const urls = Array.from({ length: 6 }, (_, i) => `${peer.url}/f${i}.xml`);
    for (const u of urls) peer.route('GET', new URL(u).pathname, 200, '<rss/>');

    // 5 resources: 5 reads + 5 handler tests = the whole budget.
    const first = await postForm(`${cloud.url}/pleaseNotify`, form(urls.slice(0, 5)), 'application/json');
    expect(JSON.parse(first.text)).toEqual({ success: true, msg: messages.subscribed });
    const before = peer.requests.length;

    const over = await postForm(`${cloud.url}/pleaseNotify`, form(urls.slice(5)), 'application/json');
    expect(JSON.parse(over.text)).toEqual({ success: false, msg: messages.overBudget(10, 12) });
    expect(peer.requests.length).toBe(before);
    expect(cloud.cloud.recentLog().some((e) => e.kind === 'refused')).toBe(true);
    // Pings spend from a budget of their own (issue 15: an aggregator's 2,593 registrations got
    // the same address's publisher refused): the ping is read at once...
    const ping = await postForm(`${cloud.url}/ping`, { url: urls[0]! }, 'application/json');
    expect(JSON.parse(ping.text)).toEqual({ success: true, msg: messages.pinged });
    expect(peer.requests.length).toBe(before + 1);
    // ...and held to its own rate: 2 a minute here, one more passes, the next waits 30 s.
    await postForm(`${cloud.url}/ping`, { url: urls[0]! }, 'application/json');
    const third = await postForm(`${cloud.url}/ping`, { url: urls[0]! }, 'application/json');
    expect(JSON.parse(third.text)).toEqual({ success: false, msg: messages.overBudget(2, 30) });

    clock.advance(12_000);
    const again = await postForm(`${cloud.url}/pleaseNotify`, form(urls.slice(5)), 'application/json');
    expect(JSON.parse(again.text)).toEqual({ success: true, msg: messages.subscribed });
  });
});

describe('CallerBudget', () => {
  it('says "1 second", not "1 seconds" (issue 14)', () => {
    expect(messages.overBudget(3, 1)).toMatch(/try again in 1 second\.$/);
    expect(messages.overBudget(3, 2)).toMatch(/try again in 2 seconds\.$/);
  });

  it('refills continuously, keeps callers apart, and never lets one request exceed a full minute', () => {
    let now = 0;
    const budget = new CallerBudget({ now: () => now }, { perMinute: 60, burst: 60 });
    expect(budget.spend('a', 60)).toEqual({ ok: true });
    expect(budget.spend('a', 1)).toEqual({ ok: false, left: 0, retryAfterSec: 1 });
    expect(budget.spend('b', 60)).toEqual({ ok: true });
    now += 30_000;
    expect(budget.spend('a', 31)).toEqual({ ok: false, left: 30, retryAfterSec: 1 });
    expect(budget.spend('a', 30)).toEqual({ ok: true });
    // Asking for more than a minute's worth waits for a full bucket, not for ever.
    expect(budget.spend('a', 500)).toMatchObject({ ok: false, retryAfterSec: 60 });
  });

  it('lets a burst through after a quiet spell, then holds the caller to the rate', () => {
    let now = 0;
    const budget = new CallerBudget({ now: () => now }, { perMinute: 60, burst: 300 });
    expect(budget.spend('a', 300)).toEqual({ ok: true }); // e.g. 150 registrations at start
    expect(budget.spend('a', 2)).toEqual({ ok: false, left: 0, retryAfterSec: 2 });
    now += 60_000;
    expect(budget.spend('a', 60)).toEqual({ ok: true });
    expect(budget.spend('a', 1)).toMatchObject({ ok: false });
    // The default: 1,000 a minute on average, 5,000 at once (2,500 registrations).
    expect(new CallerBudget({ now: () => 0 }).limits).toEqual({
      maxUrlsPerRequest: 100,
      perMinute: 1_000,
      burst: 5_000,
    });
  });
});

describe('tidings cloud flags', () => {
  it('--max-resources, --work-per-minute and --pings-per-minute set the limits; bad values are usage errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidings-cloud-flags-'));
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let stop = () => {};
    const stopSignal = new Promise<void>((r) => {
      stop = r;
    });
    const io = { stdout, stderr, stdin: new PassThrough(), stopSignal };
    const listening = new Promise<string>((resolve) => {
      let out = '';
      stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+?)\/? /.exec(out);
        if (m) resolve(m[1]!);
      });
    });
    const exited = runCloudCli(
      [
        '--port',
        '0',
        '--data',
        dir,
        '--allow-loopback',
        '--max-resources',
        '2',
        '--work-per-minute',
        '1',
        '--pings-per-minute',
        '3',
      ],
      io,
    );
    try {
      const url = await listening;
      const urls = [1, 2, 3].map((i) => `${peer.url}/f${i}.xml`);
      const three = await postForm(`${url}/pleaseNotify`, form(urls), 'application/json');
      expect(JSON.parse(three.text)).toEqual({ success: false, msg: messages.tooManyResources(2, 3) });
      // A bucket of 5 x 3 = 15 units: 15 pings pass (each reads, and fails: nothing is served),
      // the 16th is refused.
      for (let i = 0; i < 15; i++) await postForm(`${url}/ping`, { url: urls[0]! }, 'application/json');
      const over = await postForm(`${url}/ping`, { url: urls[0]! }, 'application/json');
      expect(JSON.parse(over.text)).toEqual({ success: false, msg: messages.overBudget(3, 20) });
      // Registrations: a bucket of 5 x 1 = 5 units, 2 per resource; the third resource is refused.
      await postForm(`${url}/pleaseNotify`, form(urls.slice(0, 2)), 'application/json');
      const reg = await postForm(`${url}/pleaseNotify`, form(urls.slice(2)), 'application/json');
      expect(JSON.parse(reg.text)).toEqual({ success: false, msg: messages.overBudget(1, 60) });
    } finally {
      stop();
      expect(await exited).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
    const bad = await runCloudCli(['--work-per-minute', 'lots'], { ...io, stopSignal: Promise.resolve() });
    expect(bad).toBe(2);
  });
});
