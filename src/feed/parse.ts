/**
 * The one feed parser: bytes (or text) in, a ParseResult out, never a throw. Decodes the bytes,
 * asks detect.ts what they are, and hands them to the reader for that format (rss/, rdf/, atom/,
 * json/), each adapting its own shape into the one Feed model.
 */
import { tidingsError } from '../common/errors.ts';
import { readAtomFeed } from './atom/atom-feed.ts';
import { Deadline, ParseTimeout } from './deadline.ts';
import { detectFormat, hasJsonFeedVersion, jsonFeedFormat } from './detect.ts';
import { decodeFeedBytes } from './encoding.ts';
import { isFileUrl, jsonSiteLink, xmlSiteLink } from './file-base.ts';
import { DEFAULT_MAX_ITEMS, noteCapped } from './item-cap.ts';
import { readJsonFeed } from './json/json-feed.ts';
import { parseJsonFeedText } from './json/json-items.ts';
import { mayRepeatDates, renameRepeatedDates } from './json/repeated-dates.ts';
import { encodingNote, leadingJunkNote, mendedNote, trailingJunkNote } from './parse-notes.ts';
import type { ParseNote, ParseOptions, ParseResult } from './parse-types.ts';
import { readRdfFeed } from './rdf/rdf-feed.ts';
import type { ReadContext } from './read-context.ts';
import { readRssFeed } from './rss/rss-feed.ts';
import { resolveUrl } from './urls.ts';
import { blankOut, findLeadingJunk } from './xml/junk.ts';
import { child, parseXml, text } from './xml/tree.ts';
import type { XmlProblem } from './xml/wellformed.ts';

export const DEFAULT_MAX_PARSE_MS = 5000;
export { DEFAULT_MAX_ITEMS };

/**
 * Parses a feed. Errors come back as values with stable codes: `feed.malformed` (broken XML or
 * JSON, with line and column when known), `feed.notAFeed` (HTML, empty, unknown root),
 * `feed.tooSlow` (past `opts.maxParseMs`; Infinity disables the cap, 0 fails at once). A feed
 * comes with notes for its status, one per repair (ParseNote): a cut or a mismatched end tag,
 * junk before or after the root, an encoding fallen back from, guessed or mended, items past
 * `opts.maxItems` left out, a JSON Feed without version. Text given as a string is taken as
 * already decoded: the encoding repairs (and C1 controls read as windows-1252) apply to bytes.
 */
export function parseFeed(body: Uint8Array | string, options?: ParseOptions): ParseResult {
  const opts = options ?? {};
  const limitMs = typeof opts.maxParseMs === 'number' ? opts.maxParseMs : DEFAULT_MAX_PARSE_MS;
  const deadline = new Deadline(Number.isNaN(limitMs) ? DEFAULT_MAX_PARSE_MS : limitMs);
  try {
    const notes: ParseNote[] = [];
    let doc = typeof body === 'string' ? stripBom(body) : decodeNoting(body, opts.contentType, notes);
    deadline.check();
    const ctx: ReadContext = {
      url: opts.url?.trim() || null,
      deadline,
      maxItems: maxItemsOf(opts),
      notes,
      overflow: null,
    };
    let detected = detectFormat(doc);
    if (detected.kind === 'none') {
      // Junk a server printed before the feed (a PHP warning): read past it, and say so.
      const junk = findLeadingJunk(doc);
      const past = junk === null ? null : blankOut(doc, junk);
      const again = past === null ? null : detectFormat(past);
      if (
        junk !== null &&
        past !== null &&
        again !== null &&
        again.kind !== 'none' &&
        again.kind !== 'json'
      ) {
        notes.push(leadingJunkNote(doc, junk));
        doc = past;
        detected = again;
      }
    }
    switch (detected.kind) {
      case 'none':
        return failure('feed.notAFeed', detected.reason);
      case 'json':
        return parseJson(doc, ctx);
      case 'redirect': {
        const parsed = parseXml(doc, 'other', deadline);
        if (!parsed.ok) return malformed(parsed.problem);
        const location = text(child(parsed.root, 'newLocation'));
        return { kind: 'redirect', newLocation: resolveUrl(location, ctx.url) };
      }
      case 'xml': {
        const parsed = parseXml(doc, detected.family, deadline, ctx.maxItems);
        if (!parsed.ok) return malformed(parsed.problem);
        ctx.overflow = parsed.overflow;
        if (parsed.repaired) {
          notes.push({
            code: 'feed.repaired',
            message: 'The feed was cut off at its end; it was read up to its last complete item.',
          });
        }
        if (parsed.mended !== null) notes.push(mendedNote(doc, parsed.mended));
        if (parsed.trailing !== null) notes.push(trailingJunkNote(doc, parsed.trailing));
        if (parsed.skipped > 0) {
          notes.push({
            code: 'feed.elementsSkipped',
            message: `The feed has far more elements than a feed needs; ${parsed.skipped} were left unread.`,
            args: { skipped: parsed.skipped },
          });
        }
        if (isFileUrl(ctx.url)) ctx.url = xmlSiteLink(parsed.root, detected.family) ?? ctx.url;
        const read =
          detected.family === 'rss' ? readRssFeed : detected.family === 'rdf' ? readRdfFeed : readAtomFeed;
        return { kind: 'feed', feed: read(parsed.root, detected.format, ctx), notes };
      }
    }
  } catch (e) {
    if (e instanceof ParseTimeout) {
      return failure(
        'feed.tooSlow',
        `Reading the feed took longer than ${e.limitMs} ms, so it was abandoned (too large or too complex).`,
        { limitMs: e.limitMs },
      );
    }
    const why = e instanceof Error ? e.message : String(e);
    return failure('feed.malformed', `The feed could not be read: ${why}`, undefined, e);
  }
}

/** NaN / Infinity where a JSON value goes (after `:`, `[` or `,`): what JavaScript writers leak. */
const NON_JSON_NUMBER = /[:[,]\s*(-?Infinity|NaN)\s*[,\]}]/;

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The bytes as text; a fallback, a guess or a repair of the encoding is noted. */
function decodeNoting(bytes: Uint8Array, contentType: string | null | undefined, notes: ParseNote[]): string {
  const decoded = decodeFeedBytes(bytes, contentType);
  const note = encodingNote(decoded);
  if (note !== null) notes.push(note);
  return decoded.text;
}

function parseJson(doc: string, ctx: ReadContext): ParseResult {
  let json: unknown;
  try {
    let capped = false;
    json = parseJsonFeedText(doc, ctx.maxItems, (total) => {
      capped = true;
      noteCapped(ctx, total, ctx.maxItems);
    });
    // A date named twice in an item: the first wins, as in the XML formats (issue 34). Not
    // looked for in a document past the item cap: its dates outnumber the items read anyway.
    if (!capped && mayRepeatDates(doc, json)) json = JSON.parse(renameRepeatedDates(doc));
  } catch (e) {
    const bad = NON_JSON_NUMBER.exec(doc);
    if (bad) {
      return failure(
        'feed.malformed',
        `The feed is not valid JSON: it contains ${bad[1]}, and JSON has no NaN or Infinity.`,
        { token: bad[1]! },
        e,
      );
    }
    const why = e instanceof Error ? e.message : String(e);
    return failure('feed.malformed', `The feed is not valid JSON: ${why}.`, undefined, e);
  }
  ctx.deadline.check();
  const format = jsonFeedFormat(json);
  if (format === null) return failure('feed.notAFeed', 'The document is JSON, but not a JSON Feed.');
  if (!hasJsonFeedVersion(json)) {
    ctx.notes.push({
      code: 'feed.noVersion',
      message: 'The JSON Feed does not say its version; it was read as JSON Feed 1.1.',
    });
  }
  const feedDoc = json as Record<string, unknown>;
  if (isFileUrl(ctx.url)) ctx.url = jsonSiteLink(feedDoc) ?? ctx.url;
  return { kind: 'feed', feed: readJsonFeed(feedDoc, format, ctx), notes: ctx.notes };
}

/** ParseOptions.maxItems as a usable count: a positive integer or Infinity. */
function maxItemsOf(opts: ParseOptions): number {
  const n = opts.maxItems;
  if (n === undefined || Number.isNaN(n)) return DEFAULT_MAX_ITEMS;
  return n === Number.POSITIVE_INFINITY ? n : Math.max(1, Math.floor(n));
}

function malformed(p: XmlProblem): ParseResult {
  return failure(
    'feed.malformed',
    `The feed is not well-formed XML: ${p.message} (line ${p.line}, column ${p.column}).`,
    { line: p.line, column: p.column },
  );
}

function failure(
  code: string,
  message: string,
  args?: Record<string, string | number>,
  cause?: unknown,
): ParseResult {
  return { kind: 'error', error: tidingsError(code, message, args, cause) };
}
