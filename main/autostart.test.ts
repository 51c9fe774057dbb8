import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  linuxAutostartEntry,
  linuxAutostartFile,
  loginCommand,
  setLinuxAutostart,
  startsHidden,
} from './autostart.ts';

it('a login start runs the AppImage (not its temporary mount) in the tray', () => {
  expect(
    loginCommand({ execPath: '/tmp/.mount_x/tidings', appImage: '/home/a/Apps/Tidings.AppImage' }),
  ).toEqual(['/home/a/Apps/Tidings.AppImage', '--hidden']);
  expect(loginCommand({ execPath: '/opt/Tidings/tidings' })).toEqual(['/opt/Tidings/tidings', '--hidden']);
  expect(startsHidden(['/opt/Tidings/tidings', '--hidden'])).toBe(true);
  expect(startsHidden(['/opt/Tidings/tidings'])).toBe(false);
});

it('writes and removes an XDG autostart entry, quoting the command as the spec asks', async () => {
  const home = mkdtempSync(join(tmpdir(), 'tidings-home-'));
  try {
    const file = linuxAutostartFile({}, home);
    expect(file).toBe(join(home, '.config', 'autostart', 'tidings.desktop'));
    expect(linuxAutostartFile({ XDG_CONFIG_HOME: '/cfg' }, home)).toBe('/cfg/autostart/tidings.desktop');
    await setLinuxAutostart(file, true, ['/home/a b/Tidings "x".AppImage', '--hidden']);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('[Desktop Entry]');
    expect(text).toContain('Exec="/home/a b/Tidings \\"x\\".AppImage" --hidden\n');
    await setLinuxAutostart(file, false, []);
    expect(existsSync(file)).toBe(false);
    await setLinuxAutostart(file, false, []);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

it('the entry has the keys desktops read', () => {
  expect(linuxAutostartEntry(['/opt/t', '--hidden']).split('\n')).toEqual(
    expect.arrayContaining(['Type=Application', 'Name=Tidings', 'Exec=/opt/t --hidden', 'Terminal=false']),
  );
});
