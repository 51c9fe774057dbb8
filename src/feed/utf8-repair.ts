/**
 * UTF-8 with a few bad bytes, read as UTF-8 (issue 34). A feed written in UTF-8 that picked up a
 * stray windows-1252 byte (a pasted quote, a template in another encoding) is still UTF-8: only
 * the bad bytes are replaced, so every other character survives. A lone byte that is not UTF-8
 * becomes its windows-1252 character (what its writer meant, almost always); a broken multi-byte
 * sequence becomes U+FFFD, as a browser shows it. Whether the bytes are UTF-8 with slips or
 * another encoding altogether is for the caller to judge from the counts (encoding.ts).
 *
 * Only runs when strict UTF-8 decoding failed, so its byte loop costs nothing on clean feeds.
 */
import { C1_REMAP } from './html-entities.ts';

export interface Utf8Scan {
  /** Well-formed multi-byte sequences: the evidence that the text is UTF-8. */
  multiByte: number;
  /** Byte ranges that are not UTF-8, as [start, length] pairs in order. */
  bad: number[];
}

/**
 * The length of the well-formed sequence at `i`, or minus the length of its longest start that
 * could still have been well-formed (Unicode's "maximal subpart": at least 1).
 */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f; // no surrogates
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f; // nothing past U+10FFFF
  } else return -1;
  for (let k = 1; k <= need; k++) {
    const c = bytes[i + k];
    if (c === undefined || c < lo || c > hi) return -k;
    lo = 0x80;
    hi = 0xbf;
  }
  return need + 1;
}

export function scanUtf8(bytes: Uint8Array): Utf8Scan {
  const scan: Utf8Scan = { multiByte: 0, bad: [] };
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const len = sequenceAt(bytes, i);
    if (len > 0) {
      scan.multiByte++;
      i += len;
    } else {
      scan.bad.push(i, -len);
      i -= len;
    }
  }
  return scan;
}

/** What a bad range stands for: a lone byte is windows-1252, anything longer U+FFFD. */
function replacement(bytes: Uint8Array, start: number, length: number): string {
  if (length > 1) return '\uFFFD';
  const b = bytes[start]!;
  if (b >= 0xa0) return String.fromCharCode(b);
  const mapped = b >= 0x80 && b <= 0x9f ? C1_REMAP[b - 0x80]! : 0;
  return mapped === 0 ? '\uFFFD' : String.fromCharCode(mapped);
}

// A byte order mark is kept as U+FEFF: every segment is decoded on its own, and only the caller knows
// which one starts the document.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

export interface RepairedUtf8 {
  text: string;
  /** Where in `text` the first replacement is (for the line and column a note gives). */
  firstAt: number;
}

/** The bytes as UTF-8, each bad range of `scan` replaced (see the module comment). */
export function decodeRepairedUtf8(bytes: Uint8Array, scan: Utf8Scan): RepairedUtf8 {
  const parts: string[] = [];
  let length = 0;
  let firstAt = -1;
  let from = 0;
  for (let k = 0; k < scan.bad.length; k += 2) {
    const start = scan.bad[k]!;
    const len = scan.bad[k + 1]!;
    const good = UTF8.decode(bytes.subarray(from, start));
    parts.push(good);
    length += good.length;
    if (firstAt === -1) firstAt = length;
    const r = replacement(bytes, start, len);
    parts.push(r);
    length += r.length;
    from = start + len;
  }
  parts.push(UTF8.decode(bytes.subarray(from)));
  return { text: parts.join(''), firstAt: Math.max(firstAt, 0) };
}
