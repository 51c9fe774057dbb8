/**
 * Issue 35, podcasts and video like a podcast app: the player survives a reload, paused where it
 * was left (the core keeps the place, not the page); played / unplayed; keys for play/pause (P),
 * skip (arrows) and speed (brackets); a video item shows a play badge and its length, plays in
 * place and resumes where it was left.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { everyView } from './support/habits.ts';
import { addFeed, PNG, silence } from './support/reading.ts';

interface MediaLike {
  currentTime: number;
  paused: boolean;
  playbackRate: number;
  pause(): void;
}
const at = (el: Locator) => el.evaluate((a: MediaLike) => a.currentTime);

/** Every place the page has told the core and the core has taken (savePlayback answered). */
function placesSaved(page: Page): number[] {
  const places: number[] = [];
  page.on('requestfinished', (request) => {
    if (!request.url().includes('/api/savePlayback')) return;
    const { args } = JSON.parse(request.postData() ?? '{}') as { args?: [{ positionSec: number }] };
    if (args) places.push(args[0].positionSec);
  });
  return places;
}

/** Waits until the core has taken `seconds` as the place (a reload cuts a request on its way). */
async function coreHas(places: number[], seconds: number): Promise<void> {
  await expect.poll(() => places.some((p) => Math.abs(p - seconds) < 0.01)).toBe(true);
}

test('the player comes back after a reload where it was left; keys; played and unplayed', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(180_000);
  const u = host.url;
  host.set('/ep.wav', { body: silence(120), type: 'audio/wav', ranges: true });
  host.set(
    '/show.xml',
    `<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
     <title>Loopback Show</title><item><title>Episode one</title><guid>e1</guid>
     <enclosure url="${u}/ep.wav" type="audio/wav" length="960044"/><itunes:duration>120</itunes:duration></item>
     </channel></rss>`,
  );
  const places = placesSaved(page);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${u}/show.xml`, 'Loopback Show');
  const item = page.getByTestId('river-item').filter({ hasText: 'Episode one' });
  await item.getByTestId('play-episode').click();
  const bar = page.getByTestId('player-bar');
  const audio = bar.getByTestId('player-audio');
  await expect.poll(() => at(audio)).toBeGreaterThan(0.2);

  // The keys, from the river: P pauses, → skips 30 s, ← goes back 15, ] and [ change the speed.
  await page.getByTestId('river').focus();
  await page.keyboard.press('Shift+P');
  await expect.poll(() => audio.evaluate((a: MediaLike) => a.paused)).toBe(true);
  const start = await at(audio);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => at(audio)).toBeGreaterThanOrEqual(start + 59);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => at(audio)).toBeLessThan(start + 50);
  await page.keyboard.press(']');
  await expect(bar.getByTestId('player-speed')).toHaveValue('1.25');
  await page.keyboard.press('[');
  await page.keyboard.press('[');
  await expect(bar.getByTestId('player-speed')).toHaveValue('0.75');
  const left = await at(audio);
  // Pausing saved the place; the skip keys moved it: pause once more so the core has the last one.
  await page.keyboard.press('Shift+P');
  await page.keyboard.press('Shift+P');
  await expect.poll(() => audio.evaluate((a: MediaLike) => a.paused)).toBe(true);
  await coreHas(places, await at(audio));

  // A reload: the player is back, paused at that place, with the episode's name.
  await page.reload();
  await expect(bar).toBeVisible();
  await expect(bar.getByTestId('player-title')).toHaveText('Episode one');
  await expect.poll(() => at(audio)).toBeGreaterThan(left - 3);
  expect(await audio.evaluate((a: MediaLike) => a.paused)).toBe(true);
  await expect(item.getByTestId('podcast-played')).toContainText('left');
  await everyView(page, 'podcast-resumed');

  // Played, by hand; kept across a reload; and unplayed again.
  await item.getByTestId('item-actions').click();
  await page.getByTestId('item-played').click();
  await expect(item.getByTestId('podcast-played')).toHaveText('Played');
  await page.reload();
  await expect(item.getByTestId('podcast-played')).toHaveText('Played');
  await item.getByTestId('item-actions').click();
  await expect(page.getByTestId('item-played')).toHaveText('Mark unplayed');
  await page.getByTestId('item-played').click();
  await expect(item.getByTestId('podcast-played')).toHaveCount(0);
});

test('a video item shows a play badge and its length, plays in place, and resumes', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(150_000);
  const u = host.url;
  // A WAV stands in for the video file: this Chromium decodes no H.264, and the test makes its
  // media itself. A <video> element plays it all the same.
  host.set('/clip.mp4', { body: silence(90), type: 'audio/wav', ranges: true });
  host.set('/frame.png', { body: new Uint8Array(PNG), type: 'image/png' });
  host.set(
    '/tube.xml',
    `<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Loopback Tube</title>
     <item><title>A clip</title><guid>c1</guid><link>${u}/watch/c1</link>
     <enclosure url="${u}/clip.mp4" type="video/mp4" length="720044"/><media:thumbnail url="${u}/frame.png"/>
     <itunes:duration>90</itunes:duration></item></channel></rss>`,
  );
  const places = placesSaved(page);
  await page.goto(tidings.openUrl);
  await addFeed(page, `${u}/tube.xml`, 'Loopback Tube');
  const item = page.getByTestId('river-item').filter({ hasText: 'A clip' });
  const poster = item.getByTestId('video-play');
  await expect(poster).toHaveAccessibleName('Play the video: A clip, 1:30');
  await expect(item.getByTestId('video-length')).toHaveText('1:30');
  // One player for it: the enclosure below is a link, not a second video.
  await expect(item.locator('video')).toHaveCount(0);
  await everyView(page, 'video-badge');

  await poster.click();
  const video = item.getByTestId('inline-video');
  await expect(video).toBeVisible();
  await expect.poll(() => at(video)).toBeGreaterThan(0.2);
  // Moved on (the host answers ranges, as media servers do), then paused: the place is kept.
  await expect
    .poll(() => video.evaluate((v: MediaLike & { seekable: { length: number } }) => v.seekable.length))
    .toBeGreaterThan(0);
  await video.evaluate((v: MediaLike) => {
    v.currentTime = 40;
  });
  await expect.poll(() => at(video)).toBeGreaterThanOrEqual(40);
  const paused = await video.evaluate((v: MediaLike) => {
    v.pause();
    return v.currentTime;
  });
  await expect(item.locator('video')).toHaveCount(1);
  expect(paused).toBeGreaterThan(2);

  await coreHas(places, paused);
  await page.reload();
  // The place came back from the core: what is left of 1:30.
  const left = Math.floor(90 - paused);
  await expect(item.getByTestId('video-length')).toHaveText(
    `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`,
  );
  await item.getByTestId('video-play').click();
  // Resumed there, never played from the start: the first stretch played begins at the place.
  const again = item.getByTestId('inline-video');
  await expect.poll(() => at(again)).toBeGreaterThan(paused + 0.2);
  const firstPlayed = await again.evaluate((v: MediaLike & { played: { start(i: number): number } }) =>
    v.played.start(0),
  );
  expect(firstPlayed).toBeGreaterThanOrEqual(paused - 1);
});
