/**
 * The WebSub door of the hub (W3C WebSub; RSSCLOUD.md "WebSub"): `POST {base}/websub` with a
 * form of `hub.*` fields.
 *
 *   subscribe / unsubscribe  202 when well-formed (400 with the reason otherwise); the intent is
 *                            verified out of band by a GET on the callback that must echo
 *                            hub.challenge exactly, and only then is the row active (or gone).
 *   publish                  hub.topic or the older hub.url: the same "resource changed?" routine
 *                            as POST /ping (core.ping), answered 202 at once.
 *
 * WebSub subscriptions are rows of the one subscriber list (store/sqlite.ts, protocol 'websub'), so a
 * /ping reaches them and a publish reaches rssCloud subscribers: fan-out delivers each by its own
 * protocol (fanout.ts).
 */
import { type CloudCore, unavailable } from '../core/core.ts';
import type { CloudLog } from '../core/log.ts';
import type { NewWebSub } from '../core/types.ts';
import type { WebSubHub } from '../core/websub-hub.ts';
import { plain } from './answers.ts';
import { isHttpUrl, type Parsed } from './params.ts';

/** Leases granted, in seconds: asked-for values are clamped to [min, max]; none asked: default. */
export interface LeasePolicy {
  defaultSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

/** The reference hub's: 1 day, clamped to 5 minutes .. 10 days. */
export const DEFAULT_LEASES: LeasePolicy = { defaultSeconds: 86_400, minSeconds: 300, maxSeconds: 864_000 };
/** W3C WebSub 5.1: hub.secret "MUST be less than 200 bytes". */
export const MAX_SECRET_BYTES = 199;
/** Subscriptions one callback URL may hold across topics (pending ones count). */
export const DEFAULT_MAX_PER_CALLBACK = 10_000;

export type HubRequest =
  | { mode: 'subscribe' | 'unsubscribe'; sub: NewWebSub }
  | { mode: 'publish'; topics: string[] };

export function clampLease(raw: string | null, leases: LeasePolicy): number {
  const asked = raw !== null && /^\s*\d+\s*$/.test(raw) ? Number(raw) : leases.defaultSeconds;
  return Math.min(leases.maxSeconds, Math.max(leases.minSeconds, asked));
}

/**
 * The URL as given (trimmed), or null when it is relative or not http(s). Not normalised: a topic
 * is matched with the URL a /ping names, which rssCloud keeps as given.
 */
function absoluteHttpUrl(value: string | null): string | null {
  const v = value?.trim() ?? '';
  return v && isHttpUrl(v) ? v : null;
}

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}...` : s);

/** The form's hub.* fields checked: what to do, or the reason for a 400. */
export function parseHubRequest(form: URLSearchParams, leases: LeasePolicy): Parsed<HubRequest> {
  const mode = (form.get('hub.mode') ?? '').trim().toLowerCase();
  if (mode === 'publish') {
    const named = [...form.getAll('hub.topic'), ...form.getAll('hub.url')].filter((t) => t.trim() !== '');
    if (named.length === 0) return { ok: false, message: 'hub.topic (or hub.url) is required to publish.' };
    const topics = new Set<string>();
    for (const t of named) {
      const url = absoluteHttpUrl(t);
      if (!url)
        return { ok: false, message: `hub.topic must be an absolute http or https URL, not "${clip(t)}".` };
      topics.add(url);
    }
    return { ok: true, value: { mode: 'publish', topics: [...topics] } };
  }
  if (mode !== 'subscribe' && mode !== 'unsubscribe') {
    return {
      ok: false,
      message: mode
        ? `hub.mode "${clip(mode)}" is not supported (subscribe, unsubscribe or publish).`
        : 'hub.mode is required (subscribe, unsubscribe or publish).',
    };
  }
  const rawCallback = form.get('hub.callback');
  const rawTopic = form.get('hub.topic');
  if (!rawCallback?.trim()) return { ok: false, message: 'hub.callback is required.' };
  const callbackUrl = absoluteHttpUrl(rawCallback);
  if (!callbackUrl) return { ok: false, message: 'hub.callback must be an absolute http or https URL.' };
  if (!rawTopic?.trim()) return { ok: false, message: 'hub.topic is required.' };
  const feedUrl = absoluteHttpUrl(rawTopic);
  if (!feedUrl) return { ok: false, message: 'hub.topic must be an absolute http or https URL.' };
  const secret = form.get('hub.secret');
  if (secret !== null && Buffer.byteLength(secret) > MAX_SECRET_BYTES) {
    return { ok: false, message: `hub.secret must be less than ${MAX_SECRET_BYTES + 1} bytes.` };
  }
  return {
    ok: true,
    value: {
      mode,
      sub: {
        feedUrl,
        callbackUrl,
        secret: secret === null || secret === '' ? null : secret,
        leaseSeconds: clampLease(form.get('hub.lease_seconds'), leases),
      },
    },
  };
}

/** The caller's budget: a refusal's sentence, or null when the work may go on. */
export interface HubBudget {
  publish(topics: number): string | null;
  subscribe(): string | null;
}

export interface WebSubDoorDeps {
  core: CloudCore;
  hub: WebSubHub;
  log: CloudLog;
  leases: LeasePolicy;
}

/**
 * POST /websub: 202 for a well-formed request (the work goes on out of band), 400 with the
 * reason otherwise, 429 over the caller's budget.
 */
export async function answerHub(
  deps: WebSubDoorDeps,
  form: URLSearchParams,
  budget: HubBudget,
): Promise<Response> {
  try {
    return await answer(deps, form, budget);
  } catch (e) {
    // The hub's own failure (its store away): a 503 in neutral words, the cause logged.
    return plain(503, unavailable(deps.log, 'websub', e), { 'retry-after': '60' });
  }
}

async function answer(deps: WebSubDoorDeps, form: URLSearchParams, budget: HubBudget): Promise<Response> {
  const { core, hub, log } = deps;
  const parsed = parseHubRequest(form, deps.leases);
  if (!parsed.ok) {
    log.add({ kind: 'websubFailed', detail: parsed.message });
    return plain(400, parsed.message);
  }
  const req = parsed.value;
  if (req.mode === 'publish') {
    const refused = budget.publish(req.topics.length);
    if (refused) return plain(429, refused);
    hub.publish(req.topics);
    return plain(202, 'Accepted');
  }
  const { sub } = req;
  const bad =
    core.refuseCallback(sub.callbackUrl) ?? (req.mode === 'subscribe' ? await hub.refusal(sub) : null);
  if (bad) {
    log.add({ kind: 'websubFailed', feedUrl: sub.feedUrl, callbackUrl: sub.callbackUrl, detail: bad });
    return plain(400, bad);
  }
  const refused = budget.subscribe();
  if (refused) return plain(429, refused);
  if (req.mode === 'subscribe') hub.subscribe(sub);
  else hub.unsubscribe(sub);
  return plain(202, 'Accepted');
}
