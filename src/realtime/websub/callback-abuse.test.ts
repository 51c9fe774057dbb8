/**
 * A stranger who learns a WebSub callback must not make the reader hammer the publisher (issue
 * 31: 203 header-only POSTs declaring more than 8 MB caused 170 fetches of the feed in 3.5 s).
 * A subscription that owes a signature fetches nothing for a body it cannot check; an unsigned
 * one (an http callback) fetches at most once per feed per gap, plus one at the gap's end.
 */
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import type { Tidings } from '../../app/tidings.ts';
import { subscribeLive, webSubWorld } from '../../testing/websub-reader.ts';
import { DEFAULT_DELIVERY_MAX_BYTES } from './callback.ts';
import { FALLBACK_FETCH_GAP_MS } from './reading.ts';

const w = webSubWorld('tidings-websub-abuse-');

/**
 * A POST that declares a body over the cap and sends none; resolves with the status line, which
 * comes at once (the server then waits a while for the body it would drop: this client leaves).
 */
function declareHuge(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(w.port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      if (answer.includes('\r\n')) {
        resolve(answer.split('\r\n')[0]!);
        socket.destroy();
      }
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${w.port}\r\nContent-Type: application/rss+xml\r\n` +
        `Content-Length: ${DEFAULT_DELIVERY_MAX_BYTES + 1}\r\nConnection: close\r\n\r\n`,
    );
  });
}

/** 203 of them, ten at a time, as the trial sent them. */
async function flood(path: string): Promise<string[]> {
  const lines: string[] = [];
  for (let sent = 0; sent < 203; sent += 10) {
    const batch = Array.from({ length: Math.min(10, 203 - sent) }, () => declareHuge(path));
    lines.push(...(await Promise.all(batch)));
  }
  return lines;
}

const callbackPath = () =>
  new URL(w.hub.requests.find((r) => r.mode === 'subscribe')!.params['hub.callback']!).pathname;
const settle = async (a: Tidings) => {
  await new Promise((r) => setTimeout(r, 50));
  await a.context.scheduler.idle();
};

it('a subscription that owes a signature fetches nothing for bodies too large to check', async () => {
  // The public address is https (a TLS tunnel in front), so the hub was given a secret.
  w.hub.knobs.reach = (cb) => cb.replace('https://reader.example', `http://127.0.0.1:${w.port}`);
  const app = await w.startReader({ publicBaseUrl: 'https://reader.example' });
  await subscribeLive(app, w.hub, `${w.host.url}/feed.xml`);
  expect(w.hub.requests[0]?.params['hub.secret']).toBeTruthy();
  const before = w.host.hits('/feed.xml');

  const lines = await flood(callbackPath());
  expect(new Set(lines)).toEqual(new Set(['HTTP/1.1 413 Payload Too Large']));
  w.clock.advance(10 * FALLBACK_FETCH_GAP_MS);
  await settle(app);
  expect(w.host.hits('/feed.xml')).toBe(before);
  expect(
    w.activity.filter((e) => e.result.includes('its signature cannot be checked, so nothing is fetched')),
  ).toHaveLength(203);
});

it('an unsigned subscription fetches at most once per gap, and once more at its end', async () => {
  const app = await w.startReader();
  await subscribeLive(app, w.hub, `${w.host.url}/feed.xml`);
  const before = w.host.hits('/feed.xml');

  const lines = await flood(callbackPath());
  expect(new Set(lines)).toEqual(new Set(['HTTP/1.1 413 Payload Too Large']));
  await settle(app);
  expect(w.host.hits('/feed.xml') - before).toBe(1);
  w.clock.advance(FALLBACK_FETCH_GAP_MS);
  await settle(app);
  expect(w.host.hits('/feed.xml') - before).toBe(2);
  w.clock.advance(10 * FALLBACK_FETCH_GAP_MS);
  await settle(app);
  expect(w.host.hits('/feed.xml') - before).toBe(2);
});
