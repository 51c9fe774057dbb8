/**
 * Bytes to text, in the order the web settled on: a byte order mark wins, then the HTTP
 * charset, then the XML declaration's encoding, then UTF-8. TextDecoder (Node's full ICU) knows
 * windows-1252, the iso-8859 family, the CJK encodings and UTF-16; a label it does not know falls
 * back to UTF-8 rather than failing the feed.
 */

import { TextDecoder } from 'node:util';

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: false });

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
  const head = String.fromCharCode(...bytes.subarray(0, 512));
  const m = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return m ? m[1]!.toLowerCase() : null;
}

function bomEncoding(b: Uint8Array): string | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  // No BOM, but '<?' in UTF-16 is unmistakable.
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x3f && b[3] === 0x00) return 'utf-16le';
  if (b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] === 0x3f) return 'utf-16be';
  return null;
}

function decoderFor(label: string): TextDecoder | null {
  if (label === 'utf-8' || label === 'utf8') return UTF8;
  try {
    return new TextDecoder(label);
  } catch {
    return null; // unknown or unsupported label (utf-32, x-made-up)
  }
}

/** Which encoding the bytes are read with, and why (for tests and diagnostics). */
export function chooseEncoding(bytes: Uint8Array, contentType?: string | null): string {
  const bom = bomEncoding(bytes);
  if (bom) return bom;
  for (const label of [charsetOf(contentType), xmlDeclaredEncoding(bytes)]) {
    if (label && decoderFor(label)) {
      // A UTF-16 label on bytes that start like ASCII XML is a lie we have seen; trust the bytes.
      if (label.startsWith('utf-16') && bytes[0] === 0x3c && bytes[1] !== 0x00) return 'utf-8';
      return label;
    }
  }
  return 'utf-8';
}

/** Decoded text without the byte order mark. Never throws: bad sequences become U+FFFD. */
export function decodeBytes(bytes: Uint8Array, contentType?: string | null): string {
  const decoder = decoderFor(chooseEncoding(bytes, contentType)) ?? UTF8;
  const text = decoder.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
