/** The benches' corpus holds what it says it holds, and is a folder the app opens as it is. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createTidings } from '../../src/app/tidings.ts';
import { planBackup } from '../../src/backup/create-backup.ts';
import { buildCorpus } from './corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'tidings-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('builds the feeds, items, reads, stars, secrets and posts it reports', async () => {
  const corpus = buildCorpus(dir, { feeds: 12, items: 1000, folders: 4, posts: 3 });
  expect(corpus).toEqual({ feeds: 12, items: 1000, read: 334, starred: 25, posts: 3 });
  const plan = planBackup(dir);
  expect(plan.summary).toMatchObject({
    feeds: 12,
    folders: 4,
    items: 1000,
    unread: 666,
    starred: 25,
    posts: 3,
  });
  expect(plan.secrets).toEqual([{ label: 'feed logins', count: 1 }]);
  const app = createTidings({ dataDir: dir });
  try {
    const page = await app.river({ limit: 10 });
    expect(page.groups.flatMap((g) => g.items)).toHaveLength(10);
    expect((await app.listMuteFilters()).length).toBe(3);
  } finally {
    await app.stop();
  }
});
