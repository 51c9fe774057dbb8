/**
 * An OPML import adds at most MAX_IMPORT_NEW_FEEDS new feeds and names the rest (a list of
 * 160,000 feeds held the app for 46 s, every new feed asking the scheduler for a fetch at once);
 * importing the same file again adds the next ones. Large lists are read off the main thread.
 */
import { expect, it } from 'vitest';
import { type AppWithHost, startAppEachTest } from '../testing/app-fixture.ts';
import { MAX_IMPORT_NEW_FEEDS } from './subscribe.ts';

let t: AppWithHost;
startAppEachTest('tidings-import-cap-', (fx) => (t = fx));

it('adds at most the cap, names the rest, and adds the next ones on a second import', async () => {
  const outlines = Array.from(
    { length: MAX_IMPORT_NEW_FEEDS + 2_000 },
    (_, i) => `<outline type="rss" text="Feed ${i}" xmlUrl="http://feed${i}.invalid/rss.xml"/>`,
  );
  const opml = `<?xml version="1.0"?><opml version="2.0"><body>${outlines.join('')}</body></opml>`;
  await t.app.context.scheduler.stop(); // no fetches: this is about the list
  const first = await t.app.importOpml(opml);
  if (!first.ok) throw new Error(first.error.message);
  expect(first.value.added).toBe(MAX_IMPORT_NEW_FEEDS);
  expect(first.value.errors).toEqual([
    `2000 more feeds were not added: one import adds at most ${MAX_IMPORT_NEW_FEEDS}. Import the same file again to add the next ones.`,
  ]);
  expect(t.app.context.parser.offThread).toBe(1);
  const second = await t.app.importOpml(opml);
  if (!second.ok) throw new Error(second.error.message);
  expect(second.value).toMatchObject({ added: 2_000, existing: MAX_IMPORT_NEW_FEEDS, errors: [] });
}, 60_000);
