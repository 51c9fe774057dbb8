/**
 * What the virtualiser lays out: groups cut into chunks of a few items. A River5 group is usually
 * one to five items, but a feed's first fetch can bring a hundred at once; as one row those would
 * all sit in the DOM. The first chunk carries the group's heading; the rest continue it.
 *
 * Consecutive groups of one feed (a backlog placed by date is many one-item groups, and a feed
 * updated twice in a row is two) read as one: the later ones continue under the first heading.
 */
import type { RiverGroup, RiverItem } from '../../../../src/app/api';
import { groupKey } from '../../store/river-merge';

export const ITEMS_PER_ROW = 8;

export interface RiverRow {
  key: string;
  group: RiverGroup;
  items: RiverItem[];
  /** The chunk that shows the group's heading. */
  first: boolean;
  /** The chunk that closes the group. */
  last: boolean;
  /** Shows the feed's heading: the group's first chunk, unless it continues the same feed's group above. */
  heading: boolean;
  /** Closes what reads as one block: the group's last chunk, unless the next group is the same feed's. */
  end: boolean;
}

/**
 * `previous`: the rows of the last call. A row that comes out the same (same group object, same
 * place) is that very object again, so the memoised row views skip it: marking one item read
 * re-renders its own row only, not every row in the window (bench:river, j_cpu_ms_per_press).
 */
export function riverRows(
  groups: readonly RiverGroup[],
  size = ITEMS_PER_ROW,
  previous: readonly RiverRow[] = [],
): RiverRow[] {
  const rows = buildRows(groups, size);
  if (previous.length === 0) return rows;
  const before = new Map(previous.map((row) => [row.key, row]));
  return rows.map((row) => {
    const old = before.get(row.key);
    return old &&
      old.group === row.group &&
      old.heading === row.heading &&
      old.end === row.end &&
      old.first === row.first &&
      old.last === row.last &&
      old.items.length === row.items.length
      ? old
      : row;
  });
}

function buildRows(groups: readonly RiverGroup[], size: number): RiverRow[] {
  const rows: RiverRow[] = [];
  let previous: RiverGroup | null = null;
  for (const group of groups) {
    const key = groupKey(group);
    const count = Math.max(1, Math.ceil(group.items.length / size));
    const joins = previous !== null && previous.feedId === group.feedId;
    const before = rows[rows.length - 1];
    if (joins && before) before.end = false;
    for (let chunk = 0; chunk < count; chunk++) {
      rows.push({
        key: chunk === 0 ? key : `${key}#${chunk}`,
        group,
        items: group.items.slice(chunk * size, (chunk + 1) * size),
        first: chunk === 0,
        last: chunk === count - 1,
        heading: chunk === 0 && !joins,
        end: chunk === count - 1,
      });
    }
    previous = group;
  }
  return rows;
}
