/**
 * The sidebar's feed tree (ARIA tree pattern): "All", nested folders with unread totals, then
 * unfiled feeds. One Tab stop (a roving tabindex): arrows move, Right/Left open and close folders,
 * Enter or Space opens the row as the river, F2 renames, the context-menu key or Shift+F10 opens
 * the row's actions. Feeds and folders can be dragged onto a folder (or onto "All" to unfile).
 * Rows are flat siblings carrying aria-level, so a row's name is its own text (never its children's).
 */
import {
  type DragEvent,
  Fragment,
  type KeyboardEvent,
  type MouseEvent,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import { Checkbox } from '../../components/Checkbox';
import { lazyView } from '../../components/lazy-view';
import { useFirstPaintDone } from '../../components/use-first-paint';
import { useScrollingFlag } from '../../components/use-scrolling-flag';
import { useApp } from '../../store/context';
import { publishSidebarOrder } from '../../store/sidebar-order';
import { type DropTarget, readDrag } from './drag';
import { FeedRow } from './FeedRow';
import type { FolderDialogMode } from './FolderDialog';
import { FolderRow } from './FolderRow';
import {
  ALL_KEY,
  buildTree,
  feedKey,
  feedRanks,
  folderKey,
  orderKey,
  type TreeRow,
  visibleRows,
} from './feed-tree';
import type { RowActions } from './tree-item';
import { useStoredState } from './use-stored-state';
import { useTreeWindow } from './use-tree-window';

// The dialogs load on first use (chunks of their own: components/lazy-view).
const FeedSettingsDialog = lazyView('The feed settings', () =>
  import('./FeedSettingsDialog').then((m) => m.FeedSettingsDialog),
);
const FolderDialog = lazyView('The folder dialog', () =>
  import('./FolderDialog').then((m) => m.FolderDialog),
);

export type RowCommand = 'menu' | 'rename' | 'delete';

/** `onOpen`: a row was opened as the river (the app closes the narrow window's drawer). */
export function FeedList({ onOpen }: { onOpen?(): void } = {}) {
  const allFeeds = useApp((s) => s.feeds);
  // The feed that reads the user's own posts is "My posts" above the tree, not one more feed.
  const feeds = useMemo(
    () => (allFeeds.some((f) => f.own) ? allFeeds.filter((f) => !f.own) : allFeeds),
    [allFeeds],
  );
  const folders = useApp((s) => s.folders);
  const filter = useApp((s) => s.filter);
  const setFilter = useApp((s) => s.setFilter);
  const setPage = useApp((s) => s.setPage);
  const clearSearch = useApp((s) => s.clearSearch);
  const updateFeed = useApp((s) => s.updateFeed);
  const moveFolder = useApp((s) => s.moveFolder);
  const pushNotice = useApp((s) => s.pushNotice);
  const imagesOnClick = useApp((s) => s.imagePolicy === 'clickToLoad');
  const [collapsedList, setCollapsedList] = useStoredState<number[]>('tidings.collapsedFolders', []);
  const [hideRead, setHideRead] = useStoredState<boolean>('tidings.hideReadFeeds', false);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [command, setCommand] = useState<{ key: string; command: RowCommand } | null>(null);
  const [feedDialog, setFeedDialog] = useState<{ feedId: number; focus: 'title' | 'folder' } | null>(null);
  const [folderDialog, setFolderDialog] = useState<FolderDialogMode | null>(null);
  const [dropKey, setDropKey] = useState<string | null>(null);
  const treeRef = useRef<HTMLUListElement>(null);
  const listRef = useRef<HTMLElement>(null);
  const allRef = useRef<HTMLLIElement>(null);
  // No hover looks while the list scrolls (components/use-scrolling-flag).
  useScrollingFlag(listRef);

  const collapsed = useMemo(() => new Set(collapsedList), [collapsedList]);
  // The A-Z order is sorted again only when an id or a title changed, not on every count change.
  const order = orderKey(feeds);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `order` stands for what the ranks depend on.
  const ranks = useMemo(() => feedRanks(feeds), [order]);
  const tree = useMemo(
    () => buildTree(folders, feeds, { hideRead, keepFeedId: filter.feedId, ranks }),
    [folders, feeds, hideRead, filter.feedId, ranks],
  );
  const rows = useMemo(() => visibleRows(tree, collapsed), [tree, collapsed]);

  const totalUnread = useMemo(() => feeds.reduce((n, f) => n + f.unread, 0), [feeds]);

  const selectedKey =
    filter.feedId !== null
      ? feedKey(filter.feedId)
      : filter.folderId !== null
        ? folderKey(filter.folderId)
        : ALL_KEY;
  const has = (key: string | null) => key !== null && rows.some((r) => r.key === key);
  // The one row reachable by Tab: the last one the keys reached, else the selected one, else All.
  const tabKey = has(activeKey) ? (activeKey as string) : has(selectedKey) ? selectedKey : ALL_KEY;
  // Only the rows near the list's viewport are rendered (use-tree-window); the Tab stop's row and a
  // row with a pending command are rendered wherever they are. Until the river's first page is on
  // screen, only the rows in sight.
  const firstPaintDone = useFirstPaintDone();
  // "All" (the first row, no node) is always rendered above the windowed rows.
  const windowedRows = useMemo(() => rows.filter((row) => row.node !== null), [rows]);
  const shown = useTreeWindow(windowedRows, listRef, allRef, [tabKey, command?.key ?? null], firstPaintDone);
  // n/p walk the feeds in this order, the rows out of the window included (store/sidebar-order).
  useEffect(() => {
    publishSidebarOrder(windowedRows.flatMap((row) => (row.node?.kind === 'feed' ? [row.node.feed.id] : [])));
    return () => publishSidebarOrder(null);
  }, [windowedRows]);
  // A feed or folder opened from elsewhere (n/p, a link in the river) is scrolled into sight.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the selection changes, not when the rows do.
  useEffect(() => shown.reveal(selectedKey), [selectedKey]);

  function open(key: string) {
    onOpen?.();
    clearSearch();
    setPage('river');
    if (key === ALL_KEY) setFilter({ feedId: null, folderId: null });
    else if (key.startsWith('feed:')) setFilter({ feedId: Number(key.slice(5)), folderId: null });
    else setFilter({ feedId: null, folderId: Number(key.slice(7)) });
  }

  function setCollapsed(folderId: number, closed: boolean) {
    const next = new Set(collapsed);
    if (closed) next.add(folderId);
    else next.delete(folderId);
    setCollapsedList([...next]);
  }

  /** The row becomes the Tab stop, which renders it even when it is far out of sight; focusing it scrolls it in. */
  function focusRow(key: string) {
    flushSync(() => setActiveKey(key));
    treeRef.current?.querySelector<HTMLElement>(`[data-key="${key}"]`)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    // Keys typed into a rename field, or inside a row's menu, are theirs.
    const target = event.target as HTMLElement;
    if (target.getAttribute('role') !== 'treeitem') return;
    const key = target.dataset.key ?? ALL_KEY;
    const index = rows.findIndex((r) => r.key === key);
    const row = rows[index];
    if (!row) return;
    const node = row.node;
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    switch (event.key) {
      case 'ArrowDown':
        handled();
        if (index + 1 < rows.length) focusRow(rows[index + 1]!.key);
        return;
      case 'ArrowUp':
        handled();
        if (index > 0) focusRow(rows[index - 1]!.key);
        return;
      case 'Home':
        handled();
        focusRow(rows[0]!.key);
        return;
      case 'End':
        handled();
        focusRow(rows[rows.length - 1]!.key);
        return;
      case 'ArrowRight':
        handled();
        if (node?.kind === 'folder') {
          if (collapsed.has(node.folder.id)) setCollapsed(node.folder.id, false);
          else if (node.children[0]) focusRow(node.children[0].key);
        }
        return;
      case 'ArrowLeft':
        handled();
        if (node?.kind === 'folder' && !collapsed.has(node.folder.id) && node.children.length > 0)
          setCollapsed(node.folder.id, true);
        else if (row.parentKey) focusRow(row.parentKey);
        return;
      case 'Enter':
      case ' ':
        handled();
        open(key);
        return;
      case 'F2':
        if (!node) return;
        handled();
        setCommand({ key, command: 'rename' });
        return;
      case 'Delete':
        if (!node) return;
        handled();
        setCommand({ key, command: 'delete' });
        return;
      case 'ContextMenu':
        handled();
        if (node) setCommand({ key, command: 'menu' });
        return;
      case 'F10':
        if (!event.shiftKey || !node) return;
        handled();
        setCommand({ key, command: 'menu' });
        return;
    }
  }

  function onClick(event: MouseEvent, key: string) {
    // Clicks inside a folder's children belong to the child row.
    if ((event.target as HTMLElement).closest('[role="treeitem"]') !== event.currentTarget) return;
    if ((event.target as HTMLElement).closest('button, input, [role="menu"]')) return;
    setActiveKey(key);
    open(key);
  }

  function onContextMenu(event: MouseEvent, key: string) {
    if ((event.target as HTMLElement).closest('[role="treeitem"]') !== event.currentTarget) return;
    if (key === ALL_KEY) return;
    event.preventDefault();
    setActiveKey(key);
    setCommand({ key, command: 'menu' });
  }

  // Drag a feed or a folder onto a folder (or onto All: out of every folder).
  function dropProps(target: DropTarget, key: string) {
    return {
      onDragOver(event: DragEvent) {
        const drag = readDrag(event);
        if (!drag) return;
        if (drag.kind === 'folder' && target.folderId === drag.id) return;
        event.preventDefault();
        event.stopPropagation();
        event.dataTransfer.dropEffect = 'move';
        if (dropKey !== key) setDropKey(key);
      },
      onDragLeave(event: DragEvent) {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null) && dropKey === key)
          setDropKey(null);
      },
      async onDrop(event: DragEvent) {
        const drag = readDrag(event);
        setDropKey(null);
        if (!drag) return;
        event.preventDefault();
        event.stopPropagation();
        const result =
          drag.kind === 'feed'
            ? await updateFeed(drag.id, { folderId: target.folderId })
            : await moveFolder(drag.id, target.folderId);
        if (!result.ok) pushNotice({ level: 'error', message: result.error.message });
      },
    };
  }

  /** After a dialog: focus goes back to the row it was about (the menu that opened it is gone). */
  function refocus(key: string) {
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (active && active !== document.body) return;
      focusRow(key);
    });
  }

  const commandFor = (key: string) => (command?.key === key ? command.command : null);
  const endCommand = () => {
    const key = command?.key;
    setCommand(null);
    // Focus goes back to the row, unless something else took it (a rename field, a dialog).
    if (key) refocus(key);
  };

  // Rows get one stable `actions` object (it calls the latest handlers through a ref), so a memoised
  // row re-renders only when its own feed or place changed: with a thousand feeds, one feed's
  // status event repaints one row, not the whole list.
  const latest = useRef({ onClick, onContextMenu, open, setCollapsed, endCommand, dropProps });
  latest.current = { onClick, onContextMenu, open, setCollapsed, endCommand, dropProps };
  const actions = useMemo<RowActions>(
    () => ({
      click: (event, key) => latest.current.onClick(event, key),
      contextMenu: (event, key) => latest.current.onContextMenu(event, key),
      focus: (key) => setActiveKey(key),
      menu: (key) => setCommand({ key, command: 'menu' }),
      rename: (key) => setCommand({ key, command: 'rename' }),
      commandEnd: () => latest.current.endCommand(),
      open: (key) => latest.current.open(key),
      feedSettings: (feedId, focus) => setFeedDialog({ feedId, focus }),
      toggle: (folderId, closed) => latest.current.setCollapsed(folderId, closed),
      newSubfolder: (folderId) => setFolderDialog({ kind: 'create', parentId: folderId }),
      moveFolder: (folderId) => setFolderDialog({ kind: 'move', folderId }),
      dragOver: (event, folderId, key) => latest.current.dropProps({ folderId }, key).onDragOver(event),
      dragLeave: (event, folderId, key) => latest.current.dropProps({ folderId }, key).onDragLeave(event),
      drop: (event, folderId, key) => void latest.current.dropProps({ folderId }, key).onDrop(event),
    }),
    [],
  );

  // A flat list of rows with aria-level/-posinset/-setsize (the ARIA tree pattern's flat form):
  // each row's accessible name is its own text, never its children's.
  function renderRow(row: TreeRow, index: number) {
    const node = row.node;
    if (!node) return null;
    const common = {
      rowKey: node.key,
      index,
      measure: shown.measure,
      actions,
      level: row.level,
      posInSet: row.posInSet,
      setSize: row.setSize,
      tabIndex: (node.key === tabKey ? 0 : -1) as 0 | -1,
      selected: node.key === selectedKey,
      command: commandFor(node.key),
    };
    if (node.kind === 'feed')
      return (
        <FeedRow
          key={node.key}
          {...common}
          feed={node.feed}
          faviconAllowed={!imagesOnClick || node.feed.loadImages}
        />
      );
    return (
      <FolderRow
        key={node.key}
        {...common}
        folder={node.folder}
        unread={node.unread}
        hasChildren={node.children.length > 0}
        expanded={!collapsed.has(node.folder.id)}
        dropping={dropKey === node.key}
      />
    );
  }

  const allDrop = dropProps({ folderId: null }, ALL_KEY);

  return (
    <nav ref={listRef} className="feed-list" aria-label="Feeds" data-testid="feed-list">
      <div className="feed-list-head">
        <h2 id="feed-tree-label">Feeds</h2>
        <button
          type="button"
          className="ghost small"
          onClick={() => setFolderDialog({ kind: 'create', parentId: null })}
          data-testid="new-folder"
        >
          New folder
        </button>
        <Checkbox className="hide-read" checked={hideRead} onChange={setHideRead} testId="hide-read-feeds">
          Hide read
        </Checkbox>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA tree pattern on a list. */}
      <ul ref={treeRef} role="tree" aria-labelledby="feed-tree-label" className="tree" onKeyDown={onKeyDown}>
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the tree's onKeyDown handles Enter and Space. */}
        <li
          ref={allRef}
          role="treeitem"
          data-key={ALL_KEY}
          aria-level={1}
          aria-posinset={1}
          aria-setsize={rows[0]?.setSize ?? 1}
          aria-selected={selectedKey === ALL_KEY}
          tabIndex={tabKey === ALL_KEY ? 0 : -1}
          className={`tree-item${selectedKey === ALL_KEY ? ' selected' : ''}`}
          onClick={(e) => onClick(e, ALL_KEY)}
          onFocus={() => setActiveKey(ALL_KEY)}
          data-testid="feed-all"
        >
          <div className={`tree-row feed-all${dropKey === ALL_KEY ? ' drop-target' : ''}`} {...allDrop}>
            <span className="feed-title">All</span>{' '}
            <span className={totalUnread > 0 ? 'count' : 'visually-hidden'}>
              {totalUnread}
              <span className="visually-hidden"> unread</span>
            </span>
          </div>
        </li>
        {shown.rows.map(({ row, index, gapAbove }) => (
          <Fragment key={row.key}>
            {gapAbove > 0 && <TreeGap height={gapAbove} />}
            {renderRow(row, index)}
          </Fragment>
        ))}
        {shown.gapBelow > 0 && <TreeGap height={shown.gapBelow} />}
      </ul>
      <Suspense fallback={null}>
        {feedDialog && (
          <FeedSettingsDialog
            feedId={feedDialog.feedId}
            focus={feedDialog.focus}
            tree={tree}
            onClose={() => {
              setFeedDialog(null);
              refocus(feedKey(feedDialog.feedId));
            }}
          />
        )}
        {folderDialog && (
          <FolderDialog
            mode={folderDialog}
            tree={tree}
            onClose={() => {
              setFolderDialog(null);
              const { kind } = folderDialog;
              if (kind === 'move') refocus(folderKey(folderDialog.folderId));
              else if (folderDialog.parentId !== null) refocus(folderKey(folderDialog.parentId));
            }}
          />
        )}
      </Suspense>
    </nav>
  );
}

/** Stands for rows left out of the window: no role, hidden from assistive technology. */
function TreeGap({ height }: { height: number }) {
  return <li role="none" aria-hidden="true" className="tree-gap" style={{ height }} />;
}
