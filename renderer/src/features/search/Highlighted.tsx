import type { MatchRange } from '../../../../src/app/api';
import { splitByRanges } from './highlight';

/** Plain text with the matched parts in <mark> (text nodes only: nothing here is HTML). */
export function Highlighted({ text, ranges }: { text: string; ranges: readonly MatchRange[] }) {
  return (
    <>
      {splitByRanges(text, ranges).map((piece, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positional and never reorder.
        piece.match ? <mark key={i}>{piece.text}</mark> : <span key={i}>{piece.text}</span>,
      )}
    </>
  );
}
