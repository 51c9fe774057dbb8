/**
 * `tidings backup` and `tidings restore` as a person runs them, in child processes without a
 * terminal (scripts, cron): secrets sealed with a passphrase file or left out with a warning, a
 * restore that asks for --force before replacing data and keeps a copy, refusals in one line
 * with nothing changed, and no restore under a running `tidings serve`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesOf, tempDirs } from '../backup/testdata/folders.ts';
import { openStore } from '../store/store.ts';
import { makeItem } from '../store/test-support.ts';
import { TIDINGS_BIN, tidings } from '../testing/cli-run.ts';
import { waitFor } from '../testing/wait.ts';

const dirs = tempDirs('tidings-cli-backup-');
const LOGIN = { scheme: 'basic' as const, username: 'me', password: 'cli-feed-password-41' };
let data: string;
let work: string;
let passphraseFile: string;

/** One line, no errno names, no stack. */
function readable(stderr: string): void {
  expect(stderr).not.toMatch(/\bE[A-Z]{3,}\b|Cannot read properties|at .*\.ts:\d+/);
  expect(stderr.trim().split('\n')).toHaveLength(1);
}

beforeAll(() => {
  data = dirs.make();
  const store = openStore(join(data, 'tidings.db'));
  const a = store.addFeed({ url: 'https://a.example/feed', folder: 'News' }).feed;
  store.addFeed({ url: 'https://b.example/feed', credentials: LOGIN });
  store.upsertItems(a.id, [makeItem('a1'), makeItem('a2'), makeItem('a3')], Date.now());
  store.setStarred(store.riverItems({}).items[0]!.id, true);
  store.close();
  work = dirs.make();
  passphraseFile = join(work, 'passphrase.txt');
  writeFileSync(passphraseFile, 'a long enough passphrase\n');
});
afterAll(() => dirs.removeAll());

describe('tidings backup and restore', () => {
  it('explain themselves', async () => {
    const backup = await tidings('backup', '--help');
    expect(backup.stdout).toMatch(/Usage: tidings backup FILE/);
    expect(backup.stdout).toMatch(/--passphrase-file F/);
    const restore = await tidings('restore', '--help');
    expect(restore.stdout).toMatch(/Usage: tidings restore FILE/);
    expect(restore.stdout).toMatch(/--force/);
    expect((await tidings('--help')).stdout).toMatch(/backup FILE.*\n.*restore FILE/);
    const none = await tidings('backup');
    expect(none.code).toBe(2);
    readable(none.stderr);
  });

  it('round-trip with sealed secrets, and ask for --force before replacing data', async () => {
    const file = join(work, 'sealed.tidings-backup');
    const made = await tidings('backup', file, '--data', data, '--passphrase-file', passphraseFile);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Backed up 2 feeds, 3 items \(1 starred\), 1 folder from .* \(0\.\d MB\)\./);
    expect(made.stdout).toMatch(/Secrets \(feed logins: 1\) are sealed with your passphrase/);

    const again = await tidings('backup', file, '--data', data);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists: choose another name, or add --force/);

    const target = join(dirs.make(), 'restored');
    const noPassphrase = await tidings('restore', file, '--data', target);
    expect(noPassphrase.code).toBe(2);
    expect(noPassphrase.stderr).toMatch(
      /sealed secrets \(feed logins: 1\): give --passphrase-file F, or --skip-secrets/,
    );
    readable(noPassphrase.stderr);
    expect(existsSync(target)).toBe(false);

    const wrong = join(work, 'wrong.txt');
    writeFileSync(wrong, 'not the passphrase');
    const refused = await tidings('restore', file, '--data', target, '--passphrase-file', wrong);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/passphrase does not open/);
    expect(existsSync(target)).toBe(false);

    const restored = await tidings('restore', file, '--data', target, '--passphrase-file', passphraseFile);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /^Restored 2 feeds, 3 items \(1 starred\), 1 folder into .*restored \(made .* by Tidings/,
    );
    const store = openStore(join(target, 'tidings.db'));
    const b = store.listFeeds().find((f) => f.url === 'https://b.example/feed')!;
    expect(store.getCredentials(b.id)).toEqual(LOGIN);
    store.close();

    const before = filesOf(target);
    const asks = await tidings('restore', file, '--data', target, '--passphrase-file', passphraseFile);
    expect(asks.code).toBe(1);
    expect(asks.stderr).toMatch(
      /already holds 2 feeds, 3 items \(1 starred\), 1 folder: add --force to replace them/,
    );
    readable(asks.stderr);
    expect(filesOf(target)).toEqual(before);
    const forced = await tidings('restore', file, '--data', target, '--skip-secrets', '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/What was there before is kept in .*restored\/replaced\/\d{4}-/);
    expect(forced.stderr).toMatch(/^warning: Restored without the backup's secrets \(feed logins: 1\)/);
    expect(readdirSync(join(target, 'replaced'))).toHaveLength(1);
  });

  it('leave secrets out without a terminal or a passphrase, and say so', async () => {
    const file = join(work, 'left-out.tidings-backup');
    const made = await tidings('backup', file, '--data', data);
    expect(made.code).toBe(0);
    expect(made.stderr).toMatch(/^warning: Secrets were left out of this backup .*feed logins: 1/);
    const check = await tidings('restore', file, '--check');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/is a complete Tidings backup: made .* 2 feeds, .* secrets left out\./);
  });

  it('refuse a damaged backup in one line, and change nothing', async () => {
    const file = join(work, 'cut.tidings-backup');
    const made = await tidings(
      'backup',
      join(work, 'whole.tidings-backup'),
      '--data',
      data,
      '--skip-secrets',
    );
    expect(made.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    writeFileSync(file, readFileSync(join(work, 'whole.tidings-backup')).subarray(0, 5000));
    const before = filesOf(data);
    for (const args of [['--data', data, '--force'], ['--check']]) {
      const r = await tidings('restore', file, ...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cut short/);
      readable(r.stderr);
    }
    expect(filesOf(data)).toEqual(before);
  });

  it('refuse to restore under a running app, and restore once it is gone', async () => {
    const file = join(work, 'for-serve.tidings-backup');
    expect((await tidings('backup', file, '--data', data, '--skip-secrets')).code).toBe(0);
    const folder = dirs.make();
    const renderer = dirs.make();
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>stand-in</title>');
    let out = '';
    const child: ChildProcess = spawn(
      process.execPath,
      [TIDINGS_BIN, 'serve', '--port', '0', '--no-tunnel', '--data', folder],
      { env: { ...process.env, TIDINGS_RENDERER_DIR: renderer }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await waitFor(() => out.includes('Open http'), 20_000, 'tidings serve');
      const before = filesOf(folder);
      const r = await tidings('restore', file, '--data', folder, '--force');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `Tidings is running on .* \\(process ${child.pid}\\): restore with Restore… in its Settings, or quit it first`,
        ),
      );
      expect(filesOf(folder)).toEqual(before);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const after = await tidings('restore', file, '--data', folder, '--force');
    expect(after.code).toBe(0);
  });
});
