/**
 * Issue 9, the river's media and privacy: a podcast (artwork, episode, length) played in the one
 * player bar across a feed switch, resuming where it was left; a Media RSS video thumbnail; an
 * Atom entry dated by <updated>; an rssCloud outline; plain-text URLs as links; an item that
 * starts with a picture still shows its text; a tracking pixel never requested, no Referer sent,
 * click-to-load; and hostile HTML without a single CSP console error. Browser mode, loopback.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, numberedItems, PNG, showAll, silence } from './support/reading.ts';
import type { FeedHost } from './support/servers.ts';

const SHOTS = 'test-results/screenshots';

/** What the checks read of the player's <audio> (the e2e tsconfig has no DOM library). */
interface AudioLike {
  currentTime: number;
  paused: boolean;
  playbackRate: number;
  pause(): void;
}

function serveMedia(host: FeedHost): void {
  const u = host.url;
  host.set('/ep1.wav', { body: silence(60), type: 'audio/wav' });
  for (const p of ['/art.png', '/thumb.png', '/pic.png', '/lead.png', '/pixel.gif', '/held.png'])
    host.set(p, { body: new Uint8Array(PNG), type: 'image/png' });

  host.set(
    '/podcast.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>Loopback Podcast</title><link>${u}/</link><description>A show</description>
<itunes:image href="${u}/art.png"/>
<item><title>The first episode</title><guid>ep1</guid><link>${u}/ep1</link>
<description>Show notes for the first episode.</description>
<pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate>
<enclosure url="${u}/ep1.wav" type="audio/wav" length="480044"/>
<itunes:episode>14</itunes:episode><itunes:season>2</itunes:season><itunes:duration>42:00</itunes:duration>
</item></channel></rss>`,
  );

  host.set(
    '/video.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
<title>Loopback Videos</title><link>${u}/</link><description>Videos</description>
<item><title>A video about rivers</title><guid>v1</guid><link>${u}/watch?v=1</link>
<pubDate>Fri, 20 Nov 2026 09:00:00 GMT</pubDate>
<media:group><media:title>A video about rivers</media:title>
<media:content url="${u}/v/1" type="application/x-shockwave-flash" width="640" height="390"/>
<media:thumbnail url="${u}/thumb.png" width="480" height="360"/>
<media:description>What rivers do.</media:description></media:group>
</item></channel></rss>`,
  );

  host.set('/atom.xml', {
    type: 'application/atom+xml',
    body: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Updated Only</title><id>urn:u</id>
<updated>2026-11-18T08:00:00Z</updated><link href="${u}/atom"/>
<entry><title>Dated by updated</title><id>urn:u:1</id><updated>2026-11-18T08:00:00Z</updated>
<link href="${u}/atom/1"/><summary>Only an updated date.</summary></entry>
</feed>`,
  });

  host.set(
    '/outline.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:source="http://source.scripting.com/"><channel>
<title>Outliner</title><link>${u}/</link><description>Outlines</description>
<item><guid>o1</guid><description>Today's notes</description><pubDate>Fri, 20 Nov 2026 07:00:00 GMT</pubDate>
<source:outline text="First point"><source:outline text="A detail under it"/></source:outline>
<source:outline text="Second point"/>
</item></channel></rss>`,
  );

  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  host.set(
    '/pictures.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Pictures</title><link>${u}/</link><description>p</description>
<item><title>Tracked post</title><guid>t1</guid><link>${u}/t1</link><pubDate>Fri, 20 Nov 2026 06:00:00 GMT</pubDate>
<description>${esc(`<p>A real picture:</p><img src="${u}/pic.png" alt="pic"><img src="${u}/pixel.gif" width="1" height="1"><p>Read more at https://example.org/more, today.</p>`)}</description></item>
<item><title>Picture first</title><guid>t2</guid><link>${u}/t2</link><pubDate>Fri, 20 Nov 2026 05:00:00 GMT</pubDate>
<description>${esc(`<img src="${u}/lead.png" alt=""><p>The words after the picture.</p>`)}</description></item>
<item><title>Hostile</title><guid>t3</guid><link>${u}/t3</link><pubDate>Fri, 20 Nov 2026 04:00:00 GMT</pubDate>
<description>${esc('<p>still here</p><img src=x onerror="window.__p=1"><svg onload="window.__p=2"></svg><div onclick="x()" onmouseover="y()">d</div><a href="javascript:alert(1)">j</a><script>window.__p=3</script>')}</description></item>
</channel></rss>`,
  );
}

function itemByTitle(page: Page, title: string) {
  return page.getByTestId('river-item').filter({ hasText: title });
}

test('a podcast plays in the player bar across a feed switch, and resumes where it was left', async ({
  page,
  host,
  tidings,
}) => {
  serveMedia(host);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/podcast.xml`, 'Loopback Podcast');
  await addFeed(page, `${host.url}/video.xml`, 'Loopback Videos');
  await showAll(page);

  const episode = itemByTitle(page, 'The first episode');
  await expect(episode.getByTestId('podcast-episode')).toHaveText('S2 · E14');
  await expect(episode.getByTestId('podcast-duration')).toHaveText('42 min');
  // The channel's artwork: once, by the group's heading, not on the episode (issue 17).
  await expect(
    page.getByTestId('river-group').filter({ hasText: 'Loopback Podcast' }).locator('img.group-art'),
  ).toHaveAttribute('src', `${host.url}/art.png`);
  await expect(episode.locator('img.podcast-art')).toHaveCount(0);

  await episode.getByTestId('play-episode').click();
  const bar = page.getByTestId('player-bar');
  await expect(bar).toBeVisible();
  await expect(bar.getByTestId('player-title')).toHaveText('The first episode');
  await expect(bar).toContainText('Loopback Podcast');
  const audio = bar.getByTestId('player-audio');
  await expect.poll(() => audio.evaluate((a: AudioLike) => a.currentTime)).toBeGreaterThan(0.2);
  await bar.getByTestId('player-speed').selectOption('1.5');
  expect(await audio.evaluate((a: AudioLike) => a.playbackRate)).toBe(1.5);

  // Another feed's river: the bar and its audio go on.
  await page.getByTestId('feed-row').filter({ hasText: 'Loopback Videos' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loopback Videos');
  await expect(bar).toBeVisible();
  expect(await audio.evaluate((a: AudioLike) => a.paused)).toBe(false);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/media-player-across-feeds.png` });
  // The player bar and a podcast item pass axe-core, light and dark.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `player ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Leave it at 30 s, close the bar, play again: it resumes there, at the remembered speed.
  await audio.evaluate((a: AudioLike) => {
    a.currentTime = 30;
    a.pause();
  });
  await page.getByRole('button', { name: 'Close the player' }).click();
  await expect(bar).toBeHidden();
  await page.getByTestId('feed-row').filter({ hasText: 'Loopback Podcast' }).click();
  await itemByTitle(page, 'The first episode').getByTestId('play-episode').click();
  await expect.poll(() => audio.evaluate((a: AudioLike) => a.currentTime)).toBeGreaterThanOrEqual(29);
  expect(await audio.evaluate((a: AudioLike) => a.playbackRate)).toBe(1.5);

  // A narrow window: the bar wraps and stays usable.
  await page.setViewportSize({ width: 480, height: 800 });
  await expect(bar.getByTestId('player-speed')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/media-player-480x800.png` });
  expect(await axeViolations(page), 'player 480').toEqual([]);
});

test('thumbnails, updated-only dates, outlines, linked URLs, picture-first text, and privacy', async ({
  page,
  host,
  tidings,
}) => {
  serveMedia(host);
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/video.xml`, 'Loopback Videos');
  await addFeed(page, `${host.url}/atom.xml`, 'Updated Only');
  await addFeed(page, `${host.url}/outline.xml`, 'Outliner');
  await addFeed(page, `${host.url}/pictures.xml`, 'Pictures');
  await showAll(page);

  // Media RSS: the thumbnail, linking to the video's page, without a Referer.
  const video = itemByTitle(page, 'A video about rivers');
  const thumb = video.locator('img.media-thumb');
  await expect(thumb).toHaveAttribute('src', `${host.url}/thumb.png`);
  await expect(thumb).toHaveAttribute('referrerpolicy', 'no-referrer');
  await expect(video.locator('a.media-link')).toHaveAttribute('href', `${host.url}/watch?v=1`);

  // An Atom entry with only <updated> shows that time, not "just now".
  const atom = itemByTitle(page, 'Dated by updated');
  await expect(atom.locator('time').first()).toHaveAttribute('datetime', '2026-11-18T08:00:00.000Z');
  await expect(atom.locator('time').first()).not.toHaveText('just now');

  // The outline: the first level starts open; a node with children folds, with aria-expanded.
  const outline = page.getByTestId('item-outline');
  await expect(outline).toContainText('First point');
  await expect(outline).toContainText('Second point');
  await expect(outline).toContainText('A detail under it');
  const toggle = outline.getByRole('button', { name: 'Collapse' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await toggle.click();
  await expect(outline).not.toContainText('A detail under it');
  const expand = outline.getByRole('button', { name: 'Expand' });
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await expand.click();
  await expect(outline).toContainText('A detail under it');

  // Pictures: the real one loads with no Referer, the 1x1 pixel is never asked for.
  const tracked = itemByTitle(page, 'Tracked post');
  await expect(tracked.locator('img[alt="pic"]')).toBeVisible();
  await expect.poll(() => host.hits('/pic.png')).toBeGreaterThan(0);
  expect(host.lastHeaders('/pic.png')?.referer).toBeUndefined();
  expect(host.hits('/pixel.gif')).toBe(0);
  await expect(tracked.locator('a[href="https://example.org/more"]')).toHaveText('https://example.org/more');

  // Picture first: the text after it is shown too.
  const first = itemByTitle(page, 'Picture first');
  await expect(first).toContainText('The words after the picture.');
  await expect(first.locator('img[data-lead]')).toHaveCount(1);

  // Hostile HTML: contained, and not one CSP error in the console.
  const hostile = itemByTitle(page, 'Hostile');
  await expect(hostile).toContainText('still here');
  expect(
    await hostile.locator('[onerror], [onload], [onclick], script, a[href^="javascript:"]').count(),
  ).toBe(0);
  expect(await page.evaluate(() => (globalThis as { __p?: number }).__p)).toBeUndefined();
  expect(cspErrors).toEqual([]);

  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/media-river.png`, fullPage: false });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `media river ${scheme}`).toEqual([]);
  }
  await page.screenshot({ path: `${SHOTS}/media-river-dark.png` });
  expect(host.hits('/pixel.gif')).toBe(0);
});

test('click-to-load: no remote image until asked, then only that one', async ({ page, host, tidings }) => {
  serveMedia(host);
  host.set(
    '/held.xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Held</title><link>${host.url}/</link><description>h</description>
<item><title>Held picture</title><guid>h1</guid><pubDate>Fri, 20 Nov 2026 06:00:00 GMT</pubDate>
<description>&lt;p&gt;Text&lt;/p&gt;&lt;img src="${host.url}/held.png" alt="a heron"&gt;</description></item>
</channel></rss>`,
  );
  await page.goto(tidings.openUrl);
  // The settings command as the Settings panel sends it (the panel is another feature's room).
  const status = await page.evaluate(async () => {
    const token = sessionStorage.getItem('tidings.token');
    const res = await fetch('/api/updateSettings', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ args: [{ images: 'clickToLoad' }] }),
    });
    return res.status;
  });
  expect(status).toBe(200);
  await addFeed(page, `${host.url}/held.xml`, 'Held');
  const item = itemByTitle(page, 'Held picture');
  const held = item.getByRole('button', { name: /a heron: image from 127\.0\.0\.1, click to load/ });
  await expect(held).toBeVisible();
  expect(host.hits('/held.png')).toBe(0);
  await held.click();
  await expect(item.locator(`img[src="${host.url}/held.png"]`)).toBeVisible();
  await expect.poll(() => host.hits('/held.png')).toBe(1);
  // Loading a picture is not reading the item.
  await expect(item).toHaveAttribute('data-read', 'false');
});

test('a big live update shows ten items and "N more from this feed"; oldest first turns the river', async ({
  page,
  host,
  tidings,
}) => {
  const feed = (title: string, body: string) =>
    `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>${host.url}/</link><description>x</description>${body}</channel></rss>`;
  host.set('/quiet.xml', feed('Quiet Feed', numberedItems('Quiet', 2, 1)));
  host.set('/big.xml', feed('Big Feed', numberedItems('Start', 1, 13)));
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/quiet.xml`, 'Quiet Feed');
  await addFeed(page, `${host.url}/big.xml`, 'Big Feed');
  // A first fetch is a backlog placed by date (issue 17); the cap is for a big live update.
  host.set('/big.xml', feed('Big Feed', numberedItems('Big', 25, 12) + numberedItems('Start', 1, 13)));
  const bigRow = page.getByTestId('feed-row').filter({ hasText: 'Big Feed' });
  await bigRow.click();
  await bigRow.getByTestId('feed-menu-button').click();
  await page.getByTestId('feed-refresh').click();
  await expect(bigRow).toContainText('26');
  await showAll(page);

  // A big group is laid out in chunks (virtualised rows): count its items across them.
  const bigItems = page.getByTestId('river-item').filter({ hasText: /^Big \d+/ });
  await expect(bigItems).toHaveCount(10);
  const more = page.getByTestId('group-more');
  await expect(more).toHaveText('15 more from Big Feed');
  // The other feed is not buried under the big one.
  await expect(page.getByTestId('river')).toContainText('Quiet 0');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/river-group-cap.png` });
  await more.click();
  await expect(bigItems).toHaveCount(25);
  await expect(more).toBeHidden();

  // Oldest first: the quiet feed's update (the older one) leads; the choice is remembered.
  await page.getByTestId('river-sort').selectOption('oldest');
  await expect(page.getByTestId('river-group').first()).toContainText('Quiet Feed');
  await page.reload();
  await expect(page.getByTestId('river-sort')).toHaveValue('oldest');
  await expect(page.getByTestId('river-group').first()).toContainText('Quiet Feed');
});

test('titles only and the reading pane: a click (or j) shows the item in the pane and reads it', async ({
  page,
  host,
  tidings,
}) => {
  serveMedia(host);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${host.url}/pictures.xml`, 'Pictures');
  await page.getByTestId('river-view').selectOption('compact');
  await expect(page.locator('[data-testid="river-item"].compact')).toHaveCount(3);
  // Titles only: no item text in the list.
  await expect(page.getByTestId('river')).not.toContainText('The words after the picture.');

  await page.getByTestId('river-view').selectOption('pane');
  const pane = page.getByTestId('reading-pane');
  await expect(pane).toContainText('Pick an item');
  const row = page.getByTestId('river').getByTestId('river-item').filter({ hasText: 'Picture first' });
  await row.click({ position: { x: 300, y: 10 } });
  await expect(pane).toContainText('The words after the picture.');
  await expect(row).toHaveAttribute('data-read', 'true');
  await page.keyboard.press('j');
  await expect(pane).toContainText('Hostile');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/view-pane-keys.png` });
  await page.getByTestId('river-view').selectOption('river');
});
