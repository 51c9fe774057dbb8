/**
 * bench:river — the renderer's river at 100,000 items across 1,000 feeds, in Chromium (Playwright),
 * against a real `tidings serve` whose store was filled beforehand (items arrive in fetches of 5,
 * so the river has 20,000 groups, River5-style).
 *
 * 1. first_paint_ms: navigation start to the first river item in the DOM (the page's own clock),
 *    on a cold start: a new browser, a `tidings serve` that has just started; the median of 5 cold
 *    starts (RIVER_BENCH_FIRST_PAINT_RUNS), each printed (first_paint_runs_ms);
 * 2. frame_p95_ms: p95 of frame-to-frame times (requestAnimationFrame) while j is held down
 *    (a press every 33 ms, a keyboard's auto-repeat) and while the mouse wheel scrolls. The page's
 *    clock is coarsened to 0.1 ms, so a frame on time reads 16.6, 16.7 or 16.8 ms: each interval
 *    is counted as the whole number of display frames it spans, so an on-time frame is 16.67 ms
 *    and one late frame 33.3 ms. The raw p95 (frame_p95_raw_ms) and the count of display frames
 *    missed (dropped_frames) are printed beside it;
 * 3. key_next_p95_ms: p95 from a j keydown to the first frame showing the next item selected and
 *    in view; j_cpu_ms_per_press, the page's main-thread CPU time per press (script, style, layout,
 *    paint, commit: all of it), the median of three runs of 150 presses (j_cpu_trials_ms);
 * 4. heap_mb: JS heap in use after all that, after a garbage collection;
 * 5. the feed list (1,000 feeds in 40 folders): sidebar_rows_visible, the tree rows wholly in
 *    sight at 1280x800 (goal at least 25), and sidebar_scroll_p95_ms, frame p95 (in display
 *    frames, as 2.) while the mouse wheel scrolls the list (goal under 16.7).
 * 6. reader_view_ms: from `t` on a selected item to its article in the page, when the core has the
 *    article cached (issue 35: goal under 100 ms). The five newest items link to articles on a
 *    loopback server; a first page opens each (the core fetches, extracts and caches them), a
 *    fresh page then times `t` on each: the median (reader_view_max_ms beside it).
 * Ends with one JSON line: {"first_paint_ms":..,"frame_p95_ms":..,"key_next_p95_ms":..,"heap_mb":..,
 * "sidebar_rows_visible":..,"sidebar_scroll_p95_ms":..,"reader_view_ms":..}
 * Run `npx electron-vite build` first (the npm script does).
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumPath } from '../e2e/support/chromium.ts';
import { SIDEBAR_ROWS_VISIBLE } from '../e2e/support/reading.ts';
import { spawnTidings } from '../e2e/support/servers.ts';
import type { Item } from '../src/feed/model.ts';
import { newItem } from '../src/feed/model-new.ts';
import { openStore } from '../src/store/store.ts';
import { tempDir } from '../src/store/test-support.ts';
import { articlePage } from '../src/testing/article-page.ts';
import { seededRandom } from '../src/testing/seeded.ts';
import { median } from './support/stats.ts';

const FEEDS = 1_000;
const PER_FEED = 100;
const PER_FETCH = 5;
const HELD_PRESSES = 150;
/** Runs of HELD_PRESSES for j_cpu_ms_per_press (their median): RIVER_BENCH_J_TRIALS. */
const J_TRIALS = Number(process.env.RIVER_BENCH_J_TRIALS ?? 3);
const WHEEL_STEPS = 200;
const FEEDS_PER_FOLDER = 25;
/** Cold starts measured for first_paint_ms (their median): RIVER_BENCH_FIRST_PAINT_RUNS. */
const FIRST_PAINT_RUNS = Number(process.env.RIVER_BENCH_FIRST_PAINT_RUNS ?? 5);

const rand = seededRandom(0x51f15e);
const WORDS =
  'river cloud feed item news post read write ping notify outline podcast episode harbour weather garden compiler network database kitchen bicycle election market science'.split(
    ' ',
  );
const words = (n: number) =>
  Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');

function makeItem(feed: number, k: number, base: number): Item {
  return {
    ...newItem(),
    id: `bench-${feed}-${k}`,
    title: `${words(5)} (${feed}/${k})`,
    link: `https://example.com/${feed}/${k}`,
    summary: `<p>${words(40)}</p><p>${words(25)} <a href="https://example.com/${feed}">more</a></p>`,
    published: new Date(base + k * 60_000).toISOString(),
  };
}

/**
 * What runs in the page (plain JS: this file is type-checked without the DOM library). It notes
 * when the first river item appears, records frame-to-frame times while asked, and times each j
 * from keydown to the first frame that shows the next item selected with its top in view.
 */
/** The page script's handle, as the bench reads it (through functions: the app's CSP refuses eval). */
interface PageBench {
  __bench: {
    firstItem: number | null;
    keyTimes: number[];
    readerTimes: number[];
    timeReader(): void;
    takeFrames(keepRecording: boolean): number[];
    timeKeys(): void;
    phases(): string;
  };
}
const PAGE_SCRIPT = `
(() => {
  const b = { firstItem: null, frames: [], recording: false, keyTimes: [], readerTimes: [] };
  window.__bench = b;
  new MutationObserver((_, obs) => {
    if (document.querySelector('[data-testid="river-item"]')) {
      b.firstItem = performance.now();
      obs.disconnect();
      // Told by a console line, not found by polling: Playwright's polling would inject its own
      // script (about 50 ms of evaluation) into the page while it is still loading.
      console.debug('bench:first-item');
    }
  }).observe(document, { childList: true, subtree: true });
  let last = 0;
  const frame = (t) => {
    if (b.recording && last) b.frames.push(t - last);
    last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  b.takeFrames = (keepRecording) => {
    b.recording = keepRecording;
    return b.frames.splice(0);
  };
  b.timeKeys = () => {
    b.frames = [];
    b.recording = true;
    const river = document.querySelector('[data-river-scroll]');
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'j') return;
      const start = performance.now();
      const before = document.querySelector('[data-testid="river-item"].selected')?.getAttribute('data-item-id');
      const check = () => {
        const el = document.querySelector('[data-testid="river-item"].selected');
        const r = river.getBoundingClientRect();
        const box = el?.getBoundingClientRect();
        if (el && el.dataset.itemId !== before && box && box.top >= r.top - 1 && box.top < r.bottom) {
          b.keyTimes.push(performance.now() - start);
        } else if (performance.now() - start < 1000) requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    }, true);
  };
  b.timeReader = () => {
    document.addEventListener('keydown', (e) => {
      if (e.key !== 't') return;
      const start = performance.now();
      const id = document.querySelector('[data-testid="river-item"].selected')?.getAttribute('data-item-id');
      const check = () => {
        if (document.querySelector('[data-item-id="' + id + '"] [data-testid="article"]')) {
          b.readerTimes.push(performance.now() - start);
        } else if (performance.now() - start < 5000) requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    }, true);
  };
  b.phases = () => performance.getEntries()
    .filter((e) => e.entryType === 'navigation' || e.name.includes('/api/') || e.name.includes('/assets/'))
    .map((e) => (e.name.split('/').pop().split('?')[0] || 'page').slice(0, 24) + ' ' + Math.round(e.startTime) + '-' + Math.round(e.responseEnd))
    .join(', ');
})();
`;

/**
 * Frame intervals as whole display frames (see 2. above): each interval is rounded to a multiple
 * of the display's interval; `dropped` counts the display frames that showed nothing new.
 */
function inDisplayFrames(xs: number[]): { times: number[]; dropped: number } {
  // The display's interval: the mean of the intervals near the median (the mean undoes the clock's
  // rounding; a median of rounded values would itself be rounded).
  const middle = [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 1000 / 60;
  const near = xs.filter((x) => x > middle / 2 && x < middle * 1.5);
  const vsync = near.reduce((sum, x) => sum + x, 0) / Math.max(1, near.length) || middle;
  const spans = xs.map((x) => Math.max(1, Math.round(x / vsync)));
  return { times: spans.map((n) => n * vsync), dropped: spans.reduce((sum, n) => sum + n - 1, 0) };
}
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? Number.NaN;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

const dir = tempDir('tidings-bench-river-');
// The data dir `tidings serve` will use: its store is filled here first. RIVER_BENCH_DATA names a
// directory to fill once and reuse (while profiling); it is kept.
const keep = process.env.RIVER_BENCH_DATA ?? null;
const dataDir = keep ?? dir.file('data');
// RIVER_BENCH_PROFILE=1 writes CPU profiles (load, j held, wheel) to the temp directory.
const PROFILE = process.env.RIVER_BENCH_PROFILE === '1';
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'v8'];
let tidings: Awaited<ReturnType<typeof spawnTidings>> | null = null;
const BROWSER_OPTIONS = {
  executablePath: chromiumPath(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
};
const browser = await chromium.launch(BROWSER_OPTIONS);
// The articles the reader view opens (6.): a loopback site, as a news site serves them.
const articles = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(articlePage(`Bench article ${req.url ?? ''}`, 40));
});
await new Promise<void>((resolve) => articles.listen(0, '127.0.0.1', resolve));
const articleBase = `http://127.0.0.1:${(articles.address() as AddressInfo).port}`;
const READER_ITEMS = 5;
process.stderr.write(`browser: ${BROWSER_OPTIONS.executablePath} ${browser.version()}\n`);
try {
  const t0 = performance.now();
  const reuse = keep !== null && existsSync(join(dataDir, 'tidings.db'));
  const store = openStore(join(dataDir, 'tidings.db'));
  const now = Date.now();
  // Inside the default retention (30 days), so nothing is pruned while the bench runs.
  const base = now - 2 * 24 * 3600_000;
  const feedIds: number[] = [];
  for (let f = 0; f < (reuse ? 0 : FEEDS); f++) {
    // Never fetched during the bench: a loopback port nothing listens on, due tomorrow.
    const { feed } = store.addFeed({ url: `http://127.0.0.1:9/bench/${f}.xml` });
    store.updateFeedMeta(feed.id, {
      title: `Bench feed ${String(f).padStart(4, '0')}`,
      siteUrl: `https://example.com/${f}`,
    });
    store.updateFetchState(feed.id, { status: 'ok', lastFetchedAt: now, nextDueAt: now + 24 * 3600_000 });
    store.setFeedFolder(feed.id, `Folder ${String(Math.floor(f / FEEDS_PER_FOLDER)).padStart(2, '0')}`);
    feedIds.push(feed.id);
  }
  let inserted = 0;
  for (let round = 0; round < (reuse ? 0 : PER_FEED / PER_FETCH); round++) {
    for (let f = 0; f < FEEDS; f++) {
      const items = Array.from({ length: PER_FETCH }, (_, i) => makeItem(f, round * PER_FETCH + i, base));
      inserted += store.upsertItems(feedIds[f]!, items, base + (round * FEEDS + f) * 1000).inserted.length;
    }
  }
  store.close();
  // Counted in the file, so a reused directory reports what it really holds.
  const db = new DatabaseSync(join(dataDir, 'tidings.db'));
  const held = (db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n;
  const feedCount = (db.prepare('SELECT COUNT(*) AS n FROM feeds').get() as { n: number }).n;
  // The newest items link to this run's article server (a reused store had another port).
  const newest = db
    .prepare(`SELECT id FROM items ORDER BY seen_at DESC, pub_key DESC, id DESC LIMIT ${READER_ITEMS}`)
    .all() as { id: number }[];
  for (const [i, row] of newest.entries()) {
    db.prepare('UPDATE items SET link = ? WHERE id = ?').run(`${articleBase}/article/${i}`, row.id);
  }
  db.prepare('DELETE FROM fulltext_cache').run();
  // A reused store starts unread again: j on items a previous run read costs less (no mark to send).
  db.prepare('UPDATE items SET read = 0 WHERE read = 1').run();
  db.close();
  const fillS = (performance.now() - t0) / 1000;
  // RIVER_BENCH_FILL_ONLY=1 with RIVER_BENCH_DATA: build a store to copy for profiling runs, and stop.
  if (process.env.RIVER_BENCH_FILL_ONLY === '1') {
    process.stderr.write(`filled ${dataDir}\n`);
    process.exit(0);
  }
  process.stderr.write(
    `store: ${held} items in ${feedCount} feeds (${inserted} inserted now, ${round(fillS)} s)\n`,
  );

  // spawnTidings makes its own data dir; point it at ours instead with a second --data (last wins).
  const startServe = () =>
    spawnTidings('serve', ['--port', '0', '--no-tunnel', '--data', dataDir], /Open (http:\/\/\S+)/);

  /**
   * One cold start: a server just started and a browser just launched, then navigation to the first
   * river item in the DOM (the page's clock). The first load keeps its page for the rest of the bench.
   */
  async function coldLoad(
    serve: Awaited<ReturnType<typeof startServe>>,
    withBrowser: Browser,
  ): Promise<{ page: Page; firstPaint: number }> {
    const page = await withBrowser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ content: PAGE_SCRIPT });
    const apiTimes: string[] = [];
    page.on('requestfinished', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/') && apiTimes.length < 12) {
        const t = request.timing();
        apiTimes.push(`${path} ${round(t.responseEnd)} ms`);
      }
    });
    const loadProfile = PROFILE ? await page.context().newCDPSession(page) : null;
    if (loadProfile) {
      await loadProfile.send('Profiler.enable');
      await loadProfile.send('Profiler.start');
    }
    const firstItemShown = page.waitForEvent('console', {
      predicate: (message) => message.text() === 'bench:first-item',
      timeout: 60_000,
    });
    await page.goto(serve.ready, { waitUntil: 'commit' });
    await firstItemShown;
    const firstPaint =
      (await page.evaluate(() => (globalThis as unknown as PageBench).__bench.firstItem)) ?? Number.NaN;
    if (loadProfile) {
      const { profile } = (await loadProfile.send('Profiler.stop')) as { profile: unknown };
      writeFileSync(join(tmpdir(), 'river-load.cpuprofile'), JSON.stringify(profile));
    }
    const phases = await page.evaluate(() => (globalThis as unknown as PageBench).__bench.phases());
    process.stderr.write(
      `first paint ${round(firstPaint)} ms; first API calls: ${apiTimes.join(', ')}\npage phases (ms since navigation): ${phases}\n`,
    );
    return { page, firstPaint };
  }

  tidings = await startServe();
  const first = await coldLoad(tidings, browser);
  const page = first.page;
  await page.getByTestId('river').focus();
  await page.waitForTimeout(500);

  // j held down: presses at auto-repeat pace, each timed from keydown to the frame that shows it.
  await page.evaluate(() => (globalThis as unknown as PageBench).__bench.timeKeys());
  const cdpProfile = PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdpProfile) {
    await cdpProfile.send('Profiler.enable');
    await cdpProfile.send('Profiler.start');
  }
  // Main-thread CPU time (not wall time) per press: comparable across runs on a busy machine.
  const metrics = await page.context().newCDPSession(page);
  await metrics.send('Performance.enable');
  const readMetrics = async () => {
    const { metrics: list } = (await metrics.send('Performance.getMetrics')) as {
      metrics: { name: string; value: number }[];
    };
    return new Map(list.map((m) => [m.name, m.value * 1000]));
  };
  // RIVER_BENCH_TRACE=FILE: a Chrome trace of the presses (where the main thread's time goes
  // beyond script: layerising, paint, commit, hit tests), for chrome://tracing or Perfetto.
  const trace = process.env.RIVER_BENCH_TRACE;
  if (trace) await browser.startTracing(page, { path: trace, categories: TRACE_CATEGORIES });
  // J_TRIALS runs of HELD_PRESSES, each measured on its own; the figure is their median. One run
  // swung from 7 to 13 ms on a quiet machine (a background task landing in it): the median of
  // three is what the river costs, and every trial is printed beside it.
  const cpuTrials: number[] = [];
  const perPressSums = new Map<string, number>();
  for (let trial = 0; trial < J_TRIALS; trial++) {
    const before = await readMetrics();
    for (let i = 0; i < HELD_PRESSES; i++) {
      await page.keyboard.press('j');
      await page.waitForTimeout(33);
    }
    const after = await readMetrics();
    cpuTrials.push(
      ((after.get('ThreadTime') ?? Number.NaN) - (before.get('ThreadTime') ?? Number.NaN)) / HELD_PRESSES,
    );
    for (const name of ['ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration', 'TaskDuration']) {
      const spent = ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / HELD_PRESSES;
      perPressSums.set(name, (perPressSums.get(name) ?? 0) + spent / J_TRIALS);
    }
  }
  if (trace) await browser.stopTracing();
  if (cdpProfile) {
    const { profile } = (await cdpProfile.send('Profiler.stop')) as { profile: unknown };
    writeFileSync(join(tmpdir(), 'river.cpuprofile'), JSON.stringify(profile));
  }
  const cpuPerPress = median(cpuTrials);
  const perPress = (name: string) => round(perPressSums.get(name) ?? 0);
  process.stderr.write(
    `per j press (ms, the mean of ${J_TRIALS} trials): script ${perPress('ScriptDuration')}, style ${perPress('RecalcStyleDuration')}, layout ${perPress('LayoutDuration')}, tasks ${perPress('TaskDuration')}; CPU by trial ${cpuTrials.map((x) => round(x)).join(', ')}\n`,
  );
  const keyTimes = await page.evaluate(() => (globalThis as unknown as PageBench).__bench.keyTimes);
  const keyFrames = await page.evaluate(() => (globalThis as unknown as PageBench).__bench.takeFrames(true));

  // The mouse wheel, 120 px a notch, one notch a frame.
  if (cdpProfile) await cdpProfile.send('Profiler.start');
  await page.mouse.move(800, 400);
  for (let i = 0; i < WHEEL_STEPS; i++) {
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(16);
  }
  await page.waitForTimeout(300);
  if (cdpProfile) {
    const { profile } = (await cdpProfile.send('Profiler.stop')) as { profile: unknown };
    writeFileSync(join(tmpdir(), 'river-wheel.cpuprofile'), JSON.stringify(profile));
  }
  const wheelFrames = await page.evaluate(() =>
    (globalThis as unknown as PageBench).__bench.takeFrames(false),
  );

  // The feed list: rows in sight, then the wheel over it. Only the rows near sight are in the page
  // (FeedList is windowed); the list's height says every feed is in it (a row is 24 px).
  await page.waitForFunction(
    `document.querySelector('#sidebar .feed-list').scrollHeight >= ${feedCount} * 24`,
    undefined,
    { timeout: 60_000 },
  );
  const sidebarRows = (await page.evaluate(SIDEBAR_ROWS_VISIBLE)) as number;
  await page.evaluate(() => (globalThis as unknown as PageBench).__bench.takeFrames(true));
  await page.mouse.move(150, 400);
  for (let i = 0; i < WHEEL_STEPS; i++) {
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(16);
  }
  await page.waitForTimeout(300);
  const sidebarFrames = await page.evaluate(() =>
    (globalThis as unknown as PageBench).__bench.takeFrames(false),
  );
  const sidebarScrolled = (await page.evaluate(
    "document.querySelector('#sidebar .feed-list').scrollTop",
  )) as number;
  process.stderr.write(
    `sidebar: ${sidebarRows} rows in sight; wheel ${sidebarFrames.length} frames, scrolled ${sidebarScrolled} px\n`,
  );

  // 6. The reader view, cached: a first page opens each article (fetched, extracted, cached by
  // the core), a fresh page times `t` on each.
  const readerPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await readerPage.addInitScript({ content: PAGE_SCRIPT });
  await readerPage.goto(tidings.ready);
  const readerItems = readerPage.getByTestId('river-item');
  await readerItems.first().waitFor();
  for (let i = 0; i < READER_ITEMS; i++) {
    await readerItems.nth(i).getByTestId('full-text-toggle').click();
    await readerItems.nth(i).getByTestId('article').waitFor({ timeout: 60_000 });
  }
  await readerPage.reload();
  await readerItems.first().waitFor();
  await readerPage.evaluate(() => (globalThis as unknown as PageBench).__bench.timeReader());
  await readerPage.getByTestId('river').focus();
  for (let i = 0; i < READER_ITEMS; i++) {
    await readerPage.keyboard.press('j');
    await readerPage.locator('[data-testid="river-item"].selected').nth(0).waitFor();
    await readerPage.keyboard.press('t');
    await readerPage.locator('[data-testid="river-item"].selected [data-testid="article"]').waitFor();
    // Back to the feed's text, so the next item is reached by j as before.
    await readerPage.keyboard.press('t');
  }
  const readerTimes = await readerPage.evaluate(
    () => (globalThis as unknown as PageBench).__bench.readerTimes,
  );
  await readerPage.close();
  process.stderr.write(`reader view (cached): ${readerTimes.map((t) => round(t)).join(', ')} ms\n`);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const loaded = (await page.evaluate(
    'document.querySelectorAll(\'[data-testid="river-item"]\').length',
  )) as number;
  const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)] ?? 0;
  const late = (xs: number[]) => round((100 * xs.filter((x) => x > 17.5).length) / Math.max(1, xs.length));
  process.stderr.write(
    `j frames p50 ${round(pct(keyFrames, 0.5))} p90 ${round(pct(keyFrames, 0.9))} late ${late(keyFrames)}%; wheel p50 ${round(pct(wheelFrames, 0.5))} p90 ${round(pct(wheelFrames, 0.9))} late ${late(wheelFrames)}%; key p50 ${round(pct(keyTimes, 0.5))}\n`,
  );
  process.stderr.write(
    `frames: j ${keyFrames.length} (p95 ${round(p95(keyFrames))} ms), wheel ${wheelFrames.length} (p95 ${round(p95(wheelFrames))} ms); key samples ${keyTimes.length}; items in DOM ${loaded}\n`,
  );
  // More cold starts for the first paint (one is noise): each with its own server and browser.
  await page.close();
  await tidings.stop();
  tidings = null;
  const firstPaints = [first.firstPaint];
  for (let run = 1; run < FIRST_PAINT_RUNS; run++) {
    const serve = await startServe();
    const cold = await chromium.launch(BROWSER_OPTIONS);
    try {
      firstPaints.push((await coldLoad(serve, cold)).firstPaint);
    } finally {
      await cold.close();
      await serve.stop();
    }
  }
  const firstPaint = median(firstPaints);
  const frames = inDisplayFrames([...keyFrames, ...wheelFrames]);
  console.log(
    JSON.stringify({
      first_paint_ms: round(firstPaint),
      first_paint_runs_ms: firstPaints.map((x) => round(x)),
      frame_p95_ms: round(p95(frames.times), 2),
      key_next_p95_ms: round(p95(keyTimes)),
      heap_mb: round(heap.usedSize / 1024 / 1024),
      items: held,
      feeds: feedCount,
      frame_p95_raw_ms: round(p95([...keyFrames, ...wheelFrames])),
      dropped_frames: frames.dropped,
      j_frame_p95_ms: round(p95(keyFrames)),
      j_cpu_ms_per_press: round(cpuPerPress),
      j_cpu_trials_ms: cpuTrials.map((x) => round(x)),
      wheel_frame_p95_ms: round(p95(wheelFrames)),
      sidebar_rows_visible: sidebarRows,
      sidebar_scroll_p95_ms: round(p95(inDisplayFrames(sidebarFrames).times), 2),
      reader_view_ms: round(median(readerTimes)),
      reader_view_max_ms: round(Math.max(...readerTimes)),
    }),
  );
} finally {
  articles.close();
  await browser.close();
  await tidings?.stop();
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
  dir.remove();
}
