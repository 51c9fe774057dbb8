import type { MatchRange } from '../../../../src/app/api';

export interface Piece {
  text: string;
  match: boolean;
}

/**
 * Cuts `text` at the core's match ranges ([start, end) in UTF-16 units) into plain and matched
 * pieces, for <mark>. Ranges out of order, overlapping or out of bounds are tidied, never trusted.
 */
export function splitByRanges(text: string, ranges: readonly MatchRange[]): Piece[] {
  const clean = ranges
    .map(([a, b]) => [Math.max(0, Math.min(a, text.length)), Math.max(0, Math.min(b, text.length))] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of clean) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const pieces: Piece[] = [];
  let at = 0;
  for (const [a, b] of merged) {
    if (a > at) pieces.push({ text: text.slice(at, a), match: false });
    pieces.push({ text: text.slice(a, b), match: true });
    at = b;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), match: false });
  return pieces;
}
