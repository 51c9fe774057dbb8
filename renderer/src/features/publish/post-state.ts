/** Words for a post's publish state, its saves and its pings, as My posts shows them. Pure. */
import type { PostPingState, PostTargetState, PostView } from '../../../../src/app/api';

export const STATE_LABEL: Record<PostView['state'], string> = {
  queued: 'Queued',
  publishing: 'Publishing…',
  published: 'Published',
  retrying: 'Retrying',
  failed: 'Failed',
};

export const TARGET_LABEL: Record<string, string> = {
  hosting: 'Built-in hosting',
  folder: 'Folder',
  saveRss: 'Remote cloud (saveRss)',
};

export const PING_LABEL: Record<PostPingState['kind'], string> = {
  cloud: 'rssCloud ping',
  weblogUpdates: 'weblogUpdates',
  httpGet: 'HTTP GET ping',
  rssPing: 'RSS Ping (fat)',
  hub: 'WebSub hub',
};

/**
 * A ping's row name: what was told, and where. The own cloud's ping (post-view's 'own cloud') reaches its rssCloud
 * and WebSub subscribers alike (one door notifies both), so it says so rather than "→ own cloud".
 */
export function pingName(p: Pick<PostPingState, 'kind' | 'endpoint'>): string {
  if (p.kind === 'cloud' && p.endpoint === 'own cloud')
    return `${PING_LABEL.cloud} → this app's own cloud (its WebSub hub too)`;
  return `${PING_LABEL[p.kind]} → ${p.endpoint}`;
}

const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });

/** One line for a save or a ping: what it answered, when, and when it is retried. */
export function outcomeLine(s: PostTargetState | PostPingState, now: number = Date.now()): string {
  const parts: string[] = [];
  if (s.ok === null) parts.push('waiting');
  else parts.push(s.ok ? 'ok' : 'failed');
  if (s.message) parts.push(s.message);
  if (s.at) parts.push(`at ${clock(s.at)}`);
  if (s.nextRetryAt) {
    const inSec = Math.max(0, Math.round((Date.parse(s.nextRetryAt) - now) / 1000));
    parts.push(`retries ${inSec < 60 ? `in ${inSec} s` : `at ${clock(s.nextRetryAt)}`}`);
  }
  return parts.join(' · ');
}

/** Top-level post plus every sub-item, for counts. */
export function outlineSize(post: PostView): number {
  return post.children.reduce((n, c) => n + outlineSize(c), 1);
}
