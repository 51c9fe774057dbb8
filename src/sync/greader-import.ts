/**
 * Moving in from FreshRSS or Miniflux (issue 32): read a Google Reader API server's subscriptions
 * (with their folders) and starred items, as a client would, through the app's one HTTP client.
 * What is read is a plain model; src/app/greader-import.ts files it into the reader.
 *
 * The address is the API's base as the server's docs give it: FreshRSS's ends in
 * /api/greader.php, Miniflux's is the server's own address, Tidings' ends in /api/greader.
 */
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import type { HttpClient, HttpResponse } from '../net/http-client-types.ts';
import { parseStreamId, STARRED } from './greader/streams.ts';

export interface RemoteSubscription {
  /** The server's stream id for it (feed/42): starred items name their feed by it. */
  streamId: string;
  url: string;
  title: string | null;
  siteUrl: string | null;
  /** The label, as a folder path. */
  folder: string | null;
}

export interface RemoteItem {
  streamId: string;
  title: string | null;
  link: string | null;
  html: string | null;
  /** ISO times. */
  published: string | null;
  updated: string | null;
  author: string | null;
  read: boolean;
}

export interface RemoteLibrary {
  subscriptions: RemoteSubscription[];
  starred: RemoteItem[];
}

/** Starred items read at most (in pages of 1,000). */
export const MAX_STARRED = 20_000;
const PAGE = 1_000;

/** A label's name from its stream id (`user/-/label/<name>`), else undefined. */
function labelOf(streamId: unknown): string | undefined {
  const ref = typeof streamId === 'string' ? parseStreamId(streamId) : null;
  return ref?.kind === 'label' ? ref.name : undefined;
}

function importError(code: string, message: string): Result<never> {
  return fail(tidingsError(`import.${code}`, message));
}

function iso(seconds: unknown): string | null {
  const n = Number(seconds);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : null;
}

const text = (body: Uint8Array) => new TextDecoder().decode(body);

export async function readGReaderLibrary(
  http: HttpClient,
  address: string,
  user: string,
  password: string,
): Promise<Result<RemoteLibrary>> {
  let base: string;
  try {
    const u = new URL(address.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    base = u.href.replace(/\/+$/, '');
  } catch {
    return importError('badAddress', `"${address}" is not the http(s) address of a Google Reader API.`);
  }
  const login = await http.request({
    method: 'POST',
    url: `${base}/accounts/ClientLogin`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ Email: user, Passwd: password }).toString(),
    timeoutMs: 30_000,
    maxRedirects: 3,
  });
  if (!login.ok) return importError('unreachable', `${base} could not be reached: ${login.error.message}`);
  if (login.value.status === 401 || login.value.status === 403) {
    return importError(
      'refused',
      'The server refused that user name and password. FreshRSS and Miniflux want the API password set in their settings, not the one for their web page.',
    );
  }
  const auth = /^Auth=(.+)$/m.exec(text(login.value.body))?.[1]?.trim();
  if (login.value.status !== 200 || !auth) {
    return importError(
      'notGReader',
      `${base} did not answer as a Google Reader API (status ${login.value.status}). FreshRSS's address ends in /api/greader.php.`,
    );
  }
  const headers = { authorization: `GoogleLogin auth=${auth}` };
  const getJson = async <T>(path: string): Promise<Result<T>> => {
    const res: Result<HttpResponse> = await http.request({
      method: 'GET',
      url: `${base}/reader/api/0/${path}`,
      headers,
      timeoutMs: 60_000,
      maxBodyBytes: 64 * 1024 * 1024,
    });
    if (!res.ok) return importError('unreachable', `${base} could not be reached: ${res.error.message}`);
    if (res.value.status !== 200)
      return importError('failed', `${base} answered ${res.value.status} to ${path.split('?')[0]}.`);
    try {
      return ok(JSON.parse(text(res.value.body)) as T);
    } catch {
      return importError(
        'notGReader',
        `${base} answered ${path.split('?')[0]} with something that is not JSON.`,
      );
    }
  };

  type Subs = {
    subscriptions?: {
      id?: string;
      url?: string;
      title?: string;
      htmlUrl?: string;
      categories?: { id?: string; label?: string }[];
    }[];
  };
  const subs = await getJson<Subs>('subscription/list?output=json');
  if (!subs.ok) return subs;
  const subscriptions: RemoteSubscription[] = [];
  for (const s of subs.value.subscriptions ?? []) {
    if (typeof s.url !== 'string' || !/^https?:\/\//i.test(s.url) || typeof s.id !== 'string') continue;
    const label = (s.categories ?? [])
      .map((c) => labelOf(c.id) ?? c.label)
      .find((l): l is string => typeof l === 'string' && l.trim() !== '');
    subscriptions.push({
      streamId: s.id,
      url: s.url,
      title: typeof s.title === 'string' ? s.title : null,
      siteUrl: typeof s.htmlUrl === 'string' && s.htmlUrl ? s.htmlUrl : null,
      folder: label?.trim() ?? null,
    });
  }

  type Page = {
    items?: {
      title?: string;
      published?: number;
      updated?: number;
      author?: string;
      alternate?: { href?: string }[];
      canonical?: { href?: string }[];
      summary?: { content?: string };
      content?: { content?: string };
      origin?: { streamId?: string };
      categories?: string[];
    }[];
    continuation?: string;
  };
  const starred: RemoteItem[] = [];
  let c: string | null = null;
  do {
    const q: URLSearchParams = new URLSearchParams({ n: String(PAGE), output: 'json', ...(c ? { c } : {}) });
    const page: Result<Page> = await getJson<Page>(`stream/contents/${STARRED}?${q}`);
    if (!page.ok) return page;
    for (const i of page.value.items ?? []) {
      const streamId = i.origin?.streamId;
      if (typeof streamId !== 'string') continue;
      starred.push({
        streamId,
        title: typeof i.title === 'string' ? i.title : null,
        link: i.canonical?.[0]?.href ?? i.alternate?.[0]?.href ?? null,
        html: i.content?.content ?? i.summary?.content ?? null,
        published: iso(i.published),
        updated: iso(i.updated),
        author: typeof i.author === 'string' && i.author ? i.author : null,
        read: (i.categories ?? []).some((cat) => parseStreamId(cat)?.kind === 'read'),
      });
    }
    c =
      typeof page.value.continuation === 'string' && page.value.continuation ? page.value.continuation : null;
  } while (c && starred.length < MAX_STARRED);
  return ok({ subscriptions, starred });
}
