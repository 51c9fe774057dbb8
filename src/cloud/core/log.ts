/**
 * The cloud's recent calls, like the reference cloud's viewLog: a ring of the last N entries for
 * the log page, and listeners (the app's activity log). URLs are masked before they are kept, so
 * a callback's secret-looking query never reaches a page or a listener.
 */
import type { Clock } from '../../common/clock.ts';
import { maskUrl } from '../../net/mask.ts';

export type CloudLogKind =
  | 'subscribe'
  | 'subscribeFailed'
  | 'ping'
  | 'pingFailed'
  | 'pingRefused'
  | 'notify'
  | 'notifyFailed'
  | 'fanout'
  | 'saveRss'
  | 'saveRssFailed'
  | 'xmlrpc'
  | 'refused'
  | 'expired'
  | 'websub'
  | 'websubFailed'
  | 'weblogUpdates'
  | 'rssPing'
  | 'rssPingFailed'
  /** The cloud's own failure (its database away): the cause, never shown to the caller. */
  | 'error';

export interface CloudLogEntry {
  /** ms since the epoch. */
  at: number;
  kind: CloudLogKind;
  feedUrl?: string;
  callbackUrl?: string;
  /** What happened, in words (a reason for failures). */
  detail?: string;
  /** How long it took. */
  ms?: number;
}

export type CloudLogInput = Omit<CloudLogEntry, 'at' | 'callbackUrl' | 'feedUrl' | 'detail'> & {
  feedUrl?: string | null;
  callbackUrl?: string | null;
  detail?: string | null | undefined;
};

/**
 * What an entry keeps of a field a caller chose (a URL, a site's name): a megabyte sent in a
 * ping is not kept 250 times over, nor written to every instance's log table.
 */
const MAX_FIELD_CHARS = 2000;
const clip = (s: string) => (s.length > MAX_FIELD_CHARS ? `${s.slice(0, MAX_FIELD_CHARS)}...` : s);

export class CloudLog {
  private readonly ring: CloudLogEntry[] = [];
  private next = 0;
  private readonly size: number;
  private readonly clock: Clock;
  private readonly listeners = new Set<(e: CloudLogEntry) => void>();

  constructor(clock: Clock, size = 250) {
    this.clock = clock;
    this.size = Math.max(1, size);
  }

  add(input: CloudLogInput): void {
    const entry: CloudLogEntry = { at: this.clock.now(), kind: input.kind };
    if (input.feedUrl) entry.feedUrl = maskUrl(clip(input.feedUrl));
    if (input.callbackUrl) entry.callbackUrl = maskUrl(clip(input.callbackUrl));
    if (input.detail) entry.detail = clip(input.detail);
    if (input.ms !== undefined) entry.ms = input.ms;
    if (this.ring.length < this.size) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.size;
    for (const fn of this.listeners) {
      try {
        fn(entry);
      } catch {
        // A listener's failure is its own; the cloud keeps answering.
      }
    }
  }

  /** Newest first. */
  recent(limit = this.size): CloudLogEntry[] {
    const ordered =
      this.ring.length < this.size
        ? [...this.ring]
        : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return ordered.reverse().slice(0, limit);
  }

  /** Returns the unsubscribe function (STYLE: events are subscriptions). */
  subscribe(fn: (e: CloudLogEntry) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
