/**
 * The hub's side of WebSub subscriptions (W3C WebSub 5.2-5.3), whichever door asked: the
 * per-callback cap, the subscribe and unsubscribe handshakes that run out of band after the
 * door's 202 (read the topic, GET the callback with a challenge it must echo, then store or
 * drop the row), and a publish (the same "resource changed?" routine as a ping).
 */
import type { Clock } from '../../common/clock.ts';
import type { HttpClient } from '../../net/http-client-types.ts';
import { type DeliveryOptions, verifyIntent } from '../delivery/deliver.ts';
import type { CloudStore } from '../store/store.ts';
import type { CloudCore } from './core.ts';
import type { CloudLog } from './log.ts';
import { type CloudObserver, outcomeOf } from './observer.ts';
import type { NewWebSub } from './types.ts';

export interface HubDeps {
  store: CloudStore;
  core: CloudCore;
  /** Verification GETs (the same client as rssCloud handler tests). */
  http: HttpClient;
  clock: Clock;
  log: CloudLog;
  maxPerCallback: number;
  delivery: () => DeliveryOptions;
  /** Told each subscribe's outcome (`tidings cloud`'s /metrics). */
  observer?: CloudObserver;
}

/** The subscribe/unsubscribe handshakes; each runs out of band after the 202. */
export class WebSubHub {
  private readonly deps: HubDeps;

  constructor(deps: HubDeps) {
    this.deps = deps;
  }

  /** Each topic published: logged, and read and fanned out like a ping (in the background). */
  publish(topics: readonly string[]): void {
    const { core, log } = this.deps;
    for (const topic of topics) {
      log.add({ kind: 'websub', feedUrl: topic, detail: 'publish' });
      void core.track(core.ping(topic));
    }
  }

  /** A refusal to answer with 400 now (the per-callback cap), or null when the request goes on. */
  async refusal(sub: NewWebSub): Promise<string | null> {
    const { store, maxPerCallback } = this.deps;
    if (await store.getSubscription(sub.feedUrl, sub.callbackUrl)) return null; // a renewal
    if ((await store.countForCallback(sub.callbackUrl)) >= maxPerCallback)
      return `This callback already holds ${maxPerCallback} subscriptions, the most this hub keeps for one callback.`;
    return null;
  }

  subscribe(sub: NewWebSub): void {
    void this.deps.core.track(this.verifySubscribe(sub));
  }

  unsubscribe(sub: NewWebSub): void {
    void this.deps.core.track(this.verifyUnsubscribe(sub));
  }

  private async verifySubscribe(sub: NewWebSub): Promise<void> {
    const { store, core, http, clock, log } = this.deps;
    const started = clock.now();
    const leaseMs = sub.leaseSeconds * 1000;
    await store.addPendingWebSub(sub, clock.now(), clock.now() + leaseMs);
    // The topic is read first, as for an rssCloud registration: its hash is the baseline the
    // next ping compares with, and a topic the hub cannot read is denied (W3C WebSub 5.2).
    const check = await core.readForSubscriber(sub.feedUrl);
    if (check.kind === 'unreadable') {
      this.deps.observer?.registered('websub', check.timedOut ? 'timedOut' : 'failed');
      await store.dropPending(sub.feedUrl, sub.callbackUrl);
      log.add({
        kind: 'websubFailed',
        feedUrl: sub.feedUrl,
        callbackUrl: sub.callbackUrl,
        detail: `subscribe denied: the topic could not be read (${check.reason})`,
      });
      await this.deny(sub, 'The hub could not read the topic.');
      return;
    }
    const verified = await verifyIntent(
      http,
      sub.callbackUrl,
      { mode: 'subscribe', topic: sub.feedUrl, leaseSeconds: sub.leaseSeconds },
      this.deps.delivery(),
    );
    this.deps.observer?.registered('websub', outcomeOf(verified));
    if (!verified.ok) {
      await store.dropPending(sub.feedUrl, sub.callbackUrl);
      await store.bump('registrationsFailed');
      log.add({
        kind: 'websubFailed',
        feedUrl: sub.feedUrl,
        callbackUrl: sub.callbackUrl,
        detail: `subscribe not verified: ${verified.error.message}`,
      });
      return;
    }
    await store.activateWebSub(sub, clock.now(), clock.now() + leaseMs);
    await store.bump('registrations');
    log.add({
      kind: 'websub',
      feedUrl: sub.feedUrl,
      callbackUrl: sub.callbackUrl,
      detail: `subscribed for ${sub.leaseSeconds} s${sub.secret ? ', signed' : ''}`,
      ms: clock.now() - started,
    });
  }

  private async verifyUnsubscribe(sub: NewWebSub): Promise<void> {
    const { store, http, log } = this.deps;
    const row = await store.getSubscription(sub.feedUrl, sub.callbackUrl);
    // Nothing to cancel: no request goes out (the hub is not a way to make GETs to anyone).
    if (row?.protocol !== 'websub') {
      log.add({
        kind: 'websubFailed',
        feedUrl: sub.feedUrl,
        callbackUrl: sub.callbackUrl,
        detail: 'unsubscribe: no such subscription',
      });
      return;
    }
    const verified = await verifyIntent(
      http,
      sub.callbackUrl,
      { mode: 'unsubscribe', topic: sub.feedUrl },
      this.deps.delivery(),
    );
    if (!verified.ok) {
      log.add({
        kind: 'websubFailed',
        feedUrl: sub.feedUrl,
        callbackUrl: sub.callbackUrl,
        detail: `unsubscribe not verified: ${verified.error.message}`,
      });
      return;
    }
    await store.removeSubscription(sub.feedUrl, sub.callbackUrl);
    log.add({ kind: 'websub', feedUrl: sub.feedUrl, callbackUrl: sub.callbackUrl, detail: 'unsubscribed' });
  }

  /** W3C WebSub 5.2: tell the subscriber it was denied (best effort; the answer is ignored). */
  private async deny(sub: NewWebSub, reason: string): Promise<void> {
    const url = new URL(sub.callbackUrl);
    url.searchParams.append('hub.mode', 'denied');
    url.searchParams.append('hub.topic', sub.feedUrl);
    url.searchParams.append('hub.reason', reason);
    const opts = this.deps.delivery();
    await this.deps.http.request({
      method: 'GET',
      url: url.href,
      timeoutMs: opts.timeoutMs ?? 4000,
      maxBodyBytes: 1024,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  }
}
