/**
 * Where an HTML tag ends, as HTML's tokenizer decides it: after the name, attributes; a value
 * that starts with a quote runs to the same quote (and may hold a '>'); an unquoted value runs
 * to whitespace or '>' and a quote inside it is just a character (`<b class=a"b>` is one tag).
 * Hand-rolled rather than a regular expression: linear on any input, no backtracking.
 */
import { isSpace } from './xml/prolog.ts';

/** Index just past the '>' ending the tag that starts at `lt`, or -1 when it is not a tag. */
export function tagEnd(s: string, lt: number): number {
  let i = lt + 1;
  const c = s.charCodeAt(i);
  if (c === 47) i++; // </
  const first = s.charCodeAt(i);
  const letter = (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
  if (!letter && !(c !== 47 && (first === 33 || first === 63))) return -1; // <!x, <?x
  const n = s.length;
  while (i < n) {
    const d = s.charCodeAt(i);
    if (d === 62) return i + 1;
    if (d !== 61) {
      i++;
      continue;
    }
    // '=': a value follows
    i++;
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    const q = s.charCodeAt(i);
    if (q === 34 || q === 39) {
      const close = s.indexOf(q === 34 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      i = close + 1;
    } else {
      while (i < n && !isSpace(s.charCodeAt(i)) && s.charCodeAt(i) !== 62) i++;
    }
  }
  return -1;
}

/** "script" or "style" when the tag at `lt` opens one (its body is code, not text); else null. */
export function rawTextElement(s: string, lt: number): string | null {
  for (const name of RAW_TEXT) {
    const after = s.charCodeAt(lt + 1 + name.length);
    if (
      (after === 62 || after === 47 || isSpace(after)) &&
      s.slice(lt + 1, lt + 1 + name.length).toLowerCase() === name
    )
      return name;
  }
  return null;
}

const RAW_TEXT = ['script', 'style'];
