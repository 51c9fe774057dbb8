/**
 * What a launch asks for: `feed:`/`feeds:` links, `.opml` files and `--subscribe URL`, from the
 * first launch's argv, a second instance's argv (single-instance hand-off), or macOS's open-url /
 * open-file events. Plain functions: the Electron glue only hands the strings in.
 * Nothing here subscribes: each request becomes a confirmation in the window (never silent).
 */
import { isAbsolute, resolve } from 'node:path';

export type LaunchRequest =
  | { kind: 'subscribe'; url: string }
  | { kind: 'import'; path: string }
  /** Something was asked that cannot be honoured; the window says why. */
  | { kind: 'invalid'; input: string; reason: string };

/** Longer than any real feed address; a link that long is a mistake or an attack. */
const MAX_URL_LENGTH = 4096;

/**
 * The http(s) address a `feed:` or `feeds:` link names, or an error sentence.
 *   feed://example.com/rss          -> http://example.com/rss
 *   feed:https://example.com/rss    -> https://example.com/rss   (the link wraps the real URL)
 *   feed://https://example.com/rss  -> https://example.com/rss   (some sites write it so)
 *   feeds://example.com/rss         -> https://example.com/rss   (feeds: is the secure form)
 *   feed:example.com/rss            -> http://example.com/rss
 */
export function feedLinkTarget(link: string): { ok: true; url: string } | { ok: false; reason: string } {
  const text = link.trim();
  if (text.length > MAX_URL_LENGTH)
    return { ok: false, reason: 'The link is too long to be a feed address.' };
  const match = /^(feeds?):(.*)$/is.exec(text);
  if (!match) return { ok: false, reason: 'Not a feed: link.' };
  const secure = match[1]!.toLowerCase() === 'feeds';
  let rest = match[2]!;
  if (rest.startsWith('//')) rest = rest.slice(2);
  let candidate: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(rest) && !/^[^/:]+:\d+(\/|$)/.test(rest)) {
    // A wrapped URL (feed:https://...). Only http(s) may be wrapped: never javascript:, file:...
    candidate = rest;
  } else {
    candidate = `${secure ? 'https' : 'http'}://${rest}`;
  }
  return httpUrl(candidate);
}

/** An http(s) URL with a host, normalised; anything else is refused with a sentence. */
export function httpUrl(text: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: `"${shorten(text)}" is not a web address.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `Only http and https feeds can be subscribed to, not ${url.protocol}` };
  }
  if (!url.hostname) return { ok: false, reason: `"${shorten(text)}" names no host.` };
  return { ok: true, url: url.href };
}

/**
 * `--subscribe` takes what a person would type in the add-feed field: a feed or site URL, a bare
 * host (`example.com`, which the core's autodiscovery completes), or a feed: link.
 */
function subscribeTarget(value: string): LaunchRequest {
  const text = value.trim();
  if (!text) return { kind: 'invalid', input: value, reason: '--subscribe needs an address.' };
  if (/^feeds?:/i.test(text)) return fromResult(text, feedLinkTarget(text));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return fromResult(text, httpUrl(text));
  if (text.length > MAX_URL_LENGTH || /\s/.test(text) || text.startsWith('-')) {
    return { kind: 'invalid', input: value, reason: `"${shorten(text)}" is not a web address.` };
  }
  // A bare host (and path): the core's subscribe normalises it and tries https first.
  return { kind: 'subscribe', url: text };
}

function fromResult(input: string, r: ReturnType<typeof httpUrl>): LaunchRequest {
  return r.ok ? { kind: 'subscribe', url: r.url } : { kind: 'invalid', input, reason: r.reason };
}

export interface ParseOptions {
  /** The directory the launch ran in: relative .opml paths resolve against it. */
  cwd: string;
  /**
   * How many leading argv entries are the program itself: 1 for a packaged app (the executable),
   * 2 in development (electron + the app's folder).
   */
  skip: number;
}

/**
 * The requests in a command line. Chromium and Electron switches (`--no-sandbox`,
 * `--user-data-dir=...`) are ignored, so are unknown positional arguments; `--subscribe` consumes
 * the next argument unless given as `--subscribe=URL`. Duplicates collapse.
 */
export function parseLaunchArgs(argv: readonly string[], opts: ParseOptions): LaunchRequest[] {
  const out: LaunchRequest[] = [];
  const args = argv.slice(opts.skip);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--subscribe') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) {
        out.push({ kind: 'invalid', input: arg, reason: '--subscribe needs an address.' });
      } else {
        out.push(subscribeTarget(value));
        i++;
      }
      continue;
    }
    if (arg.startsWith('--subscribe=')) {
      out.push(subscribeTarget(arg.slice('--subscribe='.length)));
      continue;
    }
    if (arg.startsWith('-')) continue;
    const request = fromPositional(arg, opts.cwd);
    if (request) out.push(request);
  }
  return dedupe(out);
}

/** A `feed:` link (open-url on macOS, a positional argument elsewhere) or an `.opml` file. */
export function fromPositional(arg: string, cwd: string): LaunchRequest | null {
  if (/^feeds?:/i.test(arg)) return fromResult(arg, feedLinkTarget(arg));
  if (/\.opml$/i.test(arg)) return { kind: 'import', path: isAbsolute(arg) ? arg : resolve(cwd, arg) };
  return null;
}

function dedupe(requests: LaunchRequest[]): LaunchRequest[] {
  const seen = new Set<string>();
  return requests.filter((r) => {
    const key = JSON.stringify(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
