/**
 * What each command does to the store, against a recorded stand-in for the store's actions (the
 * DOM parts, scrolling and focus, are checked in e2e/reading-keyboard.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FeedView, RiverItem } from '../../../../src/app/api';
import { publishSidebarOrder } from '../../store/sidebar-order';
import type { AppState } from '../../store/types';
import { commandAvailable, runCommand } from './commands';

function item(id: number, feedId: number, extra: Partial<RiverItem> = {}): RiverItem {
  return { id, feedId, read: false, starred: false, link: null, ...extra } as RiverItem;
}

function fakeState(over: Partial<AppState> = {}) {
  const calls: unknown[][] = [];
  const rec =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
      return Promise.resolve();
    };
  const state = {
    selectedItemId: 2,
    groups: [{ feedId: 1, items: [item(1, 1), item(2, 1, { link: 'https://example.com/2' })] }],
    searchResults: null,
    feeds: [
      { id: 1, unread: 0 },
      { id: 2, unread: 0 },
      { id: 3, unread: 4 },
    ] as FeedView[],
    filter: { feedId: 1, folderId: null, show: 'all', sort: 'newest' },
    selectNext: rec('selectNext'),
    markRead: rec('markRead'),
    toggleStar: rec('toggleStar'),
    markViewRead: rec('markViewRead'),
    refreshFeeds: rec('refreshFeeds'),
    setComposerOpen: rec('setComposerOpen'),
    setPage: rec('setPage'),
    setFilter: rec('setFilter'),
    setReader: rec('setReader'),
    sendPlayer: rec('sendPlayer'),
    readerChoice: {},
    keyReads: {},
    markReadOnScroll: true,
    nowPlaying: null,
    ...over,
  } as unknown as AppState;
  const opened: string[] = [];
  const ctx = {
    state: () => state,
    openHelp: () => calls.push(['help']),
    openLink: (u: string) => opened.push(u),
  };
  return { ctx, calls, opened };
}

describe('runCommand', () => {
  it('j/k move the selection', async () => {
    const { ctx, calls } = fakeState();
    await runCommand('item.next', ctx);
    await runCommand('item.previous', ctx);
    expect(calls).toEqual([
      ['selectNext', 1],
      ['selectNext', -1],
    ]);
  });

  it('o opens the selected item outside the app and reads it', async () => {
    const { ctx, calls, opened } = fakeState();
    await runCommand('item.open', ctx);
    expect(opened).toEqual(['https://example.com/2']);
    expect(calls).toEqual([['markRead', [2], true]]);
  });

  it('o never opens a link that is not http(s)', async () => {
    const { ctx, opened } = fakeState({
      groups: [{ feedId: 1, items: [item(2, 1, { link: 'javascript:alert(1)' })] }],
    } as Partial<AppState>);
    await runCommand('item.open', ctx);
    expect(opened).toEqual([]);
  });

  it('m, s, Shift+A, r and c act on the selection and the view', async () => {
    const { ctx, calls } = fakeState();
    await runCommand('item.toggleRead', ctx);
    await runCommand('item.toggleStar', ctx);
    await runCommand('view.markAllRead', ctx);
    await runCommand('feeds.refresh', ctx);
    await runCommand('composer.open', ctx);
    expect(calls).toEqual([
      ['markRead', [2], true],
      ['toggleStar', 2],
      ['markViewRead'],
      ['refreshFeeds', 1],
      ['setComposerOpen', true],
    ]);
  });

  it('n goes to the next feed with unread items, wrapping around', async () => {
    const { ctx, calls } = fakeState();
    await runCommand('feed.nextUnread', ctx);
    expect(calls).toContainEqual(['setFilter', { feedId: 3, folderId: null }]);
  });

  it('n and p follow the order the sidebar published, rows out of its window included', async () => {
    // The sidebar lists 2, 1, 3 (say, A-Z by title), where the store holds 1, 2, 3; 2 and 3 have
    // unread items, and feed 1 is open.
    publishSidebarOrder([2, 1, 3]);
    const feeds = [
      { id: 1, unread: 0 },
      { id: 2, unread: 1 },
      { id: 3, unread: 4 },
    ] as FeedView[];
    try {
      for (const [command, feedId] of [
        ['feed.nextUnread', 3],
        ['feed.previousUnread', 2],
      ] as const) {
        const { ctx, calls } = fakeState({ feeds });
        await runCommand(command, ctx);
        expect(calls).toContainEqual(['setFilter', { feedId, folderId: null }]);
      }
    } finally {
      publishSidebarOrder(null);
    }
  });

  it('g u shows every feed, unread only; ? opens the help', async () => {
    const { ctx, calls } = fakeState();
    await runCommand('go.unread', ctx);
    await runCommand('help.shortcuts', ctx);
    expect(calls).toEqual([
      ['setPage', 'river'],
      ['setFilter', { feedId: null, folderId: null, show: 'unread' }],
      ['help'],
    ]);
  });

  it('t shows the selected item’s article (reading it), and again the feed’s text', async () => {
    const { ctx, calls } = fakeState();
    await runCommand('item.fullText', ctx);
    expect(calls).toEqual([
      ['markRead', [2], true],
      ['setReader', 2, true],
    ]);
    const shown = fakeState({ readerChoice: { 2: true } } as Partial<AppState>);
    await runCommand('item.fullText', shown.ctx);
    expect(shown.calls).toEqual([['setReader', 2, false]]);
  });

  it('the player keys reach the player, and only while it holds an episode', async () => {
    const { ctx, calls } = fakeState({ nowPlaying: { itemId: 1 } } as Partial<AppState>);
    expect(commandAvailable('player.toggle', ctx.state())).toBe(true);
    expect(commandAvailable('player.toggle', fakeState().ctx.state())).toBe(false);
    expect(commandAvailable('item.next', fakeState().ctx.state())).toBe(true);
    for (const command of [
      'player.toggle',
      'player.back',
      'player.forward',
      'player.slower',
      'player.faster',
    ] as const)
      await runCommand(command, ctx);
    expect(calls).toEqual([
      ['sendPlayer', 'toggle'],
      ['sendPlayer', 'back'],
      ['sendPlayer', 'forward'],
      ['sendPlayer', 'slower'],
      ['sendPlayer', 'faster'],
    ]);
  });
});
