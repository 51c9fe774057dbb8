/**
 * What the shell shows about the app, in one value: unread total, refresh progress, real-time
 * paused, window visible, and the preferences the menus offer. The tray, the window title, the
 * badge and the menus are each a plain function of it (tray-model.ts, app-menu-model.ts).
 */
import type { Theme } from './prefs.ts';

export interface ShellState {
  unread: number;
  /** Feeds being fetched or waiting for it (the core's progress). */
  refreshing: number;
  /** Real-time reading paused from the tray/menu for this run. */
  realtimePaused: boolean;
  /** Real-time reading is configured at all (a tunnel or a public address). */
  realtimeAvailable: boolean;
  windowVisible: boolean;
  prefs: {
    closeToTray: boolean;
    startAtLogin: boolean;
    notifyPostAnswers: boolean;
    theme: Theme;
  };
}

/** Counts as people read them in a title or a badge: 1,234 becomes 999+. */
export function countText(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '';
  return n > 999 ? '999+' : String(Math.floor(n));
}

/** The window title: "Tidings (12)" while there are unread items. */
export function windowTitle(unread: number): string {
  const count = countText(unread);
  return count ? `Tidings (${count})` : 'Tidings';
}

/**
 * Sums unread counts per feed as the core reports them (listFeeds at start and on
 * 'feeds.changed', one row at a time on 'feed.status').
 */
export class UnreadCounter {
  private perFeed = new Map<number, number>();

  setAll(feeds: readonly { id: number; unread: number }[]): void {
    this.perFeed = new Map(feeds.map((f) => [f.id, Math.max(0, f.unread)]));
  }

  update(feed: { id: number; unread: number }): void {
    this.perFeed.set(feed.id, Math.max(0, feed.unread));
  }

  total(): number {
    let sum = 0;
    for (const n of this.perFeed.values()) sum += n;
    return sum;
  }
}

/** The taskbar overlay on Windows (which has no badge API): a drawn number, 1-9, then 9+. */
export function overlayBadgeFile(unread: number): string | null {
  if (!Number.isFinite(unread) || unread <= 0) return null;
  return unread > 9 ? 'badge-9plus.png' : `badge-${Math.floor(unread)}.png`;
}

/**
 * What closing the window does. With close-to-tray on it only hides (the app keeps reading in the
 * background); otherwise it closes, and then Linux and Windows quit while macOS stays in the dock.
 * While quitting, it always closes.
 */
export function closeAction(opts: { closeToTray: boolean; quitting: boolean }): 'hide' | 'close' {
  return opts.closeToTray && !opts.quitting ? 'hide' : 'close';
}

export function quitWhenAllClosed(platform: NodeJS.Platform): boolean {
  return platform !== 'darwin';
}
