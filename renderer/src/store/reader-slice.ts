/**
 * The reader view in the renderer (issue 35): which items show their article instead of the feed's
 * text, and each article as the core answered (src/app/habits.ts, fullText). Articles are asked
 * for at most two at a time: a feed set to "always show full text" mounts many cards at once.
 */
import type { FullTextView, TidingsApi } from '../../../src/app/api';
import type { SliceCreator } from './types';

export type ArticleState =
  | { status: 'loading' }
  | { status: 'ready'; article: FullTextView }
  | { status: 'error'; code: string; message: string };

export interface ReaderSlice {
  /** Each item's article, once asked for. */
  articles: Record<number, ArticleState>;
  /** The person's choice per item (the `t` key, the button); absent: the feed's setting. */
  readerChoice: Record<number, boolean>;
  /** Shows the article (asking for it) or the feed's text again. */
  setReader(itemId: number, on: boolean): void;
  /** Asks the core for the article (`refresh`: fetched again), unless asked already. */
  loadArticle(itemId: number, refresh?: boolean): Promise<void>;
}

const AT_ONCE = 2;

export const createReaderSlice =
  (api: TidingsApi): SliceCreator<ReaderSlice> =>
  (set, get) => {
    let running = 0;
    const waiting: { itemId: number; refresh: boolean }[] = [];

    const put = (itemId: number, state: ArticleState) =>
      set((s) => ({ articles: { ...s.articles, [itemId]: state } }));

    async function fetchOne(itemId: number, refresh: boolean): Promise<void> {
      running++;
      try {
        const answer = await api.fullText(itemId, refresh);
        put(
          itemId,
          answer.ok
            ? { status: 'ready', article: answer.value }
            : { status: 'error', code: answer.error.code, message: answer.error.message },
        );
      } catch (err) {
        put(itemId, {
          status: 'error',
          code: 'fulltext.failed',
          message: `The article could not be fetched: ${err instanceof Error ? err.message : String(err)}`,
        });
      } finally {
        running--;
        const next = waiting.shift();
        if (next) void fetchOne(next.itemId, next.refresh);
      }
    }

    return {
      articles: {},
      readerChoice: {},

      setReader(itemId, on) {
        set((s) => ({ readerChoice: { ...s.readerChoice, [itemId]: on } }));
        if (on) void get().loadArticle(itemId);
      },

      async loadArticle(itemId, refresh = false) {
        const known = get().articles[itemId];
        if (known && (known.status === 'loading' || !refresh)) return;
        put(itemId, { status: 'loading' });
        if (running >= AT_ONCE) waiting.push({ itemId, refresh });
        else await fetchOne(itemId, refresh);
      },
    };
  };
