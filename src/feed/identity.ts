/**
 * Item identity (STYLE 12). The feed's own id wins (RSS guid, Atom id, JSON Feed id, RDF
 * rdf:about); without one, a hash of what identifies an item to a person: link, title and date
 * (plus the enclosure, which is what a podcast episode is). The hash is over normalised text, so
 * the same item read twice, from any parse, gets the same id; change any of those and it changes.
 */
import { hash } from 'node:crypto';
import type { Item } from './model.ts';

export const HASH_ID_PREFIX = 'hash:';

/** Whitespace runs folded and ends trimmed, so cosmetic re-indentation does not change ids. */
function norm(s: string | null | undefined): string {
  return s ? s.replace(/\s+/g, ' ').trim() : '';
}

/**
 * The id for an item without a usable one of its own. `scope` separates items that would
 * otherwise collide (children: the parent's id). When link and title are both missing the
 * summary and content join in, so two dateless untitled notes stay apart.
 */
export function hashedItemId(item: Item, scope = ''): string {
  const parts = [
    scope,
    norm(item.link),
    norm(item.title),
    item.published ?? item.updated ?? '',
    item.enclosures[0]?.url ?? '',
  ];
  if (!item.link && !item.title) parts.push(norm(item.summary), norm(item.content));
  return HASH_ID_PREFIX + hash('sha1', parts.join('\n'), 'hex');
}

/** Sets `item.id` (and its children's, recursively) when the feed gave none. */
export function assignIds(item: Item, scope = ''): void {
  if (item.id === '') item.id = hashedItemId(item, scope);
  for (const c of item.children) assignIds(c, item.id);
}
