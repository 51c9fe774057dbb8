/**
 * Native notifications: new items of the feeds that asked for them (batched by ArrivalBatcher,
 * worded by describeBatch), and cloud answers to my posts (PostAnswerWatcher, when that preference
 * is on). A click brings the window forward and tells the page which item to show.
 */
import { Notification } from 'electron';
import type { FeedView } from '../src/app/api.ts';
import type { Tidings } from '../src/app/tidings.ts';
import { systemClock } from '../src/common/clock.ts';
import { ArrivalBatcher, describeBatch, type NotificationSpec, type NotifyFeed } from './notify-batcher.ts';
import { type PostAnswerSource, PostAnswerWatcher } from './post-answers.ts';

export interface ShellNotifications {
  /** Feed rows as listFeeds gives them. */
  setFeeds(feeds: readonly FeedView[]): void;
  feedChanged(feed: FeedView): void;
  riverChanged(feedId: number, newItems: number): void;
  /** The writer's 'post.changed' payload (wired after its branch lands: see postAnswerSource). */
  postChanged(payload: unknown): void;
  /** One notification of the shell's own ("still running in the tray"). */
  show(spec: NotificationSpec): void;
  /** What was shown this run, oldest first (the e2e spec reads it). */
  shown(): readonly NotificationSpec[];
  /** Runs the click of the i-th shown notification (the e2e spec cannot click the OS's). */
  click(index: number): void;
  /** Until FeedView carries `notify` (issue 9), the e2e spec opts feeds in here. */
  optIn(feedIds: readonly number[]): void;
  dispose(): void;
}

export function startNotifications(opts: {
  core: Tidings;
  icon: string;
  /** The window is focused: the river already shows what arrives. */
  quiet(): boolean;
  postAnswersWanted(): boolean;
  onClick(target: NotificationSpec['target']): void;
}): ShellNotifications {
  // Electron drops a notification's click handler when the object is collected: hold them.
  const live = new Set<Notification>();
  const history: NotificationSpec[] = [];
  const optedIn = new Set<number>();
  const show = (spec: NotificationSpec) => {
    history.push(spec);
    if (history.length > 100) history.shift();
    if (!Notification.isSupported()) return;
    const n = new Notification({ title: spec.title, body: spec.body, icon: opts.icon });
    live.add(n);
    n.on('click', () => opts.onClick(spec.target));
    n.on('close', () => live.delete(n));
    n.show();
  };
  const batcher = new ArrivalBatcher({
    clock: systemClock,
    quiet: opts.quiet,
    flush: (batch) => {
      void (async () => {
        const items = new Map<number, { id: number; title: string | null }[]>();
        for (const f of batch.slice(0, 3)) {
          const page = await opts.core.river({ feedId: f.feedId, limit: 3, unreadOnly: true });
          items.set(
            f.feedId,
            page.groups.flatMap((g) => g.items).map((i) => ({ id: i.id, title: i.title })),
          );
        }
        for (const spec of describeBatch(batch, items)) show(spec);
      })().catch(() => {
        // The store closed under us (quitting): nothing to say.
      });
    },
  });
  const posts = new PostAnswerWatcher();
  return {
    setFeeds: (feeds) => batcher.setFeeds(feeds.map((f) => notifyFeedOf(f, optedIn))),
    feedChanged: (feed) => batcher.updateFeed(notifyFeedOf(feed, optedIn)),
    riverChanged: (feedId, newItems) => batcher.arrived(feedId, newItems),
    postChanged(payload) {
      const source = postAnswerSource(payload);
      if (!source) return;
      const spec = posts.changed(source);
      if (spec && opts.postAnswersWanted()) show(spec);
    },
    show,
    shown: () => [...history],
    click(index) {
      const spec = history[index];
      if (spec) opts.onClick(spec.target);
    },
    optIn(feedIds) {
      for (const id of feedIds) optedIn.add(id);
      void opts.core
        .listFeeds()
        .then((feeds) => batcher.setFeeds(feeds.map((f) => notifyFeedOf(f, optedIn))));
    },
    dispose() {
      batcher.dispose();
      for (const n of live) n.close();
      live.clear();
    },
  };
}

/** FeedView gains `notify` with the per-feed settings (issue 9); until then it reads as off. */
function notifyFeedOf(feed: FeedView & { notify?: boolean }, optedIn: ReadonlySet<number>): NotifyFeed {
  return {
    id: feed.id,
    title: feed.title,
    notify: feed.notify === true || optedIn.has(feed.id),
    status: feed.status,
    unread: feed.unread,
    lastFetchedAt: feed.lastFetchedAt,
  };
}

/**
 * The writer's PostView (issue 7) -> what the watcher needs. Written against the fields a post
 * view is expected to carry; check and adapt when 'post.changed' lands (the lead's merge note).
 */
export function postAnswerSource(payload: unknown): PostAnswerSource | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.id !== 'number' || typeof p.text !== 'string') return null;
  const a = p.cloudAnswer as Record<string, unknown> | null | undefined;
  const answer =
    a && typeof a === 'object' && typeof a.ok === 'boolean' && typeof a.message === 'string'
      ? { ok: a.ok, message: a.message, cloud: typeof a.cloud === 'string' ? a.cloud : 'The cloud' }
      : null;
  return { id: p.id, text: p.text, cloudAnswer: answer };
}
