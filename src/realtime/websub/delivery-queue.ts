/**
 * Hub deliveries waiting to be parsed. The callback answers the hub at once and puts the body
 * here; one parse per feed runs at a time. A hub delivering faster than we parse is bounded and
 * loses nothing: each delivery is the whole feed, so a newer body waiting for a feed replaces the
 * older one (the newer holds its items too), and past the byte budget a body is not kept at all:
 * the feed is fetched once its parse is done instead (the conditional fetch sees the latest).
 */
export type IngestResult = 'stored' | 'notFeed' | 'skipped';

export interface DeliveryQueueDeps {
  /** Parses the body into the store (the same path as a poll). */
  ingest(
    feedId: number,
    body: Uint8Array,
    contentType: string | null,
    link: string | null,
  ): Promise<IngestResult>;
  /** The conditional fetch the queue falls back to. */
  fetchNow(feedId: number): void;
  /** Bytes of bodies kept waiting at most (default 32 MiB). */
  maxBytes?: number;
  /** After each delivery is done (log, bench). */
  onDone?(feedId: number, result: IngestResult | 'fetched' | 'failed', note: string): void;
}

interface Waiting {
  body: Uint8Array;
  contentType: string | null;
  link: string | null;
}

interface FeedLane {
  running: boolean;
  waiting: Waiting | null;
  fetchAfter: boolean;
}

export const DEFAULT_DELIVERY_QUEUE_BYTES = 32 * 1024 * 1024;

export class DeliveryQueue {
  private readonly deps: DeliveryQueueDeps;
  private readonly maxBytes: number;
  private readonly lanes = new Map<number, FeedLane>();
  private bytes = 0;
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(deps: DeliveryQueueDeps) {
    this.deps = deps;
    this.maxBytes = deps.maxBytes ?? DEFAULT_DELIVERY_QUEUE_BYTES;
  }

  /** Takes a delivered body; says what became of it (for the activity log). */
  push(feedId: number, body: Uint8Array, contentType: string | null, link: string | null): string {
    if (this.stopped) return 'not taken: stopping';
    if (body.byteLength === 0 || body.every(isSpace)) {
      this.fetchSoon(feedId);
      return 'an empty body: the feed is fetched instead';
    }
    let lane = this.lanes.get(feedId);
    if (!lane) {
      lane = { running: false, waiting: null, fetchAfter: false };
      this.lanes.set(feedId, lane);
    }
    if (!lane.running) {
      this.run(feedId, lane, { body, contentType, link });
      return 'parsing';
    }
    const replaced = lane.waiting;
    if (replaced) this.bytes -= replaced.body.byteLength;
    if (this.bytes + body.byteLength > this.maxBytes) {
      lane.waiting = null;
      lane.fetchAfter = true;
      return 'the delivery queue is full: the feed is fetched after the parse in progress';
    }
    this.bytes += body.byteLength;
    lane.waiting = { body, contentType, link };
    return replaced ? 'queued (replaces an older delivery waiting for this feed)' : 'queued';
  }

  /** Waits for the parses in progress (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const lane of this.lanes.values()) {
      lane.waiting = null;
      lane.fetchAfter = false;
    }
    this.bytes = 0;
    await this.idle();
  }

  /** Bytes of bodies waiting (tests). */
  waitingBytes(): number {
    return this.bytes;
  }

  private fetchSoon(feedId: number): void {
    const lane = this.lanes.get(feedId);
    if (lane?.running) lane.fetchAfter = true;
    else this.deps.fetchNow(feedId);
  }

  private run(feedId: number, lane: FeedLane, first: Waiting): void {
    lane.running = true;
    const job = (async () => {
      let next: Waiting | null = first;
      while (next && !this.stopped) {
        let result: IngestResult | 'failed';
        try {
          result = await this.deps.ingest(feedId, next.body, next.contentType, next.link);
        } catch {
          result = 'failed';
        }
        if (result === 'notFeed' || result === 'failed') {
          lane.fetchAfter = true;
          this.deps.onDone?.(feedId, result, 'not a feed: the feed is fetched instead');
        } else {
          this.deps.onDone?.(feedId, result, result);
        }
        next = lane.waiting;
        lane.waiting = null;
        if (next) this.bytes -= next.body.byteLength;
      }
      lane.running = false;
      this.lanes.delete(feedId);
      if (lane.fetchAfter && !this.stopped) {
        this.deps.fetchNow(feedId);
        this.deps.onDone?.(feedId, 'fetched', 'fetch queued');
      }
    })();
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}
