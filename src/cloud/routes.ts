/**
 * The cloud's routes, in one table: the router (cloud.ts) answers by it, and `tidings cloud`'s
 * metrics (ops/) count each request under the door it names. Two lists kept apart had drifted:
 * `POST /ping/` was routed as a ping and counted as a page.
 *
 * Paths are matched below the mount point, case-insensitively, with one trailing slash ignored
 * (as the reference does: Express's routing is not strict).
 */

/** The door a request came in by (the protocol label of /metrics' pings and requests). */
export type Door = 'rest' | 'xml-rpc' | 'websub' | 'ping-site-form' | 'rss-ping' | 'test-api' | 'page';

/** The POST endpoints, by route key, with their door. */
export const ENDPOINTS: Readonly<Record<string, Door>> = {
  '/pleasenotify': 'rest',
  '/rsscloud/pleasenotify': 'rest',
  '/ping': 'rest',
  '/rsscloud/ping': 'rest',
  '/rpc2': 'xml-rpc',
  '/websub': 'websub',
  '/rssping': 'rss-ping',
};

/** Routes answered to GET and HEAD only (any other method: 405, not 404). */
const PAGES: ReadonlySet<string> = new Set([
  '/',
  '/docs',
  '/pingform',
  '/changes.xml',
  '/pingsiteform',
  '/pleasenotifyform',
  '/viewlog',
  '/viewlog.json',
  '/subscriptions.json',
]);

/** A page that is also a door: weblogUpdates' form pings when it is given a URL. */
const PAGE_DOORS: Readonly<Record<string, Door>> = { '/pingsiteform': 'ping-site-form' };

/** A docs page, `/docs/<name>` (the name as sent: match the path before it is lowercased). */
export const DOC_ROUTE = /^\/docs\/([^/]+)$/i;

/** A feed saved with saveRss, `/feeds/<name>.xml`. */
export const FEED_ROUTE = /^\/feeds\/([^/]+)\.xml$/;

/** The test API's routes (mounted only with --test-api): `/test/<name>`. */
export const TEST_ROUTE = /^\/test\/([a-z]+)$/;

/** A mount point as a path: `''` for the root, else `/name` with no trailing slash. */
export function normaliseBase(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The path below the mount point, or null when the request is not for the cloud. */
export function relativePath(pathname: string, base: string): string | null {
  if (base === '') return pathname;
  const lower = pathname.toLowerCase();
  const b = base.toLowerCase();
  if (lower === b) return '/';
  return lower.startsWith(`${b}/`) ? pathname.slice(base.length) : null;
}

/** `/websub/` is `/websub`; the root stays `/`. */
export const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

/** The key a path below the mount point is routed by: lowercase, one trailing slash dropped. */
export function routeKey(rel: string): string {
  return withoutTrailingSlash(rel).toLowerCase() || '/';
}

/** True for the routes answered to GET and HEAD only. */
export function isPage(key: string): boolean {
  return PAGES.has(key) || DOC_ROUTE.test(key) || FEED_ROUTE.test(key);
}

/** The door of a request's path, as the router would take it (a path outside the mount: a page). */
export function doorOf(pathname: string, basePath = ''): Door {
  const rel = relativePath(pathname, normaliseBase(basePath));
  if (rel === null) return 'page';
  const key = routeKey(rel);
  return ENDPOINTS[key] ?? PAGE_DOORS[key] ?? (TEST_ROUTE.test(key) ? 'test-api' : 'page');
}
