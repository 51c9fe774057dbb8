/**
 * No single request can freeze browser mode's API (issue 31): each command's worst allowed input,
 * sent from outside the app's process, is answered in under 1 s, and a `GET /` sent meanwhile in
 * under 100 ms. Before: any command took 10 MB (a 10 MB address took 3.8 s to refuse, 10 MB of
 * text to count 1.4 s). The commands that take a document (an OPML list, a post's file) keep
 * their 10 MB and are not covered here: reading 10 MB still holds the app for 100-300 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_TEXT_CHARS } from '../app/shape.ts';
import { type AppProcess, calmestOf, startAppProcess, timed, whileBusy } from '../testing/app-process.ts';
import { API_BODY_BYTES } from './api-http.ts';

let dir: string;
let app: AppProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-bm-worst-'));
  app = await startAppProcess(join(dir, 'app'));
}, 30_000);
afterAll(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

const send = (method: string, body: string) => () =>
  timed(`${app.api}/api/${method}`, {
    body,
    headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
  });
const args = (...a: unknown[]) => JSON.stringify({ args: a });

it.each([
  ['subscribe to an address of 64 K characters', 'subscribe', args({ url: 'a'.repeat(MAX_TEXT_CHARS) }), 200],
  ['search 64 K characters of OR', 'search', args('a OR '.repeat(MAX_TEXT_CHARS / 5), 50), 200],
  ['count 64 K characters of emoji', 'countChars', args('👍🏽'.repeat(MAX_TEXT_CHARS / 4)), 200],
  ['an address one character over the cap', 'subscribe', args({ url: 'a'.repeat(MAX_TEXT_CHARS + 1) }), 400],
  [
    'a body of half a million values',
    'markRead',
    `{"args":[[${'1,'.repeat(API_BODY_BYTES / 2 - 16)}1],true]}`,
    413,
  ],
  ['a body over the cap', 'listFeeds', args('x'.repeat(API_BODY_BYTES)), 413],
])('%s', async (_name, method, body, status) => {
  const r = await calmestOf(() => whileBusy(send(method, body), `${app.api}/`));
  expect(r.heavy.status).toBe(status);
  expect(r.heavy.ms).toBeLessThan(1_000);
  expect(r.slowestProbe).toBeLessThan(100);
});
