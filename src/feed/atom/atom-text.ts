/**
 * Atom text constructs (title, subtitle, summary, content, rights): type="text" | "html" |
 * "xhtml" in Atom 1.0, a MIME type plus mode="xml" | "escaped" | "base64" in Atom 0.3.
 */
import {
  dropControls,
  escapeHtml,
  hasInlineMarkup,
  htmlFromRaw,
  htmlToText,
  oneLine,
  orNull,
  textFromRaw,
} from '../text.ts';
import { xhtmlToHtml } from '../xhtml.ts';
import { attr, type XmlElement } from '../xml/tree.ts';

/** 'other': a media type that is neither text nor XML, so Base64 by RFC 4287 (if it is). */
type Kind = 'text' | 'html' | 'xhtml' | 'other';

/** What the construct's type says it holds, whatever its mode. */
function kindOf(el: XmlElement): Kind {
  const type = (attr(el, 'type') ?? '').toLowerCase();
  const mode = (attr(el, 'mode') ?? '').toLowerCase();
  if (type === '' || type === 'text' || type === 'text/plain') return 'text';
  if (type === 'html' || type === 'text/html') return mode === 'xml' ? 'xhtml' : 'html';
  if (type === 'xhtml' || type === 'application/xhtml+xml') return mode === 'escaped' ? 'html' : 'xhtml';
  if (type.startsWith('text/')) return 'text';
  // RFC 4287 4.1.3.3: an XML media type is inline markup; any other is Base64.
  if (type.endsWith('+xml') || type.endsWith('/xml')) return 'xhtml';
  return 'other';
}

/** Atom 0.3's mode="base64": the content is Base64 of what its type says. */
function isBase64Mode(el: XmlElement): boolean {
  return (attr(el, 'mode') ?? '').toLowerCase() === 'base64';
}

/** Element's raw inner markup (leaf elements keep it; others only have their text). */
function rawOf(el: XmlElement): string {
  return el.raw && !el.cdata ? el.text : escapeHtml(el.text);
}

/** The construct's character data (CDATA kept, markup dropped, entities decoded). */
function plainOf(el: XmlElement): string {
  return el.cdata ? el.text : textFromRaw(rawOf(el));
}

/**
 * type="html": the HTML it carries. A feed that wraps the escaped HTML in a <div> (as TypePad
 * did: `<div xmlns="...xhtml">Example &lt;b&gt;</div>`) means the escaped HTML, not the div.
 */
function htmlOf(el: XmlElement): string {
  if (el.cdata) return el.text.trim();
  const raw = rawOf(el);
  const div = XHTML_DIV.exec(raw);
  return htmlFromRaw(div && !hasInlineMarkup(div[2]!) ? div[2]! : raw);
}

const XHTML_DIV = /^\s*<((?:[A-Za-z_][\w.-]*:)?)div\b[^>]*>([\s\S]*)<\/\1div\s*>\s*$/;

/** type="xhtml": the markup inside the wrapping <div>, as an HTML string (prefixes dropped). */
export function innerXhtml(raw: string): string {
  const m = XHTML_DIV.exec(raw);
  if (!m) return raw.trim();
  const prefix = m[1]!;
  const inner = m[2]!;
  const html = prefix
    ? inner.replace(new RegExp(`<(/?)${prefix.replace(/[.]/g, '\\.')}`, 'g'), '<$1')
    : inner;
  return xhtmlToHtml(html.trim())!;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Base64 as RFC 4648 writes it (line breaks aside): anything else is not Base64. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isBase64(s: string): boolean {
  const compact = s.replace(/\s+/g, '');
  return compact !== '' && BASE64.test(compact);
}

/** Base64 content as text; null when the bytes are not UTF-8 text (an image, say). */
function decodeBase64Text(b64: string): string | null {
  try {
    const decoded = STRICT_UTF8.decode(Buffer.from(b64, 'base64'));
    // Control characters other than whitespace mean binary that happened to be valid UTF-8.
    return /[\u0000-\u0008\u000e-\u001f]/.test(decoded) ? null : decoded;
  } catch {
    return null;
  }
}

/**
 * The construct as HTML; text is escaped so it shows as written. Null when empty or unreadable.
 * Content of a media type that calls for Base64 but is not Base64 (`type="application/json"`
 * holding `{"a":1}`) is kept as text, and `notBase64` hears of it (for the feed's status).
 */
export function atomHtml(el: XmlElement | undefined, notBase64?: (type: string) => void): string | null {
  if (el === undefined || attr(el, 'src') !== null) return null;
  const kind = kindOf(el);
  if (isBase64Mode(el) || kind === 'other') {
    const plain = plainOf(el);
    if (isBase64(plain)) {
      const decoded = decodeBase64Text(plain);
      if (decoded === null) return null; // binary: nothing to show rather than mojibake
      if (kind === 'text') return orNull(escapeHtml(decoded));
      return orNull(kind === 'xhtml' ? innerXhtml(decoded) : decoded.trim());
    }
    if (plain.trim() !== '') notBase64?.(attr(el, 'type') ?? 'base64');
    return orNull(escapeHtml(plain));
  }
  switch (kind) {
    case 'text':
      return orNull(escapeHtml(plainOf(el)));
    case 'html':
      return orNull(htmlOf(el));
    case 'xhtml':
      return orNull(innerXhtml(rawOf(el)));
  }
}

/** The construct as one line of plain text (titles), C0 control characters dropped. */
export function atomText(el: XmlElement | undefined): string | null {
  const t = textOf(el);
  return t === null ? null : orNull(dropControls(t));
}

function textOf(el: XmlElement | undefined): string | null {
  if (el === undefined) return null;
  const kind = kindOf(el);
  if (isBase64Mode(el)) {
    // Decoded, the construct is what its type says: a title of type text shows its characters
    // as written, tags and all, as feedparser shows them (issue 34).
    const plain = plainOf(el);
    const decoded = isBase64(plain) ? decodeBase64Text(plain) : null;
    if (decoded === null) return orNull(oneLine(plain));
    if (kind === 'html') return orNull(htmlToText(decoded));
    if (kind === 'xhtml') return orNull(htmlToText(innerXhtml(decoded)));
    return orNull(oneLine(decoded));
  }
  switch (kind) {
    case 'text':
      return orNull(oneLine(plainOf(el)));
    case 'html':
      return orNull(htmlToText(htmlOf(el)));
    case 'xhtml':
      return orNull(htmlToText(innerXhtml(rawOf(el))));
    case 'other':
      // A title of some unknown media type: nobody Base64-encodes a title; read it as text.
      return orNull(oneLine(plainOf(el)));
  }
}
