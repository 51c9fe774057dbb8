/**
 * What every writer gets: the channel's settings, the addresses of the documents, the cloud and
 * the newest posts. Writers are pure functions of it (no clock, no random), so the same posts give
 * the same bytes: a cloud decides "changed" by hashing the body, and ETags stay stable.
 */
import type { CloudElement } from '../feed/model.ts';
import type { StoredEnclosure, StoredPost } from './post.ts';

export interface SiteInput {
  title: string;
  description: string;
  /** The site's home page (settings.link, else our hosted home page). */
  link: string;
  language: string;
  generator: string;
  /** Where each document is public (null: not published there). */
  urls: { rss: string | null; atom: string | null; json: string | null; home: string | null };
  cloud: CloudElement | null;
  /** WebSub hubs (atom:link rel="hub" in RSS and Atom, `hubs` in JSON Feed). */
  hubs: string[];
  /** Base URL of hosted enclosure files (null: files are not public yet). */
  mediaBase: string | null;
  /** Newest first, already cut to the feed's size. */
  posts: StoredPost[];
  /** The blogroll's URL when the user shares it. */
  blogroll: string | null;
}

/** The namespace of nested items: the walkthrough names the prefix (rssCloud:item), not a URI. */
export const RSSCLOUD_ITEM_NS = 'http://rsscloud.co/ns/item/';

/** The enclosure's public URL (null while a hosted file has no public address). */
export function enclosureUrl(e: StoredEnclosure, mediaBase: string | null): string | null {
  if (e.url) return e.url;
  if (e.file && mediaBase) return `${mediaBase.replace(/\/+$/, '')}/${encodeURIComponent(e.file)}`;
  return null;
}

/** Newest change among the posts (the channel's lastBuildDate / Atom updated), stable. */
export function lastChange(posts: readonly StoredPost[]): number {
  let t = 0;
  for (const p of posts) t = Math.max(t, p.updatedAt);
  return t;
}
