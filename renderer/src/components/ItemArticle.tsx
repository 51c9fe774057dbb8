import type { ImagePolicy } from '../../../src/app/api';
import type { ArticleState } from '../store/reader-slice';
import { SafeHtml } from './SafeHtml';

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/**
 * The reader view of an item (issue 35): the article the core fetched and extracted, sanitised
 * like every item's text (SafeHtml), with where it came from; while it comes, a line saying so;
 * when it cannot come, why, and the page in the browser instead.
 */
export function ItemArticle({
  state,
  link,
  policy,
  allowed,
  onRetry,
  id,
}: {
  state: ArticleState | undefined;
  link: string;
  policy: ImagePolicy;
  allowed: boolean;
  onRetry(): void;
  id: string;
}) {
  const open = (
    <a href={link} target="_blank" rel="noopener noreferrer">
      Open it in the browser
    </a>
  );
  if (!state || state.status === 'loading') {
    return (
      <p className="article-note" id={id} role="status" data-testid="article-loading">
        Fetching the article from {hostOf(link)}…
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="article-note article-error" id={id} role="alert" data-testid="article-error">
        <p>{state.message}</p>
        <p className="article-error-ways">
          {open}
          <button type="button" className="link-button" data-keep-unread onClick={onRetry}>
            Try again
          </button>
        </p>
      </div>
    );
  }
  const { article } = state;
  const from = [article.siteName ?? hostOf(article.url), article.byline].filter(Boolean).join(' · ');
  return (
    <div className="article" id={id} data-testid="article">
      <p className="article-from">
        Reader view: {from} ·{' '}
        <a href={article.url} target="_blank" rel="noopener noreferrer">
          original page
        </a>
      </p>
      <SafeHtml
        html={article.content}
        baseUrl={article.url}
        className="item-text article-text"
        images={{ images: policy, allowImages: allowed }}
      />
    </div>
  );
}
