/**
 * Issue 35 through the app's API: marking older items read (and its undo), the per-feed reader
 * view and the read-as-you-go setting, and the player's place kept in the core.
 */
import { describe, expect, it } from 'vitest';
import { startAppEachTest } from '../testing/app-fixture.ts';
import { articlePage } from '../testing/article-page.ts';
import type { FeedHost } from '../testing/feed-host.ts';
import type { RiverItem } from './api.ts';
import type { Tidings } from './tidings.ts';

let host: FeedHost;
let app: Tidings;
let dataDir: string;

startAppEachTest('tidings-habits-', (fx) => ({ host, app, dataDir } = fx));

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toUTCString();

/** A feed of items dated `ages` hours ago, each linking to /page/<age> on the host. */
async function feedOf(ages: number[], extra = ''): Promise<{ feedId: number; items: RiverItem[] }> {
  const body = ages
    .map(
      (h) => `<item><title>${h} h old</title><guid>g${h}</guid><link>${host.url}/page/${h}</link>
      <pubDate>${hoursAgo(h)}</pubDate>${extra}</item>`,
    )
    .join('');
  host.set(
    '/f.xml',
    `<?xml version="1.0"?><rss version="2.0"><channel><title>F</title>${body}</channel></rss>`,
  );
  const sub = await app.subscribe({ url: `${host.url}/f.xml` });
  if (!sub.ok) throw new Error(sub.error.message);
  await app.context.scheduler.idle();
  const page = await app.river({ feedId: sub.value.id, limit: 50 });
  return { feedId: sub.value.id, items: page.groups.flatMap((g) => g.items) };
}

const unreadTitles = async (feedId: number) =>
  (await app.river({ feedId, unreadOnly: true })).groups.flatMap((g) => g.items.map((i) => i.title));

describe('mark older than a day / a week as read', () => {
  it('marks read what is older in the view, counts follow, and the ticket takes it back exactly', async () => {
    const { feedId, items } = await feedOf([1, 30, 200]);
    // Read already: stays read after the undo.
    await app.markRead([items.find((i) => i.title === '200 h old')!.id], true);
    const ticket = await app.markOlderRead({ olderThanHours: 24, feedId });
    expect(ticket?.message).toBe('Marked 1 item older than a day read');
    expect(await unreadTitles(feedId)).toEqual(['1 h old']);
    expect((await app.listFeeds()).find((f) => f.id === feedId)?.unread).toBe(1);
    expect((await app.undo(ticket!.undoId)).ok).toBe(true);
    expect(await unreadTitles(feedId)).toEqual(['1 h old', '30 h old']);
    // A week: nothing that old is unread, so nothing to undo.
    expect(await app.markOlderRead({ olderThanHours: 24 * 7, feedId })).toBeNull();
  });
});

describe('the reader view through the API', () => {
  it('gives the article, keeps the feed setting, and says why when a page is no article', async () => {
    host.set('/page/1', { body: articlePage('A long read', 10), type: 'text/html' });
    host.set('/page/2', { body: '<html><body>Nothing much.</body></html>', type: 'text/html' });
    const { feedId, items } = await feedOf([1, 2]);
    const article = await app.fullText(items.find((i) => i.title === '1 h old')!.id);
    expect(article.ok && article.value.content).toContain('Paragraph 10 of the article');
    const none = await app.fullText(items.find((i) => i.title === '2 h old')!.id);
    expect(!none.ok && none.error).toMatchObject({ code: 'fulltext.notArticle' });

    expect((await app.listFeeds()).find((f) => f.id === feedId)?.fullText).toBe(false);
    const set = await app.updateFeed(feedId, { fullText: true });
    expect(set.ok && set.value.fullText).toBe(true);
  });

  it('reads as you go by default, and keeps the choice', async () => {
    expect((await app.getSettings()).markReadOnScroll).toBe(true);
    expect((await app.updateSettings({ markReadOnScroll: false })).markReadOnScroll).toBe(false);
    expect((await app.getSettings()).markReadOnScroll).toBe(false);
  });
});

describe('podcasts: the place, played state, and the player, kept in the core', () => {
  it('remembers where an episode was, whether it was played, and what the player held', async () => {
    const audio = `${host.url}/ep.mp3`;
    const { items } = await feedOf([3], `<enclosure url="${audio}" type="audio/mpeg" length="1000"/>`);
    const id = items[0]!.id;
    expect(items[0]!.playback).toBeNull();
    expect(await app.nowPlaying()).toBeNull();

    await app.setNowPlaying({ itemId: id, url: audio });
    await app.savePlayback({ itemId: id, url: audio, positionSec: 754.5, durationSec: 3600 });
    expect(await app.nowPlaying()).toMatchObject({
      itemId: id,
      url: audio,
      positionSec: 754.5,
      title: '3 h old',
    });
    let [item] = await app.riverItemsById([id]);
    expect(item!.playback).toEqual({ url: audio, positionSec: 754.5, durationSec: 3600, played: false });

    const changed: number[][] = [];
    app.on('river.changed', (e) => changed.push(e.changedItems));
    await app.setPlayed(id, true);
    [item] = await app.riverItemsById([id]);
    expect(item!.playback?.played).toBe(true);
    expect(changed).toContainEqual([id]);
    // A played episode starts from the top.
    expect((await app.nowPlaying())?.positionSec).toBe(0);
    await app.setNowPlaying(null);
    expect(await app.nowPlaying()).toBeNull();
    expect(dataDir).toBeTruthy();
  });
});
