/**
 * bench:parse's second corpus, in shapes the first one lacks: short untitled items (microblogs,
 * status feeds), long CDATA bodies (full-text feeds), many namespaces on every item (podcasts,
 * WordPress with every plugin), Atom with inline XHTML, RDF with taxonomies. Deterministic.
 */

let seed = 7;
function rnd(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
const WORDS = (
  'lorem ipsum dolor sit amet status update shipped fixed bug release note thread reply photo ' +
  'ça va straße ñandú 東京 данные “curly” ‘quotes’ — … ✓ 🚀 a an the of to in on'
).split(' ');
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const iso = (i: number) => new Date(Date.UTC(2025, 5, 1) + i * 600_000).toISOString();
const rfc = (i: number) => new Date(Date.UTC(2025, 5, 1) + i * 600_000).toUTCString();
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A long article body: 8-30 KB of paragraphs, code, tables and quotes. */
function longBody(): string {
  let s = '';
  const target = 8000 + Math.floor(rnd() * 22000);
  while (s.length < target) {
    s += `<h2>${words(4)}</h2><p>${words(60)} <a href="https://ex.com/${Math.floor(rnd() * 1e6)}">${words(2)}</a> <strong>${words(3)}</strong>.</p>\n`;
    s += `<blockquote><p>${words(30)}</p></blockquote>\n<pre><code>const x = a &lt; b ? "${words(2)}" : null;\nfor (let i = 0; i &lt; n; i++) sum += i;</code></pre>\n`;
    s += `<table><tr><td>${words(2)}</td><td>${Math.floor(rnd() * 1000)}</td></tr></table>\n`;
  }
  return s;
}

const RSS_NS =
  'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" ' +
  'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/" ' +
  'xmlns:slash="http://purl.org/rss/1.0/modules/slash/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" ' +
  'xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" ' +
  'xmlns:georss="http://www.georss.org/georss" xmlns:geo="http://www.w3.org/2003/01/geo/wgs84_pos#" ' +
  'xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0" xmlns:podcast="https://podcastindex.org/namespace/1.0" ' +
  'xmlns:googleplay="http://www.google.com/schemas/play-podcasts/1.0" xmlns:source="http://source.scripting.com/"';

function rssShapes(f: number, items: number): string {
  const site = `https://status${f}.example.com`;
  let s = `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" ${RSS_NS}>\n<channel>\n<title>Status ${f}</title><link>${site}/</link><description>${words(6)}</description>\n<itunes:author>${words(2)}</itunes:author><itunes:image href="${site}/art.jpg"/><itunes:category text="Technology"><itunes:category text="Podcasting"/></itunes:category>\n<atom:link rel="self" href="${site}/rss.xml" type="application/rss+xml"/><atom:link rel="hub" href="https://hub.example/"/>\n`;
  for (let i = 0; i < items; i++) {
    const kind = i % 5;
    s += '<item>';
    if (kind < 3) {
      // a short untitled status: description only
      s += `<description>${esc(words(8 + Math.floor(rnd() * 20)))}</description><guid isPermaLink="false">${site}/s/${f}-${i}</guid><pubDate>${rfc(i)}</pubDate>`;
      if (kind === 1)
        s += `<source:markdown>${esc(words(10))}</source:markdown><georss:point>52.5 13.4</georss:point>`;
    } else if (kind === 3) {
      // full text in CDATA, many namespaced extras
      s += `<title>${esc(words(7))}</title><link>${site}/p/${i}</link><dc:creator><![CDATA[${words(2)}]]></dc:creator><pubDate>${rfc(i)}</pubDate><category><![CDATA[${pick(WORDS)}]]></category><guid>${site}/?p=${i}</guid><description><![CDATA[${words(30)}]]></description><content:encoded><![CDATA[${longBody()}]]></content:encoded><wfw:commentRss>${site}/p/${i}/feed</wfw:commentRss><slash:comments>${i % 17}</slash:comments><feedburner:origLink>${site}/p/${i}</feedburner:origLink>`;
    } else {
      // a podcast episode
      s += `<title>${esc(words(5))}</title><link>${site}/e/${i}</link><guid>${site}/e/${i}</guid><pubDate>${rfc(i)}</pubDate><enclosure url="${site}/e/${i}.mp3" length="${3e7 + i}" type="audio/mpeg"/><itunes:duration>00:${10 + (i % 50)}:00</itunes:duration><itunes:episode>${i}</itunes:episode><itunes:explicit>false</itunes:explicit><itunes:summary>${esc(words(25))}</itunes:summary><itunes:image href="${site}/e/${i}.jpg"/><media:content url="${site}/e/${i}.mp3" type="audio/mpeg" medium="audio"><media:thumbnail url="${site}/e/${i}-t.jpg"/></media:content><podcast:transcript url="${site}/e/${i}.vtt" type="text/vtt"/>`;
    }
    s += '</item>\n';
  }
  return `${s}</channel>\n</rss>\n`;
}

function atomShapes(f: number, items: number): string {
  const site = `https://wiki${f}.example.org`;
  let s = `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xmlns:thr="http://purl.org/syndication/thread/1.0" xmlns:georss="http://www.georss.org/georss" xmlns:gd="http://schemas.google.com/g/2005" xml:lang="de">\n<id>urn:uuid:${f}</id><title>Wiki ${f}</title><updated>${iso(items)}</updated><link href="${site}/"/><link rel="self" href="${site}/atom"/>\n`;
  for (let i = 0; i < items; i++) {
    s += `<entry><id>urn:uuid:${f}-${i}</id><updated>${iso(i)}</updated><link href="${site}/w/${i}"/>`;
    if (i % 3 === 0) s += `<title type="text">${esc(words(6))}</title>`;
    if (i % 2 === 0) {
      s += `<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>${esc(words(40))}</p><ul><li>${esc(words(5))}</li><li>${esc(words(5))}</li></ul><p><img src="/i/${i}.png" alt="${words(2)}"/></p></div></content>`;
    } else {
      s += `<content type="html"><![CDATA[${longBody()}]]></content>`;
    }
    s += `<author><name>${words(2)}</name><email>u${i}@example.org</email></author><thr:total>${i % 9}</thr:total><media:thumbnail url="${site}/t/${i}.jpg" width="72" height="72"/><gd:extendedProperty name="x" value="${i}"/></entry>\n`;
  }
  return `${s}</feed>\n`;
}

function rdfShapes(f: number, items: number): string {
  const site = `https://archive${f}.example.net`;
  let s = `<?xml version="1.0" encoding="utf-8"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:syn="http://purl.org/rss/1.0/modules/syndication/" xmlns:admin="http://webns.net/mvcb/" xmlns:taxo="http://purl.org/rss/1.0/modules/taxonomy/" xmlns:slash="http://purl.org/rss/1.0/modules/slash/">\n<channel rdf:about="${site}/rss"><title>Archive ${f}</title><link>${site}/</link><description>${words(5)}</description><syn:updatePeriod>daily</syn:updatePeriod><admin:generatorAgent rdf:resource="http://example.net/gen"/><items><rdf:Seq>`;
  for (let i = 0; i < items; i++) s += `<rdf:li rdf:resource="${site}/${i}"/>`;
  s += '</rdf:Seq></items></channel>\n';
  for (let i = 0; i < items; i++) {
    s += `<item rdf:about="${site}/${i}">`;
    if (i % 4 !== 0) s += `<title>${esc(words(6))}</title>`;
    s += `<link>${site}/${i}</link><dc:date>${iso(i)}</dc:date><dc:creator>${words(2)}</dc:creator><dc:subject>${pick(WORDS)}</dc:subject><dcterms:modified>${iso(i + 1)}</dcterms:modified><slash:section>${pick(WORDS)}</slash:section><taxo:topics><rdf:Bag><rdf:li rdf:resource="${site}/t/${i % 7}"/><rdf:li rdf:resource="${site}/t/${i % 11}"/></rdf:Bag></taxo:topics>`;
    s +=
      i % 2 === 0
        ? `<description>${esc(words(20))}</description>`
        : `<content:encoded><![CDATA[${longBody()}]]></content:encoded>`;
    s += '</item>\n';
  }
  return `${s}</rdf:RDF>\n`;
}

/** `feeds` documents (RSS 2.0 / Atom / RDF = 2:1:1), each with `items` items. */
export function makeShapesCorpus(
  feeds: number,
  items: number,
): { format: 'rss' | 'atom' | 'rdf'; doc: string }[] {
  seed = 7;
  const out: { format: 'rss' | 'atom' | 'rdf'; doc: string }[] = [];
  for (let f = 0; f < feeds; f++) {
    const kind = f % 4;
    if (kind < 2) out.push({ format: 'rss', doc: rssShapes(f, items) });
    else if (kind === 2) out.push({ format: 'atom', doc: atomShapes(f, items) });
    else out.push({ format: 'rdf', doc: rdfShapes(f, items) });
  }
  return out;
}
