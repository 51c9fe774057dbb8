/**
 * Writing the cloud's HTML pages: one page frame (a small inline style, a CSP that allows nothing
 * else), and the escaping of their text. Attributes, of pages and XML answers alike, are escaped by
 * src/feed/xml-escape.ts' escapeXmlAttr, the one owner, which drops what XML 1.0 cannot hold.
 */
import { escapeHtml as escapeHtmlText } from '../../feed/text.ts';
import { stripInvalidXmlChars } from '../../feed/xml-escape.ts';

/**
 * Escaped for text (and attributes between double quotes) of a page. What XML 1.0 cannot hold is
 * dropped first, as xml-escape.ts' escapeXmlAttr does for the attributes of the XML answers.
 */
export function escapeHtml(s: string): string {
  return escapeHtmlText(stripInvalidXmlChars(s));
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
