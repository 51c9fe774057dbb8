/**
 * What the parser repaired reaches the feed's row (issue 34): a feed as a real server sends it
 * (a PHP warning ahead of it, no charset, Shift_JIS) is read, and its status says what was done.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import type { FeedHost } from '../testing/feed-host.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;

startAppEachTest('tidings-notes-', (fx) => ({ host, app } = fx));

const SJIS = readFileSync(
  join(import.meta.dirname, '..', 'feed', 'testdata', 'encoding', 'undeclared-shift_jis.xml'),
);

it('a feed read past junk and in a guessed encoding says so in its status, until it is clean', async () => {
  const warning = Buffer.from(
    '<br />\n<b>Notice</b>:  Undefined variable: cat in <b>/srv/rss.php</b> on line <b>4</b><br />\n',
  );
  host.set('/rss.php', { type: 'text/xml', body: Buffer.concat([warning, SJIS]) });
  const sub = await app.subscribe({ url: `${host.url}/rss.php` });
  if (!sub.ok) throw new Error(sub.error.message);
  await app.context.scheduler.idle();

  const [feed] = await app.listFeeds();
  expect(feed).toMatchObject({ status: 'ok', title: '日本語のニュース', unread: 2 });
  expect(feed!.notes).toEqual([
    'Encoding guessed: Shift_JIS. The feed does not say its encoding, and it is not UTF-8.',
    'Text before the root element ignored (line 1): “Notice: Undefined variable: cat in /srv/rss.php on line 4”.',
  ]);
  const titles = (await app.river({ limit: 10 })).groups.flatMap((g) => g.items.map((i) => i.title));
  expect(titles).toContain('東京で新しい駅が開業しました');

  // Fixed on the server: the notes go.
  host.set('/rss.php', { type: 'text/xml; charset=Shift_JIS', body: SJIS });
  await app.refresh(feed!.id);
  await app.context.scheduler.idle();
  expect((await app.listFeeds())[0]!.notes).toEqual([]);
});
