/**
 * rssCloud.saveRss(username, password, rssText) from the 2009 walkthrough: an operator-made
 * account saves its feed here; the cloud serves it at a stable public URL and notifies that
 * feed's subscribers. Wrong credentials or a text that is not a feed: a fault, nothing saved.
 * One feed per account (the call names no feed), at `{public base}/feeds/{name}.xml`.
 */
import type { Clock } from '../../common/clock.ts';
import type { ParseResult } from '../../feed/parse-types.ts';
import { dropInvalidCharRefs, stripInvalidXmlChars } from '../../feed/xml-escape.ts';
import type { CloudStore } from '../store/store.ts';
import { checkLogin } from './accounts.ts';
import type { CloudCore } from './core.ts';
import type { CloudLog } from './log.ts';
import { messages } from './messages.ts';
import { sha256 } from './resource.ts';
import type { SaveRssParams } from './types.ts';

export const DEFAULT_MAX_FEED_BYTES = 1024 * 1024;

export interface SaveRssDeps {
  store: CloudStore;
  core: CloudCore;
  log: CloudLog;
  clock: Clock;
  parseFeed: (body: string) => ParseResult | Promise<ParseResult>;
  maxFeedBytes: number;
}

export type SaveRssOutcome = { ok: true; url: string } | { ok: false; message: string };

/** The public URL of an account's saved feed. */
export function savedFeedUrl(publicBase: string, name: string): string {
  return `${publicBase.replace(/\/+$/, '')}/feeds/${encodeURIComponent(name.toLowerCase())}.xml`;
}

export async function saveRss(
  deps: SaveRssDeps,
  p: SaveRssParams,
  publicBase: string,
): Promise<SaveRssOutcome> {
  const { store, log, clock } = deps;
  if (!(await checkLogin(store, p.username, p.password))) {
    log.add({ kind: 'saveRssFailed', detail: 'wrong username or password' });
    return { ok: false, message: messages.saveRssBadLogin };
  }
  const size = Buffer.byteLength(p.text);
  if (size > deps.maxFeedBytes) {
    log.add({ kind: 'saveRssFailed', detail: `feed of ${size} bytes refused` });
    return { ok: false, message: messages.saveRssTooLarge(deps.maxFeedBytes) };
  }
  // Served to every reader as saved: what XML 1.0 cannot hold would make it unreadable to all.
  const stripped = stripInvalidXmlChars(p.text);
  const parsed = await safeParse(deps.parseFeed, stripped);
  if (parsed.kind !== 'feed') {
    const reason = parsed.kind === 'error' ? parsed.error.message : 'it is a redirect document, not a feed.';
    log.add({ kind: 'saveRssFailed', detail: reason });
    return { ok: false, message: messages.saveRssNotFeed(reason) };
  }
  const account = await store.getAccount(p.username);
  const name = account?.name ?? p.username;
  const url = savedFeedUrl(publicBase, name);
  const format = parsed.feed.format;
  const text = format.startsWith('json') ? stripped : dropInvalidCharRefs(stripped);
  const contentType = format.startsWith('atom')
    ? 'application/atom+xml; charset=utf-8'
    : format.startsWith('json')
      ? 'application/feed+json; charset=utf-8'
      : format === 'rss1.0'
        ? 'application/rdf+xml; charset=utf-8'
        : 'application/rss+xml; charset=utf-8';
  await store.saveFeed({
    name,
    publicUrl: url,
    body: text,
    contentType,
    hash: sha256(text),
    whenSaved: clock.now(),
  });
  await store.bump('feedsSaved');
  log.add({ kind: 'saveRss', feedUrl: url, detail: `${size} bytes saved` });
  // Read back through the same check as a ping: hash compare, then fan-out only on change.
  await deps.core.ping(url, { enforceInterval: false });
  return { ok: true, url };
}

async function safeParse(
  parse: (body: string) => ParseResult | Promise<ParseResult>,
  text: string,
): Promise<ParseResult> {
  try {
    return await parse(text);
  } catch (e) {
    return {
      kind: 'error',
      error: {
        code: 'feed.parse',
        message: e instanceof Error ? e.message : 'The text could not be parsed.',
      },
    };
  }
}
