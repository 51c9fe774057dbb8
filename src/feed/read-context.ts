import type { Deadline } from './deadline.ts';
import { assignIds } from './identity.ts';
import type { Feed, Item } from './model.ts';
import type { ParseNote } from './parse-types.ts';
import type { ItemOverflow } from './xml/build.ts';

/** What every format reader needs besides the document. */
export interface ReadContext {
  /** The URL the document came from (ParseOptions.url): the last base for relative URLs. */
  url: string | null;
  deadline: Deadline;
  /** At most this many items are read (ParseOptions.maxItems). */
  maxItems: number;
  /** Where readers say what the feed's status should mention (repairs, items left out). */
  notes: ParseNote[];
  /** Item elements the tree builder set aside past maxItems (XML only). */
  overflow: ItemOverflow | null;
}

/** How often readers look at the clock while walking items. */
export const ITEMS_PER_CLOCK_CHECK = 64;

/**
 * Every format's item loop: reads each of `raws` (what the cap kept) with `read` into the feed's
 * items, ids assigned, looking at the clock every ITEMS_PER_CLOCK_CHECK. `read` skips with null.
 */
export function readItemsInto<T>(
  feed: Feed,
  raws: readonly T[],
  ctx: ReadContext,
  read: (raw: T) => Item | null,
): void {
  for (let i = 0; i < raws.length; i++) {
    if (i % ITEMS_PER_CLOCK_CHECK === 0) ctx.deadline.check();
    const item = read(raws[i]!);
    if (item === null) continue;
    assignIds(item);
    feed.items.push(item);
  }
}
