import { type CSSProperties, type DragEvent, type MouseEvent, useEffect } from 'react';
import { endDrag } from './drag';
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

/**
 * What every row's <li role="treeitem" tabIndex={item.tabIndex}> carries, feed or folder: its
 * place (ARIA), the ref that measures it, dragging (not while renamed) and the tree's mouse and focus
 * handling (the keys, Enter and Space included, are the tree's own: FeedList).
 */
export function treeItemAttributes(item: TreeItemProps) {
  const { actions, rowKey } = item;
  return {
    ref: item.measure,
    'data-index': item.index,
    'data-key': rowKey,
    'aria-level': item.level,
    style: { '--level': item.level } as CSSProperties,
    'aria-posinset': item.posInSet,
    'aria-setsize': item.setSize,
    'aria-selected': item.selected,
    draggable: item.command !== 'rename',
    onDragEnd: endDrag,
    onClick: (e: MouseEvent) => actions.click(e, rowKey),
    onContextMenu: (e: MouseEvent) => actions.contextMenu(e, rowKey),
    onFocus: (e: { target: EventTarget; currentTarget: EventTarget }) =>
      e.target === e.currentTarget && actions.focus(rowKey),
  } as const;
}

/** The Delete key on a row: once the command arrives, end it and run `confirmDelete` (which asks). */
export function useDeleteCommand(item: TreeItemProps, confirmDelete: () => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the command arrives, not on every render.
  useEffect(() => {
    if (item.command !== 'delete') return;
    item.actions.commandEnd();
    confirmDelete();
  }, [item.command]);
}
