/**
 * What the virtualiser lays out: groups cut into chunks of a few items. A River5 group is usually
 * one to five items, but a feed's first fetch can bring a hundred at once; as one row those would
 * all sit in the DOM. The first chunk carries the group's heading; the rest continue it.
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
}

export function riverRows(groups: readonly RiverGroup[], size = ITEMS_PER_ROW): RiverRow[] {
  const rows: RiverRow[] = [];
  for (const group of groups) {
    const key = groupKey(group);
    const count = Math.max(1, Math.ceil(group.items.length / size));
    for (let chunk = 0; chunk < count; chunk++) {
      rows.push({
        key: chunk === 0 ? key : `${key}#${chunk}`,
        group,
        items: group.items.slice(chunk * size, (chunk + 1) * size),
        first: chunk === 0,
        last: chunk === count - 1,
      });
    }
  }
  return rows;
}
