/**
 * Who an item is (STYLE 12): the model's Item.id (guid, then link, then a hash the parser made),
 * scoped to its feed by the unique index. The fallbacks here only guard against a parser that
 * left the id empty. Also the content hash that tells "seen again" from "seen again, changed".
 */
import { hash } from 'node:crypto';
import type { Item } from '../feed/model.ts';

export function itemIdentity(item: Item): string {
  const id = item.id?.trim();
  if (id) return id;
  const link = item.link?.trim();
  if (link) return link;
  return `hash:${hash('sha1', JSON.stringify([item.title, item.published, item.summary, item.content]), 'base64')}`;
}

/** A fingerprint of everything the feed says about the item (field order fixed here). */
export function contentHash(item: Item): string {
  return hash(
    'sha1',
    JSON.stringify([
      item.title,
      item.link,
      item.summary,
      item.content,
      item.published,
      item.updated,
      item.comments,
      item.authors,
      item.categories,
      item.enclosures,
      item.media,
      item.children,
      // Appended only when present, so items without podcast details keep their old hash.
      ...(item.podcast ? [item.podcast] : []),
    ]),
    'base64',
  );
}

/** published as ms since epoch for ordering; 0 when absent or unparseable. */
export function publishedKey(published: string | null): number {
  if (!published) return 0;
  const t = Date.parse(published);
  return Number.isFinite(t) ? t : 0;
}
