/**
 * The sentences a feed's status shows when the parser had to repair what it read (ParseNote):
 * each names what was wrong and where, so the person who runs the feed can fix it.
 */
import { type Decoded, sameEncoding } from './encoding.ts';
import type { ParseNote } from './parse-types.ts';
import { htmlToText, oneLine } from './text.ts';
import type { LeadingJunk } from './xml/junk.ts';
import type { Mended } from './xml/mend.ts';
import { lineAndColumn } from './xml/wellformed.ts';

/** How a fallback, a guess or a repair of the encoding is said; null when there was none. */
export function encodingNote({ text, declared, stated, used, recovery }: Decoded): ParseNote | null {
  if (recovery?.kind === 'utf8Repaired') {
    const { line, column } = lineAndColumn(text, recovery.firstAt);
    const bytes =
      recovery.bad === 1 ? 'One byte that is not UTF-8 was' : `${recovery.bad} bytes that are not UTF-8 were`;
    const says = stated && declared !== 'utf-8' ? ` (it says ${declared})` : '';
    return {
      code: 'feed.badBytes',
      message: `${bytes} replaced (the first on line ${line}, column ${column}); the rest of the feed was read as UTF-8${says}.`,
      args: { bad: recovery.bad, line, column },
    };
  }
  if (recovery?.kind === 'guessed') {
    const guess = recovery.guess;
    if (!stated) {
      return {
        code: 'feed.encodingGuessed',
        message: `Encoding guessed: ${guess}. The feed does not say its encoding, and it is not UTF-8.`,
        args: { guess },
      };
    }
    // The guess agrees with the declaration: a few bad bytes in it, replaced by U+FFFD.
    const message = sameEncoding(declared, guess)
      ? `The feed is ${declared}, as it says, but has bytes that are not ${declared}; they were replaced.`
      : `The feed says it is ${declared}, but it does not decode as ${declared}; encoding guessed: ${guess}.`;
    return { code: 'feed.encodingFallback', message, args: { declared, used, guess } };
  }
  if (used === declared) return null;
  return {
    code: 'feed.encodingFallback',
    message: stated
      ? `The feed says it is ${declared}, but it does not decode as ${declared}; it was read as ${used}.`
      : `The feed does not say its encoding, and it is not valid ${declared}; it was read as ${used}.`,
    args: { declared, used },
  };
}

/** End tags that did not match, forgiven: the first one named, with where it is. */
export function mendedNote(doc: string, m: Mended): ParseNote {
  const { line, column } = lineAndColumn(doc, m.offset);
  const more = m.count > 1 ? `, and ${m.count - 1} more like it` : '';
  const what =
    m.found === null
      ? `<${m.closed}> was never closed; it was closed with its item`
      : `End tag </${m.found}> repaired: read as the end of <${m.closed}>`;
  return {
    code: 'feed.repaired',
    message: `${what} (line ${line}, column ${column})${more}.`,
    args: { mended: m.count, line, column },
  };
}

/** At most this much of the junk is quoted. */
const QUOTED = 60;

/** The start of some junk, on one line, as a person would recognise it. */
function quote(text: string): string {
  const shown = oneLine(text.slice(0, QUOTED * 2).replace(/\uFEFF/g, ''));
  return shown.length > QUOTED ? `${shown.slice(0, QUOTED - 1)}…` : shown;
}

export function leadingJunkNote(doc: string, junk: LeadingJunk): ParseNote {
  const { line } = lineAndColumn(doc, junk.from);
  // A PHP warning is HTML (`<b>Warning</b>:`): quoted as the text a person reads.
  const shown = quote(htmlToText(doc.slice(junk.from, Math.min(junk.to, junk.from + 4096))));
  const what = shown === '' ? 'a byte order mark in the wrong place' : `“${shown}”`;
  return {
    code: 'feed.textBeforeRoot',
    message: `Text before the root element ignored (line ${line}): ${what}.`,
    args: { line },
  };
}

/** A second `<?xml`, or markup after the first root that starts another feed. */
const SECOND_DOCUMENT = /^<(?:\?xml[\s?]|(?:[A-Za-z_][\w.-]*:)?(?:rss|feed|RDF)[\s>/])/;

export function trailingJunkNote(doc: string, at: number): ParseNote {
  const { line } = lineAndColumn(doc, at);
  const rest = doc.slice(at, at + 200);
  if (SECOND_DOCUMENT.test(rest)) {
    return {
      code: 'feed.textAfterRoot',
      message: `A second document after the feed's root element ignored (line ${line}); only the first was read.`,
      args: { line },
    };
  }
  return {
    code: 'feed.textAfterRoot',
    message: `Text after the root element ignored (line ${line}): “${quote(rest)}”.`,
    args: { line },
  };
}
