/**
 * `tidings serve`'s flags for reading on other devices (issue 32), the same as Settings' section:
 * --sync / --no-sync turn the Google Reader and Fever APIs on or off (kept, as the switch is),
 * --new-sync-password makes an app password for --sync-user (or the saved user name) and prints it
 * once, --revoke-sync-password forgets it. The banner then says where the APIs answer.
 */
import type { Tidings } from '../app/tidings.ts';
import { UsageError } from './usage-error.ts';

export const SYNC_OPTIONS = {
  sync: { type: 'boolean' },
  'no-sync': { type: 'boolean' },
  'sync-user': { type: 'string' },
  'new-sync-password': { type: 'boolean' },
  'revoke-sync-password': { type: 'boolean' },
} as const;

export const SYNC_HELP = `Reading on other devices: phone and desktop apps that sync with FreshRSS or Miniflux (Google
Reader API, Fever API) read this river. Off until turned on (here or in Settings).
  --sync                  serve the sync APIs (stays on until --no-sync or Settings turns them off)
  --no-sync               turn them off
  --sync-user NAME        the user name the apps log in with (with --new-sync-password)
  --new-sync-password     make a new app password and print it once; every app logged in with the
                          old one is logged out
  --revoke-sync-password  forget the app password: every app is logged out`;

export interface SyncFlags {
  enable: boolean | null;
  userName: string | null;
  newPassword: boolean;
  revoke: boolean;
}

export function syncFlags(values: Record<string, unknown>): SyncFlags {
  if (values.sync && values['no-sync']) throw new UsageError('--sync and --no-sync contradict each other');
  if (values['new-sync-password'] && values['revoke-sync-password'])
    throw new UsageError('--new-sync-password and --revoke-sync-password contradict each other');
  const userName = (values['sync-user'] as string | undefined) ?? null;
  if (userName !== null && !values['new-sync-password'])
    throw new UsageError('--sync-user goes with --new-sync-password (the name is part of the app password)');
  return {
    enable: values.sync ? true : values['no-sync'] ? false : null,
    userName,
    newPassword: values['new-sync-password'] === true,
    revoke: values['revoke-sync-password'] === true,
  };
}

/** Applies the flags through the app's API; the lines to print (the password among them, once). */
export async function applySyncFlags(app: Tidings, flags: SyncFlags): Promise<string[]> {
  const lines: string[] = [];
  if (flags.enable !== null) await app.setSyncEnabled(flags.enable);
  if (flags.revoke) {
    await app.revokeSyncPassword();
    lines.push('Sync: the app password is revoked; every app using it is logged out.');
  }
  if (flags.newPassword) {
    const name = flags.userName ?? (await app.syncInfo()).userName;
    if (!name) throw new UsageError('--new-sync-password needs --sync-user NAME the first time');
    const made = await app.newSyncPassword(name);
    if (!made.ok) throw new UsageError(made.error.message);
    lines.push(
      `Sync: the app password for ${name} is ${made.value.password} (shown this once; only a hash of it is kept).`,
    );
  }
  return lines;
}

/** Where the sync APIs answer, for the banner (after the servers listen). */
export async function syncBanner(app: Tidings): Promise<string[]> {
  const info = await app.syncInfo();
  if (!info.enabled) return ['Sync for reading apps: off (--sync turns it on).'];
  const where = (a: { public: string | null; local: string[] }) =>
    [a.public, ...a.local].filter(Boolean).join(', ');
  return [
    `Sync for reading apps: on, user ${info.userName ?? '(none yet: --new-sync-password --sync-user NAME)'}${
      info.hasPassword ? '' : ', no app password yet'
    }.`,
    `  Google Reader API: ${where(info.greader)}`,
    `  Fever API: ${where(info.fever)}`,
  ];
}
