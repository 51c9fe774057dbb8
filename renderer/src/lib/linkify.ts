/**
 * Plain-text URLs in item text become links (tweets, LifeLiner posts, many podcast notes). Pure:
 * splits a string into text and URL pieces; sanitize.ts turns the URL pieces into anchors inside
 * DOMPurify's inert document.
 */
export type Piece = { text: string } | { url: string; text: string };

// http(s) or www. up to whitespace or '<'; closing punctuation is trimmed below.
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
const TRAILING_CHAR = /[.,;:!?)\]}'"»”’]/;

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

export function linkifyPieces(text: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    let found = match[0];
    // Closing punctuation belongs to the sentence, except a ')' whose '(' is inside the URL
    // (Wikipedia links).
    while (found.length > 0 && TRAILING_CHAR.test(found.at(-1)!)) {
      if (found.endsWith(')') && count(found, '(') >= count(found, ')')) break;
      found = found.slice(0, -1);
    }
    const start = match.index;
    if (start > last) pieces.push({ text: text.slice(last, start) });
    const url = found.toLowerCase().startsWith('www.') ? `https://${found}` : found;
    pieces.push({ url, text: found });
    last = start + found.length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
