/**
 * Renames `on*` attributes (onerror, onload...) in feed HTML before any browser parser sees it.
 * Why: Chromium checks the page's CSP when a parser *creates* an inline handler, even in an inert
 * document (DOMParser, <template>, createHTMLDocument: all measured), so every hostile feed printed
 * dozens of "Executing inline event handler violates CSP" errors and hid real ones. DOMPurify
 * still removes the renamed attributes (data-* are not allowed); this pass is about console noise,
 * not safety: whatever it misses, DOMPurify strips anyway.
 *
 * A small scanner, not a regex over the whole text: only attribute names inside tags are touched,
 * quoted values and text between tags are left as they are.
 */
const RENAMED = 'data-blocked-';

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z]/.test(c);
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '/';
}

export function neutralizeHandlers(html: string): string {
  if (!/\son|\/on/i.test(html)) return html;
  let out = '';
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt);
    i = lt;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      const stop = end < 0 ? n : end + 3;
      out += html.slice(i, stop);
      i = stop;
      continue;
    }
    if (!isNameStart(html[i + 1])) {
      out += '<';
      i++;
      continue;
    }
    // Inside a start tag: copy the tag name, then walk attributes until '>'.
    let j = i + 1;
    while (j < n && !isSpace(html[j]) && html[j] !== '>') j++;
    out += html.slice(i, j);
    while (j < n && html[j] !== '>') {
      const c = html[j]!;
      if (isSpace(c)) {
        out += c;
        j++;
        continue;
      }
      if (c === '"' || c === "'") {
        // A stray quote outside a value: copy through to its partner.
        const end = html.indexOf(c, j + 1);
        const stop = end < 0 ? n : end + 1;
        out += html.slice(j, stop);
        j = stop;
        continue;
      }
      // An attribute name (up to '=', space, '/' or '>').
      let k = j;
      while (k < n && !isSpace(html[k]) && html[k] !== '=' && html[k] !== '>') k++;
      const name = html.slice(j, k);
      out += /^on/i.test(name) ? `${RENAMED}${name}` : name;
      j = k;
      while (j < n && (html[j] === ' ' || html[j] === '\n' || html[j] === '\t' || html[j] === '\r'))
        out += html[j++];
      if (html[j] === '=') {
        out += '=';
        j++;
        while (j < n && (html[j] === ' ' || html[j] === '\n' || html[j] === '\t' || html[j] === '\r'))
          out += html[j++];
        const q = html[j];
        if (q === '"' || q === "'") {
          const end = html.indexOf(q, j + 1);
          const stop = end < 0 ? n : end + 1;
          out += html.slice(j, stop);
          j = stop;
        } else {
          let k2 = j;
          while (k2 < n && !/[\s>]/.test(html[k2]!)) k2++;
          out += html.slice(j, k2);
          j = k2;
        }
      }
    }
    i = j;
  }
  return out;
}
