/**
 * The User-Agent every outbound request carries. Feed fetchers announce how many people they
 * fetch for ("N subscribers", the Feedfetcher/Feedly convention) so publishers can count readers
 * without counting requests.
 */

import { APP_VERSION, PROJECT_URL } from '../common/version.ts';

/** What a client says when not told otherwise: this package's version and home (the cloud, the CLI). */
export const DEFAULT_PROJECT_URL = PROJECT_URL;
export const DEFAULT_VERSION = APP_VERSION;

/**
 * `Tidings/<version> (+<projectUrl>; N subscribers)`. Without `subscribers` (pings, pleaseNotify,
 * XML-RPC calls: no feed is being read) the count is left out: `Tidings/<version> (+<projectUrl>)`.
 */
export function userAgent(version: string, projectUrl: string, subscribers?: number): string {
  if (subscribers === undefined) return `Tidings/${version} (+${projectUrl})`;
  const n = Number.isFinite(subscribers) ? Math.max(0, Math.floor(subscribers)) : 1;
  return `Tidings/${version} (+${projectUrl}; ${n} subscribers)`;
}
