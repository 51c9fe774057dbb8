/** `tidings fetch <url>`: one polite fetch, showing what a poll would do and when the next one is due. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../app/context.ts';
import { metaOf } from '../app/refresh.ts';
import { systemClock } from '../common/clock.ts';
import { parseFeed } from '../feed/parse.ts';
import { maskUrl } from '../net/mask.ts';
import { type DueInput, nextDue } from '../poll/due.ts';
import { openStore } from '../store/store.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { cliHttpClient } from './cli-input.ts';
import { defaultDataDir } from './paths.ts';

const HELP = `Usage: tidings fetch <url> [--data DIR] [--etag E] [--last-modified D]

One polite fetch of a feed: prints the HTTP status, the validators sent (from your subscription
when the URL is subscribed, or --etag/--last-modified), the bytes, the items, and when the feed
is next due and why (ttl, skipHours, Cache-Control...). Changes nothing in your data.`;

export async function runFetch(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    data: { type: 'string' },
    etag: { type: 'string' },
    'last-modified': { type: 'string' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const url = positionals[0];
  if (!url || positionals.length > 1)
    throw new UsageError('fetch needs exactly one URL (try tidings fetch --help)');
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`"${url}" is not an http(s) URL`);

  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  let etag = (values.etag as string | undefined) ?? null;
  let lastModified = (values['last-modified'] as string | undefined) ?? null;
  let intervalMin = DEFAULT_SETTINGS.pollIntervalMin;
  if (existsSync(join(dataDir, 'tidings.db')) && etag === null && lastModified === null) {
    const store = openStore(join(dataDir, 'tidings.db'));
    const feed = store.getFeedByUrl(url);
    if (feed) {
      etag = feed.etag;
      lastModified = feed.lastModified;
      intervalMin = feed.intervalMin ?? store.getSetting('pollIntervalMin', intervalMin);
    }
    store.close();
  }

  const http = cliHttpClient();
  const res = await http.fetchFeed({ url, etag, lastModified });
  http.close();
  const out: string[] = [`${maskUrl(url)}`];
  out.push(
    `  sent: If-None-Match ${res.sent.ifNoneMatch ?? '-'}, If-Modified-Since ${res.sent.ifModifiedSince ?? '-'}`,
  );
  if (res.movedTo) out.push(`  moved permanently to ${maskUrl(res.movedTo)}`);

  const due: DueInput = {
    intervalMin,
    ttl: null,
    skipHours: [],
    skipDays: [],
    sy: null,
    cache: res.cache,
    consecutiveErrors: 0,
    realtime: null,
  };
  let failed = false;
  switch (res.kind) {
    case 'ok': {
      out.push(
        `  status: ${res.status}, ${res.body.byteLength} bytes (${res.wireBytes} on the wire), ${res.elapsedMs} ms`,
      );
      out.push(`  validators: ETag ${res.etag ?? '-'}, Last-Modified ${res.lastModified ?? '-'}`);
      const parsed = parseFeed(res.body, { url: res.finalUrl, contentType: res.contentType });
      if (parsed.kind === 'feed') {
        const meta = metaOf(parsed.feed);
        Object.assign(due, {
          ttl: meta.ttl,
          skipHours: meta.skipHours,
          skipDays: meta.skipDays,
          sy: meta.sy,
        });
        out.push(
          `  feed: ${parsed.feed.title ?? '(untitled)'} [${parsed.feed.format}], ${parsed.feed.items.length} items`,
        );
      } else if (parsed.kind === 'redirect') {
        out.push(`  XML redirect to ${parsed.newLocation ?? '(nowhere: gone)'}`);
      } else {
        failed = true;
        due.consecutiveErrors = 1;
        out.push(`  error: ${parsed.error.message}`);
      }
      break;
    }
    case 'notModified':
      out.push(`  status: 304 Not Modified, 0 bytes, ${res.elapsedMs} ms`);
      break;
    case 'gone':
      out.push('  status: 410 Gone: a reader stops polling this feed');
      console.log(out.join('\n'));
      return 1;
    case 'error':
      failed = true;
      due.consecutiveErrors = 1;
      out.push(`  error: ${res.error.message}`);
      break;
  }
  const next = nextDue(due, systemClock.now(), () => 0.5);
  out.push(`  next due: ${new Date(next.at).toISOString()} (${next.reason})`);
  console.log(out.join('\n'));
  return failed ? 1 : 0;
}
