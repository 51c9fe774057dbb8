/**
 * Moving in through another reader's Google Reader API (issue 32). The other reader here is a
 * second Tidings serving that API (the peers' shape, tested above): its subscriptions with their
 * folders and its starred items, read or not, arrive in the new reader; a wrong password is
 * refused with words that say which password to use.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createTidings } from '../app/tidings.ts';
import { TIDINGS_BIN } from '../testing/cli-run.ts';
import { type SyncFixture, seed, startSyncApp } from '../testing/sync-fixture.ts';

const running: SyncFixture[] = [];
afterEach(async () => {
  for (const fx of running.splice(0)) await fx.close();
});

it('brings subscriptions with their folders, and starred items with their read state', async () => {
  const from = await startSyncApp({ user: 'mover' });
  running.push(from);
  seed(from.app, from.host, { feeds: 4, perFeed: 20, folders: 2 });
  const river = (await from.app.river({ limit: 50 })).groups.flatMap((g) => g.items);
  const starred = [river[0]!, river[7]!, river[30]!];
  for (const item of starred) await from.app.setStarred(item.id, true);
  await from.app.markRead([river[7]!.id], true);

  const to = await startSyncApp({ enable: false });
  running.push(to);
  const wrong = await to.app.importFromGReader({ url: from.greader, user: 'mover', password: 'nope' });
  expect(wrong.ok).toBe(false);
  if (!wrong.ok) expect(wrong.error.message).toMatch(/refused that user name and password.*API password/);

  const done = await to.app.importFromGReader({ url: from.greader, user: 'mover', password: from.password });
  if (!done.ok) throw new Error(done.error.message);
  expect(done.value).toEqual({ added: 4, existing: 0, starred: 3, errors: [] });
  const feeds = await to.app.listFeeds();
  const sourceFeeds = await from.app.listFeeds();
  expect(feeds.map((f) => [f.url, f.folderPath]).sort()).toEqual(
    sourceFeeds.map((f) => [f.url, f.folderPath]).sort(),
  );
  const got = (await to.app.river({ starredOnly: true, limit: 50 })).groups.flatMap((g) => g.items);
  expect(got.map((i) => [i.title, i.link, i.read]).sort()).toEqual(
    starred.map((i) => [i.title, i.link, i.id === river[7]!.id]).sort(),
  );
  // Each in the feed it came from.
  const feedTitle = (list: typeof feeds, id: number) => list.find((f) => f.id === id)?.url;
  for (const item of got) {
    const original = starred.find((s) => s.link === item.link)!;
    expect(feedTitle(feeds, item.feedId)).toBe(feedTitle(sourceFeeds, original.feedId));
  }

  // Again: nothing twice.
  const again = await to.app.importFromGReader({ url: from.greader, user: 'mover', password: from.password });
  if (!again.ok) throw new Error(again.error.message);
  expect(again.value).toMatchObject({ added: 0, existing: 4, starred: 3 });
  expect((await to.app.river({ starredOnly: true, limit: 50 })).groups.flatMap((g) => g.items)).toHaveLength(
    3,
  );
});

it('says what is wrong with an address that is not a Google Reader API', async () => {
  const to = await startSyncApp({ enable: false });
  running.push(to);
  to.host.set('/api/greader.php/accounts/ClientLogin', { status: 404, body: 'no' });
  const r = await to.app.importFromGReader({
    url: `${to.host.url}/api/greader.php`,
    user: 'x',
    password: 'y',
  });
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.message).toContain('did not answer as a Google Reader API (status 404)');
  const bad = await to.app.importFromGReader({ url: 'ftp://example.org', user: 'x', password: 'y' });
  expect(bad.ok).toBe(false);
});

it('tidings import-greader reads the password from standard input', async () => {
  const from = await startSyncApp({ user: 'mover' });
  running.push(from);
  seed(from.app, from.host, { feeds: 2, perFeed: 3, folders: 1 });
  const data = mkdtempSync(join(tmpdir(), 'tidings-import-cli-'));
  try {
    const child = spawn(
      process.execPath,
      [TIDINGS_BIN, 'import-greader', from.greader, '--user', 'mover', '--data', data],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.stdin.end(`${from.password}\n`);
    const code = await new Promise((r) => child.once('exit', r));
    expect(out).toContain('Imported 2 new feeds (0 already subscribed) and 0 starred items.');
    expect(code).toBe(0);
    const app = createTidings({ dataDir: data });
    try {
      expect((await app.listFeeds()).map((f) => f.folderPath)).toEqual(['Folder 1', 'Folder 1']);
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});
