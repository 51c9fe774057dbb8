/**
 * Built-in hosting with the tunnel off on purpose and no public address (`serve --no-tunnel`):
 * the feed is served on this computer, and the post says so, not "FAILED ... retrying" (issue 14).
 * When a public address comes later, the feed is rebuilt for it and pinged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describePost } from '../cli/cli-post.ts';
import { freePort } from '../net/test-server.ts';
import { waitFor } from '../testing/wait.ts';
import type { PostView } from './api.ts';
import { createTidings, type Tidings } from './tidings.ts';

let app: Tidings | null = null;
let dir = '';
afterEach(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('says a post is hosted on this computer only, not pinged, and why', async () => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-local-only-'));
  const port = await freePort();
  app = createTidings({ dataDir: dir, realtime: { tunnelHost: false, receiverPort: port } });
  app.start();
  await waitFor(async () => (await app!.publishInfo()).feedUrls.rss !== null, 10_000, 'the receiver');
  const r = await app.post({ text: 'only here' });
  if (!r.ok) throw new Error(r.error.message);
  let view: PostView | undefined;
  await waitFor(
    async () => {
      view = (await app!.listPosts())[0];
      return view?.saves[0]?.ok !== null && view?.saves[0]?.ok !== undefined;
    },
    10_000,
    'the hosting save',
  );
  const save = view!.saves[0]!;
  expect(save).toMatchObject({ target: 'hosting', ok: true, nextRetryAt: null });
  expect(save.message).toMatch(/on this computer only \(http:\/\/127\.0\.0\.1:\d+\/site\/feed\.xml\)/);
  expect(save.message).toMatch(/not pinged/);
  expect(save.message).toMatch(/no public address/);
  expect(view!.pings).toEqual([]);
  const text = describePost(view!);
  expect(text).not.toMatch(/FAILED|retry|waiting/);
  const feed = await (await fetch(`${(await app.publishInfo()).feedUrls.rss}`)).text();
  expect(feed).toContain('only here');

  // A public address given later: the site is rebuilt for it (self URL, cloud) at the next look.
  await app.updateSettings({ publicBaseUrl: `http://localhost:${port}` });
  await waitFor(
    async () =>
      (await (await fetch(`http://127.0.0.1:${port}/site/feed.xml`)).text()).includes(
        `href="http://localhost:${port}/site/feed.xml"`,
      ),
    15_000,
    'the site rebuilt for the public address',
  );
});
