/**
 * Start at login. macOS and Windows have an API (app.setLoginItemSettings); Linux desktops read
 * ~/.config/autostart/*.desktop (the XDG autostart spec), which this writes and removes. A login
 * start passes --hidden, so Tidings comes up in the tray instead of opening its window.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const HIDDEN_FLAG = '--hidden';

/** The launch was a login start: stay in the tray. */
export function startsHidden(argv: readonly string[]): boolean {
  return argv.includes(HIDDEN_FLAG);
}

/** ~/.config/autostart/tidings.desktop (or $XDG_CONFIG_HOME/autostart/...). */
export function linuxAutostartFile(env: NodeJS.ProcessEnv, home: string): string {
  const configHome = env.XDG_CONFIG_HOME?.trim() || join(home, '.config');
  return join(configHome, 'autostart', 'tidings.desktop');
}

/** Quotes one Exec argument as the Desktop Entry spec asks. */
function quoteExecArg(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function linuxAutostartEntry(exec: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Tidings',
    'Comment=Real-time feed reader (starts in the tray)',
    `Exec=${exec.map(quoteExecArg).join(' ')}`,
    'Icon=tidings',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * The command a login start runs: the AppImage itself when running from one (its mount point
 * changes every run), else the executable, plus the app folder in development.
 */
export function loginCommand(opts: {
  execPath: string;
  appImage?: string | undefined;
  devAppPath?: string | null;
}): string[] {
  const exe = opts.appImage || opts.execPath;
  return [exe, ...(opts.devAppPath ? [opts.devAppPath] : []), HIDDEN_FLAG];
}

export async function setLinuxAutostart(
  file: string,
  enabled: boolean,
  exec: readonly string[],
): Promise<void> {
  if (!enabled) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, linuxAutostartEntry(exec), { mode: 0o644 });
}
