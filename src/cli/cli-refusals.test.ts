/**
 * What a new user types wrong, and what the CLI says back (issue 14): a readable line and the
 * right exit code, never a raw Node error; read-only commands create nothing.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tidings } from '../testing/cli-run.ts';

/** No errno names, no "Cannot read properties", one line. */
function readable(stderr: string): void {
  expect(stderr).not.toMatch(/\bE[A-Z]{3,}\b|Cannot read properties|at .*\.ts:\d+/);
  expect(stderr.trim().split('\n')).toHaveLength(1);
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tidings-cli-refusals-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the CLI refuses clearly', () => {
  it('publish-settings --set with an unknown key names it (exit 2), nested ones too', async () => {
    const data = join(root, 'settings');
    const top = await tidings('publish-settings', '--set', '{"nosuchfield":1}', '--data', data);
    expect(top.code).toBe(2);
    expect(top.stderr).toMatch(/nosuchfield/);
    readable(top.stderr);
    const nested = await tidings(
      'publish-settings',
      '--set',
      '{"hosting":{"enabled":true,"bogus":1}}',
      '--data',
      data,
    );
    expect(nested.code).toBe(2);
    expect(nested.stderr).toMatch(/hosting\.bogus/);
    const good = await tidings('publish-settings', '--set', '{"title":"Mine"}', '--data', data);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ title: 'Mine' });
  });

  it('serve --public-url without --receiver-port is refused with the reason (exit 2)', async () => {
    const r = await tidings('serve', '--public-url', 'https://me.example.com', '--data', join(root, 'serve'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--receiver-port/);
    readable(r.stderr);
  });

  it('--data naming a file is a readable usage error', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    for (const command of [['posts'], ['post', 'hello'], ['opml', 'export'], ['serve']]) {
      const r = await tidings(...command, '--data', file);
      expect(r.code, command.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/is a file, not a folder/);
      readable(r.stderr);
    }
  });

  it('post --enclosure naming a missing file says so, without an errno', async () => {
    const r = await tidings(
      'post',
      'with a file',
      '--enclosure',
      join(root, 'missing.mp3'),
      '--data',
      join(root, 'enc'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/missing\.mp3: no such file/);
    readable(r.stderr);
  });

  it('read-only commands create no folder and no database', async () => {
    const typo = join(root, 'typo');
    const posts = await tidings('posts', '--data', typo);
    expect(posts.code).toBe(0);
    expect(posts.stdout).toMatch(/No posts yet/);
    expect(posts.stdout).toContain(typo);
    expect((await tidings('posts', '--json', '--data', typo)).stdout.trim()).toBe('[]');
    const settings = await tidings('publish-settings', '--data', typo);
    expect(settings.code).toBe(0);
    expect(JSON.parse(settings.stdout)).toMatchObject({ title: 'My posts' });
    const opml = await tidings('opml', 'export', '--data', typo);
    expect(opml.code).toBe(0);
    expect(opml.stdout).toMatch(/<opml/);
    expect(existsSync(typo)).toBe(false);
  });

  it('the help says what the commands take', async () => {
    expect((await tidings('post', '--help')).stdout.split('\n')[0]).toMatch(/--wait S/);
    expect((await tidings('--help')).stdout).toMatch(/--version/);
  });
});
