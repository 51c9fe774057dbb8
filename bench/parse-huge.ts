/**
 * Huge documents for bench:parse's memory figures. `write KIND FILE` builds one into a file;
 * `parse FILE` reads it in a fresh process and prints one JSON line {"ms","peak_rss_mb","items",
 * "notes"}, so the peak is the parse's own (plus Node itself and the document's bytes).
 *
 * Kinds: rss-items (600,000 items), json-items (1,000,000 JSON Feed items), junk-tags (20 MiB of
 * empty tags), nested-children (20 MiB of rssCloud:item children in one item).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseFeed } from '../src/feed/parse.ts';

const [mode, a, b] = process.argv.slice(2);
const kind = a ?? 'rss-items';
const MB20 = 20 * 1048576;

function build(): string {
  switch (kind) {
    case 'rss-items': {
      const parts = ['<rss version="2.0"><channel><title>t</title>'];
      for (let i = 0; i < 600_000; i++) parts.push(`<item><title>x${i % 10}</title></item>`);
      parts.push('</channel></rss>');
      return parts.join('');
    }
    case 'json-items':
      return JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 't',
        items: Array.from({ length: 1_000_000 }, (_, i) => ({ id: String(i), title: 'x' })),
      });
    case 'junk-tags':
      return `<rss version="2.0"><channel><title>t</title><item><title>i</title>${'<x/>'.repeat((MB20 - 200) / 4)}</item></channel></rss>`;
    default: {
      const unit = '<rssCloud:item><title>x</title></rssCloud:item>';
      return `<rss version="2.0"><channel><item><title>i</title>${unit.repeat(Math.floor((MB20 - 200) / unit.length))}</item></channel></rss>`;
    }
  }
}

function parse(file: string): void {
  const bytes = readFileSync(file);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const t0 = performance.now();
  const r = parseFeed(bytes, { maxParseMs: Number.POSITIVE_INFINITY });
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  console.log(
    JSON.stringify({
      ms: Math.round(ms),
      peak_rss_mb: Math.round(peak / 1e6),
      items: r.kind === 'feed' ? r.feed.items.length : -1,
      notes: r.kind === 'feed' ? r.notes.map((n) => n.code) : [r.kind],
    }),
  );
}

if (mode === 'write' && b) writeFileSync(b, build());
else if (mode === 'parse' && a) parse(a);
else throw new Error('usage: node bench/parse-huge.ts write KIND FILE | parse FILE');
