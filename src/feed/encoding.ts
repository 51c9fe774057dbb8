/**
 * Bytes to text, in the order the web settled on: a byte order mark wins, then the HTTP
 * charset, then the XML declaration's encoding, then UTF-8. A declared charset that does not
 * decode cleanly (a Latin-1 body served as charset=utf-8) is not believed: the next candidate is
 * tried (the declaration, UTF-8), and windows-1252, which decodes anything, comes last; the
 * parser notes the fallback. TextDecoder (Node's full ICU) knows the iso-8859 family, the CJK
 * encodings and UTF-16; windows-1252 (which the web also uses for "iso-8859-1" and "ascii") and
 * UTF-32 are decoded here, because Node 20's windows-1252 loses 0x80-0x9F and no Node has UTF-32.
 * A label nobody knows is skipped rather than failing the feed.
 */

import { TextDecoder } from 'node:util';
import { C1_REMAP } from './html-entities.ts';

/** The charset parameter of a Content-Type header, lowercased, or null. */
export function charsetOf(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType);
  const label = (m?.[1] ?? m?.[2] ?? '').trim().toLowerCase();
  return label === '' ? null : label;
}

/** The encoding named by a leading `<?xml ... encoding="..."?>`, or null. */
export function xmlDeclaredEncoding(bytes: Uint8Array): string | null {
  // The declaration is ASCII in every ASCII-compatible encoding; 512 bytes is plenty.
  let i = 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  if (bytes[i] !== 0x3c || bytes[i + 1] !== 0x3f) return null; // no '<?' first: no declaration
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 512)).toString('latin1');
  const m = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
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

/** A decoder: `fatal` throws on bytes the encoding cannot have produced, else U+FFFD. */
type Decode = (bytes: Uint8Array, fatal: boolean) => string;

class DecodeError extends Error {}

/** windows-1252 as the WHATWG Encoding Standard defines it (undefined bytes keep their code). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    return String.fromCharCode(C1_REMAP[code - 0x80] || code);
  });
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

/** Which encodings to try, in order: the declared ones (usable labels only), then UTF-8. */
function candidates(bytes: Uint8Array, contentType: string | null | undefined): string[] {
  const out: string[] = [];
  for (const label of [charsetOf(contentType), xmlDeclaredEncoding(bytes)]) {
    if (!label || !decoderFor(label)) continue;
    // A UTF-16 label on bytes that start like ASCII XML is a lie we have seen; trust the bytes.
    const used = label.startsWith('utf-16') && bytes[0] === 0x3c && bytes[1] !== 0x00 ? 'utf-8' : label;
    if (!out.includes(used)) out.push(used);
  }
  if (!out.includes('utf-8') && !out.includes('utf8')) out.push('utf-8');
  return out;
}

/** Which encoding the bytes would be read with if they decode cleanly (tests, diagnostics). */
export function chooseEncoding(bytes: Uint8Array, contentType?: string | null): string {
  return bomEncoding(bytes) ?? candidates(bytes, contentType)[0]!;
}

export interface Decoded {
  text: string;
  /** The label first in line (BOM, HTTP charset, declaration, or utf-8). */
  declared: string;
  /** Whether `declared` was said by the document or its server; false when utf-8 was assumed. */
  stated: boolean;
  /** The label the text was decoded with: differs from `declared` after a fallback. */
  used: string;
}

/** Decoded text without the byte order mark. Never throws. */
export function decodeFeedBytes(bytes: Uint8Array, contentType?: string | null): Decoded {
  const bom = bomEncoding(bytes);
  if (bom) return { text: stripBom(decoderFor(bom)!(bytes, false)), declared: bom, stated: true, used: bom };
  const tried = candidates(bytes, contentType);
  const declared = tried[0]!;
  const stated = hasDeclaration(bytes, contentType);
  for (const label of tried) {
    try {
      return { text: stripBom(decoderFor(label)!(bytes, true)), declared, stated, used: label };
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
    }
  }
  return { text: stripBom(decodeWindows1252(bytes)), declared, stated, used: 'windows-1252' };
}

/** Whether the server or the XML declaration names a charset we can use. */
function hasDeclaration(bytes: Uint8Array, contentType: string | null | undefined): boolean {
  return [charsetOf(contentType), xmlDeclaredEncoding(bytes)].some(
    (l) => l !== null && decoderFor(l) !== null,
  );
}

/** Decoded text only (see decodeFeedBytes). */
export function decodeBytes(bytes: Uint8Array, contentType?: string | null): string {
  return decodeFeedBytes(bytes, contentType).text;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
