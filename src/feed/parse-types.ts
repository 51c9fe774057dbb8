import type { TidingsError } from '../common/errors.ts';
import type { Feed } from './model.ts';

export interface ParseOptions {
  /** The URL the bytes came from: the last base for relative URLs (after xml:base). */
  url?: string | null;
  /** The HTTP Content-Type header, whose charset wins over the XML declaration (not over a BOM). */
  contentType?: string | null;
  /** Stop and fail when parsing takes longer than this (hostile or enormous input). */
  maxParseMs?: number;
  /**
   * Read at most the newest this-many items of the document (DEFAULT_MAX_ITEMS; Infinity reads
   * all). The rest are left out and a `feed.itemsCapped` note says how many.
   */
  maxItems?: number;
}

/**
 * Something the parser did that the feed's status should say, although the feed was read:
 * `feed.repaired` (a document cut off at its end was closed, or end tags that did not match were
 * read as if they did), `feed.itemsCapped` (args: kept, total), `feed.noVersion` (a JSON Feed
 * without `version`), `feed.encodingFallback` (the declared charset did not decode cleanly; args:
 * declared, used, guess when chardet chose), `feed.encodingGuessed` (no charset named and not
 * UTF-8: chardet guessed; args: guess), `feed.badBytes` (UTF-8 with bytes that are not, replaced;
 * args: bad, line, column), `feed.textBeforeRoot` / `feed.textAfterRoot` (junk a server printed
 * around the feed, such as a PHP warning or an analytics script, ignored; args: line),
 * `feed.elementsSkipped` (far more elements than any feed needs; the excess was left unread;
 * args: skipped), `feed.contentNotBase64` (Atom content whose media type calls for Base64 was not
 * Base64 and is shown as text; args: types).
 */
export interface ParseNote {
  readonly code:
    | 'feed.repaired'
    | 'feed.itemsCapped'
    | 'feed.noVersion'
    | 'feed.encodingFallback'
    | 'feed.encodingGuessed'
    | 'feed.badBytes'
    | 'feed.textBeforeRoot'
    | 'feed.textAfterRoot'
    | 'feed.elementsSkipped'
    | 'feed.contentNotBase64';
  readonly message: string;
  readonly args?: Readonly<Record<string, string | number>>;
}

/**
 * What parsing bytes can give: a feed (with notes, usually none); an XML redirect
 * (`<redirect><newLocation>`, treated as a 301; an empty or missing newLocation means the feed is
 * gone); or a readable error.
 */
export type ParseResult =
  | { kind: 'feed'; feed: Feed; notes: ParseNote[] }
  | { kind: 'redirect'; newLocation: string | null }
  | { kind: 'error'; error: TidingsError };
