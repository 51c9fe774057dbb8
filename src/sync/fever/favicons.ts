/**
 * Fever sends feed icons inline (`favicons`: data URLs), but the reader keeps only their
 * addresses (FeedView.favicon). Icons are fetched here through the app's one HTTP client when a
 * client first asks, kept in memory for the session (they change rarely; a restart fetches them
 * again), and an answer waits a little for them: what is not there yet comes with a later sync.
 */
import type { FeedView } from '../../app/api.ts';
import type { SyncBackend } from '../backend.ts';

const CONCURRENCY = 4;
/** How long one `favicons` answer waits for icons still being fetched. */
const WAIT_MS = 3_000;
/** A failed icon is tried again after this long. */
const RETRY_MS = 60 * 60 * 1000;

type Entry = { data: string } | { failedAt: number };

export class FeverFavicons {
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<void>>();
  private running = 0;

  private readonly backend: SyncBackend;

  constructor(backend: SyncBackend) {
    this.backend = backend;
  }

  /** [{ id, data }] for the feeds whose icon is at hand, waiting up to WAIT_MS for the rest. */
  async forFeeds(feeds: readonly FeedView[]): Promise<{ id: number; data: string }[]> {
    const now = this.backend.clock.now();
    const waits: Promise<void>[] = [];
    for (const f of feeds) {
      if (!f.favicon) continue;
      const entry = this.cache.get(f.favicon);
      if (entry && ('data' in entry || now - entry.failedAt < RETRY_MS)) continue;
      waits.push(this.fetch(f.favicon));
    }
    if (waits.length > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(waits),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    const out: { id: number; data: string }[] = [];
    for (const f of feeds) {
      const entry = f.favicon ? this.cache.get(f.favicon) : undefined;
      if (entry && 'data' in entry) out.push({ id: f.id, data: entry.data });
    }
    return out;
  }

  private fetch(url: string): Promise<void> {
    let done = this.pending.get(url);
    if (!done) {
      done = this.fetchOne(url).finally(() => this.pending.delete(url));
      this.pending.set(url, done);
    }
    return done;
  }

  private async fetchOne(url: string): Promise<void> {
    // At most CONCURRENCY icons at once: a reader with 500 feeds does not open 500 connections.
    while (this.running >= CONCURRENCY) await new Promise<void>((resolve) => this.slots.push(resolve));
    this.running++;
    try {
      const icon = await this.backend.fetchIcon(url).catch(() => null);
      this.cache.set(
        url,
        icon
          ? { data: `${icon.type};base64,${Buffer.from(icon.body).toString('base64')}` }
          : { failedAt: this.backend.clock.now() },
      );
    } finally {
      this.running--;
      this.slots.shift()?.();
    }
  }

  private readonly slots: (() => void)[] = [];
}
