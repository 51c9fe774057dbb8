/**
 * The writer inside the app (issue 7; the work is in src/publish/): the Publisher on publish.db,
 * its hosted site mounted at /site on the receiver's server (the one port the tunnel reaches),
 * the API's post commands and events, and the user's own posts read into their own river.
 *
 * Own river: the app subscribes itself to its hosted feed on loopback (the receiver's local
 * address) and fetches it right after every save, so a post enters the river by the same path as
 * anyone's feed. Unsubscribing that row is respected: it is not added back.
 */
import { join } from 'node:path';
import type { TimerHandle } from '../common/clock.ts';
import { describeError } from '../common/errors.ts';
import { stripUserinfo, writeOpml } from '../feed/opml.ts';
import { isLoopbackOrPrivateUrl } from '../publish/blogroll.ts';
import { countGraphemes } from '../publish/graphemes.ts';
import { createHostingHandler, SITE_PREFIX } from '../publish/hosting.ts';
import { Publisher } from '../publish/publisher.ts';
import type { Mount } from '../realtime/receiver-server.ts';
import type { TidingsApi } from './api.ts';
import { apiResult } from './api-result.ts';
import type { AppContext } from './context.ts';
import { ownServiceOf } from './realtime-wiring.ts';
import { APP_VERSION, PROJECT_URL } from './version.ts';

export type PublishApi = Pick<
  TidingsApi,
  | 'post'
  | 'editPost'
  | 'deletePost'
  | 'listPosts'
  | 'saveDraft'
  | 'getDraft'
  | 'getPublishSettings'
  | 'updatePublishSettings'
  | 'publishInfo'
  | 'countChars'
>;

export interface PublishWiring {
  api: PublishApi;
  /** The hosted site on the receiver's server. */
  mount: Mount;
  publisher: Publisher;
  start(): void;
  stop(): Promise<void>;
}

const OWN_FEED_KEY = 'ownFeedId';
const OWN_RIVER_DELAY_MS = 150;

export function attachPublish(
  ctx: AppContext,
  opts: { dataDir: string; retry?: { baseMs?: number; capMs?: number }; pollMs?: number },
): PublishWiring {
  const mediaDir = join(opts.dataDir, 'publish-media');
  let ownRiverUrl = '';
  let ownRiverTimer: TimerHandle | null = null;
  const publisher: Publisher = new Publisher({
    dbPath: join(opts.dataDir, 'publish.db'),
    mediaDir,
    http: ctx.http,
    clock: ctx.clock,
    generator: `Tidings ${APP_VERSION} (${PROJECT_URL})`,
    publicBase: () => ctx.realtime?.info().publicUrl ?? null,
    localBase: () => ctx.realtime?.info().receiverUrl ?? null,
    ownCloud: () => ownServiceOf(ctx).cloud,
    whyNoPublicAddress: () =>
      ctx.realtime && ownServiceOf(ctx).mode === 'off'
        ? 'there is no public address (the tunnel is off and no public URL is set), so no cloud could read the feed'
        : null,
    ownHub: () => ownServiceOf(ctx).hub,
    blogroll: () => blogroll(),
    onChange: (view) => ctx.events.emit('post.changed', view),
    onDeleted: (id) => ctx.events.emit('post.deleted', { id }),
    // A moment later, once per burst: the cloud's read of the new feed and its notifications go
    // first (the latency readers see); our own river is not in that race.
    onHostedSave: (url) => {
      ownRiverUrl = url;
      ownRiverTimer ??= ctx.clock.setTimer(OWN_RIVER_DELAY_MS, () => {
        ownRiverTimer = null;
        readIntoRiver(ownRiverUrl);
      });
    },
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
  });

  // Kept in memory: every refresh asks, including those finishing while the app stops, after
  // publish.db has closed (a read there threw between storing items and telling the river).
  let ownFeedId = publisher.store.getValue<number | null>(OWN_FEED_KEY, null);
  ctx.ownFeedId = () => ownFeedId;

  function readIntoRiver(url: string): void {
    try {
      let id = ownFeedId;
      if (id === null) {
        const { feed } = ctx.store.addFeed({ url, folder: null, credentials: ownLogin() });
        id = feed.id;
        publisher.store.setValue(OWN_FEED_KEY, id);
        ownFeedId = id;
        ctx.events.emit('feeds.changed', { count: ctx.store.listFeeds().length });
      } else {
        const feed = ctx.store.getFeed(id);
        if (!feed) return; // the user unsubscribed from their own feed: respected
        if (feed.url !== url) ctx.store.moveFeedUrl(id, url); // the receiver's port changed
        // Made private (or public again) since: our own reading follows the login.
        const login = ownLogin();
        if (JSON.stringify(ctx.store.getCredentials(id)) !== JSON.stringify(login))
          ctx.store.setCredentials(id, login);
      }
      ctx.scheduler.fetchNow(id);
    } catch (e) {
      ctx.events.emit('notice', {
        level: 'warning',
        message: `Your post could not reach your river: ${describeError(e)}`,
      });
    }
  }

  /**
   * The shared blogroll: public subscriptions only (not our own loopback row, nothing on this
   * machine or the local network, no credentials, no private feeds).
   */
  const blogroll = () =>
    writeOpml({
      title: `${publisher.settings().title}: blogroll`,
      dateCreated: ctx.clock.now(),
      subscriptions: ctx.store
        .listFeeds()
        .filter((f) => !isLoopbackOrPrivateUrl(f.url) && ctx.store.getCredentials(f.id) === null)
        .map((f) => ({ url: stripUserinfo(f.url), title: f.title, siteUrl: f.siteUrl, folder: f.folder })),
    });

  const ownLogin = () => {
    const p = publisher.settings().hosting.private;
    return p ? { scheme: p.scheme, username: p.username, password: p.password } : null;
  };

  const hosting = createHostingHandler({
    store: publisher.store,
    mediaDir,
    now: () => ctx.clock.now(),
    login: () => publisher.settings().hosting.private,
  });

  const api: PublishApi = {
    post: async (input) => apiResult(await publisher.post(input)),
    editPost: async (id, input) => apiResult(await publisher.edit(id, input)),
    deletePost: async (id) => apiResult(publisher.delete(id)),
    listPosts: async () => publisher.list(),
    saveDraft: async (draft) => publisher.saveDraft(draft),
    getDraft: async () => publisher.getDraft(),
    getPublishSettings: async () => publisher.settings(),
    updatePublishSettings: async (patch) => apiResult(publisher.updateSettings(patch)),
    publishInfo: async () => publisher.info(),
    countChars: async (text) => countGraphemes(String(text ?? '')),
  };

  return {
    api,
    publisher,
    mount: { prefix: SITE_PREFIX, handle: hosting, root: true },
    start: () => publisher.start(),
    stop: async () => {
      ownRiverTimer?.cancel();
      await publisher.stop();
    },
  };
}
