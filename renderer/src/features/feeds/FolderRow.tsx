import { memo } from 'react';
import type { FolderView } from '../../../../src/app/api';
import { useAppStore } from '../../store/context';
import { startDrag } from './drag';
import { RowMenu } from './RowMenu';
import { RowMenuButton, RowName, UnreadCount } from './TreeRowParts';
import { type TreeItemProps, treeItemAttributes, useDeleteCommand } from './tree-item';

/** A folder row in the tree: opens as one river, collapses, takes dropped feeds and folders. */
export const FolderRow = memo(function FolderRow({
  folder,
  unread,
  hasChildren,
  expanded,
  dropping,
  ...item
}: TreeItemProps & {
  folder: FolderView;
  /** This folder's and its subfolders' unread (summed from the feed rows). */
  unread: number;
  hasChildren: boolean;
  expanded: boolean;
  dropping: boolean;
}) {
  const { actions, rowKey } = item;
  // Commands read when used, not subscribed to (see FeedRow).
  const { renameFolder, deleteFolder, markFolderRead, pushNotice } = useAppStore().getState();

  async function rename(title: string) {
    actions.commandEnd();
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

  useDeleteCommand(item, confirmDelete);

  return (
    <li
      role="treeitem"
      tabIndex={item.tabIndex}
      {...treeItemAttributes(item)}
      aria-expanded={hasChildren ? expanded : undefined}
      className={`tree-item folder${item.selected ? ' selected' : ''}`}
      onDragStart={(e) => {
        e.stopPropagation();
        startDrag(e, { kind: 'folder', id: folder.id });
      }}
      data-testid="folder-row"
      data-folder-id={folder.id}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; "Move to…" in the menus is the keyboard's way. */}
      <div
        className={`tree-row${dropping ? ' drop-target' : ''}`}
        onDragOver={(e) => actions.dragOver(e, folder.id, rowKey)}
        onDragLeave={(e) => actions.dragLeave(e, folder.id, rowKey)}
        onDrop={(e) => actions.drop(e, folder.id, rowKey)}
      >
        <button
          type="button"
          className="twisty"
          tabIndex={-1}
          aria-hidden="true"
          disabled={!hasChildren}
          onClick={(e) => {
            e.stopPropagation();
            actions.toggle(folder.id, expanded);
          }}
        >
          <span className={expanded ? 'open' : undefined} />
        </button>
        <RowName
          name={folder.title}
          className="folder-name"
          renaming={item.command === 'rename'}
          renameLabel={`New name for the folder ${folder.title}`}
          onRename={(v) => void rename(v)}
          onCancel={actions.commandEnd}
        />{' '}
        <UnreadCount unread={unread} />
        <RowMenuButton
          label={`Actions for the folder ${folder.title}`}
          open={item.command === 'menu'}
          onOpen={() => actions.menu(rowKey)}
          testId="folder-menu-button"
        />
      </div>
      {item.command === 'menu' && (
        <RowMenu
          label={`Actions for the folder ${folder.title}`}
          onClose={actions.commandEnd}
          actions={[
            { label: 'Open as one river', run: () => actions.open(rowKey), testId: 'folder-open' },
            { label: 'Rename', run: () => actions.rename(rowKey), testId: 'folder-rename' },
            {
              label: 'New subfolder…',
              run: () => actions.newSubfolder(folder.id),
              testId: 'folder-new-subfolder',
            },
            { label: 'Move to…', run: () => actions.moveFolder(folder.id), testId: 'folder-move' },
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
});
