import type { MouseEvent } from 'react';
import type { RowCommand } from './FeedList';

/** What the tree hands every row: its place (ARIA), the roving tabindex, and a pending command. */
export interface TreeItemProps {
  level: number;
  posInSet: number;
  setSize: number;
  tabIndex: 0 | -1;
  selected: boolean;
  /** A key asked this row to open its menu, rename itself or delete itself. */
  command: RowCommand | null;
  onCommandEnd(): void;
  onClick(event: MouseEvent): void;
  onContextMenu(event: MouseEvent): void;
  onFocus(): void;
  onMenu(): void;
  onRename(): void;
}
