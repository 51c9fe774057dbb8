/**
 * The writer's side of bench:latency, in a child process so the reader's figures are its own:
 * a feed host and the project's rssCloud server on loopback. It prints
 * "ready <cloudPort> <feedHostUrl>", then for each stdin line "set <path> <n>" serves at <path>
 * a feed whose newest item is number n (ten items, with a <cloud> element naming this cloud) and
 * answers "ok". The cloud can call back tunnel URLs on *.localhost (see localhost-http.ts).
 */
import { createInterface } from 'node:readline';
import { startRealCloud } from '../../src/testing/clouds.ts';
import { startFeedHost } from '../../src/testing/feed-host.ts';

const cloud = await startRealCloud({ logSize: 50 });
const host = await startFeedHost();
const markup = cloud.markup('http-post');
/** Feeds under /websub name this hub too (set by "hub <url>"): the reader takes the hub. */
let hubUrl = '';

function feed(n: number, path = ''): string {
  const items: string[] = [];
  for (let k = n; k > Math.max(0, n - 10); k--) {
    items.push(
      `<item><title>Story ${k}</title><guid isPermaLink="false">story-${k}</guid><link>https://example.com/${k}</link>` +
        `<description>Item ${k}, pinged to the cloud.</description></item>`,
    );
  }
  const hub =
    hubUrl && path.startsWith('/websub')
      ? `<atom:link xmlns:atom="http://www.w3.org/2005/Atom" rel="hub" href="${hubUrl}"/>`
      : '';
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Latency</title><link>https://example.com/</link><description>bench</description>${markup}${hub}${items.join('')}</channel></rss>`;
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const [cmd, path, n] = line.trim().split(' ');
  if (cmd === 'set' && path) {
    host.set(path, feed(Number(n), path));
    process.stdout.write('ok\n');
  }
  if (cmd === 'hub' && path) {
    hubUrl = path;
    process.stdout.write('ok\n');
  }
});
lines.on('close', async () => {
  await cloud.close();
  await host.close();
  process.exit(0);
});
process.stdout.write(`ready ${cloud.port} ${host.url}\n`);
