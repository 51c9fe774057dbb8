/**
 * User text -> an FTS5 MATCH expression that can never be a syntax error. Every word becomes a
 * quoted string made only of letters, digits and marks (so AND, NEAR(, quotes and brackets are
 * plain words or vanish); words are ANDed; the last word is a prefix while the user is typing.
 */
const MAX_TERMS = 16;
const MAX_INPUT = 1000;

/** null when the input holds nothing searchable. */
export function toFtsQuery(input: string): string | null {
  const text = input.slice(0, MAX_INPUT).normalize('NFC');
  const chunks = text.split(/\s+/).filter((c) => c.length > 0);
  const phrases: string[] = [];
  for (const chunk of chunks) {
    // 'e-mail' stays one phrase ("e mail"), as the tokenizer splits it in the text too.
    const tokens = chunk.match(/[\p{L}\p{N}\p{M}]+/gu);
    // 'cloud*' asks for a prefix in so many words.
    if (tokens) phrases.push(`"${tokens.join(' ')}"${chunk.endsWith('*') ? '*' : ''}`);
    if (phrases.length === MAX_TERMS) break;
  }
  if (phrases.length === 0) return null;
  // Prefix the last word unless the user ended with a space (the word is finished).
  const typing = !/\s$/.test(text) && /[\p{L}\p{N}\p{M}]$/u.test(text);
  if (typing && !phrases[phrases.length - 1]!.endsWith('*')) phrases[phrases.length - 1] += '*';
  return phrases.join(' ');
}
