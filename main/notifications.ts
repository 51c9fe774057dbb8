/**
 * Native notifications: new items of the feeds that asked for them (batched by ArrivalBatcher,
 * worded by describeBatch), and cloud answers to my posts (PostAnswerWatcher, when that preference
 * is on). A click brings the window forward and tells the page which item to show.
 */
import { Notification } from 'electron';
import type { FeedView, PostView } from '../src/app/api.ts';
import type { Tidings } from '../src/app/tidings.ts';
import { systemClock } from '../src/common/clock.ts';
import { ArrivalBatcher, describeBatch, type NotificationSpec, type NotifyFeed } from './notify-batcher.ts';
import { type PostAnswerSource, PostAnswerWatcher } from './post-answers.ts';

export interface ShellNotifications {
  /** Feed rows as listFeeds gives them. */
  setFeeds(feeds: readonly FeedView[]): void;
  feedChanged(feed: FeedView): void;
  riverChanged(feedId: number, newItems: number): void;
  /** The writer's 'post.changed': a cloud's answer to a post becomes one notification. */
  postChanged(post: PostView): void;
  /** One notification of the shell's own ("still running in the tray"). */
  show(spec: NotificationSpec): void;
  /** What was shown this run, oldest first (the e2e spec reads it). */
  shown(): readonly NotificationSpec[];
  /** Runs the click of the i-th shown notification (the e2e spec cannot click the OS's). */
  click(index: number): void;
  /** Opts feeds in for this run (the e2e spec; people use the feed's settings, FeedView.notify). */
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
    postChanged(post) {
      const spec = posts.changed(postAnswerSource(post));
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

/** A feed notifies when its settings say so (FeedView.notify) or the e2e spec opted it in. */
function notifyFeedOf(feed: FeedView, optedIn: ReadonlySet<number>): NotifyFeed {
  return {
    id: feed.id,
    title: feed.title,
    notify: feed.notify || optedIn.has(feed.id),
    status: feed.status,
    unread: feed.unread,
    lastFetchedAt: feed.lastFetchedAt,
  };
}

/** The writer's PostView -> what the watcher needs. */
export function postAnswerSource(post: PostView): PostAnswerSource {
  return { id: post.id, text: post.text, cloudAnswer: post.cloudAnswer };
}
