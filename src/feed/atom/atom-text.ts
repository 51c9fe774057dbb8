/**
 * Atom text constructs (title, subtitle, summary, content, rights): type="text" | "html" |
 * "xhtml" in Atom 1.0, a MIME type plus mode="xml" | "escaped" | "base64" in Atom 0.3.
 */
import { escapeHtml, htmlFromRaw, htmlToText, oneLine, orNull, textFromRaw } from '../text.ts';
import { attr, type XmlElement } from '../xml/tree.ts';

type Kind = 'text' | 'html' | 'xhtml' | 'base64';

function kindOf(el: XmlElement): Kind {
  const type = (attr(el, 'type') ?? '').toLowerCase();
  const mode = (attr(el, 'mode') ?? '').toLowerCase();
  if (mode === 'base64') return 'base64';
  if (type === '' || type === 'text' || type === 'text/plain') return 'text';
  if (type === 'html' || type === 'text/html') return mode === 'xml' ? 'xhtml' : 'html';
  if (type === 'xhtml' || type === 'application/xhtml+xml') return mode === 'escaped' ? 'html' : 'xhtml';
  if (type.startsWith('text/')) return 'text';
  // RFC 4287 4.1.3.3: an XML media type is inline markup; any other is Base64.
  if (type.endsWith('+xml') || type.endsWith('/xml')) return 'xhtml';
  return 'base64';
}

/** Element's raw inner markup (leaf elements keep it; others only have their text). */
function rawOf(el: XmlElement): string {
  return el.raw && !el.cdata ? el.text : escapeHtml(el.text);
}

/** The construct's character data (CDATA kept, markup dropped, entities decoded). */
function plainOf(el: XmlElement): string {
  return el.cdata ? el.text : textFromRaw(rawOf(el));
}

/** type="html": the HTML it carries. */
function htmlOf(el: XmlElement): string {
  return el.cdata ? el.text.trim() : htmlFromRaw(rawOf(el));
}

const XHTML_DIV = /^\s*<((?:[A-Za-z_][\w.-]*:)?)div\b[^>]*>([\s\S]*)<\/\1div\s*>\s*$/;

/** type="xhtml": the markup inside the wrapping <div>, as an HTML string (prefixes dropped). */
export function innerXhtml(raw: string): string {
  const m = XHTML_DIV.exec(raw);
  if (!m) return raw.trim();
  const prefix = m[1]!;
  const inner = m[2]!;
  return (
    prefix ? inner.replace(new RegExp(`<(/?)${prefix.replace(/[.]/g, '\\.')}`, 'g'), '<$1') : inner
  ).trim();
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

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

/** The construct as HTML; text is escaped so it shows as written. Null when empty or unreadable. */
export function atomHtml(el: XmlElement | undefined): string | null {
  if (el === undefined || attr(el, 'src') !== null) return null;
  switch (kindOf(el)) {
    case 'text':
      return orNull(escapeHtml(plainOf(el)));
    case 'html':
      return orNull(htmlOf(el));
    case 'xhtml':
      return orNull(innerXhtml(rawOf(el)));
    case 'base64':
      return orNull(decodeBase64Text(plainOf(el)));
  }
}

/** The construct as one line of plain text (titles). */
export function atomText(el: XmlElement | undefined): string | null {
  if (el === undefined) return null;
  switch (kindOf(el)) {
    case 'text':
      return orNull(oneLine(plainOf(el)));
    case 'html':
      return orNull(htmlToText(htmlOf(el)));
    case 'xhtml':
      return orNull(htmlToText(innerXhtml(rawOf(el))));
    case 'base64': {
      const h = atomHtml(el);
      return h === null ? null : orNull(htmlToText(h));
    }
  }
}
