/**
 * What each command of the shortcut table does in the renderer. The keyboard handler and the
 * desktop shell's 'shell.command' event both land here, so a key and a menu item are one path.
 * Works on the store and, for the few things that are the page's (scrolling, focus), on elements
 * found by their data attributes: features do not import each other.
 */
import type { CommandId } from '../../../../src/app/shortcuts';
import { isWebUrl } from '../../lib/format';
import type { PlayerAction } from '../../store/player-slice';
import { isRead } from '../../store/reading-marks';
import { sidebarOrder } from '../../store/sidebar-order';
import type { AppState } from '../../store/types';

const PLAYER_ACTIONS = {
  'player.toggle': 'toggle',
  'player.back': 'back',
  'player.forward': 'forward',
  'player.slower': 'slower',
  'player.faster': 'faster',
} as const satisfies Record<Extract<CommandId, `player.${string}`>, PlayerAction>;

export interface CommandContext {
  state: () => AppState;
  openHelp: () => void;
  /** Opens a link outside the app (Electron hands window.open to the system browser). */
  openLink: (url: string) => void;
}

function selectedItem(state: AppState) {
  const id = state.selectedItemId;
  if (id === null) return null;
  for (const group of state.groups) {
    const item = group.items.find((i) => i.id === id);
    if (item) return item;
  }
  return state.searchResults?.find((i) => i.id === id) ?? null;
}

/** Feed ids in the order the sidebar lists them (all of them, not only its rows in the page), else the store's. */
function feedOrder(state: AppState): readonly number[] {
  const ids = sidebarOrder();
  return ids && ids.length > 0 ? ids : state.feeds.map((f) => f.id);
}

function goToFeedWithUnread(state: AppState, delta: 1 | -1): void {
  const order = feedOrder(state);
  const unread = new Map(state.feeds.map((f) => [f.id, f.unread]));
  const at = state.filter.feedId === null ? -1 : order.indexOf(state.filter.feedId);
  for (let step = 1; step <= order.length; step++) {
    const index = (((at + delta * step) % order.length) + order.length) % order.length;
    const id = order[index]!;
    if ((unread.get(id) ?? 0) > 0) {
      state.setPage('river');
      state.setFilter({ feedId: id, folderId: null });
      return;
    }
  }
}

/**
 * Whether a command has anything to act on now: a key that does not is left to the page (an arrow
 * key without a player still scrolls what it scrolls).
 */
export function commandAvailable(command: CommandId, state: AppState): boolean {
  if (command.startsWith('player.')) return state.nowPlaying !== null;
  return true;
}

/** Space: page down while the selected item (or the river) has more below, then the next unread item. */
async function pageOrNext(state: AppState): Promise<void> {
  const scroller = document.querySelector<HTMLElement>('[data-river-scroll]');
  if (!scroller) return;
  const frame = scroller.getBoundingClientRect();
  const id = state.selectedItemId;
  const node = id === null ? null : scroller.querySelector<HTMLElement>(`[data-item-id="${id}"]`);
  const page = Math.max(40, scroller.clientHeight * 0.85);
  if (node) {
    const box = node.getBoundingClientRect();
    if (box.bottom > frame.bottom + 4) {
      scroller.scrollTop += Math.min(page, box.bottom - frame.bottom + 16);
      return;
    }
    await nextUnread(state);
    return;
  }
  if (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 4) scroller.scrollTop += page;
  else await nextUnread(state);
}

/** The next unread item; past the last one of a feed, the next feed with unread items (NetNewsWire). */
async function nextUnread(state: AppState): Promise<void> {
  if ((await state.selectNextUnread()) !== null) return;
  if (state.filter.feedId !== null && state.searchResults === null) goToFeedWithUnread(state, 1);
  else state.pushNotice({ level: 'info', message: 'No more unread items here.' });
}

export async function runCommand(command: CommandId, ctx: CommandContext): Promise<void> {
  const state = ctx.state();
  switch (command) {
    case 'item.next':
      await state.selectNext(1);
      return;
    case 'item.previous':
      await state.selectNext(-1);
      return;
    case 'river.page':
      await pageOrNext(state);
      return;
    case 'feed.nextUnread':
      goToFeedWithUnread(state, 1);
      return;
    case 'feed.previousUnread':
      goToFeedWithUnread(state, -1);
      return;
    case 'item.open': {
      const item = selectedItem(state);
      if (!item) return;
      if (isWebUrl(item.link)) ctx.openLink(item.link);
      if (!isRead(state, item)) await state.markRead([item.id], true);
      return;
    }
    case 'item.fullText': {
      const item = selectedItem(state);
      if (!item || !isWebUrl(item.link)) return;
      const feedFull = state.feeds.find((f) => f.id === item.feedId)?.fullText ?? false;
      const on = !(state.readerChoice[item.id] ?? feedFull);
      if (on && !isRead(state, item) && state.markReadOnScroll) await state.markRead([item.id], true);
      state.setReader(item.id, on);
      return;
    }
    case 'player.toggle':
    case 'player.back':
    case 'player.forward':
    case 'player.slower':
    case 'player.faster':
      state.sendPlayer(PLAYER_ACTIONS[command]);
      return;
    case 'item.toggleRead': {
      const item = selectedItem(state);
      if (item) await state.markRead([item.id], !isRead(state, item));
      return;
    }
    case 'item.toggleStar': {
      const item = selectedItem(state);
      if (item) await state.toggleStar(item.id);
      return;
    }
    case 'view.markAllRead':
      await state.markViewRead();
      return;
    case 'feeds.refresh':
      await state.refreshFeeds(state.filter.feedId);
      return;
    case 'search.focus': {
      const input = document.querySelector<HTMLInputElement>('[data-testid="search-input"]');
      input?.focus();
      input?.select();
      return;
    }
    case 'edit.undo':
      await state.runUndo();
      return;
    case 'composer.open':
      state.setComposerOpen(true);
      return;
    case 'go.all':
      state.setPage('river');
      state.setFilter({ feedId: null, folderId: null, show: 'all' });
      return;
    case 'go.unread':
      state.setPage('river');
      state.setFilter({ feedId: null, folderId: null, show: 'unread' });
      return;
    case 'go.starred':
      state.setPage('river');
      state.setFilter({ feedId: null, folderId: null, show: 'starred' });
      return;
    case 'help.shortcuts':
      ctx.openHelp();
      return;
  }
}
