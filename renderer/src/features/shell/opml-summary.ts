/**
 * A preview of an OPML file for the confirmation ("Import 37 subscriptions from blogroll.opml?"):
 * how many feeds it names and the first few titles. Only a preview; the core parses the file for
 * real when the person confirms (src/feed/opml.ts).
 */

export interface OpmlSummary {
  /** Outlines that name a feed (xmlUrl). */
  count: number;
  /** The first titles, in file order. */
  titles: string[];
}

const OUTLINE = /<outline\b([^>]*)>/gi;
const ATTR = (name: string) => new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i');

export function summarizeOpml(text: string, shown = 6): OpmlSummary {
  let count = 0;
  const titles: string[] = [];
  for (const match of text.matchAll(OUTLINE)) {
    const attrs = match[1] ?? '';
    const url = attr(attrs, 'xmlUrl');
    if (!url) continue;
    count++;
    if (titles.length < shown) titles.push(attr(attrs, 'title') || attr(attrs, 'text') || url);
  }
  return { count, titles };
}

function attr(attrs: string, name: string): string {
  const m = ATTR(name).exec(attrs);
  return decodeEntities((m?.[2] ?? m?.[3] ?? '').trim());
}

function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;|&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}
