/**
 * "Is this a feed that does not parse?", asked where an address was given as a feed: the parser's
 * own reason ("not well-formed XML: ... (line 12, column 3)") tells the person more than "no feed
 * found" after a round of guessing (issues 9 and 35). One answer for "Add a feed" (app/subscribe)
 * and `tidings parse` / `tidings fetch` (cli/cli-input).
 */
import { detectFormat } from './detect.ts';
import { parseFeed } from './parse.ts';

/** The parser's reason when a body that says it is a feed (by its type or its start) does not parse; null otherwise. */
export function brokenFeedReason(
  body: Uint8Array,
  contentType: string | null,
  maxParseMs?: number,
): string | null {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(body.subarray(0, 4096));
  const claimsXml = detectFormat(head.replace(/^\uFEFF/, '')).kind === 'xml';
  const claimsJson = /^\s*\{/.test(head) && /jsonfeed\.org\/version/i.test(head);
  const typed = /(rss|atom|rdf)\+xml|feed\+json/i.test(contentType ?? '');
  if (!claimsXml && !claimsJson && !typed) return null;
  const parsed = parseFeed(body, { contentType, maxParseMs });
  return parsed.kind === 'error' ? parsed.error.message : null;
}
