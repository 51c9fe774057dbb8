import type { TidingsError } from '../common/errors.ts';
import type { Feed } from './model.ts';

export interface ParseOptions {
  /** The URL the bytes came from: the last base for relative URLs (after xml:base). */
  url?: string | null;
  /** The HTTP Content-Type header, whose charset wins over the XML declaration (not over a BOM). */
  contentType?: string | null;
  /** Stop and fail when parsing takes longer than this (hostile or enormous input). */
  maxParseMs?: number;
}

/**
 * What parsing bytes can give: a feed; an XML redirect (`<redirect><newLocation>`, treated as a
 * 301; an empty or missing newLocation means the feed is gone); or a readable error.
 */
export type ParseResult =
  | { kind: 'feed'; feed: Feed }
  | { kind: 'redirect'; newLocation: string | null }
  | { kind: 'error'; error: TidingsError };
