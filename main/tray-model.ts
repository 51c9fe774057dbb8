/**
 * The tray from the shell's state: its tooltip, its icon, the text beside it (macOS) and its menu,
 * as plain data. main/tray.ts turns the menu into Electron's and maps each action to what it does.
 */
import { shortcutFor } from '../src/app/shortcuts.ts';
import { countText, type ShellState } from './shell-state.ts';

export type TrayAction = 'toggleWindow' | 'refreshAll' | 'newPost' | 'toggleRealtimePause' | 'quit';

export type TrayMenuItem =
  | { type: 'separator' }
  | {
      type: 'normal' | 'checkbox';
      label: string;
      /** null: an informative line, not clickable. */
      action: TrayAction | null;
      enabled: boolean;
      checked?: boolean;
      /** Shown only (the renderer owns the keys). */
      accelerator?: string;
    };

export interface TrayView {
  tooltip: string;
  /** Icon file in resources/tray/ (macOS uses template images that follow the menu bar's colour). */
  icon: string;
  /** Text beside the icon (macOS only; elsewhere the icon carries a dot). */
  title: string;
  menu: TrayMenuItem[];
}

export function trayView(state: ShellState, platform: NodeJS.Platform): TrayView {
  const count = countText(state.unread);
  const lines = [count ? `${count} unread` : 'No unread items'];
  if (state.refreshing > 0)
    lines.push(`refreshing ${state.refreshing} feed${state.refreshing === 1 ? '' : 's'}`);
  if (state.realtimePaused) lines.push('real-time paused');
  const icon =
    platform === 'darwin'
      ? state.unread > 0
        ? 'trayUnreadTemplate.png'
        : 'trayTemplate.png'
      : state.unread > 0
        ? 'tray-unread.png'
        : 'tray.png';
  return {
    tooltip: `Tidings: ${lines.join(', ')}`,
    icon,
    title: platform === 'darwin' ? count : '',
    menu: [
      { type: 'normal', label: lines[0]!, action: null, enabled: false },
      { type: 'separator' },
      {
        type: 'normal',
        label: state.windowVisible ? 'Hide Tidings' : 'Open Tidings',
        action: 'toggleWindow',
        enabled: true,
      },
      {
        type: 'normal',
        label: state.refreshing > 0 ? `Refreshing… (${state.refreshing} left)` : 'Refresh all',
        action: 'refreshAll',
        enabled: state.refreshing === 0,
      },
      {
        type: 'normal',
        label: 'New post',
        action: 'newPost',
        enabled: true,
        accelerator: shortcutFor('composer.open').accelerator,
      },
      {
        type: 'checkbox',
        label:
          state.realtimeAvailable || state.realtimePaused ? 'Pause real-time' : 'Real-time is off (Settings)',
        action: 'toggleRealtimePause',
        enabled: state.realtimeAvailable || state.realtimePaused,
        checked: state.realtimePaused,
      },
      { type: 'separator' },
      { type: 'normal', label: 'Quit Tidings', action: 'quit', enabled: true },
    ],
  };
}
