/**
 * The app's commands and their keys: one table that the renderer's keyboard handler, the `?` help
 * sheet, Electron's application menu and the tray all read, so a key is named in one place only.
 * Pure data (no DOM, no electron): the core owns it because every side of the app shows it.
 *
 * Keys use KeyboardEvent.key values ("j", "ArrowDown", " ", "Enter", "A" for Shift+A, "?"); a
 * sequence such as "g a" is two presses within a second. `accelerator` is Electron's form, shown in
 * the menu; the menu must not register single-letter accelerators (registerAccelerator: false)
 * so typing in a field is never stolen: the renderer handles the keys, the menu only shows them.
 */

export type CommandId =
  | 'item.next'
  | 'item.previous'
  | 'feed.nextUnread'
  | 'feed.previousUnread'
  | 'river.page'
  | 'item.open'
  | 'item.fullText'
  | 'item.toggleRead'
  | 'item.toggleStar'
  | 'view.markAllRead'
  | 'edit.undo'
  | 'feeds.refresh'
  | 'search.focus'
  | 'composer.open'
  | 'go.all'
  | 'go.unread'
  | 'go.starred'
  | 'help.shortcuts'
  | 'player.toggle'
  | 'player.back'
  | 'player.forward'
  | 'player.slower'
  | 'player.faster';

export interface Shortcut {
  command: CommandId;
  /** What the help sheet and the menu call it. */
  label: string;
  /** Every key (or two-key sequence) that runs it; the first is the one shown. */
  keys: readonly string[];
  /** Electron accelerator shown in the application menu (display only), when the menu lists it. */
  accelerator?: string;
  /** Help-sheet section. */
  group: 'Reading' | 'Items' | 'Feeds' | 'Player' | 'Go to' | 'App';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { command: 'item.next', label: 'Next item', keys: ['j', 'ArrowDown'], accelerator: 'J', group: 'Reading' },
  {
    command: 'item.previous',
    label: 'Previous item',
    keys: ['k', 'ArrowUp'],
    accelerator: 'K',
    group: 'Reading',
  },
  {
    command: 'river.page',
    label: 'Page down, then the next unread item',
    keys: [' '],
    accelerator: 'Space',
    group: 'Reading',
  },
  {
    command: 'feed.nextUnread',
    label: 'Next feed with unread items',
    keys: ['n'],
    accelerator: 'N',
    group: 'Feeds',
  },
  {
    command: 'feed.previousUnread',
    label: 'Previous feed with unread items',
    keys: ['p'],
    accelerator: 'P',
    group: 'Feeds',
  },
  {
    command: 'item.open',
    label: 'Open the item in the browser',
    keys: ['o', 'Enter'],
    accelerator: 'O',
    group: 'Items',
  },
  {
    command: 'item.fullText',
    label: 'Full text (reader view) / the feed’s text',
    keys: ['t'],
    accelerator: 'T',
    group: 'Items',
  },
  { command: 'item.toggleRead', label: 'Mark read / unread', keys: ['m'], accelerator: 'M', group: 'Items' },
  { command: 'item.toggleStar', label: 'Star / unstar', keys: ['s'], accelerator: 'S', group: 'Items' },
  {
    command: 'view.markAllRead',
    label: 'Mark everything in view read',
    keys: ['A'],
    accelerator: 'Shift+A',
    group: 'Items',
  },
  { command: 'edit.undo', label: 'Undo the last bulk change', keys: ['z'], accelerator: 'Z', group: 'Items' },
  { command: 'feeds.refresh', label: 'Refresh', keys: ['r'], accelerator: 'R', group: 'Feeds' },
  { command: 'search.focus', label: 'Search', keys: ['/'], accelerator: '/', group: 'App' },
  { command: 'composer.open', label: 'New post', keys: ['c'], accelerator: 'C', group: 'App' },
  { command: 'go.all', label: 'Go to All', keys: ['g a'], group: 'Go to' },
  { command: 'go.unread', label: 'Go to Unread', keys: ['g u'], group: 'Go to' },
  { command: 'go.starred', label: 'Go to Starred', keys: ['g s'], group: 'Go to' },
  { command: 'player.toggle', label: 'Play / pause', keys: ['P'], accelerator: 'Shift+P', group: 'Player' },
  {
    command: 'player.back',
    label: 'Back 15 seconds',
    keys: ['ArrowLeft'],
    accelerator: 'Left',
    group: 'Player',
  },
  {
    command: 'player.forward',
    label: 'Forward 30 seconds',
    keys: ['ArrowRight'],
    accelerator: 'Right',
    group: 'Player',
  },
  { command: 'player.slower', label: 'Slower', keys: ['['], accelerator: '[', group: 'Player' },
  { command: 'player.faster', label: 'Faster', keys: [']'], accelerator: ']', group: 'Player' },
  {
    command: 'help.shortcuts',
    label: 'Keyboard shortcuts',
    keys: ['?'],
    accelerator: 'Shift+/',
    group: 'App',
  },
];

export function shortcutFor(command: CommandId): Shortcut {
  const found = SHORTCUTS.find((s) => s.command === command);
  if (!found) throw new TypeError(`No shortcut for ${command}`);
  return found;
}
