/**
 * Keeping a loaded river in step with the core without losing the reader's place.
 *
 * When new items arrive we refetch only the first page ("head") and lay it over what is loaded:
 * the head wins for every item it contains, older loaded groups stay below it minus those items.
 * Items are unique by id across the whole river, and adjacent pieces of one feed update (same feed,
 * same updatedAt: a page boundary cut it) are joined again. updatedAt values are the core's ISO 8601
 * UTC strings, so they compare as strings. Unchanged groups keep their object
 * identity, so React skips them and the virtualiser keeps their measured heights.
 */
import type { RiverGroup, RiverItem, RiverPage } from '../../../src/app/api';

export interface LoadedRiver {
  groups: RiverGroup[];
  nextCursor: string | null;
}

/** A stable key for React and the virtualiser: the feed plus the group's oldest item. */
export function groupKey(group: RiverGroup): string {
  const oldest = group.items[group.items.length - 1];
  return oldest ? `${group.feedId}:${oldest.id}` : `${group.feedId}@${group.updatedAt}`;
}

export function mergeHead(loaded: LoadedRiver, head: RiverPage): LoadedRiver {
  // A head without a next page is the whole river: anything else we hold is gone from the core.
  // A head that does not reach what we hold would leave a hole: start again from the head.
  if (loaded.groups.length === 0 || head.nextCursor === null || !headReaches(loaded, head)) {
    return {
      groups: reuseIdentical(joinAdjacent(dropEmpty(head.groups)), loaded.groups),
      nextCursor: head.nextCursor,
    };
  }
  const headIds = itemIds(head.groups);
  // The head covers everything down to its oldest group; a loaded group newer than that which the
  // head does not mention has left the core (deleted, or no longer matching the filter).
  const floor = head.groups[head.groups.length - 1]?.updatedAt;
  const rest = withoutItems(loaded.groups, headIds).filter(
    (group) => floor === undefined || group.updatedAt <= floor,
  );
  const merged = joinAdjacent(dropEmpty([...head.groups, ...rest]));
  // The loaded cursor points past the oldest item we hold, which is at least as far as the head's.
  return { groups: reuseIdentical(merged, loaded.groups), nextCursor: loaded.nextCursor };
}

export function appendPage(loaded: LoadedRiver, page: RiverPage): LoadedRiver {
  const fresh = withoutItems(page.groups, itemIds(loaded.groups));
  return { groups: joinAdjacent(dropEmpty([...loaded.groups, ...fresh])), nextCursor: page.nextCursor };
}

/** Applies `change` to the items whose id is in `ids`; other groups keep their identity. */
export function updateItems(
  groups: RiverGroup[],
  ids: ReadonlySet<number>,
  change: (item: RiverItem) => RiverItem,
): RiverGroup[] {
  return updateWhere(groups, (item) => ids.has(item.id), change);
}

/** Applies `change` to the items `matches` picks; untouched groups and items keep their identity. */
export function updateWhere(
  groups: RiverGroup[],
  matches: (item: RiverItem) => boolean,
  change: (item: RiverItem) => RiverItem,
): RiverGroup[] {
  let changed = false;
  const next = groups.map((group) => {
    let touched = false;
    const items = group.items.map((item) => {
      if (!matches(item)) return item;
      const updated = change(item);
      if (updated !== item) touched = true;
      return updated;
    });
    if (!touched) return group;
    changed = true;
    return { ...group, items };
  });
  return changed ? next : groups;
}

/**
 * Whether a freshly fetched head reaches what is loaded. If it does not (a burst of more new items
 * than a page), merging would leave a hole between the head and the rest: fetch more first.
 */
export function headReaches(loaded: LoadedRiver, head: RiverPage): boolean {
  if (loaded.groups.length === 0 || head.nextCursor === null || head.groups.length === 0) return true;
  const loadedIds = itemIds(loaded.groups);
  return head.groups.some((group) => group.items.some((item) => loadedIds.has(item.id)));
}

export function findItem(groups: readonly RiverGroup[], id: number): RiverItem | undefined {
  for (const group of groups) {
    const item = group.items.find((i) => i.id === id);
    if (item) return item;
  }
  return undefined;
}

function itemIds(groups: readonly RiverGroup[]): Set<number> {
  const ids = new Set<number>();
  for (const group of groups) for (const item of group.items) ids.add(item.id);
  return ids;
}

function withoutItems(groups: RiverGroup[], ids: ReadonlySet<number>): RiverGroup[] {
  return groups.map((group) => {
    const items = group.items.filter((item) => !ids.has(item.id));
    return items.length === group.items.length ? group : { ...group, items };
  });
}

function dropEmpty(groups: RiverGroup[]): RiverGroup[] {
  return groups.filter((group) => group.items.length > 0);
}

function joinAdjacent(groups: RiverGroup[]): RiverGroup[] {
  const out: RiverGroup[] = [];
  for (const group of groups) {
    const last = out[out.length - 1];
    if (last && last.feedId === group.feedId && last.updatedAt === group.updatedAt) {
      out[out.length - 1] = { ...last, items: [...last.items, ...group.items] };
    } else {
      out.push(group);
    }
  }
  return out;
}

/** Hands back the previous object for any group whose content did not change. */
function reuseIdentical(next: RiverGroup[], previous: RiverGroup[]): RiverGroup[] {
  const byKey = new Map(previous.map((group) => [groupKey(group), group]));
  return next.map((group) => {
    const old = byKey.get(groupKey(group));
    return old && old !== group && JSON.stringify(old) === JSON.stringify(group) ? old : group;
  });
}
