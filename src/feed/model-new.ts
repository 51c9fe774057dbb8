/**
 * Fresh model objects with every key present (the `--json` contract: absent is null or [],
 * never a missing key). Readers fill them in; nothing else creates a Feed or an Item.
 */
import type { Feed, FeedFormat, Item, Media, Person } from './model.ts';

export function newFeed(format: FeedFormat): Feed {
  return {
    format,
    title: null,
    link: null,
    description: null,
    language: null,
    generator: null,
    generatorDetail: null,
    published: null,
    updated: null,
    image: null,
    ttl: null,
    skipHours: [],
    skipDays: [],
    sy: null,
    cloud: null,
    hubs: [],
    self: null,
    items: [],
  };
}

/** An item whose id is '' until identity.ts assigns one. */
export function newItem(): Item {
  return {
    id: '',
    title: null,
    link: null,
    summary: null,
    content: null,
    published: null,
    updated: null,
    authors: [],
    categories: [],
    enclosures: [],
    comments: null,
    media: [],
    children: [],
    podcast: null,
  };
}

export function newMedia(): Media {
  return { url: null, type: null, medium: null, width: null, height: null, title: null, thumbnail: null };
}

export function person(name: string | null, email: string | null = null, uri: string | null = null): Person {
  return { name, email, uri };
}

/** Adds a person unless every field is empty (an empty <author/> names nobody). */
export function addPerson(list: Person[], p: Person): void {
  if (p.name !== null || p.email !== null || p.uri !== null) list.push(p);
}

/** A non-negative integer from feed text ("60", " 3 "), or null. */
export function toInt(s: string | null | undefined): number | null {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  if (!/^\+?\d{1,15}$/.test(t)) return null;
  return Number(t);
}
