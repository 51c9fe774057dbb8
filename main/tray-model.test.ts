import { describe, expect, it } from 'vitest';
import { defaultPrefs } from './prefs.ts';
import {
  closeAction,
  countText,
  overlayBadgeFile,
  quitWhenAllClosed,
  type ShellState,
  UnreadCounter,
  windowTitle,
} from './shell-state.ts';
import { trayView } from './tray-model.ts';

const base: ShellState = {
  unread: 0,
  refreshing: 0,
  realtimePaused: false,
  realtimeAvailable: true,
  windowVisible: true,
  prefs: { ...defaultPrefs('linux') },
};

const labels = (state: ShellState) =>
  trayView(state, 'linux').menu.map((m) => (m.type === 'separator' ? '---' : m.label));

describe('tray', () => {
  it('offers Open/Hide, Refresh all, New post, Pause real-time and Quit', () => {
    expect(labels(base)).toEqual([
      'No unread items',
      '---',
      'Hide Tidings',
      'Refresh all',
      'New post',
      'Pause real-time',
      '---',
      'Quit Tidings',
    ]);
    expect(labels({ ...base, windowVisible: false })[2]).toBe('Open Tidings');
  });

  it('carries the unread count in its tooltip, first line and icon (title beside it on macOS)', () => {
    const linux = trayView({ ...base, unread: 12 }, 'linux');
    expect(linux.tooltip).toBe('Tidings: 12 unread');
    expect(linux.menu[0]).toMatchObject({ label: '12 unread', enabled: false, action: null });
    expect(linux.icon).toBe('tray-unread.png');
    expect(linux.title).toBe('');
    expect(trayView(base, 'linux').icon).toBe('tray.png');
    const mac = trayView({ ...base, unread: 1500 }, 'darwin');
    expect(mac.title).toBe('999+');
    expect(mac.icon).toBe('trayUnreadTemplate.png');
    expect(trayView(base, 'darwin')).toMatchObject({ title: '', icon: 'trayTemplate.png' });
  });

  it('says when it is refreshing or paused, and marks the pause as checked', () => {
    const view = trayView({ ...base, unread: 3, refreshing: 4, realtimePaused: true }, 'win32');
    expect(view.tooltip).toBe('Tidings: 3 unread, refreshing 4 feeds, real-time paused');
    const refresh = view.menu.find((m) => m.type !== 'separator' && m.action === 'refreshAll');
    expect(refresh).toMatchObject({ label: 'Refreshing… (4 left)', enabled: false });
    const pause = view.menu.find((m) => m.type !== 'separator' && m.action === 'toggleRealtimePause');
    expect(pause).toMatchObject({ type: 'checkbox', checked: true, enabled: true });
  });

  it('cannot pause real-time that is off; shows the shortcut of New post from the one table', () => {
    const view = trayView({ ...base, realtimeAvailable: false }, 'linux');
    const pause = view.menu.find((m) => m.type !== 'separator' && m.action === 'toggleRealtimePause');
    expect(pause).toMatchObject({ enabled: false, label: 'Real-time is off (Settings)' });
    const post = view.menu.find((m) => m.type !== 'separator' && m.action === 'newPost');
    expect(post).toMatchObject({ accelerator: 'C' });
  });
});

describe('unread count', () => {
  it('sums the feed rows and follows their updates', () => {
    const counter = new UnreadCounter();
    counter.setAll([
      { id: 1, unread: 5 },
      { id: 2, unread: 7 },
    ]);
    expect(counter.total()).toBe(12);
    counter.update({ id: 2, unread: 0 });
    counter.update({ id: 3, unread: 4 });
    expect(counter.total()).toBe(9);
    counter.setAll([{ id: 3, unread: 4 }]);
    expect(counter.total()).toBe(4);
  });

  it('reads as people expect in the title and the badge', () => {
    expect(windowTitle(0)).toBe('Tidings');
    expect(windowTitle(12)).toBe('Tidings (12)');
    expect(windowTitle(12_345)).toBe('Tidings (999+)');
    expect(countText(-1)).toBe('');
  });
});

describe('closing and the taskbar badge', () => {
  it('closing hides to the tray when asked, closes otherwise, and always closes while quitting', () => {
    expect(closeAction({ closeToTray: true, quitting: false })).toBe('hide');
    expect(closeAction({ closeToTray: true, quitting: true })).toBe('close');
    expect(closeAction({ closeToTray: false, quitting: false })).toBe('close');
    expect(quitWhenAllClosed('linux')).toBe(true);
    expect(quitWhenAllClosed('win32')).toBe(true);
    expect(quitWhenAllClosed('darwin')).toBe(false);
  });

  it('Windows draws the count on the taskbar: 1-9, then 9+', () => {
    expect(overlayBadgeFile(0)).toBeNull();
    expect(overlayBadgeFile(3)).toBe('badge-3.png');
    expect(overlayBadgeFile(10)).toBe('badge-9plus.png');
  });
});
