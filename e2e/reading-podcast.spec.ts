/**
 * Issue 17, point 6: a podcast's square artwork shows once per group, small and square (not
 * cropped to 16:9 on every episode); "S2 · E8" and the length never wrap into a narrow column; the
 * player is our own compact bar (back 15 s, play/pause, forward 30 s, position, speed, close) that
 * fits one line at 800 px and is worked entirely from the keyboard.
 */
import { expect, test } from './support/fixtures.ts';
import { addFeed, axeViolations, PNG, SIZES, screenshot, silence } from './support/reading.ts';

interface AudioLike {
  currentTime: number;
  paused: boolean;
}

test('podcast artwork once and square, episode facts on one line, a compact keyboard player', async ({
  page,
  host,
  tidings,
}) => {
  test.setTimeout(150_000);
  const u = host.url;
  host.set('/show.wav', { body: silence(120), type: 'audio/wav' });
  host.set('/square.png', { body: new Uint8Array(PNG), type: 'image/png' });
  const episodes = [8, 7, 6].map(
    (n, i) => `<item><title>Episode ${n} of the show</title><guid>e${n}</guid>
      <pubDate>${new Date(Date.now() - (i + 1) * 3_600_000).toUTCString()}</pubDate>
      <enclosure url="${u}/show.wav" type="audio/wav" length="960044"/>
      <media:thumbnail url="${u}/square.png"/>
      <itunes:episode>${n}</itunes:episode><itunes:season>2</itunes:season><itunes:duration>34</itunes:duration></item>`,
  );
  host.set(
    '/show.xml',
    `<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
    xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Square Show</title><link>${u}/</link>
    <itunes:image href="${u}/square.png"/>${episodes.join('')}</channel></rss>`,
  );
  await page.goto(tidings.openUrl);
  await addFeed(page, `${u}/show.xml`, 'Square Show');
  const items = page.getByTestId('river-item');
  await expect(items).toHaveCount(3);
  // Once, by the heading, square and small; no 16:9 thumbnail of it on the episodes.
  const art = page.locator('img.group-art');
  await expect(art).toHaveCount(1);
  await expect(page.locator('img.podcast-art, img.media-thumb')).toHaveCount(0);

  await items.first().getByTestId('play-episode').click();
  const bar = page.getByTestId('player-bar');
  await expect(bar).toBeVisible();
  const audio = bar.getByTestId('player-audio');
  await expect.poll(() => audio.evaluate((a: AudioLike) => a.currentTime)).toBeGreaterThan(0.2);

  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const box = await art.boundingBox();
    expect(box && Math.abs(box.width - box.height)).toBeLessThanOrEqual(1);
    expect(box?.width ?? 0).toBeLessThanOrEqual(48);
    // The facts keep their line: each as wide as its words, one line tall.
    for (const fact of await items.first().locator('.podcast-facts > span').all()) {
      const f = await fact.boundingBox();
      expect(f?.height ?? 0).toBeLessThan(24);
      expect(f?.width ?? 0).toBeGreaterThan(20);
    }
    // The player: our controls, one row at 800 px and up.
    for (const id of ['player-back', 'player-toggle', 'player-forward', 'player-position', 'player-speed'])
      await expect(bar.getByTestId(id)).toBeVisible();
    if (size.width >= 800) expect((await bar.boundingBox())?.height ?? 0).toBeLessThan(64);
    await screenshot(page, `podcast-${size.name}`);
    expect.soft(await axeViolations(page), `podcast ${size.name}`).toEqual([]);
  }

  // The keyboard alone: pause, forward 30, back 15, the slider's arrows, speed, close.
  await page.setViewportSize({ width: 800, height: 600 });
  const toggle = bar.getByTestId('player-toggle');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAccessibleName('Play');
  expect(await audio.evaluate((a: AudioLike) => a.paused)).toBe(true);
  const at = () => audio.evaluate((a: AudioLike) => a.currentTime);
  const start = await at();
  await page.keyboard.press('Tab');
  await expect(bar.getByTestId('player-forward')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(at).toBeGreaterThanOrEqual(start + 29);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(bar.getByTestId('player-back')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(at).toBeLessThan(start + 20);
  const before = await at();
  await bar.getByTestId('player-position').focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(at).toBeGreaterThan(before + 0.5);
  await expect(bar.getByTestId('player-clock')).toHaveText(/^\d+:\d\d( \/ \d+:\d\d)?$/);
  await page.keyboard.press('Tab');
  await expect(bar.getByTestId('player-speed')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(bar.getByRole('button', { name: 'Close the player' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(bar).toBeHidden();
});
