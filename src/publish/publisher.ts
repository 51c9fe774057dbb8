/**
 * The writer's use cases and its durable outbox. A post is stored with one save task per enabled
 * target in one transaction; the runner then saves (hosting, folder, remote saveRss) and, once a
 * save succeeded, adds that save's pings in the same transaction that marks it done: the cloud
 * reads the feed to verify, so it is never pinged before the save. Failures are retried with capped
 * back-off; due times live in publish.db, so retries survive restarts. Tasks are leased, so a
 * crash mid-task (kill -9) leaves the task to be run again (at once: a dead holder's lease is
 * released), and the post itself is one row, so it is in the feed once however often its save is
 * retried. outbox-runner.ts decides when tasks run; post-view.ts shows a post's state.
 */
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import type { PostInput, PostView, PublishInfo, PublishSettings } from '../app/api.ts';
import type { Clock } from '../common/clock.ts';
import { describeError, fail, ok, type Result, tidingsError } from '../common/errors.ts';
import type { CloudElement } from '../feed/model.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { renderSite, siteDocument, siteUrls } from './documents.ts';
import { resolveEnclosure } from './enclosure.ts';
import { saveToFolder } from './folder-target.ts';
import { SITE_PREFIX } from './hosting.ts';
import { nudgeOutbox, watchNudges } from './outbox-nudge.ts';
import { OutboxRunner } from './outbox-runner.ts';
import {
  cloudPingEndpoint,
  type PingOutcome,
  pingCloud,
  pingHttpGet,
  pingHub,
  pingRssPing,
  pingWeblogUpdates,
  rssPingDocument,
  sha1Hex,
} from './pings.ts';
import { checkPostInput, type PostContent, type StoredPost } from './post.ts';
import { postView } from './post-view.ts';
import { type NewTask, PublishStore, type TaskRow } from './publish-store.ts';
import { saveRssEndpoint, xmlRpcCall } from './rpc.ts';
import { applyPatch, DEFAULT_PUBLISH_SETTINGS } from './settings.ts';
import type { SiteInput } from './site.ts';
import { itemFragment, writePostsRss } from './write-rss.ts';

export interface PublisherDeps {
  dbPath: string;
  mediaDir: string;
  http: HttpClient;
  clock: Clock;
  generator: string;
  /** The receiver's public address (tunnel or the user's own), null while there is none. */
  publicBase(): string | null;
  /** The receiver on loopback (http://127.0.0.1:port), null while it is not running. */
  localBase(): string | null;
  /**
   * Why no public address is coming on its own (the tunnel is off on purpose and none was
   * given), or null while one is awaited (the tunnel is opening) or there is one.
   */
  whyNoPublicAddress?(): string | null;
  /** The <cloud> element of the app's own cloud (null while it has no public address). */
  ownCloud(): CloudElement | null;
  /** The app's own cloud's WebSub hub, public (null while it has no public address). */
  ownHub?(): string | null;
  /** The user's subscriptions as OPML (shared when the setting says so). */
  blogroll(): string | null;
  onChange(view: PostView): void;
  onDeleted(id: number): void;
  /** The hosted feed changed (the app reads it into its own river). */
  onHostedSave?(localFeedUrl: string): void;
  retry?: { baseMs?: number; capMs?: number; maxAttempts?: number };
  leaseMs?: number;
  /** How often the runner looks for tasks another process (`tidings post`) added. */
  pollMs?: number;
  /** Which tasks this runner can do (the CLI, without a receiver, leaves hosting to the app). */
  handles?: (task: TaskRow) => boolean;
}

type SaveTarget = 'hosting' | 'folder' | 'saveRss';

const SETTINGS_KEY = 'settings';
/** Where the app's own river reads the hosted feed (see runSave). */
export const OWN_RIVER_PATH = '/river.xml';
const DRAFT_KEY = 'draft';
/** The public address the hosted site was last built for. */
const HOSTED_AT_KEY = 'hostedAt';
/** HOSTED_AT_KEY's value for a site built with no public address: the first one rebuilds it. */
const HOSTED_LOCALLY = 'local';
const SAVED_URL_KEY = (t: string) => `publicUrl.${t}`;

export class Publisher {
  readonly store: PublishStore;
  private readonly deps: PublisherDeps;
  private readonly runner: OutboxRunner;
  /** Set while this process runs the outbox (the app); the CLI only drains and nudges. */
  private unwatch: (() => void) | null = null;

  constructor(deps: PublisherDeps) {
    this.deps = deps;
    this.store = new PublishStore(deps.dbPath);
    this.runner = new OutboxRunner({
      store: this.store,
      clock: deps.clock,
      run: (task) => this.runTask(task),
      onTick: () => this.followAddress(),
      onCovered: (ids) => {
        const posts = new Set(ids.map((id) => this.store.getTask(id)?.postId ?? null));
        for (const postId of posts) if (postId !== null) this.emit(postId);
      },
      ...(deps.leaseMs !== undefined ? { leaseMs: deps.leaseMs } : {}),
      ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
      ...(deps.handles ? { handles: deps.handles } : {}),
    });
  }

  // ---- settings, drafts, info

  settings(): PublishSettings {
    return {
      ...DEFAULT_PUBLISH_SETTINGS,
      ...this.store.getValue<Partial<PublishSettings>>(SETTINGS_KEY, {}),
    };
  }

  updateSettings(patch: Partial<PublishSettings>): Result<PublishSettings> {
    const next = applyPatch(this.settings(), patch ?? {});
    if (!next.ok) return next;
    this.store.setValue(SETTINGS_KEY, next.value);
    // New targets, cloud or title: rebuild and save everywhere, and give failed tasks a new chance.
    const now = this.deps.clock.now();
    this.store.retryFailed(now);
    const cloud = this.cloudElement();
    this.store.repointPings(next.value.cloud === 'own' || !cloud ? 'own' : cloudPingEndpoint(cloud).url, [
      ...next.value.pingSinks,
      ...next.value.hubs.map((url) => ({ kind: 'hub', url })),
    ]);
    // A settings panel may save often: one owed rebuild covers every change before it.
    this.store.dropOwedRebuilds(now);
    for (const t of this.saveTasks()) this.store.addTask({ ...t, postId: null, rev: 0 }, now);
    this.kick();
    return next;
  }

  getDraft(): PostInput | null {
    return this.store.getValue<PostInput | null>(DRAFT_KEY, null);
  }

  saveDraft(draft: PostInput | null): void {
    this.store.setValue(DRAFT_KEY, draft && typeof draft === 'object' ? draft : null);
  }

  info(): PublishInfo {
    const s = this.settings();
    const base = this.hostingBase();
    const urls = s.hosting.enabled && base ? siteUrls(base) : null;
    const publicUrls: string[] = [];
    const add = (u: string | null) => {
      if (u && !publicUrls.includes(u)) publicUrls.push(u);
    };
    if (s.hosting.enabled && this.deps.publicBase()) add(urls?.rss ?? null);
    if (s.folder?.enabled) add(folderFeedUrl(s.folder.publicUrl));
    if (s.saveRss?.enabled) add(this.store.getValue<string | null>(SAVED_URL_KEY('saveRss'), null));
    return {
      feedUrls: urls ?? { rss: null, atom: null, json: null, home: null },
      publicUrls,
      cloud: this.cloudElement(),
      hubs: this.hubUrls(),
    };
  }

  // ---- posts

  async post(input: PostInput): Promise<Result<PostView>> {
    const content = await this.contentOf(input);
    if (!content.ok) return content;
    const stored = this.store.insertPost(
      `urn:uuid:${randomUUID()}`,
      content.value,
      this.deps.clock.now(),
      this.saveTasks(),
    );
    const view = this.view(stored);
    this.deps.onChange(view);
    this.kick();
    return ok(view);
  }

  async edit(id: number, input: PostInput): Promise<Result<PostView>> {
    if (!this.store.getPost(id)) return fail(tidingsError('post.notFound', `There is no post ${id}.`));
    const content = await this.contentOf(input);
    if (!content.ok) return content;
    const stored = this.store.updatePost(id, content.value, this.deps.clock.now(), this.saveTasks());
    if (!stored) return fail(tidingsError('post.notFound', `There is no post ${id}.`));
    const view = this.view(stored);
    this.deps.onChange(view);
    this.kick();
    return ok(view);
  }

  delete(id: number): Result<true> {
    if (!this.store.deletePost(id, this.deps.clock.now(), this.saveTasks())) {
      return fail(tidingsError('post.notFound', `There is no post ${id}.`));
    }
    this.deps.onDeleted(id);
    this.kick();
    return ok(true);
  }

  list(): PostView[] {
    return this.store.listPosts().map((p) => this.view(p));
  }

  get(id: number): PostView | null {
    const p = this.store.getPost(id);
    return p ? this.view(p) : null;
  }

  private async contentOf(input: PostInput, depth = 0): Promise<Result<PostContent>> {
    const checked = checkPostInput(input, this.settings().charLimit, depth);
    if (!checked.ok) return checked;
    const enclosure = await resolveEnclosure(input.enclosure ?? null, {
      http: this.deps.http,
      mediaDir: this.deps.mediaDir,
      ownMediaBases: [
        this.hostingBase(),
        this.deps.localBase() ? `${this.deps.localBase()}${SITE_PREFIX}` : null,
      ]
        .filter((b): b is string => b !== null)
        .map((b) => `${b}/media/`),
    });
    if (!enclosure.ok) return enclosure;
    const children: PostContent[] = [];
    for (const c of checked.value.children) {
      const child = await this.contentOf(c, depth + 1);
      if (!child.ok) return child;
      children.push(child.value);
    }
    return ok({ ...checked.value, enclosure: enclosure.value, children });
  }

  private saveTasks(): Omit<NewTask, 'postId' | 'rev'>[] {
    const s = this.settings();
    const out: Omit<NewTask, 'postId' | 'rev'>[] = [];
    if (s.hosting.enabled) out.push({ kind: 'save', target: 'hosting' });
    if (s.folder?.enabled) out.push({ kind: 'save', target: 'folder', endpoint: s.folder.path });
    if (s.saveRss?.enabled) out.push({ kind: 'save', target: 'saveRss', endpoint: s.saveRss.cloudUrl });
    return out;
  }

  // ---- the runner (outbox-runner.ts decides when; runTask does the work)

  start(): void {
    this.runner.start();
    // A `tidings post` on this data folder says so at once (outbox-nudge.ts).
    this.unwatch = watchNudges(dirname(this.deps.dbPath), () => this.runner.kick());
  }

  async stop(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
    await this.runner.stop();
    this.store.close();
  }

  /**
   * A new public address (a new tunnel URL, the user's own address): the hosted feed names its
   * self URL and cloud by it, so it is rebuilt and pinged at the new URL.
   */
  private followAddress(): void {
    const live = this.deps.publicBase();
    if (!live || !this.settings().hosting.enabled || !this.store.db.isOpen) return;
    const built = this.store.getValue<string | null>(HOSTED_AT_KEY, null);
    if (built === null || built === live || this.store.hasOwedHostingSave()) return;
    const now = this.deps.clock.now();
    this.store.dropOwedRebuilds(now);
    for (const t of this.saveTasks()) this.store.addTask({ ...t, postId: null, rev: 0 }, now);
  }

  /**
   * Runs due tasks now (and again as they fall due); in a process that does not run the outbox
   * (the CLI), tells the app running on this data folder instead.
   */
  kick(): void {
    if (this.unwatch) this.runner.kick();
    else nudgeOutbox(dirname(this.deps.dbPath));
  }

  /** For the CLI: runs the tasks this process handles until none is due before the deadline. */
  drain(deadlineMs: number): Promise<void> {
    return this.runner.drain(deadlineMs);
  }

  private async runTask(task: TaskRow): Promise<void> {
    if (task.postId !== null) this.emit(task.postId); // 'publishing'
    let outcome: { ok: boolean; message: string; publicUrl?: string | null };
    try {
      outcome = task.kind === 'save' ? await this.runSave(task) : await this.runPing(task);
    } catch (e) {
      outcome = { ok: false, message: describeError(e) };
    }
    if (!this.store.db.isOpen) return;
    const now = this.deps.clock.now();
    if (outcome.ok) {
      const follow = task.kind === 'save' && outcome.publicUrl ? this.pingTasks(task, outcome.publicUrl) : [];
      this.store.completeTask(task.id, now, outcome.message, outcome.publicUrl ?? null, follow);
    } else {
      this.store.failTask(task.id, now, outcome.message, this.retryAt(task.attempts + 1, now));
    }
    if (task.postId !== null) this.emit(task.postId);
  }

  private retryAt(attempts: number, now: number): number | null {
    const r = this.deps.retry ?? {};
    const max = r.maxAttempts ?? 60;
    if (attempts >= max) return null; // given up: state 'failed' until settings change
    const base = r.baseMs ?? 2_000;
    const cap = r.capMs ?? 30 * 60_000;
    return now + Math.min(cap, base * 2 ** Math.min(attempts - 1, 30));
  }

  private emit(postId: number): void {
    const p = this.store.db.isOpen ? this.store.getPost(postId) : null;
    if (p) this.deps.onChange(this.view(p));
  }

  // ---- saving

  private cloudElement(): CloudElement | null {
    const c = this.settings().cloud;
    if (c === 'own') return this.remembered('lastOwnCloud', this.deps.ownCloud());
    return {
      domain: c.domain,
      port: c.port,
      path: c.path,
      protocol: c.protocol,
      registerProcedure: c.registerProcedure || (c.protocol === 'xml-rpc' ? 'rssCloud.pleaseNotify' : ''),
    };
  }

  /**
   * The app's own cloud and public address, remembered, so a `tidings post` run without the
   * receiver writes the same <cloud> and media URLs as the app that last ran.
   */
  private remembered<T>(key: string, live: T | null): T | null {
    if (live === null) return this.store.getValue<T | null>(key, null);
    if (JSON.stringify(this.store.getValue<T | null>(key, null)) !== JSON.stringify(live))
      this.store.setValue(key, live);
    return live;
  }

  private hostingBase(): string | null {
    const b = this.remembered('lastPublicBase', this.deps.publicBase()) ?? this.deps.localBase();
    return b ? `${b.replace(/\/+$/, '')}${SITE_PREFIX}` : null;
  }

  private site(base: string | null, rssUrl: string | null, mediaBase: string | null): SiteInput {
    const s = this.settings();
    const urls = base ? siteUrls(base) : { rss: null, atom: null, json: null, home: null };
    const hosted = this.hostingBase();
    return {
      title: s.title,
      description: s.description,
      link: s.link ?? urls.home ?? (hosted ? `${hosted}/` : (rssUrl ?? 'http://localhost/')),
      language: s.language,
      generator: this.deps.generator,
      urls: { ...urls, rss: rssUrl ?? urls.rss },
      cloud: this.cloudElement(),
      hubs: this.hubUrls(),
      mediaBase,
      posts: this.store.listPosts(s.feedSize),
      blogroll: s.shareBlogroll && base ? `${base}/blogroll.opml` : null,
    };
  }

  /**
   * The hubs the feeds name. 'own' is the own cloud's public hub, named only while the own cloud
   * serves the feed (it is a door of that cloud); remembered like the cloud for `tidings post`.
   */
  private hubUrls(): string[] {
    const s = this.settings();
    const out: string[] = [];
    for (const h of s.hubs ?? []) {
      if (h === 'own' && s.cloud !== 'own') continue;
      const url = h === 'own' ? this.remembered('lastOwnHub', this.deps.ownHub?.() ?? null) : h;
      if (url && !out.includes(url)) out.push(url);
    }
    return out;
  }

  private blogroll(): string | null {
    return this.settings().shareBlogroll ? this.deps.blogroll() : null;
  }

  private async runSave(task: TaskRow): Promise<{ ok: boolean; message: string; publicUrl?: string | null }> {
    const s = this.settings();
    const target = task.target as SaveTarget;
    const hosted = this.hostingBase();
    const hostedMedia = hosted ? `${hosted}/media` : null;
    if (target === 'hosting') {
      const local = this.deps.localBase();
      if (!hosted || !local)
        return { ok: false, message: 'Built-in hosting needs the receiver running (real-time reading on).' };
      const now = this.deps.clock.now();
      // A private feed names no cloud and pings none: a cloud could not read it to verify.
      const priv = s.hosting.private !== null;
      const site = this.site(hosted, null, hostedMedia);
      const docs = renderSite(priv ? { ...site, cloud: null, hubs: [] } : site, this.blogroll());
      // The copy the app's own river reads on loopback: no <cloud>, so the reader does not ask
      // the cloud to watch a loopback address (it reads this right after each save instead).
      docs.push(
        siteDocument(
          OWN_RIVER_PATH,
          writePostsRss({ ...site, cloud: null, hubs: [] }),
          'application/rss+xml; charset=utf-8',
        ),
      );
      this.store.putDocuments(docs, now);
      this.deps.onHostedSave?.(`${local.replace(/\/+$/, '')}${SITE_PREFIX}${OWN_RIVER_PATH}`);
      if (!this.deps.publicBase()) {
        const why = this.deps.whyNoPublicAddress?.() ?? null;
        if (why === null) {
          return {
            ok: false,
            message: 'Saved locally; waiting for a public address (the tunnel is not open yet).',
          };
        }
        // Nothing to wait for: the feed is served here, and no cloud could read it to verify.
        this.store.setValue(HOSTED_AT_KEY, HOSTED_LOCALLY);
        return {
          ok: true,
          message: `Hosted on this computer only (${siteUrls(`${local.replace(/\/+$/, '')}${SITE_PREFIX}`).rss}); not pinged: ${why}.`,
          publicUrl: null,
        };
      }
      this.store.setValue(HOSTED_AT_KEY, this.deps.publicBase());
      return {
        ok: true,
        message: priv ? 'Hosted (private: no cloud is pinged).' : 'Hosted.',
        publicUrl: siteUrls(hosted).rss,
      };
    }
    if (target === 'folder') {
      if (!s.folder) return { ok: false, message: 'No folder is set.' };
      const feedUrl = folderFeedUrl(s.folder.publicUrl);
      const base = feedUrl.replace(/\/[^/]*$/, '');
      const site = this.site(base, feedUrl, `${base}/media`);
      const files = site.posts.flatMap(mediaFiles);
      const r = await saveToFolder(s.folder.path, renderSite(site, this.blogroll()), {
        dir: this.deps.mediaDir,
        files,
      });
      return r.ok ? { ok: true, message: r.message, publicUrl: feedUrl } : r;
    }
    if (!s.saveRss) return { ok: false, message: 'No saveRss cloud is set.' };
    const known = this.store.getValue<string | null>(SAVED_URL_KEY('saveRss'), null);
    const text = writePostsRss(this.site(null, known, hostedMedia));
    const r = await xmlRpcCall(this.deps.http, saveRssEndpoint(s.saveRss.cloudUrl), 'rssCloud.saveRss', [
      s.saveRss.username,
      s.saveRss.password,
      text,
    ]);
    if (!r.ok) return { ok: false, message: r.message };
    if (typeof r.value !== 'string' || !/^https?:\/\//i.test(r.value)) {
      return {
        ok: false,
        message: `rssCloud.saveRss answered ${JSON.stringify(r.value)} instead of the feed's URL.`,
      };
    }
    this.store.setValue(SAVED_URL_KEY('saveRss'), r.value);
    return { ok: true, message: `Saved; the cloud serves it at ${r.value}.`, publicUrl: r.value };
  }

  // ---- pinging

  private pingTasks(save: TaskRow, publicUrl: string): NewTask[] {
    const s = this.settings();
    const base = { postId: save.postId, rev: save.rev, kind: 'ping' as const, url: publicUrl };
    const out: NewTask[] = [];
    if (save.target === 'hosting' && s.hosting.private) return out; // see runSave
    // 'own' is resolved when the ping runs (the receiver's port and address may change meanwhile).
    out.push({
      ...base,
      target: 'cloud',
      endpoint: s.cloud === 'own' ? 'own' : cloudPingEndpoint(this.cloudElement()!).url,
    });
    // Each hub hears of the save (hub.mode=publish). Not the own hub: it is a door of the own
    // cloud, pinged just above, and any door of that cloud notifies every subscriber by its own
    // protocol (RSSCLOUD.md "Publish", cross-protocol); a second request would read the feed twice.
    for (const hub of s.hubs ?? []) if (hub !== 'own') out.push({ ...base, target: 'hub', endpoint: hub });
    for (const sink of s.pingSinks) {
      // A fat ping carries a post: after a delete there is none to carry.
      if (sink.kind === 'rssPing' && save.postId === null) continue;
      out.push({ ...base, target: sink.kind, endpoint: sink.url });
    }
    return out;
  }

  private async runPing(task: TaskRow): Promise<PingOutcome> {
    const s = this.settings();
    const http = this.deps.http;
    const post = task.postId === null ? null : this.store.getPost(task.postId);
    const names = {
      name: s.title,
      siteUrl: s.link ?? (this.hostingBase() ? `${this.hostingBase()}/` : task.url),
      feedUrl: task.url,
      tags: post?.tags ?? [],
    };
    switch (task.target) {
      case 'cloud': {
        if (task.endpoint === 'own') {
          const local = this.deps.localBase();
          if (!local) return { ok: false, message: "The app's own cloud is not running." };
          return pingCloud(http, { url: `${local.replace(/\/+$/, '')}/cloud/ping`, rpc: false }, task.url);
        }
        const cloud = this.cloudElement();
        const rpc = cloud?.protocol.toLowerCase() === 'xml-rpc';
        return pingCloud(http, { url: task.endpoint, rpc }, task.url);
      }
      case 'hub':
        return pingHub(http, task.endpoint, task.url);
      case 'weblogUpdates':
        return pingWeblogUpdates(http, task.endpoint, names);
      case 'httpGet':
        return pingHttpGet(http, task.endpoint, names);
      case 'rssPing': {
        if (!post) return { ok: true, message: 'The post was deleted; nothing to send.' };
        const hosted = this.hostingBase();
        const payload = itemFragment(post, hosted ? `${hosted}/media` : null);
        const hash = sha1Hex(payload);
        // The payload's hash is published on our own host so a receiver can check it.
        this.store.putDocument({
          ...siteDocument(`/payload/${hash}.xml`, payload, 'application/xml; charset=utf-8'),
          modifiedAt: this.deps.clock.now(),
        });
        const pub = this.deps.publicBase();
        const hashUri = pub ? `${pub.replace(/\/+$/, '')}${SITE_PREFIX}/payload/${hash}.xml` : null;
        return pingRssPing(http, task.endpoint, rssPingDocument(names, payload, hashUri));
      }
      default:
        return { ok: false, message: `Unknown ping kind ${task.target}.` };
    }
  }

  // ---- views

  view(p: StoredPost): PostView {
    return postView(
      p,
      this.store.tasksOf(p.id, p.rev),
      this.deps.clock.now(),
      this.hostingBase(),
      this.cloudElement(),
    );
  }
}

/** A folder's public URL names the feed itself (…/feed.xml) or the folder (…/ -> …/feed.xml). */
export function folderFeedUrl(publicUrl: string): string {
  return /\.(xml|rss)$/i.test(new URL(publicUrl).pathname)
    ? publicUrl
    : `${publicUrl.replace(/\/+$/, '')}/feed.xml`;
}

function mediaFiles(p: PostContent): string[] {
  return [...(p.enclosure?.file ? [p.enclosure.file] : []), ...p.children.flatMap(mediaFiles)];
}
