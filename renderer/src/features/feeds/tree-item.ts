import type { DragEvent, MouseEvent } from 'react';
import type { RowCommand } from './FeedList';

/**
 * What the tree does for its rows, as one stable object (its identity never changes, so memoised
 * rows are not re-rendered by it). Rows pass their own key.
 */
export interface RowActions {
  click(event: MouseEvent, key: string): void;
  contextMenu(event: MouseEvent, key: string): void;
  focus(key: string): void;
  menu(key: string): void;
  rename(key: string): void;
  /** A menu, rename or delete is over: focus goes back to the row unless something took it. */
  commandEnd(): void;
  /** Open the row as the river. */
  open(key: string): void;
  feedSettings(feedId: number, focus: 'title' | 'folder'): void;
  toggle(folderId: number, closed: boolean): void;
  newSubfolder(folderId: number): void;
  moveFolder(folderId: number): void;
  dragOver(event: DragEvent, folderId: number, key: string): void;
  dragLeave(event: DragEvent, folderId: number, key: string): void;
  drop(event: DragEvent, folderId: number, key: string): void;
}

/** What the tree hands every row: its place (ARIA), the roving tabindex, and a pending command. */
export interface TreeItemProps {
  rowKey: string;
  /** The row's place in the tree's rows, and the ref that measures it (use-tree-window). */
  index: number;
  measure(element: HTMLElement | null): void;
  actions: RowActions;
  level: number;
  posInSet: number;
  setSize: number;
  tabIndex: 0 | -1;
  selected: boolean;
  /** A key asked this row to open its menu, rename itself or delete itself. */
  command: RowCommand | null;
}
