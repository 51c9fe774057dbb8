/**
 * The reader view's use case (issue 35): an item's article, from the cache or fetched through the
 * one HTTP client (its host policy refuses private addresses, its caps bound time and size, as for
 * feeds) and extracted off the main thread. Failures are readable values with a stable code:
 * the renderer shows the sentence and a link to open the page in the browser instead.
 */
import type { Clock } from '../common/clock.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { decodeHtmlPage } from '../feed/encoding.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { formatBytes, statusError } from '../net/net-errors.ts';
import type { FullTextRow, Store } from '../store/store.ts';
import type { ExtractPool } from './extract-pool.ts';

/** The most of a page read for its article (a feed may be 20 MiB; an article page is far less). */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** The whole fetch, redirects included. */
export const PAGE_TIMEOUT_MS = 20_000;

const ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

export interface FullTextReader {
  /** The item's article: cached, or fetched and extracted now (`refresh`: fetched again). */
  read(itemId: number, refresh?: boolean): Promise<Result<FullTextRow>>;
}

export interface FullTextDeps {
  store: Store;
  http: HttpClient;
  clock: Clock;
  pool: ExtractPool;
}

const isWeb = (url: string | null): url is string => !!url && /^https?:\/\//i.test(url);

function notAPage(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf')
    return 'This link is a PDF document, not a web page: open it in the browser.';
  if (/^(image|audio|video)\//.test(type))
    return `This link is ${type.startsWith('image') ? 'a picture' : 'a media file'} (${type}), not an article.`;
  return `This link is not a web page (${type || 'no type given'}), so there is no article to show.`;
}

export function createFullTextReader(deps: FullTextDeps): FullTextReader {
  const inFlight = new Map<number, Promise<Result<FullTextRow>>>();

  async function fetchAndExtract(itemId: number, link: string): Promise<Result<FullTextRow>> {
    const answer = await deps.http.request({
      method: 'GET',
      url: link,
      headers: { accept: ACCEPT },
      maxBodyBytes: MAX_PAGE_BYTES,
      maxRedirects: 5,
      timeoutMs: PAGE_TIMEOUT_MS,
    });
    if (!answer.ok) {
      const e = answer.error;
      if (e.code === 'http.tooLarge') {
        return fail(
          tidingsError(
            'fulltext.tooBig',
            `The page is larger than ${formatBytes(MAX_PAGE_BYTES)}, the most Tidings reads for an article.`,
            { url: link },
          ),
        );
      }
      return fail(
        tidingsError(
          'fulltext.fetchFailed',
          `The article could not be fetched. ${e.message}`,
          { url: link },
          e,
        ),
      );
    }
    const { status, headers, body, finalUrl } = answer.value;
    if (status < 200 || status > 299) {
      return fail(
        tidingsError(
          'fulltext.fetchFailed',
          `The article could not be fetched. ${statusError(status, finalUrl).message}`,
          { url: link, status },
        ),
      );
    }
    const type = headers['content-type'] ?? '';
    if (type && !/^\s*(text\/html|application\/xhtml\+xml)/i.test(type)) {
      return fail(tidingsError('fulltext.notArticle', notAPage(type), { url: link }));
    }
    const html = decodeHtmlPage(body, type);
    const extracted = await deps.pool.extract(html, finalUrl);
    if (!extracted.ok) return fail(tidingsError(extracted.code, extracted.message, { url: link }));
    const row: FullTextRow = {
      itemId,
      url: finalUrl,
      title: extracted.title,
      byline: extracted.byline,
      siteName: extracted.siteName,
      content: extracted.content,
      fetchedAt: deps.clock.now(),
    };
    deps.store.putFullText(row);
    return ok(row);
  }

  return {
    async read(itemId, refresh = false) {
      const item = deps.store.getItems([itemId])[0];
      if (!item) return fail(tidingsError('fulltext.noItem', 'That item is not in the river any more.'));
      if (!isWeb(item.link)) {
        return fail(
          tidingsError('fulltext.noLink', 'This item links to no web page, so there is no article to fetch.'),
        );
      }
      if (!refresh) {
        const cached = deps.store.getFullText(itemId);
        if (cached) return ok(cached);
      }
      // Two asks for one item (a key pressed twice, two windows) share one fetch.
      let running = inFlight.get(itemId);
      if (!running) {
        running = fetchAndExtract(itemId, item.link).finally(() => inFlight.delete(itemId));
        inFlight.set(itemId, running);
      }
      return running;
    },
  };
}
