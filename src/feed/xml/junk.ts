/**
 * Junk a server printed before the feed (issue 34): a PHP warning or notice ahead of `<?xml`, a
 * byte order mark or blank lines in the wrong place. feedparser reads such a feed and flags it;
 * so do we. Looked for only after the document failed to start like a feed (parse.ts), so a
 * well-formed feed never pays for it. Junk after the root is the scan's concern (wellformed.ts).
 */
import { prologEnd } from './prolog.ts';

/** The junk's range in the text, [from, to): the feed proper starts at `to`. */
export interface LeadingJunk {
  from: number;
  to: number;
}

/** Warnings are a few hundred characters each; a page of them is the most a server prints. */
const SEARCH_WITHIN = 64 * 1024;

/** Where a feed document can start: its XML declaration or a feed's root element. */
const DOCUMENT_START = /<\?xml[\s?]|<(?:[A-Za-z_][\w.-]*:)?(?:rss|feed|RDF|redirect)[\s>/]/g;

/** A web page is not junk before a feed, even when it quotes one. */
const HTML_PAGE = /<(?:html|head|body)[\s>]|<!doctype\s+html/i;

/**
 * The junk between the prolog and the first place a feed document starts, or null when there
 * is none within reach (or what comes first is a web page).
 */
export function findLeadingJunk(text: string): LeadingJunk | null {
  const from = prologEnd(text);
  if (from === -1 || from >= text.length) return null;
  const reach = text.slice(from, from + SEARCH_WITHIN);
  DOCUMENT_START.lastIndex = 1;
  const m = DOCUMENT_START.exec(reach);
  if (m === null) return null;
  if (HTML_PAGE.test(reach.slice(0, m.index))) return null;
  return { from, to: from + m.index };
}

/**
 * The text with the junk blanked out (newlines kept), so every line and column the parser
 * reports is still the document's own.
 */
export function blankOut(text: string, junk: LeadingJunk): string {
  const blank = text.slice(junk.from, junk.to).replace(/[^\n]/g, ' ');
  return text.slice(0, junk.from) + blank + text.slice(junk.to);
}
