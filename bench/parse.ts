/**
 * Feed parsing throughput: Tidings' parseFeed against htmlparser2's parseFeed, rss-parser and
 * feedsmith. Two deterministic in-memory corpora: ours (RSS 2.0, Atom 1.0 and RSS 1.0/RDF feeds
 * with realistic HTML bodies, CDATA and entities) and a second one in other shapes
 * (parse-shapes.ts: short untitled items, long CDATA bodies, many namespaces). Tidings and
 * htmlparser2 are measured per format and overall on both; rss-parser, feedsmith and Tidings on
 * bytes overall on ours. Rounds are interleaved so JIT warm-up and GC fall on all parsers alike; each figure is
 * the median MB/s over the rounds, timed in process CPU time (user + system, GC threads
 * included) so that other processes on a busy machine do not decide the result. CPU time is
 * counted in scheduler ticks: keep the corpus at its default size or larger (tens of MB per
 * format), or the figures are noise.
 *
 * Run: npm run bench:parse -- [--feeds 300] [--items 50] [--rounds 7]
 * Ends with one JSON line: tidings_mbps, htmlparser2_mbps, rss_parser_mbps, feedsmith_mbps,
 * tidings_bytes_mbps (ours given as UTF-8 bytes, as the app gives them: decoding and its
 * encoding checks included), tidings_{rss,atom,rdf}_mbps, htmlparser2_{rss,atom,rdf}_mbps, the
 * same prefixed shapes_ for the second corpus, and min_ratio_vs_htmlparser2 (the worst
 * per-format ratio; goal >= 1.3); then, unless --no-huge, huge documents each parsed in a fresh
 * process (parse-huge.ts): huge_rss_ms/huge_rss_peak_mb (600,000 items),
 * huge_json_ms/huge_json_peak_mb (1,000,000 JSON Feed items), junk_tags_peak_mb (20 MiB of empty
 * tags), nested_peak_mb (20 MiB of nested children).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseFeed as feedsmithParse } from 'feedsmith';
import { parseFeed as htmlparser2Parse } from 'htmlparser2';
import RssParser from 'rss-parser';
import { parseFeed } from '../src/feed/parse.ts';
import { makeShapesCorpus } from './parse-shapes.ts';

type Format = 'rss' | 'atom' | 'rdf';
type Doc = { format: Format; doc: string };
const FORMATS: Format[] = ['rss', 'atom', 'rdf'];

// ---- Deterministic corpus ----

let seed = 42;
function rnd(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

const WORDS = (
  'the of and to in is for on that with as by at from this be are it was or an new has have will ' +
  'feed river news cloud notify subscribe publisher reader outline podcast episode update release ' +
  'café naïve résumé “quoted” ‘single’ — – … München Zürich'
).split(' ');

function words(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(WORDS));
  return out.join(' ');
}

/** An article body: paragraphs with links, emphasis, entities, an image and sometimes a list or code. */
function articleHtml(paragraphs: number): string {
  let s = '';
  for (let i = 0; i < paragraphs; i++) {
    s += `<p>${words(20)} <a href="https://example.com/posts/${Math.floor(rnd() * 1e6)}?ref=feed&amp;utm_source=rss">${words(3)}</a>`;
    s += ` &amp; <em>${words(4)}</em> &#8220;${words(2)}&#8221; ${words(12)}&nbsp;&mdash; ${words(6)}.</p>\n`;
    if (i === 1)
      s += `<figure><img src="/images/${Math.floor(rnd() * 1e5)}.jpg" alt="${words(3)}" width="640" height="360"/><figcaption>${words(8)}</figcaption></figure>\n`;
    if (i === 2 && rnd() < 0.4)
      s += `<ul><li>${words(5)}</li><li>${words(6)}</li><li>${words(4)}</li></ul>\n`;
    if (i === 3 && rnd() < 0.2) s += `<pre><code>if (a &lt; b &amp;&amp; c &gt; d) { run(); }</code></pre>\n`;
  }
  return s;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
function dateAt(i: number): Date {
  return new Date(Date.UTC(2024, 0, 1) + i * 7 * 3_600_000);
}
function rfc822(d: Date): string {
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00 +0000`;
}

function rssFeed(f: number, items: number): string {
  const site = `https://blog${f}.example.com`;
  let s = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/" xmlns:media="http://search.yahoo.com/mrss/">
<channel>
  <title>Blog ${f} &amp; Friends</title>
  <atom:link href="${site}/feed/" rel="self" type="application/rss+xml"/>
  <link>${site}/</link>
  <description>${words(12)}</description>
  <lastBuildDate>${rfc822(dateAt(f * 50 + items))}</lastBuildDate>
  <language>en-US</language>
  <sy:updatePeriod>hourly</sy:updatePeriod>
  <sy:updateFrequency>1</sy:updateFrequency>
  <generator>https://wordpress.org/?v=6.5</generator>
  <cloud domain="rpc.rsscloud.io" port="5337" path="/pleaseNotify" registerProcedure="" protocol="http-post"/>
  <ttl>60</ttl>
`;
  const withGuids = f % 10 !== 0;
  for (let i = 0; i < items; i++) {
    const body = articleHtml(3 + Math.floor(rnd() * 3));
    const url = `${site}/${2024}/${pad((i % 12) + 1)}/${words(3).replace(/[^a-z]+/gi, '-')}-${i}/`;
    s += `  <item>
    <title>${escapeXml(words(9))}</title>
    <link>${url}</link>
    <comments>${url}#respond</comments>
    <dc:creator><![CDATA[${words(2)}]]></dc:creator>
    <pubDate>${rfc822(dateAt(f * 50 + i))}</pubDate>
    <category><![CDATA[${pick(WORDS)}]]></category>
    <category><![CDATA[${pick(WORDS)}]]></category>
${withGuids ? `    <guid isPermaLink="false">${site}/?p=${f * 1000 + i}</guid>\n` : ''}    <description><![CDATA[${words(40)} [&#8230;]]]></description>
    <content:encoded><![CDATA[${body}]]></content:encoded>
`;
    if (i % 4 === 0) {
      s += `    <enclosure url="${site}/media/${i}.mp3" length="${1000000 + i}" type="audio/mpeg"/>
    <media:content url="${site}/media/${i}.jpg" medium="image" width="1200" height="630"><media:title>${escapeXml(words(4))}</media:title></media:content>
`;
    }
    s += '  </item>\n';
  }
  return `${s}</channel>\n</rss>\n`;
}

function atomFeed(f: number, items: number): string {
  const site = `https://notes${f}.example.org`;
  let s = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <title type="text">Notes ${f}</title>
  <subtitle>${words(10)}</subtitle>
  <link rel="alternate" type="text/html" href="${site}/"/>
  <link rel="self" type="application/atom+xml" href="${site}/atom.xml"/>
  <link rel="hub" href="https://pubsubhubbub.appspot.com/"/>
  <id>tag:notes${f}.example.org,2024:feed</id>
  <updated>${dateAt(f * 50 + items).toISOString()}</updated>
  <author><name>${words(2)}</name><uri>${site}/about</uri></author>
  <generator uri="https://gohugo.io/" version="0.125">Hugo</generator>
`;
  for (let i = 0; i < items; i++) {
    const body = articleHtml(3 + Math.floor(rnd() * 3));
    const d = dateAt(f * 50 + i);
    s += `  <entry>
    <title type="html">${escapeXml(escapeXml(words(8)))}</title>
    <link rel="alternate" type="text/html" href="${site}/${i}/"/>
    <id>tag:notes${f}.example.org,2024:${i}</id>
    <published>${d.toISOString().replace('.000Z', '+02:00')}</published>
    <updated>${d.toISOString()}</updated>
    <category term="${pick(WORDS)}" label="${pick(WORDS)}"/>
    <summary type="html">${escapeXml(`<p>${words(35)}</p>`)}</summary>
    <content type="html" xml:base="${site}/${i}/">${escapeXml(body)}</content>
  </entry>
`;
  }
  return `${s}</feed>\n`;
}

function rdfFeed(f: number, items: number): string {
  const site = `https://journal${f}.example.net`;
  let s = `<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel rdf:about="${site}/index.rdf">
    <title>Journal ${f}</title>
    <link>${site}/</link>
    <description>${words(10)}</description>
    <dc:date>${dateAt(f * 50 + items).toISOString()}</dc:date>
    <items><rdf:Seq>
`;
  for (let i = 0; i < items; i++) s += `      <rdf:li rdf:resource="${site}/${i}.html"/>\n`;
  s += '    </rdf:Seq></items>\n  </channel>\n';
  for (let i = 0; i < items; i++) {
    const body = articleHtml(3 + Math.floor(rnd() * 3));
    s += `  <item rdf:about="${site}/${i}.html">
    <title>${escapeXml(words(8))}</title>
    <link>${site}/${i}.html</link>
    <description>${escapeXml(body)}</description>
    <dc:creator>${words(2)}</dc:creator>
    <dc:subject>${pick(WORDS)}</dc:subject>
    <dc:date>${dateAt(f * 50 + i).toISOString()}</dc:date>
  </item>
`;
  }
  return `${s}</rdf:RDF>\n`;
}

/** `feeds` documents: half RSS 2.0, a quarter Atom, a quarter RDF; same bytes every run. */
export function makeCorpus(feeds: number, items: number): Doc[] {
  seed = 42;
  const out: Doc[] = [];
  for (let f = 0; f < feeds; f++) {
    const kind = f % 4;
    if (kind < 2) out.push({ format: 'rss', doc: rssFeed(f, items) });
    else if (kind === 2) out.push({ format: 'atom', doc: atomFeed(f, items) });
    else out.push({ format: 'rdf', doc: rdfFeed(f, items) });
  }
  return out;
}

// ---- Measuring ----

type Runner = { key: string; run: (doc: string) => unknown | Promise<unknown> };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const round1 = (x: number) => Math.round(x * 10) / 10;
const bytes = (docs: Doc[]) => docs.reduce((n, d) => n + Buffer.byteLength(d.doc), 0) / 1e6;

/** Every runner must really read every document, or its figure means nothing. */
function verify(name: string, docs: Doc[], items: (d: Doc) => number): void {
  for (const d of docs) {
    const r = parseFeed(d.doc);
    if (r.kind !== 'feed' || r.feed.items.length !== items(d))
      throw new Error(`tidings failed on the ${name} corpus: ${JSON.stringify(r).slice(0, 300)}`);
    const h = htmlparser2Parse(d.doc);
    if (h === null || h.items.length !== items(d))
      throw new Error(`htmlparser2 failed on the ${name} corpus`);
  }
}

/**
 * MB/s per runner and format (and overall, from each round's summed time), median over rounds.
 * Keys: `${runner}_${format}_mbps` and `${runner}_mbps`.
 */
async function measure(docs: Doc[], runners: Runner[], rounds: number, perFormat: boolean) {
  const groups = perFormat
    ? FORMATS.map((f) => ({ f, docs: docs.filter((d) => d.format === f) }))
    : [{ f: 'all', docs }];
  const samples = new Map<string, number[]>();
  const add = (key: string, v: number) => {
    const list = samples.get(key) ?? [];
    list.push(v);
    samples.set(key, list);
  };
  for (let round = 0; round <= rounds; round++) {
    for (const r of runners) {
      let totalMs = 0;
      for (const g of groups) {
        const t0 = process.cpuUsage();
        for (const d of g.docs) await r.run(d.doc);
        const used = process.cpuUsage(t0);
        const ms = (used.user + used.system) / 1000;
        totalMs += ms;
        if (round > 0 && perFormat) add(`${r.key}_${g.f}_mbps`, bytes(g.docs) / (ms / 1000));
      }
      if (round > 0) add(`${r.key}_mbps`, bytes(docs) / (totalMs / 1000)); // round 0 warms up
    }
  }
  const figures: Record<string, number> = {};
  for (const [key, xs] of samples) figures[key] = round1(median(xs));
  return figures;
}

function table(title: string, figures: Record<string, number>, runners: string[], perFormat: boolean): void {
  console.log(`\n${title}`);
  const cols = perFormat ? ['', ...FORMATS.map((f) => `_${f}`)] : [''];
  console.log(
    `${'MB/s'.padEnd(14)}${cols.map((c) => (c === '' ? 'overall' : c.slice(1)).padStart(10)).join('')}`,
  );
  for (const r of runners) {
    console.log(
      `${r.padEnd(14)}${cols.map((c) => String(figures[`${r}${c}_mbps`] ?? '-').padStart(10)).join('')}`,
    );
  }
}

/** Each huge document written by one child process and parsed by another (see parse-huge.ts). */
function hugeDocuments(): Record<string, number> {
  const script = new URL('./parse-huge.ts', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'tidings-bench-parse-'));
  const run = (...args: string[]) => execFileSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  const figures: Record<string, number> = {};
  console.log('\nhuge documents (each parsed in a fresh process)');
  try {
    for (const [kind, key] of [
      ['rss-items', 'huge_rss'],
      ['json-items', 'huge_json'],
      ['junk-tags', 'junk_tags'],
      ['nested-children', 'nested'],
    ] as const) {
      const file = join(dir, kind);
      run('write', kind, file);
      const r = JSON.parse(run('parse', file).trim().split('\n').pop()!) as {
        ms: number;
        peak_rss_mb: number;
        items: number;
        notes: string[];
      };
      console.log(
        `  ${kind.padEnd(16)} ${String(r.ms).padStart(6)} ms  peak RSS ${r.peak_rss_mb} MB  ${r.items} items  ${r.notes.join(', ')}`,
      );
      if (key === 'huge_rss' || key === 'huge_json') figures[`${key}_ms`] = r.ms;
      figures[`${key}_peak_mb`] = r.peak_rss_mb;
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      feeds: { type: 'string', default: '300' },
      items: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '7' },
      'no-huge': { type: 'boolean', default: false },
    },
  });
  const feeds = Number(values.feeds);
  const items = Number(values.items);
  const rounds = Math.max(5, Number(values.rounds));
  const ours = makeCorpus(feeds, items);
  const shapes = makeShapesCorpus(Math.max(4, Math.round(feeds / 3)), items);
  console.log(
    `corpus 1: ${ours.length} feeds x ${items} items, ${bytes(ours).toFixed(1)} MB; corpus 2 (shapes): ${shapes.length} feeds, ${bytes(shapes).toFixed(1)} MB (RSS 2.0 / Atom / RDF = 2:1:1)`,
  );
  verify('first', ours, () => items);
  verify('shapes', shapes, () => items);

  const head: Runner[] = [
    { key: 'tidings', run: (d) => parseFeed(d) },
    { key: 'htmlparser2', run: (d) => htmlparser2Parse(d) },
  ];
  const rss = new RssParser();
  // The app hands the parser bytes, not text: the same documents as UTF-8, decoding included.
  const encoded = new Map(ours.map((d) => [d.doc, new Uint8Array(Buffer.from(d.doc))]));
  const others: Runner[] = [
    { key: 'rss_parser', run: (d) => rss.parseString(d) },
    { key: 'feedsmith', run: (d) => feedsmithParse(d) },
    { key: 'tidings_bytes', run: (d) => parseFeed(encoded.get(d)!) },
  ];
  const first = await measure(ours, head, rounds, true);
  const rest = await measure(ours, others, Math.max(3, Math.floor(rounds / 2)), false);
  const second = await measure(shapes, head, rounds, true);
  table(
    'corpus 1 (ours)',
    { ...first, ...rest },
    ['tidings', 'tidings_bytes', 'htmlparser2', 'rss_parser', 'feedsmith'],
    true,
  );
  table('corpus 2 (shapes)', second, ['tidings', 'htmlparser2'], true);

  const ratios: number[] = [];
  for (const fig of [first, second])
    for (const f of FORMATS) ratios.push(fig[`tidings_${f}_mbps`]! / fig[`htmlparser2_${f}_mbps`]!);
  const minRatio = Math.round(Math.min(...ratios) * 100) / 100;
  console.log(`\ntidings vs htmlparser2, worst format: ${minRatio.toFixed(2)}x (goal >= 1.3x)`);
  const out: Record<string, number> = {
    tidings_mbps: first.tidings_mbps!,
    htmlparser2_mbps: first.htmlparser2_mbps!,
    rss_parser_mbps: rest.rss_parser_mbps!,
    feedsmith_mbps: rest.feedsmith_mbps!,
    tidings_bytes_mbps: rest.tidings_bytes_mbps!,
  };
  for (const f of FORMATS) {
    out[`tidings_${f}_mbps`] = first[`tidings_${f}_mbps`]!;
    out[`htmlparser2_${f}_mbps`] = first[`htmlparser2_${f}_mbps`]!;
  }
  out.shapes_tidings_mbps = second.tidings_mbps!;
  out.shapes_htmlparser2_mbps = second.htmlparser2_mbps!;
  for (const f of FORMATS) {
    out[`shapes_tidings_${f}_mbps`] = second[`tidings_${f}_mbps`]!;
    out[`shapes_htmlparser2_${f}_mbps`] = second[`htmlparser2_${f}_mbps`]!;
  }
  out.min_ratio_vs_htmlparser2 = minRatio;
  out.ratio_vs_rss_parser = Math.round((first.tidings_mbps! / rest.rss_parser_mbps!) * 100) / 100;
  if (!values['no-huge']) Object.assign(out, hugeDocuments());
  console.log(JSON.stringify(out));
}

if (import.meta.main) await main();
