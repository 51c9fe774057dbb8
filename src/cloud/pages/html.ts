/**
 * Writing the cloud's HTML pages and escaped text: one page frame (a small inline style, a CSP
 * that allows nothing else), and the escaping every page, form and XML answer uses. Characters
 * XML 1.0 cannot hold are dropped by src/feed/xml-escape.ts' stripInvalidXmlChars, the one owner.
 */
import { stripInvalidXmlChars } from '../../feed/xml-escape.ts';

/**
 * Escaped for an attribute value between double quotes. What XML 1.0 cannot hold at all (C0
 * controls, lone surrogates) is dropped: these escapes write XML too (changes.xml, answers), and one
 * such character makes the whole document unreadable.
 */
export function escapeAttr(s: string): string {
  return stripInvalidXmlChars(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/** Escaped for text (and attributes) of a page; what XML 1.0 cannot hold is dropped, as escapeAttr. */
export function escapeHtml(s: string): string {
  return stripInvalidXmlChars(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function htmlResponse(html: string, status = 200): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
table{border-collapse:collapse}th,td{text-align:left;padding:.2em .8em;border-bottom:1px solid #ddd;vertical-align:top}
td{word-break:break-all}pre{background:#f4f4f4;padding:.6em;overflow:auto}.notifyFailed,.subscribeFailed,.pingFailed,.saveRssFailed{color:#a00}</style>
</head><body>
${body}
</body></html>`;
}
