/**
 * The one feed model. Every format (RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1) adapts
 * into it, and `tidings parse --json` prints it as is: the field names are a public contract.
 * Absent values are null or empty arrays, never missing keys.
 */
export type FeedFormat =
  | 'rss0.90'
  | 'rss0.91'
  | 'rss0.92'
  | 'rss0.93'
  | 'rss0.94'
  | 'rss1.0'
  | 'rss2.0'
  | 'atom0.3'
  | 'atom1.0'
  | 'json1.0'
  | 'json1.1';

export interface FeedImage {
  url: string | null;
  title: string | null;
  link: string | null;
}

export interface Syndication {
  /** hourly | daily | weekly | monthly | yearly */
  updatePeriod: string | null;
  updateFrequency: number | null;
  /** ISO 8601 UTC */
  updateBase: string | null;
}

/** The RSS 2.0 `<cloud>` element (or a `<source:cloud>` URL turned into one). */
export interface CloudElement {
  domain: string;
  port: number;
  path: string;
  registerProcedure: string;
  /** As the feed gave it: http-post, https-post, xml-rpc, soap. Compare case-insensitively. */
  protocol: string;
}

/** Atom's <generator>: its text, and its uri and version attributes. */
export interface Generator {
  name: string | null;
  uri: string | null;
  version: string | null;
}

export interface Person {
  name: string | null;
  email: string | null;
  uri: string | null;
}

export interface Category {
  term: string;
  scheme: string | null;
  label: string | null;
}

export interface Enclosure {
  url: string;
  type: string | null;
  length: number | null;
}

export interface Media {
  url: string | null;
  type: string | null;
  /** image | audio | video | document | executable */
  medium: string | null;
  width: number | null;
  height: number | null;
  title: string | null;
  thumbnail: string | null;
}

export interface Item {
  /** guid/id as the feed gave it; without one, a stable hash of link + title + date. */
  id: string;
  title: string | null;
  link: string | null;
  /** HTML as the feed gave it (sanitising happens at display time). */
  summary: string | null;
  /** HTML as the feed gave it. */
  content: string | null;
  /** ISO 8601 UTC, or null when absent or unparseable (never "now"). */
  published: string | null;
  updated: string | null;
  authors: Person[];
  categories: Category[];
  enclosures: Enclosure[];
  comments: string | null;
  media: Media[];
  /** rssCloud:item / source:outline nesting: items inside items, to any depth. */
  children: Item[];
  /** iTunes podcast details (itunes:image/episode/season/duration); absent when the item has none. */
  podcast?: ItemPodcast | null;
}

export interface ItemPodcast {
  image: string | null;
  episode: number | null;
  season: number | null;
  /** itunes:duration in seconds ("1:02:03", "62:03" and "3723" all read). */
  durationSec: number | null;
}

export interface Feed {
  format: FeedFormat;
  title: string | null;
  link: string | null;
  description: string | null;
  language: string | null;
  /** The generator's name (Atom: its text, else its uri). */
  generator: string | null;
  /** Atom's <generator> in full (name, uri, version); null elsewhere and when absent. */
  generatorDetail: Generator | null;
  published: string | null;
  updated: string | null;
  image: FeedImage | null;
  ttl: number | null;
  /** GMT hours 0-23 during which the feed asks not to be read. */
  skipHours: number[];
  /** Monday ... Sunday, as named in the feed (capitalised). */
  skipDays: string[];
  sy: Syndication | null;
  cloud: CloudElement | null;
  /** WebSub hubs (atom:link rel="hub"). */
  hubs: string[];
  /** atom:link rel="self", or JSON Feed feed_url. */
  self: string | null;
  items: Item[];
}
