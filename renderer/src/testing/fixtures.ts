/**
 * Test fixtures for renderer tests: the API's views filled with plain defaults (a test names
 * only the fields it is about), a hand-driven stand-in for the transport, and a promise the test
 * resolves when it chooses, so it decides the order in which answers and events arrive.
 */
import type { FeedView, RiverGroup, RiverItem, TidingsApi } from '../../../src/app/api';

/** A feed as listFeeds returns it: polled, ok, unfiled, nothing unread. */
export function feedView(id: number, fields: Partial<FeedView> = {}): FeedView {
  return {
    id,
    url: `http://127.0.0.1/${id}.xml`,
    title: `Feed ${id}`,
    siteUrl: null,
    folder: null,
    unread: 0,
    status: 'ok',
    error: null,
    lastFetchedAt: null,
    nextDueAt: null,
    dueReason: null,
    delivery: '',
    hasCredentials: false,
    folderId: null,
    folderPath: null,
    notify: false,
    intervalMin: null,
    favicon: null,
    titleIsCustom: false,
    loadImages: false,
    fullText: false,
    ...fields,
  };
}

/** An unread, unstarred item with no text, media or date of its own. */
export function riverItem(id: number, feedId: number, fields: Partial<RiverItem> = {}): RiverItem {
  return {
    id,
    feedId,
    title: null,
    link: null,
    summary: null,
    content: null,
    published: null,
    seenAt: 't',
    read: false,
    starred: false,
    authors: [],
    categories: [],
    enclosures: [],
    updated: null,
    date: null,
    children: [],
    media: [],
    podcast: null,
    mutedBy: null,
    playback: null,
    ...fields,
  };
}

/** A river group holding `items`, with no more hidden behind the group cap. */
export function riverGroup(feedId: number, items: RiverItem[], fields: Partial<RiverGroup> = {}): RiverGroup {
  return { feedId, feedTitle: 'f', feedLink: null, updatedAt: 't', moreInGroup: 0, items, ...fields };
}

/** The API with only `overrides` implemented; any other method answers null. */
export function apiWith(overrides: Partial<TidingsApi>): TidingsApi {
  return new Proxy(overrides as TidingsApi, {
    get: (target, name) => (target as never)[name] ?? (async () => null),
  });
}

/** A promise and the function that resolves it. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
