/**
 * Counting characters as people count them: one grapheme cluster (an emoji, a flag, a ZWJ family,
 * a letter with its combining marks) is one. Shared by the core (which refuses a post over the
 * limit) and the renderer's live counter, so this file imports nothing from Node or the DOM.
 */

/** The walkthrough's number; PublishSettings.charLimit overrides it. */
export const DEFAULT_CHAR_LIMIT = 140;

let segmenter: Intl.Segmenter | null = null;

/** Grapheme clusters in `text`. */
export function countGraphemes(text: string): number {
  if (text.length === 0) return 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

/** Why a post's text is refused, or null when it fits. */
export function textProblem(text: string, limit: number = DEFAULT_CHAR_LIMIT): string | null {
  if (text.trim().length === 0) return 'A post needs some text.';
  const n = countGraphemes(text);
  if (n > limit) return `The post is ${n} characters; the limit is ${limit} (${n - limit} over).`;
  return null;
}
