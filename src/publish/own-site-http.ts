/**
 * The app's own cloud reading the app's own hosted feed: the cloud verifies a ping by reading the
 * feed at its public URL, which for a hosted feed means out through the tunnel service and back
 * in to this very process. This wrapper sends those reads (and only those: URLs under our public
 * address's /site/) straight to the receiver on loopback, which serves the same bytes, and
 * leaves every other request to the cloud's own client and its host policy.
 */
import type { HttpClient } from '../net/http-client-types.ts';
import { SITE_PREFIX } from './hosting.ts';

export interface OwnSiteAddresses {
  /** The public address (tunnel or the user's own), no trailing slash. */
  publicUrl: string | null;
  /** http://127.0.0.1:port of the receiver. */
  localUrl: string | null;
}

export function readOwnSiteLocally(
  outer: HttpClient,
  local: HttpClient,
  where: () => OwnSiteAddresses | null,
): HttpClient {
  const rewrite = (url: string): string | null => {
    const a = where();
    if (!a?.publicUrl || !a.localUrl) return null;
    const prefix = `${a.publicUrl.replace(/\/+$/, '')}${SITE_PREFIX}/`;
    return url.startsWith(prefix)
      ? `${a.localUrl.replace(/\/+$/, '')}${SITE_PREFIX}/${url.slice(prefix.length)}`
      : null;
  };
  return {
    async fetchFeed(req) {
      const to = rewrite(req.url);
      if (to === null) return outer.fetchFeed(req);
      const res = await local.fetchFeed({ ...req, url: to });
      // Answer as if read at the public URL (the cloud records what it asked for).
      return res.kind === 'ok'
        ? { ...res, requestedUrl: req.url, finalUrl: req.url, movedTo: null }
        : { ...res, requestedUrl: req.url, movedTo: null };
    },
    request(req) {
      const to = rewrite(req.url);
      return to === null ? outer.request(req) : local.request({ ...req, url: to });
    },
    close() {
      outer.close();
      local.close();
    },
  };
}
