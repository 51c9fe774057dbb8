/**
 * HTML -> plain text for the search index only (display sanitising is the renderer's job).
 * A single forward scan, so hostile input ('<<<<', an unclosed <script>) stays linear; the
 * input is capped because nobody searches the 200th kilobyte of an article.
 */
const MAX_INPUT = 200_000;

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  szlig: 'ß',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/** Tags that sit inside a line of text: for reading, they join what is around them. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
]);

/**
 * Text of an HTML fragment: tags become spaces, script/style/comments vanish, entities decode.
 * `forReading`: inline tags (<em>, <a>...) join their neighbours instead, so a snippet reads
 * "the <em>word</em>," as "the word," and not "the word ,". The search index keeps spaces.
 */
export function htmlToText(html: string | null | undefined, forReading = false): string {
  if (!html) return '';
  const src = html.length > MAX_INPUT ? html.slice(0, MAX_INPUT) : html;
  const lower = src.toLowerCase();
  const parts: string[] = [];
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    if (lt === -1) {
      parts.push(src.slice(i));
      break;
    }
    if (lt > i) parts.push(src.slice(i, lt));
    if (lower.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      if (end === -1) break;
      i = end + 3;
      continue;
    }
    const gt = src.indexOf('>', lt + 1);
    // No '>' anywhere after: the rest is text, not a tag.
    if (gt === -1) {
      parts.push(src.slice(lt));
      break;
    }
    // A lone '<' followed by a space or digit is text ("a < b").
    const next = src.charCodeAt(lt + 1);
    const isTag = (next >= 65 && next <= 90) || (next >= 97 && next <= 122) || next === 47 || next === 33;
    if (!isTag) {
      parts.push('<');
      i = lt + 1;
      continue;
    }
    i = gt + 1;
    const name = /^<\/?([a-z]+)/.exec(lower.slice(lt, lt + 12))?.[1];
    parts.push(forReading && name !== undefined && INLINE.has(name) ? '' : ' ');
    if ((name === 'script' || name === 'style') && lower[lt + 1] !== '/') {
      const close = lower.indexOf(`</${name}`, i);
      if (close === -1) break;
      const closeEnd = src.indexOf('>', close);
      if (closeEnd === -1) break;
      i = closeEnd + 1;
    }
  }
  return decodeEntities(parts.join('')).replace(/\s+/g, ' ').trim();
}
