import { describe, expect, it } from 'vitest';
import { SHORTCUTS } from '../src/app/shortcuts.ts';
import { appMenu, type MenuSpec, menuCommands } from './app-menu-model.ts';
import { defaultPrefs } from './prefs.ts';
import type { ShellState } from './shell-state.ts';

const state: ShellState = {
  unread: 0,
  refreshing: 0,
  realtimePaused: false,
  realtimeAvailable: true,
  windowVisible: true,
  prefs: { ...defaultPrefs('linux'), theme: 'dark' },
};

function flatten(menus: readonly MenuSpec[]): MenuSpec[] {
  return menus.flatMap((m) => ('submenu' in m ? [m, ...flatten(m.submenu)] : [m]));
}

describe('application menu', () => {
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    it(`${platform}: offers every command of the shortcut table exactly once, with its keys, never registered`, () => {
      const menus = appMenu(state, { platform, dev: false });
      const ids = menuCommands(menus);
      expect([...ids].sort()).toEqual(SHORTCUTS.map((s) => s.command).sort());
      for (const item of flatten(menus)) {
        if (!('command' in item)) continue;
        const shortcut = SHORTCUTS.find((s) => s.command === item.command)!;
        expect(item.registerAccelerator).toBe(false);
        expect(item.accelerator).toBe(shortcut.accelerator);
        expect(item.label).toBe(shortcut.label);
      }
    });
  }

  it('keeps the standard roles (edit, window; the app menu on macOS)', () => {
    const roles = (platform: NodeJS.Platform) =>
      flatten(appMenu(state, { platform, dev: false }))
        .filter((m) => 'role' in m && m.role)
        .map((m) => (m as { role: string }).role);
    expect(roles('linux')).toEqual(expect.arrayContaining(['editMenu', 'windowMenu', 'quit', 'about']));
    expect(roles('darwin')).toEqual(
      expect.arrayContaining(['editMenu', 'windowMenu', 'hide', 'services', 'quit']),
    );
    expect(roles('linux')).not.toContain('toggleDevTools');
    expect(
      flatten(appMenu(state, { platform: 'linux', dev: true })).some(
        (m) => 'role' in m && m.role === 'toggleDevTools',
      ),
    ).toBe(true);
  });

  it('shows the preferences as they are (checkboxes, the theme as a radio group)', () => {
    const items = flatten(appMenu({ ...state, realtimePaused: true }, { platform: 'linux', dev: false }));
    const byAction = (action: string) => items.find((m) => 'action' in m && m.action === action);
    expect(byAction('toggleCloseToTray')).toMatchObject({ type: 'checkbox', checked: true });
    expect(byAction('toggleStartAtLogin')).toMatchObject({ type: 'checkbox', checked: false });
    expect(byAction('toggleRealtimePause')).toMatchObject({ checked: true });
    const themes = items.filter((m) => 'action' in m && typeof m.action === 'object');
    expect(themes.map((m) => ('checked' in m ? m.checked : undefined))).toEqual([false, false, true]);
  });
});
