/** Real servers for end-to-end tests: a feed host on loopback and `tidings serve` as a child process. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface FeedHost {
  url: string;
  /** Replaces the body served at `path`. */
  set(path: string, body: string, type?: string): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startFeedHost(): Promise<FeedHost> {
  const bodies = new Map<string, { body: string; type: string }>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const entry = bodies.get(path);
    if (!entry) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': entry.type }).end(entry.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (path, body, type = 'application/rss+xml; charset=utf-8') => bodies.set(path, { body, type }),
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface TidingsProcess {
  /** The URL printed by `tidings serve` (carries the token). */
  openUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '..', '..');

export async function startTidings(extraArgs: string[] = []): Promise<TidingsProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidings-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'tidings.cjs'), 'serve', '--port', '0', '--data', dataDir, ...extraArgs],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const openUrl = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`tidings serve did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tidings serve exited with ${code}:\n${output}`));
    });
  });
  return {
    openUrl,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function rssFeed(title: string, items: { title: string; guid: string; description: string; date: Date }[]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(title)}</title><link>http://example.com/</link><description>${esc(title)}</description>
${items
  .map(
    (i) =>
      `<item><title>${esc(i.title)}</title><guid isPermaLink="false">${esc(i.guid)}</guid><link>http://example.com/${esc(i.guid)}</link><description>${esc(i.description)}</description><pubDate>${i.date.toUTCString()}</pubDate></item>`,
  )
  .join('\n')}
</channel></rss>`;
}
