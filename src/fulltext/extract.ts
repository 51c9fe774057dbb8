/**
 * The article in a web page, as a reader view shows it (issue 35): Mozilla's Readability (the
 * engine of Firefox's Reader View) on a DOM from linkedom, in the core, never in the renderer's
 * page. Relative addresses are made absolute here, against the page's <base> or its own address,
 * since neither survives the extraction. The HTML returned is not sanitised: the renderer
 * sanitises every item's HTML (renderer/src/lib/sanitize.ts), this one like the rest.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** Less text than this is not an article (a login wall, a video page, a list of links). */
export const MIN_ARTICLE_CHARS = 200;

export type Extracted =
  | {
      ok: true;
      title: string | null;
      byline: string | null;
      siteName: string | null;
      content: string;
      textLength: number;
    }
  | { ok: false; code: 'fulltext.notArticle'; message: string };

const URL_ATTRIBUTES: [selector: string, attribute: string][] = [
  ['a[href]', 'href'],
  ['img[src]', 'src'],
  ['video[src]', 'src'],
  ['audio[src]', 'src'],
  ['source[src]', 'src'],
  ['video[poster]', 'poster'],
  ['blockquote[cite]', 'cite'],
];

function absolute(value: string, base: string): string | null {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return null;
  }
}

export function extractArticle(html: string, pageUrl: string): Extracted {
  // linkedom's own document of the page (a parsed tree, not a browser's).
  const page = parseHTML(html).document;
  const declared = page.querySelector('base[href]')?.getAttribute('href');
  const base = (declared && absolute(declared, pageUrl)) || pageUrl;
  for (const [selector, attribute] of URL_ATTRIBUTES) {
    for (const el of page.querySelectorAll(selector)) {
      const value = el.getAttribute(attribute) ?? '';
      if (value.startsWith('#') || value.startsWith('data:')) continue;
      const abs = absolute(value, base);
      if (abs) el.setAttribute(attribute, abs);
      else el.removeAttribute(attribute);
    }
  }
  // Lazy-loading pages keep the real picture in data-src: the sanitiser drops data-* attributes.
  for (const img of page.querySelectorAll('img[data-src]')) {
    const abs = absolute(img.getAttribute('data-src') ?? '', base);
    if (abs && !img.getAttribute('src')?.startsWith('http')) img.setAttribute('src', abs);
  }
  const article = new Readability(page as unknown as ConstructorParameters<typeof Readability>[0], {
    charThreshold: 500,
  }).parse();
  const text = article?.textContent?.trim() ?? '';
  if (!article?.content || text.length < MIN_ARTICLE_CHARS) {
    return {
      ok: false,
      code: 'fulltext.notArticle',
      message: 'This page does not look like an article: there is no body of text to show here.',
    };
  }
  const clean = (s: string | null | undefined) => s?.replace(/\s+/g, ' ').trim() || null;
  return {
    ok: true,
    title: clean(article.title),
    byline: clean(article.byline),
    siteName: clean(article.siteName),
    content: article.content,
    textLength: text.length,
  };
}
