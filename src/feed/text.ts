/**
 * Turning raw element content into the two kinds of string the model holds: plain text (titles,
 * names) and HTML (summary, content). The XML layer hands leaf elements over raw (CDATA markers
 * and entity references still in place) so that each field is decoded exactly once, here.
 */
import { C1_REMAP, NAMED_ENTITIES } from './html-entities.ts';
import { looksLikeHtml } from './looks-like-html.ts';
import { rawTextElement, tagEnd } from './tag-end.ts';

/**
 * The character a numeric reference stands for, as HTML reads it; a C0 control character other
 * than tab, newline and carriage return is dropped (no browser shows one).
 */
function fromCodePoint(code: number): string {
  if (code >= 0x80 && code <= 0x9f) code = C1_REMAP[code - 0x80] || code;
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
  if (code < 0x20 && code !== 9 && code !== 10 && code !== 13) return '';
  return String.fromCodePoint(code);
}

/** C0 control characters but tab, newline and carriage return. */
const C0_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * `s` without C0 control characters (tab, newline and carriage return kept). Runs on every text
 * field and attribute: short ones are checked with a loop (cheaper than starting a regular
 * expression), long ones with the expression (cheaper per character).
 */
export function dropControls(s: string): string {
  if (s.length < 256) {
    let i = 0;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 && c !== 9 && c !== 10 && c !== 13) break;
    }
    if (i === s.length) return s;
  } else {
    C0_CONTROLS.lastIndex = 0;
    if (!C0_CONTROLS.test(s)) return s;
  }
  return s.replace(C0_CONTROLS, '');
}

/** The text of the reference between `&` (at start - 1) and `;` (at end), or null if it is none. */
function entityAt(s: string, start: number, end: number): string | null {
  const len = end - start;
  const c0 = s.charCodeAt(start);
  if (c0 === 35) {
    // &#123; or &#x7B;
    const hex = s.charCodeAt(start + 1) === 120 || s.charCodeAt(start + 1) === 88;
    const from = hex ? start + 2 : start + 1;
    if (from >= end || end - from > (hex ? 6 : 7)) return null;
    let code = 0;
    for (let i = from; i < end; i++) {
      const c = s.charCodeAt(i);
      let digit: number;
      if (c >= 48 && c <= 57) digit = c - 48;
      else if (hex && c >= 97 && c <= 102) digit = c - 87;
      else if (hex && c >= 65 && c <= 70) digit = c - 55;
      else return null;
      code = code * (hex ? 16 : 10) + digit;
    }
    return fromCodePoint(code);
  }
  // The five XML entities, without building a string to look them up.
  if (len === 2 && s.charCodeAt(start + 1) === 116) {
    if (c0 === 108) return '<';
    if (c0 === 103) return '>';
  } else if (len === 3 && c0 === 97 && s.startsWith('amp', start)) return '&';
  else if (len === 4 && (s.startsWith('quot', start) || s.startsWith('apos', start)))
    return c0 === 113 ? '"' : "'";
  if (len < 2 || len > 32) return null;
  return NAMED_ENTITIES.get(s.slice(start, end)) ?? null;
}

/**
 * XML and HTML 4 named references and numeric references; unknown names and stray `&` stay as
 * written. Hand-rolled (indexOf and slices) because it runs over every escaped HTML body.
 */
export function decodeEntities(s: string): string {
  let amp = s.indexOf('&');
  if (amp === -1) return s;
  let out = '';
  let last = 0;
  while (amp !== -1) {
    const semi = s.indexOf(';', amp + 2);
    if (semi === -1) break;
    const value = semi - amp <= 33 ? entityAt(s, amp + 1, semi) : null;
    if (value === null) {
      amp = s.indexOf('&', amp + 1);
      continue;
    }
    out += s.slice(last, amp) + value;
    last = semi + 1;
    amp = s.indexOf('&', last);
  }
  return last === 0 ? s : out + s.slice(last);
}

const HTML_SPECIALS = /[&<>"]/g;
const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** Plain text as HTML that shows the same characters. */
export function escapeHtml(s: string): string {
  return s.replace(HTML_SPECIALS, (c) => HTML_ESCAPES[c]!);
}

/** Plain text as HTML, keeping line breaks visible (JSON Feed content_text). */
export function textToHtml(s: string): string {
  return escapeHtml(s).replace(/\r?\n/g, '<br>\n');
}

const MARKUP = /<[A-Za-z/!?]/;

/**
 * Markup removed, entities left for the caller: comments, tags, and script and style elements
 * with their bodies (their code is not text; an unclosed one loses only its tag, as in a title
 * about "<script>"). Tags end as HTML's tokenizer ends them (tag-end.ts): a quoted value may hold
 * a '>', a quote inside an unquoted value is just a character.
 */
export function stripMarkup(s: string): string {
  let out = '';
  let last = 0;
  let lt = s.indexOf('<');
  while (lt !== -1) {
    let end = -1;
    if (s.startsWith('<!--', lt)) {
      const close = s.indexOf('-->', lt + 4);
      if (close !== -1) end = close + 3;
    } else {
      end = tagEnd(s, lt);
      const body = end === -1 ? null : rawTextElement(s, lt);
      if (body !== null) {
        const close = s.toLowerCase().indexOf(`</${body}`, end);
        const gt = close === -1 ? -1 : s.indexOf('>', close);
        if (gt !== -1) end = gt + 1;
      }
    }
    if (end === -1) {
      lt = s.indexOf('<', lt + 1);
      continue;
    }
    out += s.slice(last, lt);
    last = end;
    lt = s.indexOf('<', end);
  }
  return last === 0 ? s : out + s.slice(last);
}
/** ASCII whitespace only: a no-break space the feed wrote on purpose stays. */
const WHITESPACE_RUN = /[ \t\r\n\f]+/g;

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
/** Whether raw content holds markup outside its CDATA sections (inline XHTML, unescaped HTML). */
export function hasInlineMarkup(raw: string): boolean {
  return raw.indexOf('<') !== -1 && splitCdata(raw).some((p) => !p.cdata && MARKUP.test(p.text));
}

export function htmlFromRaw(raw: string): string {
  if (raw.indexOf('<') === -1) return decodeEntities(raw).trim();
  // The usual shape: one CDATA section holding everything.
  const open = raw.indexOf('<![CDATA[');
  if (
    open !== -1 &&
    raw.indexOf(']]>', open) === raw.trimEnd().length - 3 &&
    raw.slice(0, open).trim() === ''
  ) {
    return raw.slice(open + 9, raw.trimEnd().length - 3).trim();
  }
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
  for (const p of splitCdata(raw)) out += p.cdata ? p.text : decodeEntities(stripMarkup(p.text));
  return out.trim();
}

/** Readable text from an HTML fragment (an Atom title of type html or xhtml). */
export function htmlToText(html: string): string {
  return decodeEntities(stripMarkup(html)).replace(WHITESPACE_RUN, ' ').trim();
}

/**
 * An RSS or RDF title: plain text by the spec, but feeds often put HTML or a second layer of
 * escaping in it ("&amp;amp;", "<![CDATA[<b>x</b>]]>"). What is left after XML decoding is read
 * as HTML only when it looks like HTML by feedparser's rule (looks-like-html.ts); a title about a
 * tag ("Using the <canvas> element") stays text, on one line.
 */
export function rssTitle(decoded: string | null): string | null {
  if (decoded === null) return null;
  return orNull(looksLikeHtml(decoded) ? htmlToText(decoded) : oneLine(decoded));
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
