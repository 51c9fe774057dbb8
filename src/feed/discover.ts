/**
 * Subscribe by pasting a site's address: normalise what the user typed, then find the feed.
 * The address itself, then the page's `<link rel="alternate">` feeds, then a few common paths on
 * the site, within a fixed request budget. The network and the "is this a feed?" judgement are
 * passed in (the app wires the one HTTP client and the parser), so this file stays pure logic.
 */
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { firstInOrder } from '../common/first-in-order.ts';
import { MASK, maskUrl } from '../net/mask.ts';
import { decodeAnnouncedUnicode, decodeHtmlPage } from './encoding.ts';
import type { FeedVerdict } from './feed-verdict.ts';
import { decodeEntities } from './text.ts';

export interface FeedLink {
  url: string;
  title: string | null;
  /** The link's type, lower-cased and without parameters. */
  type: string;
}

export type FetchTextResult =
  | { ok: true; finalUrl: string; contentType: string | null; body: Uint8Array }
  | { ok: false; message: string };

export interface DiscoverDeps {
  /** `signal` aborts when discovery is over (a feed found, the deadline, a cancel). */
  fetchText: (url: string, signal?: AbortSignal) => Promise<FetchTextResult>;
  /**
   * Whether a body is a feed, a feed that does not parse (by its type or first tag it says it is
   * one; the reason is the parser's), or not a feed: one judgement, so a body is parsed once.
   */
  judgeFeed: (body: Uint8Array, contentType: string | null) => FeedVerdict;
  /** Cancels discovery (the person pressed Cancel): the result is 'discover.cancelled'. */
  signal?: AbortSignal;
  /** One deadline over all of discovery (default DISCOVERY_DEADLINE_MS). */
  deadlineMs?: number;
  /** What is being tried now, for a progress line. */
  onProgress?: (message: string) => void;
}

export interface Discovered {
  feedUrl: string;
  /** The feeds the page advertised (in order), or just the feed found; always holds feedUrl. */
  candidates: string[];
  /** The page's own icon (`<link rel="icon">`), when the address was a web page that names one. */
  siteIcon?: string | null;
}

export const COMMON_FEED_PATHS = [
  '/feed',
  '/rss',
  '/rss.xml',
  '/feed.xml',
  '/atom.xml',
  '/index.xml',
  '/feed.json',
  '/feeds/posts/default',
  '/?feed=rss2',
];

/** Every fetch discovery may make for one address: a hostile page cannot make us crawl. */
export const MAX_DISCOVERY_REQUESTS = 12;
/** All of discovery, however many addresses it tries (issue 10: a silent site held it 5 minutes). */
export const DISCOVERY_DEADLINE_MS = 20_000;
/** Candidate addresses fetched at once: fast on a slow site, polite to a small one. */
export const DISCOVERY_CONCURRENCY = 3;
/** Advertised links tried before the common paths get the rest of the budget. */
const MAX_LINK_TRIES = 5;

const XML_FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'text/xml',
]);
const JSON_FEED_TYPES = new Set(['application/feed+json', 'application/json']);

// ---------------------------------------------------------------------------------------------
// What the user typed

/**
 * A web address from what a person typed or pasted: trimmed, `feed:` prefixes removed, https://
 * added when there is no scheme. Anything but http(s) is refused with a readable 'url.invalid'.
 */
export function normaliseUserUrl(input: string): Result<string> {
  let s = input.trim();
  if (s.length === 0) return invalid('Enter a web address, such as example.com or https://example.com/feed.');
  s = stripFeedScheme(s);
  if (s.startsWith('//')) s = `https:${s}`;
  else if (!hasScheme(s)) s = `https://${s}`;

  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return invalid(`"${maskUrl(input.trim())}" is not a web address.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return invalid(`Only http and https addresses can be followed, not ${url.protocol.replace(/:$/, '')}:.`);
  }
  if (url.hostname.length === 0) return invalid(`"${maskUrl(input.trim())}" has no host name.`);
  return ok(url.href);
}

/** `mailto:x` and `https://x` have a scheme; `example.com:8080/x` and `localhost:80` do not. */
function hasScheme(s: string): boolean {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
  if (!m) return false;
  if (s.slice(m[0].length).startsWith('//')) return true;
  // host:port, not a scheme
  return !/^\d+(?:[/?#]|$)/.test(s.slice(m[0].length));
}

function invalid(message: string): Result<string> {
  return fail(tidingsError('url.invalid', message));
}

// ---------------------------------------------------------------------------------------------
// The page's advertised feeds

/**
 * `<link rel="alternate">` feeds in the page's head, resolved against `<base href>` then the
 * page URL. Page order, except that a JSON feed goes after an RSS/Atom link with the same title
 * (the same feed in two formats). A tolerant scan, not a DOM: comments, scripts and styles are
 * blanked first so links inside them do not count.
 */
export function findFeedLinks(html: string, pageUrl: string): FeedLink[] {
  const tags = [...scanTags(headOf(blankInertRegions(html)), /<(base|link)(?=[\s/>])/gi)];
  // The first <base href> applies to the whole document, wherever it stands.
  const baseHref = tags.find((t) => t.name === 'base' && t.attrs.has('href'))?.attrs.get('href');
  const base = (baseHref !== undefined && resolve(baseHref, pageUrl)) || pageUrl;

  const links: (FeedLink & { key: number; titleKey: string })[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    if (tag.name !== 'link') continue;
    const rel = (tag.attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rel.includes('alternate')) continue;
    const type = (tag.attrs.get('type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!XML_FEED_TYPES.has(type) && !JSON_FEED_TYPES.has(type)) continue;
    const href = tag.attrs.get('href')?.trim();
    if (!href) continue;
    const url = resolve(stripFeedScheme(href), base);
    if (url === null || seen.has(url)) continue;
    seen.add(url);
    const title = tag.attrs.get('title')?.replace(/\s+/g, ' ').trim() || null;
    links.push({ url, title, type, key: links.length, titleKey: (title ?? '').toLowerCase() });
  }
  // A JSON feed moves just after the last RSS/Atom link sharing its title, if that comes later.
  const lastXmlByTitle = new Map<string, number>();
  for (const l of links) if (XML_FEED_TYPES.has(l.type)) lastXmlByTitle.set(l.titleKey, l.key);
  const sortKey = (l: (typeof links)[number]) =>
    JSON_FEED_TYPES.has(l.type) ? Math.max(l.key, (lastXmlByTitle.get(l.titleKey) ?? -1) + 0.5) : l.key;
  return links
    .map((l) => ({ l, k: sortKey(l) }))
    .sort((a, b) => a.k - b.k || a.l.key - b.l.key)
    .map(({ l }) => ({ url: l.url, title: l.title, type: l.type }));
}

/**
 * The page's icon: the first `<link rel="icon">` (or "shortcut icon"), else an
 * apple-touch-icon, resolved like the feed links; http(s) only. null when it names none.
 */
export function findIconLink(html: string, pageUrl: string): string | null {
  const tags = [...scanTags(headOf(blankInertRegions(html)), /<(base|link)(?=[\s/>])/gi)];
  const baseHref = tags.find((t) => t.name === 'base' && t.attrs.has('href'))?.attrs.get('href');
  const base = (baseHref !== undefined && resolve(baseHref, pageUrl)) || pageUrl;
  let touch: string | null = null;
  for (const tag of tags) {
    if (tag.name !== 'link') continue;
    const rel = (tag.attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
    const href = tag.attrs.get('href')?.trim();
    if (!href) continue;
    if (rel.includes('icon')) {
      const url = resolve(href, base);
      if (url) return url;
    } else if (
      touch === null &&
      (rel.includes('apple-touch-icon') || rel.includes('apple-touch-icon-precomposed'))
    ) {
      touch = resolve(href, base);
    }
  }
  return touch;
}

/** feed://host/x is http://host/x; feed:https://host/x wraps a full URL. */
function stripFeedScheme(s: string): string {
  if (/^feed:\/\//i.test(s)) return `http://${s.slice(7)}`;
  if (/^feed:/i.test(s)) return s.slice(5);
  return s;
}

/** Comments and the insides of script, style, template, noscript, textarea and title, blanked. */
function blankInertRegions(html: string): string {
  return html.replace(
    /<!--[\s\S]*?(?:-->|$)|<(script|style|template|noscript|textarea|title)\b[\s\S]*?(?:<\/\1\s*>|$)/gi,
    (m) => ' '.repeat(m.length),
  );
}

/** Up to `</head>` or `<body`, whichever comes first (HTML lets either end the head). */
function headOf(html: string): string {
  const end = html.search(/<\/head\s*>|<body[\s>]/i);
  return end === -1 ? html : html.slice(0, end);
}

interface Tag {
  name: string;
  attrs: Map<string, string>;
}

/**
 * The tags `opener` finds, with their attributes: names lower-cased, values in double, single or
 * no quotes, entities decoded. The first of a repeated attribute wins, as in HTML.
 */
function* scanTags(html: string, opener: RegExp): Generator<Tag> {
  const attrRe = /\s*(?:([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?|\/)/y;
  for (let m = opener.exec(html); m !== null; m = opener.exec(html)) {
    const attrs = new Map<string, string>();
    let i = m.index + m[0].length;
    attrRe.lastIndex = i;
    for (let a = attrRe.exec(html); a !== null && attrRe.lastIndex > i; a = attrRe.exec(html)) {
      i = attrRe.lastIndex;
      const name = a[1]?.toLowerCase();
      if (name && !attrs.has(name)) attrs.set(name, decodeEntities(a[2] ?? a[3] ?? a[4] ?? ''));
    }
    opener.lastIndex = Math.max(i, opener.lastIndex);
    yield { name: m[1]!.toLowerCase(), attrs };
  }
}

function resolve(href: string, base: string): string | null {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Finding the feed

/**
 * The feed for an address: the address itself if it is a feed; else the first advertised link
 * that fetches as a feed; else a common path on the site's origin. At most
 * MAX_DISCOVERY_REQUESTS fetches, DISCOVERY_CONCURRENCY at a time, all within one deadline.
 * Candidates run concurrently but keep their order of preference: a later candidate that is a
 * feed waits only for the earlier ones still running, and the rest are aborted once one wins.
 * Input without a scheme is tried as https:// first, then http://.
 */
export async function discoverFeed(url: string, deps: DiscoverDeps): Promise<Result<Discovered>> {
  const normalised = normaliseUserUrl(url);
  if (!normalised.ok) return normalised;
  const typed = url.trim();
  const schemeless = !/^feed:/i.test(typed) && !typed.startsWith('//') && !hasScheme(typed);
  const deadlineMs = deps.deadlineMs ?? DISCOVERY_DEADLINE_MS;

  // One controller for every fetch: aborted by the deadline, a cancel, or when a feed wins.
  const done = new AbortController();
  let why: 'deadline' | 'cancelled' | null = null;
  const timer = setTimeout(() => {
    why ??= 'deadline';
    done.abort();
  }, deadlineMs);
  const onCancel = () => {
    why ??= 'cancelled';
    done.abort();
  };
  if (deps.signal?.aborted) onCancel();
  deps.signal?.addEventListener('abort', onCancel, { once: true });
  // Resolves when discovery is stopped, so a fetch that ignores its signal cannot hold us.
  const stopped = new Promise<null>((resolve) => {
    if (done.signal.aborted) resolve(null);
    done.signal.addEventListener('abort', () => resolve(null), { once: true });
  });
  try {
    const found = await discover(normalised.value, schemeless, deps, done.signal, stopped);
    if (why === 'cancelled') {
      return fail(tidingsError('discover.cancelled', 'Stopped looking for a feed.'));
    }
    if (why === 'deadline') {
      const shown = maskUrl(normalised.value);
      const seconds = Math.round(deadlineMs / 1000);
      return fail(
        tidingsError(
          'discover.timeout',
          `No feed found at ${shown} within ${seconds} seconds; the site did not answer in time.`,
          {
            url: shown,
            seconds,
          },
        ),
      );
    }
    return found;
  } finally {
    clearTimeout(timer);
    deps.signal?.removeEventListener('abort', onCancel);
    // Whatever still runs is not needed any more.
    done.abort();
  }
}

async function discover(
  startUrl: string,
  schemeless: boolean,
  deps: DiscoverDeps,
  signal: AbortSignal,
  stopped: Promise<null>,
): Promise<Result<Discovered>> {
  let budget = MAX_DISCOVERY_REQUESTS;
  const tried = new Set<string>();
  const fetchOnce = async (u: string): Promise<FetchTextResult | null> => {
    if (budget <= 0 || tried.has(u) || signal.aborted) return null;
    budget--;
    tried.add(u);
    deps.onProgress?.(`Trying ${maskUrl(u)}`);
    try {
      return await Promise.race([deps.fetchText(u, signal), stopped]);
    } catch (e) {
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  };
  const judge = (r: FetchTextResult & { ok: true }): FeedVerdict => {
    try {
      return deps.judgeFeed(r.body, r.contentType);
    } catch {
      return { kind: 'notFeed' };
    }
  };

  let start = startUrl;
  let page = await fetchOnce(start);
  if (schemeless && page !== null && !page.ok && !signal.aborted) {
    const plain = start.replace(/^https:/, 'http:');
    const second = await fetchOnce(plain);
    if (second?.ok) {
      start = plain;
      page = second;
    }
  }
  if (signal.aborted) return noFeed(start);
  const verdict = page?.ok ? judge(page) : null;
  if (page?.ok && verdict?.kind === 'feed')
    return ok({ feedUrl: page.finalUrl, candidates: [page.finalUrl] });
  // The address is a feed that does not parse: say so with the parser's reason (issue 9), not
  // "no feed found" after a round of guessing.
  if (page?.ok && verdict?.kind === 'broken') return brokenFeed(page.finalUrl, verdict.reason);

  let advertised: string[] = [];
  let siteIcon: string | null = null;
  const pageUrl = page?.ok ? page.finalUrl : start;
  if (page?.ok && looksLikeHtml(page.body, page.contentType)) {
    const html = decodeHtmlPage(page.body, page.contentType);
    advertised = findFeedLinks(html, pageUrl).map((l) => l.url);
    siteIcon = findIconLink(html, pageUrl);
  }
  const links = advertised.slice(0, MAX_LINK_TRIES);
  const origin = originOf(pageUrl) ?? originOf(start);
  const paths = origin === null ? [] : COMMON_FEED_PATHS.map((p) => origin + p);
  const candidates = [...links, ...paths.filter((p) => !links.includes(p))];

  let firstBroken: { url: string; reason: string } | null = null;
  const winner = await firstInOrder(candidates, DISCOVERY_CONCURRENCY, signal, async (u) => {
    const r = await fetchOnce(u);
    if (!r?.ok) return null;
    const verdict = judge(r);
    if (verdict.kind === 'feed') return r.finalUrl;
    // Only an advertised link counts as broken: a guessed path that is not a feed is just a miss.
    if (verdict.kind === 'broken' && links.includes(u) && firstBroken === null)
      firstBroken = { url: r.finalUrl, reason: verdict.reason };
    return null;
  });
  if (winner !== null) {
    const { candidate, value: feedUrl } = winner;
    const fromLinks = links.includes(candidate);
    return ok({
      feedUrl,
      candidates: fromLinks
        ? replaceWithFinal(advertised, candidate, feedUrl)
        : [feedUrl, ...advertised.filter((a) => a !== feedUrl)],
      ...(siteIcon ? { siteIcon } : {}),
    });
  }
  if (signal.aborted) return noFeed(start);
  const b = firstBroken as { url: string; reason: string } | null;
  if (b) return brokenFeed(b.url, b.reason);

  const shown = maskUrl(start);
  if (page !== null && !page.ok) {
    const detail = scrubSecrets(page.message, start);
    return fail(
      tidingsError('discover.unreachable', `Could not open ${shown}: ${detail}`, { url: shown, detail }),
    );
  }
  return noFeed(start);
}

function noFeed(start: string): Result<Discovered> {
  const shown = maskUrl(start);
  return fail(
    tidingsError('discover.noFeed', `No feed found at ${shown}; paste the feed's own address.`, {
      url: shown,
    }),
  );
}

function brokenFeed(url: string, reason: string): Result<Discovered> {
  const shown = maskUrl(url);
  const detail = scrubSecrets(reason, url);
  return fail(
    tidingsError('discover.brokenFeed', `The feed at ${shown} is broken: ${detail}`, { url: shown, detail }),
  );
}

/** A fetch error may quote the URL it was given: hide the userinfo password wherever it appears. */
function scrubSecrets(message: string, url: string): string {
  let out = message;
  const password = new URL(url).password;
  // A very short password would mangle the sentence; the userinfo pattern below still hides it.
  if (password.length >= 3) {
    for (const form of new Set([password, safeDecode(password)])) out = out.split(form).join(MASK);
  }
  return out.replace(/(\/\/[^/:@\s]*:)[^@/\s]*@/g, `$1${MASK}@`);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function originOf(url: string): string | null {
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? origin : null;
  } catch {
    return null;
  }
}

/** The advertised list with the link that worked replaced by where it ended up (after redirects). */
function replaceWithFinal(advertised: string[], link: string, finalUrl: string): string[] {
  const list = advertised.map((a) => (a === link ? finalUrl : a));
  return [...new Set(list)];
}

export function looksLikeHtml(body: Uint8Array, contentType: string | null): boolean {
  if (contentType && /html/i.test(contentType)) return true;
  if (contentType && !/^\s*(text\/plain|application\/octet-stream)\b/i.test(contentType)) return false;
  const head = body.subarray(0, 2048);
  const start = decodeAnnouncedUnicode(head) ?? new TextDecoder('latin1').decode(head.subarray(0, 1024));
  return /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|meta|link|title)[\s>]/i.test(
    start.replace(/^\uFEFF|^ï»¿/, ''),
  );
}
