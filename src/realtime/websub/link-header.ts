/**
 * The HTTP `Link` header's hub and self (RFC 8288; WebSub §4 discovery): `<url>; rel="hub"`,
 * several links per header, several rels per link ("self hub"), relative URLs resolved against
 * the address that answered. Only what WebSub needs; other rels are ignored.
 */
export interface LinkHeaderRefs {
  hubs: string[];
  self: string | null;
}

export function parseLinkHeader(value: string | null | undefined, base: string): LinkHeaderRefs {
  const out: LinkHeaderRefs = { hubs: [], self: null };
  if (!value) return out;
  // <...> may hold commas and semicolons: match each link as <target> then its parameters.
  const re = /<([^>]*)>\s*((?:;\s*[^;,]*?(?:"[^"]*"[^;,]*)?)*)\s*(?:,|$)/g;
  for (const m of value.matchAll(re)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2] ?? '');
    if (!rel) continue;
    let href: string;
    try {
      href = new URL(m[1]!.trim(), base).href;
    } catch {
      continue;
    }
    if (!/^https?:/i.test(href)) continue;
    const rels = (rel[1] ?? rel[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('hub') && !out.hubs.includes(href)) out.hubs.push(href);
    if (rels.includes('self') && out.self === null) out.self = href;
  }
  return out;
}
