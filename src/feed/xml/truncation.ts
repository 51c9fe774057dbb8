/**
 * A structure problem found by the scan (wellformed.ts), and the one kind it forgives: a document
 * cut off at its very end (a download that stopped). The cut is repaired by leaving out the item
 * the cut fell in and closing the elements still open; a construct left unfinished while its
 * parent closes later is a mistake in the middle, not a cut, and stays an error.
 */

export class Malformed {
  readonly message: string;
  readonly offset: number;
  constructor(message: string, offset: number) {
    this.message = message;
    this.offset = offset;
  }
}

/** The document ends inside something: `offset` is where that unfinished thing starts. */
export class Truncated extends Malformed {
  readonly names: string[];
  readonly opened: number[];
  constructor(message: string, offset: number, names: string[], opened: number[]) {
    super(message, offset);
    this.names = [...names];
    this.opened = [...opened];
  }
}

/**
 * The document up to the cut, without the item the cut fell in, with the elements still open
 * closed; null when nothing sensible remains (the root's own start tag was cut).
 */
export function repairCut(text: string, cut: Truncated): string | null {
  let keep = cut.names.length;
  let at = cut.offset;
  for (let k = 0; k < cut.names.length; k++) {
    const name = cut.names[k]!;
    const local = name.slice(name.indexOf(':') + 1);
    if (local === 'item' || local === 'entry') {
      keep = k;
      at = cut.opened[k]!;
      break;
    }
  }
  if (keep === 0) return null;
  let closing = '';
  for (let k = keep - 1; k >= 0; k--) closing += `</${cut.names[k]}>`;
  return text.slice(0, at) + closing;
}

/** A construct left unfinished at `at` is a cut only when its parent never closes after it. */
export function cutOrMistake(
  text: string,
  message: string,
  at: number,
  names: string[],
  opened: number[],
): Malformed {
  const parent = names[names.length - 1];
  if (parent === undefined || text.indexOf(`</${parent}`, at) !== -1) return new Malformed(message, at);
  return new Truncated(message, at, names, opened);
}
