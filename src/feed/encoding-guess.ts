/**
 * The encoding of bytes nobody named truthfully, guessed by chardet (a port of ICU's detector:
 * byte statistics per language for Big5, EUC-JP, Shift_JIS, GB18030, EUC-KR, KOI8-R, the
 * ISO-8859 and windows-125x families). Asked only when neither the server nor the document names
 * an encoding that decodes the bytes and they are not UTF-8 (encoding.ts), as feedparser asks it.
 */
import { analyse } from 'chardet';

/** Enough text for chardet's statistics; a feed's first 64 KB say as much as all of it. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * chardet's best guess that `usable` accepts (a label TextDecoder knows), by its name
 * ("Shift_JIS", "windows-1251"); null when it has none. Unicode guesses are left out: the caller
 * has already found the bytes are not UTF-8, and UTF-16/32 announce themselves (BOM, NULs).
 */
export function guessEncoding(bytes: Uint8Array, usable: (label: string) => boolean): string | null {
  const sample = textBetweenTags(bytes.length > SAMPLE_BYTES ? bytes.subarray(0, SAMPLE_BYTES) : bytes);
  for (const match of analyse(sample)) {
    if (match.name.startsWith('UTF-') || match.name === 'ASCII') continue;
    if (usable(match.name.toLowerCase())) return match.name;
  }
  return null;
}

/**
 * The bytes outside `<...>`, each tag a space: the markup is ASCII in every encoding chardet
 * knows, and its English words drown the statistics of a short feed in another script (a
 * KOI8-R feed of 700 bytes was taken for ISO-8859-1 with its markup, for KOI8-R without).
 * ICU's detector has the same filter; chardet leaves it to the caller.
 */
function textBetweenTags(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  let inTag = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x3c) inTag = true;
    else if (b === 0x3e && inTag) {
      inTag = false;
      out[n++] = 0x20;
    } else if (!inTag) out[n++] = b;
  }
  return out.subarray(0, n);
}
