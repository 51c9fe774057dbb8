/**
 * A folder target on a disk that is full or read-only: a real tmpfs (128 KiB) mounted in a user
 * namespace (`unshare -Urm`), so no root and no mocks. The save fails with a plain reason and is
 * retried; once there is space again, the post is saved. Skipped, with the reason, where the
 * machine allows no user namespaces.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./testdata/folder-child.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tidings-folder-disk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const probe = spawnSync(
  'unshare',
  ['-Urm', 'sh', '-c', `mount -t tmpfs -o size=16k tmpfs ${JSON.stringify(root)}`],
  {
    encoding: 'utf8',
  },
);
const why = probe.error ? probe.error.message : probe.status !== 0 ? probe.stderr.trim() : null;
if (why)
  console.warn(`folder-disk tests skipped: this machine allows no user namespace with a tmpfs (${why})`);

function runChild(mode: 'full' | 'ro'): {
  failed?: { message: string; nextRetryAt: string | null };
  saved?: { ok: boolean; publicUrl: string };
} {
  const data = join(root, `${mode}-data`);
  const folder = join(root, `${mode}-site`);
  mkdirSync(folder, { recursive: true });
  const ro = mode === 'ro' ? ` && mount -o remount,ro "$2"` : '';
  const r = spawnSync(
    'unshare',
    [
      '-Urm',
      'sh',
      '-c',
      `mount -t tmpfs -o size=128k tmpfs "$2"${ro} && exec "$0" "$1" "$3" "$2" "$4"`,
      process.execPath,
      CHILD,
      folder,
      data,
      mode,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr}`);
  return Object.assign(
    {},
    ...r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  );
}

describe.skipIf(why !== null)('a folder target on a difficult disk', () => {
  it('a full disk: a clear error, retried, saved once there is space', () => {
    const out = runChild('full');
    expect(out.failed?.message).toBe(`The disk holding ${join(root, 'full-site')} is full.`);
    expect(out.failed?.nextRetryAt).not.toBeNull();
    expect(out.saved).toMatchObject({ ok: true, publicUrl: 'https://me.example.com/feed.xml' });
  });

  it('a read-only disk: a clear error, retried', () => {
    const out = runChild('ro');
    expect(out.failed?.message).toBe(`The folder ${join(root, 'ro-site')} is on a read-only disk.`);
    expect(out.failed?.nextRetryAt).not.toBeNull();
  });
});
