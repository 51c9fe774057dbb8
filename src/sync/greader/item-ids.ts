/**
 * Google Reader item ids. An item is our row id; the API writes it in the long form
 * `tag:google.com,2005:reader/item/<16 hex digits>` (contents) or as a decimal string (ids), and
 * clients send it back in whichever form they keep: the long form, the long prefix with fewer
 * hex digits (NetNewsWire does not pad), 16 bare hex digits (older NetNewsWire pads without the
 * prefix), or decimal. Exactly 16 bare hex digits are read as hex, as FreshRSS and Miniflux do;
 * anything shorter without the prefix is decimal.
 */

export const ITEM_ID_PREFIX = 'tag:google.com,2005:reader/item/';

export function longItemId(id: number): string {
  return ITEM_ID_PREFIX + id.toString(16).padStart(16, '0');
}

/** The row id, or null for something that is not an item id (or beyond a safe integer). */
export function parseItemId(text: string): number | null {
  const s = text.trim();
  let n: number;
  if (s.toLowerCase().startsWith(ITEM_ID_PREFIX)) {
    const hex = s.slice(ITEM_ID_PREFIX.length);
    if (!/^[0-9a-f]{1,16}$/i.test(hex)) return null;
    n = Number.parseInt(hex, 16);
  } else if (/^[0-9a-f]{16}$/i.test(s)) {
    n = Number.parseInt(s, 16);
  } else if (/^[0-9]{1,19}$/.test(s)) {
    n = Number(s);
  } else {
    return null;
  }
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
