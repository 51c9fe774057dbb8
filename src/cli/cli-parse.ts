/** `tidings parse <file-or-url>... [--json]` */

import type { Feed, Item } from '../feed/model.ts';
import { parseFeed } from '../feed/parse.ts';
import type { ParseNote } from '../feed/parse-types.ts';
import { htmlToText } from '../store/html-text.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { cliHttpClient, readFeedInput } from './cli-input.ts';
import { countOf } from './plural.ts';

const HELP = `Usage: tidings parse <file-or-url>... [--json]

Parses each feed (RSS 0.9x/1.0/2.0, Atom, JSON Feed) and prints the normalised model, with what
the parser had to repair as "note:" lines: a document cut off at its end, an end tag that did not
match ("End tag </subtitle> repaired"), text before or after the root element (a PHP warning, an
analytics script), an encoding guessed or fallen back from, bytes that are not UTF-8, items past
the cap left out, a JSON Feed without a version. A feed that does not parse gives the parser's
reason, with its line and column.
  --json   one JSON document per line, in order, the notes in its "notes" array
           ([] when none: each {code, message, args?}); a failed one prints {"error": "..."}
Exits 1 when any input failed.`;

export async function runParse(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length === 0)
    throw new UsageError('parse needs at least one file or URL (try tidings parse --help)');
  const http = cliHttpClient();
  let failures = 0;
  try {
    for (const source of positionals) {
      const input = await readFeedInput(source, http);
      const parsed = input.ok
        ? parseFeed(input.value.body, { url: input.value.url, contentType: input.value.contentType })
        : ({ kind: 'error', error: input.error } as const);
      if (parsed.kind === 'feed') {
        // The feed's own keys stay where they were; "notes" is added beside them.
        console.log(
          values.json
            ? JSON.stringify({ ...parsed.feed, notes: parsed.notes })
            : describeFeed(source, parsed.feed, parsed.notes),
        );
        continue;
      }
      failures++;
      const message =
        parsed.kind === 'redirect'
          ? parsed.newLocation
            ? `The feed has moved to ${parsed.newLocation}.`
            : 'The feed says it is gone (redirect with no new location).'
          : parsed.error.message;
      if (values.json) console.log(JSON.stringify({ error: message }));
      else console.error(`${source}: ${message}`);
    }
  } finally {
    http.close();
  }
  return failures > 0 ? 1 : 0;
}

function describeFeed(source: string, feed: Feed, notes: readonly ParseNote[]): string {
  const lines = [
    `${source}`,
    `  ${feed.title ?? '(untitled)'} [${feed.format}] ${feed.link ?? ''}`.trimEnd(),
    `  ${countOf(feed.items.length, 'item')}` +
      (feed.ttl !== null ? `, ttl ${feed.ttl} min` : '') +
      (feed.cloud
        ? `, rssCloud ${feed.cloud.protocol} at ${feed.cloud.domain}:${feed.cloud.port}${feed.cloud.path}`
        : ''),
  ];
  // What the parser had to do to read it: said before the items, so a long list cannot hide it.
  for (const note of notes) lines.push(`  note: ${note.message}`);
  for (const item of feed.items.slice(0, 20)) {
    lines.push(`  - ${item.published ?? '(no date)'}  ${itemLabel(item)}`);
  }
  if (feed.items.length > 20) lines.push(`  ... and ${countOf(feed.items.length - 20, 'more item')}`);
  return lines.join('\n');
}

/**
 * One line naming an item: its title, else the start of its text as a reader sees it (the one
 * HTML-to-text the search index uses: scripts and styles are not text), else its enclosure.
 */
function itemLabel(item: Item): string {
  if (item.title) return item.title;
  const text = htmlToText(item.summary ?? item.content ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text) return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  const enclosure = item.enclosures[0]?.url;
  return enclosure ? `(enclosure) ${enclosure}` : '(untitled)';
}
