/**
 * The User-Agent every outbound request carries. Feed fetchers announce how many people they
 * fetch for ("N subscribers", the Feedfetcher/Feedly convention) so publishers can count readers
 * without counting requests.
 */

export const DEFAULT_PROJECT_URL = 'https://github.com/tidings-app/tidings';
export const DEFAULT_VERSION = '0.0.0-dev';

/**
 * `Tidings/<version> (+<projectUrl>; N subscribers)`. Without `subscribers` (pings, pleaseNotify,
 * XML-RPC calls: no feed is being read) the count is left out: `Tidings/<version> (+<projectUrl>)`.
 */
export function userAgent(version: string, projectUrl: string, subscribers?: number): string {
  if (subscribers === undefined) return `Tidings/${version} (+${projectUrl})`;
  const n = Number.isFinite(subscribers) ? Math.max(0, Math.floor(subscribers)) : 1;
  return `Tidings/${version} (+${projectUrl}; ${n} subscribers)`;
}
