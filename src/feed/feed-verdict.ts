/**
 * "Is this a feed, a feed that does not parse, or no feed at all?", asked where an address was
 * given as a feed: the parser's own reason ("not well-formed XML: ... (line 12, column 3)") tells
 * the person more than "no feed found" after a round of guessing (issues 9 and 35). One answer for
 * "Add a feed" and Edit address (app/subscribe, app/move-feed) and `tidings parse` / `tidings
 * fetch` (cli/cli-input), from one parse of the body: the parser's verdict and its reason are the
 * same answer, so asking them apart parsed a broken feed twice.
 */
import { detectFormat } from './detect.ts';
import { parseFeed } from './parse.ts';

/**
 * A body that parses is a feed; one that says it is a feed (by its type or its start) and does not
 * parse is broken, with the parser's reason; anything else is not a feed.
 */
export type FeedVerdict = { kind: 'feed' } | { kind: 'broken'; reason: string } | { kind: 'notFeed' };

export function judgeFeed(body: Uint8Array, contentType: string | null, maxParseMs?: number): FeedVerdict {
  const parsed = parseFeed(body, { contentType, maxParseMs });
  if (parsed.kind !== 'error') return { kind: 'feed' };
  return claimsToBeFeed(body, contentType)
    ? { kind: 'broken', reason: parsed.error.message }
    : { kind: 'notFeed' };
}

function claimsToBeFeed(body: Uint8Array, contentType: string | null): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(body.subarray(0, 4096));
  const claimsXml = detectFormat(head.replace(/^\uFEFF/, '')).kind === 'xml';
  const claimsJson = /^\s*\{/.test(head) && /jsonfeed\.org\/version/i.test(head);
  const typed = /(rss|atom|rdf)\+xml|feed\+json/i.test(contentType ?? '');
  return claimsXml || claimsJson || typed;
}
