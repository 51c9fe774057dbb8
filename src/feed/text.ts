/**
 * Turning raw element content into the two kinds of string the model holds: plain text (titles,
 * names) and HTML (summary, content). The XML layer hands leaf elements over raw (CDATA markers
 * and entity references still in place) so that each field is decoded exactly once, here.
 */
import { C1_REMAP, NAMED_ENTITIES } from './html-entities.ts';

const ENTITY = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

function replaceEntity(whole: string, dec?: string, hex?: string, name?: string): string {
  if (name !== undefined) return NAMED_ENTITIES.get(name) ?? whole;
  let code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
  if (code >= 0x80 && code <= 0x9f) code = C1_REMAP[code - 0x80] || code;
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(code);
}

/** XML and HTML 4 named references and numeric references; unknown names stay as written. */
export function decodeEntities(s: string): string {
  return s.indexOf('&') === -1 ? s : s.replace(ENTITY, replaceEntity);
}

const HTML_SPECIALS = /[&<>"]/g;
const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Plain text as HTML that shows the same characters. */
export function escapeHtml(s: string): string {
  return s.replace(HTML_SPECIALS, (c) => HTML_ESCAPES[c]!);
}

/** Plain text as HTML, keeping line breaks visible (JSON Feed content_text). */
export function textToHtml(s: string): string {
  return escapeHtml(s).replace(/\r?\n/g, '<br>\n');
}

const MARKUP = /<[A-Za-z/!?]/;
const TAG_OR_COMMENT = /<!--[\s\S]*?-->|<[^>]*>/g;
const WHITESPACE_RUN = /\s+/g;

/** One run of raw content: character data (entities still escaped) or a CDATA section's text. */
interface Piece {
  text: string;
  cdata: boolean;
}

function splitCdata(raw: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  while (i < raw.length) {
    const start = raw.indexOf('<![CDATA[', i);
    if (start === -1) {
      pieces.push({ text: raw.slice(i), cdata: false });
      break;
    }
    if (start > i) pieces.push({ text: raw.slice(i, start), cdata: false });
    const end = raw.indexOf(']]>', start + 9);
    pieces.push({ text: raw.slice(start + 9, end === -1 ? raw.length : end), cdata: true });
    i = end === -1 ? raw.length : end + 3;
  }
  return pieces;
}

/**
 * The HTML an element carries. Entity-escaped HTML and CDATA both give the HTML string; when the
 * element holds real child markup (inline XHTML, or HTML a feed forgot to escape) that markup is
 * the HTML, kept as written.
 */
export function htmlFromRaw(raw: string): string {
  if (raw.indexOf('<') === -1) return decodeEntities(raw).trim();
  const pieces = splitCdata(raw);
  const inlineMarkup = pieces.some((p) => !p.cdata && MARKUP.test(p.text));
  let out = '';
  for (const p of pieces) {
    if (inlineMarkup) out += p.cdata ? escapeHtml(p.text) : p.text;
    else out += p.cdata ? p.text : decodeEntities(p.text);
  }
  return out.trim();
}

/** The plain text an element carries: CDATA kept, child markup dropped, entities decoded. */
export function textFromRaw(raw: string): string {
  if (raw.indexOf('<') === -1) return decodeEntities(raw).trim();
  let out = '';
  for (const p of splitCdata(raw)) out += p.cdata ? p.text : decodeEntities(p.text.replace(TAG_OR_COMMENT, ''));
  return out.trim();
}

/** Readable text from an HTML fragment (an Atom title of type html or xhtml). */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(TAG_OR_COMMENT, '')).replace(WHITESPACE_RUN, ' ').trim();
}

/** Titles and names read on one line: runs of whitespace (newlines, tabs) become one space. */
export function oneLine(s: string): string {
  return s.replace(WHITESPACE_RUN, ' ').trim();
}

/** Empty or whitespace-only strings are absent values. */
export function orNull(s: string | null | undefined): string | null {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  return t === '' ? null : t;
}
