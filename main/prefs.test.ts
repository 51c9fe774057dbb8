import { expect, it } from 'vitest';
import { defaultPrefs, Prefs, sanitizePrefs } from './prefs.ts';

it('closes to the tray by default on Linux and Windows; macOS keeps its dock convention', () => {
  expect(defaultPrefs('linux').closeToTray).toBe(true);
  expect(defaultPrefs('win32').closeToTray).toBe(true);
  expect(defaultPrefs('darwin').closeToTray).toBe(false);
  expect(defaultPrefs('linux')).toMatchObject({
    startAtLogin: false,
    theme: 'system',
    notifyPostAnswers: false,
  });
});

it('a damaged or hand-edited file falls back field by field', () => {
  const prefs = sanitizePrefs(
    {
      closeToTray: 'yes',
      theme: 'purple',
      startAtLogin: true,
      window: { x: 10, y: 'a', width: 900, maximized: 1 },
    },
    'linux',
  );
  expect(prefs).toMatchObject({
    closeToTray: true,
    theme: 'system',
    startAtLogin: true,
    window: { x: 10, width: 900 },
  });
  expect(sanitizePrefs(null, 'darwin')).toEqual(defaultPrefs('darwin'));
  expect(sanitizePrefs([1, 2], 'linux')).toEqual(defaultPrefs('linux'));
});

it('reads and writes through the storage (electron-store in the app)', () => {
  const saved: Record<string, unknown> = { theme: 'dark' };
  const prefs = new Prefs({ store: saved, set: (k, v) => (saved[k] = v) }, 'linux');
  expect(prefs.get('theme')).toBe('dark');
  prefs.set('startAtLogin', true);
  expect(saved.startAtLogin).toBe(true);
  expect(prefs.get('startAtLogin')).toBe(true);
});
