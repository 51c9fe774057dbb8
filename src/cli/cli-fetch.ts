/** `tidings fetch <url>`: one polite fetch, showing what a poll would do and when the next one is due. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../app/context.ts';
import { metaOf } from '../app/refresh.ts';
import { systemClock } from '../common/clock.ts';
import { normaliseUserUrl } from '../feed/discover.ts';
import { parseFeed } from '../feed/parse.ts';
import type { ParseResult } from '../feed/parse-types.ts';
import { maskUrl } from '../net/mask.ts';
import type { FeedFetchResult } from '../net/types.ts';
import { type DueInput, nextDue } from '../poll/due.ts';
import { openStore } from '../store/store.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { cliHttpClient, discoverFeedUrl } from './cli-input.ts';
import { dataDirOption } from './paths.ts';
import { countOf } from './plural.ts';

const HELP = `Usage: tidings fetch <url-or-site> [--data DIR] [--etag E] [--last-modified D]

One polite fetch of a feed (a site's address, even a bare example.com, is followed to its feed
as "Add a feed" does): prints the HTTP status, the validators sent (from your subscription
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
  const address = positionals[0];
  if (!address || positionals.length > 1)
    throw new UsageError('fetch needs exactly one address (try tidings fetch --help)');
  const normalised = normaliseUserUrl(address);
  if (!normalised.ok) throw new UsageError(normalised.error.message);

  const dataDir = dataDirOption(values.data as string | undefined);
  const given = {
    etag: (values.etag as string | undefined) ?? null,
    lastModified: (values['last-modified'] as string | undefined) ?? null,
  };
  const http = cliHttpClient();
  const out: string[] = [];
  let url = normalised.value;
  let discoveredFrom: string | null = null;
  let res: FeedFetchResult;
  let parsed: ParseResult | null;
  let intervalMin: number;
  try {
    // A bare host or a site's page: find its feed first, as "Add a feed" does.
    if (!/^https?:\/\//i.test(address.trim())) {
      const found = await discoverFeedUrl(address, http);
      if (!found.ok) {
        console.log(`${maskUrl(url)}\n  error: ${found.error.message}`);
        return 1;
      }
      discoveredFrom = address;
      url = found.value;
    }
    let plan = pollPlan(dataDir, url, given);
    res = await http.fetchFeed({ url, etag: plan.etag, lastModified: plan.lastModified });
    parsed =
      res.kind === 'ok' ? parseFeed(res.body, { url: res.finalUrl, contentType: res.contentType }) : null;
    if (parsed?.kind === 'error' && discoveredFrom === null) {
      const found = await discoverFeedUrl(url, http);
      if (found.ok && found.value !== url) {
        discoveredFrom = url;
        url = found.value;
        plan = pollPlan(dataDir, url, given);
        res = await http.fetchFeed({ url, etag: plan.etag, lastModified: plan.lastModified });
        parsed =
          res.kind === 'ok' ? parseFeed(res.body, { url: res.finalUrl, contentType: res.contentType }) : null;
      }
    }
    intervalMin = plan.intervalMin;
  } finally {
    http.close();
  }
  if (discoveredFrom !== null) out.push(`${maskUrl(discoveredFrom)}: the feed found there is`);
  out.push(`${maskUrl(url)}`);
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
      if (parsed?.kind === 'feed') {
        const meta = metaOf(parsed.feed);
        Object.assign(due, {
          ttl: meta.ttl,
          skipHours: meta.skipHours,
          skipDays: meta.skipDays,
          sy: meta.sy,
        });
        out.push(
          `  feed: ${parsed.feed.title ?? '(untitled)'} [${parsed.feed.format}], ${countOf(parsed.feed.items.length, 'item')}`,
        );
      } else if (parsed?.kind === 'redirect') {
        out.push(`  XML redirect to ${parsed.newLocation ?? '(nowhere: gone)'}`);
      } else {
        failed = true;
        due.consecutiveErrors = 1;
        out.push(`  error: ${parsed?.kind === 'error' ? parsed.error.message : 'not a feed'}`);
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

/** The validators and interval a poll of `url` would use: given ones, else the subscription's. */
function pollPlan(
  dataDir: string,
  url: string,
  given: { etag: string | null; lastModified: string | null },
): { etag: string | null; lastModified: string | null; intervalMin: number } {
  const plan = { ...given, intervalMin: DEFAULT_SETTINGS.pollIntervalMin };
  if (!existsSync(join(dataDir, 'tidings.db')) || given.etag !== null || given.lastModified !== null)
    return plan;
  const store = openStore(join(dataDir, 'tidings.db'));
  try {
    const feed = store.getFeedByUrl(url);
    if (feed) {
      plan.etag = feed.etag;
      plan.lastModified = feed.lastModified;
      plan.intervalMin = feed.intervalMin ?? store.getSetting('pollIntervalMin', plan.intervalMin);
    }
    return plan;
  } finally {
    store.close();
  }
}
