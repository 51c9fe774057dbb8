/**
 * A cloud server run as a real process (`tidings cloud` from the sources, or the packaged
 * `tidings-cloud`), its stdout read as the JSON log lines it writes: tests wait for a line, look
 * for what was (or was not) written, and stop it with SIGTERM. Not a test file itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Peer, postForm } from './cloud-kit.ts';

export interface LogLine {
  level: string;
  msg: string;
  time: string;
  reqId?: string;
  [field: string]: unknown;
}

export interface LoggedCloud {
  child: ChildProcess;
  /** http://127.0.0.1:PORT (no slash). */
  url: string;
  /** The listening line (where, which store, which doors...). */
  started: LogLine;
  /** Every line so far, parsed. */
  readonly lines: LogLine[];
  /** Everything written to stdout and stderr so far, as written. */
  output(): string;
  /** Resolves with the first line (already written or to come) that `match` accepts, or rejects after `ms`. */
  waitFor(match: (l: LogLine) => boolean, ms?: number): Promise<LogLine>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

export const CLOUD_CLI = fileURLToPath(new URL('../cloud/cli.ts', import.meta.url));

/** Starts `command args` (default: this Node on src/cloud/cli.ts) and waits for its listening line. */
export function startLoggedCloud(
  args: readonly string[],
  opts: { command?: string; prefix?: readonly string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<LoggedCloud> {
  const command = opts.command ?? process.execPath;
  const prefix = opts.prefix ?? (opts.command ? [] : [CLOUD_CLI]);
  const child = spawn(command, [...prefix, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: opts.env ?? process.env,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines: LogLine[] = [];
  const waiters = new Set<{ match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }>();
  let raw = '';
  let partial = '';
  child.stdout!.on('data', (d: Buffer) => {
    raw += d.toString();
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const text of parts) {
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { level: 'not-json', msg: text, time: '' };
      }
      lines.push(line);
      for (const w of waiters)
        if (w.match(line)) {
          waiters.delete(w);
          w.resolve(line);
        }
    }
  });
  child.stderr!.on('data', (d: Buffer) => {
    raw += d.toString();
  });
  const waitFor = (match: (l: LogLine) => boolean, ms = 20_000) => {
    const found = lines.find(match);
    if (found) return Promise.resolve(found);
    return new Promise<LogLine>((resolve, reject) => {
      const w = { match, resolve };
      waiters.add(w);
      const timer = setTimeout(() => {
        waiters.delete(w);
        reject(new Error(`no such log line within ${ms} ms; output:\n${raw}`));
      }, ms);
      timer.unref();
      void exited.then(() => {
        if (!waiters.has(w)) return;
        waiters.delete(w);
        clearTimeout(timer);
        reject(new Error(`the cloud exited before such a line; output:\n${raw}`));
      });
    });
  };
  return waitFor((l) => /listening on http/.test(l.msg)).then((started) => ({
    child,
    url: String(started.url).replace(/\/$/, ''),
    started,
    lines,
    output: () => raw,
    waitFor,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  }));
}

/**
 * The round every operator test makes: a feed on `peer` (/rss.xml) and a subscriber of it
 * (POST /cb, http-post) registered with `cloud`; then the feed changes, is pinged, and the
 * fan-out's log line is waited for. Resolves with the ping's answer (its X-Request-Id...).
 */
export async function registerThenPing(cloud: LoggedCloud, peer: Peer): Promise<Response> {
  let version = 1;
  peer.route(
    'GET',
    '/rss.xml',
    200,
    () => `<rss version="2.0"><channel><title>v${version}</title></channel></rss>`,
  );
  peer.route('POST', '/cb', 200, 'ok');
  const feedUrl = `${peer.url}/rss.xml`;
  const reg = await postForm(
    `${cloud.url}/pleaseNotify`,
    { port: peer.port, path: '/cb', protocol: 'http-post', url1: feedUrl },
    'application/json',
  );
  if (!(JSON.parse(reg.text) as { success: boolean }).success) throw new Error(`not registered: ${reg.text}`);
  version++;
  const ping = await fetch(`${cloud.url}/ping`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ url: feedUrl }),
  });
  await cloud.waitFor((l) => l.msg === 'fan-out done' && l.feedUrl === feedUrl);
  return ping;
}
