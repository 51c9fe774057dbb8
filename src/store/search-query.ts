/**
 * User text -> an FTS5 MATCH expression that can never be a syntax error. Every word becomes a
 * quoted string made only of letters, digits and marks (so AND, NEAR(, quotes and brackets are
 * plain words or vanish); words are ANDed; the last word is a prefix while the user is typing
 * (from MIN_PREFIX letters on).
 */
const MAX_TERMS = 16;
/** Shorter prefixes match nearly everything and cost the most: 'ka' stays the word 'ka'. */
const MIN_PREFIX = 3;
const MAX_INPUT = 1000;

/** null when the input holds nothing searchable. */
export function toFtsQuery(input: string): string | null {
  const text = input.slice(0, MAX_INPUT).normalize('NFC');
  const chunks = text.split(/\s+/).filter((c) => c.length > 0);
  const phrases: { text: string; last: string; star: boolean }[] = [];
  for (const chunk of chunks) {
    // 'e-mail' stays one phrase ("e mail"), as the tokenizer splits it in the text too.
    const tokens = chunk.match(/[\p{L}\p{N}\p{M}]+/gu);
    if (!tokens) continue;
    // 'cloud*' asks for a prefix in so many words.
    phrases.push({
      text: `"${tokens.join(' ')}"`,
      last: tokens[tokens.length - 1]!,
      star: chunk.endsWith('*'),
    });
    if (phrases.length === MAX_TERMS) break;
  }
  if (phrases.length === 0) return null;
  // The last word is a prefix while the user is still typing it (no trailing space).
  const final = phrases[phrases.length - 1]!;
  if (!/\s$/.test(text) && /[\p{L}\p{N}\p{M}]$/u.test(text)) final.star = true;
  return phrases.map((p) => (p.star && [...p.last].length >= MIN_PREFIX ? `${p.text}*` : p.text)).join(' ');
}
