import { type CSSProperties, type DragEvent, useEffect } from 'react';
import { MoreIcon } from '../../components/icons';
import { useApp } from '../../store/context';
import { endDrag, startDrag } from './drag';
import type { FolderNode } from './feed-tree';
import { RenameField } from './RenameField';
import { RowMenu } from './RowMenu';
import type { TreeItemProps } from './tree-item';

export interface DropProps {
  onDragOver(event: DragEvent): void;
  onDragLeave(event: DragEvent): void;
  onDrop(event: DragEvent): void;
}

/** A folder row in the tree: opens as one river, collapses, takes dropped feeds and folders. */
export function FolderRow({
  node,
  expanded,
  dropping,
  dropProps,
  onToggle,
  onOpen,
  onNewSubfolder,
  onMove,
  ...item
}: TreeItemProps & {
  node: FolderNode;
  expanded: boolean;
  dropping: boolean;
  dropProps: DropProps;
  onToggle(): void;
  onOpen(): void;
  onNewSubfolder(): void;
  onMove(): void;
}) {
  const renameFolder = useApp((s) => s.renameFolder);
  const deleteFolder = useApp((s) => s.deleteFolder);
  const markFolderRead = useApp((s) => s.markFolderRead);
  const pushNotice = useApp((s) => s.pushNotice);
  const { folder, unread } = node;

  async function rename(title: string) {
    item.onCommandEnd();
    const result = await renameFolder(folder.id, title);
    if (!result.ok) pushNotice({ level: 'error', message: result.error.message });
  }

  function confirmDelete() {
    const message = `Delete the folder “${folder.title}”? Its feeds and subfolders move up a level; nothing is unsubscribed.`;
    if (!window.confirm(message)) return;
    void deleteFolder(folder.id).then((result) => {
      if (!result.ok) pushNotice({ level: 'error', message: result.error.message });
    });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the command arrives, not on every render.
  useEffect(() => {
    if (item.command !== 'delete') return;
    item.onCommandEnd();
    confirmDelete();
  }, [item.command]);

  const hasChildren = node.children.length > 0;

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the tree (FeedList) handles Enter and Space for every row.
    <li
      role="treeitem"
      data-key={`folder:${folder.id}`}
      aria-level={item.level}
      style={{ '--level': item.level } as CSSProperties}
      aria-posinset={item.posInSet}
      aria-setsize={item.setSize}
      aria-selected={item.selected}
      aria-expanded={hasChildren ? expanded : undefined}
      tabIndex={item.tabIndex}
      className={`tree-item folder${item.selected ? ' selected' : ''}`}
      draggable={item.command !== 'rename'}
      onDragStart={(e) => {
        e.stopPropagation();
        startDrag(e, { kind: 'folder', id: folder.id });
      }}
      onDragEnd={endDrag}
      onClick={item.onClick}
      onContextMenu={item.onContextMenu}
      onFocus={(e) => e.target === e.currentTarget && item.onFocus()}
      data-testid="folder-row"
      data-folder-id={folder.id}
    >
      <div className={`tree-row${dropping ? ' drop-target' : ''}`} {...dropProps}>
        <button
          type="button"
          className="twisty"
          tabIndex={-1}
          aria-hidden="true"
          disabled={!hasChildren}
          onClick={(e) => {
            e.stopPropagation();
            onToggle();
          }}
        >
          <span className={expanded ? 'open' : undefined} />
        </button>
        {item.command === 'rename' ? (
          <RenameField
            label={`New name for the folder ${folder.title}`}
            initial={folder.title}
            onSave={(v) => void rename(v)}
            onCancel={item.onCommandEnd}
          />
        ) : (
          <span className="folder-name">{folder.title}</span>
        )}{' '}
        <span className={unread > 0 ? 'count' : 'visually-hidden'}>
          {unread}
          <span className="visually-hidden"> unread</span>
        </span>
        <button
          type="button"
          className="icon-button row-menu-button"
          tabIndex={-1}
          // Out of the row's name (the row is named by its text); reached by the context-menu key.
          aria-hidden="true"
          aria-label={`Actions for the folder ${folder.title}`}
          aria-haspopup="menu"
          aria-expanded={item.command === 'menu'}
          onClick={item.onMenu}
          data-testid="folder-menu-button"
        >
          <MoreIcon />
        </button>
      </div>
      {item.command === 'menu' && (
        <RowMenu
          label={`Actions for the folder ${folder.title}`}
          onClose={item.onCommandEnd}
          actions={[
            { label: 'Open as one river', run: onOpen, testId: 'folder-open' },
            { label: 'Rename', run: item.onRename, testId: 'folder-rename' },
            { label: 'New subfolder…', run: onNewSubfolder, testId: 'folder-new-subfolder' },
            { label: 'Move to…', run: onMove, testId: 'folder-move' },
            {
              label: 'Mark all read',
              run: () => void markFolderRead(folder.id),
              disabled: unread === 0,
              testId: 'folder-mark-read',
            },
            { label: 'Delete folder…', run: confirmDelete, danger: true, testId: 'folder-delete' },
          ]}
        />
      )}
    </li>
  );
}
