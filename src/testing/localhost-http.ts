/**
 * An HttpClient for a test cloud that must call back tunnel URLs like http://<id>.localhost:P.
 * Node's resolver does not map *.localhost to loopback (getaddrinfo here answers ENOTFOUND), and
 * the one HTTP client takes no custom lookup, so this wrapper dials 127.0.0.1:P and sends the
 * original name in the Host header — what a browser does for *.localhost (RFC 6761). Everything
 * else passes through to the real client untouched.
 */
import type { HttpClient } from '../net/http-client-types.ts';

export function resolveLocalhostSubdomains(inner: HttpClient): HttpClient {
  return {
    fetchFeed: (req) => inner.fetchFeed(req),
    request(req) {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return inner.request(req);
      }
      if (!url.hostname.endsWith('.localhost')) return inner.request(req);
      const host = url.host;
      url.hostname = '127.0.0.1';
      return inner.request({ ...req, url: url.href, headers: { ...req.headers, host } });
    },
    close: () => inner.close(),
  };
}
