/**
 * Long prefixes rewritten as alternatives of the whole words the index holds.
 *
 * items_fts keeps a prefix index for 3 letters only. FTS5 answers a longer prefix (`"jinmi"*`,
 * what the search box sends while a word is typed) by merging the doclists of every word that
 * starts with it into one new doclist, in full, before the first row comes out: at a million
 * items that was 13-25 ms of CPU per keystroke whatever the LIMIT. The same words written as
 * `("jinmi" OR "jinmine" OR ...)` are merged lazily, so reading the newest 5,000 matches stops
 * early (about 6 ms), and listing the words (fts5vocab) costs a few ms more. Found by
 * bench:store; results are the same rows (search-prefix.test.ts checks them against FTS5's own).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { StoreContext } from './context.ts';
import { fold } from './search-syntax.ts';

/** The prefix lengths items_fts indexes (schema.ts: prefix = '3'); shorter ones stay as typed. */
const INDEXED_PREFIX = 3;
/** More words than this: FTS5's own merge is as good, and the expression stays small. */
export const MAX_EXPANSION = 128;
const PREFIX_PHRASE = /"([^"]*)"\*/g;
const WORD_ONLY = /^[\p{L}\p{N}\p{M}]+$/u;

const withVocab = new WeakSet<DatabaseSync>();

/** Words in the index starting with `prefix` (folded), or null when there are too many (or no way to list them). */
function wordsStartingWith(ctx: StoreContext, prefix: string): string[] | null {
  if (!withVocab.has(ctx.db)) {
    try {
      // A temp table: per connection, nothing written to the file, no migration.
      ctx.db.exec(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.items_fts_words USING fts5vocab(main, 'items_fts', 'row')",
      );
    } catch {
      // Without it a prefix stays FTS5's own: slower, the same rows.
      return null;
    }
    withVocab.add(ctx.db);
  }
  // Upper bound: the prefix with its last (ASCII) character raised by one.
  const next = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const rows = ctx
    .stmt(`SELECT term FROM temp.items_fts_words WHERE term >= ?1 AND term < ?2 LIMIT ${MAX_EXPANSION + 1}`)
    .all(prefix, next) as { term: string }[];
  if (rows.length > MAX_EXPANSION) return null;
  return rows.map((r) => r.term).filter((t) => WORD_ONLY.test(t));
}

/**
 * A rewriter of expressions (from search-syntax.ts or search-query.ts, whose phrases are quoted
 * and hold only letters, digits, marks and spaces) that spells each prefix longer than the
 * indexed length out as its words. It remembers the words it looked up, so one search can
 * rewrite several expressions sharing a prefix for one lookup. A prefix is left as it is when
 * it is not plain ASCII after folding (the tokenizer's folding of other scripts is not
 * re-implemented here), or when no word or too many words start with it.
 */
export function prefixExpander(ctx: StoreContext): (match: string) => string {
  const known = new Map<string, string[] | null>();
  return (match) =>
    match.replace(PREFIX_PHRASE, (phrase, inner: string) => {
      const words = inner.split(' ');
      const last = fold(words.pop() ?? '');
      if (last.length <= INDEXED_PREFIX || !/^[a-z0-9]+$/.test(last)) return phrase;
      let found = known.get(last);
      if (found === undefined) {
        found = wordsStartingWith(ctx, last);
        known.set(last, found);
      }
      if (found === null || found.length === 0) return phrase;
      const head = words.length > 0 ? `${words.join(' ')} ` : '';
      const alts = found.map((w) => `"${head}${w}"`);
      return alts.length === 1 ? alts[0]! : `(${alts.join(' OR ')})`;
    });
}
