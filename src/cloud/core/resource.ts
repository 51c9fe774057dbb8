/**
 * Reading a resource (feed) the cloud is asked about, and deciding whether it changed.
 * Conditional GET with the validators of the last read; "changed" means the body's content hash
 * (sha256) or size differs from the last read (the reference cloud: md5 and size). A 304 is
 * unchanged. Feeds saved through rssCloud.saveRss are read from the store, not over HTTP.
 */
import { createHash } from 'node:crypto';
import type { HttpClient } from '../../net/http-client-types.ts';
import type { TopicContent } from '../delivery/deliver.ts';
import type { CheckStart, CloudStore, ContentSeen } from '../store/store.ts';
import { isTimeoutKey } from './observer.ts';

export type ResourceCheck =
  /**
   * `content`: the body as read, what WebSub subscribers receive (no second read); `hash`: its
   * sha256, now the resource's (the fan-out keeps it as the topic's hash, no second hashing).
   */
  | {
      kind: 'changed';
      firstRead: boolean;
      content: TopicContent;
      hash: string;
      /** Already queued for delivery with the read (ResourceDeps.recordChange). */
      queued?: { changeId: number; subscribers: number };
    }
  | { kind: 'unchanged' }
  | { kind: 'tooRecent'; minSeconds: number; agoSeconds: number }
  /** `timedOut`: the feed's host did not answer in time (counted apart in /metrics). */
  | { kind: 'unreadable'; reason: string; timedOut?: boolean };

export interface ResourceDeps {
  http: HttpClient;
  store: CloudStore;
  now: () => number;
  /** 0: no minimum. */
  minPingIntervalSec: number;
  /**
   * Records the read as store.recordContent does and, when it changed the resource, queues the
   * change for delivery in the same step (a cloud on PostgreSQL: delivery/queue.ts). Absent: recordContent.
   */
  recordChange?: (
    url: string,
    c: ContentSeen,
    now: number,
    content: TopicContent,
  ) => Promise<{ changed: boolean; queued: { changeId: number; subscribers: number } }>;
}

export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function checkResource(
  deps: ResourceDeps,
  url: string,
  enforceInterval: boolean,
): Promise<ResourceCheck> {
  if (!/^https?:\/\//i.test(url)) return { kind: 'unreadable', reason: 'not an http or https URL' };
  const minSeconds = enforceInterval ? deps.minPingIntervalSec : 0;
  const { before, saved, tooRecent, now } = await begin(deps, url, minSeconds);
  if (tooRecent && before?.whenLastCheck != null) {
    return { kind: 'tooRecent', minSeconds, agoSeconds: Math.floor((now - before.whenLastCheck) / 1000) };
  }
  if (saved) {
    return record(deps, url, before?.lastHash ?? null, {
      hash: saved.hash,
      size: Buffer.byteLength(saved.body),
      etag: null,
      lastModified: null,
      content: { body: Buffer.from(saved.body), contentType: saved.contentType },
    });
  }

  const res = await deps.http.fetchFeed({
    url,
    etag: before?.etag ?? null,
    lastModified: before?.lastModified ?? null,
  });
  if (res.kind === 'notModified' && before?.lastHash) return { kind: 'unchanged' };
  if (res.kind !== 'ok') {
    const reason =
      res.kind === 'error'
        ? res.error.message
        : res.kind === 'gone'
          ? 'HTTP 410 Gone'
          : 'HTTP 304 without a previous read';
    const timedOut = res.kind === 'error' && isTimeoutKey(res.error.code);
    return { kind: 'unreadable', reason, ...(timedOut ? { timedOut } : {}) };
  }
  return record(deps, url, before?.lastHash ?? null, {
    hash: res.bodyHash,
    size: res.body.byteLength,
    etag: res.etag,
    lastModified: res.lastModified,
    content: { body: res.body, contentType: res.contentType },
  });
}

/**
 * The resource as it was; unless checked less than `minSeconds` ago, the check counted and the
 * feed saved at that URL. One step where the store offers it (PostgreSQL: one round trip instead
 * of four, under every ping of every instance).
 */
async function begin(
  deps: ResourceDeps,
  url: string,
  minSeconds: number,
): Promise<CheckStart & { now: number }> {
  const { store } = deps;
  if (store.beginCheck) {
    const now = deps.now();
    return { ...(await store.beginCheck(url, now, minSeconds)), now };
  }
  const before = await store.getResource(url);
  const now = deps.now();
  if (minSeconds > 0 && before?.whenLastCheck != null) {
    if (Math.floor((now - before.whenLastCheck) / 1000) < minSeconds)
      return { before, tooRecent: true, saved: undefined, now };
  }
  await store.touchResource(url, now);
  return { before, tooRecent: false, saved: await store.savedFeedByUrl(url), now };
}

/**
 * The read is recorded and compared in one step of the store (compare-and-set): when two
 * instances of a cloud read one change at once, only one of them sees it as changed.
 */
async function record(
  deps: ResourceDeps,
  url: string,
  lastHash: string | null,
  read: {
    hash: string;
    size: number;
    etag: string | null;
    lastModified: string | null;
    content: TopicContent;
  },
): Promise<ResourceCheck> {
  const { content, ...c } = read;
  const seen = { ...c, title: null };
  if (deps.recordChange) {
    const r = await deps.recordChange(url, seen, deps.now(), content);
    return r.changed
      ? { kind: 'changed', firstRead: lastHash === null, content, hash: c.hash, queued: r.queued }
      : { kind: 'unchanged' };
  }
  const changed = await deps.store.recordContent(url, seen, deps.now());
  return changed
    ? { kind: 'changed', firstRead: lastHash === null, content, hash: c.hash }
    : { kind: 'unchanged' };
}
