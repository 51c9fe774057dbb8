/**
 * Read/star changes the reader made, kept over answers that are older than them.
 *
 * A river page requested before `markRead` reached the core still says "unread"; merging it as is
 * would flip the item back. Each change is recorded when sent and stamped when the core confirms
 * it; a page whose request started before that stamp gets the change laid over it again. Changes
 * every in-flight request already saw are forgotten.
 */
import type { RiverGroup, RiverItem } from '../../../src/app/api';
import { updateWhere } from './river-merge';

export interface LocalChange {
  matches(item: RiverItem): boolean;
  change(item: RiverItem): RiverItem;
}

interface Entry extends LocalChange {
  /** Logical time the core confirmed it; null while the command is in flight. */
  settledAt: number | null;
}

export class LocalChanges {
  private clock = 0;
  private readonly entries = new Set<Entry>();
  private readonly inflight = new Set<number>();

  /** Record a change as its command is sent. */
  begin(change: LocalChange): Entry {
    const entry: Entry = { ...change, settledAt: null };
    this.entries.add(entry);
    return entry;
  }

  /** The core has it: answers to requests started from now on include it. */
  settle(entry: Entry): void {
    entry.settledAt = ++this.clock;
    this.prune();
  }

  /** The command failed: the change never happened. */
  cancel(entry: Entry): void {
    this.entries.delete(entry);
  }

  /** Call as a river request leaves; pass the token to overlay() and ended(). */
  started(): number {
    const token = ++this.clock;
    this.inflight.add(token);
    return token;
  }

  ended(token: number): void {
    this.inflight.delete(token);
    this.prune();
  }

  /** The answer to request `token`, with every change the core had not seen when it left. */
  overlay(groups: RiverGroup[], token: number): RiverGroup[] {
    let out = groups;
    for (const entry of this.entries) {
      if (entry.settledAt === null || entry.settledAt > token)
        out = updateWhere(out, entry.matches, entry.change);
    }
    return out;
  }

  /** One item of the answer to request `token`, with every change the core had not seen when it left. */
  overlayItem(item: RiverItem, token: number): RiverItem {
    let out = item;
    for (const entry of this.entries) {
      if ((entry.settledAt === null || entry.settledAt > token) && entry.matches(out))
        out = entry.change(out);
    }
    return out;
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const oldest = this.inflight.size ? Math.min(...this.inflight) : this.clock + 1;
    for (const entry of this.entries) {
      if (entry.settledAt !== null && entry.settledAt < oldest) this.entries.delete(entry);
    }
  }
}
