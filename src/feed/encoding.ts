/**
 * Bytes to text, in the order the web settled on: a byte order mark wins, then the HTTP
 * charset, then the XML declaration's encoding, then UTF-8. A declared charset that does not
 * decode cleanly (a Latin-1 body served as charset=utf-8) is not believed: the next candidate is
 * tried (the declaration, UTF-8). When none decodes cleanly (issue 34): bytes that are UTF-8 but
 * for a few bad ones stay UTF-8, only the bad bytes replaced (utf8-repair.ts); anything else is
 * another encoding, which chardet guesses (encoding-guess.ts), windows-1252 when it cannot. The
 * parser notes each of these. C1 control characters (U+0080-U+009F) are windows-1252 punctuation
 * written by mistake and are read as it, as feedparser and HTML's numeric references do.
 *
 * TextDecoder (Node's full ICU) knows the iso-8859 family, the CJK encodings and UTF-16;
 * windows-1252 (which the web also uses for "iso-8859-1" and "ascii") and UTF-32 are decoded
 * here, because Node 20's windows-1252 loses 0x80-0x9F and no Node has UTF-32. A label nobody
 * knows is skipped rather than failing the feed.
 */

import { TextDecoder } from 'node:util';
import { guessEncoding } from './encoding-guess.ts';
import { C1_REMAP } from './html-entities.ts';
import { decodeRepairedUtf8, scanUtf8 } from './utf8-repair.ts';

/** The charset parameter of a Content-Type header, lowercased, or null. */
export function charsetOf(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType);
  const label = (m?.[1] ?? m?.[2] ?? '').trim().toLowerCase();
  return label === '' ? null : label;
}

const FEED_ROOT = /<(?:[\w.-]+:)?(?:rss|feed|RDF)[\s>/]/;

/** How far into the bytes an XML declaration is looked for (after junk such as a PHP warning). */
const DECLARATION_WITHIN = 1024;

/**
 * The encoding named by the XML declaration, or null. It belongs first, but a server that
 * prints a warning before the feed pushes it down (issue 34), so it is looked for in the first
 * kilobyte. The declaration is ASCII in every ASCII-compatible encoding.
 */
export function xmlDeclaredEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, DECLARATION_WITHIN + 512));
  const at = head.indexOf('<?xml');
  if (at === -1 || at > DECLARATION_WITHIN) return null;
  // After the root's start tag it is not a declaration (two documents run together, say).
  if (at > 0 && FEED_ROOT.test(head.toString('latin1', 0, at))) return null;
  const m = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head.toString('latin1', at));
  return m ? m[1]!.toLowerCase() : null;
}

function bomEncoding(b: Uint8Array): string | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  // UTF-32 before UTF-16: FF FE 00 00 is UTF-32LE's mark, not UTF-16LE's followed by a NUL.
  if (b[0] === 0xff && b[1] === 0xfe && b[2] === 0x00 && b[3] === 0x00) return 'utf-32le';
  if (b[0] === 0x00 && b[1] === 0x00 && b[2] === 0xfe && b[3] === 0xff) return 'utf-32be';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  // No BOM, but '<' in UTF-32 or '<?' in UTF-16 is unmistakable (XML 1.0 appendix F).
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x00 && b[3] === 0x00) return 'utf-32le';
  if (b[0] === 0x00 && b[1] === 0x00 && b[2] === 0x00 && b[3] === 0x3c) return 'utf-32be';
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x3f && b[3] === 0x00) return 'utf-16le';
  if (b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] === 0x3f) return 'utf-16be';
  return null;
}

/**
 * Text in a Unicode encoding its first bytes announce (a byte order mark, or UTF-16's NUL beside
 * the first '<' of a page), without the mark; null when they announce none. For HTML pages
 * (decodeHtmlPage), whose '<' is not followed by '?' as a feed's declaration is.
 */
export function decodeAnnouncedUnicode(b: Uint8Array): string | null {
  let label = bomEncoding(b);
  if (label === null && b[0] === 0x3c && b[1] === 0x00 && b[2] !== 0x00 && b[3] === 0x00) label = 'utf-16le';
  if (label === null && b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] !== 0x00) label = 'utf-16be';
  return label === null ? null : stripBom(decoderFor(label)!(b, false));
}

/** A decoder: `fatal` throws on bytes the encoding cannot have produced, else U+FFFD. */
type Decode = (bytes: Uint8Array, fatal: boolean) => string;

class DecodeError extends Error {}

/** C1 control characters read as the windows-1252 characters they stand for (0x81 ... kept). */
export function remapC1(text: string): string {
  return text.replace(/[\x80-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    return String.fromCharCode(C1_REMAP[code - 0x80] || code);
  });
}

/** windows-1252 as the WHATWG Encoding Standard defines it (undefined bytes keep their code). */
export function decodeWindows1252(bytes: Uint8Array): string {
  return remapC1(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
}

/**
 * Whether UTF-8 bytes encode a C1 control character (C2 80 to C2 9F). Looked for in the bytes,
 * where a search for one byte value is native and nearly free; a pass over the decoded text
 * would cost a noticeable share of parsing every feed.
 */
function hasUtf8C1(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = b.indexOf(0xc2); i !== -1; i = b.indexOf(0xc2, i + 1)) {
    const next = b[i + 1]!;
    if (next >= 0x80 && next <= 0x9f) return true;
  }
  return false;
}

export function decodeUtf32(bytes: Uint8Array, littleEndian: boolean, fatal: boolean): string {
  if (fatal && bytes.length % 4 !== 0) throw new DecodeError('UTF-32 length is not a multiple of 4');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: string[] = [];
  let chunk: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i += 4) {
    let cp = view.getUint32(i, littleEndian);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      if (fatal) throw new DecodeError(`U+${cp.toString(16)} is not a character`);
      cp = 0xfffd;
    }
    chunk.push(cp);
    if (chunk.length === 4096) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  if (!fatal && bytes.length % 4 !== 0) parts.push('\uFFFD');
  return parts.join('');
}

/** UTF-32 labels (TextDecoder has none) and the byte order each names ('' = either). */
const UTF32_LABELS: Readonly<Record<string, '' | 'le' | 'be'>> = {
  'utf-32': '',
  utf32: '',
  'ucs-4': '',
  'iso-10646-ucs-4': '',
  csucs4: '',
  'utf-32le': 'le',
  'ucs-4le': 'le',
  'utf-32be': 'be',
  'ucs-4be': 'be',
};

/** Decoders by label; only labels that exist are kept, so the map stays as small as the standard. */
const DECODERS = new Map<string, Decode>();

/** The decoder for a label, or null when nobody knows it (x-made-up). */
function decoderFor(label: string): Decode | null {
  let decoder = DECODERS.get(label);
  if (decoder === undefined) {
    const made = makeDecoder(label);
    if (made === null) return null;
    DECODERS.set(label, made);
    decoder = made;
  }
  return decoder;
}

function makeDecoder(label: string): Decode | null {
  const utf32 = UTF32_LABELS[label];
  if (utf32 !== undefined) {
    // A label without a byte order ('utf-32') leaves it to the bytes.
    return (bytes, fatal) =>
      decodeUtf32(bytes, utf32 === 'le' || (utf32 === '' && guessUtf32Le(bytes)), fatal);
  }
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    return null;
  }
  if (encoding === 'windows-1252') return (bytes) => decodeWindows1252(bytes);
  const lenient = new TextDecoder(encoding);
  const strict = new TextDecoder(encoding, { fatal: true });
  return (bytes, fatal) => {
    if (!fatal) return lenient.decode(bytes);
    try {
      return strict.decode(bytes);
    } catch (e) {
      throw new DecodeError(String(e));
    }
  };
}

/** A UTF-32 label without a mark: little-endian when the first character's low byte comes first. */
function guessUtf32Le(b: Uint8Array): boolean {
  return b[0] !== 0x00 && b[3] === 0x00;
}

/**
 * The charsets the server and the XML declaration name, in that order, that we can decode with.
 * Read once a decode: the declaration is searched for in the bytes.
 */
function declaredLabels(bytes: Uint8Array, contentType: string | null | undefined): string[] {
  return [charsetOf(contentType), xmlDeclaredEncoding(bytes)].filter(
    (l): l is string => !!l && decoderFor(l) !== null,
  );
}

/** Which encodings to try, in order: the declared ones (usable labels only), then UTF-8. */
function candidates(bytes: Uint8Array, declared: readonly string[]): string[] {
  const out: string[] = [];
  for (const label of declared) {
    // A UTF-16 label on bytes that start like ASCII XML is a lie we have seen; trust the bytes.
    const used = label.startsWith('utf-16') && bytes[0] === 0x3c && bytes[1] !== 0x00 ? 'utf-8' : label;
    if (!out.includes(used)) out.push(used);
  }
  if (!out.includes('utf-8') && !out.includes('utf8')) out.push('utf-8');
  return out;
}

/** Which encoding the bytes would be read with if they decode cleanly (tests, diagnostics). */
export function chooseEncoding(bytes: Uint8Array, contentType?: string | null): string {
  return bomEncoding(bytes) ?? candidates(bytes, declaredLabels(bytes, contentType))[0]!;
}

/**
 * How bytes that no named (or assumed) encoding decodes cleanly were read: as UTF-8 with its bad
 * bytes replaced (`bad` ranges, the first at `firstAt` in the text), or in the encoding chardet
 * guessed.
 */
export type Recovery =
  | { kind: 'utf8Repaired'; bad: number; firstAt: number }
  | { kind: 'guessed'; guess: string };

export interface Decoded {
  text: string;
  /** The label first in line (BOM, HTTP charset, declaration, or utf-8). */
  declared: string;
  /** Whether `declared` was said by the document or its server; false when utf-8 was assumed. */
  stated: boolean;
  /** The label the text was decoded with: differs from `declared` after a fallback. */
  used: string;
  /** Set when no candidate decoded cleanly. */
  recovery: Recovery | null;
}

const isUtf8 = (label: string) => label === 'utf-8' || label === 'utf8' || label === 'unicode-1-1-utf-8';

/** Decoded text without the byte order mark. Never throws. */
export function decodeFeedBytes(bytes: Uint8Array, contentType?: string | null): Decoded {
  const bom = bomEncoding(bytes);
  if (bom !== null && bom !== 'utf-8') {
    return {
      text: stripBom(decoderFor(bom)!(bytes, false)),
      declared: bom,
      stated: true,
      used: bom,
      recovery: null,
    };
  }
  const named = bom === 'utf-8' ? [] : declaredLabels(bytes, contentType);
  const tried = bom === 'utf-8' ? ['utf-8'] : candidates(bytes, named);
  const declared = tried[0]!;
  // Whether the server or the XML declaration names a charset we can use.
  const stated = bom !== null || named.length > 0;
  for (const label of tried) {
    let text: string;
    try {
      text = decoderFor(label)!(bytes, true);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      continue;
    }
    const c1 = isUtf8(label) ? hasUtf8C1(bytes) : /[\x80-\x9f]/.test(text);
    return { text: stripBom(c1 ? remapC1(text) : text), declared, stated, used: label, recovery: null };
  }
  // Nothing decodes cleanly: UTF-8 with slips, or an encoding nobody named (see the top).
  const scan = scanUtf8(bytes);
  const bad = scan.bad.length / 2;
  if (scan.multiByte >= bad) {
    const { text, firstAt } = decodeRepairedUtf8(bytes, scan);
    const skip = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const recovery: Recovery = { kind: 'utf8Repaired', bad, firstAt: firstAt - skip };
    return { text: remapC1(text.slice(skip)), declared, stated, used: 'utf-8', recovery };
  }
  const guess = guessEncoding(bytes, (label) => decoderFor(label) !== null);
  const used = guess === null ? 'windows-1252' : guess.toLowerCase();
  const text = decoderFor(used)!(bytes, false);
  return {
    text: stripBom(used === 'windows-1252' ? text : remapC1(text)),
    declared,
    stated,
    used,
    recovery: { kind: 'guessed', guess: guess ?? 'windows-1252' },
  };
}

/** Whether two labels name one encoding ("sjis" and "Shift_JIS"); unknown labels only themselves. */
export function sameEncoding(a: string, b: string): boolean {
  const canonical = (label: string) => {
    try {
      return new TextDecoder(label).encoding;
    } catch {
      return label.toLowerCase();
    }
  };
  return canonical(a) === canonical(b);
}

/** Decoded text only (see decodeFeedBytes). */
export function decodeBytes(bytes: Uint8Array, contentType?: string | null): string {
  return decodeFeedBytes(bytes, contentType).text;
}

/** The charset a page names in its first bytes (<meta charset> or http-equiv), or null. */
export function metaCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 2048)).toString(
    'latin1',
  );
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head);
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * A web page's text, for discovery and the reader view alike: a byte order mark (or UTF-16's
 * NULs) first, then the charset Content-Type names, then the page's `<meta charset>` (each only
 * when it is a charset we can decode with), then as a
 * feed's bytes are read (UTF-8 with its slips repaired, or a legacy encoding guessed). A UTF-16
 * label on bytes that read as ASCII is not believed (HTML says so; candidates() does it).
 */
export function decodeHtmlPage(body: Uint8Array, contentType: string | null | undefined): string {
  const unicode = decodeAnnouncedUnicode(body);
  if (unicode !== null) return unicode;
  const charset = [charsetOf(contentType), metaCharset(body)].find((l) => !!l && decoderFor(l) !== null);
  return decodeBytes(body, charset ? `text/html; charset=${charset}` : 'text/html');
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
