/**
 * The application menu as plain data: the standard roles (edit, window, the macOS app menu) plus
 * every command of the shortcut table (src/app/shortcuts.ts), showing the same keys the renderer
 * handles. A command item never registers its accelerator (registerAccelerator: false): typing
 * "j" in a text field must stay typing; clicking it asks the renderer to run the command.
 */
import { type CommandId, type Shortcut, shortcutFor } from '../src/app/shortcuts.ts';
import { THEMES, type Theme } from './prefs.ts';
import type { ShellState } from './shell-state.ts';

export type ShellAction =
  | 'importOpml'
  | 'toggleRealtimePause'
  | 'toggleCloseToTray'
  | 'toggleStartAtLogin'
  | 'toggleNotifyPostAnswers'
  | 'openWebsite'
  | { theme: Theme };

export type MenuSpec =
  | { role: string }
  | { type: 'separator' }
  | { label: string; role?: string; submenu: MenuSpec[] }
  | { label: string; command: CommandId; accelerator?: string; registerAccelerator: false }
  | {
      label: string;
      action: ShellAction;
      type?: 'checkbox' | 'radio';
      checked?: boolean;
      accelerator?: string;
    };

const SEP: MenuSpec = { type: 'separator' };

function commandItem(s: Shortcut): MenuSpec {
  return {
    label: s.label,
    command: s.command,
    ...(s.accelerator ? { accelerator: s.accelerator } : {}),
    registerAccelerator: false,
  };
}

const commands = (...ids: CommandId[]): MenuSpec[] => ids.map((id) => commandItem(shortcutFor(id)));

/** Preferences: in the app menu on macOS, under File elsewhere, and the same in both. */
export function preferencesMenu(state: ShellState, platform: NodeJS.Platform): MenuSpec {
  const p = state.prefs;
  return {
    label: platform === 'darwin' ? 'Settings' : 'Preferences',
    submenu: [
      {
        label:
          platform === 'darwin'
            ? 'Keep running in the menu bar when closed'
            : 'Keep running in the tray when closed',
        action: 'toggleCloseToTray',
        type: 'checkbox',
        checked: p.closeToTray,
      },
      {
        label: 'Start Tidings at login',
        action: 'toggleStartAtLogin',
        type: 'checkbox',
        checked: p.startAtLogin,
      },
      {
        label: "Notify me when a cloud answers my posts' pings",
        action: 'toggleNotifyPostAnswers',
        type: 'checkbox',
        checked: p.notifyPostAnswers,
      },
      SEP,
      {
        label: 'Theme',
        submenu: THEMES.map((theme) => ({
          label: theme === 'system' ? 'Same as the system' : theme === 'light' ? 'Light' : 'Dark',
          action: { theme },
          type: 'radio' as const,
          checked: p.theme === theme,
        })),
      },
    ],
  };
}

export function appMenu(state: ShellState, opts: { platform: NodeJS.Platform; dev: boolean }): MenuSpec[] {
  const mac = opts.platform === 'darwin';
  const prefs = preferencesMenu(state, opts.platform);
  const menus: MenuSpec[] = [];
  if (mac) {
    menus.push({
      label: 'Tidings',
      submenu: [
        { role: 'about' },
        SEP,
        prefs,
        SEP,
        { role: 'services' },
        SEP,
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        SEP,
        { role: 'quit' },
      ],
    });
  }
  menus.push({
    label: 'File',
    submenu: [
      ...commands('composer.open'),
      { label: 'Import subscriptions (OPML)…', action: 'importOpml' },
      SEP,
      ...(mac ? [] : [prefs, SEP]),
      { role: mac ? 'close' : 'quit' },
    ],
  });
  menus.push({ role: 'editMenu' });
  menus.push({
    label: 'View',
    submenu: [
      ...commands('go.all', 'go.unread', 'go.starred', 'search.focus'),
      SEP,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      SEP,
      { role: 'togglefullscreen' },
      ...(opts.dev ? [SEP, { role: 'reload' }, { role: 'toggleDevTools' }] : []),
    ],
  });
  menus.push({
    label: 'Items',
    submenu: [
      ...commands('item.next', 'item.previous', 'river.page'),
      SEP,
      ...commands(
        'item.open',
        'item.fullText',
        'item.toggleRead',
        'item.toggleStar',
        'view.markAllRead',
        'edit.undo',
      ),
    ],
  });
  menus.push({
    label: 'Player',
    submenu: commands('player.toggle', 'player.back', 'player.forward', 'player.slower', 'player.faster'),
  });
  menus.push({
    label: 'Feeds',
    submenu: [
      ...commands('feed.nextUnread', 'feed.previousUnread', 'feeds.refresh'),
      SEP,
      {
        label: 'Pause real-time',
        action: 'toggleRealtimePause',
        type: 'checkbox',
        checked: state.realtimePaused,
      },
    ],
  });
  menus.push({ role: 'windowMenu' });
  menus.push({
    label: 'Help',
    role: 'help',
    submenu: [
      ...commands('help.shortcuts'),
      { label: 'Tidings website', action: 'openWebsite' },
      ...(mac ? [] : [SEP, { role: 'about' }]),
    ],
  });
  return menus;
}

/** Every command id a menu tree offers, depth first (for tests and the help menu). */
export function menuCommands(menus: readonly MenuSpec[]): CommandId[] {
  const out: CommandId[] = [];
  const walk = (items: readonly MenuSpec[]) => {
    for (const item of items) {
      if ('command' in item) out.push(item.command);
      if ('submenu' in item) walk(item.submenu);
    }
  };
  walk(menus);
  return out;
}
